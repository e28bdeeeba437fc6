"""Help pages without noise: no `<bool>` beside a flag, no `{path}` braces around an argument in a usage line.

The installed typer prints a type for every option, including flags that take no value (`--debug <bool>`),
and wraps each required argument in braces in the usage line (`validate [OPTIONS] {path}`). Both read as
syntax a user should type. Rather than pinning an older typer, the command tree typer builds is walked once
before it runs, and each flag and argument is given a subclass that renders itself plainly: a flag shows no
type, an argument shows its name in capitals (`PATH`, `[PATH]` when optional). Parsing is not affected.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from typer.core import TyperArgument, TyperOption


class _PlainFlag(TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        return None


class _PlainArgument(TyperArgument):
    def _usage_display_name(self) -> str:
        name = (self.metavar or self.name or "").upper()
        name = name if self.required else f"[{name}]"
        return f"{name}..." if self.nargs != 1 else name


def tidy_help(command: Any) -> Any:
    """Give every flag and argument of `command` and its subcommands the plain rendering; returns `command`."""
    # `--help` is made on first use and cached; made now (it needs only the names) it is tidied like the rest.
    help_option = command.get_help_option(SimpleNamespace(help_option_names=["--help"]))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if type(param) is TyperOption and param.is_flag:
            param.__class__ = _PlainFlag
        elif type(param) is TyperArgument:
            param.__class__ = _PlainArgument
    for sub in getattr(command, "commands", {}).values():  # a group (typer carries its own click)
        tidy_help(sub)
    return command
