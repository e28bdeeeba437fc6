"""The report renders in a real browser: headless Chromium runs the embedded plotly.js, with no network,
and every figure becomes a drawn SVG plot."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from report_fixtures import RUN, write_run

from core.store import ArtifactStore
from pipeline.report import collect_run, write_run_report
from pipeline.report.figures import all_figures

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/install.sh --dev installs it)")


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class FigureScan(HTMLParser):
    """For each `<div id="figure-...">`: its classes and whether a plotly `main-svg` SVG is inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.classes: dict[str, set[str]] = {}
        self.drawn: set[str] = set()
        self._open: list[tuple[str, int]] = []  # (figure anchor, depth at which it opened)
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        if tag == "svg" and "main-svg" in classes:
            self.drawn.update(anchor for anchor, _ in self._open)
        if tag in VOID:
            return
        self._depth += 1
        if (attrs.get("id") or "").startswith("figure-"):
            anchor = attrs["id"].removeprefix("figure-")
            self.classes[anchor] = classes
            self._open.append((anchor, self._depth))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self._open and self._open[-1][1] == self._depth:
            self._open.pop()
        self._depth -= 1


def _rendered_dom(page, profile) -> str:
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         f"--user-data-dir={profile}", "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_every_figure_is_drawn_by_plotly_in_headless_chromium(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    write_run(store)
    page = write_run_report(store, RUN)
    dom = _rendered_dom(page, tmp_path / "profile")
    figures = [anchor for anchor, _, figure in all_figures(collect_run(store, RUN)) if figure is not None]
    assert len(figures) == 10
    scan = FigureScan()
    scan.feed(dom)
    assert sorted(scan.classes) == sorted(figures)
    for anchor in figures:
        # plotly marks a div it has drawn into with `js-plotly-plot` and puts its SVG layers inside it
        assert "js-plotly-plot" in scan.classes[anchor], f"figure {anchor} was not drawn"
    assert scan.drawn == set(figures)
    assert "Funnel per source" in dom and "Rejections per reason" in dom
