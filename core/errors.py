"""Errors that end a command with one readable line (the CLI prints them without a traceback)."""


class InputError(Exception):
    """Bad input from the user: a file, record or field that cannot be used. The message names it."""
