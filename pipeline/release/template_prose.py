"""Template prose: how much of a release's docstring text is the same sentence in many tasks.

A benchmark whose skeletons repeat one paragraph across a third of its tasks measures how well a model
follows that paragraph; a hand-written benchmark repeats almost nothing. The measure: every sentence of
every docstring of each skeleton (doctest examples left out, class and method names masked: a name written
as code, ````undo()````, and the task's own class and method names written bare where they cannot be
English words), and the share of them
that appear verbatim in more than `THRESHOLD` of the release's tasks. The release card and
`benchmarks/template_prose.py` both print it from `measure`.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core.records import Task

THRESHOLD = 0.2
"""A sentence is template prose when more than this share of the release's tasks contain it."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(:])")
_CODE_SPAN = re.compile(r"``[^`]*``")
_DOCTEST = (">>>", "...")


@dataclass(frozen=True)
class TemplateProse:
    """The figure and what makes it: `share` of all `sentences` are `repeated` ones."""

    tasks: int
    sentences: int
    repeated: int
    top: tuple[tuple[str, int, int], ...]  # (masked sentence, tasks containing it, occurrences), most frequent first

    @property
    def share(self) -> float:
        return self.repeated / self.sentences if self.sentences else 0.0


def _docstrings(skeleton: str) -> tuple[list[str], set[str]]:
    """The docstrings of a skeleton and the names of its classes and functions (empty when it does not
    parse: a skeleton that is not Python states nothing to measure)."""
    try:
        tree = ast.parse(skeleton)
    except SyntaxError:
        return [], set()
    names = {n.name for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))}
    docs = [ast.get_docstring(n) or "" for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
    return [d for d in docs if d], names


def _without_examples(doc: str) -> str:
    """A docstring without its doctest examples (a `>>>` line, its continuations and expected output)."""
    kept, in_example = [], False
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped.startswith(_DOCTEST):
            in_example = True
            continue
        if in_example and stripped:
            continue  # expected output runs until a blank line
        in_example = False
        kept.append(line)
    return "\n".join(kept)


def task_sentences(skeleton: str) -> list[str]:
    """The masked sentences of a skeleton's docstrings, in order (a sentence may repeat within a task)."""
    docs, names = _docstrings(skeleton)
    # A bare name is masked when it cannot be an English word (`CraftingInventory`, `add_item`): a method
    # named `count` or `total` would otherwise mask that word in every sentence of the task.
    names = {n for n in names if "_" in n.strip("_") or any(c.isupper() for c in n)}
    bare = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b") if names else None
    out = []
    for doc in docs:
        for paragraph in re.split(r"\n\s*\n", _without_examples(doc)):
            for sentence in _SENTENCE_END.split(" ".join(paragraph.split())):
                sentence = _CODE_SPAN.sub("``X``", sentence.strip())
                if bare is not None:
                    sentence = bare.sub("X", sentence)
                if sentence:
                    out.append(sentence)
    return out


def measure(tasks: Sequence[Task], *, threshold: float = THRESHOLD, top: int = 10) -> TemplateProse:
    """The template-prose figure of a set of tasks (a release)."""
    per_task = [task_sentences(t.skeleton) for t in tasks]
    in_tasks = Counter(s for sentences in per_task for s in set(sentences))
    occurrences = Counter(s for sentences in per_task for s in sentences)
    limit = threshold * len(tasks)
    repeated = {s for s, n in in_tasks.items() if n > limit}
    ranked = sorted(repeated, key=lambda s: (-occurrences[s], -in_tasks[s], s))[:top]
    return TemplateProse(
        tasks=len(tasks),
        sentences=sum(len(s) for s in per_task),
        repeated=sum(1 for sentences in per_task for s in sentences if s in repeated),
        top=tuple((s, in_tasks[s], occurrences[s]) for s in ranked),
    )


def card_sentence(figure: TemplateProse) -> str:
    """The card's statement of the figure."""
    return (f"Template prose: {100 * figure.share:.1f}% of the {figure.sentences} docstring sentences of the "
            f"skeletons appear verbatim in more than {THRESHOLD:.0%} of the {figure.tasks} tasks (class and method "
            "names masked, doctest examples left out); a hand-written benchmark repeats almost none. "
            "`benchmarks/template_prose.py` lists the repeated sentences.")
