"""Per-method statistics: every call of a public method from outside the object is counted and can be queried
and reset."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_methods,
    prefix_of,
    require_free_names,
)
from pipeline.synthesis.transforms.fit import generators

METHODS = ("_enter_call", "_leave_call", "call_count", "call_counts", "most_called", "reset_statistics")

POLICY = ("Only calls made from outside the object count: a call that one of its methods makes to another is "
          "not counted.")
"""The counting contract, stated word for word in the docstrings: what the counts are must not depend on
whether the reference's methods happen to call each other (a `best_match` that goes through `versions()`
and one that does not are both correct)."""


def counted_methods(model: ClassModel) -> list[str]:
    """The class's own public methods, generators excepted (their body runs after the call has returned,
    so no guard around the call can tell an outside call from an inside one)."""
    lazy = generators(model)
    return [m.name for m in own_methods(model) if m.name not in lazy]


class MethodStatistics:
    name = "method_statistics"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if len(counted_methods(model)) < 2:
            raise TransformError(f"class {model.name} has fewer than two public methods to count", "too_few_methods")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        names = counted_methods(model)
        lazy = generators(model)
        # Every public method holds the depth while it runs, features' methods too (`apply_batch`,
        # `overview`), so that what they call on the instance is an inside call; the finally clause
        # restores the depth when a method raises. Only the two helpers write the depth: a field that
        # every public method wrote would be a state edge between every pair of methods for the gate.
        guarded = [m.name for m in model.public_methods() if m.name not in METHODS and m.name not in lazy]
        editor = ClassEditor(source, model.name)
        for name in guarded + (["__init__"] if "__init__" in model.methods else []):
            label = f'"{name}"' if name in names else "None"
            editor.wrap_method_body(name, before=f"_depth = self._enter_call({label})",
                                    final="self._leave_call(_depth)")
        # The constructor is an inside caller too; the fields exist before its first statement, since it
        # may call a counted method.
        if "__init__" in model.methods:
            editor.prepend_to_method("__init__", "self._call_counts: dict[str, int] = {}\nself._call_depth = 0")
        else:
            editor.append_to_init("self._call_counts: dict[str, int] = {}\nself._call_depth = 0")
        tracked = ", ".join(f'"{n}"' for n in names)
        editor.append_methods(f'''
def _enter_call(self, name: str | None) -> int:
    """Count a call of ``name`` unless another method of this instance is running; return the depth before.

    Each public method enters here and passes the returned depth to ``_leave_call`` when it returns or raises.
    """
    depth = self._call_depth
    if depth == 0 and name is not None:
        self._call_counts[name] = self._call_counts.get(name, 0) + 1
    self._call_depth = depth + 1
    return depth

def _leave_call(self, depth: int) -> None:
    """Restore the depth a public method found on entry (from ``_enter_call``)."""
    self._call_depth = depth

def call_count(self, method: str) -> int:
    """Return how many times ``method`` was called since creation or the last ``reset_statistics()``.

    {POLICY} A call counts when it starts, whether it returns or raises (a refused call counts too).

    :param method: one of {english_list(names)}.
    :raises ValueError: if ``method`` is not a counted method.
    """
    if method not in ({tracked},):
        raise ValueError(f"{{method!r}} is not a counted method")
    return self._call_counts.get(method, 0)

def call_counts(self) -> dict[str, int]:
    """Return method name -> number of calls for every method called at least once, sorted by name.

    {POLICY} A call counts when it starts, whether it returns or raises.
    """
    return {{name: self._call_counts[name] for name in sorted(self._call_counts)}}

def most_called(self) -> str | None:
    """Return the most called method (ties go to the alphabetically first name), or None if none was called.

    Counts are those of ``call_counts()``.
    """
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
            f"Per-method statistics: calls of {english_list(names)} are counted; ``call_count``, ``call_counts`` "
            f"and ``most_called`` report the counts and ``reset_statistics`` clears them. {POLICY}"
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = counted_methods(context.model)
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
