"""Read-only lock: a frozen instance refuses every state-changing call until it is unfrozen."""

from __future__ import annotations

from pipeline.analysis.class_model import ClassModel
from pipeline.synthesis.cst_edit import ClassEditor
from pipeline.synthesis.scenarios import Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext, TransformError, english_list, own_mutators, prefix_of, query_steps, require_free_names,
)

METHODS = ("freeze", "unfreeze", "is_frozen", "_ensure_writable", "refused_writes")
ERROR = "FrozenStateError"


class FreezeLock:
    name = "freeze_lock"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if ERROR in model.module_names:
            raise TransformError(f"module already defines {ERROR}")
        if not own_mutators(model):
            raise TransformError(f"class {model.name} has no public method that changes its state")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        names = [m.name for m in own_mutators(model)]
        editor = ClassEditor(source, model.name)
        editor.add_before_class(f'''
class {ERROR}(RuntimeError):
    """A state-changing method of a frozen ``{model.name}`` was called."""
''')
        editor.append_to_init("self._frozen = False\nself._refused_writes = 0")
        for name in names:
            editor.prepend_to_method(name, f'self._ensure_writable("{name}")')
            editor.extend_method_docstring(name, f":raises {ERROR}: if the instance is frozen (nothing changes).")
        editor.append_methods(f'''
def _ensure_writable(self, method: str) -> None:
    """Raise {ERROR} (and count the refusal) if the instance is frozen."""
    if self._frozen:
        self._refused_writes += 1
        raise {ERROR}(f"{{method}}() is not allowed while frozen; call unfreeze() first")

def freeze(self) -> bool:
    """Make the instance read-only: {english_list(names)} raise ``{ERROR}`` until ``unfreeze()``.

    :return: True if the instance was writable before this call, False if it was already frozen.
    """
    was_writable = not self._frozen
    self._frozen = True
    return was_writable

def unfreeze(self) -> bool:
    """Make the instance writable again.

    :return: True if it was frozen before this call, False if it was already writable.
    """
    was_frozen = self._frozen
    self._frozen = False
    return was_frozen

def is_frozen(self) -> bool:
    """Return True while the instance is frozen."""
    return self._frozen

def refused_writes(self) -> int:
    """Return how many state-changing calls were refused because the instance was frozen."""
    return self._refused_writes
''')
        editor.extend_class_docstring(
            f"Read-only lock: after ``freeze()`` the state-changing methods {english_list(names)} raise "
            f"``{ERROR}`` and change nothing, until ``unfreeze()``; queries keep working."
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = [m.name for m in own_mutators(context.model)]
        observe = query_steps(context.model, 1)
        for base in list(context.bases)[:8]:
            steps = prefix_of(base, rng)
            write = context.sample(rng.choice(names))
            if write is None:
                continue
            steps = steps + [Step("obj", "freeze"), write, Step("obj", "is_frozen"), Step("obj", "refused_writes")] + observe
            steps += [Step("obj", "unfreeze"), write] + observe
            out.append(base.with_steps(steps, title=f"{write.method}_refused_while_frozen", origin=self.name, focus=("freeze",)))
        out.append(Scenario(steps=(Step("obj", "freeze"), Step("obj", "freeze"), Step("obj", "unfreeze"),
                                   Step("obj", "unfreeze"), Step("obj", "is_frozen")),
                            title="freeze_and_unfreeze_report_previous_state", origin=self.name, focus=("freeze",)))
        return out
