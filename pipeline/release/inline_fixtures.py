"""Pytest fixtures written into the tests that take them, for the ClassEval export.

ClassEval's harness runs `unittest.TestCase` classes: a test method gets no fixtures. Our tests take the
setup several of them share as a fixture (`pipeline.synthesis.testgen.Fixture`); in the export each such
test starts with the fixture's statements instead, its instance under the name the test uses:

    @pytest.fixture                          def test_ready_tasks(self):
    def graph_with_two_tasks():                  graph_with_two_tasks = TaskGraph()
        graph = TaskGraph()             ->       graph_with_two_tasks.add_task("a", 1)
        graph.add_task("a", 1)                   graph_with_two_tasks.add_task("b", 2)
        graph.add_task("b", 2)                   assert graph_with_two_tasks.ready_tasks([]) == ["a", "b"]
        return graph

A fixture is written in only when that keeps its meaning: `@pytest.fixture` without arguments (function
scope: a fresh value per test, as the inlined statements give; not autouse, which no test names), a body
that ends in its only `return` (no `yield`: a teardown has no place to go), parameters that are themselves
such fixtures, and no name clash between what the fixture binds or reads and what the test binds (else a
test's variable would shadow a module name the fixture reads, or two fixtures' locals would overwrite each
other). A test any of whose fixtures is not of that kind is left as it is.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import libcst as cst


@dataclass(frozen=True)
class _Fixture:
    name: str
    params: tuple[str, ...]
    statements: tuple[cst.BaseStatement, ...]  # the body without its final return
    returned: cst.BaseExpression


def _is_plain_fixture_decorator(decorator: cst.Decorator) -> bool:
    node = decorator.decorator
    if isinstance(node, cst.Call):
        if node.args:
            return False
        node = node.func
    return (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "pytest"
            and node.attr.value == "fixture")


def _plain_params(params: cst.Parameters) -> tuple[str, ...] | None:
    """The names of positional parameters without defaults, or None for any other kind."""
    if params.posonly_params or params.kwonly_params or isinstance(params.star_arg, cst.Param) or params.star_kwarg:
        return None
    if any(p.default is not None for p in params.params):
        return None
    return tuple(p.name.value for p in params.params)


def _as_fixture(statement: cst.CSTNode) -> _Fixture | None:
    """The fixture a statement defines, when it is one that can be written into a test (module docstring)."""
    if not (isinstance(statement, cst.FunctionDef) and len(statement.decorators) == 1
            and _is_plain_fixture_decorator(statement.decorators[0]) and not statement.asynchronous
            and isinstance(statement.body, cst.IndentedBlock)):
        return None
    params = _plain_params(statement.params)
    body = statement.body.body
    if params is None or not body:
        return None
    last = body[-1]
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return)
            and last.body[0].value is not None):
        return None
    tree = ast.parse(cst.Module(body=[statement.with_changes(decorators=[])]).code).body[0]
    returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return)]
    if len(returns) != 1 or any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in ast.walk(tree)):
        return None
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(tree)):
        return None
    return _Fixture(statement.name.value, params, tuple(body[:-1]), last.body[0].value)


def inlinable_fixtures(module: cst.Module) -> dict[str, _Fixture]:
    """The module-level fixtures that can be written into the tests that take them, by name."""
    found = {}
    for statement in module.body:
        fixture = _as_fixture(statement)
        if fixture is not None:
            found[fixture.name] = fixture
    return found


def _names(code: str) -> tuple[set[str], set[str]]:
    """(names bound, names read) anywhere in `code` (nested scopes included: a conservative answer)."""
    bound, read = set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, (ast.Store, ast.Del)) else read).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound, read


class _Rename(cst.CSTTransformer):
    """Every use of the variable `old` becomes `new` (attribute names and keyword names stay)."""

    def __init__(self, old: str, new: str) -> None:
        super().__init__()
        self.old, self.new = old, new

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.new) if updated.value == self.old else updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)


def _code(nodes: Iterable[cst.CSTNode]) -> str:
    return "\n".join(cst.Module(body=[]).code_for_node(n) for n in nodes)


def _ways_to_write(fixture: _Fixture) -> list[tuple[list[cst.BaseStatement], str]]:
    """Ways to write the fixture's statements into a test, the plainest first, each with the variable that
    then holds its value: the fixture's own variable (`graph = TaskGraph()`, the test's uses of the fixture
    renamed to it, which gives back the test as it would be written without a fixture); the variable
    renamed to the fixture's name; the value assigned to the fixture's name at the end."""
    ways = []
    returned = fixture.returned
    if isinstance(returned, cst.Name) and returned.value != fixture.name and fixture.statements:
        bound, read = _names(_code(fixture.statements))
        if returned.value in bound:
            ways.append((list(fixture.statements), returned.value))
            if fixture.name not in bound | read:
                rename = _Rename(returned.value, fixture.name)
                ways.append(([s.visit(rename) for s in fixture.statements], fixture.name))  # type: ignore[misc]
    assign = cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(fixture.name))],
                                                      value=returned)])
    ways.append(([*fixture.statements, assign], fixture.name))
    return ways


def inline_fixtures(test: cst.FunctionDef, fixtures: Mapping[str, _Fixture]) -> cst.FunctionDef | None:
    """The test without parameters, its fixtures' statements first (dependencies before what needs them),
    or None when one of them cannot be written in (see the module docstring)."""
    params = _plain_params(test.params)
    if params is None or not isinstance(test.body, cst.IndentedBlock):
        return None
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> bool:
        if name in order:
            return True
        if name not in fixtures or name in path:
            return False
        if not all(visit(dep, path + (name,)) for dep in fixtures[name].params):
            return False
        order.append(name)
        return True

    if not all(visit(name, ()) for name in params):
        return None
    needed = {dep for name in order for dep in fixtures[name].params}  # read by a later fixture by its name
    own_bound, own_read = _names(_code(test.body.body))
    statements: list[cst.BaseStatement] = []
    renames: list[_Rename] = []
    taken = set(order) | own_bound | own_read  # what a fixture's statements must not bind (but their value)
    for name in order:
        for written, variable in _ways_to_write(fixtures[name]):
            if variable != name and name in needed:
                continue
            bound, read = _names(_code(written))
            if not ((bound - {name}) & taken or read & own_bound or name in own_bound):
                break
        else:
            return None
        taken |= bound
        statements.extend(written)
        if variable != name:
            renames.append(_Rename(name, variable))
    body = list(test.body.body)
    for rename in renames:
        body = [s.visit(rename) for s in body]  # type: ignore[misc]
    if statements:
        statements[0] = statements[0].with_changes(leading_lines=())
    return test.with_changes(params=test.params.with_changes(params=[]),
                             body=test.body.with_changes(body=[*statements, *body]))
