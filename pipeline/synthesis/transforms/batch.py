"""Atomic batch apply with rollback: several operations run as one, all or nothing."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_mutators,
    query_steps,
    require_free_names,
    require_state_fields,
    state_helpers,
)
from pipeline.synthesis.transforms.fit import generators, require_plain_state, state_writers

METHODS = ("apply_batch", "batches_applied")
ERROR = "BatchOperationError"


def _batchable(model: ClassModel) -> list[str]:
    lazy, writers = generators(model), state_writers(model)
    return [m.name for m in own_mutators(model) if m.simple_signature and not any(p.kind == "keyword" for p in m.params)
            and m.name not in lazy and m.name in writers]


class AtomicBatch:
    name = "atomic_batch"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        require_plain_state(model, require_state_fields(model))
        if ERROR in model.module_names:
            raise TransformError(f"module already defines {ERROR}", "name_clash")
        if not _batchable(model):
            raise TransformError(f"class {model.name} has no state-changing method with plain positional parameters",
                                 "no_state_change")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        fields = require_state_fields(model)
        names = _batchable(model)
        editor = ClassEditor(source, model.name)
        editor.add_import("copy")
        editor.add_before_class(f'''
class {ERROR}(Exception):
    """An operation inside ``{model.name}.apply_batch`` failed; the whole batch was rolled back.

    ``index`` is the position of the failed operation in the batch and ``__cause__`` the original error.
    """

    def __init__(self, index: int, name: str, error: Exception) -> None:
        super().__init__(f"operation {{index}} ({{name}}) failed: {{error}}")
        self.index = index
''')
        editor.append_to_init("self._batches_applied = 0")
        if "_capture_state" not in editor.method_names():
            editor.append_methods(state_helpers(fields))
        dispatch = "\n".join(
            f'            {"if" if i == 0 else "elif"} name == "{n}":\n                results.append(self.{n}(*arguments))'
            for i, n in enumerate(names)
        )
        allowed = ", ".join(f'"{n}"' for n in names)
        editor.append_methods(f'''
def apply_batch(self, operations: list[tuple[str, list]]) -> list:
    """Apply several operations in order, all or nothing.

    Each operation is a pair ``(method name, list of positional arguments)``; the allowed methods are
    {english_list(names)}. If every operation succeeds, the batch counts as applied and the list of
    their return values is returned, in order. If one raises, every field is restored to its value
    before the batch and ``{ERROR}`` is raised with the operation's index; the batch does not count.

    :param operations: the operations to apply; an empty list is a valid batch.
    :return: the return value of each operation, in order.
    :raises ValueError: if an operation names another method (checked before anything runs).
    :raises {ERROR}: if an operation raises; the state is then unchanged.
    """
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
    """Return how many calls of ``apply_batch`` completed without rolling back."""
    return self._batches_applied
''')
        editor.extend_class_docstring(
            f"Atomic batches: ``apply_batch`` runs several of {english_list(names)} as one operation that either "
            "fully succeeds or leaves the state unchanged; ``batches_applied()`` counts completed batches."
        )
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
