"""The validation gate: runs a candidate's reference solution against its tests in the sandbox and decides.

    with SandboxPool(jobs=2) as pool:
        report = validate_candidate(candidate, GatePolicy(), pool)

Many candidates are a stage's items: the driver (pipeline/stages/driver.py) runs them, the build's gate stage and
the `validate` command's alike.

Runs, all in warm sandbox workers (see `validation.sandbox`):

1. base: the suite with line + branch coverage of the solution (per-test contexts, for mutants) and the
   interaction tracer; for a composed class the same trace also says whether a test carries a value of
   one part into the other (`validation.seam`: INCOHERENT_FUSION when none does).
2. varied: another PYTHONHASHSEED and a shuffled test order, with the clock moved years ahead
   (libfaketime), uid 65534 and another hostname, no coverage. No difference from the base run settles both
   robustness checks in one plain run; only a difference brings the runs that attribute it:
3. reseeded (hash seed and order alone: a difference is FLAKY) and elsewhere (clock, user and hostname: a
   difference is ENV_DEPENDENT), then, for the tests that differ elsewhere, each change alone (clock,
   non-root, hostname) to name the cause.
4. vacuous: the suite against the NotImplementedError skeleton.
5. mutants: each mutant against only the tests whose coverage context ran its line, stopping at the first
   failure.
6. faithful variants (`validation.faithful`): the reference changed only where the skeleton is silent, each
   against the tests that run its places, as forks in the mutants' sessions (no collection of the suite of
   their own); a variant that fails is run once more on its own, to name every test that fails it (those
   tests check what the skeleton does not state: OVERSPECIFIED_TESTS).

Every rejection carries a RejectReason and evidence; the report lists the sandbox protections in force.
"""

from __future__ import annotations

import ast
import bisect
import re
import sys
import traceback
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from core.analysis import parse_lock
from core.analysis.class_facts import static_edges
from core.analysis.parsed import parsed
from core.analysis.python_need import Supported, python_need
from core.analysis.skeleton import make_skeleton
from core.records import Candidate, CheckResult, GateReport, Origin, RejectReason, TestOutcome
from core.timing import timed
from validation.faithful import FaithfulVariant, faithful_variants
from validation.method_deletion import Deletion, method_deletions
from validation.mutation import Mutant, generate_mutants
from validation.policy import GatePolicy
from validation.sandbox import MutantJob, RunResult, SandboxJob, SandboxPool, SandboxUnavailable
from validation.sandbox.interaction import interaction_summary
from validation.schemata import MutantSchema, generate_mutants_with_schema
from validation.seam import recorded_parts, seam_edges, seam_summary

# Most important first: a task that escapes or needs a package is rejected for that before anything else.
REASON_ORDER = (
    RejectReason.SYNTAX_ERROR,
    RejectReason.UNSUPPORTED_SYNTAX,
    RejectReason.MALFORMED,
    RejectReason.SANDBOX_VIOLATION,
    RejectReason.TAMPERING,
    RejectReason.RESOURCE_LIMIT,
    RejectReason.TIMEOUT,
    RejectReason.ENV_DEPENDENT,
    RejectReason.FLAKY,
    RejectReason.NO_TESTS,
    RejectReason.TESTS_FAIL,
    RejectReason.LOW_COVERAGE,
    RejectReason.LOW_INTERACTION,
    RejectReason.INCOHERENT_FUSION,
    RejectReason.VACUOUS_TESTS,
    RejectReason.UNTESTED_METHOD,
    RejectReason.OVERSPECIFIED_TESTS,
    RejectReason.LOW_MUTATION_SCORE,
)

_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")
_VIOLATION_MARKERS = ("Read-only file system", "Network is unreachable", "Connection refused",
                      "Temporary failure in name resolution", "Name or service not known", "gaierror",
                      "Cannot assign requested address")
_RESOURCE_MARKERS = ("MemoryError", "File too large", "Resource temporarily unavailable", "BlockingIOError",
                     "Too many open files", "Cannot allocate memory")


def test_file_name(module_name: str) -> str:
    return f"test_{module_name}.py"


def missing_third_party(reason: str, own_modules: Iterable[str]) -> str | None:
    """The undeclared third-party module named by an import error, if that is what `reason` is."""
    match = _MISSING_MODULE.search(reason)
    if not match:
        return None
    top = match.group(1).split(".")[0]
    if top in sys.stdlib_module_names or top in set(own_modules):
        return None
    return top


def classify_failure(outcome: str, reason: str, own_modules: Iterable[str]) -> RejectReason:
    """Why one test did not pass, from its outcome and exception message."""
    if outcome == "timeout":
        return RejectReason.TIMEOUT
    if outcome == "killed":
        # A run that ends its own process (os._exit) or kills the worker is tampering with the harness; one
        # killed by a signal ran into a limit (memory cgroup, CPU seconds).
        if "worker died" in reason or "exited with status" in reason:
            return RejectReason.SANDBOX_VIOLATION
        return RejectReason.RESOURCE_LIMIT
    if missing_third_party(reason, own_modules):
        return RejectReason.ENV_DEPENDENT
    if any(marker in reason for marker in _VIOLATION_MARKERS):
        return RejectReason.SANDBOX_VIOLATION
    if any(marker in reason for marker in _RESOURCE_MARKERS):
        return RejectReason.RESOURCE_LIMIT
    return RejectReason.TESTS_FAIL


class _Report:
    """Mutable collector turned into the frozen GateReport at the end."""

    def __init__(self, candidate: Candidate, pool: SandboxPool) -> None:
        self.candidate = candidate
        self.checks: list[CheckResult] = []
        self.reasons: list[RejectReason] = []
        self.tests: list[TestOutcome] = []
        self.evidence: dict[str, Any] = {}
        self.protections = dict(pool.protections)
        self.fields: dict[str, Any] = {}

    def reject(self, reason: RejectReason, key: str, evidence: Any) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)
        self.evidence.setdefault("rejections", []).append({"reason": reason.value, "key": key})
        self.evidence[key] = evidence

    def check(self, name: str, value: Any, threshold: Any, passed: bool, detail: str = "", gated: bool = True,
              reason: RejectReason | None = None, evidence: Any = None) -> None:
        self.checks.append(CheckResult(name=name, value=value, threshold=threshold, passed=passed, gated=gated,
                                       detail=detail))
        if gated and not passed and reason is not None:
            self.reject(reason, name, evidence if evidence is not None else detail)

    def add_run(self, run: RunResult, label: str) -> None:
        for test in run.collection_errors:
            self.tests.append(TestOutcome(test_id=test.test_id, outcome="error", reason=test.reason, run=label))
        for test in run.tests:
            self.tests.append(TestOutcome(test_id=test.test_id, outcome=test.outcome, reason=test.reason, run=label))

    def build(self) -> GateReport:
        ordered = sorted(self.reasons, key=lambda r: REASON_ORDER.index(r) if r in REASON_ORDER else len(REASON_ORDER))
        passed = not ordered and all(c.passed for c in self.checks if c.gated)
        return GateReport(candidate_id=self.candidate.candidate_id, passed=passed, checks=tuple(self.checks),
                          reasons=tuple(ordered), tests=tuple(self.tests), protections=self.protections,
                          evidence=self.evidence, **self.fields)


def _non_passing(run: RunResult, allow_skipped: bool) -> dict[str, tuple[str, str]]:
    ok = {"passed", "skipped"} if allow_skipped else {"passed"}
    bad = {t.test_id: (t.outcome, t.reason) for t in run.tests if t.outcome not in ok}
    reported = {t.test_id for t in run.tests}
    for test_id in run.collected:
        if test_id not in reported:
            bad[test_id] = ("killed", "not run: the run ended before this test " + "; ".join(run.notes))
    for error in run.collection_errors:
        bad[error.test_id] = ("error", error.reason)
    return bad


def _outcome_map(run: RunResult) -> dict[str, str]:
    outcomes = {test_id: "not run" for test_id in run.collected}
    outcomes.update({t.test_id: t.outcome for t in run.tests})
    outcomes.update({e.test_id: "error" for e in run.collection_errors})
    return outcomes


def _differences(base: RunResult, other: RunResult) -> dict[str, dict[str, str]]:
    a, b = _outcome_map(base), _outcome_map(other)
    reasons = {t.test_id: t.reason for t in other.tests}
    return {test_id: {"base": a.get(test_id, "absent"), other.profile: b.get(test_id, "absent"),
                      "reason": reasons.get(test_id, "")}
            for test_id in sorted(set(a) | set(b)) if a.get(test_id) != b.get(test_id)}


def _static_edges(candidate: Candidate) -> tuple[list[Any], str | None]:
    try:
        return static_edges(candidate.solution_code, candidate.class_name), None
    except Exception as exc:  # noqa: BLE001 - the check then reports "not measured" and fails
        return [], f"static analysis failed: {type(exc).__name__}: {exc}"


def _line_contexts(coverage: dict[str, Any] | None, all_tests: Sequence[str]) -> dict[int, list[str]]:
    """line -> ids of the tests that ran it. A line run only at import time (a `def` line with its default
    values, a class attribute) belongs to no test but can change what every test sees: all tests."""
    out: dict[int, list[str]] = {}
    for line, contexts in ((coverage or {}).get("contexts") or {}).items():
        tests = sorted({c for c in contexts if c})
        out[int(line)] = tests if tests else list(all_tests)
    return out


def _coverage_checks(report: _Report, base: RunResult, policy: GatePolicy) -> dict[int, list[str]]:
    cov = base.coverage or {}
    summary = cov.get("summary")
    if not summary:
        report.check("line_coverage", None, policy.min_line_coverage, False,
                     detail=f"coverage not measured: {cov.get('error') or 'solution not imported by the tests'}",
                     reason=RejectReason.LOW_COVERAGE)
        return {}
    statements = int(summary.get("num_statements") or 0)
    line = (int(summary.get("covered_lines") or 0) / statements) if statements else 1.0
    branches = int(summary.get("num_branches") or 0)
    branch = (int(summary.get("covered_branches") or 0) / branches) if branches else 1.0
    missing = tuple(int(x) for x in cov.get("missing_lines") or [])
    report.fields.update(line_coverage=round(line, 6), branch_coverage=round(branch, 6), missing_lines=missing)
    report.evidence["coverage"] = {"summary": summary, "missing_lines": list(missing),
                                   "missing_branches": cov.get("missing_branches") or []}
    report.check("line_coverage", round(line, 6), policy.min_line_coverage, line > policy.min_line_coverage,
                 detail=f"{line:.1%} of {statements} lines; missing {list(missing)[:20]}",
                 reason=RejectReason.LOW_COVERAGE, evidence={"missing_lines": list(missing)})
    report.check("branch_coverage", round(branch, 6), None, True, gated=False,
                 detail=f"{branch:.1%} of {branches} branches")
    return _line_contexts(cov, base.collected)


def _interaction_checks(report: _Report, candidate: Candidate, base: RunResult, policy: GatePolicy) -> None:
    edges, problem = _static_edges(candidate)
    trace = base.trace if isinstance(base.trace, dict) and "tests" in base.trace else {"tests": []}
    summary = interaction_summary(edges, trace)
    if problem:
        summary["static_analysis_error"] = problem
    if isinstance(base.trace, dict) and "error" in base.trace:
        summary["trace_error"] = base.trace["error"]
    report.evidence["interaction"] = summary
    # Gated on method pairs: a call edge and a state edge between two methods are two edges, however many
    # attributes the state edge rests on (a snapshot over ten fields is one edge per pair, not ten).
    coverage = summary.get("pair_coverage")
    per_attribute = summary.get("interaction_edge_coverage")
    pairs = {(e["kind"], e["source"], e["target"]) for e in summary.get("edges", [])}
    pairs_hit = {(e["kind"], e["source"], e["target"]) for e in summary.get("edges", []) if e["exercised"]}
    most = int(summary.get("max_methods_on_one_instance") or 0)
    report.fields["interaction_edge_coverage"] = round(coverage, 6) if coverage is not None else None
    if coverage is None:
        ok, detail = not policy.require_interaction_edges, problem or "the class has no static interaction edge"
    else:
        ok = coverage >= policy.min_interaction_edge_coverage
        detail = (f"{len(pairs_hit)}/{len(pairs)} method-pair edges exercised "
                  f"({summary['exercised_edges']}/{summary['static_edges']} counted per attribute)")
    report.check("interaction_attribute_edge_coverage", round(per_attribute, 6) if per_attribute is not None else None,
                 None, True, gated=False,
                 detail="exercised / static edges with one state edge per attribute (reported, not gated)")
    report.check("interaction_edge_coverage", round(coverage, 6) if coverage is not None else None,
                 policy.min_interaction_edge_coverage, ok, detail=detail, reason=RejectReason.LOW_INTERACTION,
                 evidence={"unexercised": [e for e in summary.get("edges", []) if not e["exercised"]][:30]})
    report.check("methods_on_one_instance", most, policy.min_methods_on_one_instance,
                 most >= policy.min_methods_on_one_instance,
                 detail=f"most distinct methods one test drives on one instance: {most} ({summary.get('max_methods_test')})",
                 reason=RejectReason.LOW_INTERACTION)
    report.check("tests_exercising_edges", len(summary.get("tests_exercising_edges") or []), None, True, gated=False,
                 detail="tests that exercise at least one interaction edge")


def _seam_checks(report: _Report, candidate: Candidate, base: RunResult) -> None:
    """A composed candidate's parts must exchange a value in a test (`validation.seam`): else it is two
    unrelated classes in one, however well its tests interleave their methods."""
    parts = recorded_parts(candidate.generator.parameters)
    if parts is None:
        why = candidate.generator.parameters.get("parts_unknown")
        report.check("seam_interaction", None, 1, True, gated=False,
                     detail="not measured: the composition recorded no parts"
                            + (f" (they could not be recovered: {why})" if why else ""))
        return
    problem = ""
    try:
        edges = seam_edges(candidate.solution_code, candidate.class_name, parts)
    except (SyntaxError, LookupError) as exc:  # the check then fails, saying why
        edges, problem = [], f" (the class could not be read: {type(exc).__name__}: {exc})"
    trace = base.trace if isinstance(base.trace, dict) and "tests" in base.trace else {"tests": []}
    summary = seam_summary(edges, trace, parts)
    report.evidence["seam_interaction"] = summary
    crossing = len(summary["tests_crossing"])
    influence = ", ".join(f"{d}: {v['edges']} edge(s), {v['tests']} test(s)" for d, v in summary["directions"].items())
    if not edges:
        detail = "neither part influences the other: no method writes one part's fields with a value of the " \
                 "other's" + problem
    else:
        detail = f"{crossing} test(s) carry a value of one part into the other and then read it ({influence})"
    report.check("seam_interaction", crossing, 1, crossing >= 1, detail=detail,
                 reason=RejectReason.INCOHERENT_FUSION, evidence={"directions": summary["directions"]})


def _robustness(report: _Report, candidate: Candidate, base: RunResult, files: dict[str, str], policy: GatePolicy,
                pool: SandboxPool, own: Sequence[str]) -> None:
    test_file = test_file_name(candidate.module_name)
    limits = policy.limits()
    varied = pool.run(SandboxJob(files=files, test_file=test_file, profile="varied",
                                 shuffle_seed=policy.shuffle_seed, limits=limits))
    report.add_run(varied, "varied")
    if not _differences(base, varied):
        # Failure mode of one combined run: two changes that each break a test cancelling out. Neither
        # known cause (an order/hash dependence, a clock/user/host dependence) can undo the other.
        together = "in one run that also moved the clock, the user and the hostname"
        report.check("stable_under_hash_seed_and_order", True, True, True,
                     detail=f"0 test(s) changed outcome with another hash seed and a shuffled order ({together})",
                     reason=RejectReason.FLAKY, evidence={"differences": {}})
        report.check("stable_across_environments", True, True, True,
                     detail="0 test(s) changed outcome with the clock +years, uid 65534, another hostname "
                            "(in one run that also changed the hash seed and the test order)",
                     reason=RejectReason.ENV_DEPENDENT, evidence={"differences": {}})
        return
    reseeded = pool.run(SandboxJob(files=files, test_file=test_file, profile="reseeded",
                                   shuffle_seed=policy.shuffle_seed, limits=limits))
    report.add_run(reseeded, "reseeded")
    flaky = _differences(base, reseeded)
    report.check("stable_under_hash_seed_and_order", not flaky, True, not flaky,
                 detail=f"{len(flaky)} test(s) changed outcome with another hash seed and a shuffled order",
                 reason=RejectReason.FLAKY, evidence={"differences": flaky})
    elsewhere = pool.run(SandboxJob(files=files, test_file=test_file, profile="elsewhere", limits=limits))
    report.add_run(elsewhere, "elsewhere")
    moved = _differences(base, elsewhere)
    evidence: dict[str, Any] = {"differences": moved}
    if moved:
        # Name the cause: rerun only the differing tests under each change alone.
        select = tuple(t for t in moved if t in set(base.collected) | set(elsewhere.collected)) or None
        causes: dict[str, list[str]] = {}
        for profile, label in (("clock", "clock moved ahead"), ("nonroot", "non-root user"),
                               ("hostname", "other hostname")):
            single = pool.run(SandboxJob(files=files, test_file=test_file, profile=profile, select=select,
                                         limits=limits))
            report.add_run(single, profile)
            changed = [t for t, d in _differences(base, single).items() if select is None or t in select]
            if changed:
                causes[label] = changed
        evidence["causes"] = causes or {"combination of changes": sorted(moved)}
    report.check("stable_across_environments", not moved, True, not moved,
                 detail=(f"{len(moved)} test(s) changed outcome with the clock +years, uid 65534, another hostname"
                         + (f"; causes: {', '.join(evidence['causes'])}" if moved else "")),
                 reason=RejectReason.ENV_DEPENDENT, evidence=evidence)


def _method_spans(source: str, class_name: str) -> dict[str, tuple[int, int]]:
    tree = parsed(source).tree  # the parse the static edges already made; read only
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return {item.name: (item.lineno, item.end_lineno or item.lineno) for item in node.body
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return {}


def _stubbed_methods(skeleton: str, class_name: str) -> set[str]:
    """Methods whose body the vacuous skeleton replaced by `raise NotImplementedError` (the others, __init__
    and what it calls, were kept so that instances can still be built)."""
    stubbed = set()
    for node in ast.parse(skeleton).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    body = [b for b in item.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
                    if (len(body) == 1 and isinstance(body[0], ast.Raise) and isinstance(body[0].exc, ast.Name)
                            and body[0].exc.id == "NotImplementedError"):
                        stubbed.add(item.name)
    return stubbed


def _vacuous(report: _Report, candidate: Candidate, policy: GatePolicy, pool: SandboxPool,
             test_lines: dict[str, set[int]]) -> None:
    """Tests that pass against the skeleton check nothing, with one exception: a test that, on the
    reference, ran only the kept constructor code (e.g. `__init__` rejecting bad arguments) checks that code.
    Failure mode this avoids: every constructor-validation test counted as vacuous."""
    try:
        skeleton = make_skeleton(candidate.solution_code, candidate.class_name, body="raise", keep_init=True)
    except Exception as exc:  # noqa: BLE001
        report.check("vacuous_share", None, policy.max_vacuous_share, False,
                     detail=f"skeleton could not be made: {type(exc).__name__}: {exc}",
                     reason=RejectReason.VACUOUS_TESTS)
        return
    files = {f"{candidate.module_name}.py": skeleton, test_file_name(candidate.module_name): candidate.test_code}
    # Only outcomes count here, and against a skeleton nearly every test fails: no traceback formatting
    # (measured on 12 seeds: 2.3x less CPU per vacuous run, the same outcomes).
    run = pool.run(SandboxJob(files=files, test_file=test_file_name(candidate.module_name), profile="base",
                              limits=policy.limits(), failure_text=False))
    total = len(run.collected)
    spans = _method_spans(candidate.solution_code, candidate.class_name)
    stubbed = _stubbed_methods(skeleton, candidate.class_name)
    kept_lines = {line for name, (lo, hi) in spans.items() if name not in stubbed for line in range(lo, hi + 1)}
    passing = sorted(t.test_id for t in run.tests if t.outcome == "passed")
    constructor_only = [t for t in passing if test_lines.get(t) and test_lines[t] <= kept_lines]
    if constructor_only:
        # Those check the constructor only if they notice it doing nothing: rerun them against the skeleton
        # whose every body, __init__ included, is `pass`; those still passing check nothing.
        try:
            hollow = make_skeleton(candidate.solution_code, candidate.class_name, body="pass")
            rerun = pool.run(SandboxJob(files={**files, f"{candidate.module_name}.py": hollow},
                                        test_file=test_file_name(candidate.module_name), profile="base",
                                        select=tuple(constructor_only), limits=policy.limits(),
                                        failure_text=False))
            still = {t.test_id for t in rerun.tests if t.outcome == "passed"}
            constructor_only = [t for t in constructor_only if t not in still]
        except SandboxUnavailable:
            raise
        except Exception:  # noqa: BLE001 - without the rerun they count as vacuous
            constructor_only = []
    vacuous = [t for t in passing if t not in constructor_only]
    share = len(vacuous) / total if total else 0.0
    report.check("vacuous_share", round(share, 6), policy.max_vacuous_share, share <= policy.max_vacuous_share,
                 detail=f"{len(vacuous)} of {total} tests pass against the NotImplementedError skeleton"
                        + (f" ({len(constructor_only)} more test only the kept constructor)" if constructor_only else ""),
                 reason=RejectReason.VACUOUS_TESTS, evidence={"vacuous_tests": vacuous})
    report.evidence["vacuous"] = {"passing": vacuous, "constructor_only": constructor_only, "collected": total,
                                  "status": run.status, "kept_methods": sorted(set(spans) - stubbed)}


def _mutant_test_seconds(policy: GatePolicy, base_seconds: float) -> float:
    """Time limit of one test against a mutant. With schemata it scales with the whole base run (pytest start,
    coverage and tracing included, so longer than any one of its tests) instead of the policy's per-test
    limit: a mutant that loops forever (``i += 1`` -> ``i -= 1``) then costs seconds, not ten. Same verdict:
    such a mutant is killed either way."""
    if not policy.mutant_schemata:
        return policy.per_test_seconds
    return min(policy.per_test_seconds, max(2.0, 3 * base_seconds))


def _mutation(report: _Report, candidate: Candidate, contexts: dict[int, list[str]], policy: GatePolicy,
              pool: SandboxPool, base_seconds: float, riders: Sequence[MutantJob] = ()) -> dict[str, dict]:
    """The mutation score. `riders` are other forks that run in the mutants' sessions (the faithful variants:
    one collection of the suite per batch serves both, instead of a session of their own); their verdicts
    are returned by id, and are missing when the mutants could not be made or the run ended early."""
    made = _made_mutants(report, candidate, policy)
    if made is None:
        return {}
    mutants, schema = made
    rows, to_run = _mutant_rows(report, mutants, schema, contexts)
    verdicts = _run_mutants(candidate, [*to_run, *riders], schema, policy, pool, base_seconds)
    rider_ids = {r.id for r in riders}
    rider_verdicts = {i: verdicts.pop(i) for i in list(verdicts) if i in rider_ids}
    _score_mutants(report, rows, verdicts, policy)
    return rider_verdicts


def _made_mutants(report: _Report, candidate: Candidate,
                  policy: GatePolicy) -> tuple[list[Mutant], MutantSchema | None] | None:
    """The sampled mutants (and their schema when configured); None, with the check reported (gated only
    when a minimum score is set), when they could not be made."""
    try:
        with timed("gate", "mutants: generate"):
            if policy.mutant_schemata:
                return generate_mutants_with_schema(candidate.solution_code, candidate.class_name,
                                                    max_mutants=policy.max_mutants)
            return generate_mutants(candidate.solution_code, candidate.class_name,
                                    max_mutants=policy.max_mutants), None
    except Exception as exc:  # noqa: BLE001
        report.check("mutation_score", None, policy.min_mutation_score, policy.min_mutation_score is None,
                     gated=policy.min_mutation_score is not None,
                     detail=f"mutants could not be made: {type(exc).__name__}: {exc}",
                     reason=RejectReason.LOW_MUTATION_SCORE)
        return None


def _mutant_rows(report: _Report, mutants: Sequence[Mutant], schema: MutantSchema | None,
                 contexts: dict[int, list[str]]) -> tuple[list[dict[str, Any]], list[MutantJob]]:
    """A row per mutant, and a job for each with the tests that run its line (a mutant no test runs
    survives without a run)."""
    rows: list[dict[str, Any]] = []
    to_run: list[MutantJob] = []
    measured_lines = sorted(contexts)
    missing = set(report.fields.get("missing_lines") or ())

    def tests_for(line: int) -> list[str]:
        # Coverage records a statement under its first line; a mutant inside a statement that spans lines
        # sits on a later line: use the statement line at or before it, unless that line never ran.
        at = bisect.bisect_right(measured_lines, line) - 1
        if at < 0 or line in missing:
            return []
        return contexts[measured_lines[at]]

    for mutant in mutants:
        tests = tests_for(mutant.line)
        row = {"id": mutant.id, "line": mutant.line, "operator": mutant.operator,
               "description": mutant.description, "tests_run": len(tests)}
        rows.append(row)
        if tests:
            switch = schema.switch.get(mutant.id) if schema is not None else None
            to_run.append(MutantJob(mutant.id, mutant.source, tuple(tests), switch))
        else:
            row.update(killed=False, why="no test runs this line")
    return rows, to_run


def _run_mutants(candidate: Candidate, to_run: list[MutantJob], schema: MutantSchema | None, policy: GatePolicy,
                 pool: SandboxPool, base_seconds: float) -> dict[str, dict]:
    """Every fork's verdict by id. One collection of the suite per batch; batches run in parallel in the
    pool's workers. Split only over workers that are free now: when other candidates keep them busy (a build
    gates `jobs` at a time), a second batch would only pay the suite's collection again and wait for a
    worker."""
    test_file = test_file_name(candidate.module_name)
    parts = max(1, min(pool.jobs, pool.spare("base")))
    batches = [to_run[i::parts] for i in range(parts) if to_run[i::parts]]
    per_test = _mutant_test_seconds(policy, base_seconds)

    def run_batch(batch: list[MutantJob]) -> RunResult:
        budget = sum(per_test * len(m.select) + 5 for m in batch)
        limits = policy.limits()
        limits = type(limits)(**{**limits.to_dict(), "wall_seconds": min(policy.wall_seconds + budget, 1800.0),
                                 "cpu_seconds": int(min(policy.wall_seconds + budget, 1800.0)) + 5,
                                 "per_test_seconds": per_test})
        return pool.run(SandboxJob(files={f"{candidate.module_name}.py": candidate.solution_code,
                                          test_file: candidate.test_code},
                                   test_file=test_file, profile="base", mutants=tuple(batch),
                                   mutant_module=candidate.module_name,
                                   mutant_schema=schema.source if schema is not None else None, limits=limits))

    with timed("gate", "mutants: run"), ThreadPoolExecutor(max_workers=max(1, len(batches))) as executor:
        results = list(executor.map(run_batch, batches))
    return {m["id"]: m for result in results for m in result.mutants}


def _score_mutants(report: _Report, rows: list[dict[str, Any]], verdicts: dict[str, dict], policy: GatePolicy) -> None:
    """Fill each row with its verdict and check the score over the mutants measured (a run that ended early
    leaves some unmeasured: counted apart, never as survivors)."""
    for row in rows:
        if "killed" in row:
            continue
        verdict = verdicts.get(row["id"])
        if verdict is None:
            row.update(killed=None, why="not measured: the mutant run ended early")
        else:
            row.update(killed=verdict["killed"], why=verdict["why"])
    unmeasured = [r for r in rows if r["killed"] is None]
    rows = [r for r in rows if r["killed"] is not None]
    killed = sum(1 for r in rows if r["killed"])
    score = killed / len(rows) if rows else None
    report.fields["mutation_score"] = round(score, 6) if score is not None else None
    surviving = [r for r in rows if not r["killed"]]
    report.evidence["mutation"] = {"mutants": len(rows), "killed": killed, "surviving": surviving[:50],
                                   "not_measured": len(unmeasured),
                                   "run_by_schema": sum(1 for v in verdicts.values() if v.get("switched"))}
    gated = policy.min_mutation_score is not None
    ok = score is not None and score >= policy.min_mutation_score if gated else True
    report.check("mutation_score", round(score, 6) if score is not None else None, policy.min_mutation_score, ok,
                 gated=gated, detail=f"{killed} of {len(rows)} mutants killed", reason=RejectReason.LOW_MUTATION_SCORE,
                 evidence={"surviving": surviving[:50]})


def _tests_running(lines: Sequence[int], contexts: dict[int, list[str]] | None, missing: set[int],
                   collected: Sequence[str]) -> list[str]:
    """The tests whose coverage context ran any of these lines (all tests without contexts). Coverage records
    a statement under its first line: a place inside a statement that spans lines counts under the statement
    line at or before it, unless that line never ran."""
    if contexts is None:
        return list(collected)
    measured = sorted(contexts)
    chosen: set[str] = set()
    for line in lines:
        at = bisect.bisect_right(measured, line) - 1
        if at >= 0 and line not in missing:
            chosen.update(contexts[measured[at]])
    return sorted(chosen)


@dataclass
class _FaithfulPlan:
    """The faithful variants of a candidate and the tests each must pass, made before the mutants run so
    that the variants can ride in the mutants' sessions (`_mutation(riders=...)`)."""

    variants: list[FaithfulVariant]
    selected: dict[str, list[str]]  # variant id -> the tests that run its places
    kinds: dict[str, dict[str, Any]] = field(default_factory=dict)  # per kind, filled as verdicts come

    def forks(self) -> list[MutantJob]:
        return [MutantJob(v.id, v.source, tuple(self.selected[v.id])) for v in self.variants]


def _faithful_plan(report: _Report, candidate: Candidate, base: RunResult,
                   contexts: dict[int, list[str]] | None) -> _FaithfulPlan | None:
    """The variants to run, each with the tests whose coverage context ran one of its places (a test that
    runs none of them sees the reference and cannot fail). None when the variants could not be made: that is
    reported, not gated."""
    try:
        variants = faithful_variants(candidate.solution_code, candidate.class_name, candidate.skeleton)
    except Exception as exc:  # noqa: BLE001 - the check cannot run: reported, not gated
        report.check("faithful_variants", None, 0, True, gated=False,
                     detail=f"variants could not be made: {type(exc).__name__}: {exc}")
        return None
    missing = set(report.fields.get("missing_lines") or ())
    selected = {v.id: _tests_running([int(site.rsplit(":", 1)[1]) for site in v.sites], contexts, missing,
                                     base.collected) for v in variants}
    plan = _FaithfulPlan(variants=[v for v in variants if selected[v.id]], selected=selected)
    for variant in variants:
        if not selected[variant.id]:  # nothing to run
            plan.kinds[variant.kind] = {"sites": len(variant.sites), "passed": True, "tests_run": 0}
    return plan


def _faithful(report: _Report, candidate: Candidate, plan: _FaithfulPlan, policy: GatePolicy, pool: SandboxPool,
              verdicts: dict[str, dict] | None = None) -> None:
    """Faithful variants must pass every test (see validation/faithful/). `verdicts` are those the variants
    got riding in the mutants' sessions; the variants without one run in a batch of their own, in the
    mutants' way (a fork per variant, the suite collected once). Each variant that failed then runs once on
    its own, which names every failing test and the test line where it failed."""
    test_file = test_file_name(candidate.module_name)
    files = {f"{candidate.module_name}.py": candidate.solution_code, test_file: candidate.test_code}
    verdicts = dict(verdicts or {})
    kinds, failed = plan.kinds, []
    if own_batch := [fork for fork in plan.forks() if fork.id not in verdicts]:
        limits = policy.limits()
        budget = min(policy.wall_seconds * (1 + len(own_batch)), 1800.0)
        limits = type(limits)(**{**limits.to_dict(), "wall_seconds": budget, "cpu_seconds": int(budget) + 5})
        run = pool.run(SandboxJob(files=files, test_file=test_file, profile="base", mutants=tuple(own_batch),
                                  mutant_module=candidate.module_name, limits=limits))
        verdicts.update({m["id"]: m for m in run.mutants})
    for variant in plan.variants:
        verdict = verdicts.get(variant.id)
        row = kinds.setdefault(variant.kind, {"sites": len(variant.sites), "passed": None,
                                                    "tests_run": len(plan.selected[variant.id])})
        if verdict is None:
            row["passed"] = None
            row["why"] = "not measured: the run ended early"
            continue
        row["passed"] = not verdict["killed"]
        if not verdict["killed"]:
            continue
        own = pool.run(SandboxJob(files={**files, f"{candidate.module_name}.py": variant.source},
                                  test_file=test_file, profile="base", limits=policy.limits()))
        failing = _non_passing(own, policy.allow_skipped)
        if not failing and own.status == "completed":
            # Failure mode: a variant killed in a shared session only by its per-test time limit (set for
            # mutants from the base run's time) passes on its own, with the suite's own limits: it passes.
            row["passed"] = True
            continue
        lines = {t.test_id: (t.raised or {}).get("test_line") for t in own.tests}
        row["failing_tests"] = sorted(failing)
        failed.append({"kind": variant.kind, "description": variant.description,
                       "sites": list(variant.sites), "diff": variant.diff(candidate.solution_code),
                       **({"open_words": list(variant.open_words)} if variant.open_words else {}),
                       "failing_tests": {t: {"outcome": o, "reason": r[:600], "line": lines.get(t)}
                                         for t, (o, r) in sorted(failing.items())}})
    evidence = {"kinds": kinds, "failed": failed}
    report.evidence["faithful_variants"] = evidence
    for kind, row in kinds.items():  # per kind: how many places it changed (a task's metrics, the card's table)
        report.check(f"faithful_{kind}", row["sites"], None, row["passed"] is not False, gated=False,
                     detail=f"{row['sites']} place(s) changed; "
                            + {True: "every test passes", False: "a test fails", None: "not measured"}[row["passed"]])
    unmeasured = [k for k, row in kinds.items() if row["passed"] is None]
    report.check("faithful_variants", len(failed), 0, not failed, reason=RejectReason.OVERSPECIFIED_TESTS,
                 detail=(f"{len(kinds) - len(failed) - len(unmeasured)} of {len(kinds)} faithful variants pass "
                         f"every test" + (f"; failed: {', '.join(f['kind'] for f in failed)}" if failed else "")
                         + (f"; not measured: {', '.join(unmeasured)}" if unmeasured else "")),
                 evidence=evidence)  # a rejection's evidence goes under the check's name: the same record


def _passing_on_the_host(bad: dict[str, tuple[str, str]], reasons: dict[str, RejectReason], files: dict[str, str],
                         test_file: str, policy: GatePolicy, pool: SandboxPool, report: _Report) -> list[str]:
    """Tests that failed in the sandbox but pass under this machine's own host name.

    The base run's host name is the sandbox's, so a test written against its author's machine fails there
    and would otherwise look like a wrong test (TESTS_FAIL); rerunning just those tests as the host names the
    real cause (ENV_DEPENDENT). Only plain failures are retried: timeouts and limits are not about the host.
    """
    retry = tuple(t for t, reason in reasons.items() if reason == RejectReason.TESTS_FAIL and bad[t][0] == "failed")
    if not retry or not policy.robustness or not pool.protections.get("hostname_varied", False):
        return []
    run = pool.run(SandboxJob(files=files, test_file=test_file, profile="host", select=retry, limits=policy.limits()))
    report.add_run(run, "host")
    passed = [t for t, outcome in run.outcomes().items() if outcome == "passed" and t in retry]
    if passed:
        report.evidence["host_bound_tests"] = {"tests": passed, "cause": "passes only under this machine's host name"}
    return passed


def _python_supported(report: _Report, candidate: Candidate, pool: SandboxPool) -> bool:
    """Record which Python ran the tests and which one the code needs; False (rejected `unsupported_syntax`)
    when the sandbox's interpreter, or this process's parser that every later check uses, is too old for it.
    Code no parser reads is left to the syntax check."""
    report.fields["interpreter"] = pool.interpreter.record()
    try:
        need = python_need(candidate.solution_code, candidate.test_code)
    except SyntaxError:
        return True
    report.evidence["requires_python"] = need.evidence()
    refusals = Supported(sandbox=pool.interpreter.minor).refusals(need)
    if refusals:
        report.reject(RejectReason.UNSUPPORTED_SYNTAX, "unsupported_syntax", list(refusals))
    return not refusals


def validate_candidate(candidate: Candidate, policy: GatePolicy | None = None,
                       pool: SandboxPool | None = None) -> GateReport:
    """Run every check of the gate on one candidate and return its report (never raises for bad candidates).

    Each step below adds its checks to the report in order and says whether the later ones can run, so a
    report that stops early still shows every check made before the stop."""
    policy = policy or GatePolicy()
    if pool is None:
        with SandboxPool(jobs=1) as own_pool:
            return validate_candidate(candidate, policy, own_pool)
    report = _Report(candidate, pool)
    report.evidence["policy"] = policy.model_dump()
    if not _python_supported(report, candidate, pool) or not _parses(report, candidate):
        return report.build()
    own = [candidate.module_name, f"test_{candidate.module_name}"]
    test_file = test_file_name(candidate.module_name)
    files = {f"{candidate.module_name}.py": candidate.solution_code, test_file: candidate.test_code}
    base = _base_run(report, candidate, files, test_file, policy, pool)
    if not _base_usable(report, base):
        return report.build()
    bad = _base_failures(report, base, files, test_file, policy, pool, own)
    if base.status not in ("completed",) or not base.collected or base.tampering:
        return report.build()
    contexts = _coverage_checks(report, base, policy)
    with timed("gate", "interaction (static edges)"):
        _interaction_checks(report, candidate, base, policy)
        if candidate.origin is Origin.COMPOSED:
            _seam_checks(report, candidate, base)
    if policy.robustness:
        with timed("gate", "robustness runs"):
            _robustness(report, candidate, base, files, policy, pool, own)
    with timed("gate", "vacuous run"):
        _vacuous(report, candidate, policy, pool, _lines_per_test(base))
    _strength_checks(report, candidate, base, contexts, policy, pool, failing=bool(bad))
    return report.build()


def _parses(report: _Report, candidate: Candidate) -> bool:
    """Whether the solution and the tests parse and the solution defines the class at top level (else
    rejected `syntax_error` or `malformed`: nothing can run)."""
    for label, code in (("solution", candidate.solution_code), ("tests", candidate.test_code)):
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            report.reject(RejectReason.SYNTAX_ERROR, f"{label}_syntax", f"{label}: line {exc.lineno}: {exc.msg}")
            return False
        if label == "solution" and not any(isinstance(n, ast.ClassDef) and n.name == candidate.class_name
                                           for n in tree.body):
            report.reject(RejectReason.MALFORMED, "class_missing",
                          f"solution does not define class {candidate.class_name!r} at top level")
            return False
    return True


def _base_run(report: _Report, candidate: Candidate, files: dict[str, str], test_file: str, policy: GatePolicy,
              pool: SandboxPool) -> RunResult:
    """The suite against the reference with per-test coverage and the interaction tracer: what every later
    check reads. Recorded in the report as it comes back."""
    with timed("gate", "base run"):
        base = pool.run(SandboxJob(files=files, test_file=test_file, profile="base",
                                   coverage_file=f"{candidate.module_name}.py", per_test_contexts=True,
                                   trace_class=(candidate.module_name, candidate.class_name),
                                   limits=policy.limits()))
    report.add_run(base, "base")
    report.evidence["base_run"] = {"status": base.status, "counts": base.counts(), "notes": base.notes,
                                   "duration_seconds": round(base.duration_seconds, 3),
                                   "output_tail": base.output[-3000:]}
    return base


def _base_usable(report: _Report, base: RunResult) -> bool:
    """Whether the base run says anything about the tests: not when it killed its worker, broke the sandbox
    or collected nothing. A tampering run is rejected but read on, so the report says what else it did."""
    if base.status == "worker_died":
        report.reject(RejectReason.SANDBOX_VIOLATION, "worker_died",
                      "the run killed the sandbox worker (its parent process)")
        return False
    if base.status == "error":
        report.reject(RejectReason.MALFORMED, "sandbox_error", base.notes)
        return False
    if base.tampering:
        # The run's outcomes cannot be trusted: it fails whatever its tests reported, and no later check runs.
        report.reject(RejectReason.TAMPERING, "tampering", {"findings": base.tampering, "notes": base.notes})
    if not base.collected and not base.collection_errors and base.status == "completed":
        report.reject(RejectReason.NO_TESTS, "no_tests", "pytest collected zero tests")
        return False
    return True


def _base_failures(report: _Report, base: RunResult, files: dict[str, str], test_file: str, policy: GatePolicy,
                   pool: SandboxPool, own: list[str]) -> dict[str, tuple[str, str]]:
    """Reject the base run's failures, each by its cause (a test bound to this machine's host name is
    `env_dependent`, not a wrong test), then check that every test passed; returns the tests that did not."""
    bad = _non_passing(base, policy.allow_skipped)
    if base.status == "timeout":
        report.reject(RejectReason.TIMEOUT, "run_timeout", {"notes": base.notes})
    if any("file size limit" in note for note in base.notes):
        report.reject(RejectReason.RESOURCE_LIMIT, "output_limit", {"notes": base.notes})
    if any("process limit" in note for note in base.notes):
        report.reject(RejectReason.RESOURCE_LIMIT, "process_limit", {"notes": base.notes})
    failure_reasons = {t: classify_failure(o, r, own) for t, (o, r) in bad.items()}
    host_bound = _passing_on_the_host(bad, failure_reasons, files, test_file, policy, pool, report)
    for test_id in host_bound:
        failure_reasons[test_id] = RejectReason.ENV_DEPENDENT
    for reason in sorted(set(failure_reasons.values()), key=REASON_ORDER.index):
        tests = {t: bad[t] for t, r in failure_reasons.items() if r == reason}
        extra: dict[str, Any] = {"tests": {t: {"outcome": o, "reason": r} for t, (o, r) in tests.items()}}
        if reason == RejectReason.ENV_DEPENDENT:
            extra["missing_modules"] = sorted({m for _, r in tests.values() if (m := missing_third_party(r, own))})
        if reason == RejectReason.RESOURCE_LIMIT and any("process limit" in n for n in base.notes):
            extra["notes"] = base.notes
        report.reject(reason, f"base_{reason.value}", extra)
    if base.status == "killed" and not bad:
        # The run ended before pytest reported anything (e.g. the solution broke the harness at import).
        reason = classify_failure("killed", " ".join(base.notes), own)
        report.reject(reason, f"base_{reason.value}", {"notes": base.notes, "output_tail": base.output[-1000:]})
    all_pass = not bad and base.status == "completed" and bool(base.collected) and not base.tampering
    report.check("all_tests_pass", all_pass, True, all_pass,
                 detail=f"{len(base.collected) - len(bad)} of {len(base.collected)} collected tests pass"
                        + (f"; {len(base.collection_errors)} collection error(s)" if base.collection_errors else ""))
    return bad


def _lines_per_test(base: RunResult) -> dict[str, set[int]]:
    """The reference's lines each test ran, from the base run's coverage contexts."""
    test_lines: dict[str, set[int]] = {}
    for line, contexts_of_line in ((base.coverage or {}).get("contexts") or {}).items():
        for test_id in contexts_of_line:
            if test_id:
                test_lines.setdefault(test_id, set()).add(int(line))
    return test_lines


def _strength_checks(report: _Report, candidate: Candidate, base: RunResult, contexts: dict[int, list[str]],
                     policy: GatePolicy, pool: SandboxPool, *, failing: bool) -> None:
    """The mutation score, the faithful variants and the method deletions, as configured, when every test
    passed (a failing suite says nothing of any). The variants and deletions ride in the mutants' sessions
    when the mutants run."""
    plan = _faithful_plan(report, candidate, base, contexts or None) if policy.faithful_variants and not failing else None
    deletions = _deletion_plan(report, candidate, base, contexts) if policy.method_deletion and not failing else None
    rode: dict[str, dict] = {}
    if policy.run_mutation and not failing:
        riders = [*(plan.forks() if plan is not None else ()), *(deletions.forks() if deletions is not None else ())]
        rode = _mutation(report, candidate, contexts, policy, pool, base.duration_seconds, riders=riders)
    if plan is not None:
        with timed("gate", "faithful variants"):
            _faithful(report, candidate, plan, policy, pool, rode)
    if deletions is not None:
        with timed("gate", "method deletions"):
            _deletion_check(report, candidate, deletions, policy, pool, rode)


@dataclass
class _DeletionPlan:
    """Each public method's deletion and the tests that ran the method on the reference."""

    deletions: list[Deletion]
    selected: dict[str, list[str]]

    def forks(self) -> list[MutantJob]:
        return [MutantJob(d.id, d.source, tuple(self.selected[d.id])) for d in self.deletions if self.selected[d.id]]


def _deletion_plan(report: _Report, candidate: Candidate, base: RunResult,
                   contexts: dict[int, list[str]]) -> _DeletionPlan | None:
    """The deletions to run (`validation/method_deletion.py`); None, reported and not gated, when they could
    not be made."""
    try:
        deletions = method_deletions(candidate.solution_code, candidate.class_name)
    except Exception as exc:  # noqa: BLE001 - the check cannot run: reported, not gated
        report.check("public_methods_tested", None, 0, True, gated=False,
                     detail=f"method deletions could not be made: {type(exc).__name__}: {exc}")
        return None
    missing = set(report.fields.get("missing_lines") or ())
    selected = {d.id: _tests_running(range(d.lines[0], d.lines[1] + 1), contexts or None, missing, base.collected)
                for d in deletions}
    return _DeletionPlan(deletions, selected)


def _deletion_check(report: _Report, candidate: Candidate, plan: _DeletionPlan, policy: GatePolicy, pool: SandboxPool,
                    verdicts: dict[str, dict]) -> None:
    """Every public method is run by a test, and its deletion fails one (else `untested_method`, naming it).
    Deletions without a verdict from the mutants' sessions run in a batch of their own."""
    verdicts = dict(verdicts)
    if own := [fork for fork in plan.forks() if fork.id not in verdicts]:
        test_file = test_file_name(candidate.module_name)
        limits = policy.limits()
        budget = min(policy.wall_seconds * (1 + len(own)), 1800.0)
        limits = type(limits)(**{**limits.to_dict(), "wall_seconds": budget, "cpu_seconds": int(budget) + 5})
        run = pool.run(SandboxJob(files={f"{candidate.module_name}.py": candidate.solution_code,
                                         test_file: candidate.test_code}, test_file=test_file, profile="base",
                                  mutants=tuple(own), mutant_module=candidate.module_name, limits=limits))
        verdicts.update({m["id"]: m for m in run.mutants})
    uncalled = [d.method for d in plan.deletions if not plan.selected[d.id]]
    surviving = [d.method for d in plan.deletions if plan.selected[d.id] and d.id in verdicts
                 and not verdicts[d.id]["killed"]]
    unmeasured = [d.method for d in plan.deletions if plan.selected[d.id] and d.id not in verdicts]
    evidence = {"methods": [d.method for d in plan.deletions], "not_called": uncalled,
                "deletion_survives": surviving, "not_measured": unmeasured}
    report.evidence["method_deletions"] = evidence
    bad = uncalled + surviving
    detail = (f"{len(plan.deletions) - len(bad) - len(unmeasured)} of {len(plan.deletions)} public methods are "
              "called by a test that fails when the method's body is `pass`"
              + (f"; no test calls {', '.join(uncalled)}" if uncalled else "")
              + (f"; every test passes with {', '.join(surviving)} emptied" if surviving else "")
              + (f"; not measured: {', '.join(unmeasured)}" if unmeasured else ""))
    report.check("public_methods_tested", len(bad), 0, not bad, detail=detail,
                 reason=RejectReason.UNTESTED_METHOD, evidence=evidence)


def check_faithful(candidate: Candidate, policy: GatePolicy, pool: SandboxPool) -> GateReport:
    """Only the faithful-variant check, and the plain run of the suite it needs first: for tasks that were
    released already (`classeval-pro release faithful`), whose other figures the release records."""
    report = _Report(candidate, pool)
    test_file = test_file_name(candidate.module_name)
    base = pool.run(SandboxJob(files={f"{candidate.module_name}.py": candidate.solution_code,
                                      test_file: candidate.test_code},
                               test_file=test_file, profile="base", limits=policy.limits()))
    report.add_run(base, "base")
    bad = _non_passing(base, policy.allow_skipped)
    if bad or base.status != "completed" or not base.collected:
        report.reject(RejectReason.TESTS_FAIL, "base_tests_fail",
                      {"status": base.status, "tests": {t: {"outcome": o, "reason": r} for t, (o, r) in bad.items()}})
        return report.build()
    if (plan := _faithful_plan(report, candidate, base, None)) is not None:
        _faithful(report, candidate, plan, policy, pool)
    return report.build()


def internal_error_report(candidate: Candidate, exc: Exception, attempts: int) -> GateReport:
    """A failed report for a candidate the gate itself could not check: the traceback is the evidence."""
    return GateReport(candidate_id=candidate.candidate_id, passed=False, reasons=(RejectReason.INTERNAL_ERROR,),
                      evidence={"error": f"{type(exc).__name__}: {exc}", "attempts": attempts,
                                "traceback": "".join(traceback.format_exception(exc))[-8000:]})


def validate_guarded(candidate: Candidate, policy: GatePolicy, pool: SandboxPool) -> GateReport:
    """`validate_candidate`, such that one candidate never ends a build: an interpreter fault in the shared
    parser is retried once, and any other unexpected error becomes this candidate's `internal_error` report.
    A sandbox that cannot start (`SandboxUnavailable`) is raised: it is the machine's fault, not the
    candidate's, and a report saying otherwise would be kept by every resumed run."""
    for attempt in (1, 2):
        try:
            return validate_candidate(candidate, policy, pool)
        except SandboxUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - one record's failure is data, not the end of the run
            if attempt == 1 and parse_lock.is_interpreter_fault(exc):
                continue
            return internal_error_report(candidate, exc, attempt)
    raise AssertionError("unreachable")
