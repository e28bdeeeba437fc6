"""The ClassEval-compatible JSON export (`classeval.json`).

ClassEval's harness writes a solution (the reference's `solution_code`, or a model's completion with the
task's `import_statement` lines put in front) and the task's `test` into one module, imports it, and for
each name in `test_classes` runs `unittest.TestLoader().loadTestsFromTestCase(getattr(module, name))`
(each class under a 5 s timeout); a name that is not a `unittest.TestCase` class is an error for the whole
class, the reference included. So the export differs from the released `Task` in three columns:

- `test` is a unittest module in ClassEval's shape: every test function of our pytest module becomes a
  method of a `unittest.TestCase` class, one class per method under test (`<Class>Test<Method>`, the
  tests that call only that method of the class) and one for the tests that drive several methods or none
  (`<Class>Test`). Our tests' `pytest.raises` / `pytest.approx` work outside a pytest run, so the module
  keeps its `import pytest` (the harness's environment needs pytest installed). The test's own
  `from <module_name> import ...` lines are removed: the class is the one defined just above it. A plain
  `import <module_name>` (tests that write `module.Class`) cannot be rewritten safely and is left as is.
- `test_classes` names those classes, and the module's own test classes (a repository's tests are often
  plain pytest classes: made `unittest.TestCase` subclasses, `as_test_case`), so the harness runs every test
  the module holds; `methods_info[].test_class` / `test_code` name and hold each method's.
- `solution_code` is the whole reference module, its imports first, so it runs on its own as ClassEval's
  does; `import_statement` lists those imports for the completions, then the module-level statements above
  the class (constants, helpers): the harness puts `import_statement` in front of the code it cut out of
  an answer, and its cut keeps only import lines above the class (`pipeline.release.harness_safe`).
- `solution_code` and `skeleton` hold no three backticks in a row (strings keep their values): an answer
  in a Markdown fence is cut at the first three backticks after the opening ones.

A test that takes fixtures starts, in its unittest method, with the fixtures' statements, its instance under
the name the test uses (`pipeline.release.inline_fixtures`); a fixture no remaining function takes is left
out. A test function whose fixtures cannot be written in (a `yield` fixture, one with a scope, a name clash)
or that carries decorators (`parametrize`) has no unittest equivalent here: it stays a module-level function
the harness does not run, and its task is named in the release's manifest under `export_notes` (as are
tasks whose test imports its module).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from core.records import Task
from core.store import atomic_write_text
from pipeline.release.harness_safe import FENCE, carried_statements, decorated_first_class, fence_safe
from pipeline.release.inline_fixtures import inlinable_fixtures, inline_fixtures

CLASSEVAL_FILE = "classeval.json"


def strip_module_import(test: str, module_name: str) -> tuple[str, bool]:
    """(`test` without top-level `from module_name import ...` lines, whether a plain import remains)."""
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return test, False
    lines = test.splitlines(keepends=True)
    drop: set[int] = set()
    plain_import = False
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == module_name:
            drop.update(range(node.lineno - 1, node.end_lineno or node.lineno))
        elif isinstance(node, ast.Import) and any(a.name == module_name for a in node.names):
            plain_import = True
    return "".join(line for i, line in enumerate(lines) if i not in drop), plain_import


def camel(name: str) -> str:
    """`is_start_with` -> `IsStartWith` (ClassEval's test class suffixes)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


@dataclass
class UnittestModule:
    """A pytest module rewritten as unittest classes."""

    code: str
    classes: dict[str, str] = field(default_factory=dict)  # class name -> its source, in module order
    method_class: dict[str, str] = field(default_factory=dict)  # method under test -> its own class
    not_converted: list[str] = field(default_factory=list)  # test functions left as module-level functions
    kept_classes: list[str] = field(default_factory=list)  # the module's own test classes, as TestCase classes


def _called_methods(function: ast.AST, methods: frozenset[str]) -> set[str]:
    return {node.func.attr for node in ast.walk(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods}


def to_unittest(test: str, class_name: str, method_names: Sequence[str],
                taken: frozenset[str] = frozenset()) -> UnittestModule:
    """`test` (a pytest module without the import of the class) as unittest classes in ClassEval's shape.

    Only top-level `def test_*()` functions without decorators move into classes, those with arguments only
    when the arguments are fixtures that can be written into them; everything else (imports, helpers,
    constants, fixtures some function still takes, existing test classes) keeps its place, in order, and
    the classes follow. `from __future__` lines are dropped: in the pasted module they would come after the
    solution, a SyntaxError. `taken` holds names the classes must not shadow (the solution's). libcst moves
    the functions, so a multi-line string inside a test keeps its exact text when the body is indented.
    Raises SyntaxError (libcst's ParserSyntaxError) for a test that does not parse.
    """
    module = cst.parse_module(test)
    methods = frozenset(m for m in method_names if not (m.startswith("__") and m.endswith("__")))
    defined = module_names(test)

    def unique(name: str) -> str:
        while name in taken or name in defined:
            name += "_"
        return name

    head: list[cst.CSTNode] = []
    groups: dict[str, list[cst.FunctionDef]] = {}
    method_class: dict[str, str] = {}
    not_converted: list[str] = []
    plain_class = unique(f"{class_name}Test")
    uses_unittest = False
    fixtures = inlinable_fixtures(module)
    # statement by statement in libcst's terms (`import a; import b` is one libcst line, two ast nodes)
    kept_classes: list[str] = []
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and _test_methods(statement):
            statement = _kept_class(statement, kept_classes, not_converted)
        if isinstance(statement, cst.FunctionDef) and statement.name.value.startswith("test"):
            params = statement.params
            if params.params and not statement.decorators and not statement.asynchronous:
                statement = inline_fixtures(statement, fixtures) or statement
                params = statement.params
            if (statement.decorators or statement.asynchronous or params.params or params.posonly_params
                    or params.kwonly_params or isinstance(params.star_arg, cst.Param) or params.star_kwarg):
                not_converted.append(statement.name.value)
                head.append(statement)
                continue
            nodes = ast.parse(module.code_for_node(statement)).body
            called = _called_methods(nodes[0], methods)
            name = plain_class
            if len(called) == 1:  # a test of one method goes to that method's class
                method = called.pop()
                if method not in method_class:
                    method_class[method] = unique(f"{class_name}Test{camel(method)}")
                name = method_class[method]
            groups.setdefault(name, []).append(statement.with_changes(params=params.with_changes(
                params=[cst.Param(cst.Name("self"))])))
            continue
        nodes = ast.parse(module.code_for_node(statement)).body
        if any(isinstance(n, ast.ImportFrom) and n.module == "__future__" for n in nodes):
            continue
        uses_unittest |= any(isinstance(n, ast.Import) and any(a.name == "unittest" and a.asname is None
                                                               for a in n.names) for n in nodes)
        head.append(statement)
    head = _without_unused_fixtures(head, set(fixtures))
    if not uses_unittest:
        head.insert(0, cst.parse_statement("import unittest\n"))
    # ClassEval's order: the per-method classes first, the class of the methods working together last
    order = [n for n in groups if n != plain_class] + ([plain_class] if plain_class in groups else [])
    classes = {}
    for name in order:
        body = [f.with_changes(leading_lines=[cst.EmptyLine()] if i else []) for i, f in enumerate(groups[name])]
        definition = cst.ClassDef(name=cst.Name(name), bases=[cst.Arg(cst.parse_expression("unittest.TestCase"))],
                                  body=cst.IndentedBlock(body=body),
                                  leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
        classes[name] = definition
    code = module.with_changes(body=[*head, *classes.values()]).code
    sources = {name: cst.Module(body=[c.with_changes(leading_lines=[])]).code for name, c in classes.items()}
    return UnittestModule(code=code, classes=sources, method_class=method_class, not_converted=not_converted,
                          kept_classes=kept_classes)


PYTEST_HOOKS = {"setup_method": "setUp", "teardown_method": "tearDown"}
"""pytest's per-test hooks of a test class and their unittest names (both take only `self` here)."""


def _kept_class(node: cst.ClassDef, kept: list[str], not_converted: list[str]) -> cst.ClassDef:
    """A test class of the module as a TestCase (its name added to `kept`), or as it is (to `not_converted`)."""
    converted = as_test_case(node)
    (not_converted if converted is None else kept).append(node.name.value)
    return converted or node


def _test_methods(node: cst.ClassDef) -> list[cst.FunctionDef]:
    return [f for f in node.body.body if isinstance(f, cst.FunctionDef) and f.name.value.startswith("test")]


def as_test_case(node: cst.ClassDef) -> cst.ClassDef | None:
    """A test class of the module (a repository's tests are often plain pytest classes) as a class the
    harness's `loadTestsFromTestCase` runs: a `unittest.TestCase` subclass stays as it is; a plain class
    (no base) whose tests take only `self`, without decorators, gets the base, and its `setup_method` /
    `teardown_method` become `setUp` / `tearDown`. None when it cannot be run that way (another base,
    fixtures as parameters, class-level pytest hooks, parametrised tests)."""
    bases = [cst.Module([]).code_for_node(b.value) for b in node.bases]
    if any(b.rsplit(".", 1)[-1] in ("TestCase", "IsolatedAsyncioTestCase") for b in bases):
        return node
    functions = [f for f in node.body.body if isinstance(f, cst.FunctionDef)]
    names = {f.name.value for f in functions}
    if bases or node.keywords or node.decorators or names & {"setup_class", "teardown_class", "setUp", "tearDown"}:
        return None
    for function in functions:
        if function.name.value.startswith("test") or function.name.value in PYTEST_HOOKS:
            params = function.params
            if (function.decorators or function.asynchronous or len(params.params) != 1
                    or isinstance(params.star_arg, cst.Param) or params.kwonly_params or params.star_kwarg or params.posonly_params):
                return None
    body = [f.with_changes(name=cst.Name(PYTEST_HOOKS[f.name.value]))
            if isinstance(f, cst.FunctionDef) and f.name.value in PYTEST_HOOKS else f for f in node.body.body]
    return node.with_changes(bases=[cst.Arg(cst.parse_expression("unittest.TestCase"))],
                             body=node.body.with_changes(body=body))


def _without_unused_fixtures(head: list[cst.CSTNode], inlinable: set[str]) -> list[cst.CSTNode]:
    """`head` without the fixtures that were written into every test taking them: those no remaining
    statement asks for (as a parameter, or in a string such as `usefixtures("x")`)."""
    while True:
        named: set[str] = set()
        for statement in head:
            for node in ast.walk(ast.parse(cst.Module(body=[statement]).code)):
                if isinstance(node, ast.arg):
                    named.add(node.arg)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    named.add(node.value)
        unused = [s for s in head if isinstance(s, cst.FunctionDef) and s.name.value in inlinable
                  and s.name.value not in named]
        if not unused:
            return head
        head = [s for s in head if not any(s is u for u in unused)]


def module_names(source: str) -> frozenset[str]:
    """Top-level names `source` defines (the test classes must not shadow them)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset()
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    return frozenset(names)


@dataclass
class ExportNotes:
    """Tasks the ClassEval export could not carry over whole (listed in the release's manifest)."""

    test_imports_module: list[str] = field(default_factory=list)
    tests_not_converted: dict[str, list[str]] = field(default_factory=dict)
    # ClassEval's extraction would still change these: a decorated first class (its decorator lines are
    # dropped), three backticks the rewrite could not reach (an f-string's text)
    harness_unsafe: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"test_imports_module": self.test_imports_module, "tests_not_converted": self.tests_not_converted,
                **({"harness_unsafe": self.harness_unsafe} if self.harness_unsafe else {})}


def classeval_entry(task: Task, notes: ExportNotes | None = None) -> dict:
    """One task in ClassEval's shape (see the module docstring); what did not carry over goes to `notes`."""
    notes = notes if notes is not None else ExportNotes()
    test, plain_import = strip_module_import(task.test, task.module_name)
    if plain_import:
        notes.test_imports_module.append(task.task_id)
    header = "\n".join(task.import_statement)
    solution = fence_safe((header + "\n\n" if header else "") + task.solution_code)
    imports = [*task.import_statement, *carried_statements(task.solution_code)]
    if decorated_first_class(task.solution_code):
        notes.harness_unsafe[task.task_id] = "the class's decorators stand above it, where the harness keeps imports only"
    elif FENCE in solution:
        notes.harness_unsafe[task.task_id] = "three backticks in an f-string's text would end a fence"
    converted = to_unittest(test, task.class_name, [m.method_name for m in task.methods_info], module_names(solution))
    if converted.not_converted:
        notes.tests_not_converted[task.task_id] = converted.not_converted
    methods = []
    for info in task.methods_info:
        row = info.model_dump(mode="json")
        own = converted.method_class.get(info.method_name)
        row["test_class"], row["test_code"] = (own, converted.classes[own]) if own else ("", "")
        methods.append(row)
    return {
        "task_id": task.task_id,
        "skeleton": fence_safe(task.skeleton),
        "test": converted.code,
        "solution_code": solution,
        "import_statement": imports,
        "class_description": task.class_description,
        "methods_info": methods,
        "class_name": task.class_name,
        "test_classes": [*converted.classes, *converted.kept_classes],
        "class_constructor": task.class_constructor,
        "fields": list(task.fields),
        "source_date": task.source_date,
    }


def classeval_json(tasks: Sequence[Task], notes: ExportNotes | None = None) -> tuple[str, ExportNotes]:
    """(the export's text, what it could not carry over: added to `notes` when given)."""
    notes = notes if notes is not None else ExportNotes()
    entries = [classeval_entry(task, notes) for task in tasks]
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n", notes


def write_classeval(folder: Path, tasks: Sequence[Task], notes: ExportNotes) -> None:
    """The `classeval` export format (pipeline/release/formats.py): `classeval.json` in the release folder,
    what it could not carry over added to the manifest's `export_notes`."""
    text, _ = classeval_json(tasks, notes)
    atomic_write_text(folder / CLASSEVAL_FILE, text)
