"""The gate's findings as text for the writers, and the edits a feedback round makes to a test module.

Pure functions over records and source text (parsed with `ast`, never run).
"""

from __future__ import annotations

import ast
import re

from core.records import GateReport

CONTRADICTS = re.compile(r"^\s*CONTRADICTS:\s*(?:[\w./-]+::)?(?P<test>[\w:]+?)\s*:\s*(?P<why>.+?)\s*$", re.MULTILINE)
MAX_LISTED = 25


def coverage_findings(report: GateReport, reference: str) -> str:
    """Missing lines (quoted from the reference) and unexercised interaction edges, as a short list."""
    lines = reference.splitlines()
    out: list[str] = []
    failed = [c for c in report.checks if c.gated and not c.passed]
    for check in failed:
        out.append(f"- {check.name}: {check.detail or check.value} (needed: {check.threshold})")
    missing = [n for n in report.missing_lines if 0 < n <= len(lines)][:MAX_LISTED]
    if missing:
        out.append("- lines of the implementation no test runs:")
        out.extend(f"    {n}: {lines[n - 1].strip()}" for n in missing)
    interaction = report.evidence.get("interaction") if isinstance(report.evidence, dict) else None
    edges = [e for e in (interaction or {}).get("edges", []) if isinstance(e, dict) and not e.get("exercised")]
    if edges:
        out.append("- method pairs no test drives in order on one instance (first, then second):")
        for edge in edges[:MAX_LISTED]:
            how = "calls" if edge.get("kind") == "call" else "writes state that the second reads"
            out.append(f"    {edge.get('source')} then {edge.get('target')} (the first {how})")
    return "\n".join(out) or "- the tests fall short of the gate's thresholds"


def failure_findings(report: GateReport) -> str:
    """The failing tests with their reasons, then the tail of the run's output (the traceback)."""
    failing = [t for t in report.tests if t.run == "base" and t.outcome not in ("passed", "skipped")]
    out = [f"- {t.test_id}: {t.outcome}: {t.reason}" for t in failing[:MAX_LISTED]]
    base_run = report.evidence.get("base_run") if isinstance(report.evidence, dict) else None
    tail = stable_output(str((base_run or {}).get("output_tail") or ""))[-2500:]
    if tail:
        out.append("\nOutput:\n" + tail)
    return "\n".join(out) or "- the tests do not pass"


_VOLATILE = ((re.compile(r"\bin \d+(?:\.\d+)?s\b"), "in (time)"),  # pytest's closing "1 failed in 1.53s"
             (re.compile(r"0x[0-9a-fA-F]{6,}"), "0x(address)"),  # object reprs
             (re.compile(r"(?:/[\w.@-]+)+/(?=[\w.-]+\.py\b)"), ""))  # sandbox folders before a file name


def stable_output(text: str) -> str:
    """Sandbox output without what changes from run to run (durations, addresses, temporary folders): the
    prompt that quotes it must be identical on a rerun, or the response cache would never answer it."""
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def failing_test_names(report: GateReport) -> set[str]:
    """Function names of the base run's failing tests (`test_x` of `file.py::TestA::test_x[param]`)."""
    names = set()
    for outcome in report.tests:
        if outcome.run == "base" and outcome.outcome not in ("passed", "skipped"):
            names.add(outcome.test_id.split("::")[-1].split("[", 1)[0])
    return names


def contradicted_tests(answer: str) -> dict[str, str]:
    """`CONTRADICTS: <test>: <why>` lines of a reference writer's answer: test function name -> why."""
    return {m.group("test").split("::")[-1]: m.group("why") for m in CONTRADICTS.finditer(answer)}


def drop_tests(test_code: str, names: set[str]) -> str:
    """The test module without the test functions (top-level or in a test class) named `names`."""
    tree = ast.parse(test_code)
    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            spans.append((start, node.end_lineno or node.lineno))
    lines = test_code.splitlines(keepends=True)
    for start, end in sorted(spans, reverse=True):
        del lines[start - 1:end]
    return "".join(lines)


def _test_names(code: str) -> set[str]:
    return {n.name for n in ast.walk(ast.parse(code)) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.name.startswith("test")}


def append_tests(test_code: str, extra: str, round_number: int) -> str:
    """The module with `extra`'s tests appended; an added test reusing an existing name is renamed (else it
    would silently replace the earlier test)."""
    taken = _test_names(test_code)
    for name in sorted(_test_names(extra) & taken):
        extra = re.sub(rf"\bdef {name}\(", f"def {name}_round{round_number}(", extra)
    return (test_code.rstrip("\n") + f"\n\n\n# Added in feedback round {round_number}.\n" + extra.strip("\n") + "\n")
