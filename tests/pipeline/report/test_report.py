"""The run report's figures are computed from the artifact tree, and the page is one self-contained file."""

from __future__ import annotations

import re

from plotly.offline import get_plotlyjs
from report_fixtures import RUN, USAGE, write_run

from core.records import RejectReason
from core.store import ArtifactStore
from pipeline.report import collect_run, render_report, write_run_report
from pipeline.report.figures import agreement_matrix, all_figures


def test_the_run_is_counted_per_source_and_reason_from_its_records(tmp_path):
    store = ArtifactStore(tmp_path)
    write_run(store)
    data = collect_run(store, RUN)
    # released: the gate passes neither the judges (c1r) nor the release (e3, a duplicate) rejected
    assert data.sources == {"composed": {"attempted": 2, "generated": 1, "passed gate": 1, "released": 0},
                            "enhanced": {"attempted": 4, "generated": 3, "passed gate": 2, "released": 1}}
    assert [(r.reason, r.count, r.example.candidate_id) for r in data.reasons] == [
        (RejectReason.GENERATION_FAILED, 2, "x1"), (RejectReason.DUPLICATE, 1, "e3"),
        (RejectReason.JUDGE_REJECTED, 1, "c1r"), (RejectReason.LOW_COVERAGE, 1, "e2")]
    # The repaired candidate's report decides the composed one; the failed original is not drawn.
    by_group = {}
    for sample in data.samples:
        by_group.setdefault(sample.group, []).append(sample.values["line_coverage"])
    assert sorted(by_group["passed the gate"]) == [0.93, 0.95, 0.97] and by_group["rejected by the gate"] == [0.5]
    # tasks per domain are the released ones (e1), not the gate passes (e1, e3, c1r): what the release counts
    assert data.domains == {"released": {"Math_Stats": 1}}


def test_the_agreement_matrix_is_symmetric_with_the_judges_own_figures(tmp_path):
    store = ArtifactStore(tmp_path)
    write_run(store)
    judges, matrix = agreement_matrix(collect_run(store, RUN))
    assert judges == ["litellm/judge-a", "litellm/judge-b"]
    # Same decision on e1 and c1r, not on e3; e2, where judge-a abstained, is left out.
    assert matrix == [[1.0, 0.666667], [0.666667, 1.0]]


def test_the_page_embeds_everything_and_draws_every_figure(tmp_path):
    store = ArtifactStore(tmp_path)
    write_run(store)
    path = write_run_report(store, RUN)
    html = path.read_text()
    assert path == tmp_path / "runs" / RUN / "report.html"
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", html)  # nothing fetched at view time
    assert get_plotlyjs() in html and html.count("Plotly.newPlot") == len(all_figures(collect_run(store, RUN)))
    for anchor, _, figure in all_figures(collect_run(store, RUN)):
        assert figure is not None, anchor
        assert f'id="figure-{anchor}"' in html
    assert "same tree as e1 &lt;script&gt;" in html  # details are escaped, never markup


def test_an_empty_run_says_what_is_absent(tmp_path):
    store = ArtifactStore(tmp_path)
    (tmp_path / "runs" / "run-empty").mkdir(parents=True)
    html = render_report(collect_run(store, "run-empty"))
    assert html.count("Nothing to draw") == len(all_figures(collect_run(store, "run-empty")))
    assert "No rejections." in html


def test_model_cost_calls_and_cache_hits_are_drawn_and_tabled_per_role_and_model(tmp_path):
    store = ArtifactStore(tmp_path)
    write_run(store)
    data = collect_run(store, RUN)
    assert data.usage == USAGE
    [figure] = [fig for anchor, _, fig in all_figures(data) if anchor == "models"]
    cost, calls, hits = figure.data
    assert list(cost.y) == [0.0312, 0.0] and list(cost.text) == ["$0.0312", "unknown price"]  # unknown is not free
    assert (list(calls.y), list(hits.y)) == ([4, 3], [2, 1])
    assert "cost $0.0312 + unknown price (3 call(s))" in figure.layout.title.text
    html = render_report(data)
    assert ("<tr><td>judge</td><td>openai/judge-a</td><td>3</td><td>1</td><td>1</td><td>900+150</td>"
            "<td>unknown price</td></tr>") in html
    assert "The budget refused 2 call(s)" in html


def test_a_run_without_models_has_no_usage_section(tmp_path):
    store = ArtifactStore(tmp_path)
    write_run(store)
    (tmp_path / "runs" / RUN / "model_usage.json").unlink()
    data = collect_run(store, RUN)
    assert data.usage is None and 'id="model-usage"' not in render_report(data)


def test_a_release_page_shows_the_agreement_over_every_candidate_its_run_judged(tmp_path):
    """The released tasks carry only the verdicts of what the panel accepted: a panel that never disagrees
    on what it let through. The run's figures cover every candidate judged (here four, with a rejection
    and an abstention); the released tasks' verdicts are drawn only when the run's are missing."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "release"))
    from release_fixtures import build_task
    from release_fixtures import verdict as task_verdict

    from core.agreement import AGREEMENT_FILE
    from core.funnel import Funnel
    from core.records import Decision
    from pipeline.report import collect_release

    store = ArtifactStore(tmp_path)
    write_run(store)
    task = build_task(verdicts=(task_verdict("e1", "judge-a", Decision.ACCEPT),
                                task_verdict("e1", "judge-b", Decision.ACCEPT)), candidate_id="e1")
    page = collect_release(store, RUN, "2026.12.0", {"2026.12.0": [task]}, Funnel(run_id=RUN))
    assert page.agreement == collect_run(store, RUN).agreement and page.agreement.judged == 4
    assert page.sources["composed"]["released"] == 0  # the judges' rejection is subtracted
    (Path(store.runs) / RUN / AGREEMENT_FILE).unlink()
    assert collect_release(store, RUN, "2026.12.0", {"2026.12.0": [task]}, Funnel(run_id=RUN)).agreement.judged == 1


def test_before_the_release_ran_the_domains_are_the_gate_passes_and_say_so(tmp_path):
    store = ArtifactStore(tmp_path)
    write_run(store)
    for folder in ("rejections", "release"):  # as a run stopped before its release stage
        for path in (tmp_path / "runs" / RUN / folder).glob("*.json"):
            if '"release"' in path.read_text():
                path.unlink()
    data = collect_run(store, RUN)
    assert data.domains == {"passed the gate (not released yet)": {"Game_Sim": 1, "Math_Stats": 2, "Text_NLP": 1}}
