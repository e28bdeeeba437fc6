"""Which steps of the chosen scenarios a generated test writes down.

A scenario is a path the oracle ran; a test a person reads should hold only what shows behaviour. Two kinds
of step go:

- a repeated identical query: the same call on the same object, with the same outcome, when no step since
  the first one (itself included) changed any state. The second assertion can only repeat the first.
- a bare call (one the test does not assert) whose effect nothing later observes: it changed no attribute,
  or none that a later kept step reads.

What a step changed is measured (the oracle pickles the target's attributes before and after each step);
what a later step reads is read from the source (`ClassReads`, the attributes a method and every method it
reaches touch through `self`). Either fact, when unknown, keeps the step.

A step is dropped only when the suite keeps what the gate measures: the lines the chosen tests ran (per
step, from the oracle's coverage contexts), the interaction edges they exercised (an edge touching the
dropped method, or any method it reaches, counts as lost unless another test exercises it) and a test
that drives three or more methods on one instance. Otherwise the step stays, even if no assertion needs it.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.scenarios import CLASS, MAIN, Step

EVERYTHING = "*"
"""Stands for every attribute: in a step's changes (its state could not be compared) or a method's reads
(it hands `self` to something, or reads it by a dunder such as `__dict__`)."""

MIN_DRIVEN = 3
"""The gate wants one test that drives this many methods on one instance (validation/policy.py)."""


@dataclass(frozen=True)
class ClassReads:
    """Per method, the attributes it may read and the methods it may reach, transitively, through `self`
    (and `cls`/the class name for class attributes, named `@attr` as the oracle names them)."""

    reads: dict[str, frozenset[str]]
    reaches: dict[str, frozenset[str]]

    def of(self, method: str) -> frozenset[str]:
        return self.reads.get(method, frozenset({EVERYTHING}))

    def reached_by(self, method: str) -> frozenset[str]:
        return self.reaches.get(method, frozenset({method}))


def class_reads(source: str, class_name: str) -> ClassReads:
    """`ClassReads` of `class_name` in `source` (parsed, never run). A method missing from the class (an
    inherited one) reads everything."""
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    defs = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    direct: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}
    for name, node in defs.items():
        args = node.args.posonlyargs + node.args.args
        self_name = args[0].arg if args else "self"
        direct[name], calls[name] = _method_reads(node, self_name, class_name, set(defs))
    reads: dict[str, frozenset[str]] = {}
    reaches: dict[str, frozenset[str]] = {}
    for name in defs:
        seen, todo = {name}, [name]
        while todo:
            for callee in calls[todo.pop()]:
                if callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        reaches[name] = frozenset(seen)
        reads[name] = frozenset().union(*(direct[m] for m in seen))
    return ClassReads(reads, reaches)


def _method_reads(node: ast.AST, self_name: str, class_name: str, methods: set[str]) -> tuple[set[str], set[str]]:
    reads: set[str] = set()
    calls: set[str] = set()
    owners: set[int] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            owner = sub.value.id
            if owner == self_name:
                owners.add(id(sub.value))
                if sub.attr.startswith("__"):
                    reads.add(EVERYTHING)  # self.__dict__, self.__class__: the whole object
                elif sub.attr in methods:
                    calls.add(sub.attr)  # a call or a property: what it reads is read here too
                else:
                    reads.add(sub.attr)
            elif owner in ("cls", class_name):
                owners.add(id(sub.value))
                if sub.attr in methods:
                    calls.add(sub.attr)
                else:
                    reads.add("@" + sub.attr)
    for sub in ast.walk(node):
        # The parameter is an ast.arg, not a Name: a Name `self` that is not the owner of an attribute hands
        # the object on (vars(self), copy(self), f(self)), and super() reaches methods not read here.
        if isinstance(sub, ast.Name) and (sub.id == self_name and id(sub) not in owners or sub.id == "super"):
            reads.add(EVERYTHING)
    return reads, calls


@dataclass(frozen=True)
class StepFacts:
    """What pruning needs to know of one step of a chosen scenario."""

    step: Step
    asserted: bool  # the test asserts its value or the exception it raises
    outcome: str  # canonical JSON of its recorded outcome
    changed: frozenset[str] | None  # attributes of its target it changed; None: unknown
    lines: frozenset[int] | None  # lines it ran; None: unknown

    @property
    def call(self) -> str:
        return json.dumps(self.step.to_json(), sort_keys=True)

    def reads_whole(self) -> set[str]:
        """Variables whose whole state this step's arguments read (`f(obj)`, `f(obj.to_dict())`)."""
        out = set()
        for arg in list(self.step.args) + [v for _, v in self.step.kwargs]:
            if arg.var:
                out.add(arg.var)
            if arg.call:
                out.add(arg.call[0])
        return out


@dataclass
class RunFacts:
    """One chosen scenario: its steps and what the oracle measured for it."""

    steps: list[StepFacts]
    lines: frozenset[int]
    edges: frozenset[tuple[str, str, str, str]]
    driven: int
    keep: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.keep:
            self.keep = [True] * len(self.steps)

    def kept_lines(self) -> frozenset[int]:
        """Lines the kept steps run, with those run outside any step (the constructor); a line run both
        there and in a dropped step counts as lost (it cannot be told apart)."""
        if any(s.lines is None for s in self.steps):
            return self.lines
        in_steps = frozenset().union(*(s.lines for s in self.steps))
        return (self.lines - in_steps).union(*(s.lines for s, k in zip(self.steps, self.keep) if k))

    def kept_edges(self, reads: ClassReads) -> frozenset[tuple[str, str, str, str]]:
        """The measured edges the kept steps still exercise, judged from their order: a state edge A -> B
        needs a kept step reaching A before a kept step reaching B (or one call of A reaching B), a call edge
        A -> B a kept step reaching A (B reachable from A)."""
        kept_steps = [s for s, k in zip(self.steps, self.keep) if k]
        reached = [reads.reached_by(s.step.method) if s.step.target in (MAIN, CLASS) else frozenset()
                   for s in kept_steps]
        kept = set()
        for edge in self.edges:
            kind, source, target = edge[0], edge[1], edge[2]
            sources = [i for i, r in enumerate(reached) if source in r]
            if kind == "call":
                ok = bool(sources) and target in reads.reached_by(source)
            else:
                ok = any(target in r for i in sources[:1] for r in reached[i + 1:]) or any(
                    target in reads.reached_by(source) and kept_steps[i].step.method == source for i in sources)
            if ok:
                kept.add(edge)
        return frozenset(kept)

    def kept_driven(self) -> int:
        """At most the measured figure, and no more than the distinct methods the kept steps call."""
        methods = {s.step.method for s, k in zip(self.steps, self.keep) if k and s.step.target == MAIN}
        return min(self.driven, len(methods))


def prune_suite(runs: Sequence[RunFacts], reads: ClassReads) -> None:
    """Set each run's `keep` mask: drop repeated identical queries, then bare calls nothing observes, each
    only while the suite keeps its lines, edges and widest test (see the module docstring)."""
    measured = [(r.kept_lines(), r.kept_edges(reads), r.kept_driven()) for r in runs]
    target_lines = frozenset().union(*(m[0] for m in measured))
    target_edges = frozenset().union(*(m[1] for m in measured))
    target_driven = min(MIN_DRIVEN, max((m[2] for m in measured), default=0))

    def try_drop(position: int, index: int) -> None:
        """Drop one step of one run, unless the suite then measures less (only that run is measured again)."""
        run = runs[position]
        if run.steps[index].lines is None:
            return  # what the step ran is unknown: dropping it could lose a line
        run.keep[index] = False
        mine = (run.kept_lines(), run.kept_edges(reads), run.kept_driven())
        others = measured[:position] + measured[position + 1:]
        if (mine[0].union(*(m[0] for m in others)) >= target_lines
                and mine[1].union(*(m[1] for m in others)) >= target_edges
                and max([mine[2], *(m[2] for m in others)]) >= target_driven):
            measured[position] = mine
        else:
            run.keep[index] = True

    for position, run in enumerate(runs):
        for index in _repeated_queries(run):
            try_drop(position, index)
        for index in reversed(range(len(run.steps))):
            if run.keep[index] and not run.steps[index].asserted and not _observed(run, index, reads):
                try_drop(position, index)


def _repeated_queries(run: RunFacts) -> list[int]:
    """Asserted steps that repeat an earlier asserted step's call and outcome with no state change from that
    step to this one (any object's, the repeated step's own included)."""
    out = []
    for j, later in enumerate(run.steps):
        if not later.asserted or later.step.bind:
            continue
        for i in range(j - 1, -1, -1):
            earlier = run.steps[i]
            if earlier.changed is None or earlier.changed:
                break
            if earlier.asserted and earlier.call == later.call and earlier.outcome == later.outcome:
                if later.changed == frozenset():
                    out.append(j)
                break
    return out


def _observed(run: RunFacts, index: int, reads: ClassReads) -> bool:
    """Whether a later kept step can see what step `index` did (or the step is not a plain call on the
    object under test, which this module does not reason about)."""
    fact = run.steps[index]
    step = fact.step
    if step.target != MAIN or step.bind or fact.changed is None:
        return True
    if not fact.changed:
        return False
    for later, kept in zip(run.steps[index + 1:], run.keep[index + 1:]):
        if not kept:
            continue
        if MAIN in later.reads_whole():
            return True
        if later.step.target == MAIN:
            seen = reads.of(later.step.method)
        elif later.step.target == CLASS:
            seen = frozenset(n for n in fact.changed if n.startswith("@")) | reads.of(later.step.method)
        else:
            seen = frozenset({EVERYTHING})  # another object made from this one may share its containers
        if EVERYTHING in seen or EVERYTHING in fact.changed or seen & fact.changed:
            return True
    return False
