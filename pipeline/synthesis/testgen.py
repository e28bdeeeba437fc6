"""Oracle-based test synthesis: scenarios -> outcomes on the reference (in the sandbox) -> a readable
pytest module of the scenarios that add coverage and interaction edges, greedily chosen.

Tests read like hand-written ones: one scenario per test, named as a sentence about the behaviour it checks
(`pipeline.synthesis.naming`), the instance in a variable named after the class, literal expectations,
`pytest.raises` for refused calls, no repeated query and no call whose effect nothing observes
(`pipeline.synthesis.pruning`), and the setup several tests share written once, as a fixture they take
(`plan_fixtures`). An expectation is written only when the value has a literal that evaluates
back to it and the value was the same in two runs and under another hash seed; otherwise the call stays,
unasserted, if a later assertion depends on it.
"""

from __future__ import annotations

import ast
import builtins
import functools
import json
import keyword
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.analysis.class_model import ClassModel
from core.scenarios import CLASS, MAIN, Arg, Scenario, Step
from core.timing import timed
from pipeline.synthesis.naming import NamedStep, TestNamer, fixture_names, snake
from pipeline.synthesis.oracle import ScenarioRun, outcome_summary, run_oracle
from pipeline.synthesis.pruning import ClassReads, RunFacts, StepFacts, class_reads, prune_suite
from pipeline.synthesis.stated_effects import effect_runs
from pipeline.synthesis.stated_raises import documented_raises, unstated_raise
from pipeline.synthesis.stated_orders import order_free_assertion
from pipeline.synthesis.tracing import ArgumentPools, replay_scenarios
from pipeline.synthesis.transforms.base import CALL_COUNTER_FIELDS, FEATURE_METHODS
from validation.faithful import is_computed_float
from validation.sandbox import SandboxPool

MAX_TESTS = 36
MIN_TESTS = 5  # fewer written tests than this: no candidate (counted after rendering, not as scenarios chosen)
MAX_REPLAYS = 30
WALKS = 48
LINE_WEIGHT, EDGE_WEIGHT = 1.0, 2.0
MIN_LINES_SAVED = 3
"""A setup that several tests start with becomes a fixture when writing it once saves at least this many
lines ((tests - 1) x its lines): four tests that build the same instance, three that build it and make the
same call, two that share three lines. Less is not worth the indirection: a reader sees the test whole."""


@dataclass(frozen=True)
class SynthesisResult:
    test_code: str
    scenarios_run: int
    tests: int  # test functions written (a chosen scenario that renders to a bare constructor is not written)
    outcomes: str = ""  # what the oracle's runs did (`oracle.outcome_summary`), for a rejection when no test is
    # scenarios dropped as reference defects: the reference raised what no docstring states, or a documented
    # query changed what later calls return (`reference_defects`)
    reference_defects: tuple[dict[str, Any], ...] = ()

    def defects_recorded(self) -> dict[str, list[dict[str, Any]]]:
        """The generator parameter (or rejection evidence) recording the scenarios dropped as reference defects;
        none: no entry, so the candidates of a clean reference stay as they were."""
        return {"reference_defects": [dict(d) for d in self.reference_defects]} if self.reference_defects else {}


@dataclass(frozen=True)
class Fixture:
    """A setup written once for the tests that share it: `setup` holds its lines as a test would write them
    (the constructor `variable = Class(...)`, then calls on `variable`)."""

    name: str
    variable: str
    setup: tuple[str, ...]

    def text(self) -> str:
        """The fixture's definition: a bare constructor is returned as it is, a longer setup is written out
        and its instance returned. Function scope (pytest's default): every test gets a fresh instance, so
        tests stay independent, and the fixture runs inside each test's setup, where the gate's coverage
        and interaction tracer count it for that test."""
        if len(self.setup) == 1:
            lines = ["return " + self.setup[0].split(" = ", 1)[1]]
        else:
            lines = [*self.setup, f"return {self.variable}"]
        return f"@pytest.fixture\ndef {self.name}():\n" + "\n".join("    " + line for line in lines) + "\n"


def plan_fixtures(setups: Sequence[tuple[str, ...]], name_for: Callable[[tuple[str, ...], int], str | None],
                  existing: Mapping[tuple[str, ...], str] | None = None) -> dict[int, tuple[str, tuple[str, ...]]]:
    """Which tests take which shared setup: test index -> (fixture name, its setup lines).

    `setups[i]` is what test i starts with (its constructor, then the calls before its first check);
    a fixture's setup is a prefix of it. Setups with calls come first, the largest saving first (ties: the
    longer setup, then the earlier test), each test taking at most one; then one bare constructor for the
    tests left. `name_for(setup, first test)` names a new fixture, or returns None when no free name says
    what it is (those tests keep their own setup). `existing` fixtures (setup -> name, already in the
    module) are taken by any test that starts with them."""
    assigned: dict[int, tuple[str, tuple[str, ...]]] = {}
    existing = dict(existing or {})
    for calls in (True, False):
        for index, setup in enumerate(setups):
            known = [p for p in existing if (len(p) > 1) == calls and setup[:len(p)] == p and len(p) <= len(setup)]
            if index not in assigned and known:
                prefix = max(known, key=len)
                assigned[index] = (existing[prefix], prefix)
        refused: set[tuple[str, ...]] = set()
        while True:
            counts: Counter[tuple[str, ...]] = Counter()
            first: dict[tuple[str, ...], int] = {}
            for index, setup in enumerate(setups):
                if index in assigned:
                    continue
                for length in (range(2, len(setup) + 1) if calls else range(1, min(1, len(setup)) + 1)):
                    prefix = setup[:length]
                    counts[prefix] += 1
                    first.setdefault(prefix, index)
            options = [p for p, n in counts.items() if n >= 2 and (n - 1) * len(p) >= MIN_LINES_SAVED
                       and p not in refused]
            if not options:
                break
            prefix = min(options, key=lambda p: (-(counts[p] - 1) * len(p), -len(p), first[p]))
            name = name_for(prefix, first[prefix])
            if name is None:
                refused.add(prefix)
                continue
            for index, setup in enumerate(setups):
                if index not in assigned and setup[:len(prefix)] == prefix:
                    assigned[index] = (name, prefix)
    return assigned


def written_fixtures(test_code: str) -> dict[tuple[str, ...], str]:
    """The fixtures a test module already defines, as `plan_fixtures` takes them (setup -> name): those of
    the shapes `Fixture.text` writes (`return Class(...)`, or lines then `return variable`)."""
    try:
        tree = ast.parse(test_code)
    except SyntaxError:
        return {}
    out: dict[tuple[str, ...], str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and not node.args.args and len(node.decorator_list) == 1
                and ast.unparse(node.decorator_list[0]) == "pytest.fixture"
                and isinstance(node.body[-1], ast.Return) and node.body[-1].value is not None):
            continue
        returned = ast.get_source_segment(test_code, node.body[-1].value)
        if len(node.body) == 1:
            out[(f"{node.name} = {returned}",)] = node.name
        elif isinstance(node.body[-1].value, ast.Name):
            lines = tuple(ast.get_source_segment(test_code, s) or "" for s in node.body[:-1])
            if lines[0].startswith(f"{returned} = "):
                out[lines] = node.name
    return out


def variable_for(class_name: str, taken: set[str]) -> str:
    words = snake(class_name).split("_")
    for candidate in (words[-1], "_".join(words[-2:]), snake(class_name)):
        if candidate.isidentifier() and not keyword.iskeyword(candidate) and not hasattr(builtins, candidate) \
                and candidate not in taken and candidate not in ("pytest", "restored", "before"):
            return candidate
    return "instance"


@functools.lru_cache(maxsize=4096)
def names_used(text: str) -> frozenset[str]:
    """The names an argument's text refers to: none for a plain literal (`set()` and `frozenset()` are the
    literal syntax of empty sets, not names a test imports). Cached: pruning renders the same arguments
    many times over."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return frozenset()
    return frozenset({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - {"set", "frozenset"})


def approximate_floats(literal: str) -> str:
    """The expected value's literal with each computed float (see `validation.faithful.is_computed_float`)
    written as `pytest.approx(...)`, inside lists, tuples and dicts too.

    Failure mode this prevents: `assert derive_unit("inch", 2.54, "cm") == 0.025400000000000002`, which fails
    an implementation that multiplies where the reference divides, although the skeleton says nothing of how
    the value is computed. Short decimals (2.5, 0.1) stay exact: any sensible computation lands on them.
    A literal on several lines (a string with a newline in it) is left as it is."""
    if "\n" in literal:
        return literal
    try:
        tree = ast.parse(literal, mode="eval")
    except SyntaxError:
        return literal
    # ast counts columns in UTF-8 bytes: splice the bytes. Keys of dicts and members of sets stay exact
    # (an approx object is not hashable).
    hashed = {id(k) for n in ast.walk(tree) if isinstance(n, ast.Dict) for k in n.keys if k is not None}
    hashed |= {id(e) for n in ast.walk(tree) if isinstance(n, ast.Set) for e in n.elts}
    spans: list[tuple[int, int]] = []
    inner: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            inner.add(id(node.operand))
            if id(node) not in hashed and is_computed_float(node.operand.value):
                spans.append((node.col_offset, node.end_col_offset or node.col_offset))
        elif isinstance(node, ast.Constant) and id(node) not in inner and id(node) not in hashed \
                and is_computed_float(node.value):
            spans.append((node.col_offset, node.end_col_offset or node.col_offset))
    data = literal.encode("utf-8")
    for start, end in sorted(spans, reverse=True):
        data = data[:start] + b"pytest.approx(" + data[start:end] + b")" + data[end:]
    literal = data.decode("utf-8")
    return literal


# -- scenario generation --------------------------------------------------------------------------------

def random_walks(model: ClassModel, pools: ArgumentPools, rng: random.Random, count: int) -> list[Scenario]:
    """Short random sequences over the observed calls, from an observed constructor call.

    Methods that need no argument (`undo`, `freeze`, `reset_statistics`, ...) take part too, though no test
    ever called them: most methods that features add are of that kind, and without them no walk would
    ever run, say, `undo` before another change, and the state edges from restoring to capturing would go
    unexercised.
    """
    callable_bare = {m.name for m in model.public_methods() if m.kind == "instance" and m.simple_signature
                     and not m.required_params}
    methods = sorted(m.name for m in model.public_methods() if pools.calls.get(m.name) or m.name in callable_bare)
    queries = [m.name for m in model.queries()]
    if not methods:
        return []
    out = []
    for _ in range(count):
        ctor = rng.choice(pools.ctors) if pools.ctors else None
        steps: list[Step] = []
        for _ in range(rng.randint(2, 7)):
            name = rng.choice(methods)
            call = pools.sample(name, rng)
            if call is not None:
                steps.append(call.step())
            elif name in callable_bare:
                steps.append(Step(MAIN, name))
        if queries:
            steps.append(Step(MAIN, rng.choice(queries)))
        out.append(Scenario(tuple(Arg(literal=a) for a in ctor.args) if ctor else (),
                            tuple((k, Arg(literal=v)) for k, v in ctor.kwargs) if ctor else (),
                            tuple(steps), origin="walk"))
    return out


def dedupe(scenarios: Sequence[Scenario]) -> list[Scenario]:
    seen: set[str] = set()
    out = []
    for scenario in scenarios:
        if scenario.steps and scenario.key() not in seen:
            seen.add(scenario.key())
            out.append(scenario)
    return out


# -- selection ------------------------------------------------------------------------------------------

def select(runs: Sequence[ScenarioRun], max_tests: int = MAX_TESTS) -> list[ScenarioRun]:
    """Greedy set cover over lines and interaction edges; ties go to the shorter, then earlier scenario.
    Every feature that proposed scenarios keeps at least one (its methods are the task's point)."""
    usable = [r for r in runs if r.usable]
    chosen: list[int] = []
    lines: set[int] = set()
    edges: set[tuple] = set()

    def gain(run: ScenarioRun) -> float:
        return LINE_WEIGHT * len(run.lines - lines) + EDGE_WEIGHT * len(run.edges - edges)

    def take(index: int) -> None:
        chosen.append(index)
        lines.update(usable[index].lines)
        edges.update(usable[index].edges)

    while len(chosen) < max_tests:
        best, best_score = -1, 0.0
        for index, run in enumerate(usable):
            if index in chosen:
                continue
            score = gain(run) / (1.0 + 0.04 * len(run.scenario.steps))
            if score > best_score + 1e-9:
                best, best_score = index, score
        if best == -1:
            break
        take(best)
    titles = {usable[i].scenario.title for i in chosen}
    for index, run in enumerate(usable):
        if len(chosen) >= max_tests + 6:
            break
        if run.scenario.title and run.scenario.origin not in ("replay", "walk") and run.scenario.title not in titles \
                and _asserts(run) >= 1:
            take(index)
            titles.add(run.scenario.title)
    if not any(usable[i].driven >= 3 for i in chosen):
        wide = [i for i, r in enumerate(usable) if r.driven >= 3 and i not in chosen]
        if wide:
            take(min(wide, key=lambda i: (len(usable[i].scenario.steps), i)))
    return [usable[i] for i in sorted(chosen)]


def _asserts(run: ScenarioRun) -> int:
    return sum(1 for s in run.steps if s["kind"] == "raise" or (s["kind"] == "return" and s.get("literal") and not s.get("unstable")))


# -- rendering ------------------------------------------------------------------------------------------

class Renderer:
    """Writes chosen scenario runs as a pytest module.

    With the reference's `source`, steps a reader does not need are left out (`pipeline.synthesis.pruning`:
    repeated identical queries, calls whose effect nothing later observes, each only while the suite keeps
    its measured lines and edges); without it every step up to the last assertion is written."""

    def __init__(self, model: ClassModel, module: str, source: str | None = None, *,
                 shared_setup: bool = True, unordered: frozenset[str] = frozenset()) -> None:
        """`unordered`: methods whose returned lists are compared sorted (`pipeline.synthesis.stated_orders`)."""
        self.model = model
        self.unordered = unordered
        self.module = module
        self.var = variable_for(model.name, set(model.methods))
        self.instance = self.var  # the instance's name in the test being written (a fixture's, when it takes one)
        self.imports: set[str] = set()
        self.names: set[str] = set()  # module-level names: tests and fixtures
        self.namer = TestNamer(self.names)
        self.written = 0  # test functions in the last module_text
        self.reads = _class_reads(source, model.name)
        self.shared_setup = shared_setup
        self.existing_fixtures: dict[tuple[str, ...], str] = {}  # fixtures the module already has (repair)

    def _name_of(self, variable: str) -> str:
        return self.instance if variable == MAIN else variable

    def _arg(self, arg: Arg) -> str:
        if arg.literal is not None:
            self.imports |= names_used(arg.literal)  # `Direction.UP`, `Card('A', 1)`: the module's own names
            return arg.literal
        if arg.var is not None:
            return self._name_of(arg.var)
        assert arg.call is not None
        return f"{self._name_of(arg.call[0])}.{arg.call[1]}()"

    def _call(self, step: Step) -> str:
        target = self.model.name if step.target == CLASS else self._name_of(step.target)
        parts = [self._arg(a) for a in step.args] + [f"{k}={self._arg(v)}" for k, v in step.kwargs]
        return f"{target}.{step.method}({', '.join(parts)})"

    def _exception(self, outcome: dict[str, Any]) -> str:
        if outcome.get("importable"):
            self.imports.add(outcome["importable"])
            return outcome["importable"]
        return outcome.get("builtin") or "Exception"

    def _returns_nothing(self, method: str) -> bool:
        info = self.model.methods.get(method)
        return info is None or info.returns in (None, "None") and not info.returns_value

    def _checked(self, run: ScenarioRun, index: int) -> bool:
        """Whether the step's outcome can be asserted: an exception, or a stable value written as a literal
        (a None from a method that returns nothing says nothing)."""
        outcome = run.steps[index]
        if outcome["kind"] == "raise":
            return True
        return (outcome["kind"] == "return" and not outcome.get("unstable") and outcome.get("literal") is not None
                and not (outcome.get("is_none") and self._returns_nothing(run.scenario.steps[index].method)))

    def _last_checked(self, run: ScenarioRun) -> int:
        return max((i for i in range(len(run.steps)) if self._checked(run, i)), default=-1)

    def _asserted(self, run: ScenarioRun, index: int, last: int) -> bool:
        """Whether the written test asserts this step (a bound value only at the end of the test)."""
        if run.steps[index]["kind"] == "raise":
            return True
        return self._checked(run, index) and (not run.scenario.steps[index].bind or index == last)

    def facts(self, run: ScenarioRun) -> RunFacts:
        """The run as pruning sees it: the steps up to the last assertion (later ones are never written)."""
        last = self._last_checked(run)
        steps = [StepFacts(run.scenario.steps[i], self._asserted(run, i, last),
                           json.dumps(run.steps[i], sort_keys=True),
                           run.changed[i] if i < len(run.changed) else None,
                           run.step_lines[i] if i < len(run.step_lines) else None)
                 for i in range(last + 1)]
        return RunFacts(steps, run.lines, run.edges, run.driven)

    def _named(self, run: ScenarioRun, index: int, asserted: bool, ignored: frozenset[str]) -> NamedStep:
        """The step for the test's name; a change of only the `ignored` fields is no change of state."""
        step, outcome = run.scenario.steps[index], run.steps[index]
        changed = run.changed[index] if index < len(run.changed) else None
        info = self.model.methods.get(step.method)
        positional = [p.name for p in info.params if p.kind == "positional"] if info else []
        arguments = tuple((name, arg.literal) for name, arg in zip(positional, step.args) if arg.literal is not None) + \
            tuple((name, arg.literal) for name, arg in step.kwargs if arg.literal is not None)
        literal = outcome.get("literal")
        return NamedStep(
            method=step.method, on_instance=step.target == MAIN, asserted=asserted,
            raised=outcome.get("exc") if outcome["kind"] == "raise" else None,
            empty_result=asserted and literal in ("[]", "{}", "()", '""', "set()", "''"),
            changes_state=bool(changed - ignored) if changed is not None else step.method in self.model.mutators,
            arguments=arguments,
            verb=step.method in self.model.mutators or bool(changed) and step.method in FEATURE_METHODS)

    def lines_for(self, run: ScenarioRun, keep: Sequence[bool] | None = None, *,
                  instance: str | None = None) -> tuple[list[str], list[NamedStep]]:
        """The test body (constructor, then each kept step up to the last assertion) and its steps for the
        name; `instance` names the instance (default: the variable named after the class)."""
        self.instance = instance or self.var
        try:
            return self._lines_for(run, keep)
        finally:
            self.instance = self.var

    def _lines_for(self, run: ScenarioRun, keep: Sequence[bool] | None) -> tuple[list[str], list[NamedStep]]:
        scenario = run.scenario
        ctor = ", ".join([self._arg(a) for a in scenario.ctor_args] + [f"{k}={self._arg(v)}" for k, v in scenario.ctor_kwargs])
        body = [f"{self.instance} = {self.model.name}({ctor})"]
        named: list[NamedStep] = []
        last = self._last_checked(run)
        # Call counters change with every call: they are the situation only for a test that checks them.
        focus = scenario.steps[last].method if last >= 0 else ""
        ignored = CALL_COUNTER_FIELDS - (self.reads.of(focus) if self.reads and focus in FEATURE_METHODS else frozenset())
        for index in range(last + 1):
            if keep is not None and not keep[index]:
                continue
            step, outcome = scenario.steps[index], run.steps[index]
            asserted = self._asserted(run, index, last)
            named.append(self._named(run, index, asserted, ignored))
            expr = self._call(step)
            if outcome["kind"] == "raise":
                body.append(f"with pytest.raises({self._exception(outcome)}):")
                body.append(f"    {expr}")
                continue
            literal = outcome.get("literal")
            if isinstance(literal, str):
                literal = approximate_floats(literal)
            if step.bind:
                body.append(f"{step.bind} = {expr}")
                if asserted:
                    body.append(f"assert {step.bind} == {literal}")
            elif not asserted:
                body.append(expr)
            elif literal in ("True", "False", "None"):
                body.append(f"assert {expr} is {literal}")
            else:
                free = (order_free_assertion(expr, outcome["literal"])
                        if step.method in self.unordered and literal == outcome["literal"] else None)
                body.append(free or f"assert {expr} == {literal}")  # a list with computed floats stays ordered
        return body, named

    def setup_length(self, body: Sequence[str]) -> int:
        """How many lines the test starts with that could be a fixture: the constructor and the calls on
        the instance before the first check or bound result (at least one line is left to the test)."""
        length = 1
        while length < len(body) - 1 and body[length].startswith(f"{self.var}."):
            length += 1
        return length

    def module_text(self, runs: Sequence[ScenarioRun]) -> str:
        """The test module; `self.written` is then the number of test functions in it."""
        facts = [self.facts(run) for run in runs]
        if self.reads is not None:
            prune_suite(facts, self.reads)
        tests = []  # (name, run, keep, body, named)
        for run, fact in zip(runs, facts):
            body, named = self.lines_for(run, fact.keep)
            if len(body) < 2:
                continue
            tests.append((self.namer.name(named, run.scenario.title), run, fact.keep, body, named))
        setups = [tuple(body[:self.setup_length(body)]) for _, _, _, body, _ in tests]
        fixtures: dict[str, Fixture] = {}

        def name_for(setup: tuple[str, ...], first: int) -> str | None:
            steps = tests[first][4][:len(setup) - 1]  # the setup's calls, one line each
            free = next((n for n in fixture_names(self.var, steps) if self._free(n)), None)
            if free is not None:
                self.names.add(free)
                fixtures[free] = Fixture(free, self.var, setup)
            return free

        plan = plan_fixtures(setups, name_for, self.existing_fixtures) if self.shared_setup else {}
        used = {name: min(i for i, p in plan.items() if p[0] == name) for name in fixtures
                if any(p[0] == name for p in plan.values())}
        blocks = [fixtures[name].text() for name in sorted(used, key=used.__getitem__)]  # in order of first use
        for index, (name, run, keep, body, _) in enumerate(tests):
            if index in plan:
                fixture, setup = plan[index]
                instance = self.var if len(setup) == 1 else fixture  # a bare constructor's fixture is the variable
                body = self.lines_for(run, keep, instance=instance)[0][len(setup):]
                blocks.append(f"def {name}({fixture}):\n" + "\n".join("    " + line for line in body) + "\n")
            else:
                blocks.append(f"def {name}():\n" + "\n".join("    " + line for line in body) + "\n")
        self.written = len(tests)
        names = ", ".join([self.model.name] + sorted(self.imports - {self.model.name}))
        header = f"import pytest\n\nfrom {self.module} import {names}\n"
        return header + "\n\n" + "\n\n".join(blocks)

    def _free(self, name: str) -> bool:
        """Whether a fixture may take `name`: no test, fixture or imported name of the module has it, and it
        is not a name a test binds (`before`, `restored`) or a Python keyword or builtin."""
        return (name.isidentifier() and not keyword.iskeyword(name) and not hasattr(builtins, name)
                and not name.startswith("test") and name not in self.names and name not in self.imports
                and name not in (self.model.name, "pytest", "restored", "before"))


def _class_reads(source: str | None, class_name: str) -> ClassReads | None:
    if source is None:
        return None
    try:
        return class_reads(source, class_name)
    except (SyntaxError, StopIteration):  # the class cannot be read: every step is written
        return None


def synthesize_tests(pool: SandboxPool, *, source: str, module: str, model: ClassModel, pools: ArgumentPools,
                     extra: Sequence[Scenario], rng: random.Random, max_tests: int = MAX_TESTS,
                     shows: Callable[[ScenarioRun], bool] | None = None,
                     unordered: frozenset[str] = frozenset()) -> SynthesisResult:
    """Propose scenarios, run them on the reference in the sandbox, select and render the tests.

    `shows`, when given, is asked about each run: one it refuses is not selected (a scenario made to show
    an effect that its run on the reference does not show). `unordered`: see `Renderer`.

    Whatever the origin (a seed, an imported benchmark task, a mined class, a composition), a run in which
    the reference raised an exception its docstrings do not state (`stated_raises.documented_raises`), or in
    which a call of a method documented as a query changed what later calls return (`stated_effects`), shows a
    defect of the reference, not a behaviour: it is never made into a test, and is recorded in the result's
    `reference_defects` (method, exception or effect, count)."""
    with timed("synthesis", "scenarios: propose"):
        bases = replay_scenarios(pools)[:MAX_REPLAYS]
        scenarios = dedupe(list(bases) + list(extra) + random_walks(model, pools, rng, WALKS))
    with timed("synthesis", "scenarios: oracle runs (one batched session + reseeded)"):
        runs = run_oracle(pool, source=source, module=module, class_name=model.name, scenarios=scenarios)
    with timed("synthesis", "tests: select and render"):
        stated, defects = stated_runs(runs, source, model.name)
    with timed("synthesis", "scenarios: unstated effects (suspect runs again)"):
        stated, effects = effect_runs(pool, stated, source=source, module=module, class_name=model.name)
    with timed("synthesis", "tests: select and render"):
        chosen = select([r for r in stated if shows is None or shows(r)], max_tests)
        renderer = Renderer(model, module, source, unordered=unordered)
        text = renderer.module_text(chosen)
    return SynthesisResult(text, len(scenarios), renderer.written,
                           "" if renderer.written else _no_test_summary(runs, chosen, model.name), defects + effects)


def stated_runs(runs: Sequence[ScenarioRun], source: str,
                 class_name: str) -> tuple[list[ScenarioRun], tuple[dict[str, Any], ...]]:
    """The runs whose every exception a docstring states, and the reference defects the others show: per
    (method, exception) the number of runs dropped for it, in order of first sight."""
    try:
        stated = documented_raises(source, class_name)
    except (SyntaxError, StopIteration):  # the class cannot be read: no docstring to hold the runs to
        return list(runs), ()
    kept: list[ScenarioRun] = []
    defects: Counter[tuple[str, str]] = Counter()
    for run in runs:
        if stated(run):
            kept.append(run)
        else:
            defects[unstated_raise(run, source, class_name)] += 1
    return kept, tuple({"method": method, "exception": exc, "scenarios": count}
                       for (method, exc), count in defects.items())


def _no_test_summary(runs: Sequence[ScenarioRun], chosen: Sequence[ScenarioRun], class_name: str) -> str:
    """Why synthesis wrote no test: what the runs did, and whether any was usable at all."""
    usable = sum(1 for run in runs if run.usable)
    text = outcome_summary(runs, class_name)
    if usable and not chosen:
        return f"{text}; {usable} usable scenario(s), none of them selected (none covered a line or an edge)"
    if usable:
        return f"{text}; the {len(chosen)} selected scenario(s) rendered to no test with a call to check"
    return f"{text}; no scenario built the instance and ran every call"
