"""Assembling the report page: plotly.js inlined once, then one block per figure, then the rejection
examples as a table.

The page must open with no network (a release is read offline, and a CI artifact viewer blocks remote
scripts), so plotly.js is embedded rather than loaded from a CDN: about 4.5 MB per page, written once per run
and once per release.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from core.store import ArtifactStore, atomic_write_text
from pipeline.report.collect import ReportData, collect_run
from pipeline.report.figures import all_figures

REPORT_FILE = "report.html"
DETAIL_CHARS = 300
PLOT_CONFIG = {"displaylogo": False, "responsive": True}
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; color: #222; }
h1 { margin-bottom: 0.2rem; } .subtitle { color: #555; margin-top: 0; }
section { margin: 1.5rem 0; } .absent { color: #777; font-style: italic; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { border: 1px solid #ddd; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
code { font-size: 0.85rem; }
"""


def _figure_block(anchor: str, heading: str, figure) -> str:
    if figure is None:
        return (f'<section id="{anchor}"><h2>{escape(heading)}</h2>'
                f'<p class="absent">Nothing to draw: this run recorded no data for it.</p></section>')
    body = figure.to_html(full_html=False, include_plotlyjs=False, div_id=f"figure-{anchor}", config=PLOT_CONFIG)
    return f'<section id="{anchor}" class="figure">{body}</section>'


def _examples_table(data: ReportData) -> str:
    if not data.reasons:
        return '<section id="examples"><h2>Rejection examples</h2><p class="absent">No rejections.</p></section>'
    rows = []
    for row in data.reasons:
        example = row.example
        detail = example.detail if len(example.detail) <= DETAIL_CHARS else example.detail[:DETAIL_CHARS] + "..."
        rows.append(f"<tr><td>{escape(row.reason.value)}</td><td>{row.count}</td><td>{escape(example.stage)}</td>"
                    f"<td><code>{escape(example.candidate_id)}</code></td><td>{escape(detail)}</td></tr>")
    return ('<section id="examples"><h2>Rejection examples (one per reason)</h2><table><thead><tr><th>reason</th>'
            "<th>count</th><th>stage</th><th>example candidate</th><th>what was wrong</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></section>")


def _usage_table(data: ReportData) -> str:
    """The model figures as numbers (tokens and failures included), one row per role and model."""
    if data.usage is None or not data.usage.rows:
        return ""
    rows = [f"<tr><td>{escape(r.role)}</td><td>{escape(r.model)}</td><td>{r.calls}</td><td>{r.cache_hits}</td>"
            f"<td>{r.failures}</td><td>{r.prompt_tokens}+{r.completion_tokens}</td><td>{escape(r.cost_label())}</td></tr>"
            for r in (*data.usage.rows, data.usage.total())]
    refused = (f"<p>The budget refused {data.usage.budget_refused} call(s): that work was not done.</p>"
               if data.usage.budget_refused else "")
    return ('<section id="model-usage"><h2>Model usage per role and model</h2><table><thead><tr><th>role</th>'
            "<th>model</th><th>calls</th><th>cache hits</th><th>failures</th><th>tokens (prompt+completion)</th>"
            "<th>cost</th></tr></thead><tbody>" + "".join(rows) + f"</tbody></table>{refused}</section>")


def render_report(data: ReportData) -> str:
    """The whole page as one string (self-contained: no external script, style or font)."""
    from plotly.offline import get_plotlyjs

    blocks = "\n".join(_figure_block(anchor, heading, fig) for anchor, heading, fig in all_figures(data))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(data.title)}</title><style>{STYLE}</style>"
        f"<script type=\"text/javascript\">{get_plotlyjs()}</script></head><body>"
        f"<h1>{escape(data.title)}</h1><p class=\"subtitle\">{escape(data.subtitle)}</p>\n"
        f"{blocks}\n{_usage_table(data)}\n{_examples_table(data)}\n</body></html>\n"
    )


def write_run_report(store: ArtifactStore, run_id: str) -> Path:
    """Write (or rewrite) `runs/<run_id>/report.html` from what the run folder holds now."""
    return store.write_run_file(run_id, REPORT_FILE, render_report(collect_run(store, run_id)))


def write_release_report(folder: Path, data: ReportData) -> Path:
    """Write `report.html` into a release folder being filled (before its manifest hashes the files)."""
    path = folder / REPORT_FILE
    atomic_write_text(path, render_report(data))
    return path
