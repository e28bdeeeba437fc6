"""Splicing methods into a class: how the method-by-method strategies build their completion.

libcst keeps the rest of the module byte for byte (comments, docstrings, formatting), so the class a model
sees in the next prompt is exactly the skeleton plus the methods written so far. Code from answers is only
parsed here, never run.
"""

from __future__ import annotations

import ast

import libcst as cst

_STUB_CALLS = ("NotImplementedError",)


def is_stub(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A body of only a docstring, `pass`, `...` or `raise NotImplementedError`: a method still to write."""
    for statement in function.body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # docstring or `...`
        if isinstance(statement, ast.Raise) and statement.exc is not None:
            target = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
            if isinstance(target, ast.Name) and target.id in _STUB_CALLS:
                continue
        return False
    return True


def methods_to_write(skeleton: str, class_name: str) -> list[str]:
    """The class's stub methods, in source order (a constructor given in full is not asked for)."""
    for node in ast.parse(skeleton).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return [n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_stub(n)]
    raise ValueError(f"the skeleton does not define class {class_name}")


def _class_node(module: cst.Module, class_name: str) -> cst.ClassDef:
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == class_name:
            return statement
    raise ValueError(f"no class {class_name}")


def method_source(code: str, class_name: str, method: str) -> cst.FunctionDef | None:
    """The method `method` of `class_name` in `code` (or a top-level function of that name), if any."""
    module = cst.parse_module(code)
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == class_name:
            for item in statement.body.body:
                if isinstance(item, cst.FunctionDef) and item.name.value == method:
                    return item
        if isinstance(statement, cst.FunctionDef) and statement.name.value == method:
            return statement
    return None


def imports_of(code: str) -> list[str]:
    """Top-level import statements of `code`, as source lines."""
    module = cst.parse_module(code)
    return [module.code_for_node(s).strip() for s in module.body
            if isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, (cst.Import, cst.ImportFrom)) for x in s.body)]


def replace_method(code: str, class_name: str, function: cst.FunctionDef) -> str:
    """`code` with the class's method of the same name replaced by `function` (appended when absent)."""
    module = cst.parse_module(code)
    target = _class_node(module, class_name)
    name = function.name.value
    items = list(target.body.body)
    positions = [i for i, item in enumerate(items) if isinstance(item, cst.FunctionDef) and item.name.value == name]
    if positions:
        items[positions[0]] = function
    else:
        items.append(function)
    new_class = target.with_changes(body=target.body.with_changes(body=items))
    return module.with_changes(body=[new_class if s is target else s for s in module.body]).code


def add_imports(code: str, imports: list[str]) -> str:
    """`code` with the given import lines put first, skipping those it already has."""
    present = set(imports_of(code))
    missing = [line for line in dict.fromkeys(imports) if line not in present]
    return ("\n".join(missing) + "\n" + code) if missing else code
