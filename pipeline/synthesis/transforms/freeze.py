"""Read-only lock: a frozen instance refuses every state-changing call until it is unfrozen."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_mutators,
    prefix_of,
    query_steps,
    require_free_names,
)
from pipeline.synthesis.transforms.fit import state_writers

METHODS = ("freeze", "unfreeze", "is_frozen", "_ensure_writable", "refused_writes")
ERROR = "FrozenStateError"
FEATURE_WRITERS = ("undo", "apply_batch")
"""Methods of other features that change the domain state: locked too, so that features combine (an
``undo()`` on a frozen object would otherwise change it)."""
PRECEDENCE = "this is checked before the arguments (nothing changes)"
"""Which check fires first on a frozen object given a bad argument: stated in each guarded method (and in
the class docstring), since either order is a correct implementation of a docstring silent about it."""


def locked_methods(model: ClassModel) -> list[str]:
    """The state-changing methods the lock refuses: the class's own (a query that only fills a cache is
    not one), then other features' writers."""
    writers = state_writers(model)
    own = [m.name for m in own_mutators(model) if m.name in writers]
    return own + [n for n in FEATURE_WRITERS if n in model.methods]


class FreezeLock:
    name = "freeze_lock"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if ERROR in model.module_names:
            raise TransformError(f"module already defines {ERROR}", "name_clash")
        if not [n for n in locked_methods(model) if n not in FEATURE_WRITERS]:
            raise TransformError(f"class {model.name} has no public method that changes its state", "no_state_change")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        names = locked_methods(model)
        editor = ClassEditor(source, model.name)
        editor.add_before_class(f'''
class {ERROR}(RuntimeError):
    """A state-changing method of a frozen ``{model.name}`` was called."""
''')
        editor.append_to_init("self._frozen = False\nself._refused_writes = 0")
        for name in names:
            editor.prepend_to_method(name, f'self._ensure_writable("{name}")')
            precedence = PRECEDENCE if model.methods[name].params else "this is checked first (nothing changes)"
            editor.extend_method_docstring(name, f":raises {ERROR}: if the instance is frozen; {precedence}.")
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
        if "rejected_argument_counts" in editor.method_names():
            editor.extend_method_docstring("rejected_argument_counts", "A call refused because the instance "
                                           "was frozen is not counted here: the freeze check comes first.")
        editor.extend_class_docstring(
            f"Read-only lock: after ``freeze()`` the state-changing methods {english_list(names)} raise "
            f"``{ERROR}`` and change nothing, until ``unfreeze()``; queries keep working. The freeze check comes "
            f"before every other check of those methods: a frozen instance raises ``{ERROR}`` even for a call "
            "whose arguments are invalid."
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = [n for n in locked_methods(context.model) if n not in FEATURE_WRITERS]
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
