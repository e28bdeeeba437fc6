"""One candidate never ends a build: the parser is serialised, an interpreter fault is retried once, any other
unexpected error becomes the record's rejection with its traceback."""

from __future__ import annotations

import ast
import threading

import libcst
import pytest

from core.analysis import parse_lock
from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance, RejectReason
from pipeline.synthesis.jobs import error_rejection, never_fatal

FAULT = SystemError("AST constructor recursion depth mismatch (before=24, after=19)")


def test_installed_parsers_wait_for_the_lock():
    parse_lock.install()
    parse_lock.install()  # idempotent: not wrapped twice
    assert ast.parse.__wrapped_by_parse_lock__ and not getattr(ast.parse.__wrapped__, "__wrapped_by_parse_lock__", False)
    for parse, source in ((ast.parse, "x = 1"), (libcst.parse_module, "x = 1\n")):
        done = threading.Event()
        thread = threading.Thread(target=lambda: (parse(source), done.set()))
        with parse_lock._LOCK:
            thread.start()
            thread.join(timeout=0.2)
            assert not done.is_set()  # blocked while another thread holds the parser
        thread.join()
        assert done.is_set()
    assert ast.literal_eval("[1, 2]") == [1, 2]  # the standard library's own callers still work


def test_an_installed_parser_retries_the_fault_once_and_raises_it_the_second_time(monkeypatch):
    calls: list[str] = []

    def flaky(source: str, *, faults: int) -> str:
        calls.append(source)
        if calls.count(source) <= faults:
            raise FAULT
        return source

    once = parse_lock._locked(lambda source: flaky(source, faults=1))
    assert once("a") == "a" and calls.count("a") == 2
    twice = parse_lock._locked(lambda source: flaky(source, faults=2))
    with pytest.raises(SystemError, match="recursion depth"):
        twice("b")
    other = parse_lock._locked(lambda source: (_ for _ in ()).throw(SystemError("another fault")))
    with pytest.raises(SystemError, match="another fault"):
        other("c")


def test_only_the_parser_fault_counts_as_an_interpreter_fault():
    assert parse_lock.is_interpreter_fault(FAULT)
    assert not parse_lock.is_interpreter_fault(SystemError("something else"))
    assert not parse_lock.is_interpreter_fault(ValueError("AST constructor recursion depth"))


def test_never_fatal_retries_an_interpreter_fault_once_then_gives_up_as_a_rejection():
    calls: list[str] = []

    def work(item: str) -> list[str]:
        calls.append(item)
        if item == "flaky" and calls.count("flaky") == 1 or item == "always":
            raise FAULT
        if item == "bug":
            raise KeyError("missing")
        return [item.upper()]

    failed = lambda item, exc: error_rejection(f"x-{item}", "enhance", exc, item=item)  # noqa: E731
    guarded = never_fatal(work, failed)
    out = [result for item in ("ok", "flaky", "always", "bug") for result in guarded(item)]
    assert out[:2] == ["OK", "FLAKY"]
    always, bug = out[2:]
    assert calls.count("flaky") == 2 and calls.count("always") == 2 and calls.count("bug") == 1
    assert always.reason is RejectReason.INTERNAL_ERROR and "AST constructor" in always.detail
    assert bug.reason is RejectReason.INTERNAL_ERROR and bug.detail == "KeyError: 'missing'"
    assert "Traceback" in bug.evidence["traceback"] and "raise KeyError" in bug.evidence["traceback"]
    assert bug.evidence["item"] == "bug"


def _candidate() -> Candidate:
    source = "class A:\n    pass\n"
    return Candidate(candidate_id=Candidate.make_id("A", source, "t"), class_name="A", module_name="a",
                     domains=("Math_Stats",), description="d", skeleton=source, solution_code=source, test_code="t",
                     origin=Origin.ENHANCED, provenance=Provenance(seed_ids=("Math_Stats/x",)),
                     generator=GeneratorSpec(backend="offline"))


@pytest.mark.parametrize(("errors", "reasons", "attempts"), [
    ([FAULT], (), None),                                     # retried once, then checked normally
    ([FAULT, FAULT], (RejectReason.INTERNAL_ERROR,), 2),     # the fault twice: this candidate's rejection
    ([RuntimeError("boom")], (RejectReason.INTERNAL_ERROR,), 1),
])
def test_the_gate_turns_one_candidate_s_error_into_its_report(monkeypatch, errors, reasons, attempts):
    from validation import gate
    from validation.policy import GatePolicy

    candidate = _candidate()
    pending = list(errors)

    def validate_candidate(c, policy, pool):
        if pending:
            raise pending.pop(0)
        return GateReport(candidate_id=c.candidate_id, passed=True)

    monkeypatch.setattr(gate, "validate_candidate", validate_candidate)
    report = gate.validate_guarded(candidate, GatePolicy(), pool=object())
    assert report.reasons == reasons and report.passed is (not reasons)
    if attempts:
        assert report.evidence["attempts"] == attempts and "Traceback" in report.evidence["traceback"]
