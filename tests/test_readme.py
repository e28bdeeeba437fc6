"""The README's promises that code can check, and those of every docs page it leads to: the README stays a
ten-minute read, the configuration example is the defaults, links stay inside the repository and reach a
file (and a heading, when they name one), every command of the CLI is documented, every
`classeval-pro` command shown in a code block is one the CLI has, with options it takes, and every script
run there exists.

A code block right after a line starting `<!-- unchecked` documents a command that is not on this branch
yet; it is left out of the command check until that line is removed."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
from typer.main import get_command

from commands.main import app
from pipeline.stages.config import BuildConfig

ROOT = Path(__file__).resolve().parent.parent
README_PATH = ROOT / "README.md"
README = README_PATH.read_text(encoding="utf-8")
MAX_README_LINES = 300
UNCHECKED = "<!-- unchecked"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _documents() -> list[Path]:
    """The README and every markdown page under docs/ reachable from it through links."""
    seen, todo = [], [README_PATH]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.append(page)
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            path = (page.parent / target.split("#")[0]).resolve()
            if path.suffix == ".md" and path.is_file() and path.parent == ROOT / "docs":
                todo.append(path)
    return seen


DOCUMENTS = _documents()
DOCS = {page.name: page.read_text(encoding="utf-8") for page in DOCUMENTS if page.parent.name == "docs"}


def _ids(pages):
    return [str(page.relative_to(ROOT)) for page in pages]


def test_the_readme_is_a_ten_minute_read():
    assert len(README.splitlines()) <= MAX_README_LINES


def test_the_readme_leads_to_the_reference_pages():
    for name in ("README.md", "ARCHITECTURE.md", "configuration.md", "cli.md", "measurements.md"):
        assert name in DOCS, name


def _configuration_example() -> str:
    section = DOCS["configuration.md"]
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


def _anchors(text: str) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+\s+(.*?)\s*$", _without_code(text), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def _without_code(text: str) -> str:
    return "\n".join(line for line, _ in _prose_lines(text))


def _prose_lines(text: str):
    """(line, in_code) for each line: fenced blocks and four-space indented blocks after a blank line are code."""
    fenced, indented, previous = False, False, ""
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            yield line, True
            continue
        if fenced:
            yield line, True
        else:
            indented = bool(line.startswith("    ")) and (indented or previous.strip() == ""
                                                          or previous.lstrip().startswith(UNCHECKED))
            yield line, indented
        previous = line


@pytest.mark.parametrize("page", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_links_stay_inside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    assert "shared notes" not in text.lower() and "DESIGN.md" not in text and "STACK-NOTES" not in text
    for target in LINK.findall(text):
        assert not re.match(r"\w+://", target), f"{page.name}: {target}"
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.exists() and resolved.is_relative_to(ROOT), f"{page.name}: {target}"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved.read_text(encoding="utf-8")), f"{page.name}: {target}"


def test_every_command_of_the_cli_is_documented():
    def names(command, prefix=""):
        for name, sub in getattr(command, "commands", {}).items():
            if getattr(sub, "commands", None):
                yield from names(sub, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}"

    table = DOCS["cli.md"]
    missing = [name for name in names(get_command(app)) if f"| `{name}" not in table]
    assert not missing, missing


def _code_blocks(text: str) -> list[tuple[bool, list[str]]]:
    """Each code block as (checked, lines): unchecked when the line before it starts with `<!-- unchecked`."""
    blocks: list[tuple[bool, list[str]]] = []
    previous_prose = ""
    in_block = False
    for line, code in _prose_lines(text):
        if code and not in_block:
            blocks.append((not previous_prose.lstrip().startswith(UNCHECKED), []))
        if code:
            blocks[-1][1].append(line)
        elif line.strip():
            previous_prose = line
        in_block = code if (code or line.strip()) else in_block
    return blocks


COMMAND = re.compile(r"(?:^|[\s=])(?:\S*/)?classeval-pro(?=\s)(.*)$")


def _commands(text: str) -> list[str]:
    """The `classeval-pro` command lines of a page's checked code blocks, continuation lines joined."""
    found = []
    for checked, lines in _code_blocks(text):
        joined = "\n".join(lines).replace("\\\n", " ")
        for line in joined.splitlines():
            match = COMMAND.search(line)
            if checked and match and match.group(1).strip():
                found.append(match.group(1))
    return found


def _problems(arguments: str) -> list[str]:
    """What the CLI would refuse in one command line: an unknown command, an unknown option, too many or too
    few arguments. Option values are not checked (they are placeholders such as ORG/NAME)."""
    tokens = [t.strip("[]") for t in shlex.split(arguments, comments=True)]
    tokens = [t for t in tokens if t]
    command = get_command(app)  # typer's own click: told apart by duck typing, not by class
    while hasattr(command, "commands") and tokens:
        if tokens[0].startswith("-"):
            tokens = tokens[1:]  # a global option such as --debug
            continue
        sub = command.commands.get(tokens[0])
        if sub is None:
            return [f"no command {tokens[0]!r}"]
        command, tokens = sub, tokens[1:]
    if hasattr(command, "commands"):
        return [] if "--help" in tokens else [f"{command.name} needs a command"]
    options = {opt: p for p in command.params if p.param_type_name == "option"
               for opt in p.opts + p.secondary_opts}
    positional, problems = [], []
    while tokens:
        token, tokens = tokens[0], tokens[1:]
        if not token.startswith("-") or token == "-":
            positional.append(token)
            continue
        name = token.split("=", 1)[0]
        if name == "--help":
            return []
        if name not in options:
            problems.append(f"{command.name}: no option {name}")
        elif not options[name].is_flag and "=" not in token:
            tokens = tokens[1:]
    arguments_taken = [p for p in command.params if p.param_type_name == "argument"]
    if len(positional) > sum(max(p.nargs, 1) if p.nargs != -1 else 99 for p in arguments_taken):
        problems.append(f"{command.name}: too many arguments {positional}")
    if len(positional) < sum(1 for p in arguments_taken if p.required):
        problems.append(f"{command.name}: missing an argument")
    return problems


@pytest.mark.parametrize("page", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_every_command_shown_is_one_the_cli_takes(page):
    problems = [f"classeval-pro{line}: {problem}" for line in _commands(page.read_text(encoding="utf-8"))
                for problem in _problems(line)]
    assert not problems, problems


@pytest.mark.parametrize("page", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_every_script_shown_exists(page):
    scripts = [script for checked, lines in _code_blocks(page.read_text(encoding="utf-8")) if checked
               for line in lines for script in re.findall(r"python3? (\S+\.py)\b", line)]
    assert all((ROOT / script).is_file() for script in scripts), scripts


def test_the_command_check_finds_what_the_cli_refuses():
    assert _problems(" eval 2026.12.0 --model reference --n 1") == []
    assert _problems(" serve --cron \"0 3 1 * *\" [--publish ORG/NAME]") == []
    assert _problems(" release diff") == ["diff: missing an argument"]
    assert _problems(" release undo 2026.12.0") == ["no command 'undo'"]
    assert _problems(" eval 2026.12.0 --model reference --no-such-option") == ["eval: no option --no-such-option"]
    assert _problems(" domains extra") == ["domains: too many arguments ['extra']"]


def test_unchecked_code_blocks_are_left_out_and_only_they():
    page = ("Text.\n\n    .venv/bin/classeval-pro release undo 1\n\n<!-- unchecked: not on main yet -->\n"
            "    .venv/bin/classeval-pro cache --prune\n\nMore.\n\n```\nHF_TOKEN=x classeval-pro domains\n```\n")
    assert _commands(page) == [" release undo 1", " domains"]
