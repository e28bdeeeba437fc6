"""The release as an Inspect AI task, for evaluators who run their models through Inspect (`pip install
'classeval-pro[inspect]'`):

    inspect eval classeval_pro -T release=2026.11.0 -T strategy=incremental --model openai/gpt-4o
    inspect eval pipeline/evaluation/inspect_task.py@classeval_pro -T release=artifacts/releases/2026.11.0

Inspect finds `classeval_pro` through the package's `inspect_ai` entry point (pyproject.toml). Its registry
(as of 0.3.285) prefixes a task with its top-level package (`pipeline/classeval_pro`) only when the package
lies in site-packages or is an editable install of a distribution of that name; this project's editable
install (distribution `classeval-pro`, package `pipeline`) registers the plain name.

The parts are the harness's own, so a score here means what it means in `classeval-pro eval`:

- dataset: one `Sample` per task of the release (a folder or a version; a ClassEval-format JSON file works
  too), its input the skeleton, its id the task id, its metadata the task (`EvalTask`) and the release
  version. Tasks that do not parse are left out with a warning, as `eval` does.
- solver: one of the five strategies (`-T strategy=`), run by `strategies.solve` with the same prompt
  templates; each of its model calls goes to Inspect's model (`get_model()`), so Inspect's providers,
  retries, limits and logs apply. The strategy code is synchronous: it runs in a worker thread and each call
  is sent back to the event loop (`anyio.from_thread`). The epoch is the sample index of the prompt.
- scorer: the completion and the task's tests run in the sandbox Inspect was given (`--sandbox docker`,
  `--sandbox local`: pytest there, `-T sandbox_python=` names its interpreter; see inspect_grading.py), else
  in the project's sandbox (`validation.sandbox`), graded by `harness.grade_attempt`; never in Inspect's
  process. The value is class-level pass (1/0, so `accuracy` is
  class pass@1; `--epochs N --epochs-reducer pass_at_K` gives pass@K); the metadata holds the method-level
  results, the failure class and every test's outcome. An answer without code is a failure that never ran
  (`bad_answer`), not an error.

Another solver (`--solver`, or a plain `generate()`) works too: its last answer is read as a holistic one.

The task is named `classeval_pro_<version>` and carries the version in its metadata, so that logs of two
releases are never read as one.

Offline: Inspect counts tokens with tiktoken's `o200k_base` (for a model that reports no usage, such as
`mockllm/model`), which tiktoken downloads on first use. litellm, a dependency, ships that encoding file
under the name tiktoken's cache gives it, so `TIKTOKEN_CACHE_DIR` is pointed there (as litellm itself does)
unless the user set it. A run that completes no sample ends `inspect eval` with exit code 1
(inspect_grading.py).
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib.util
import logging
import os
import threading
from pathlib import Path

import anyio
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import SandboxEnvironment, sandbox

from core import settings
from core.store import ArtifactStore
from models.prompts import load_prompt
from pipeline.evaluation.harness import EvalSettings, grade_attempt
from pipeline.evaluation.inspect_grading import grade_in_inspect_sandbox
from pipeline.evaluation.leaderboard import results_key
from pipeline.evaluation.strategies import PROMPTS_DIR, STRATEGIES, Attempt, holistic, solve
from pipeline.evaluation.tasks import EvalTask, load_eval_tasks
from pipeline.release.naming import resolve_release
from validation.sandbox import SandboxPool

logger = logging.getLogger(__name__)
O200K_CACHE_NAME = "fb374d419588a4632f3f557e76b4b70aebbca790"  # sha1 of the o200k_base URL: tiktoken's cache key


def use_bundled_tokenizer() -> str | None:
    """Point tiktoken's cache at the encodings litellm ships (unless TIKTOKEN_CACHE_DIR is set already), so
    that counting tokens reads a file instead of downloading one; returns the folder used, if any."""
    spec = importlib.util.find_spec("litellm")  # finds the package without importing it (seconds)
    folder = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers" if spec and spec.origin else None
    if folder is None or not (folder / O200K_CACHE_NAME).is_file():
        return os.environ.get("TIKTOKEN_CACHE_DIR")
    return os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(folder))


use_bundled_tokenizer()  # when Inspect imports the task: before any token is counted

ATTEMPT_KEY = "classeval_pro:attempt"  # the strategy's Attempt, in the sample's store, for the scorer
_ROLES = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


def release_samples(release: str) -> tuple[str, list[Sample]]:
    """(the version results are keyed by, one Sample per readable task) of a release folder or version, or a
    ClassEval-format JSON file (keyed by its stem)."""
    settings.configure_offline_environment()  # before `datasets` is imported: no download counter, no Hub
    if release.endswith(".json"):
        source = Path(release)
    else:
        source = resolve_release(release, ArtifactStore(settings.artifacts_dir())).folder
    version = results_key(source)
    tasks, unreadable = load_eval_tasks(source)
    for left_out in unreadable:
        logger.warning("task %s left out: %s", left_out.task_id, left_out.reason)
    samples = [Sample(id=t.task_id, input=t.skeleton,
                      metadata={"release_version": version, "task_id": t.task_id, "class_name": t.class_name,
                                "source_date": t.source_date, "methods": sorted(t.method_tests),
                                "eval_task": t.model_dump(mode="json")})
               for t in tasks]
    return version, samples


def _eval_task(state: TaskState) -> EvalTask:
    return EvalTask.model_validate(state.metadata["eval_task"])


def _chat(messages: tuple[dict[str, str], ...]) -> list[ChatMessage]:
    return [_ROLES[m["role"]](content=m["content"]) for m in messages]


@solver
def strategy_solver(strategy: str = "holistic") -> Solver:
    """One of the five generation strategies (`pipeline.evaluation.strategies`) on Inspect's model."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy {strategy!r}: known strategies are {', '.join(STRATEGIES)}")

    async def run(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        task = _eval_task(state)
        transcript: list[ChatMessage] = []

        def ask(name: str, values: dict[str, object]) -> tuple[str, str, bool, float | None]:
            template = load_prompt(name, PROMPTS_DIR)
            messages = _chat(template.render(**values))
            output = anyio.from_thread.run(model.generate, messages)
            # Kept for the log: the first call's system message once, then each call's question and answer.
            transcript.extend(m for m in messages if m.role != "system" or not transcript)
            transcript.append(ChatMessageAssistant(content=output.completion))
            return output.completion, template.ref, False, None  # Inspect accounts for usage and cost itself

        attempt = await anyio.to_thread.run_sync(solve, task, strategy, ask, state.epoch - 1)
        state.messages = transcript
        answer = attempt.completion if attempt.completion is not None else (attempt.answers or [""])[-1]
        state.output = ModelOutput.from_content(model=str(model), content=answer)
        state.store.set(ATTEMPT_KEY, dataclasses.asdict(attempt))
        return state

    return run


def _attempt(state: TaskState, task: EvalTask) -> Attempt:
    """The strategy solver's attempt, or, after another solver, its last answer read as a holistic answer."""
    stored = state.store.get(ATTEMPT_KEY)
    if stored is not None:
        return Attempt(**stored)
    answer = state.output.completion
    return holistic(task, lambda name, values: (answer, "inspect-solver", False, None), state.epoch - 1)


_pools: dict[tuple[int, object], object] = {}
_pools_lock = threading.Lock()


def _pool(jobs: int, limits):  # noqa: ANN001, ANN202 - validation.sandbox types, imported on use
    """The process's sandbox pool for these settings, started on first use (its warm workers serve every
    sample of every task run in this process) and closed at exit."""
    with _pools_lock:
        pool = _pools.get((jobs, limits))
        if pool is None:
            pool = _pools[(jobs, limits)] = SandboxPool(jobs=jobs, limits=limits)
        return pool


@atexit.register
def close_pools() -> None:
    """Close the process's sandbox pools (also at exit)."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()


def _inspect_sandbox() -> SandboxEnvironment | None:
    """The sandbox Inspect was given for this sample, or None (then the project's own grades)."""
    try:
        return sandbox()
    except ProcessLookupError:
        return None


@scorer(metrics=[accuracy(), stderr()])
def sandbox_scorer(per_test_seconds: float = 5.0, wall_seconds: float = 30.0, jobs: int = 2,
                   sandbox_python: str = "python3"):
    """Class-level pass of the completion against the task's tests, run in the sandbox Inspect was given or
    else in the project's; the method-level results and the failure class in the metadata."""
    limits = EvalSettings(model="inspect", per_test_seconds=per_test_seconds, wall_seconds=wall_seconds).limits()

    async def score(state: TaskState, target: Target) -> Score:
        task = _eval_task(state)
        attempt = _attempt(state, task)
        environment = _inspect_sandbox()
        if environment is not None and attempt.completion is not None:
            graded = await grade_in_inspect_sandbox(task, attempt.completion, environment, limits, sandbox_python)
        else:
            # In a worker thread, the pool's start too: it probes bubblewrap and starts processes, which would
            # otherwise hold up every other sample on the event loop.
            graded = await anyio.to_thread.run_sync(lambda: grade_attempt(task, attempt, _pool(jobs, limits), limits))
        passed_methods = sum(graded.methods.values())
        return Score(
            value=CORRECT if graded.passed else INCORRECT,
            answer=attempt.completion,
            explanation=("passed" if graded.passed else
                         f"{graded.failure.value if graded.failure else 'failed'}: {graded.failure_detail}"),
            metadata={"release_version": state.metadata["release_version"], "task_id": task.task_id,
                      "class_pass": graded.passed, "methods": graded.methods, "methods_passed": passed_methods,
                      "methods_scored": len(graded.methods),
                      "method_pass_rate": passed_methods / len(graded.methods) if graded.methods else None,
                      "failure": graded.failure.value if graded.failure else None,
                      "failure_detail": graded.failure_detail, "tests": graded.tests,
                      "bad_answers": attempt.bad_answers, "prompts": attempt.prompts,
                      "run_status": graded.run_status, "tampering": list(graded.tampering),
                      "graded_in": "inspect sandbox" if environment is not None else "classeval-pro sandbox"})

    return score


@task
def classeval_pro(release: str, strategy: str = "holistic", per_test_seconds: float = 5.0,
                  wall_seconds: float = 30.0, jobs: int = 2, sandbox_python: str = "python3") -> Task:
    """A classeval-pro release (folder or version) under one generation strategy, scored in the sandbox.

    `per_test_seconds` / `wall_seconds`: the sandbox's limits for one test and one completion's run;
    `jobs`: the project sandbox's workers (completions graded at once); `sandbox_python`: the interpreter
    (with pytest) that runs the tests in a sandbox given to Inspect (`--sandbox`).
    """
    version, samples = release_samples(release)
    if not samples:
        raise ValueError(f"{release}: no task to evaluate")
    return Task(dataset=MemoryDataset(samples, name=f"classeval_pro_{version}"),
                solver=strategy_solver(strategy),
                scorer=sandbox_scorer(per_test_seconds=per_test_seconds, wall_seconds=wall_seconds, jobs=jobs,
                                      sandbox_python=sandbox_python),
                name=f"classeval_pro_{version}",
                metadata={"release_version": version, "release": release, "strategy": strategy})
