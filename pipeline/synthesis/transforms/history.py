"""Operation history with undo: every successful call of an operation can be reverted, newest first."""

from __future__ import annotations

from pipeline.analysis.class_model import ClassModel
from pipeline.synthesis.cst_edit import ClassEditor
from pipeline.synthesis.scenarios import Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext, TransformError, english_list, entry_mutators, prefix_of, query_steps, require_free_names,
    require_state_fields, state_helpers,
)

METHODS = ("undo", "can_undo", "undo_history")


class HistoryUndo:
    name = "history_undo"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        require_state_fields(model)
        if not entry_mutators(model):
            raise TransformError(f"class {model.name} has no public method that changes its state")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        fields = require_state_fields(model)
        operations = [m.name for m in entry_mutators(model)]
        editor = ClassEditor(source, model.name)
        editor.add_import("copy")
        editor.append_to_init("self._undo_stack: list[tuple[str, dict]] = []")
        for name in operations:
            editor.wrap_method_body(
                name,
                before=f'self._undo_stack.append(("{name}", self._capture_state()))',
                handler="self._undo_stack.pop()",
            )
            editor.extend_method_docstring(
                name, "Undoable: a call that returns normally is recorded in the operation history and "
                "``undo()`` reverts it; a call that raises is not recorded."
            )
        if "_capture_state" not in editor.method_names():
            editor.append_methods(state_helpers(fields))
        listed = english_list(operations)
        editor.append_methods(f'''
def undo(self) -> str:
    """Revert the most recent recorded operation and remove it from the history.

    Every field is restored to its value just before that call. Only successful calls of {listed}
    are recorded.

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
            f"Operation history: successful calls of {listed} are recorded; ``undo()`` reverts the newest one, "
            "``can_undo()`` and ``undo_history()`` inspect the history."
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        operations = [m.name for m in entry_mutators(context.model)]
        observe = query_steps(context.model)
        for base in context.bases:
            steps = prefix_of(base, rng)
            if not any(s.method in operations for s in steps):
                extra = context.sample(rng.choice(operations))
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
            ops = [s for s in base.steps if s.method in operations][:3]
            if len(ops) >= 2:
                steps = ops + [Step("obj", "undo"), Step("obj", "undo")] + observe + [Step("obj", "undo_history")]
                out.append(base.with_steps(steps, title="undo_twice_reverts_two_operations", origin=self.name, focus=("undo",)))
        return out
