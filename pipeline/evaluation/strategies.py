"""The five generation strategies of the paper, as one harness: each turns a task into a completion (a module
defining the class) through the model client, with role `solver` and versioned prompt templates.

- holistic: the whole skeleton in one prompt; the answer is the class.
- incremental: method by method in source order; each prompt holds the class as completed so far.
- bottom_up / top_down: like incremental, in the order of the method dependency graph of the reference
  (callees first / callers first), from the gate's static analysis (`class_facts`: a method depends on the
  methods it calls and on the methods that write the state it reads). The constructor always comes first:
  every other method reads what it sets.
- compositional: each method alone, the others as signatures only; the answers are assembled afterwards.

Per method, the answer's class is read with the answer contract (`extract_python`) and only the asked
method is taken from it, so a model cannot rewrite methods it was not asked for. An answer without usable
code leaves that method a stub and is recorded; when no answer of an attempt had code the attempt is a bad
answer and is not run (never a silent pass).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.analysis.class_facts import class_facts, edges_from_facts
from core.records import RejectReason
from models.answers import BadAnswer, extract_python, python_blocks
from pipeline.evaluation.assemble import add_imports, imports_of, method_source, methods_to_write, replace_method
from pipeline.evaluation.tasks import EvalTask, parses

STRATEGIES = ("holistic", "incremental", "bottom_up", "top_down", "compositional")
PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
PROMPT_OF = {"holistic": "solve_class", "incremental": "solve_method", "bottom_up": "solve_method",
             "top_down": "solve_method", "compositional": "solve_method_alone"}


@dataclass
class Attempt:
    """One sample of one strategy on one task: the completion (None when no answer held code) and how it
    was obtained."""

    completion: str | None
    prompts: list[str] = field(default_factory=list)  # "<name>@<version>" per call
    asked: list[str] = field(default_factory=list)  # what each call asked for: the class, or a method
    answers: list[str] = field(default_factory=list)  # raw answer texts, in call order
    bad_answers: list[str] = field(default_factory=list)  # "<method or class>: <reason>"
    syntax_error: bool = False  # some answer's code did not parse (a syntax failure, not a missing answer)
    cached: int = 0  # calls served from the response cache
    cost_usd: float | None = 0.0  # None once any call's price is unknown


Ask = Callable[[str, dict[str, object]], tuple[str, str, bool, float | None]]
"""ask(prompt name, values) -> (answer text, prompt ref, served from cache, cost)."""


def dependency_order(task: EvalTask, methods: list[str], callers_first: bool) -> list[str]:
    """`methods` ordered by the reference's dependency graph: callees (and state writers) first, or callers
    first. Cycles are broken in source order; the constructor leads either way."""
    try:
        edges = edges_from_facts(class_facts(task.solution, task.class_name))
    except Exception:  # noqa: BLE001 - no analysable reference: source order
        edges = []
    wanted = set(methods)
    needs: dict[str, list[str]] = {m: [] for m in methods}
    for edge in edges:
        # call: source calls target; state: target reads what source writes. Either way the first named
        # method below depends on the second.
        user, used = (edge.source, edge.target) if edge.kind == "call" else (edge.target, edge.source)
        if user in wanted and used in wanted and used not in needs[user]:
            needs[user].append(used)
    order: list[str] = []
    visiting: set[str] = set()

    def visit(method: str) -> None:
        if method in order or method in visiting:
            return
        visiting.add(method)
        for used in needs[method]:
            visit(used)
        visiting.discard(method)
        order.append(method)

    for method in methods:
        visit(method)
    if callers_first:
        order.reverse()
    head = [m for m in order if m == "__init__"]
    return head + [m for m in order if m != "__init__"]


def _take_method(text: str, class_name: str, method: str) -> tuple[object | None, list[str], str]:
    """(the method's node, the answer's imports, why not: "<reject reason>: <detail>") from one answer."""
    try:
        code = extract_python(text, class_name)
    except BadAnswer as exc:
        # An answer with just the method (no class around it) is still an answer for that method.
        blocks = [b for b in python_blocks(text) if parses(b) and method_source(b, class_name, method) is not None]
        if len(blocks) != 1:
            return None, [], f"{exc.reason.value}: {exc.detail}"
        code = blocks[0]
    node = method_source(code, class_name, method)
    if node is None:
        return None, [], f"the answer does not define {class_name}.{method}"
    return node, imports_of(code), ""




def _record(attempt: Attempt, reply: tuple[str, str, bool, float | None]) -> str:
    text, ref, cached, cost = reply
    attempt.prompts.append(ref)
    attempt.answers.append(text)
    attempt.cached += int(cached)
    attempt.cost_usd = None if attempt.cost_usd is None or cost is None else attempt.cost_usd + cost
    return text


def holistic(task: EvalTask, ask: Ask, sample: int) -> Attempt:
    attempt = Attempt(completion=None)
    attempt.asked.append(task.class_name)
    text = _record(attempt, ask(PROMPT_OF["holistic"], {"class_name": task.class_name, "skeleton": task.skeleton,
                                                         "sample": sample}))
    try:
        attempt.completion = add_imports(extract_python(text, task.class_name), list(task.imports))
    except BadAnswer as exc:
        attempt.bad_answers.append(f"{task.class_name}: {exc.reason.value}: {exc.detail}")
        attempt.syntax_error = exc.reason == RejectReason.SYNTAX_ERROR
    return attempt


def method_by_method(task: EvalTask, ask: Ask, sample: int, order: list[str], *, alone: bool) -> Attempt:
    """Ask for each method in `order`; `alone`: show the skeleton (compositional), else the class so far."""
    attempt = Attempt(completion=None)
    current = task.skeleton
    imports: list[str] = list(task.imports)
    written = 0
    prompt = PROMPT_OF["compositional" if alone else "incremental"]
    for method in order:
        shown = task.skeleton if alone else current
        attempt.asked.append(method)
        text = _record(attempt, ask(prompt, {"class_name": task.class_name, "class_code": shown,
                                             "method_name": method, "sample": sample}))
        node, more_imports, why = _take_method(text, task.class_name, method)
        if node is None:
            attempt.bad_answers.append(f"{method}: {why}")
            attempt.syntax_error |= why.startswith(RejectReason.SYNTAX_ERROR.value)
            continue
        current = replace_method(current, task.class_name, node)
        imports += more_imports
        written += 1
    if written:
        attempt.completion = add_imports(current, imports)
    return attempt


def solve(task: EvalTask, strategy: str, ask: Ask, sample: int) -> Attempt:
    """One sample of `strategy` on `task`."""
    if strategy == "holistic":
        return holistic(task, ask, sample)
    methods = methods_to_write(task.skeleton, task.class_name)
    if strategy == "incremental":
        order = methods
    elif strategy in ("bottom_up", "top_down"):
        order = dependency_order(task, methods, callers_first=strategy == "top_down")
    elif strategy == "compositional":
        return method_by_method(task, ask, sample, methods, alone=True)
    else:
        raise ValueError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
    return method_by_method(task, ask, sample, order, alone=False)
