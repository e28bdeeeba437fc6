"""Which statements at the top of a method are guards: checks that raise before the method does its work.
Two kinds read them: `guard_order` puts independent guards in another order, `state_after_error` makes the
change first where an argument check fails."""

from __future__ import annotations

import ast

import libcst as cst

from validation.faithful.facts import MethodFacts, raised_names, raising_if, self_method


def read_guard(statement: cst.BaseStatement, module: cst.Module,
               methods: MethodFacts) -> tuple[set[str], set[str]] | None:
    """A guard's names and `self` attributes it depends on, and the exceptions it raises; None when the
    statement is no guard. Guards: `if ...: raise`, a loop of such checks over items, a call of a private
    method that can raise, and a name bound to what a method that can raise and changes nothing returns
    (`col = self.column_index(column)`: its name joins the guard's, so a check that uses it stays after)."""
    code = module.code_for_node(statement)
    try:
        node = ast.parse(code.strip()).body[0]
    except (SyntaxError, IndexError):
        return None
    local: set[str] = set()
    bound: set[str] = set()
    if raising_if(node):
        uses: ast.AST = node.test
        raised = raised_names(node)
    elif isinstance(node, ast.For) and not node.orelse and len(node.body) == 1 and raising_if(node.body[0]):
        uses = node  # a check of every item: `for x in xs: if bad(x): raise ...`
        local = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        raised = raised_names(node)
    elif isinstance(node, ast.Expr) and (callee := self_method(node.value)) and callee.startswith("_") \
            and methods.raises(callee):
        uses, raised = node.value, methods.raised(callee)
    elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
          and (callee := self_method(node.value)) and methods.raises(callee)
          and not methods.writes(callee)):
        # What the lookup's raise depends on: the arguments its raise clauses name, and the state it
        # reads (`missing_for(recipe, times)` raises on the recipe: a check of `times` is independent).
        assert isinstance(node.value, ast.Call)
        uses = ast.Tuple(elts=[*methods.checked_arguments(node.value), node.value.func], ctx=ast.Load())
        raised, bound = methods.raised(callee), {node.targets[0].id}
    else:
        return None
    names = {n.id for n in ast.walk(uses) if isinstance(n, ast.Name) and n.id != "self"}
    names |= {f"self.{n.attr}" for n in ast.walk(uses) if isinstance(n, ast.Attribute)
              and isinstance(n.value, ast.Name) and n.value.id == "self"}
    for attr in [a for a in names if a.startswith("self.")]:
        names |= methods.touched(attr[len("self."):])
    builtins = {"isinstance", "len", "type", "int", "float", "str", "bool", "list", "dict", "tuple", "set",
                "callable", "any", "all", "hasattr", "min", "max", "abs", "round", "None", "True", "False",
                "sorted"}
    return (names - builtins - local) | bound, raised


def call_statement(statement: cst.BaseStatement) -> bool:
    """A call, or a name bound to what a call returns (`_depth = self._enter_call("m")`)."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return False
    small = statement.body[0]
    if isinstance(small, cst.Expr):
        return isinstance(small.value, cst.Call)
    return (isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
            and all(isinstance(t.target, cst.Name) for t in small.targets))
