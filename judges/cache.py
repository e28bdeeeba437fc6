"""Verdicts cached by candidate content and judge spec.

The key covers what changes a verdict and nothing else: the candidate's class name, module name,
description, skeleton, reference and tests; the gate figures a judge may read (checks with their values and
details, not timings or logs); the judge's full spec (backend, model, prompt name and version, parameters,
thresholds, and a model judge's `api_base` when set: a verdict from a local server is not the
provider's); and, for a model judge, the checks layer's verdicts it was shown (decisions, findings and
their notes are in its prompt: a changed finding is another question). A candidate id alone is not enough: two
runs may judge the same id with different panels.

Abstentions are not cached: they come from failed calls, timeouts or answers that broke the contract, and
asking again later is the point. A cache file that cannot be read is logged and treated as a miss, never
raised: the cache is an optimisation, not a source of truth.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from core import stopping
from core.content_files import ContentFiles
from core.records import Candidate, Decision, GateReport, JudgeSpec, Verdict, content_hash

log = logging.getLogger(__name__)


def report_figures(report: GateReport | None) -> list:
    """The parts of a gate report that a judge's answer may depend on (a check's detail too: the adequacy
    judge quotes it, and a model judge's prompt shows every check with its detail)."""
    if report is None:
        return []
    return [[c.name, c.value, c.threshold, c.passed, c.gated, c.detail] for c in report.checks] + [
        report.line_coverage, report.interaction_edge_coverage, report.mutation_score,
        report.evidence.get("vacuous", {}).get("passing") if isinstance(report.evidence.get("vacuous"), dict) else None,
    ]


def shown_checks(checks: Sequence[Verdict]) -> list:
    """The parts of the checks' verdicts a model judge is shown (not the candidate id they were made for)."""
    return [[v.judge.model_dump(mode="json"), v.decision.value, [[f.criterion, f.ok, f.note] for f in v.findings]]
            for v in checks]


def verdict_key(candidate: Candidate, report: GateReport | None, spec: JudgeSpec,
                checks: Sequence[Verdict] = ()) -> str:
    """The cache key of one judge's verdict on one candidate (shown `checks`, when any)."""
    shown = [shown_checks(checks)] if checks else []  # nothing for a judge shown no checks (every offline one)
    return content_hash(candidate.class_name, candidate.module_name, candidate.description, candidate.skeleton,
                        candidate.solution_code, candidate.test_code, report_figures(report),
                        spec.model_dump(mode="json"), *shown, length=24)


class VerdictCache:
    """One JSON file per verdict under `directory`; the stored verdict carries the candidate id it was made
    for, so a hit for a candidate with the same content but another id is re-labelled."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.files = ContentFiles(self.directory)

    def _path(self, key: str) -> Path:
        return self.files.path(key)

    def get(self, candidate: Candidate, report: GateReport | None, spec: JudgeSpec,
            checks: Sequence[Verdict] = ()) -> Verdict | None:
        key = verdict_key(candidate, report, spec, checks)
        path = self._path(key)
        try:
            data = self.files.read(key)
            if data is None:
                return None
            verdict = Verdict.from_json(data)
        except (OSError, ValueError) as exc:  # damaged or from an older schema: a miss, not an error
            log.warning("verdict cache entry %s unreadable (%s); judging again", path, exc)
            return None
        return verdict.model_copy(update={"candidate_id": candidate.candidate_id})

    def put(self, candidate: Candidate, report: GateReport | None, verdict: Verdict,
            checks: Sequence[Verdict] = ()) -> None:
        if verdict.decision is Decision.ABSTAIN:
            return
        stopping.check()  # a verdict reached after a build was stopped may rest on a killed sandbox run
        self.files.write(verdict_key(candidate, report, verdict.judge, checks), verdict.to_json() + "\n")
