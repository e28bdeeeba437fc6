"""One candidate made by models, in the order that keeps tests honest (skeleton -> tests -> reference):

1. the enhancer or composer writes a skeleton (signatures, docstrings, empty bodies);
2. the test writer writes tests from the skeleton alone, never from an implementation, so that the tests
   check the specification and not an implementation's accidents;
3. the reference writer implements the skeleton;
4. the gate runs. Failing tests go back to the reference writer once, with the traceback; a test the
   reference writer shows to contradict the skeleton is dropped and recorded, never "fixed" by changing
   its expected value. Coverage or interaction shortfalls go back to the test writer for up to
   `feedback_rounds` rounds (the build's offline oracle repair remains the last resort, in `repair`).

A bad answer in the first draft (after its one repair prompt) ends the attempt as a `Rejection` that keeps
the raw answers; one in a feedback round ends the feedback and keeps the last version. `BudgetExhausted`
propagates, so that the stage can stop cleanly and record what was not done.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from core.analysis.parts import part_members
from core.analysis.python_need import requires_python
from core.analysis.skeleton import make_skeleton
from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance, Rejection, RejectReason
from models.answers import extract_python, extract_tests
from models.checks import check_reference, check_skeleton, check_tests
from models.client import Role
from models.conversation import Conversation, WriterRejected
from models.feedback import (
    append_tests,
    contradicted_tests,
    coverage_findings,
    drop_tests,
    failing_test_names,
    failure_findings,
)
from pipeline.synthesis.stated_raises import unstated_expectations
from pipeline.synthesis.weaken import weaken_overspecified

# What a feedback round can lift: more tests (coverage, interaction, a public method no test calls or notices
# emptied: the gate's detail names it to the test writer) or weakened ones (over-specified)
REPAIRABLE = frozenset({RejectReason.LOW_COVERAGE, RejectReason.LOW_INTERACTION, RejectReason.UNTESTED_METHOD,
                        RejectReason.OVERSPECIFIED_TESTS})
MAX_WEAKENINGS = 2  # each weakens only what still failed a variant: a second catches a check the first exposed


@dataclass(frozen=True)
class Blueprint:
    """What the model path is asked to make: one enhanced seed or one composed pair."""

    work_id: str  # stable id of the attempt: the rejection's id when it fails
    stage: str  # Stage.ENHANCE or Stage.COMPOSE
    origin: Origin
    role: Role  # ENHANCER or COMPOSER
    skeleton_prompt: str
    skeleton_values: dict[str, Any]
    class_name: str
    module_name: str
    domains: tuple[str, ...]
    description: str
    provenance: Provenance
    seeds: tuple[tuple[str, str], ...] = ()  # a composition's two seeds (class name, source): its parts


@dataclass
class Outcome:
    """A made candidate with its last gate report, or the rejection of the attempt."""

    candidate: Candidate | None = None
    report: GateReport | None = None
    rejection: Rejection | None = None
    log: list[str] = field(default_factory=list)


def _parse_skeleton(text: str, blueprint: Blueprint, min_methods: int) -> str:
    code = extract_python(text, blueprint.class_name)
    check_skeleton(code, blueprint.class_name, min_methods)
    return make_skeleton(code, blueprint.class_name)  # bodies a model filled in anyway are emptied


def _parse_tests(text: str, blueprint: Blueprint, skeleton: str) -> str:
    code = extract_tests(text)
    check_tests(code, blueprint.module_name, blueprint.class_name, skeleton)
    return code


def _parse_reference(text: str, blueprint: Blueprint, skeleton: str) -> str:
    code = extract_python(text, blueprint.class_name)
    check_reference(code, blueprint.class_name, skeleton)
    return code


class _Maker:
    """The state of one candidate in the making (one per blueprint, never shared between threads)."""

    def __init__(self, blueprint: Blueprint, conversation: Conversation, gate) -> None:
        self.blueprint = blueprint
        self.talk = conversation
        self.models = conversation.models
        self.gate = gate  # Candidate -> GateReport
        self.skeleton = ""
        self.dropped: dict[str, str] = {}
        self.rounds = 0
        self.reference_fixed = False
        self.weakened: list[str] = []  # "test: what" for each check weakened after failing a faithful variant
        self.weakenings = 0

    def candidate(self, reference: str, tests: str) -> Candidate:
        b = self.blueprint
        tests = self._stated_only(tests)
        models = {role.value: self.models.model_for(role)
                  for role in (b.role, Role.TEST_WRITER, Role.REFERENCE_WRITER)}
        parameters: dict[str, Any] = {
            "stage": b.stage, "temperature": self.models.temperature, "models": models,
            "prompts": self.talk.used_prompts(), "answers": list(self.talk.answers),
            "feedback_rounds": self.rounds, "reference_fixed": self.reference_fixed,
            "dropped_tests": [{"test": name, "why": why} for name, why in sorted(self.dropped.items())],
        }
        if self.weakenings:  # the key and meaning of the offline repair's (pipeline/synthesis/weaken.py)
            parameters["weakened_checks"] = len(self.weakened)
        if b.seeds:
            parameters.update(_parts(reference, b))
        return Candidate(
            candidate_id=Candidate.make_id(b.class_name, reference, tests), class_name=b.class_name,
            module_name=b.module_name, domains=b.domains, description=self.description(), skeleton=self.skeleton,
            solution_code=reference, test_code=tests, origin=b.origin, provenance=b.provenance,
            generator=GeneratorSpec(backend="litellm", model=models[b.role.value],
                                    prompt_version=self.talk.answers[0]["prompt"], parameters=parameters),
            requires_python=requires_python(reference, tests))

    def _stated_only(self, tests: str) -> str:
        """The tests without those expecting an exception no docstring of the skeleton states (recorded as
        dropped): whatever the reference raises there is its own accident or defect, not the specification."""
        try:
            unstated = unstated_expectations(tests, self.skeleton, self.blueprint.class_name)
        except (SyntaxError, LookupError, ValueError):  # the gate says what is wrong with code that does not parse
            return tests
        if not unstated:
            return tests
        self.dropped.update(unstated)
        return drop_tests(tests, set(unstated))

    def description(self) -> str:
        """The skeleton's class docstring (what the model specified), else the blueprint's description."""
        node = next((n for n in ast.parse(self.skeleton).body
                     if isinstance(n, ast.ClassDef) and n.name == self.blueprint.class_name), None)
        doc = ast.get_docstring(node) if node is not None else None
        return " ".join(doc.split()) if doc else self.blueprint.description

    def first_draft(self) -> tuple[str, str]:
        b = self.blueprint
        self.skeleton, _ = self.talk.ask_code(
            b.role, b.skeleton_prompt, {**b.skeleton_values, "min_methods": self.models.min_methods},
            lambda text: _parse_skeleton(text, b, self.models.min_methods), b.class_name)
        names = {"class_name": b.class_name, "module_name": b.module_name, "skeleton": self.skeleton}
        tests, _ = self.talk.ask_code(Role.TEST_WRITER, "tests_from_skeleton", names,
                                      lambda text: _parse_tests(text, b, self.skeleton), f"tests of {b.class_name}")
        reference, _ = self.talk.ask_code(Role.REFERENCE_WRITER, "reference_from_skeleton", names,
                                          lambda text: _parse_reference(text, b, self.skeleton), b.class_name)
        return reference, tests

    def fix_reference(self, reference: str, tests: str, report: GateReport) -> tuple[str, str]:
        """One round with the reference writer; tests it shows to contradict the skeleton are dropped."""
        b = self.blueprint
        values = {"class_name": b.class_name, "skeleton": self.skeleton, "reference": reference,
                  "failures": failure_findings(report)}
        fixed, raw = self.talk.ask_code(Role.REFERENCE_WRITER, "reference_feedback", values,
                                        lambda text: _parse_reference(text, b, self.skeleton), b.class_name)
        self.reference_fixed = True
        contradicted = {name: why for name, why in contradicted_tests(raw).items()
                        if name in failing_test_names(report)}  # only a failing test can be dropped
        if contradicted:
            self.dropped.update(contradicted)
            tests = drop_tests(tests, set(contradicted))
        return fixed, tests

    def weaken(self, candidate: Candidate, report: GateReport) -> str | None:
        """The tests with every check that failed a faithful variant weakened (or its test dropped), as the
        offline repair does (pipeline/synthesis/weaken.py); None when nothing could be weakened. No model is
        asked: the gate's evidence says exactly which check asserts what the skeleton leaves open, and the
        weakening keeps everything else the writer asserted."""
        weakened, done = weaken_overspecified(candidate, report)
        if not done.changed:
            return None
        self.weakenings += 1
        self.weakened += done.weakened
        self.dropped.update({name: "it checks what the skeleton leaves open (a faithful variant fails it)"
                             for name in done.dropped})
        return weakened.test_code

    def more_tests(self, reference: str, tests: str, report: GateReport) -> str:
        b = self.blueprint
        self.rounds += 1
        values = {"module_name": b.module_name, "skeleton": self.skeleton, "tests": tests,
                  "findings": coverage_findings(report, reference)}

        def parse(text: str) -> str:
            combined = append_tests(tests, extract_tests(text), self.rounds)
            check_tests(combined, b.module_name, b.class_name, self.skeleton)
            return combined

        combined, _ = self.talk.ask_code(Role.TEST_WRITER, "tests_feedback", values, parse, f"tests of {b.class_name}")
        return combined


def _parts(reference: str, blueprint: Blueprint) -> dict[str, Any]:
    """The composition's parts as the offline composer records them (`parts`, read by the gate's seam
    check), recovered from the reference and the two seeds; `parts_unknown` says why when they could not
    be (the gate then reports the seam as not measured)."""
    try:
        parts = part_members(reference, blueprint.class_name, blueprint.seeds)
    except (SyntaxError, LookupError) as exc:
        return {"parts_unknown": f"{type(exc).__name__}: {exc}"}
    if parts is None:
        return {"parts_unknown": "a part has no method or no field recognisable in the composed class"}
    return {"parts": parts}


def _rejection(blueprint: Blueprint, conversation: Conversation, rejected: WriterRejected) -> Rejection:
    return Rejection(
        candidate_id=blueprint.work_id, stage=blueprint.stage, reason=rejected.reason, detail=rejected.detail[:300],
        evidence={"seed_ids": list(blueprint.provenance.seed_ids), "class_name": blueprint.class_name,
                  "raw_answers": rejected.raw_answers, "answers": list(conversation.answers)})


def make_candidate(blueprint: Blueprint, conversation: Conversation, gate) -> Outcome:
    """Run the model path for one blueprint; `gate(candidate) -> GateReport` runs the validation gate.

    A bad answer in the first draft rejects the attempt; one in a feedback round ends the feedback and
    keeps the last version (whose report then decides, and the build's oracle repair may still save it).
    """
    maker = _Maker(blueprint, conversation, gate)
    outcome = Outcome()
    try:
        reference, tests = maker.first_draft()
    except WriterRejected as rejected:
        outcome.rejection = _rejection(blueprint, conversation, rejected)
        return outcome
    candidate = maker.candidate(reference, tests)
    report = gate(candidate)
    try:
        if not report.passed and RejectReason.TESTS_FAIL in report.reasons:
            outcome.log.append(f"tests fail: {sorted(failing_test_names(report))[:5]}; asking the reference writer")
            reference, tests = maker.fix_reference(reference, tests, report)
            candidate = maker.candidate(reference, tests)
            report = gate(candidate)
        while (not report.passed and RejectReason.OVERSPECIFIED_TESTS in report.reasons
               and set(report.reasons) <= REPAIRABLE and maker.weakenings < MAX_WEAKENINGS):
            weakened = maker.weaken(candidate, report)
            if weakened is None:
                break  # the evidence names no check this can weaken: the rejection stands
            outcome.log.append(f"tests check what the skeleton leaves open; weakened: {maker.weakened[-3:]}")
            tests = weakened
            candidate = maker.candidate(reference, tests)
            report = gate(candidate)
        while (not report.passed and set(report.reasons) <= REPAIRABLE - {RejectReason.OVERSPECIFIED_TESTS}
               and maker.rounds < maker.models.feedback_rounds):
            outcome.log.append(f"round {maker.rounds + 1}: {[r.value for r in report.reasons]}; asking for more tests")
            tests = maker.more_tests(reference, tests, report)
            candidate = maker.candidate(reference, tests)
            report = gate(candidate)
    except WriterRejected as rejected:
        outcome.log.append(f"feedback answer unusable ({rejected.reason.value}: {rejected.detail}); keeping the last version")
    outcome.candidate, outcome.report = candidate, report
    return outcome
