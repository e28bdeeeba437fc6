"""The run and release report: one self-contained HTML page (`report.html`) of figures.

A build writes one under its run folder and one inside every release it makes (beside the dataset card,
which links to it). The page embeds plotly.js and every figure's data, so it opens offline, on the Hub's
file viewer after a download, or from a CI artifact, without fetching anything.
"""

from pipeline.report.collect import ReportData, collect_release, collect_run
from pipeline.report.page import REPORT_FILE, render_report, write_release_report, write_run_report

__all__ = ["REPORT_FILE", "ReportData", "collect_release", "collect_run", "render_report", "write_release_report",
           "write_run_report"]
