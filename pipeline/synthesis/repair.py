"""Test repair after the gate: over-specified checks weakened or dropped (pipeline/synthesis/weaken.py), and
tests added aimed at the lines a candidate's tests miss and the interaction edges they leave unexercised,
using the same oracle machinery (everything runs in the sandbox)."""

from __future__ import annotations

import ast
import random

from core.analysis.class_model import ClassModel, analyse
from core.analysis.python_need import requires_python
from core.records import Candidate, GateReport, Origin, RejectReason
from core.scenarios import Scenario
from pipeline.synthesis.long_walks import long_walks
from pipeline.synthesis.oracle import ScenarioRun, run_oracle
from pipeline.synthesis.stated_orders import unordered_methods
from pipeline.synthesis.stated_effects import effect_runs
from pipeline.synthesis.testgen import Renderer, dedupe, random_walks, stated_runs, written_fixtures
from pipeline.synthesis.tracing import ArgumentPools, harvest, replay_scenarios
from pipeline.synthesis.weaken import weaken_overspecified
from validation.sandbox import SandboxPool

MAX_ADDED = 12


def _targets(report: GateReport) -> tuple[set[int], set[tuple[str, str]], set[str]]:
    """What the added tests aim at: the lines no test runs, the interaction edges none exercises, and the
    public methods none calls or notices emptied (the gate's `method_deletions` evidence)."""
    missing = set(report.missing_lines)
    edges: set[tuple[str, str]] = set()
    evidence = report.evidence if isinstance(report.evidence, dict) else {}
    interaction = evidence.get("interaction")
    for edge in (interaction or {}).get("edges", []) if isinstance(interaction, dict) else []:
        if isinstance(edge, dict) and not edge.get("exercised"):
            edges.add((str(edge.get("source")), str(edge.get("target"))))
    deletions = evidence.get("method_deletions")
    deletions = deletions if isinstance(deletions, dict) else {}
    untested = {str(m) for key in ("not_called", "deletion_survives") for m in deletions.get(key) or ()}
    return missing, edges, untested


def _values_shown(run: ScenarioRun, methods: set[str]) -> set[str]:
    """The methods of `methods` that a step of the run sees return a stable value other than None: a test of
    the run asserts it, and a body emptied to `pass` (which returns None) fails that assertion."""
    return {step.method for step, outcome in zip(run.scenario.steps, run.steps)
            if step.method in methods and outcome["kind"] == "return" and not outcome.get("unstable")
            and outcome.get("literal") is not None and not outcome.get("is_none")}


def _pick(runs: list[ScenarioRun], missing: set[int], edges: set[tuple[str, str]],
          untested: set[str] = frozenset()) -> list[ScenarioRun]:
    chosen: list[ScenarioRun] = []
    lines_left, edges_left, methods_left = set(missing), set(edges), set(untested)
    usable = [r for r in runs if r.usable]
    while len(chosen) < MAX_ADDED:
        def gain(run: ScenarioRun) -> int:
            return (len(run.lines & lines_left) + 2 * len({(e[1], e[2]) for e in run.edges} & edges_left)
                    + 3 * len(_values_shown(run, methods_left)))
        best = max(usable, key=lambda r: (gain(r), -len(r.scenario.steps)), default=None)
        if best is None or gain(best) == 0:
            break
        chosen.append(best)
        usable.remove(best)
        lines_left -= best.lines
        edges_left -= {(e[1], e[2]) for e in best.edges}
        methods_left -= _values_shown(best, methods_left)
    return chosen


def _long_walks(candidate: Candidate, model: ClassModel, pools: ArgumentPools) -> list[Scenario]:
    """Long walks (pipeline/synthesis/long_walks.py) for a mined class: its tests came from an oracle that
    knew only its source, and the lines they miss are mostly states a run of calls reaches. Seeds' and
    their variants' tests were written to reach those states, and their repair stays as it was."""
    if candidate.origin is not Origin.MINED:
        return []
    return long_walks(model, pools, random.Random(f"repair-long:{candidate.candidate_id}"))


def _defects(candidate: Candidate, found: tuple[dict, ...]) -> dict[str, list[dict]]:
    """The candidate's recorded reference defects with those the repair's runs showed (none: no parameter)."""
    known = list(candidate.generator.parameters.get("reference_defects") or [])
    seen = {(d.get("method"), d.get("exception"), d.get("effect")) for d in known if isinstance(d, dict)}
    added = [dict(d) for d in found if (d["method"], d.get("exception"), d.get("effect")) not in seen]
    return {"reference_defects": known + added} if known or added else {}


def repair_tests(candidate: Candidate, report: GateReport, *, pool: SandboxPool) -> Candidate:
    """The candidate with its over-specified checks weakened, and tests added for its missing lines,
    unexercised edges and untested public methods (a run showing what such a method returns) when the gate
    found too few (unchanged when nothing can be done). Raises
    pipeline.synthesis.jobs.JobFailed when the sandbox returns no result."""
    candidate, _ = weaken_overspecified(candidate, report)
    if report.reasons and set(report.reasons) <= {RejectReason.OVERSPECIFIED_TESTS}:
        return candidate  # coverage and interaction were enough: the gate measures them again after weakening
    missing, edges, untested = _targets(report)
    if not missing and not edges and not untested:
        return candidate
    model = analyse(candidate.solution_code, candidate.class_name)
    public = {m.name for m in model.public_methods()}
    pools = harvest(pool, source=candidate.solution_code, tests=candidate.test_code, module=candidate.module_name,
                    class_name=candidate.class_name, public=public)
    rng = random.Random(f"repair:{candidate.candidate_id}")
    scenarios = dedupe(replay_scenarios(pools) + random_walks(model, pools, rng, 60) + _long_walks(candidate, model, pools))
    runs = run_oracle(pool, source=candidate.solution_code, module=candidate.module_name,
                      class_name=candidate.class_name, scenarios=scenarios)
    runs, defects = stated_runs(runs, candidate.solution_code, candidate.class_name)  # every origin: testgen's rule
    runs, effects = effect_runs(pool, runs, source=candidate.solution_code, module=candidate.module_name,
                                class_name=candidate.class_name)
    defects += effects
    chosen = _pick(runs, missing, edges, untested)
    if not chosen:
        return candidate
    unordered = (unordered_methods(candidate.solution_code, candidate.class_name)
                 if candidate.origin is Origin.MINED else frozenset())
    renderer = Renderer(model, candidate.module_name, candidate.solution_code, unordered=unordered)
    existing = ast.parse(candidate.test_code)
    renderer.names |= {n.name for n in existing.body if isinstance(n, ast.FunctionDef)}
    renderer.existing_fixtures = written_fixtures(candidate.test_code)  # an added test takes one it starts with
    new_module = renderer.module_text(chosen)
    functions = new_module.split("\n\n\n", 1)[1] if "\n\n\n" in new_module else ""
    imported = {alias.name for n in existing.body if isinstance(n, ast.ImportFrom) for alias in n.names}
    extra_imports = sorted(renderer.imports - imported)
    head = candidate.test_code.rstrip("\n") + "\n"
    if extra_imports:
        head = f"from {candidate.module_name} import {', '.join(extra_imports)}\n" + head
    if "import pytest" not in head and "pytest." in functions:
        head = "import pytest\n" + head
    test_code = head + "\n\n# Added by coverage repair: aimed at missed lines and unexercised interactions.\n\n" + functions
    return candidate.model_copy(update={
        "test_code": test_code,
        "candidate_id": Candidate.make_id(candidate.class_name, candidate.solution_code, test_code),
        "requires_python": requires_python(candidate.solution_code, test_code),
        "generator": candidate.generator.model_copy(update={"parameters": {**candidate.generator.parameters,
                                                                             "repaired_tests": len(chosen),
                                                                             **_defects(candidate, defects)}}),
    })
