"""The report's figures, drawn with plotly: one function per figure, each returning None when its data is
absent (the page then says so in a sentence instead of drawing an empty chart)."""

from __future__ import annotations

import plotly.graph_objects as go

from core.records import Decision
from pipeline.report.collect import METRICS, SOURCE_STEPS, ReportData

METRIC_TITLES = {"line_coverage": "Line coverage of the reference by its tests",
                 "interaction_edge_coverage": "Interaction coverage (exercised / static method edges)",
                 "mutation_score": "Mutation score of the tests"}
DECISION_COLOURS = {Decision.ACCEPT: "#2ca02c", Decision.REJECT: "#d62728", Decision.ABSTAIN: "#7f7f7f"}


def _layout(fig: go.Figure, title: str, **extra) -> go.Figure:
    settings = {"template": "plotly_white", "height": 380, "margin": {"l": 60, "r": 30, "t": 60, "b": 60}, **extra}
    fig.update_layout(title=title, **settings)
    return fig


def stage_funnel(data: ReportData) -> go.Figure | None:
    """Records in and out of every stage the run recorded, in run order."""
    if data.funnel is None or not data.funnel.stages:
        return None
    names = list(data.funnel.stages)
    counts = list(data.funnel.stages.values())
    fig = go.Figure([go.Bar(name="received", x=names, y=[c.received for c in counts], marker_color="#9ecae1"),
                     go.Bar(name="passed on", x=names, y=[c.accepted for c in counts], marker_color="#3182bd")])
    return _layout(fig, "Funnel per stage", barmode="group", yaxis_title="records")


def source_funnel(data: ReportData) -> go.Figure | None:
    """Per source (enhanced, composed, mined): attempts, candidates, gate passes, released."""
    if not data.sources:
        return None
    fig = go.Figure([go.Funnel(name=source, y=list(SOURCE_STEPS), x=[steps[s] for s in SOURCE_STEPS],
                               textinfo="value+percent initial")
                     for source, steps in data.sources.items()])
    return _layout(fig, "Funnel per source", height=420)


def metric_histogram(data: ReportData, metric: str) -> go.Figure | None:
    """A histogram of one gate figure, one colour per group (passed / rejected, or per split)."""
    groups: dict[str, list[float]] = {}
    for sample in data.samples:
        value = sample.values.get(metric)
        if value is not None:
            groups.setdefault(sample.group, []).append(value)
    if not groups:
        return None
    bins = {"start": 0.0, "end": 1.05, "size": 0.05}  # the last bin holds exactly 1.0 (full coverage)
    fig = go.Figure([go.Histogram(name=group, x=values, xbins=bins, opacity=0.75)
                     for group, values in sorted(groups.items())])
    return _layout(fig, METRIC_TITLES[metric], barmode="overlay", xaxis_title=metric, yaxis_title="candidates",
                   xaxis_range=[0, 1.05])


def domains(data: ReportData) -> go.Figure | None:
    """Tasks per domain (a composed task counts once for each of its two domains)."""
    if not data.domains:
        return None
    fig = go.Figure([go.Bar(name=group, x=list(counts), y=list(counts.values()))
                     for group, counts in data.domains.items()])
    return _layout(fig, "Tasks per domain", barmode="stack", yaxis_title="tasks")


def rejections(data: ReportData) -> go.Figure | None:
    """Rejections per reason, most frequent first."""
    if not data.reasons:
        return None
    rows = list(reversed(data.reasons))
    fig = go.Figure(go.Bar(x=[r.count for r in rows], y=[r.reason.value for r in rows], orientation="h",
                           marker_color="#e6550d"))
    return _layout(fig, "Rejections per reason", xaxis_title="candidates",
                   height=max(260, 60 + 32 * len(rows)))


def judge_decisions(data: ReportData) -> go.Figure | None:
    """Accept / reject / abstain counts per judge."""
    if data.agreement is None or not data.agreement.decisions:
        return None
    judges = list(data.agreement.judges)
    fig = go.Figure([go.Bar(name=d.value, x=judges, y=[data.agreement.decisions.get(j, {}).get(d.value, 0) for j in judges],
                            marker_color=DECISION_COLOURS[d]) for d in Decision])
    return _layout(fig, f"Judge decisions ({data.agreement.judged} candidates judged)", barmode="stack",
                   yaxis_title="verdicts")


def agreement_matrix(data: ReportData) -> tuple[list[str], list[list[float | None]]]:
    """Judges of the compared layer (the model panel when models judged) and the share of shared candidates
    on which each pair decided the same (1 on the diagonal; None where two judges share no candidate)."""
    figures = data.agreement
    judges = list(figures.layers.get(figures.compared or "", figures.judges)) if figures else []
    index = {j: i for i, j in enumerate(judges)}
    matrix: list[list[float | None]] = [[1.0 if i == j else None for j in range(len(judges))] for i in range(len(judges))]
    for pair in data.agreement.pairwise if data.agreement else ():
        a, b = index[pair.judge_a], index[pair.judge_b]
        matrix[a][b] = matrix[b][a] = pair.observed
    return judges, matrix


def judge_agreement(data: ReportData) -> go.Figure | None:
    """Pairwise agreement between judges (only drawn when two or more judges reviewed candidates)."""
    judges, matrix = agreement_matrix(data)
    if len(judges) < 2:
        return None
    title = "Judge agreement (share of shared candidates decided alike, abstentions left out)"
    if data.agreement.compared == "models":  # a kappa of deterministic checks says nothing: they agree by design
        kappa = data.agreement.fleiss_kappa
        title += "; Fleiss' kappa " + (f"{kappa:.2f}" if kappa is not None else "undefined")
    fig = go.Figure(go.Heatmap(z=matrix, x=judges, y=judges, zmin=0, zmax=1, colorscale="Blues",
                               texttemplate="%{z:.2f}"))
    return _layout(fig, title)


def model_usage(data: ReportData) -> go.Figure | None:
    """Per role and model: dollars spent (left; calls of unknown price are marked, never counted as free)
    and calls made beside answers served from the cache (right)."""
    if data.usage is None or not data.usage.rows:
        return None
    from plotly.subplots import make_subplots

    rows = data.usage.rows
    labels = [f"{row.role}<br>{row.model}" for row in rows]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("Cost (USD)", "Calls and cache hits"))
    fig.add_trace(go.Bar(name="cost", x=labels, y=[row.priced_cost_usd for row in rows], marker_color="#6a51a3",
                         text=[row.cost_label() for row in rows], textposition="auto"), row=1, col=1)
    fig.add_trace(go.Bar(name="calls", x=labels, y=[row.calls for row in rows], marker_color="#3182bd"), row=1, col=2)
    fig.add_trace(go.Bar(name="cache hits", x=labels, y=[row.cache_hits for row in rows], marker_color="#9ecae1"),
                  row=1, col=2)
    total = data.usage.total()
    return _layout(fig, f"Model usage: {total.calls} calls, {total.cache_hits} cache hits, cost {total.cost_label()}",
                   barmode="group")


def all_figures(data: ReportData) -> list[tuple[str, str, go.Figure | None]]:
    """(anchor, heading, figure or None) in page order."""
    return [
        ("funnel-stage", "Funnel per stage", stage_funnel(data)),
        ("funnel-source", "Funnel per source", source_funnel(data)),
        *[(f"hist-{m}", METRIC_TITLES[m], metric_histogram(data, m)) for m in METRICS],
        ("domains", "Tasks per domain", domains(data)),
        ("rejections", "Rejections per reason", rejections(data)),
        ("judges", "Judge decisions", judge_decisions(data)),
        ("agreement", "Judge agreement", judge_agreement(data)),
        ("models", "Model usage", model_usage(data)),
    ]
