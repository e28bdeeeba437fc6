"""Operation history with undo: every call of an operation that changed the state can be reverted, newest
first."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    entry_mutators,
    prefix_of,
    query_steps,
    require_free_names,
    require_state_fields,
    state_helpers,
)
from pipeline.synthesis.transforms.fit import generators, memo_fields, require_plain_state, state_writers

METHODS = ("undo", "can_undo", "undo_history", "_record_operation")
RECORDED = ("Undoable: a call that returns normally and changes the state is recorded in the operation history, "
            "and ``undo()`` reverts it. A call that raises, or that changes nothing (for example one that "
            "refuses the operation by returning False, or asks for what is already so), is not recorded.")
"""Which calls are undoable, stated: a failed call that returns False and a no-op are no operation a
reader would undo, and recording them would make `undo()` silently revert nothing."""


def operations(model: ClassModel) -> list[str]:
    """Entry mutators whose body runs during the call (a generator's would run after it returned)."""
    lazy, writers = generators(model), state_writers(model)
    return [m.name for m in entry_mutators(model) if m.name not in lazy and m.name in writers]


class HistoryUndo:
    name = "history_undo"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        require_plain_state(model, require_state_fields(model))
        if not operations(model):
            raise TransformError(f"class {model.name} has no public method that changes its state", "no_state_change")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        fields = require_state_fields(model)
        recorded = operations(model)
        editor = ClassEditor(source, model.name)
        editor.add_import("copy")
        editor.append_to_init("self._undo_stack: list[tuple[str, dict]] = []")
        for name in recorded:
            # The state before the call is kept in a local; the except clause forgets it, so that the
            # finally clause records only a call that returned (a `return` skips any else clause).
            editor.wrap_method_body(
                name,
                before="_undo_before = self._capture_state()",
                handler="_undo_before = None",
                final=f'if _undo_before is not None:\n    self._record_operation("{name}", _undo_before)',
            )
            editor.extend_method_docstring(name, RECORDED)
        if "_capture_state" not in editor.method_names():
            editor.append_methods(state_helpers(fields))
        listed = english_list(recorded)
        # A cache the call refilled or dropped is no change: comparing it would record no-ops.
        caches = [f for f in memo_fields(model) if f in fields]
        skip = f" if key not in ({', '.join(repr(c) for c in caches)},)" if caches else ""
        editor.append_methods(f'''
def _record_operation(self, name: str, before: dict) -> None:
    """Record a call of ``name`` that returned normally, unless the state is what it was before it."""
    after = self._capture_state()
    if any(after[key] != before[key] for key in after{skip}):
        self._undo_stack.append((name, before))

def undo(self) -> str:
    """Revert the most recent recorded operation and remove it from the history.

    Every field is restored to its value just before that call. Only calls of {listed} that
    returned normally and changed the state are recorded; calls that raised or changed nothing are not.

    :return: the name of the method whose call was reverted.
    :raises IndexError: if the history is empty.
    """
    if not self._undo_stack:
        raise IndexError("nothing to undo")
    name, state = self._undo_stack.pop()
    self._restore_state(state)
    return name

def can_undo(self) -> bool:
    """Return True if at least one recorded operation can be reverted with ``undo()``."""
    return bool(self._undo_stack)

def undo_history(self) -> list[str]:
    """Return the names of the recorded operations, oldest first (the last one is reverted first)."""
    return [name for name, _ in self._undo_stack]
''')
        editor.extend_class_docstring(
            f"Operation history: calls of {listed} that return normally and change the state are recorded "
            "(calls that raise or change nothing are not); ``undo()`` reverts the newest one, ``can_undo()`` "
            "and ``undo_history()`` inspect the history."
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = operations(context.model)
        observe = query_steps(context.model)
        for base in context.bases:
            steps = prefix_of(base, rng)
            if not any(s.method in names for s in steps):
                extra = context.sample(rng.choice(names))
                if extra is None:
                    continue
                steps.append(extra)
            steps = steps + [Step("obj", "undo_history"), Step("obj", "undo")] + observe + [Step("obj", "can_undo")]
            out.append(base.with_steps(steps, title="undo_reverts_last_operation", origin=self.name, focus=("undo",)))
            if len(out) >= 8:
                break
        out.append(Scenario(steps=(Step("obj", "can_undo"), Step("obj", "undo")), title="undo_with_empty_history",
                            origin=self.name, focus=("undo",)))
        for base in list(context.bases)[:4]:
            ops = [s for s in base.steps if s.method in names][:3]
            if len(ops) >= 2:
                steps = ops + [Step("obj", "undo"), Step("obj", "undo")] + observe + [Step("obj", "undo_history")]
                out.append(base.with_steps(steps, title="undo_twice_reverts_two_operations", origin=self.name, focus=("undo",)))
        return out
