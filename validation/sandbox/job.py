"""What a sandbox run is asked to do (`SandboxJob`) and what it reports back (`RunResult`), and the records
the pool, the worker and the run process pass each other: the worker's settings (`WorkerConfig`, once, when
it starts), one job as the worker and its run process read it (`RunRequest`, with its `MutantJob`s), and the
worker's reply (a `RunResult`). Each crosses a process boundary as JSON (`to_message`, `from_message`).

These are plain dataclasses made of JSON-able values rather than pydantic records because the same module is
imported inside the sandbox worker, whose import path holds only the standard library, pytest and coverage
(an undeclared third-party import must fail there, so pydantic cannot be on it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

OUTCOMES = ("passed", "failed", "error", "skipped", "timeout", "killed")
MUTANT_SWITCH = "__classeval_mutant__"  # the global a mutant schema switches on (validation.schemata)


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. Defaults suit a class with a few dozen unit tests."""

    wall_seconds: float = 60.0  # whole run; the worker kills the process group after this
    per_test_seconds: float = 10.0  # one test; an interval timer interrupts pure-Python loops
    cpu_seconds: int = 60  # RLIMIT_CPU of the run's process
    memory_bytes: int = 1 << 30  # RLIMIT_AS of the run's process (address space, not resident memory)
    file_size_bytes: int = 16 << 20  # RLIMIT_FSIZE: also caps captured output written to files
    open_files: int = 256  # RLIMIT_NOFILE
    processes: int = 64  # cgroup pids.max of the worker (RLIMIT_NPROC is ignored for root)
    output_bytes: int = 32 << 10  # how much of the run's stdout/stderr is kept in the result

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SandboxJob:
    """One pytest run of a test module against a solution module, inside the sandbox.

    `files` maps file names (no folders) to their text; they are written into a fresh run folder, the only
    writable place of the run. `profile` names the worker kind (see `profiles.PROFILES`): user, hostname,
    hash seed and clock are properties of the warm worker, not of the run, because a forked child inherits
    them (PYTHONHASHSEED in particular is fixed at interpreter start).
    """

    files: dict[str, str]
    test_file: str
    profile: str = "base"
    coverage_file: str | None = None  # measure line + branch coverage of this file only
    per_test_contexts: bool = False  # record which test ran each line (needed to pick tests per mutant)
    trace_class: tuple[str, str] | None = None  # (module, class): record cross-method interaction traces
    shuffle_seed: int | None = None  # shuffle the collected tests with this seed
    select: tuple[str, ...] | None = None  # run only these test ids (pytest node ids)
    stop_on_failure: bool = False  # stop at the first failing test (mutants: one kill is enough)
    # False: a failing test's reason is its exception's type and first message line, without pytest's
    # traceback formatting (reading and parsing source for every failure, which costs more than the test);
    # for runs whose verdict reads outcomes only (the vacuous run, where nearly every test fails).
    failure_text: bool = True
    limits: Limits = field(default_factory=Limits)
    # Mutant mode: the suite is collected once, then each mutant runs its selected tests in a forked process,
    # by its switch number in `mutant_schema` when it has one, else by replacing the module `mutant_module`
    # with its source (see child.run_mutants).
    mutants: tuple[MutantJob, ...] | None = None
    mutant_module: str | None = None
    # Files the run must not change (their hashes are checked by the worker, writes to them are refused);
    # None: every file of the job (the harness's pytest.ini included).
    protected_files: tuple[str, ...] | None = None
    mutant_schema: str | None = None

    def to_request(self, run_dir: str) -> RunRequest:
        """The job as the worker reads it, paths as the worker sees them."""
        return RunRequest(
            run_dir=run_dir, test_file=self.test_file, limits=self.limits, coverage_file=self.coverage_file,
            per_test_contexts=self.per_test_contexts, trace_class=self.trace_class, shuffle_seed=self.shuffle_seed,
            select=self.select, stop_on_failure=self.stop_on_failure, failure_text=self.failure_text,
            mutants=self.mutants, mutant_module=self.mutant_module,
            protected_files=self.protected_files if self.protected_files is not None
            else tuple(sorted({*self.files, "pytest.ini"})),
            mutant_schema=self.mutant_schema)


@dataclass(frozen=True)
class MutantJob:
    """One mutant of a mutant-mode run: its module's source, the tests that cover it (pytest node ids), and
    its number in the run's mutant schema (`validation.schemata`; None: it runs from its own source)."""

    id: str
    source: str
    select: tuple[str, ...]
    switch: int | None = None


@dataclass(frozen=True)
class RunRequest:
    """One job as the warm worker and the run process it forks read it (see `SandboxJob` for each field)."""

    run_dir: str  # the run folder, as the worker sees it
    test_file: str
    limits: Limits
    coverage_file: str | None = None
    per_test_contexts: bool = False
    trace_class: tuple[str, str] | None = None
    shuffle_seed: int | None = None
    select: tuple[str, ...] | None = None
    stop_on_failure: bool = False
    failure_text: bool = True
    mutants: tuple[MutantJob, ...] | None = None
    mutant_module: str | None = None
    protected_files: tuple[str, ...] = ()
    mutant_schema: str | None = None

    def to_message(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_message(cls, message: dict[str, Any]) -> RunRequest:
        """From `to_message`'s JSON (lists back to tuples). The pool wrote it: a malformed one is a bug, and
        the KeyError or TypeError it raises becomes the worker's error reply."""
        values = dict(message)
        values["limits"] = Limits(**values["limits"])
        for name in ("trace_class", "select", "protected_files"):
            if values.get(name) is not None:
                values[name] = tuple(values[name])
        if values.get("mutants") is not None:
            values["mutants"] = tuple(MutantJob(**{**m, "select": tuple(m["select"])}) for m in values["mutants"])
        return cls(**values)


@dataclass(frozen=True)
class WorkerConfig:
    """What a warm worker applies to every run it forks, given once when the pool starts it."""

    env: dict[str, str]  # the run's whole environment (the pool's clean one, and the clock's preload)
    pid_namespace: bool = False  # the worker is its PID namespace's only process: sweep it after each run
    setuid: int | None = None  # the user a run switches to when there is no user namespace (else None)
    clock_offset_seconds: float | None = None  # shift Python's clock when libfaketime is not at hand
    # Installed packages' folders (a pool with `packages`): their own code may load native libraries through
    # ctypes (numpy does), which code in the run folder may not.
    native_code_dirs: list[str] = field(default_factory=list)

    def to_message(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_message(cls, message: dict[str, Any]) -> WorkerConfig:
        return cls(**{f.name: message[f.name] for f in fields(cls) if f.name in message})


@dataclass(frozen=True)
class TestResult:
    """One test's outcome in one run."""

    __test__ = False  # not a pytest class

    test_id: str
    outcome: str  # one of OUTCOMES
    reason: str = ""
    # A failing test's exception: {"type": name, "frames": [[file, function], ...], "test_line": N} (run-folder
    # files only, outermost first; the line of the test file where the failure left the test, or None); None
    # when it passed or nothing was raised.
    raised: dict[str, Any] | None = None


@dataclass
class RunResult:
    """What one run produced. `status` says how the run ended, independent of test outcomes:

    completed: pytest finished; timeout: the wall limit was hit and the process group killed; killed: the
    run's process died from a signal (memory, CPU limit) or exited before pytest finished; worker_died: the
    warm worker itself died (something in the run killed it); error: the sandbox could not run the job.
    """

    status: str
    exit_code: int | None = None
    signal: int | None = None
    collected: list[str] = field(default_factory=list)
    tests: list[TestResult] = field(default_factory=list)
    collection_errors: list[TestResult] = field(default_factory=list)
    coverage: dict[str, Any] | None = None
    trace: Any = None
    output: str = ""
    duration_seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the run's process (user + system), from the worker's wait4
    profile: str = "base"
    notes: list[str] = field(default_factory=list)
    mutants: list[dict[str, Any]] = field(default_factory=list)  # {"id", "killed", "why"} in mutant mode
    # What the run did to the grading machinery (validation.sandbox.integrity); non-empty: no outcome of this
    # run can be trusted.
    tampering: list[str] = field(default_factory=list)

    def outcomes(self) -> dict[str, str]:
        return {t.test_id: t.outcome for t in self.tests}

    def to_message(self) -> dict[str, Any]:
        """The worker's reply (`from_reply` reads it back, checking every field). Shallow: `asdict` would
        deep-copy the coverage report, per-test contexts and all, on every run."""
        message = {f.name: getattr(self, f.name) for f in fields(self)}
        message["tests"] = [asdict(t) for t in self.tests]
        message["collection_errors"] = [asdict(t) for t in self.collection_errors]
        return message

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for t in self.tests:
            counts[t.outcome] = counts.get(t.outcome, 0) + 1
        return counts

    @classmethod
    def from_reply(cls, reply: dict[str, Any], profile: str) -> "RunResult":
        """Build from the worker's reply; fields are checked because the reply passes through untrusted code."""
        def results(items: Any) -> list[TestResult]:
            out = []
            for item in items or []:
                if isinstance(item, dict) and isinstance(item.get("test_id"), str):
                    outcome = item.get("outcome") if item.get("outcome") in OUTCOMES else "error"
                    out.append(TestResult(item["test_id"], outcome, str(item.get("reason", ""))[:500],
                                          _raised(item.get("raised"))))
            return out

        return cls(
            status=str(reply.get("status", "error")),
            exit_code=reply.get("exit_code") if isinstance(reply.get("exit_code"), int) else None,
            signal=reply.get("signal") if isinstance(reply.get("signal"), int) else None,
            collected=[c for c in reply.get("collected") or [] if isinstance(c, str)],
            tests=results(reply.get("tests")),
            collection_errors=results(reply.get("collection_errors")),
            coverage=reply.get("coverage") if isinstance(reply.get("coverage"), dict) else None,
            trace=reply.get("trace"),
            output=str(reply.get("output", "")),
            duration_seconds=float(reply.get("duration_seconds") or 0.0),
            cpu_seconds=float(reply.get("cpu_seconds") or 0.0),
            profile=profile,
            notes=[str(n) for n in reply.get("notes") or []],
            mutants=[{"id": str(m.get("id")), "killed": bool(m.get("killed")), "why": str(m.get("why", ""))[:200],
                      "switched": bool(m.get("switched"))}
                     for m in reply.get("mutants") or [] if isinstance(m, dict)],
            tampering=[str(t)[:300] for t in reply.get("tampering") or []],
        )


def _raised(value: Any) -> dict[str, Any] | None:
    """The `raised` field of a test's report, checked (it passed through the tested process)."""
    if not isinstance(value, dict):
        return None
    frames = [[str(f[0])[:200], str(f[1])[:200]] for f in value.get("frames") or []
              if isinstance(f, (list, tuple)) and len(f) == 2][-40:]
    line = value.get("test_line")
    return {"type": str(value.get("type", ""))[:80], "frames": frames,
            "test_line": line if isinstance(line, int) and not isinstance(line, bool) else None}
