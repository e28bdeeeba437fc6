"""commands: the command line, every command in one place, on top of every other layer.

`main` is the `classeval-pro` entry point (the `build`, `domains`, `seeds` and `import-classeval` commands and
the registration of the others); each other module is one command or command group: `validate`, `judge`,
`mine`, `release` (with `publish`), `evaluate` (`eval`) and `serve`; `help` tidies typer's help pages.
A command resolves the settings from the environment, builds its stage or flow and prints what it did;
the work itself is in `pipeline` and `flows`.
"""
