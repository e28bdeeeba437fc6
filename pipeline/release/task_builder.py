"""Turning a candidate that passed the gates into the released `Task` record (ClassEval's columns and more).

Per-method facts (dependencies, descriptions, the tests that call each method) come from
`core.analysis.class_facts`, the same static analysis the validation gate uses, so the released
dependency columns and the gate's interaction edges cannot disagree.
"""

from __future__ import annotations

import ast
import math
import re
import textwrap
from collections.abc import Sequence

from core.analysis.class_facts import ClassNotFound, class_facts, methods_info
from core.analysis.parsed import parsed
from core.analysis.python_need import requires_python
from core.errors import InputError
from core.records import Candidate, GateReport, MethodInfo, Task, Verdict
from pipeline.release.family import family_of

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
METRIC_FIELDS = ("line_coverage", "branch_coverage", "interaction_edge_coverage", "mutation_score")


def split_imports(source: str) -> tuple[tuple[str, ...], str]:
    """(top-level import statements, the rest of the module) of `source`.

    ClassEval keeps a solution's imports in `import_statement` and the class in `solution_code`; a harness
    pastes them back together in that order. Only module-level imports move: an import inside a function
    or under `if`/`try` belongs where it is. Raises SyntaxError for code that does not parse.
    """
    tree = parsed(source).tree  # the parse the class facts use too; read only
    lines = source.splitlines(keepends=True)
    imports: list[str] = []
    drop: set[int] = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            segment = ast.get_source_segment(source, node) or ""
            imports.append(" ".join(segment.split()) if "\n" in segment else segment)
            drop.update(range(node.lineno - 1, (node.end_lineno or node.lineno)))
    rest = "".join(line for i, line in enumerate(lines) if i not in drop)
    return tuple(imports), rest.strip("\n") + "\n"


def test_names(test_code: str) -> tuple[str, ...]:
    """Top-level test classes and test functions, in source order (ClassEval's `test_classes`)."""
    try:
        tree = ast.parse(test_code)
    except SyntaxError:
        return ()
    return tuple(node.name for node in tree.body
                 if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                 and node.name.lower().startswith("test"))


def source_date_of(candidate: Candidate) -> str | None:
    """The ISO date (YYYY-MM-DD) the class's source first existed: mined first-commit date or seed creation."""
    raw = candidate.provenance.first_commit_date
    if raw is None:
        return None
    match = _ISO_DATE.match(raw.strip())
    if match is None:
        raise InputError(f"candidate {candidate.candidate_id}: provenance.first_commit_date {raw!r} is not an ISO date")
    return match.group(0)


def metrics_of(report: GateReport) -> dict[str, float | None]:
    """The report's headline figures plus every numeric check value, by check name."""
    metrics: dict[str, float | None] = {name: getattr(report, name) for name in METRIC_FIELDS}
    for check in report.checks:
        value = check.value
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            metrics.setdefault(check.name, float(value))
    return metrics


def task_requires_python(task: Task) -> str | None:
    """The task's recorded Python, or the one its code needs for tasks released before the column existed."""
    if task.requires_python:
        return task.requires_python
    return requires_python("\n".join(task.import_statement) + "\n" + task.solution_code, task.test)


def build_task(candidate: Candidate, report: GateReport, verdicts: Sequence[Verdict] = ()) -> Task:
    """The released record of a candidate that passed validation (and, when they ran, the judges).

    Refuses a report about another candidate or one that did not pass: releasing a failed task would be a
    silent error downstream.
    """
    cid = candidate.candidate_id
    if report.candidate_id != cid:
        raise InputError(f"candidate {cid}: gate report is about {report.candidate_id}")
    if not report.passed:
        raise InputError(f"candidate {cid}: gate report did not pass ({', '.join(r.value for r in report.reasons)})")
    foreign = [v.candidate_id for v in verdicts if v.candidate_id != cid]
    if foreign:
        raise InputError(f"candidate {cid}: verdict about another candidate {foreign[0]}")

    try:
        imports, solution = split_imports(candidate.solution_code)
        facts = class_facts(candidate.solution_code, candidate.class_name)
        methods = tuple(MethodInfo.model_validate(m)
                        for m in methods_info(candidate.solution_code, candidate.class_name, candidate.test_code,
                                              facts=facts))
        init = next((m for m in facts.methods if m.is_init), None)
        # the text fields parse with libcst on first read: read them here, where its errors are caught
        constructor = f"class {candidate.class_name}:\n" + textwrap.indent(init.source, "    ") if init else ""
        class_docstring, fields = facts.docstring, facts.fields
    except SyntaxError as exc:
        raise InputError(f"candidate {cid}: solution_code does not parse: line {exc.lineno}: {exc.msg}") from None
    except ClassNotFound as exc:
        raise InputError(f"candidate {cid}: solution_code: {exc}") from None
    except Exception as exc:  # libcst's ParserSyntaxError is not a SyntaxError
        raise InputError(f"candidate {cid}: solution_code could not be analysed: {type(exc).__name__}: {exc}") from None

    skeleton = candidate.skeleton
    return Task(
        task_id=Task.make_id(candidate.class_name, skeleton, solution, candidate.test_code),
        skeleton=skeleton,
        test=candidate.test_code,
        solution_code=solution,
        import_statement=imports,
        class_name=candidate.class_name,
        class_description=(class_docstring or candidate.description).strip(),
        class_constructor=constructor,
        fields=tuple(f"self.{name}" for name in fields),
        test_classes=test_names(candidate.test_code),
        methods_info=methods,
        module_name=candidate.module_name,
        domains=candidate.domains,
        origin=candidate.origin,
        provenance=candidate.provenance,
        generator=candidate.generator,
        source_date=source_date_of(candidate),
        metrics=metrics_of(report),
        verdicts=tuple(verdicts),
        candidate_id=cid,
        requires_python=candidate.requires_python or requires_python(candidate.solution_code, candidate.test_code),
        family=family_of(candidate.origin, candidate.provenance, candidate.class_name),
    )
