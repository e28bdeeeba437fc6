"""Runs the console entry point in-process, as a user's shell would, and hands back what they would see.

The CLI ends every command with `sys.exit` (one line and exit 2 for bad input), so a test reads the exit code
from the SystemExit instead of calling the typer app directly, which would skip the entry point's handling.
"""

from __future__ import annotations

import sys

import pytest


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`classeval-pro ARGS...` through `commands.main.main`: (exit code, stdout, stderr)."""
    from commands.main import main

    monkeypatch.setattr(sys, "argv", ["classeval-pro", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    out = capsys.readouterr()
    return exit_info.value.code or 0, out.out, out.err
