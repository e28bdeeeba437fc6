"""Every function of the product is short enough to read: at most `MAX_LINES` lines (its `def` to its last
line, decorators left out). A longer one is split into named steps that each do one thing."""

from __future__ import annotations

import ast

from tests.import_graph import LAYERS, ROOT

MAX_LINES = 80


def _function_lengths(source: str) -> list[tuple[int, str, int]]:
    """(lines, qualified name, first line) of every function and method in `source`, nested ones included."""
    found: list[tuple[int, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    found.append((child.end_lineno - child.lineno + 1, name, child.lineno))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_the_measure_counts_from_def_to_the_last_line_without_decorators():
    source = "@decorator\n@another\ndef f():\n    x = 1\n\n    return x\n\n\nclass C:\n    def m(self):\n        pass\n"
    assert _function_lengths(source) == [(4, "f", 3), (2, "C.m", 10)]


def test_no_function_is_longer_than_the_limit():
    too_long = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            for lines, name, line in _function_lengths(path.read_text(encoding="utf-8")):
                if lines > MAX_LINES:
                    too_long.append(f"{path.relative_to(ROOT)}:{line} {name}: {lines} lines")
    assert not too_long, too_long
