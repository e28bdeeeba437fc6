"""The answer contract: how code is read out of a model's answer.

A code answer is Markdown holding one fenced `python` block (```` ```python ````, ```` ```py ```` or an
untagged fence); the text around it is ignored. When several such blocks appear, the one that defines the
expected class is used; when none or more than one qualify, the answer is bad. A bad answer raises
`BadAnswer` with its `RejectReason`, so that the stage records it as a rejection (with the raw answer) and
never passes it on silently.

The code is only parsed here (`ast`), never imported or run: answers are untrusted.
"""

from __future__ import annotations

import ast
import re

from core.records import RejectReason

PYTHON_TAGS = frozenset({"", "python", "python3", "py"})
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<tag>[\w+.-]*)[^\n]*\n(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$",
                    re.MULTILINE | re.DOTALL)


class BadAnswer(Exception):
    """A model answer that breaks the contract; `reason` is the rejection reason, `detail` one line."""

    def __init__(self, reason: RejectReason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


def python_blocks(text: str) -> list[str]:
    """The bodies of the fenced blocks tagged python (or untagged), in order."""
    return [m.group("body") for m in _FENCE.finditer(text) if m.group("tag").lower() in PYTHON_TAGS]


def _top_level_classes(code: str) -> list[str] | None:
    """Names of the module's top-level classes, or None when it does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    return [node.name for node in tree.body if isinstance(node, ast.ClassDef)]


def _defines(code: str, class_name: str) -> bool:
    names = _top_level_classes(code)
    if names is None:  # unparseable: judge by the text, so that a broken block still counts as the answer
        return re.search(rf"^class\s+{re.escape(class_name)}\b", code, re.MULTILINE) is not None
    return class_name in names


def _parse(code: str) -> ast.Module:
    try:
        return ast.parse(code)
    except SyntaxError as exc:
        raise BadAnswer(RejectReason.SYNTAX_ERROR, f"line {exc.lineno}: {exc.msg}") from None
    except ValueError as exc:  # e.g. a null byte
        raise BadAnswer(RejectReason.SYNTAX_ERROR, str(exc)) from None


def extract_python(text: str, class_name: str) -> str:
    """The code of the one block that defines `class_name`, checked to parse and to define it once."""
    blocks = python_blocks(text)
    if not blocks:
        raise BadAnswer(RejectReason.NO_CODE, "the answer holds no fenced python block")
    if len(blocks) > 1:
        qualifying = [b for b in blocks if _defines(b, class_name)]
        if not qualifying:
            raise BadAnswer(RejectReason.WRONG_CLASS_NAME,
                            f"none of the answer's {len(blocks)} python blocks defines class {class_name}")
        if len(qualifying) > 1:
            raise BadAnswer(RejectReason.SEVERAL_CLASSES,
                            f"{len(qualifying)} python blocks define class {class_name}; expected one")
        blocks = qualifying
    code = blocks[0].rstrip() + "\n"
    tree = _parse(code)
    names = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    if class_name not in names:
        found = ", ".join(names) or "no class"
        raise BadAnswer(RejectReason.WRONG_CLASS_NAME, f"expected class {class_name}, the code defines {found}")
    if names.count(class_name) > 1:
        raise BadAnswer(RejectReason.SEVERAL_CLASSES, f"class {class_name} is defined {names.count(class_name)} times")
    return code


def extract_tests(text: str) -> str:
    """The code of a tests answer: one python block (or, among several, the one holding test functions)."""
    blocks = python_blocks(text)
    if not blocks:
        raise BadAnswer(RejectReason.NO_CODE, "the answer holds no fenced python block")
    if len(blocks) > 1:
        with_tests = [b for b in blocks if re.search(r"^\s*def test_\w*\s*\(", b, re.MULTILINE)]
        if len(with_tests) != 1:
            raise BadAnswer(RejectReason.NO_CODE if not with_tests else RejectReason.AMBIGUOUS_ANSWER,
                            f"{len(with_tests)} of the answer's {len(blocks)} python blocks hold tests; expected one")
        blocks = with_tests
    code = blocks[0].rstrip() + "\n"
    _parse(code)
    return code
