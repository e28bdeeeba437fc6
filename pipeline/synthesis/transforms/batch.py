"""Atomic batch apply with rollback: several operations run as one, all or nothing."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_methods,
    own_mutators,
    query_steps,
    require_free_names,
    require_state_fields,
    state_helpers,
)
from pipeline.synthesis.transforms.fit import generators, may_raise, require_plain_state, state_writers
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("apply_batch", "batches_applied")
ERROR = "BatchOperationError"


def _batchable(model: ClassModel) -> list[str]:
    lazy, writers = generators(model), state_writers(model)
    return [m.name for m in own_mutators(model) if m.simple_signature and not any(p.kind == "keyword" for p in m.params)
            and m.name not in lazy and m.name in writers]


def _batch_doc(voice: Voice, names: list[str]) -> str:
    noun, held = voice.noun, voice.holdings()
    return voice.docstring(
        voice.pick("batch-summary", f"Apply several {noun} operations in order, all or nothing.",
                   f"Run a list of {noun} operations as one: every one of them takes effect, or none does."),
        f"Each is a pair ``(method name, list of positional arguments)`` naming one of the {noun}'s "
        f"{english_list(names)}. " + voice.pick(
            "batch-rollback",
            f"When one raises, the {noun}'s {held} are restored to what they were before the batch, "
            f"``{ERROR}`` is raised with that operation's index, and the batch does not count as applied.",
            f"If an operation raises, the {held} of the {noun} go back to their state before the batch and "
            f"``{ERROR}`` reports the failed operation's index; such a batch is not counted."),
        params=[("operations", f"the {noun} operations to apply, in order; an empty list is a valid batch.")],
        returns=f"the return value of each {noun} operation, in order",
        raises=[("ValueError", f"if an operation names another method, checked before any {noun} operation runs"),
                (ERROR, f"if an operation raises; the {noun} is then as it was before the batch")],
    )


class AtomicBatch:
    """An atomic batch fits a class whose operations can each refuse their input (raise), so that a sequence
    of them can fail partway: a basket's items, a wallet's transfers, a role registry's grants. All or
    nothing is then a real guarantee. It does not fit a class none of whose batchable operations can fail
    (a batch of them always succeeds and the rollback is never used), and needs state that can be captured."""
    name = "atomic_batch"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        require_plain_state(model, require_state_fields(model))
        if ERROR in model.module_names:
            raise TransformError(f"module already defines {ERROR}", "name_clash")
        if not _batchable(model):
            raise TransformError(f"class {model.name} has no state-changing method with plain positional parameters",
                                 "no_state_change")
        if not set(_batchable(model)) & may_raise(model):
            raise TransformError(f"a batch does not fit {model.name}: none of {', '.join(_batchable(model))} can "
                                 "fail, so there is nothing to roll back", "cannot_fail")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        fields = require_state_fields(model)
        names = _batchable(model)
        voice = Voice.of(model, [m.name for m in own_methods(model)], fields)
        editor = ClassEditor(source, model.name)
        editor.add_import("copy")
        editor.add_before_class(f'''
class {ERROR}(Exception):
    """An operation in a batch of the {voice.noun} (a ``{model.name}``) failed, and the batch was rolled back.

    ``index`` is the failed {voice.noun} operation's position in the batch, ``__cause__`` its error.
    """

    def __init__(self, index: int, name: str, error: Exception) -> None:
        super().__init__(f"operation {{index}} ({{name}}) failed: {{error}}")
        self.index = index
''')
        editor.append_to_init("self._batches_applied = 0")
        if "_capture_state" not in editor.method_names():
            editor.append_methods(state_helpers(fields, voice))
        dispatch = "\n".join(
            f'            {"if" if i == 0 else "elif"} name == "{n}":\n                results.append(self.{n}(*arguments))'
            for i, n in enumerate(names)
        )
        allowed = ", ".join(f'"{n}"' for n in names)
        batches_doc = voice.pick("batches", f"Return how many {voice.noun} batches were applied without a rollback.",
                                 f"Return the number of batches the {voice.noun} applied in full.")
        editor.append_methods(f'''
def apply_batch(self, operations: list[tuple[str, list]]) -> list:
    """{indent_docstring(_batch_doc(voice, names))}"""
    allowed = ({allowed},)
    for name, _ in operations:
        if name not in allowed:
            raise ValueError(f"{{name!r}} cannot be used in a batch")
    state = self._capture_state()
    results: list = []
    for index, (name, arguments) in enumerate(operations):
        try:
{dispatch}
        except Exception as error:
            self._restore_state(state)
            raise {ERROR}(index, name, error) from error
    self._batches_applied += 1
    return results

def batches_applied(self) -> int:
    """{batches_doc}"""
    return self._batches_applied
''')
        editor.extend_class_docstring(voice.pick(
            "batch-class",
            f"Atomic batches: ``apply_batch`` runs several of {english_list(names)} as one {voice.noun} operation that "
            f"either fully succeeds or leaves the {voice.holdings()} as they were; ``batches_applied()`` counts the "
            "completed ones.",
            f"Several of {english_list(names)} can run as one all-or-nothing {voice.noun} operation through "
            "``apply_batch``, and ``batches_applied()`` counts the batches that completed."))
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = set(_batchable(context.model))
        observe = query_steps(context.model)
        for base in context.bases:
            ops = [s for s in base.steps if s.method in names and s.target == "obj" and not s.kwargs
                   and all(a.literal is not None for a in s.args)]
            if not ops:
                continue
            cut = rng.randint(0, max(0, len(ops) - 1))
            chosen = ops[cut: cut + rng.randint(1, 3)]
            batch = "[" + ", ".join(f'("{s.method}", [{", ".join(a.literal for a in s.args)}])' for s in chosen) + "]"
            prefix = list(base.steps[: base.steps.index(chosen[0])]) if chosen[0] in base.steps else []
            steps = prefix + [Step("obj", "apply_batch", (Arg(literal=batch),))] + observe + [Step("obj", "batches_applied")]
            out.append(base.with_steps(steps, title="apply_batch_runs_operations_in_order", origin=self.name, focus=("apply_batch",)))
            # The same operations twice in one batch often fail on the repeat (duplicates, exhausted state):
            doubled = "[" + ", ".join(f'("{s.method}", [{", ".join(a.literal for a in s.args)}])' for s in chosen + chosen) + "]"
            steps = prefix + [Step("obj", "apply_batch", (Arg(literal=doubled),))] + observe + [Step("obj", "batches_applied")]
            out.append(base.with_steps(steps, title="apply_batch_repeating_operations", origin=self.name, focus=("apply_batch",)))
            # A rollback, then work on the restored state: the restored fields must be the ones later calls
            # read and the next batch captures (otherwise restoring and capturing never meet in one test).
            single = "[" + ", ".join(f'("{s.method}", [{", ".join(a.literal for a in s.args)}])' for s in chosen[:1]) + "]"
            steps = (prefix + [Step("obj", "apply_batch", (Arg(literal=doubled),))] + list(chosen)
                     + [Step("obj", "apply_batch", (Arg(literal=single),))] + observe + [Step("obj", "batches_applied")])
            out.append(base.with_steps(steps, title="apply_batch_after_a_rolled_back_batch", origin=self.name,
                                       focus=("apply_batch",)))
            if len(out) >= 18:
                break
        out.append(Scenario(steps=(Step("obj", "apply_batch", (Arg(literal='[("no_such_method", [])]'),)),
                                   Step("obj", "batches_applied")), title="apply_batch_rejects_unknown_method",
                            origin=self.name, focus=("apply_batch",)))
        out.append(Scenario(steps=(Step("obj", "apply_batch", (Arg(literal="[]"),)), Step("obj", "batches_applied")),
                            title="apply_batch_empty_counts_as_applied", origin=self.name, focus=("apply_batch",)))
        return out
