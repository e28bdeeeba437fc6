"""Small inline Task fixtures for the release tests (no seed corpus, no gate).

Imported by name (`from release_fixtures import ...`) rather than through a conftest, so that it cannot
clash with the conftest files of other test folders.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from core.records import (
    Decision,
    GeneratorSpec,
    JudgeSpec,
    MethodDependencies,
    MethodInfo,
    Origin,
    Provenance,
    Task,
    Verdict,
)

# `tests.emulators.hub` is imported by path from the checkout: make that work under a bare `pytest` too,
# not only under `python -m pytest` (which puts the working folder on sys.path).
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])
if PROJECT_ROOT not in sys.path:
    sys.path.insert(0, PROJECT_ROOT)

COUNTER_SOLUTION = textwrap.dedent('''
    class Counter:
        """Counts events per name."""

        def __init__(self):
            self.counts = {}

        def add(self, name, times=1):
            """Record `times` events called `name`."""
            current = self.counts.get(name, 0)
            self.counts[name] = current + times
            return self.counts[name]

        def total(self):
            return sum(self.counts.values())

        def top(self):
            if not self.counts:
                return None
            return max(sorted(self.counts), key=lambda key: self.counts[key])
''').strip() + "\n"

COUNTER_TEST = textwrap.dedent('''
    from counter import Counter


    def test_add_and_total():
        c = Counter()
        c.add("a")
        c.add("b", 2)
        assert c.total() == 3
        assert c.top() == "b"
''').strip() + "\n"


def _skeleton(solution: str) -> str:
    lines = []
    for line in solution.splitlines():
        stripped = line.strip()
        if stripped.startswith(("class ", "def ")) or stripped.startswith('"""'):
            lines.append(line)
            if stripped.startswith("def "):
                lines.append(" " * (len(line) - len(line.lstrip()) + 4) + "pass")
    return "\n".join(lines) + "\n"


def build_task(class_name: str = "Counter", solution: str = COUNTER_SOLUTION, test: str = COUNTER_TEST, *,
               module: str = "counter", domains: tuple[str, ...] = ("Algo_DataStruct",), origin: Origin = Origin.ENHANCED,
               imports: tuple[str, ...] = (), verdicts: tuple[Verdict, ...] = (), metrics: dict | None = None,
               source_date: str | None = "2025-03-01", candidate_id: str = "") -> Task:
    skeleton = _skeleton(solution)
    method = MethodInfo(method_name="add", method_description="def add(self, name, times=1):",
                        test_class="test_add_and_total", test_code="", solution_code="",
                        dependencies=MethodDependencies(Standalone=False, field_dependencies=("counts",)))
    return Task(
        task_id=Task.make_id(class_name, skeleton, solution, test), skeleton=skeleton, test=test,
        solution_code=solution, import_statement=imports, class_name=class_name,
        class_description=f"The {class_name} class.", class_constructor="def __init__(self):\n    self.counts = {}",
        fields=("counts",), test_classes=("test_add_and_total",), methods_info=(method,), module_name=module,
        domains=domains, origin=origin, candidate_id=candidate_id or f"cand-{class_name.lower()}",
        provenance=Provenance(seed_ids=(f"{domains[0]}/{module}",), transforms=("add_state",), rng_seed=7,
                              licence="MIT", first_commit_date=source_date),
        generator=GeneratorSpec(backend="offline", parameters={"depth": 2}),
        source_date=source_date,
        metrics=metrics if metrics is not None else {"line_coverage": 0.95, "interaction_edge_coverage": 0.8,
                                                      "mutation_score": None},
        verdicts=verdicts,
    )


def verdict(candidate_id: str, judge: str, decision: Decision) -> Verdict:
    return Verdict(candidate_id=candidate_id, judge=JudgeSpec(backend="offline", prompt_version=judge),
                   decision=decision)

