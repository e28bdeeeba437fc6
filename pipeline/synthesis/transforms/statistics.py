"""Per-method statistics: every call of a public method is counted and can be queried and reset."""

from __future__ import annotations

from pipeline.analysis.class_model import ClassModel
from pipeline.synthesis.cst_edit import ClassEditor
from pipeline.synthesis.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext, TransformError, english_list, own_methods, prefix_of, require_free_names,
)

METHODS = ("_record_call", "call_count", "call_counts", "most_called", "reset_statistics")


class MethodStatistics:
    name = "method_statistics"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if len(own_methods(model)) < 2:
            raise TransformError(f"class {model.name} has fewer than two public methods to count")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        names = [m.name for m in own_methods(model)]
        editor = ClassEditor(source, model.name)
        editor.append_to_init("self._call_counts: dict[str, int] = {}")
        for name in names:
            editor.prepend_to_method(name, f'self._record_call("{name}")')
        tracked = ", ".join(f'"{n}"' for n in names)
        editor.append_methods(f'''
def _record_call(self, name: str) -> None:
    """Count one call of the public method ``name`` (before it runs, so failed calls count too)."""
    self._call_counts[name] = self._call_counts.get(name, 0) + 1

def call_count(self, method: str) -> int:
    """Return how many times ``method`` was called since creation or the last ``reset_statistics()``.

    Calls count when they start, whether they return or raise, including calls that one method of
    this class makes to another.

    :param method: one of {english_list(names)}.
    :raises ValueError: if ``method`` is not a counted method.
    """
    if method not in ({tracked},):
        raise ValueError(f"{{method!r}} is not a counted method")
    return self._call_counts.get(method, 0)

def call_counts(self) -> dict[str, int]:
    """Return method name -> number of calls for every method called at least once, sorted by name."""
    return {{name: self._call_counts[name] for name in sorted(self._call_counts)}}

def most_called(self) -> str | None:
    """Return the most called method (ties go to the alphabetically first name), or None if none was called."""
    if not self._call_counts:
        return None
    return min(self._call_counts, key=lambda name: (-self._call_counts[name], name))

def reset_statistics(self) -> int:
    """Forget all counts.

    :return: the total number of calls counted before the reset.
    """
    total = sum(self._call_counts.values())
    self._call_counts = {{}}
    return total
''')
        editor.extend_class_docstring(
            "Per-method statistics: every call of a public method is counted; ``call_count``, ``call_counts`` "
            "and ``most_called`` report the counts and ``reset_statistics`` clears them."
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = [m.name for m in own_methods(context.model)]
        for base in list(context.bases)[:10]:
            steps = prefix_of(base, rng)
            called = [s.method for s in steps if s.method in names]
            probe = rng.choice(called) if called else rng.choice(names)
            steps = steps + [Step("obj", "call_count", (Arg(literal=f'"{probe}"'),)), Step("obj", "most_called"),
                             Step("obj", "call_counts")]
            if rng.random() < 0.5:
                steps += [Step("obj", "reset_statistics"), Step("obj", "most_called")]
            out.append(base.with_steps(steps, title=f"call_count_of_{probe}", origin=self.name, focus=("call_count",)))
        out.append(Scenario(steps=(Step("obj", "most_called"), Step("obj", "call_count", (Arg(literal='"no_such_method"'),))),
                            title="call_count_rejects_unknown_method", origin=self.name, focus=("call_count",)))
        out.append(Scenario(steps=(Step("obj", "reset_statistics"), Step("obj", "call_counts")),
                            title="reset_statistics_on_a_fresh_instance", origin=self.name, focus=("reset_statistics",)))
        return out
