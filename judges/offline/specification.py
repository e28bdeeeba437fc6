"""The specification judge: is the skeleton a complete statement, and does the reference keep its examples?

Two criteria, both decidable without a model:

- `spec_clear`: every public method (and `__init__`) has a docstring that mentions each of its parameters,
  says what it returns (when the reference returns a value), and names every exception the reference
  raises in that method (or a base class of it). "Mentions" is deliberately lenient (a `:param x:` field or
  the word `x` in prose both count): the judge looks for omissions, not for a docstring style. The rule is
  `core.analysis.statements.omissions`: mining completes an author's docstrings by it, so what a task must
  state is defined once.
- `reference_correct`: the docstring examples (``>>>`` lines) of the skeleton run against the reference in
  the sandbox, one run per candidate through the `SuiteRunner` the judge is handed (the reference is
  untrusted and never runs in this process); an example whose output differs is a finding. With no
  examples the criterion is undecided, not passed.
"""

from __future__ import annotations

import ast
import doctest
import json
import re

from core.analysis.interface import Interface, read_interface
from core.analysis.statements import omissions
from core.records import Candidate, Finding, GateReport, JudgeSpec, Verdict
from core.suite_runs import SuiteRunner
from judges.config import JudgesConfig
from judges.offline.sandbox_files import text as sandbox_file
from judges.protocol import abstention, decision_from_findings

VERSION = "3"  # bump when a rule changes: it is part of the judge spec, hence of the verdict cache key
EXAMPLES_TEST = "test_docstring_examples.py"
MAX_NOTES = 6  # problems listed in one finding's note
_UNDEFINED = re.compile(r"NameError: name '(\w+)' is not defined")


def documentation_problems(interface: Interface, solution: str) -> list[str]:
    """What the skeleton leaves unstated, one line per omission."""
    return [line for omission in omissions(interface, solution) for line in omission.lines()]


def docstring_examples(interface: Interface) -> dict[str, str]:
    """Docstrings holding `>>>` examples, by "Class" or "Class.method" (parsed only, never run here)."""
    parser = doctest.DocTestParser()
    docs = {interface.class_name: interface.class_doc}
    docs.update({f"{interface.class_name}.{m.name}": m.docstring for m in interface.methods.values()})
    return {name: doc for name, doc in docs.items() if doc and parser.get_examples(doc)}


def _module_names(source: str) -> set[str]:
    """Names the module binds at top level (classes, functions, assignments, imports), read with ast."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _summary(problems: list[str]) -> str:
    more = f" (and {len(problems) - MAX_NOTES} more)" if len(problems) > MAX_NOTES else ""
    return "; ".join(problems[:MAX_NOTES]) + more


class SpecificationJudge:
    """Offline judge of the skeleton's completeness and of the reference against the docstring examples."""

    def __init__(self, runner: SuiteRunner | None = None) -> None:
        """Without a `runner` the examples are not run (undecided)."""
        self.runner = runner

    @property
    def spec(self) -> JudgeSpec:
        return JudgeSpec(backend="offline", name="specification", prompt_version=VERSION)

    def _run_examples(self, candidate: Candidate, examples: dict[str, str]) -> tuple[Finding, list[str]]:
        """The `reference_correct` finding, and the stale examples (for `spec_clear`): an example that
        fails with a NameError on a name the module does not define (a composed class's examples that
        still name a source class, say) says nothing about the reference; it misleads the solver."""
        config = json.dumps({"module": candidate.module_name, "docstrings": examples})
        result = self.runner.run_suite({f"{candidate.module_name}.py": candidate.solution_code,
                                        "docstrings.json": config, EXAMPLES_TEST: sandbox_file(EXAMPLES_TEST)},
                                       EXAMPLES_TEST)
        if result.status != "completed" or not result.tests:
            why = result.status if result.status != "completed" else "no example test ran"
            return Finding(criterion="reference_correct", ok=None,
                           note=f"docstring examples could not be run: {why} {' '.join(result.notes)[:200]}".strip()), []
        defined = _module_names(candidate.solution_code)
        stale, wrong = [], []
        for test in (t for t in result.tests if t.outcome != "passed"):
            where = test.test_id.split("[", 1)[-1].rstrip("]")
            missing = _UNDEFINED.search(test.reason)
            if missing and missing.group(1) not in defined:
                stale.append(f"{where}: a docstring example uses {missing.group(1)}, which the task does not define")
            else:
                wrong.append(f"{where}: {test.reason.removeprefix('AssertionError: ')}")
        passed = len(result.tests) - len(stale) - len(wrong)
        if wrong:
            finding = Finding(criterion="reference_correct", ok=False,
                              note="docstring examples disagree with the reference: " + _summary(wrong))
        elif passed:
            finding = Finding(criterion="reference_correct", ok=True,
                              note=f"the examples of {passed} docstring(s) agree with the reference")
        else:
            finding = Finding(criterion="reference_correct", ok=None, note="no docstring example could be run")
        return finding, stale

    def review(self, candidate: Candidate, report: GateReport | None) -> Verdict:
        try:
            interface = read_interface(candidate.skeleton or candidate.solution_code, candidate.class_name)
            problems = documentation_problems(interface, candidate.solution_code)
        except (SyntaxError, LookupError, ValueError) as exc:
            return abstention(candidate.candidate_id, self.spec, f"the skeleton could not be read: {exc}")
        examples = docstring_examples(interface)
        if not examples:
            example_finding = Finding(criterion="reference_correct", ok=None, note="the skeleton has no docstring examples")
        elif self.runner is None:
            example_finding = Finding(criterion="reference_correct", ok=None, note="no sandbox: examples not run")
        else:
            example_finding, stale = self._run_examples(candidate, examples)
            problems += stale
        findings = (Finding(criterion="spec_clear", ok=not problems,
                            note=_summary(problems) if problems else "every public method states its parameters, "
                                 "return value and raised exceptions"), example_finding)
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec,
                       decision=decision_from_findings(findings), findings=findings)


def make_judge(config: JudgesConfig, runner: SuiteRunner | None) -> SpecificationJudge:
    """The checks registry's factory (judges/offline/__init__.py). The docstring examples run through
    `runner`; without one (the `judge` command with no sandbox) `reference_correct` stays undecided."""
    return SpecificationJudge(runner)
