"""The model path for one candidate, through litellm against the chat emulator, with a fake gate (the real
gate runs in the build tests): every bad answer ends as its own rejection with the raw answers kept, one
repair prompt is tried, and the gate's findings go back to the right writer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from scripted_models import HISTOGRAM_MODULE, HISTOGRAM_MORE_TESTS, HISTOGRAM_TESTS, fence

from core.records import Candidate, CheckResult, GateReport, Origin, Provenance, RejectReason, SeedClass, TestOutcome
from models.client import ModelClient
from models.config import ModelsConfig
from models.conversation import Conversation
from pipeline.stages.model import enhance_blueprints
from pipeline.synthesis.model_making import Outcome, make_candidate
from tests.emulators.chat import ChatCall, ChatEmulator, Reply

SEED = SeedClass(seed_id="Math_Stats/histogram", domain="Math_Stats", name="histogram", class_name="Histogram",
                 description="An equal-width histogram.", source="class Histogram:\n    pass\n",
                 tests="def test_nothing():\n    pass\n", provenance=Provenance(licence="MIT"))
GOOD = {"enhance_skeleton": fence(HISTOGRAM_MODULE), "tests_from_skeleton": fence(HISTOGRAM_TESTS),
        "reference_from_skeleton": fence(HISTOGRAM_MODULE), "reference_feedback": fence(HISTOGRAM_MODULE),
        "tests_feedback": fence("import pytest\n\nfrom histogram import HistogramError\n" + HISTOGRAM_MORE_TESTS)}
Script = dict[str, "str | list[str]"]


def passing(candidate: Candidate) -> GateReport:
    return GateReport(candidate_id=candidate.candidate_id, passed=True)


def responder(script: Script) -> Callable[[ChatCall], str | Reply]:
    """Answers per prompt name; a list is consumed answer by answer (the repair prompt continues the list)."""
    queues = {name: list(answer) if isinstance(answer, list) else answer for name, answer in script.items()}
    last: list[str] = []

    def answer(call: ChatCall) -> str | Reply:
        name = (call.prompt or "").split("@")[0]
        if name == "answer_repair":
            name = last[-1]
        last.append(name)
        value = queues.get(name)
        if isinstance(value, list):
            return value.pop(0) if value else Reply("script exhausted", status=400)
        return value if value is not None else Reply(f"unscripted {name}", status=400)

    return answer


def run(tmp_path: Path, script: Script, gate: Callable[[Candidate], GateReport] = passing,
        **models: object) -> tuple[Outcome, list[ChatCall]]:
    [blueprint] = enhance_blueprints([SEED])
    with ChatEmulator(responder({**GOOD, **script})) as server:
        settings = ModelsConfig(backend="model", model="openai/strong-1", api_base=server.base_url, **models)
        client = ModelClient(tmp_path / "cache", max_retries=0, backoff_s=0.0, sleep=lambda s: None)
        outcome = make_candidate(blueprint, Conversation(client, settings), gate)
        return outcome, server.calls


def test_good_answers_make_a_candidate_that_records_its_answers(tmp_path: Path) -> None:
    outcome, calls = run(tmp_path, {})
    candidate = outcome.candidate
    assert outcome.rejection is None and candidate is not None
    assert [c.prompt for c in calls] == ["enhance_skeleton@1", "tests_from_skeleton@1", "reference_from_skeleton@1"]
    assert [c.role for c in calls] == ["enhancer", "test_writer", "reference_writer"]
    assert "..." not in candidate.skeleton and "self.counts[index] += 1" not in candidate.skeleton  # bodies emptied
    assert candidate.solution_code.strip() == HISTOGRAM_MODULE.strip()
    generator = candidate.generator
    assert (generator.backend, generator.model, generator.prompt_version) == ("litellm", "openai/strong-1",
                                                                              "enhance_skeleton@1")
    answers = generator.parameters["answers"]
    assert [a["prompt"] for a in answers] == [c.prompt for c in calls]
    assert all(len(a["cache_key"]) == 32 for a in answers)
    assert generator.parameters["temperature"] == 0.0
    assert candidate.description.startswith("Counts values into equal-width bins")
    assert Candidate.from_json(candidate.to_json()) == candidate


SEVERAL = HISTOGRAM_MODULE + "\n\nclass Helper:\n    pass\n"
FOREIGN = HISTOGRAM_TESTS.replace("import pytest\n", "import pytest\nimport numpy\n")
MISMATCH = HISTOGRAM_MODULE.replace("def fraction(", "def share(")
FEW = fence("class Histogram:\n    def add(self, v):\n        ...\n\n    def total(self):\n        ...\n")


@pytest.mark.parametrize(("script", "reason"), [
    ({"enhance_skeleton": ["I would rather not.", "Still no code, sorry."]}, RejectReason.NO_CODE),
    ({"enhance_skeleton": [fence(SEVERAL)] * 2}, RejectReason.SEVERAL_CLASSES),
    ({"enhance_skeleton": [fence(HISTOGRAM_MODULE.replace("class Histogram:", "class Hist:"))] * 2},
     RejectReason.WRONG_CLASS_NAME),
    ({"enhance_skeleton": [fence("class Histogram:\n    def add(self\n")] * 2}, RejectReason.SYNTAX_ERROR),
    ({"enhance_skeleton": [FEW] * 2}, RejectReason.TOO_SMALL),
    ({"tests_from_skeleton": [fence(FOREIGN)] * 2}, RejectReason.FOREIGN_IMPORT),
    ({"tests_from_skeleton": [fence(HISTOGRAM_TESTS.replace("from histogram", "from solution"))] * 2},
     RejectReason.FOREIGN_IMPORT),
    ({"reference_from_skeleton": [fence(MISMATCH)] * 2}, RejectReason.SKELETON_MISMATCH),
])
def test_bad_answers_become_rejections_with_the_raw_answers(tmp_path: Path, script: Script,
                                                            reason: RejectReason) -> None:
    outcome, calls = run(tmp_path, script)
    rejection = outcome.rejection
    assert outcome.candidate is None and rejection is not None
    assert rejection.reason is reason and rejection.stage == "enhance"
    assert rejection.candidate_id == enhance_blueprints([SEED])[0].work_id
    bad = next(iter(script.values()))
    assert rejection.evidence["raw_answers"] == bad  # both answers, word for word
    assert calls[-1].prompt == "answer_repair@1"  # one repair prompt was tried, then no more
    assert calls[-1].messages[-2] == {"role": "assistant", "content": bad[0]}


def test_one_repair_prompt_can_save_the_answer(tmp_path: Path) -> None:
    outcome, calls = run(tmp_path, {"enhance_skeleton": ["Let me think about it.", fence(HISTOGRAM_MODULE)]})
    assert outcome.candidate is not None
    assert [c.prompt for c in calls][:2] == ["enhance_skeleton@1", "answer_repair@1"]
    assert "no fenced python block" in calls[1].last_user_message
    assert outcome.candidate.generator.parameters["prompts"] == sorted(
        {"enhance_skeleton@1", "answer_repair@1", "tests_from_skeleton@1", "reference_from_skeleton@1"})


def test_a_model_that_keeps_failing_is_a_rejection(tmp_path: Path) -> None:
    outcome, _ = run(tmp_path, {"enhance_skeleton": Reply("overloaded", status=503)})
    assert outcome.rejection is not None and outcome.rejection.reason is RejectReason.MODEL_FAILED
    assert "503" in outcome.rejection.detail or "ServiceUnavailable" in outcome.rejection.detail


def _report(candidate: Candidate, reasons: tuple[RejectReason, ...], failing: tuple[str, ...] = ()) -> GateReport:
    tests = tuple(TestOutcome(test_id=f"test_histogram.py::{name}", outcome="failed", reason="AssertionError")
                  for name in failing)
    return GateReport(candidate_id=candidate.candidate_id, passed=not reasons, reasons=reasons, tests=tests,
                      checks=(CheckResult(name="line_coverage", value=0.5, threshold=0.9, passed=False),),
                      missing_lines=(3,), evidence={"base_run": {"output_tail": "E   assert 4 == 0"}})


def test_failing_tests_go_to_the_reference_writer_and_a_contradicting_test_is_dropped(tmp_path: Path) -> None:
    reports = iter([("test_mode_bin_breaks_ties_towards_the_lowest_index", "test_add_returns_bins_and_counts")])

    def gate(candidate: Candidate) -> GateReport:
        failing = next(reports, ())
        return _report(candidate, (RejectReason.TESTS_FAIL,) if failing else (), failing)

    fixed = fence(HISTOGRAM_MODULE) + (
        "\nCONTRADICTS: test_add_returns_bins_and_counts: the skeleton does not say 10 is counted twice\n"
        "CONTRADICTS: test_not_failing: this one passes, so it must stay\n")
    outcome, calls = run(tmp_path, {"reference_feedback": fixed}, gate)
    candidate = outcome.candidate
    assert calls[-1].prompt == "reference_feedback@1" and calls[-1].role == "reference_writer"
    assert "test_mode_bin_breaks_ties_towards_the_lowest_index: failed" in calls[-1].last_user_message
    assert "E   assert 4 == 0" in calls[-1].last_user_message  # the traceback goes with it
    assert "def test_add_returns_bins_and_counts" not in candidate.test_code
    assert "def test_bin_of_edges_and_outside_values" in candidate.test_code
    assert candidate.generator.parameters["dropped_tests"] == [
        {"test": "test_add_returns_bins_and_counts", "why": "the skeleton does not say 10 is counted twice"}]
    assert candidate.generator.parameters["reference_fixed"] is True


def test_coverage_shortfall_goes_to_the_test_writer_for_at_most_the_configured_rounds(tmp_path: Path) -> None:
    def gate(candidate: Candidate) -> GateReport:
        return _report(candidate, (RejectReason.LOW_COVERAGE,))

    outcome, calls = run(tmp_path, {"tests_feedback": [fence(f"from histogram import Histogram\n\n\ndef test_more_{i}():"
                                                             f"\n    assert Histogram(0, 1, 1).total() == 0\n")
                                                       for i in range(5)]}, gate, feedback_rounds=2)
    rounds = [c for c in calls if c.prompt == "tests_feedback@1"]
    assert len(rounds) == 2 and all(c.role == "test_writer" for c in rounds)
    assert "3: " in rounds[0].last_user_message  # the missing line, quoted from the reference
    candidate = outcome.candidate
    assert "def test_more_0" in candidate.test_code and "def test_more_1" in candidate.test_code
    assert candidate.generator.parameters["feedback_rounds"] == 2
    assert not outcome.report.passed  # left to the build's oracle repair


def test_a_bad_feedback_answer_keeps_the_last_version(tmp_path: Path) -> None:
    def gate(candidate: Candidate) -> GateReport:
        return _report(candidate, (RejectReason.LOW_COVERAGE,))

    outcome, _ = run(tmp_path, {"tests_feedback": ["no code", "still none"]}, gate, feedback_rounds=1)
    assert outcome.rejection is None and outcome.candidate is not None
    assert outcome.candidate.test_code == HISTOGRAM_TESTS
    assert any("feedback answer unusable" in line for line in outcome.log)


def test_blueprint_ids_are_stable() -> None:
    [a] = enhance_blueprints([SEED])
    [b] = enhance_blueprints([SEED])
    assert a.work_id == b.work_id and a.origin is Origin.ENHANCED


def test_checks_failing_a_faithful_variant_are_weakened_without_asking_a_model(tmp_path: Path) -> None:
    # The gate found that test_bin_of_edges_and_outside_values pins which of two guards fires first (at the
    # module's first `pytest.raises`), then passes the weakened tests.
    line = HISTOGRAM_TESTS.splitlines().index("    with pytest.raises(HistogramError):") + 1
    failed = {"kind": "guard_order", "failing_tests": {
        "test_histogram.py::test_bin_of_edges_and_outside_values": {"outcome": "failed", "line": line}}}
    seen: list[str] = []

    def gate(candidate: Candidate) -> GateReport:
        seen.append(candidate.test_code)
        if len(seen) == 1:
            return GateReport(candidate_id=candidate.candidate_id, passed=False,
                              reasons=(RejectReason.OVERSPECIFIED_TESTS,),
                              evidence={"faithful_variants": {"failed": [failed]}})
        return GateReport(candidate_id=candidate.candidate_id, passed=True)

    outcome, calls = run(tmp_path, {}, gate)
    assert outcome.report.passed and len(seen) == 2
    assert not any(c.prompt.startswith(("tests_feedback", "reference_feedback")) for c in calls)
    weakened = outcome.candidate.test_code
    assert weakened != HISTOGRAM_TESTS and "with pytest.raises(Exception):\n        h.bin_of(-0.1)" in weakened
    assert outcome.candidate.generator.parameters["weakened_checks"] >= 1
    assert any("weakened" in line for line in outcome.log)


def test_an_overspecified_report_naming_no_weakenable_check_keeps_its_rejection(tmp_path: Path) -> None:
    def gate(candidate: Candidate) -> GateReport:
        return GateReport(candidate_id=candidate.candidate_id, passed=False, reasons=(RejectReason.OVERSPECIFIED_TESTS,),
                          evidence={"faithful_variants": {"failed": []}})

    outcome, calls = run(tmp_path, {}, gate)
    assert outcome.report.reasons == (RejectReason.OVERSPECIFIED_TESTS,)
    assert outcome.candidate.test_code == HISTOGRAM_TESTS
    assert not any(c.prompt.startswith("tests_feedback") for c in calls)  # more tests cannot fix it
