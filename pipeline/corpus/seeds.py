"""Loading and checking the seed corpus.

A seed is a folder `seeds/<domain>/<name>/` with `seed.toml`, the class module `<name>.py` and its tests
`test_<name>.py`. Loading checks what can be checked without running anything (running happens only in the
validation sandbox): the files exist, both modules parse, the named class is defined at top level, and the
tests import it and define at least one test. Each problem names the file it is in, and one broken seed
never stops the others from being checked.

A seed that loads may still state too little: a method without a docstring gives the judges nothing to
hold the tests against, and one without type hints gives composition no types to join on. Those are
reported per method (`specification_gaps`) without stopping the seed from loading, since a corpus written
elsewhere (ClassEval's, say) often has neither and composition can infer types from observed values.
"""

from __future__ import annotations

import ast
import builtins
import string
import tomllib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.domains import DomainRegistry
from core.meanings import CONTEXT_ROLES, MEANINGS, SCALES, known_meaning
from core.records import Accepts, Produces, Provenance, SeedClass

METADATA_FILE = "seed.toml"


class SeedProvenance(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str = Field(min_length=1)
    created: str | None = None
    repository: str | None = None
    path: str | None = None


class SeedMetadata(BaseModel):
    """Schema of seed.toml."""

    model_config = ConfigDict(extra="forbid")
    class_name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    licence: str = Field(min_length=1)
    provenance: SeedProvenance
    produces: list[Produces] = Field(default_factory=list)
    accepts: list[Accepts] = Field(default_factory=list)


@dataclass(frozen=True)
class SeedProblem:
    """Why one seed could not be loaded; `path` is the file at fault."""

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _parse(path: Path) -> tuple[ast.Module | None, SeedProblem | None]:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), None
    except SyntaxError as exc:
        return None, SeedProblem(path, f"syntax error at line {exc.lineno}: {exc.msg}")
    except UnicodeDecodeError:
        return None, SeedProblem(path, "not UTF-8 text")


def _imports_class(tree: ast.Module, module: str, class_name: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == module:
            if any(alias.name in (class_name, "*") for alias in node.names):
                return True
        if isinstance(node, ast.Import) and any(alias.name == module for alias in node.names):
            return True
    return False


# pytest's defaults (`python_functions = test`, `python_classes = Test`) and unittest's `testMethodPrefix`.
_TEST_PREFIX, _CLASS_PREFIX = "test", "Test"
_TESTCASE_BASES = ("TestCase", "IsolatedAsyncioTestCase")


def _testcase_names(tree: ast.Module) -> set[str]:
    """Dotted names under which this module can reach unittest's TestCase classes (`unittest.TestCase`,
    `ut.TestCase` after `import unittest as ut`, `TestCase` or an alias after `from unittest import ...`)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "unittest":
                    names.update(f"{alias.asname or 'unittest'}.{base}" for base in _TESTCASE_BASES)
        elif isinstance(node, ast.ImportFrom) and node.module == "unittest":
            names.update(alias.asname or alias.name for alias in node.names if alias.name in _TESTCASE_BASES)
    return names


def _is_test_method(item: ast.stmt) -> bool:
    return isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith(_TEST_PREFIX)


def _opts_out(node: ast.ClassDef) -> bool:
    """`__test__ = False` in a class body: pytest leaves the class alone."""
    return any(isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__test__" for t in item.targets)
               and isinstance(item.value, ast.Constant) and item.value.value is False for item in node.body)


def _count_tests(tree: ast.Module) -> int:
    """How many tests pytest would collect from this module with its default settings, read from the syntax
    tree (the tests are untrusted: importing them to ask pytest is not an option).

    pytest collects top-level `test*` functions; `test*` methods of `Test*` classes that define no
    `__init__`; and, through its unittest plugin, `test*` methods of every `unittest.TestCase` subclass
    whatever its name (ClassEval names them `<Class>Test<Method>`). Methods inherited from a class of the
    same module count; a class setting `__test__ = False` is skipped. Bases imported from elsewhere cannot
    be read, so a class deriving only from those counts as a plain class.
    """
    testcase = _testcase_names(tree)
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}

    def local_bases(node: ast.ClassDef) -> list[ast.ClassDef]:
        return [classes[b.id] for b in node.bases if isinstance(b, ast.Name) and b.id in classes and b.id != node.name]

    def is_testcase(node: ast.ClassDef, seen: frozenset[str] = frozenset()) -> bool:
        if node.name in seen:
            return False
        return any(ast.unparse(b) in testcase for b in node.bases) or any(
            is_testcase(base, seen | {node.name}) for base in local_bases(node))

    def test_methods(node: ast.ClassDef, seen: frozenset[str] = frozenset()) -> set[str]:
        if node.name in seen:
            return set()
        own = {item.name for item in node.body if _is_test_method(item)}
        return own.union(*(test_methods(base, seen | {node.name}) for base in local_bases(node)))

    def defines_init(node: ast.ClassDef) -> bool:
        return any(isinstance(item, ast.FunctionDef) and item.name in ("__init__", "__new__") for item in node.body)

    count = 0
    for node in tree.body:
        if _is_test_method(node):
            count += 1
        elif isinstance(node, ast.ClassDef) and not _opts_out(node):
            if is_testcase(node) or (node.name.startswith(_CLASS_PREFIX) and not defines_init(node)):
                count += len(test_methods(node))
    return count


def load_seed(folder: Path, domain: str) -> SeedClass | SeedProblem:
    """Check one seed folder and turn it into a `SeedClass`, or say what is wrong with it."""
    name = folder.name
    meta_path = folder / METADATA_FILE
    module_path = folder / f"{name}.py"
    tests_path = folder / f"test_{name}.py"
    for required in (meta_path, module_path, tests_path):
        if not required.is_file():
            return SeedProblem(required, "missing")
    try:
        meta = SeedMetadata.model_validate(tomllib.loads(meta_path.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as exc:
        return SeedProblem(meta_path, f"not valid TOML: {exc}")
    except ValidationError as exc:
        err = exc.errors()[0]
        return SeedProblem(meta_path, f"field {'.'.join(map(str, err['loc']))}: {err['msg']}")
    module_tree, problem = _parse(module_path)
    if problem:
        return problem
    classes = [n.name for n in module_tree.body if isinstance(n, ast.ClassDef)]
    if meta.class_name not in classes:
        found = ", ".join(classes) or "none"
        return SeedProblem(module_path, f"class {meta.class_name!r} named in {METADATA_FILE} is not defined (found: {found})")
    problem = _link_ends_problem(meta, module_tree, meta_path)
    if problem:
        return problem
    tests_tree, problem = _parse(tests_path)
    if problem:
        return problem
    if not _imports_class(tests_tree, name, meta.class_name):
        return SeedProblem(tests_path, f"does not import {meta.class_name} from module {name!r}")
    if _count_tests(tests_tree) == 0:
        return SeedProblem(tests_path, "defines no tests pytest would collect (no test* function, no test* method in a Test* class or a unittest.TestCase subclass)")
    return SeedClass(
        seed_id=f"{domain}/{name}",
        domain=domain,
        name=name,
        class_name=meta.class_name,
        description=meta.description,
        source=module_path.read_text(encoding="utf-8"),
        tests=tests_path.read_text(encoding="utf-8"),
        provenance=Provenance(
            path=f"{domain}/{name}/{name}.py",
            licence=meta.licence,
            source=meta.provenance.source,
            first_commit_date=meta.provenance.created,
            repository=meta.provenance.repository,
        ),
        produces=tuple(meta.produces),
        accepts=tuple(meta.accepts),
    )


def _required(method: ast.FunctionDef) -> set[str]:
    """The method's positional parameters without a default, `self` left out: all a link method takes."""
    arguments = method.args.args[1:]
    return {a.arg for a in arguments[:len(arguments) - len(method.args.defaults)]}


def _context_problem(end: Produces | Accepts, method: ast.FunctionDef) -> str | None:
    """Why an end's context cannot be used (None when it can): its roles must be known; a consumer names
    its own other parameters, a producer one of its required parameters or a quoted literal."""
    arguments, required = method.args.args[1:], _required(method)
    for role, value in end.context.items():
        if role not in CONTEXT_ROLES:
            return f"{role!r} is not a known role ({', '.join(sorted(CONTEXT_ROLES))})"
        if isinstance(end, Accepts):
            if value == end.parameter or value not in [a.arg for a in arguments + method.args.kwonlyargs]:
                return f"{role} = {value!r} is not another parameter of {end.method}"
            continue
        if value in required:
            continue
        try:
            literal = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            literal = None
        if not isinstance(literal, str) and _expression_problem(value, required) is not None:
            return (f"{role} = {value!r} is neither a required parameter of {end.method}, a quoted text, nor an "
                    f"expression over those and the instance's state: {_expression_problem(value, required)}")
    for role, unit in end.units.items():
        if role not in end.context:
            return f"units names {role!r}, which the context does not give"
        if unit not in SCALES["timestamp"]:
            return f"units.{role} = {unit!r} is not a unit of time ({', '.join(SCALES['timestamp'])})"
    return None


def _expression_problem(expression: str, names: Collection[str]) -> str | None:
    """Why a context value or a condition cannot be written into a hybrid's code (None when it can): it must
    be one Python expression naming only `names` (the method's required parameters, and `result` where the
    caller allows it), `self` (the instance's state) and builtins."""
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as exc:
        return f"not a Python expression ({exc.msg})"
    unknown = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(names) - {"self"}
                     - set(dir(builtins)))
    return f"{', '.join(unknown)} is not a required parameter" if unknown else None


def _condition_problem(end: Produces, method: ast.FunctionDef) -> str | None:
    """Why a producer's condition cannot be used (None when it can): an expression over the method's required
    parameters, the instance's state and `{result}` (only where the method returns something), with words."""
    if not end.condition:
        return "condition_words needs a condition" if end.condition_words else None
    if not end.condition_words:
        return "a condition needs condition_words saying it in plain words"
    return _over_result_problem(end.condition, "condition", method)


def _value_problem(end: Produces, method: ast.FunctionDef) -> str | None:
    """Why a producer's `value` cannot be handed on (None when it can): one expression over the method's
    required parameters, the instance's state and `{result}` (where the method returns something), of a
    number, not of an event's text (an event names what it is about in `event`)."""
    if not end.value:
        return None
    if end.event:
        return "an event hands on its text: name what it is about in event, not in value"
    return _over_result_problem(end.value, "value", method)


def _over_result_problem(expression: str, field: str, method: ast.FunctionDef) -> str | None:
    """Why an expression over the method's required parameters, the instance's state and `{result}` cannot
    be written into a hybrid (None when it can); `{result}` only where the method returns something."""
    returns_nothing = method.returns is not None and ast.unparse(method.returns) == "None"
    if "{result}" in expression and returns_nothing:
        return f"{method.name} returns nothing, so the {field} cannot name {{result}}"
    return _expression_problem(expression.replace("{result}", "result"), _required(method) | {"result"})


def _event_problem(end: Produces, method: ast.FunctionDef) -> str | None:
    """Why an event's text cannot be written in a link (None when it can): it must fill its placeholders
    from the method's required parameters (a link method takes only those) and `{result}`, for a text or a
    word (the name a publish was made under, handed to an autocompletion trie: a parameter, not the result)."""
    if end.meaning not in ("text", "word"):
        return f"only a text or a word can be an event, not {end.meaning!r}"
    required = _required(method)
    try:
        fields = [(field, spec, conversion) for _, field, spec, conversion in string.Formatter().parse(end.event)
                  if field is not None]
    except ValueError as exc:
        return f"{end.event!r} is not a format text ({exc})"
    if any(spec or conversion for _, spec, conversion in fields):
        return "a placeholder takes a bare name, with no format spec or conversion"
    names = {field for field, _, _ in fields}
    unknown = sorted(names - required - {"result"})
    if unknown:
        return f"{', '.join(unknown)} is not a required parameter of {end.method} or 'result'"
    if "result" in names and method.returns is not None and ast.unparse(method.returns) == "None":
        return f"{end.method} returns nothing: its event names what it acted on, without {{result}}"
    return None


def _link_ends_problem(meta: SeedMetadata, module: ast.Module, path: Path) -> SeedProblem | None:
    """The first declared link end (`[[produces]]`, `[[accepts]]`) that names an unknown meaning, a method
    the class does not define publicly, a parameter that method lacks, or phrases a link cannot be written
    from; None when every end is sound."""
    cls = next(n for n in module.body if isinstance(n, ast.ClassDef) and n.name == meta.class_name)
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    ends: list[tuple[str, Produces | Accepts]] = [("produces", end) for end in meta.produces]
    ends += [("accepts", end) for end in meta.accepts]
    counters = {"produces": 0, "accepts": 0}
    for table, end in ends:
        where = f"{table}[{counters[table]}]"
        counters[table] += 1
        consumer = isinstance(end, Accepts)
        if not known_meaning(end.meaning, consumer=consumer):
            known = ", ".join(sorted(MEANINGS)) + (", number" if consumer else "")
            return SeedProblem(path, f"field {where}.meaning: {end.meaning!r} is not a known meaning ({known})")
        if end.method not in methods:
            return SeedProblem(path, f"field {where}.method: {meta.class_name} has no public method {end.method!r}")
        words = (end.name,) if isinstance(end, Produces) else (end.verb,)
        if not all(w.isidentifier() and w == w.lower() for w in words):
            return SeedProblem(path, f"field {where}: {words[0]!r} is not a snake-case name")
        if isinstance(end, Produces) and end.event:
            problem = _event_problem(end, methods[end.method])
            if problem:
                return SeedProblem(path, f"field {where}.event: {problem}")
        problem = _context_problem(end, methods[end.method])
        if problem:
            return SeedProblem(path, f"field {where}.context: {problem}")
        problem = _condition_problem(end, methods[end.method]) if isinstance(end, Produces) else None
        if problem:
            return SeedProblem(path, f"field {where}.condition: {problem}")
        problem = _value_problem(end, methods[end.method]) if isinstance(end, Produces) else None
        if problem:
            return SeedProblem(path, f"field {where}.value: {problem}")
        if isinstance(end, Accepts):
            node = methods[end.method]
            if end.parameter not in [a.arg for a in node.args.args[1:] + node.args.kwonlyargs]:
                return SeedProblem(path, f"field {where}.parameter: {end.method} takes no parameter {end.parameter!r}")
            if "{what}" not in end.action:
                return SeedProblem(path, f"field {where}.action: must hold '{{what}}' where the value's phrase goes")
    return None


def _missing_hints(method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = method.args
    positional = args.posonlyargs + args.args
    bound = not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in method.decorator_list)
    params = (positional[1:] if bound else positional) + args.kwonlyargs
    params += [a for a in (args.vararg, args.kwarg) if a is not None]
    gaps = [f"no type hint on {', '.join(p.arg for p in params if p.annotation is None)}"] \
        if any(p.annotation is None for p in params) else []
    if method.returns is None and method.name != "__init__":  # __init__ returns None by definition
        gaps.append("no return type")
    return gaps


def specification_gaps(source: str, class_name: str, path: Path) -> list[SeedProblem]:
    """What the class leaves unstated, one problem per method that names it: a missing docstring (the class's
    and every method's but `__init__`, which the class docstring may describe), parameters without type
    hints, a missing return type. Nothing here stops a seed from loading."""
    tree = ast.parse(source)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if node is None:
        return []
    problems = [] if ast.get_docstring(node) else [SeedProblem(path, f"class {class_name}: no docstring")]
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        gaps = [] if ast.get_docstring(method) or method.name == "__init__" else ["no docstring"]
        gaps += _missing_hints(method)
        if gaps:
            problems.append(SeedProblem(path, f"method {class_name}.{method.name}: {'; '.join(gaps)}"))
    return problems


@dataclass(frozen=True)
class CorpusLoad:
    """Everything found in the corpus: the good seeds, the problems that keep a seed out, and the gaps in
    what the good seeds state (`specification_gaps`), each in a stable order."""

    seeds: tuple[SeedClass, ...]
    problems: tuple[SeedProblem, ...]
    gaps: tuple[SeedProblem, ...] = ()

    def count_by_domain(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for seed in self.seeds:
            counts[seed.domain] = counts.get(seed.domain, 0) + 1
        return counts


def load_corpus(root: Path, registry: DomainRegistry, domains: Collection[str] = ()) -> CorpusLoad:
    """Load every seed of every registered domain, or of `domains` only when given: a seed elsewhere,
    broken or not, is then not read at all. A folder under seeds/ that is not a registered domain is reported
    as a problem rather than ignored (when every domain is read), so a misspelt domain folder is noticed."""
    seeds: list[SeedClass] = []
    problems: list[SeedProblem] = []
    gaps: list[SeedProblem] = []
    for domain in registry.names:
        domain_dir = root / domain
        if not domain_dir.is_dir() or (domains and domain not in domains):
            continue
        for folder in sorted(p for p in domain_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            result = load_seed(folder, domain)
            if isinstance(result, SeedProblem):
                problems.append(result)
            else:
                seeds.append(result)
                gaps += specification_gaps(result.source, result.class_name, folder / f"{result.name}.py")
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if folder.name not in registry.names and not domains:
            problems.append(SeedProblem(folder, "folder is not a domain in the registry"))
    return CorpusLoad(tuple(seeds), tuple(problems), tuple(gaps))
