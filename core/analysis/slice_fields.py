"""The fields the classes of a module keep on their instances, and the names its skeleton states.

A skeleton shows every class of a task's module with its bodies removed, so a field a method assigns on
`self` (`self.height = 0` in a tree node's constructor) vanishes from what a solver sees unless a docstring
names it or the class declares it at class level (a dataclass field, an annotation, a property). A test
that reads or assigns such a field of another class of the module (`tree.root.left.key`,
`node.height == 0`) checks a name and a convention the solver was never given; the consistency judge
(`judges/offline/consistency.py`) and the mined tests' filter (`pipeline/mining/stated_tests.py`) read these
two facts to find it. Static (`ast`): nothing runs.
"""

from __future__ import annotations

import ast
import re

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _self_targets(target: ast.AST, self_name: str) -> set[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_self_targets(t, self_name) for t in target.elts))
    if isinstance(target, ast.Starred):
        return _self_targets(target.value, self_name)
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name:
        return {target.attr}
    return set()


def instance_fields(source: str) -> dict[str, set[str]]:
    """Per class of the module (nested ones too), the names its methods assign on their first parameter
    (`self.x = ...`, `self.x += ...`, `self.x: int = ...`, tuple targets). Classes with none are left out."""
    found: dict[str, set[str]] = {}
    for klass in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        names: set[str] = set()
        for method in (m for m in klass.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))):
            params = [*method.args.posonlyargs, *method.args.args]
            if not params:
                continue
            for node in ast.walk(method):
                targets = (node.targets if isinstance(node, ast.Assign) else
                           [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
                for target in targets:
                    names |= _self_targets(target, params[0].arg)
        if names:
            found.setdefault(klass.name, set()).update(names)
    return found


def stated_names(skeleton: str) -> set[str]:
    """Every name the skeleton states for any of its classes: their methods and class-level names
    (annotations, assignments, dataclass fields), and every identifier in a docstring of the module, a
    class or a function."""
    tree = ast.parse(skeleton)
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, _DOCUMENTED):
            words |= set(_WORD.findall(ast.get_docstring(node) or ""))
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    words.add(item.name)
                elif isinstance(item, ast.Assign):
                    words |= {t.id for t in item.targets if isinstance(t, ast.Name)}
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    words.add(item.target.id)
    return words


def module_classes(skeleton: str) -> list[str]:
    """The names of the module's top-level classes, in source order."""
    return [n.name for n in ast.parse(skeleton).body if isinstance(n, ast.ClassDef)]
