"""Records round-trip through JSON exactly, and task ids depend on content only."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from core.records import (
    Candidate,
    CheckResult,
    Decision,
    Finding,
    GateReport,
    GeneratorSpec,
    JudgeSpec,
    MethodDependencies,
    MethodInfo,
    Origin,
    Provenance,
    Rejection,
    RejectReason,
    SeedClass,
    Task,
    TestOutcome,
    Verdict,
)

text = st.text(max_size=40)
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False), text)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(text, inner, max_size=3)), max_leaves=8)
params = st.dictionaries(text, json_values, max_size=3)
maybe_float = st.one_of(st.none(), st.floats(0, 1))

provenances = st.builds(
    Provenance, seed_ids=st.tuples(text), transforms=st.tuples(names), rng_seed=st.one_of(st.none(), st.integers()),
    repository=st.one_of(st.none(), text), first_commit_date=st.one_of(st.none(), text),
)
generators = st.builds(GeneratorSpec, backend=names, model=st.one_of(st.none(), text), parameters=params)
verdicts = st.builds(
    Verdict, candidate_id=text, judge=st.builds(JudgeSpec, backend=names, model=st.one_of(st.none(), text), parameters=params),
    decision=st.sampled_from(Decision), findings=st.lists(st.builds(Finding, criterion=names, ok=st.one_of(st.none(), st.booleans()), note=text), max_size=3).map(tuple),
    raw_response=text,
)
methods = st.builds(
    MethodInfo, method_name=names, method_description=text, test_code=text,
    dependencies=st.builds(MethodDependencies, Standalone=st.booleans(), lib_dependencies=st.lists(names, max_size=2).map(tuple),
                           field_dependencies=st.lists(names, max_size=2).map(tuple), method_dependencies=st.lists(names, max_size=2).map(tuple)),
)
tasks = st.builds(
    Task, task_id=text, skeleton=text, test=text, solution_code=text, import_statement=st.lists(text, max_size=2).map(tuple),
    class_name=names, class_description=text, fields=st.lists(names, max_size=3).map(tuple),
    methods_info=st.lists(methods, max_size=3).map(tuple), module_name=names, domains=st.lists(names, min_size=1, max_size=2).map(tuple),
    origin=st.sampled_from(Origin), provenance=provenances, generator=generators, source_date=st.one_of(st.none(), text),
    metrics=st.dictionaries(names, maybe_float, max_size=3), verdicts=st.lists(verdicts, max_size=2).map(tuple),
)
reports = st.builds(
    GateReport, candidate_id=text, passed=st.booleans(),
    checks=st.lists(st.builds(CheckResult, name=names, value=st.one_of(st.none(), st.booleans(), st.integers(), st.floats(0, 1)),
                              threshold=st.one_of(st.none(), st.floats(0, 1)), passed=st.booleans()), max_size=3).map(tuple),
    reasons=st.lists(st.sampled_from(RejectReason), max_size=3).map(tuple),
    tests=st.lists(st.builds(TestOutcome, test_id=text, outcome=st.sampled_from(["passed", "failed", "timeout"]), reason=text), max_size=3).map(tuple),
    line_coverage=maybe_float, missing_lines=st.lists(st.integers(1, 500), max_size=4).map(tuple),
    protections=st.dictionaries(names, st.booleans(), max_size=3), evidence=params,
)
candidates = st.builds(
    Candidate, candidate_id=text, class_name=names, module_name=names, domains=st.tuples(names), description=text,
    skeleton=text, solution_code=text, test_code=text, origin=st.sampled_from(Origin), provenance=provenances, generator=generators,
)
others = st.one_of(
    st.builds(SeedClass, seed_id=text, domain=names, name=names, class_name=names, description=text, source=text, tests=text, provenance=provenances),
    st.builds(Rejection, candidate_id=text, stage=names, reason=st.sampled_from(RejectReason), detail=text, evidence=params),
    verdicts,
)


@settings(max_examples=60, deadline=None)
@given(st.one_of(tasks, reports, candidates, others))
def test_every_record_round_trips_exactly_through_json(record):
    restored = type(record).from_json(record.to_json())
    assert restored == record
    assert restored.to_json() == record.to_json()


def _task_id_in_fresh_process(hash_seed: str) -> str:
    code = "from core.records import Task; print(Task.make_id('Stack', 'class Stack: ...', 'class Stack:\\n  pass', 'def test(): pass'))"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip()


def test_task_id_is_identical_across_processes_and_hash_seeds():
    assert _task_id_in_fresh_process("1") == _task_id_in_fresh_process("12345")
    assert _task_id_in_fresh_process("1") == Task.make_id("Stack", "class Stack: ...", "class Stack:\n  pass", "def test(): pass")


def test_task_id_changes_with_any_content_field():
    base = ("Stack", "skeleton", "solution", "tests")
    ids = {Task.make_id(*base)}
    for i in range(4):
        changed = list(base)
        changed[i] += " "
        ids.add(Task.make_id(*changed))
    assert len(ids) == 5


def test_unknown_fields_and_non_finite_floats_are_refused():
    import pydantic
    import pytest

    with pytest.raises(pydantic.ValidationError):
        Rejection.model_validate({"candidate_id": "c", "stage": "s", "reason": "duplicate", "colour": "red"})
    with pytest.raises(pydantic.ValidationError):
        GateReport(candidate_id="c", passed=False, line_coverage=float("nan"))
