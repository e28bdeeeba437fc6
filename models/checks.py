"""What each writer's code must satisfy before the gate sees it: cheap static checks of untrusted code.

Everything here parses with `ast` and never imports or runs the code. A failed check raises `BadAnswer`
with its reason, and the caller sends one repair prompt quoting `detail` before giving up on the answer.
"""

from __future__ import annotations

import ast
import sys

from core.records import RejectReason
from models.answers import BadAnswer

TEST_MODULES_ALLOWED = frozenset({"pytest"})


def _class_node(code: str, class_name: str) -> ast.ClassDef:
    tree = ast.parse(code)
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)


def _is_exception_class(node: ast.ClassDef) -> bool:
    """A helper exception class (`class Overdrawn(ValueError)`): interface, allowed beside the class."""
    names = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in node.bases]
    return any(n.endswith(("Error", "Exception", "Warning")) for n in names)


def other_classes(code: str, class_name: str) -> list[str]:
    """Top-level classes besides `class_name` that are not exception classes."""
    tree = ast.parse(code)
    return [n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.name != class_name
            and not _is_exception_class(n)]


def exception_classes(code: str) -> set[str]:
    return {n.name for n in ast.parse(code).body if isinstance(n, ast.ClassDef) and _is_exception_class(n)}


def methods(code: str, class_name: str) -> list[str]:
    """The class's method names, in order (nested functions excluded)."""
    return [n.name for n in _class_node(code, class_name).body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def public_methods(code: str, class_name: str) -> set[str]:
    return {m for m in methods(code, class_name) if not m.startswith("_")}


def check_single_class(code: str, class_name: str) -> None:
    extra = other_classes(code, class_name)
    if extra:
        raise BadAnswer(RejectReason.SEVERAL_CLASSES,
                        f"the code defines other classes besides {class_name}: {', '.join(extra)}")


def check_skeleton(code: str, class_name: str, min_methods: int) -> None:
    """One class (plus exception classes) with at least `min_methods` methods besides `__init__`."""
    check_single_class(code, class_name)
    count = len([m for m in methods(code, class_name) if m != "__init__"])
    if count < min_methods:
        raise BadAnswer(RejectReason.TOO_SMALL,
                        f"the skeleton of {class_name} has {count} method(s) besides __init__; at least "
                        f"{min_methods} are needed")


def _top_module(name: str | None) -> str:
    return (name or "").split(".", 1)[0]


def check_tests(code: str, module_name: str, class_name: str, skeleton: str) -> None:
    """Tests import the class from `module_name` and otherwise only pytest and the standard library: a test
    that imports another module (a solution, a third-party package) tests something else."""
    tree = ast.parse(code)
    allowed_names = {class_name} | exception_classes(skeleton)
    imports_class = False
    foreign: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = _top_module(alias.name)
                if top == module_name:
                    imports_class = True
                elif top not in TEST_MODULES_ALLOWED and top not in sys.stdlib_module_names:
                    foreign.append(alias.name)
        elif isinstance(node, ast.ImportFrom):
            top = _top_module(node.module)
            if node.level or not top:
                foreign.append("." * node.level + (node.module or ""))
            elif top == module_name:
                names = {alias.name for alias in node.names}
                imports_class |= class_name in names or "*" in names
                foreign.extend(f"{module_name}.{n}" for n in sorted(names - allowed_names - {"*"}))
            elif top not in TEST_MODULES_ALLOWED and top not in sys.stdlib_module_names:
                foreign.append(node.module or "")
    if foreign:
        raise BadAnswer(RejectReason.FOREIGN_IMPORT,
                        f"the tests import {', '.join(sorted(set(foreign)))}; only `from {module_name} import "
                        f"{class_name}`, pytest and the standard library may be imported")
    if not imports_class:
        raise BadAnswer(RejectReason.FOREIGN_IMPORT, f"the tests never import {class_name} from {module_name}")
    if not any(isinstance(n, ast.FunctionDef) and n.name.startswith("test") for n in ast.walk(tree)):
        raise BadAnswer(RejectReason.NO_TESTS, "the answer defines no test function")


def check_reference(code: str, class_name: str, skeleton: str) -> None:
    """The reference implements exactly the skeleton's public methods (no more, no fewer)."""
    check_single_class(code, class_name)
    wanted, got = public_methods(skeleton, class_name), public_methods(code, class_name)
    if wanted != got:
        missing, extra = sorted(wanted - got), sorted(got - wanted)
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"extra {', '.join(extra)}"] if extra else [])
        raise BadAnswer(RejectReason.SKELETON_MISMATCH,
                        f"the reference's public methods differ from the skeleton's: {'; '.join(parts)}")
