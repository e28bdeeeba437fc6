"""The oldest Python a piece of code needs: constructs named with their version, read by this interpreter's
`ast` or, for syntax newer than it, by libcst; the standard-library table checked against real interpreters."""

from __future__ import annotations

import json
import subprocess

import pytest

from core.analysis.python_need import (
    FLOOR,
    RUNNING,
    STDLIB_SINCE,
    Supported,
    parse_version,
    python_need,
    requires_python,
)
from tests.interpreters import find_python

CASES = [
    ("class _Item[KEY, VAL]:\n    pass\n", (3, 12), "type parameter list (PEP 695)"),
    ("def first[T](items: list[T]) -> T:\n    return items[0]\n", (3, 12), "type parameter list (PEP 695)"),
    ("type Pair = tuple[int, int]\n", (3, 12), "type alias statement (PEP 695)"),
    ("class Box[T = int]:\n    pass\n", (3, 13), "type parameter default (PEP 696)"),
    ('label = f"{row["name"]}"\n', (3, 12), "PEP 701"),
    ("try:\n    pass\nexcept* ValueError:\n    pass\n", (3, 11), "except* (PEP 654)"),
    ("match command:\n    case 'go':\n        pass\n", (3, 10), "match statement (PEP 634)"),
    ("x = t'{name}'\n", (3, 14), "template string"),
    ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", (3, 14), "PEP 758"),
    ("import itertools as it\npairs = list(it.batched(range(4), 2))\n", (3, 12), "itertools.batched"),
    ("from warnings import deprecated\n", (3, 13), "warnings.deprecated"),
    ("import tomllib\n", (3, 11), "tomllib"),
    ("from typing import Self\n", (3, 11), "typing.Self"),
    ("def f(x: int | None) -> None:\n    pass\n", (3, 10), "PEP 604"),
    ("both = list(zip(a, b, strict=True))\n", (3, 10), "zip(strict=...)"),
    ("from dataclasses import dataclass\n@dataclass(slots=True)\nclass P:\n    x: int\n", (3, 10),
     "dataclasses.dataclass(slots=...)"),
    ("raise ExceptionGroup('two', [])\n", (3, 11), "ExceptionGroup"),
]


@pytest.mark.parametrize(("source", "version", "named"), CASES, ids=[c[2] for c in CASES])
def test_each_construct_is_named_with_the_version_it_needs(source, version, named):
    need = python_need(source)
    assert need.version == version
    assert any(named in n.what and n.version == version for n in need.needs), need.needs
    newer_syntax = any(n.syntax and n.version > RUNNING for n in need.needs)
    assert need.parsed_by == ("libcst" if newer_syntax else "ast")  # this interpreter's ast reads the rest


def test_plain_code_and_back_ports_need_only_the_floor():
    assert python_need("class A:\n    def f(self):\n        return 1\n").version == FLOOR
    assert python_need("from typing_extensions import Self\n").version == FLOOR
    lazy = "from __future__ import annotations\ndef f(x: int | None) -> list[int]:\n    pass\n"
    assert python_need(lazy).version == FLOOR  # annotations are never evaluated
    local = "def f():\n    y: int | None = None\n    return y\n"
    assert python_need(local).version == FLOOR  # a local variable's annotation is never evaluated


def test_the_newest_need_of_several_sources_wins_and_each_is_listed_once():
    need = python_need("import tomllib\nimport tomllib as t\n", "class B[T]:\n    pass\n")
    assert need.text == "3.12"
    assert [n.what for n in need.needs] == ["type parameter list (PEP 695)", "tomllib"]
    assert requires_python("import tomllib\n") == "3.11"


def test_code_no_parser_reads_is_a_syntax_error():
    with pytest.raises(SyntaxError, match="null byte"):
        python_need("class A:\n    x = '\x00'\n")
    with pytest.raises(SyntaxError):
        python_need("def (:\n")
    assert requires_python("def (:\n") is None


def test_supported_names_the_sandbox_or_the_pipeline_parser_as_the_limit():
    generic = python_need("class _Item[KEY, VAL]:\n    pass\n")
    refused = Supported(sandbox=(3, 11), pipeline=(3, 11)).refusals(generic)
    assert refused == ("type parameter list (PEP 695) needs Python 3.12 (line 1); the sandbox runs Python 3.11",)
    # a newer sandbox runs it, but this process's ast would still have to read it
    assert "pipeline's own parser" in Supported(sandbox=(3, 12), pipeline=(3, 11)).refusals(generic)[0]
    assert Supported(sandbox=(3, 12), pipeline=(3, 12)).refusals(generic) == ()
    # a standard-library name only needs the interpreter that runs the code
    batched = python_need("import itertools\nitertools.batched([], 2)\n")
    assert Supported(sandbox=(3, 12), pipeline=(3, 11)).refusals(batched) == ()
    assert Supported(sandbox=(3, 11), pipeline=(3, 11)).refusals(batched)


def test_parse_version():
    assert parse_version("3.12.1") == (3, 12) and parse_version("3.9") == (3, 9)
    with pytest.raises(ValueError):
        parse_version("three")


PRESENT = r'''
import builtins, importlib, json, sys
out = {}
for name in json.loads(sys.argv[1]):
    parts, ok = name.split("."), False
    if len(parts) == 1 and hasattr(builtins, name):
        ok = True
    else:
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            try:
                for part in parts[i:]:
                    obj = getattr(obj, part)
                ok = True
            except AttributeError:
                pass
            break
    out[name] = ok
print(json.dumps(out))
'''


@pytest.mark.parametrize("minor", [(3, 9), (3, 10), (3, 11), (3, 12), (3, 13)], ids=lambda m: f"{m[0]}.{m[1]}")
def test_the_standard_library_table_matches_a_real_interpreter(minor):
    """Each listed name is present from its version on and absent before, asked of every CPython here."""
    python = find_python(minor)
    if python is None:
        pytest.skip(f"no Python {minor[0]}.{minor[1]} on this machine")
    done = subprocess.run([python, "-I", "-c", PRESENT, json.dumps(sorted(STDLIB_SINCE))], capture_output=True,
                          text=True, timeout=60, check=True)
    present = json.loads(done.stdout)
    wrong = {name: since for name, since in STDLIB_SINCE.items() if present[name] != (minor >= since)}
    assert not wrong, wrong
