"""A model judge: one model, the versioned rubric prompt, the JSON answer contract, through the model client.

The judge asks through the model client it is handed (`ModelAsker`, core/model_calls.py; the
stage hands in models/client.py's). It asks once; an answer that breaks the contract
(judges/answer.py) is shown back to the model with what was wrong (the retry prompt) and asked once more,
as a continuation of the same conversation, so the retry is a different request and not a cached copy of
the first. A second bad answer, a failed call
(timeouts and server errors after the client's own retries) or a refused budget is an abstention that
keeps the raw answers and the reason: never a silent pass or fail.

In a layered panel the judge is shown the deterministic checks' verdicts (passed and failed findings, with
their notes) and every figure of the gate, so that it can confirm or dispute them; the rubric says how to
weigh them. Those verdicts are part of the question: the verdict cache keys on them too (judges/cache.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from core.model_calls import ModelAsker, ModelError, ModelRequest, Role
from core.prompt_templates import load_prompt
from core.records import Candidate, CheckResult, GateReport, JudgeSpec, Verdict
from judges.answer import BadJudgeAnswer, parse_answer
from judges.criteria import MODEL_CRITERIA
from judges.protocol import abstention

CALL_FAILED = "the model call failed"  # an abstention's note when the client gave up (a retry may succeed)

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
RETRY_PROMPT = "judge_retry"


def gate_summary(report: GateReport | None) -> str:
    """The gate's figures in one line, for the prompt."""
    if report is None:
        return "no gate report is available."

    def pct(value: float | None) -> str:
        return "not measured" if value is None else f"{value:.0%}"

    headline = (f"line coverage {pct(report.line_coverage)}, interaction edges exercised "
                f"{pct(report.interaction_edge_coverage)}, mutation score {pct(report.mutation_score)}; "
                f"every test passes against the reference.")
    return "\n".join([headline, *(f"- {_check_line(c)}" for c in report.checks)])


def _check_line(check: CheckResult) -> str:
    bound = "" if check.threshold is None else f", bound {check.threshold}"
    status = ("passed" if check.passed else "failed") + ("" if check.gated else ", reported only")
    return f"{check.name}: {check.value}{bound} ({status})" + (f": {check.detail}" if check.detail else "")


def checks_summary(checks: Sequence[Verdict]) -> str:
    """The deterministic checks' verdicts for the prompt: one line per check with each finding and its note."""
    if not checks:
        return "No deterministic check results were given for this task."
    mark = {True: "passed", False: "FAILED", None: "undecided"}
    lines = []
    for verdict in checks:
        lines.append(f"- {verdict.judge.label} check: {verdict.decision.value}")
        lines += [f"  - {f.criterion}: {mark[f.ok]}" + (f": {f.note}" if f.note else "") for f in verdict.findings]
    return "\n".join(lines)


class ModelJudge:
    """Judges a candidate with one model (a litellm name) under the rubric prompt."""

    def __init__(self, client: ModelAsker, model: str, *, prompt: str = "judge_rubric", temperature: float = 0.0,
                 max_tokens: int | None = 1500, api_base: str | None = None, name: str | None = None,
                 prompts_dir: Path = PROMPTS_DIR) -> None:
        self.client = client
        self.model = model
        self.template = load_prompt(prompt, prompts_dir)
        self.retry_template = load_prompt(RETRY_PROMPT, prompts_dir)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.api_base = api_base
        self.name = name or model

    @property
    def spec(self) -> JudgeSpec:
        return JudgeSpec(backend="litellm", model=self.model, name=self.name, prompt=self.template.name,
                         prompt_version=self.template.version,
                         parameters={"temperature": self.temperature, "max_tokens": self.max_tokens,
                                     "retry_prompt": self.retry_template.ref,
                                     # another server is another judge (and another verdict cache key)
                                     **({"api_base": self.api_base.rstrip("/")} if self.api_base else {})})

    def _ask(self, messages: tuple[dict[str, str], ...]) -> str:
        request = ModelRequest(role=Role.JUDGE, model=self.model, prompt=self.template.ref, messages=messages,
                               temperature=self.temperature, max_tokens=self.max_tokens, api_base=self.api_base)
        return self.client.complete(request).text

    def review(self, candidate: Candidate, report: GateReport | None, checks: Sequence[Verdict] = ()) -> Verdict:
        """The model's verdict; `checks` are the deterministic checks' verdicts it is shown as evidence."""
        messages = self.template.render(
            class_name=candidate.class_name, module_name=candidate.module_name, description=candidate.description,
            gate_summary=gate_summary(report), checks=checks_summary(checks), skeleton=candidate.skeleton,
            reference=candidate.solution_code, tests=candidate.test_code)
        answers: list[str] = []
        problem = ""
        for _ in range(2):
            try:
                answers.append(self._ask(messages))
            except ModelError as exc:
                return abstention(candidate.candidate_id, self.spec, f"{CALL_FAILED}: {exc}",
                                  raw_response="\n\n---\n\n".join(answers))
            try:
                parsed = parse_answer(answers[-1], MODEL_CRITERIA)
            except BadJudgeAnswer as exc:
                problem = str(exc)
                messages = messages + ({"role": "assistant", "content": answers[-1]},
                                       *self.retry_template.render(problem=problem))
                continue
            return Verdict(candidate_id=candidate.candidate_id, judge=self.spec, decision=parsed.decision,
                           findings=parsed.findings, raw_response=answers[-1])
        return abstention(candidate.candidate_id, self.spec,
                          f"two answers broke the answer contract; the last: {problem}",
                          raw_response="\n\n---\n\n".join(answers))
