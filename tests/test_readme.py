"""The README's promises that code can check: its configuration example is the defaults, its links stay
inside the repository, and the commands it documents are the ones the CLI has."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from pipeline.stages.config import BuildConfig

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _configuration_example() -> str:
    section = README[README.index("## Configuration"):]
    return re.search(r"```toml\n(.*?)```", section, re.S).group(1)


def test_the_configuration_example_is_the_default_configuration():
    shown = BuildConfig.model_validate(tomllib.loads(_configuration_example()))
    assert shown == BuildConfig()


def test_every_commented_setting_in_the_example_would_change_the_build():
    for line in _configuration_example().splitlines():
        match = re.match(r"# (\w+) = (.*?)\s*(#.*)?$", line)
        if match is None:
            continue
        section = _section_of(line)
        data = tomllib.loads(f"{match.group(1)} = {match.group(2)}")
        changed = BuildConfig.model_validate({section: data} if section else data)
        assert changed != BuildConfig(), line


def _section_of(line: str) -> str | None:
    text = _configuration_example()
    before = text[:text.index(line)]
    headers = re.findall(r"^\[(\w+)\]", before, re.M)
    return headers[-1] if headers else None


def test_links_stay_inside_the_repository():
    assert "shared notes" not in README.lower() and "DESIGN.md" not in README and "STACK-NOTES" not in README
    for target in re.findall(r"\]\(([^)]+)\)", README):
        assert not re.match(r"\w+://", target), target
        assert (ROOT / target.split("#")[0]).exists(), target


def test_every_command_of_the_cli_is_documented():
    from typer.main import get_command

    from commands.main import app

    def names(command, prefix=""):
        for name, sub in getattr(command, "commands", {}).items():
            if getattr(sub, "commands", None):
                yield from names(sub, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}"

    table = README[README.index("## The command line"):README.index("## Adding a domain")]
    missing = [name for name in names(get_command(app)) if f"| `{name}" not in table]
    assert not missing, missing
