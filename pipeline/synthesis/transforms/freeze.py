"""Read-only lock: a frozen instance refuses every state-changing call until it is unfrozen."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    domain_fields,
    english_list,
    own_methods,
    own_mutators,
    prefix_of,
    query_steps,
    require_free_names,
)
from pipeline.synthesis.transforms.fit import require_edits, state_writers
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("freeze", "unfreeze", "is_frozen", "_ensure_writable", "refused_writes")
ERROR = "FrozenStateError"
FEATURE_WRITERS = ("undo", "apply_batch")
"""Methods of other features that change the domain state: locked too, so that features combine (an
``undo()`` on a frozen object would otherwise change it)."""


def locked_methods(model: ClassModel) -> list[str]:
    """The state-changing methods the lock refuses: the class's own (a query that only fills a cache is
    not one), then other features' writers."""
    writers = state_writers(model)
    own = [m.name for m in own_mutators(model) if m.name in writers]
    return own + [n for n in FEATURE_WRITERS if n in model.methods]


def class_text(voice: Voice, names: list[str]) -> str:
    """The lock's rules, stated once in the class docstring: what it refuses, and that its check comes before
    the argument checks (a frozen object given a bad argument raises ``FrozenStateError``; either order would
    be correct for a docstring silent about it, so it is stated)."""
    head = voice.pick(
        "freeze-rule",
        f"Read-only lock: once ``freeze()`` is called, {english_list(names)} raise ``{ERROR}`` and do not "
        f"change {voice.possessive} {voice.holdings()} until ``unfreeze()``",
        f"A frozen {voice.noun} is read-only: {english_list(names)} raise ``{ERROR}`` without changing its "
        f"{voice.holdings()}, from ``freeze()`` until ``unfreeze()``",
    )
    return (f"{head}; the {voice.noun}'s queries keep working. The lock is checked first: a frozen {voice.noun} "
            f"raises ``{ERROR}`` before the argument checks, even for a call whose arguments are invalid.")


class FreezeLock:
    """A read-only lock fits a class whose state is defined by edits and then read: a configuration, a
    registry, a ledger, a document, an inventory; locking it once it is set up is a natural request. It does
    not fit a class whose operations move its clock forward or serve arrivals in order (a locked ticket
    queue or rate limiter stops being one), nor a measuring class (a monitor or histogram that refuses
    measurements while locked loses them)."""

    name = "freeze_lock"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if ERROR in model.module_names:
            raise TransformError(f"module already defines {ERROR}", "name_clash")
        if not [n for n in locked_methods(model) if n not in FEATURE_WRITERS]:
            raise TransformError(f"class {model.name} has no public method that changes its state", "no_state_change")
        require_edits(model, "a read-only lock")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        names = locked_methods(model)
        voice = Voice.of(model, [m.name for m in own_methods(model)], domain_fields(model))
        editor = ClassEditor(source, model.name)
        editor.add_before_class(f'''
class {ERROR}(RuntimeError):
    """A method that changes the {voice.noun} (a ``{model.name}``) was called while it was frozen."""
''')
        editor.append_to_init("self._frozen = False\nself._refused_writes = 0")
        for name in names:
            editor.prepend_to_method(name, f'self._ensure_writable("{name}")')
        docs = self._docs(voice, names)
        editor.append_methods(f'''
def _ensure_writable(self, method: str) -> None:
    """Raise {ERROR} and count the refusal while the {voice.noun} is frozen."""
    if self._frozen:
        self._refused_writes += 1
        raise {ERROR}(f"{{method}}() is not allowed while frozen; call unfreeze() first")

def freeze(self) -> bool:
    """{indent_docstring(docs["freeze"])}"""
    was_writable = not self._frozen
    self._frozen = True
    return was_writable

def unfreeze(self) -> bool:
    """{indent_docstring(docs["unfreeze"])}"""
    was_frozen = self._frozen
    self._frozen = False
    return was_frozen

def is_frozen(self) -> bool:
    """{indent_docstring(docs["is_frozen"])}"""
    return self._frozen

def refused_writes(self) -> int:
    """{indent_docstring(docs["refused_writes"])}"""
    return self._refused_writes
''')
        if "rejected_argument_counts" in editor.method_names():
            editor.extend_method_docstring("rejected_argument_counts", f"A call refused because the {voice.noun} "
                                           "was frozen is not counted here: the lock is checked first.")
        editor.extend_class_docstring(class_text(voice, names))
        return editor.code()

    @staticmethod
    def _docs(voice: Voice, names: list[str]) -> dict[str, str]:
        noun = voice.noun
        return {
            "freeze": voice.docstring(
                voice.pick("freeze", f"Lock the {noun}: {english_list(names)} are refused until ``unfreeze()``.",
                           f"Make the {noun} read-only; {english_list(names)} raise ``{ERROR}`` until ``unfreeze()``."),
                returns=f"True if the {noun} was writable before this call, False if it was already frozen"),
            "unfreeze": voice.docstring(
                voice.pick("unfreeze", f"Unlock the {noun} so that it can change again.",
                           f"Let the {noun} change again after ``freeze()``."),
                returns=f"True if the {noun} was frozen before this call, False if it was already writable"),
            "is_frozen": voice.docstring(voice.pick("is-frozen", f"Return True while the {noun} is frozen.",
                                                    f"Return whether the {noun} is locked by ``freeze()`` (True until ``unfreeze()``).")),
            "refused_writes": voice.docstring(voice.pick(
                "refused", f"Return how many calls that would have changed the {noun} were refused while it was frozen.",
                f"Return the number of calls the frozen {noun} refused with ``{ERROR}``.")),
        }

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
