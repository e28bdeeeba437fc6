"""What the harness evaluates: `EvalTask`, read from a release (folder or version) or a ClassEval-format file.

One record for both inputs so that a model is scored on ClassEval and on a fresh release by the same code.
ClassEval's tests name the class without importing it; `pipeline.corpus.classeval` already turns them into a
module that imports it, and that conversion is reused here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

from pydantic import Field

from core.errors import InputError
from core.records import Record, Task
from pipeline.corpus.classeval import classeval_entry_to_seed, read_classeval_entries
from pipeline.release.dataset_io import load_release
from pipeline.release.family import task_family


class EvalTask(Record):
    """One class to implement and the tests that grade it."""

    task_id: str = Field(description="Release task id, or ClassEval's task_id.")
    class_name: str = Field(description="The class to implement.")
    module_name: str = Field(description="Module the tests import the class from.")
    skeleton: str = Field(description="What the solver sees: the module with signatures and docstrings only.")
    solution: str = Field(description="Reference module (imports included): the reference baseline, mutants, "
                                      "and the static analysis that orders methods.")
    test: str = Field(description="The test module (imports the class from `module_name`).")
    imports: tuple[str, ...] = Field(default=(), description="Import lines the reference needs; put before a completion.")
    method_tests: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Method name -> top-level test names (functions or classes) aimed at it.")
    source_date: str | None = Field(default=None, description="ISO date of the source, for --after.")
    family: str = Field(default="", description="Tasks grown from the same seeds share it (pipeline.release.family): "
                                                "one cluster of the confidence interval. Empty: the task is its own.")
    source: str = Field(description="Where the task was read from (release folder or ClassEval file).")

    @property
    def test_file(self) -> str:
        return f"test_{self.module_name}.py"

    @property
    def cluster(self) -> str:
        """The family this task counts in (itself when it has none)."""
        return self.family or self.task_id


def _top_level_tests(code: str) -> tuple[str, ...]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return ()
    return tuple(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and n.name.lower().startswith("test"))


def task_from_release(task: Task, source: str) -> EvalTask:
    solution = task.module_source()
    method_tests = {m.method_name: _top_level_tests(m.test_code) or ((m.test_class,) if m.test_class else ())
                    for m in task.methods_info}
    return EvalTask(task_id=task.task_id, class_name=task.class_name, module_name=task.module_name,
                    skeleton=task.skeleton, solution=solution, test=task.test, imports=task.import_statement,
                    method_tests={k: v for k, v in method_tests.items() if v}, source_date=task.source_date,
                    family=task_family(task), source=source)


_CURLY_TRIPLES = re.compile(r"[“”]{3}")  # a docstring's delimiter typed with curly quotes
_OPENS_MEMBER = re.compile(r"^\s*(?:async\s+def|def|class)\s+\w+.*:\s*$")


def repaired_skeleton(skeleton: str) -> str:
    """A ClassEval skeleton that does not parse, mended the two ways its data breaks: docstring delimiters
    typed with curly quotes, and a docstring left open until the next method's `def`. Only the skeleton
    breaks so (the solver reads it; ClassEval's own harness never parses it, so it runs those tasks): the
    solution and tests are never touched. Returns the text unchanged when it already parses."""
    if parses(skeleton):
        return skeleton
    lines = _CURLY_TRIPLES.sub('"""', skeleton).splitlines()
    mended: list[str] = []
    open_at: int | None = None  # indentation of the docstring being read, if one is open
    for line in lines:
        stripped = line.strip()
        if open_at is not None and _OPENS_MEMBER.match(line) and len(line) - len(line.lstrip()) < open_at:
            mended.append(" " * open_at + '"""')  # the open docstring ends where the next member begins
            open_at = None
        mended.append(line)
        if stripped.count('"""') % 2 == 1:
            open_at = None if open_at is not None else len(line) - len(line.lstrip())
    if open_at is not None:
        mended.append(" " * open_at + '"""')
    return "\n".join(mended) + "\n"


def parses(code: str) -> bool:
    """Whether `code` is Python this interpreter can parse (a null byte counts as not)."""
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _classeval_task(entry: dict, where: str, source: str) -> EvalTask:
    seed = classeval_entry_to_seed(entry, where, "ClassEval")
    skeleton = entry.get("skeleton")
    if not isinstance(skeleton, str) or not skeleton.strip():
        raise InputError(f"{where} ({entry.get('task_id')}): missing or empty field skeleton")
    skeleton = repaired_skeleton(skeleton)
    imports = entry.get("import_statement") or []
    imports = tuple(line for line in (imports.splitlines() if isinstance(imports, str) else imports) if line.strip())
    method_tests: dict[str, tuple[str, ...]] = {}
    for i, method in enumerate(entry.get("methods_info") or []):
        if not isinstance(method, dict) or not isinstance(method.get("method_name"), str):
            raise InputError(f"{where}.methods_info[{i}]: expected an object with a method_name")
        names = _top_level_tests(method.get("test_code") or "") or (
            (method["test_class"],) if isinstance(method.get("test_class"), str) and method["test_class"] else ())
        if names:
            method_tests[method["method_name"]] = names
    return EvalTask(task_id=str(entry["task_id"]), class_name=seed.class_name, module_name=seed.module_name,
                    skeleton=("\n".join(imports) + "\n\n" if imports else "") + skeleton.strip() + "\n",
                    solution=seed.source, test=seed.tests, imports=imports, method_tests=method_tests,
                    source_date=None, source=source)


class UnreadableTask(Record):
    """A task of the input that cannot be evaluated, left out with the reason (the others are scored)."""

    task_id: str = Field(description="The task's id, or its place in the file when it has none.")
    reason: str = Field(description="What is wrong: the field and the parser's message.")


def parse_problem(task: EvalTask) -> str | None:
    """Why the task cannot be evaluated, or None: its skeleton, reference or tests do not parse.

    Foreign files carry such tasks (ClassEval's own data has skeletons with an unterminated docstring or
    curly quotes); caught here, one task is left out instead of the whole run dying in the scorer.
    """
    for name, code in (("skeleton", task.skeleton), ("solution", task.solution), ("test", task.test)):
        try:
            ast.parse(code)
        except (SyntaxError, ValueError) as exc:
            where = f"line {exc.lineno}: " if isinstance(exc, SyntaxError) and exc.lineno else ""
            message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
            return f"{name} does not parse: {where}{message}"
    return None


def _checked(tasks: list[EvalTask], unreadable: Sequence[UnreadableTask] = ()
             ) -> tuple[list[EvalTask], list[UnreadableTask]]:
    """(the tasks that parse, `unreadable` plus those that do not)."""
    kept, left_out = [], list(unreadable)
    for task in tasks:
        problem = parse_problem(task)
        if problem is None:
            kept.append(task)
        else:
            left_out.append(UnreadableTask(task_id=task.task_id, reason=problem))
    return kept, left_out


def read_classeval_tasks(path: Path) -> tuple[list[EvalTask], list[UnreadableTask]]:
    """A ClassEval-format JSON file (a list of task objects with skeleton, test, solution and methods_info),
    read task by task: (the tasks, those left out with their reason). A file that is not such a list is
    an InputError."""
    tasks: list[EvalTask] = []
    unreadable: list[UnreadableTask] = []
    for i, entry in enumerate(read_classeval_entries(path)):
        where = f"{path}[{i}]"
        try:
            tasks.append(_classeval_task(entry, where, str(path)))
        except InputError as exc:
            task_id = entry.get("task_id") if isinstance(entry, dict) else None
            unreadable.append(UnreadableTask(task_id=str(task_id) if task_id is not None else where, reason=str(exc)))
    return _checked(tasks, unreadable)


def resolve_release(name: str, releases_dir: Path) -> Path:
    """A release given as a folder path or a version under the artifacts' releases folder."""
    path = Path(name)
    if path.is_dir() or path.suffix == ".json":
        return path
    candidate = releases_dir / name
    if candidate.is_dir():
        return candidate
    raise InputError(f"{name}: neither a release folder, a version under {releases_dir}, nor a ClassEval JSON file")


def load_eval_tasks(path: Path) -> tuple[list[EvalTask], list[UnreadableTask]]:
    """Tasks of a release folder (every split it carries) or of a ClassEval-format JSON file, and those
    left out because they cannot be evaluated (see `parse_problem`)."""
    if path.suffix == ".json":
        return read_classeval_tasks(path)
    return _checked([task_from_release(t, str(path)) for t in load_release(path)])


def select_tasks(tasks: list[EvalTask], *, after: str | None = None, limit: int | None = None) -> list[EvalTask]:
    """Tasks whose source date is after `after` (a model's training cut-off; undated tasks are dropped
    then, since they cannot be shown to be fresh), at most `limit` of them, in input order."""
    kept = [t for t in tasks if after is None or (t.source_date is not None and t.source_date > after)]
    return kept[:limit] if limit is not None else kept
