"""Missing method docstrings derived offline from what the class was observed to do (`[mine] derive_docstrings`).

Without a docstring model a fresh class with an undocumented public method used to be rejected
(`undocumented`), though its code often is a fine task. Offline, the only honest source of a specification
is the reference itself: the class is run as the oracle in the sandbox on the same call scenarios the test
synthesis proposes (replays of the module's own literals, random walks), and each undocumented method gets a
docstring stating what was observed:

- its parameters, with their annotation or the one type every observed argument had;
- what it returned in the recorded calls (the types, and a few values);
- each exception it raised, with the call (and the constructor call) that raised it;
- one to three doctest examples, each a recorded scenario cut after a call of the method: the instance is
  built by the same constructor call and the same earlier calls, so the example replays deterministically.

Every docstring opens by saying the description is derived from observed behaviour, and the candidate
records `docstrings: derived` (no model is named: none wrote it). Examples are kept only when they pass on
the reference in the sandbox, twice (`example_check`); this process never runs the class. Whether the
result is precise enough is not decided here: the judges and the gate's faithful-variant check see the
candidate like any other.

A class stays rejected `undocumented` when no call of it succeeded, or when an undocumented method was
never observed (its docstring would state nothing a solver could implement from); the reason names which.

The same run completes the docstrings authors did write: a parameter, the return value or a raised
exception that a docstring leaves out (by the specification judge's rule) gets a paragraph, under the same
marker, stating only what was observed of it (`addendum_for`).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from core.analysis.class_model import analyse
from core.analysis.interface import read_interface
from core.analysis.statements import DERIVED_MARKER, omissions
from core.records import RejectReason
from core.scenarios import CLASS, MAIN, Arg, Scenario
from pipeline.mining.candidates import module_name_for
from pipeline.mining.filters import Drop
from pipeline.mining.pools import static_pools
from pipeline.synthesis import jobs
from pipeline.synthesis.jobs import JobFailed
from pipeline.synthesis.observed_types import observed_type
from pipeline.synthesis.oracle import outcome_summary, run_oracle
from pipeline.synthesis.sandbox_files import text
from pipeline.synthesis.testgen import dedupe, random_walks, variable_for
from pipeline.synthesis.tracing import replay_scenarios

MARKER = DERIVED_MARKER
"""The opening words of every derived docstring (a reader, a judge and a test can find them)."""
MAX_EXAMPLES = 3
MAX_PREFIX = 5  # earlier calls an example may need to build its state; longer ones are not shown
MAX_VALUES = 3  # returned values quoted per method
MAX_RAISE_CASES = 2  # calls quoted per exception type
WALKS = 40
BEGIN, END = "<<<EXAMPLES-BEGIN>>>", "<<<EXAMPLES-END>>>"


@dataclass
class MethodObservations:
    """What the oracle saw one method do, across every scenario run."""

    name: str
    params: list[tuple[str, str | None, str]]  # (name, annotation, kind)
    static: bool = False
    arguments: dict[str, list[str]] = field(default_factory=dict)  # parameter -> observed literals
    returned_types: list[str] = field(default_factory=list)
    returned_values: list[str] = field(default_factory=list)  # literals, distinct, first seen first
    raised: dict[str, list[str]] = field(default_factory=dict)  # exception -> calls that raised it
    examples: list[str] = field(default_factory=list)  # doctest texts, verified or not yet
    calls: int = 0

    @property
    def observed(self) -> bool:
        return self.calls > 0


def _display(literal: str) -> str | None:
    """What doctest prints for a value whose canonical literal is `literal` (its repr), or None when the
    repr depends on insertion or hash order (dicts, sets) or the literal is not a plain one."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None

    def ordered(v: Any) -> bool:
        if isinstance(v, (dict, set, frozenset)):
            return False
        if isinstance(v, (list, tuple)):
            return all(ordered(x) for x in v)
        return True

    return repr(value) if ordered(value) else None


def _call_text(target: str, step: Any) -> str | None:
    """`target.method(args)` from a scenario step, or None when an argument is not a literal."""
    if any(a.literal is None for a in step.args) or any(a.literal is None for _, a in step.kwargs):
        return None
    parts = [a.literal for a in step.args] + [f"{k}={a.literal}" for k, a in step.kwargs]
    return f"{target}.{step.method}({', '.join(parts)})"


def _ctor_text(class_name: str, scenario: Any) -> str | None:
    if any(a.literal is None for a in scenario.ctor_args) or any(a.literal is None for _, a in scenario.ctor_kwargs):
        return None
    parts = [a.literal for a in scenario.ctor_args] + [f"{k}={a.literal}" for k, a in scenario.ctor_kwargs]
    return f"{class_name}({', '.join(parts)})"


def _example(variable: str, ctor: str, lines: Sequence[tuple[str, dict[str, Any]]]) -> str | None:
    """Doctest text: build the instance, then each call with what it printed (None: not showable)."""
    out = [f">>> {variable} = {ctor}"]
    for index, (call, outcome) in enumerate(lines):
        last = index == len(lines) - 1
        if outcome.get("is_none"):
            out.append(f">>> {call}")
            continue
        literal = outcome.get("literal")
        shown = _display(literal) if literal is not None else None
        if shown is not None:
            out += [f">>> {call}", shown]
        elif literal is not None:
            out += [f">>> {call} == {literal}", "True"]  # a dict or set: compared, its order left open
        elif last:
            return None  # the call under example returned a value with no literal: nothing to show
        else:
            out.append(f">>> _ = {call}")
    text = "\n".join(out)
    return None if '"""' in text or "\r" in text else text


def observe(runs: Sequence[Any], class_name: str, variable: str, methods: dict[str, MethodObservations],
            ctor: MethodObservations | None) -> None:
    """Fill `methods` (and `ctor`, when `__init__` is undocumented) from the oracle's scenario runs."""
    for run in runs:
        scenario = run.scenario
        ctor_call = _ctor_text(class_name, scenario)
        if ctor is not None and ctor_call is not None:
            _arguments(ctor, scenario.ctor_args, scenario.ctor_kwargs)
            if run.ctor is not None and run.ctor.get("kind") == "raise":
                _raised(ctor, run.ctor["exc"], ctor_call)
            elif run.ctor is None:
                ctor.calls += 1  # a bare construction shows nothing: the other methods' examples show it
        if run.ctor is not None:
            continue
        prefix: list[tuple[str, dict[str, Any]]] = []
        clean = ctor_call is not None
        texts = [_call_text(variable if s.target == MAIN else class_name if s.target == CLASS else "", s)
                 if s.target in (MAIN, CLASS) else None for s in scenario.steps]
        for index, (step, outcome) in enumerate(zip(scenario.steps, run.steps)):
            if outcome.get("kind") == "skipped" or step.bind is not None:
                break
            call = texts[index]
            seen = methods.get(step.method)
            if seen is not None and call is not None:
                seen.calls += 1
                _arguments(seen, step.args, step.kwargs)
                if outcome.get("kind") == "raise" and ctor_call is not None:
                    _raised(seen, outcome["exc"], _raise_case(variable, ctor_call, prefix, call))
                elif outcome.get("kind") == "return":
                    kind = "None" if outcome.get("is_none") else outcome.get("type", "object")
                    if kind not in seen.returned_types:
                        seen.returned_types.append(kind)
                    literal = outcome.get("literal")
                    if literal is not None and not outcome.get("is_none") and literal not in seen.returned_values:
                        seen.returned_values.append(literal)
                    if (clean and not outcome.get("unstable") and len(prefix) <= MAX_PREFIX
                            and len(seen.examples) < MAX_EXAMPLES * 3):
                        after = _observer(scenario, run, texts, index)
                        # a call returning nothing, with nothing after it that shows its effect, teaches nothing
                        text = (_example(variable, ctor_call, [*prefix, (call, outcome), *after])
                                if after or not outcome.get("is_none") else None)
                        if text is not None and text not in seen.examples:
                            seen.examples.append(text)
            if outcome.get("kind") != "return" or outcome.get("unstable") or call is None:
                clean = False  # later calls depend on a state this example cannot show
            prefix.append((call or "", outcome))


def _observer(scenario: Any, run: Any, texts: Sequence[str | None], index: int) -> list[tuple[str, dict[str, Any]]]:
    """After a call that returned None, the calls up to the next one whose result can be shown (at most two),
    so that its example shows what the call did; [] when none follows cleanly."""
    if not run.steps[index].get("is_none"):
        return []
    following: list[tuple[str, dict[str, Any]]] = []
    for later in range(index + 1, min(index + 3, len(run.steps))):
        outcome, call = run.steps[later], texts[later]
        if (call is None or outcome.get("kind") != "return" or outcome.get("unstable")
                or scenario.steps[later].bind is not None):
            return []
        following.append((call, outcome))
        if not outcome.get("is_none") and outcome.get("literal") is not None:
            return following
    return []


def _raise_case(variable: str, ctor: str, prefix: Sequence[tuple[str, dict[str, Any]]], call: str) -> str:
    """The calls that led to a raise, as a reader would type them: the state matters as much as the call."""
    earlier = [c for c, _ in prefix]
    if len(earlier) > MAX_PREFIX or any(not c for c in earlier):
        return f"`{call}` after {len(earlier)} earlier calls on `{variable} = {ctor}`"
    return ", ".join(f"`{c}`" for c in [f"{variable} = {ctor}", *earlier, call])


def _arguments(seen: MethodObservations, args: Sequence[Any], kwargs: Sequence[tuple[str, Any]]) -> None:
    positional = [name for name, _, kind in seen.params if kind == "positional"]
    for name, arg in [*zip(positional, args), *kwargs]:
        if arg.literal is not None:
            values = seen.arguments.setdefault(name, [])
            if arg.literal not in values:
                values.append(arg.literal)


def _raised(seen: MethodObservations, exc: str, call: str) -> None:
    cases = seen.raised.setdefault(exc, [])
    if call not in cases and len(cases) < MAX_RAISE_CASES * 10:
        cases.append(call)


def _type_names(literals: Sequence[str]) -> str | None:
    """'int or str' for arguments of several types, from their literals; None when one does not read."""
    names: list[str] = []
    for text in literals:
        try:
            name = type(ast.literal_eval(text)).__name__
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        if name not in names:
            names.append(name)
    return " or ".join(names) if names else None


def _quoted(values: Sequence[str], limit: int = MAX_VALUES) -> str:
    shown = [v if len(v) <= 60 else v[:57] + "..." for v in values[:limit]]
    return ", ".join(f"`{v}`" for v in shown)


def _parameter_lines(seen: MethodObservations, names: Sequence[str] | None = None) -> list[str]:
    """One line per parameter (of `names`, when given): its type and the values observed. A parameter with
    neither an annotation nor an observed value gets no line when `names` is given: naming it with nothing
    to say would only satisfy a reader looking for the word."""
    lines = []
    for name, annotation, kind in seen.params:
        if names is not None and name not in names:
            continue
        values = seen.arguments.get(name, [])
        typed = annotation or observed_type(values) or _type_names(values)
        if typed is None and names is not None:
            continue
        star = "*" if kind == "varargs" else "**" if kind == "varkw" else ""
        lines.append(f"    {star}{name} ({typed or 'type not observed'})" + (f": observed {_quoted(values)}" if values else ""))
    return lines


def _returns_line(seen: MethodObservations) -> str | None:
    types = list(seen.returned_types)
    if types == ["None"]:
        return "Returns None in every recorded call."
    if not types:
        return None
    precise = observed_type(seen.returned_values) if "None" not in types and "object" not in types else None
    text = precise if precise and len(types) == 1 else " or ".join(types)
    return f"Returns {text}" + (f"; values observed: {_quoted(seen.returned_values)}." if seen.returned_values else ".")


def _raises_lines(seen: MethodObservations, only: Sequence[str] | None = None) -> list[str]:
    lines = []
    for exc, cases in sorted(seen.raised.items()):
        if only is not None and exc not in only:
            continue
        shortest = sorted(cases, key=lambda c: (" earlier calls on " in c, c.count("`"), len(c)))[:MAX_RAISE_CASES]
        lines.append(f"    {exc}: observed for {'; and for '.join(shortest)}")
    return lines


def docstring_for(seen: MethodObservations, examples: Sequence[str]) -> str:
    """The derived docstring of one method (plain text, lines unindented)."""
    lines = [f"{MARKER} ({seen.calls} recorded call{'s' if seen.calls != 1 else ''} on the reference; the source "
             "has no docstring here)."]
    if seen.params:
        lines += ["", "Parameters:", *_parameter_lines(seen)]
    returns = _returns_line(seen) if seen.name != "__init__" else None
    if returns:
        lines += ["", returns]
    if seen.raised:
        lines += ["", "Raises:", *_raises_lines(seen)]
    if examples:
        lines += ["", "Examples (recorded calls, checked on the reference):", ""]
        lines += [line for example in examples for line in (*example.splitlines(), "")][:-1]
    return "\n".join(lines)


def addendum_for(seen: MethodObservations, omission: Any) -> str | None:
    """What to append to an author's docstring that leaves out parameters, the return value or raised
    exceptions (a `core.analysis.statements.Omission`): only the omitted parts the oracle observed, under
    the derived marker; None when it observed none of them."""
    parts: list[str] = []
    params = _parameter_lines(seen, omission.params) if omission.params else []
    if params:
        parts += ["", "Parameters:", *params]
    returns = _returns_line(seen) if omission.returns else None
    if returns:
        parts += ["", returns]
    raises = _raises_lines(seen, omission.exceptions) if omission.exceptions else []
    if raises:
        parts += ["", "Raises:", *raises]
    if not parts:
        return None
    return "\n".join([f"{MARKER} ({seen.calls} recorded call{'s' if seen.calls != 1 else ''} on the reference; "
                      "the author's docstring leaves this out).", *parts])


def _pick(examples: Sequence[str], passed: set[str]) -> list[str]:
    """Up to MAX_EXAMPLES passing examples, shortest first (fewest earlier calls), each showing a result
    the ones before it did not (three examples of an empty ledger's total teach one fact)."""
    chosen: list[str] = []
    results: set[str] = set()
    for text in sorted((e for e in examples if e in passed), key=lambda e: (e.count(">>>"), len(e), e)):
        lines = text.splitlines()
        last = max(i for i, line in enumerate(lines) if line.startswith(">>>"))
        result = "\n".join(lines[last + 1:])
        if result in results:
            continue
        results.add(result)
        chosen.append(text)
        if len(chosen) == MAX_EXAMPLES:
            break
    return chosen


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\")


class _MethodDocstrings(cst.CSTTransformer):
    """Visits the methods of one class (not nested functions) and hands each to `rewrite` with the
    indentation of its body, so that text put into a docstring lines up with the code."""

    def __init__(self, class_name: str, default_indent: str) -> None:
        self.class_name, self.default = class_name, default_indent
        self.class_indent: str | None = None

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if node.name.value != self.class_name or self.class_indent is not None:
            return False
        body = node.body
        self.class_indent = (body.indent if isinstance(body, cst.IndentedBlock) and body.indent is not None
                             else self.default)
        return True

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        own = updated.body.indent if updated.body.indent is not None else self.default
        return self.rewrite(updated, (self.class_indent or self.default) + own)

    def rewrite(self, method: cst.FunctionDef, indent: str) -> cst.FunctionDef:
        raise NotImplementedError


def insert_block_docstrings(slice_code: str, class_name: str, docstrings: dict[str, str]) -> str:
    """`slice_code` with each named method of `class_name` given its (multi-line) docstring, indented as
    the method's body is; methods that have one keep it."""
    module = cst.parse_module(slice_code)

    class _Insert(_MethodDocstrings):
        def rewrite(self, method: cst.FunctionDef, indent: str) -> cst.FunctionDef:
            text = docstrings.get(method.name.value)
            if text is None or method.get_docstring() is not None:
                return method
            lines = _escaped(text).splitlines()
            body = lines[0] + "".join("\n" + (indent + line if line else "") for line in lines[1:])
            literal = f'"""{body}\n{indent}"""' if len(lines) > 1 else f'"""{body}"""'
            line = cst.SimpleStatementLine(body=[cst.Expr(cst.SimpleString(literal))])
            return method.with_changes(body=method.body.with_changes(body=[line, *method.body.body]))

    return module.visit(_Insert(class_name, module.default_indent)).code


def _method_params(slice_code: str, class_name: str) -> dict[str, tuple[list[tuple[str, str | None, str]], bool]]:
    """Per method: its parameters (name, annotation text, kind) without self/cls, and whether it is static."""
    tree = ast.parse(slice_code)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    out = {}
    for item in node.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        decorators = {d.id for d in item.decorator_list if isinstance(d, ast.Name)}
        static = "staticmethod" in decorators
        a = item.args
        params: list[tuple[str, str | None, str]] = []
        for arg in [*a.posonlyargs, *a.args]:
            params.append((arg.arg, ast.unparse(arg.annotation) if arg.annotation else None, "positional"))
        if not static and params:
            params = params[1:]
        if a.vararg:
            params.append((a.vararg.arg, ast.unparse(a.vararg.annotation) if a.vararg.annotation else None, "varargs"))
        params += [(k.arg, ast.unparse(k.annotation) if k.annotation else None, "keyword") for k in a.kwonlyargs]
        if a.kwarg:
            params.append((a.kwarg.arg, ast.unparse(a.kwarg.annotation) if a.kwarg.annotation else None, "varkw"))
        out.setdefault(item.name, (params, static))
    return out


def _check_examples(pool: Any, slice_code: str, module: str, examples: list[str]) -> set[str]:
    """The examples that pass twice on the reference, run in the sandbox."""
    import json

    if not examples:
        return set()
    files = {f"{module}.py": slice_code, "test_examples.py": "from example_check import check_all\n\n\n"
             "def test_examples():\n    check_all()\n", "example_check.py": text("example_check.py"),
             "conftest.py": text("example_conftest.py"), "job_output.py": text("job_output.py"),
             "examples.json": json.dumps({"module": module, "examples": examples}, sort_keys=True)}
    document, _ = jobs.run_job(pool, files=files, test_file="test_examples.py", begin=BEGIN, end=END,
                               wall_seconds=60.0 + 0.2 * len(examples))
    return {examples[int(i)] for i, outcome in document.items() if outcome.get("passed")}


def class_calls(model: Any, pools: Any, missing: Sequence[str]) -> list[Any]:
    """Scenarios calling each undocumented static and class method on the class, with its pooled calls: the
    random walks call instance methods only, so such a method was never observed and the class was rejected
    for it (`Matrix.identity(3)`, `Matrix.zeros(2, 3)`)."""
    out = []
    for method in model.methods.values():
        if method.kind not in ("static", "class") or method.name not in missing:
            continue
        for index, call in enumerate(pools.calls.get(method.name, [])):
            ctor = pools.ctors[index % len(pools.ctors)] if pools.ctors else None
            out.append(Scenario(tuple(Arg(literal=a) for a in ctor.args) if ctor else (),
                                tuple((k, Arg(literal=v)) for k, v in ctor.kwargs) if ctor else (),
                                (call.step(target=CLASS),), origin="class-call"))
    return out


@dataclass
class _Observed:
    """One oracle run over a class, and what it showed of the methods asked about."""

    runs: Any
    proposed: int
    methods: dict[str, MethodObservations]
    ctor: MethodObservations | None


def _observe_class(pool: Any, class_name: str, slice_code: str, names: Sequence[str], rng_seed: int) -> _Observed:
    """Run the class as the oracle on the scenarios test synthesis would propose (and calls of the static
    and class methods among `names`), and record what methods `names` (`__init__` included) did. Raises
    SyntaxError/LookupError/StopIteration when the class cannot be read, and JobFailed when the sandbox
    returns nothing."""
    model = analyse(slice_code, class_name)
    pools = static_pools(slice_code, class_name)
    signatures = _method_params(slice_code, class_name)
    rng = random.Random(f"{rng_seed}:derive:{class_name}")
    scenarios = dedupe(replay_scenarios(pools) + random_walks(model, pools, rng, WALKS)
                       + class_calls(model, pools, names))
    runs = run_oracle(pool, source=slice_code, module=module_name_for(class_name), class_name=class_name,
                      scenarios=scenarios)
    variable = variable_for(class_name, {n.name for n in ast.parse(slice_code).body if hasattr(n, "name")})
    seen = {name: MethodObservations(name, *signatures.get(name, ([], False))) for name in names if name != "__init__"}
    ctor = MethodObservations("__init__", *signatures.get("__init__", ([], False))) if "__init__" in names else None
    observe(runs, class_name, variable, seen, ctor)
    return _Observed(runs, getattr(runs, "proposed", len(scenarios)), seen, ctor)


def left_out(slice_code: str, class_name: str) -> list[Any]:
    """The author's docstrings that leave out a parameter, the return value or a raised exception, by the
    specification judge's rule (`core.analysis.statements.omissions`, so that what a task must state is
    defined once); [] when the class cannot be read."""
    try:
        return [o for o in omissions(read_interface(slice_code, class_name), slice_code) if not o.no_docstring]
    except (SyntaxError, LookupError, ValueError):
        return []


def derive_docstrings(pool: Any, class_name: str, slice_code: str, missing: list[str], *,
                      rng_seed: int = 0) -> str | Drop:
    """The slice with a derived docstring on each method of `missing`, and each author's docstring that
    leaves something out completed with what was observed of it (`addendum_for`); or the `undocumented`
    drop saying why the behaviour of a method of `missing` could not be observed well enough to state it.

    Authors document what they think of: the specification judge rejected 33 of 70 mined classes of a corpus
    build for a parameter, return value or exception their docstrings never mention, which a solver would
    have to guess. One oracle run serves both. A completion is best effort: when the class cannot be run,
    or the omitted part was never observed, the docstring stays as its author wrote it (and the judge sees
    the omission)."""
    incomplete = [o for o in left_out(slice_code, class_name) if o.method not in missing]
    if not missing and not incomplete:
        return slice_code
    try:
        observed = _observe_class(pool, class_name, slice_code, [*missing, *(o.method for o in incomplete)], rng_seed)
    except (SyntaxError, LookupError, StopIteration) as exc:
        return Drop(RejectReason.UNDOCUMENTED, f"{class_name}: its methods could not be read to derive docstrings: "
                    f"{exc}", {"methods": missing, "docstrings": "derived"}) if missing else slice_code
    except JobFailed as exc:
        return Drop(RejectReason.UNDOCUMENTED, f"{class_name}: the oracle run that would observe it failed: {exc}",
                    {"methods": missing, "docstrings": "derived"}) if missing else slice_code
    every = {**observed.methods, **({"__init__": observed.ctor} if observed.ctor else {})}
    addenda = {o.method: text for o in incomplete if (text := addendum_for(every[o.method], o)) is not None}
    if not missing:
        return append_to_docstrings(slice_code, class_name, addenda) if addenda else slice_code
    runs = observed.runs
    succeeded = sum(1 for run in runs if run.ctor is None for s in run.steps if s.get("kind") == "return")
    if succeeded == 0:
        return Drop(RejectReason.UNDOCUMENTED, f"{class_name}: no docstring, and no call of it succeeded on the "
                    f"oracle, so no behaviour to derive a description from: {outcome_summary(runs, class_name)}",
                    {"methods": missing, "docstrings": "derived", "scenarios": len(runs), "proposed": observed.proposed,
                     **({"failure": runs.failure} if getattr(runs, "failure", None) else {})})
    undocumented = [every[name] for name in missing]
    unobserved = [m.name for m in undocumented if not m.observed and not m.raised]
    if unobserved:
        model = analyse(slice_code, class_name)
        properties = [name for name in unobserved if getattr(model.methods.get(name), "kind", None) == "property"]
        why = (f" ({', '.join(properties)}: a property, which call scenarios do not read)" if properties else "")
        return Drop(RejectReason.UNDOCUMENTED, f"{class_name}: no docstring, and the oracle never observed "
                    f"{', '.join(unobserved)}: nothing to state for {'it' if len(unobserved) == 1 else 'them'}{why}",
                    {"methods": missing, "unobserved": unobserved, "docstrings": "derived"})
    proposed = sorted({e for m in undocumented for e in m.examples})
    try:
        passed = _check_examples(pool, slice_code, module_name_for(class_name), proposed)
    except JobFailed:
        passed = set()  # no example is shown unless it was seen to pass
    code = insert_block_docstrings(slice_code, class_name, {m.name: docstring_for(m, _pick(m.examples, passed))
                                                           for m in undocumented})
    return append_to_docstrings(code, class_name, addenda) if addenda else code


def append_to_docstrings(slice_code: str, class_name: str, addenda: dict[str, str]) -> str:
    """`slice_code` with each named method's docstring followed by its addendum (a paragraph, indented as
    the docstring is). A docstring that cannot be extended safely keeps its text: a byte or f-string, an
    implicitly concatenated one, or one whose quotes the addendum would close."""
    module = cst.parse_module(slice_code)

    class _Append(_MethodDocstrings):
        def rewrite(self, method: cst.FunctionDef, indent: str) -> cst.FunctionDef:
            text = addenda.get(method.name.value)
            first = method.body.body[0] if method.body.body else None
            if (text is None or not isinstance(first, cst.SimpleStatementLine) or len(first.body) != 1
                    or not isinstance(first.body[0], cst.Expr) or not isinstance(first.body[0].value, cst.SimpleString)):
                return method
            string = first.body[0].value
            prefix, quote = string.prefix.lower(), string.quote
            if set(prefix) - {"r", "u"}:
                return method
            inner = string.value[len(string.prefix) + len(quote):-len(quote)]
            closing = '"""' if quote in ('"', '"""') else "\'\'\'"
            if closing in inner or closing in text:
                return method
            added = text if "r" in prefix else _escaped(text)
            body = inner.rstrip() + "\n\n" + "\n".join(indent + line if line else "" for line in added.splitlines())
            literal = f"{string.prefix}{closing}{body}\n{indent}{closing}"
            line = first.with_changes(body=[first.body[0].with_changes(value=string.with_changes(value=literal))])
            return method.with_changes(body=method.body.with_changes(body=[line, *method.body.body[1:]]))

    return module.visit(_Append(class_name, module.default_indent)).code


def derived_documenter(pool: Any, rng_seed: int = 0):  # noqa: ANN201 - a Documenter
    """A documenter (`examine.Documenter`) that derives docstrings on `pool`'s sandbox."""
    return lambda name, code, missing: derive_docstrings(pool, name, code, missing, rng_seed=rng_seed)
