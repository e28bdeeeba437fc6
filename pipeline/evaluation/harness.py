"""The evaluation loop: every (task, strategy, sample) gets a completion (from the model through a strategy,
or from a baseline) and a sandboxed score; the summary aggregates them into Pass@k and failure shares.

Samples run in parallel threads (`jobs`): each thread waits on the model (the client bounds concurrency and
caches answers, so a rerun costs no call) and on a sandbox worker. The records here are the run's JSON.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from pydantic import BaseModel, ConfigDict, Field

from core.records import JsonValue, Record
from models.client import ModelError
from pipeline.evaluation.baselines import BASELINES, baseline_attempt
from pipeline.evaluation.clusters import clustered_mean
from pipeline.evaluation.passk import mean_pass_at_k, pass_at_k
from pipeline.evaluation.samples import sample_attempt
from pipeline.evaluation.scoring import Score, score_completion
from pipeline.evaluation.strategies import STRATEGIES, Ask, Attempt, solve
from pipeline.evaluation.tasks import EvalTask
from pipeline.evaluation.taxonomy import FailureClass
from validation.sandbox import Limits, SandboxPool

BASELINE_STRATEGY = "baseline"
SAMPLES_STRATEGY = "samples"  # completions read from a samples file


class EvalSettings(BaseModel):
    """What one `eval` invocation asks for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(min_length=1, description="litellm model name, or a baseline: reference, skeleton, mutant.")
    strategies: tuple[str, ...] = Field(default=("holistic",), description="Strategies to run (ignored by baselines).")
    n: int = Field(default=5, ge=1, description="Samples per task and strategy.")
    ks: tuple[int, ...] = Field(default=(1, 5), description="The k of each reported Pass@k (k <= n).")
    temperature: float = Field(default=0.8, ge=0.0, description="Sampling temperature of the solver.")
    api_base: str | None = Field(default=None, description="Server address for the model, if not the provider's.")
    jobs: int = Field(default=2, ge=1, description="Samples evaluated in parallel.")
    per_test_seconds: float = Field(default=5.0, gt=0, description="Sandbox time limit of one test.")
    wall_seconds: float = Field(default=30.0, gt=0, description="Sandbox time limit of one completion's test run.")
    sandbox_python: str | None = Field(default=None, description="Interpreter the sandbox runs completions with, "
                                       "its installed packages importable; None: the project's own, standard "
                                       "library only.")
    environment_check: bool = Field(default=True, description="Rerun failing tests where the clock, user and "
                                                              "host differ, to tell environment failures apart.")
    samples_file: str | None = Field(default=None, description="JSONL of completions made elsewhere, scored "
                                                               "instead of asking a model.")

    @property
    def is_baseline(self) -> bool:
        return self.model in BASELINES

    def limits(self) -> Limits:
        return Limits(wall_seconds=self.wall_seconds, per_test_seconds=self.per_test_seconds,
                      cpu_seconds=int(self.wall_seconds) + 5)


class CompletionRecord(Record):
    """One sample: what was asked, what came back, and its graded outcome."""

    task_id: str = Field(description="The task.")
    strategy: str = Field(description="Generation strategy, or 'baseline'.")
    sample: int = Field(description="Sample index, 0-based.")
    completion: str | None = Field(description="The module that was graded; None when no answer held code.")
    prompts: tuple[str, ...] = Field(default=(), description="'<prompt>@<version>' of each model call.")
    asked: tuple[str, ...] = Field(default=(), description="What each call asked for: the class, or a method.")
    answers: tuple[str, ...] = Field(default=(), description="Raw model answers, in call order.")
    bad_answers: tuple[str, ...] = Field(default=(), description="Answers (per method or class) without usable code.")
    cached_calls: int = Field(default=0, description="Calls served from the response cache.")
    cost_usd: float | None = Field(default=0.0, description="Cost of this sample's calls; None = unknown price.")
    score: Score = Field(description="The graded outcome.")


class StrategySummary(Record):
    """One strategy's figures over all tasks."""

    strategy: str = Field(description="Generation strategy, or 'baseline'.")
    tasks: int = Field(description="Tasks evaluated.")
    samples: int = Field(description="Samples per task.")
    class_pass_at_k: dict[str, float | None] = Field(description="k -> mean class-level pass@k over tasks.")
    class_pass_at_k_ci: dict[str, tuple[float | None, float | None]] = Field(
        default_factory=dict, description="k -> 95% interval of class pass@k with each family one cluster "
                                          "(clusters.py); (None, None) with fewer than two families.")
    family_pass_at_k: dict[str, float | None] = Field(
        default_factory=dict, description="k -> class pass@k averaged per family first, then over families.")
    families: int = Field(default=0, description="Families the evaluated tasks fall in.")
    method_pass_at_k: dict[str, float | None] = Field(description="k -> mean method-level pass@k over every "
                                                                  "method with aimed tests.")
    methods_scored: int = Field(description="Methods with aimed tests, of every task evaluated, whether or not "
                                            "its completion ran (the method-level population).")
    failures: dict[str, int] = Field(description="Failure class -> failed completions.")
    failure_shares: dict[str, float] = Field(description="Failure class -> share of the failed completions.")
    cost_usd: float | None = Field(description="Total cost of the model calls; None = some price unknown.")
    cached_calls: int = Field(description="Calls served from the response cache.")


class EvalRun(Record):
    """The JSON of one `eval` invocation: settings, per-strategy summaries and every completion."""

    source: str = Field(description="Release folder or ClassEval file evaluated.")
    model: str = Field(description="Model or baseline.")
    settings: dict[str, JsonValue] = Field(description="EvalSettings as applied.")
    started: str = Field(description="UTC time the run started (ISO 8601).")
    task_ids: tuple[str, ...] = Field(description="Tasks evaluated, in order.")
    summaries: tuple[StrategySummary, ...] = Field(description="One per strategy.")
    completions: tuple[CompletionRecord, ...] = Field(description="Every sample.")
    stopped: str | None = Field(default=None, description="Why the run stopped before every sample was done (the "
                                                           "model failed for good, the budget ran out); None: complete.")
    protections: dict[str, bool] = Field(default_factory=dict, description="Sandbox protections in force.")
    usage: dict[str, JsonValue] = Field(default_factory=dict, description="Model client usage (calls, cache hits, cost).")


def _method_counts(reached: Sequence[EvalTask], per_task: dict[str, list[CompletionRecord]]) -> list[tuple[int, int]]:
    """(samples, passing samples) of every method with aimed tests of every task reached. A sample that never
    ran its tests (it did not parse, an import failed, the run died) fails each of its methods: leaving them
    out would score a model that breaks whole classes on the few it did not break."""
    counts: list[tuple[int, int]] = []
    for task in reached:
        rs = per_task[task.task_id]
        for method in sorted(set(task.method_tests) | {m for r in rs for m in r.score.methods}):
            counts.append((len(rs), sum(bool(r.score.methods.get(method)) for r in rs)))
    return counts


def _clustered(reached: Sequence[EvalTask], class_counts: Sequence[tuple[int, int]],
               ks: Sequence[int]) -> tuple[dict[str, tuple[float | None, float | None]], dict[str, float | None]]:
    """Per k: the family-clustered interval of class pass@k and the per-family mean (None where some task
    has fewer than k samples)."""
    intervals: dict[str, tuple[float | None, float | None]] = {}
    family_means: dict[str, float | None] = {}
    for k in ks:
        if not class_counts or any(n < k for n, _ in class_counts):
            intervals[str(k)], family_means[str(k)] = (None, None), None
            continue
        summary = clustered_mean([pass_at_k(n, c, k) for n, c in class_counts], [t.cluster for t in reached])
        intervals[str(k)] = (summary.low, summary.high) if summary else (None, None)
        family_means[str(k)] = summary.family_mean if summary else None
    return intervals, family_means


def summarise(strategy: str, tasks: Sequence[EvalTask], records: Sequence[CompletionRecord], n: int,
              ks: Sequence[int]) -> StrategySummary:
    """Pass@k (class and method level, with the family-clustered interval and per-family mean) and failure
    shares of one strategy's records."""
    per_task = {t.task_id: [r for r in records if r.task_id == t.task_id] for t in tasks}
    reached = [t for t in tasks if per_task[t.task_id]]  # a stopped run: tasks it reached
    class_counts = [(len(per_task[t.task_id]), sum(r.score.passed for r in per_task[t.task_id])) for t in reached]
    method_counts = _method_counts(reached, per_task)
    intervals, family_means = _clustered(reached, class_counts, ks)
    failures = Counter(r.score.failure.value for r in records if r.score.failure is not None)
    failed = sum(failures.values())
    costs = [r.cost_usd for r in records]
    return StrategySummary(
        strategy=strategy, tasks=len(reached), samples=n,
        class_pass_at_k={str(k): mean_pass_at_k(class_counts, k) for k in ks},
        class_pass_at_k_ci=intervals, family_pass_at_k=family_means,
        families=len({t.cluster for t in reached}),
        method_pass_at_k={str(k): mean_pass_at_k(method_counts, k) for k in ks},
        methods_scored=len(method_counts),
        failures={c.value: failures[c.value] for c in FailureClass if failures[c.value]},
        failure_shares={c.value: round(failures[c.value] / failed, 6) for c in FailureClass if failures[c.value]},
        cost_usd=None if any(c is None for c in costs) else round(sum(c or 0.0 for c in costs), 6),
        cached_calls=sum(r.cached_calls for r in records),
    )


def grade_attempt(task: EvalTask, attempt: Attempt, pool: SandboxPool, limits: Limits, *,
                  environment_check: bool = True) -> Score:
    """An attempt's Score: graded in the sandbox, or, when no answer held code, a failure that never ran
    (`syntax` when some answer's code did not parse, else `bad_answer`): never a silent pass."""
    if attempt.completion is None:
        return Score(passed=False, failure=FailureClass.SYNTAX if attempt.syntax_error else FailureClass.BAD_ANSWER,
                     failure_detail="; ".join(attempt.bad_answers)[:300] or "no answer held code")
    return score_completion(task, attempt.completion, pool, limits, environment_check=environment_check)


def _record(task: EvalTask, strategy: str, sample: int, attempt: Attempt, pool: SandboxPool,
            settings: EvalSettings) -> CompletionRecord:
    score = grade_attempt(task, attempt, pool, settings.limits(), environment_check=settings.environment_check)
    return CompletionRecord(task_id=task.task_id, strategy=strategy, sample=sample, completion=attempt.completion,
                            prompts=tuple(attempt.prompts), asked=tuple(attempt.asked), answers=tuple(attempt.answers),
                            bad_answers=tuple(attempt.bad_answers), cached_calls=attempt.cached,
                            cost_usd=attempt.cost_usd, score=score)


def _plan(tasks: Sequence[EvalTask], settings: EvalSettings, ask: Ask | None,
          samples: dict[str, list[str]] | None) -> tuple[tuple[str, ...], list[tuple[EvalTask, str, int]]]:
    """(the strategies, every (task, strategy, sample index) to run), once the request is known to be
    runnable. A samples file gives each task as many samples as it has lines (none: the task is not run)."""
    if samples is not None:
        return (SAMPLES_STRATEGY,), [(t, SAMPLES_STRATEGY, i) for t in tasks for i in range(len(samples.get(t.task_id, ())))]
    too_big = [k for k in settings.ks if k > settings.n]
    if too_big:
        raise ValueError(f"pass@{too_big[0]} needs --n of at least {too_big[0]} (got {settings.n})")
    strategies = (BASELINE_STRATEGY,) if settings.is_baseline else settings.strategies
    unknown = [s for s in strategies if s not in STRATEGIES and s != BASELINE_STRATEGY]
    if unknown:
        raise ValueError(f"unknown strategy {unknown[0]!r}; known: {', '.join(STRATEGIES)}")
    if not settings.is_baseline and ask is None:
        raise ValueError(f"model {settings.model!r} needs a model client")
    return strategies, [(t, s, i) for s in strategies for t in tasks for i in range(settings.n)]


def evaluate(tasks: Sequence[EvalTask], settings: EvalSettings, pool: SandboxPool, ask: Ask | None = None, *,
             source: str = "", usage: Callable[[], dict[str, JsonValue]] | None = None,
             on_record: Callable[[CompletionRecord], None] | None = None,
             samples: dict[str, list[str]] | None = None) -> EvalRun:
    """Run every sample and return the run. `ask` is the model call (see `solver.model_asker`); baselines
    need none, and neither do `samples` (task id -> completions made elsewhere, `samples.read_samples`)."""
    strategies, items = _plan(tasks, settings, ask, samples)
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    stopped: list[str] = []

    def one(item: tuple[EvalTask, str, int]) -> CompletionRecord | None:
        if stopped:
            return None
        task, strategy, sample = item
        try:
            if strategy == SAMPLES_STRATEGY:
                attempt = sample_attempt(task, (samples or {})[task.task_id][sample], sample)
            elif strategy == BASELINE_STRATEGY:
                attempt = baseline_attempt(task, settings.model, sample)
            else:
                attempt = solve(task, strategy, ask, sample)  # type: ignore[arg-type]
        except ModelError as exc:
            # Not the model's answer but no answer at all (budget spent, calls failing for good): stop, and
            # keep what is done rather than count the missing samples as failures.
            stopped.append(f"{task.task_id} {strategy} sample {sample}: {type(exc).__name__}: {exc}"[:500])
            return None
        record = _record(task, strategy, sample, attempt, pool, settings)
        if on_record is not None:
            on_record(record)
        return record

    with ThreadPoolExecutor(max_workers=settings.jobs) as executor:
        records = [r for r in executor.map(one, items) if r is not None]
    n = min((len(v) for v in samples.values()), default=0) if samples is not None else settings.n
    summaries = tuple(summarise(s, tasks, [r for r in records if r.strategy == s], n, settings.ks)
                      for s in strategies)
    return EvalRun(source=source, model=settings.model, settings=settings.model_dump(mode="json"), started=started,
                   task_ids=tuple(t.task_id for t in tasks), summaries=summaries, completions=tuple(records),
                   stopped=stopped[0] if stopped else None, protections=dict(pool.protections), usage=usage() if usage is not None else {})
