"""What every feature transform is, and the facts they share.

A feature transform weaves one well-specified feature into a class with libcst: it adds state (private
fields initialised in `__init__`), public methods with precise docstrings, and dependencies between the
new methods and the class's own methods (calls, shared state). It also knows how to exercise what it
added: `scenarios` proposes call sequences that the test synthesiser runs on the reference as the oracle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from core.analysis.class_model import ClassModel, MethodModel
from core.scenarios import Scenario, Step
from pipeline.synthesis.transforms.voice import Voice

FEATURE_FIELDS = frozenset(
    {"_undo_stack", "_batches_applied", "_rejected_arguments", "_call_counts", "_call_depth", "_frozen",
     "_refused_writes"}
)
"""Fields the transforms add. They are bookkeeping, never part of the class's domain state: undo and
snapshots must not capture them."""

CALL_COUNTER_FIELDS = frozenset({"_call_counts", "_call_depth", "_rejected_arguments"})
"""Feature fields that count calls: every call (or every refused call) bumps them, so a call that changes
only these has not changed the object's state as a reader of a test sees it."""

FEATURE_METHODS = frozenset(
    {
        "undo", "can_undo", "undo_history", "_record_operation", "_capture_state", "_restore_state",
        "apply_batch", "batches_applied",
        "_check_argument", "rejected_argument_counts",
        "_enter_call", "_leave_call", "call_count", "call_counts", "most_called", "reset_statistics",
        "freeze", "unfreeze", "is_frozen", "_ensure_writable", "refused_writes",
        "overview", "changed_since",
        "to_dict", "from_dict", "same_state_as",
    }
)
"""Methods the transforms add; the class's own methods are the others."""


class TransformError(Exception):
    """The transform cannot be applied to this class; the message says why (it becomes rejection evidence)
    and `reason` is a short stable code, so that skipped transforms can be counted per reason."""

    def __init__(self, message: str, reason: str = "unfit") -> None:
        super().__init__(message)
        self.reason = reason


StepSampler = Callable[[str], "Step | None"]
"""Given a method name, a step calling it with observed arguments (or None when none were observed)."""


@dataclass(frozen=True)
class ScenarioContext:
    """What a transform's `scenarios` may use: the enhanced class, base scenarios and argument sampling."""

    model: ClassModel
    bases: Sequence[Scenario]
    sample: StepSampler
    rng: random.Random


class FeatureTransform(Protocol):
    name: str
    """Stable identifier recorded in provenance."""

    def check(self, model: ClassModel) -> None:
        """Raise TransformError when the feature cannot be woven into this class."""

    def apply(self, source: str, model: ClassModel) -> str:
        """Return the module source with the feature woven into `model.name`."""

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        """Call sequences that exercise the feature on the enhanced class."""


def own_methods(model: ClassModel) -> list[MethodModel]:
    """Public instance methods the class had before any feature was added, in source order."""
    return [m for m in model.public_methods() if m.name not in FEATURE_METHODS]


def own_mutators(model: ClassModel) -> list[MethodModel]:
    return [m for m in own_methods(model) if m.name in model.mutators]


def own_queries(model: ClassModel) -> list[MethodModel]:
    return [m for m in model.queries() if m.name not in FEATURE_METHODS]


def entry_mutators(model: ClassModel) -> list[MethodModel]:
    """Own public mutators that no other own method calls: the operations a user starts."""
    called: set[str] = set()
    for method in model.methods.values():
        if method.name not in FEATURE_METHODS:
            called |= method.calls
    return [m for m in own_mutators(model) if m.name not in called]


def domain_fields(model: ClassModel) -> tuple[str, ...]:
    return tuple(f for f in model.fields if f not in FEATURE_FIELDS)


def require_free_names(model: ClassModel, names: Sequence[str]) -> None:
    taken = [n for n in names if n in model.methods or n in model.fields or n in model.class_attributes]
    if taken:
        raise TransformError(f"class {model.name} already defines {', '.join(taken)}", "name_clash")


def english_list(names: Sequence[str]) -> str:
    quoted = [f"``{n}``" for n in names]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def require_state_fields(model: ClassModel) -> tuple[str, ...]:
    """Domain fields for capture/restore; refuses classes whose state is not all set up in `__init__`."""
    fields = domain_fields(model)
    if not fields:
        raise TransformError(f"class {model.name} keeps no state in __init__", "no_state")
    outside = sorted(f for f in model.fields_written_outside_init() if not f.startswith("method:") and f != "*")
    if outside or any("*" in m.writes for m in model.methods.values()):
        raise TransformError(f"class {model.name} creates fields outside __init__: {', '.join(outside) or 'setattr'}",
                             "fields_outside_init")
    return fields


def state_helpers(fields: Sequence[str], voice: Voice | None = None) -> str:
    """Source of `_capture_state`/`_restore_state`: deep copies of exactly the named domain fields, described
    in the class's words when a `voice` is given."""
    capture = "".join(f'\n        "{f}": copy.deepcopy(self.{f}),' for f in fields)
    restore = "\n".join(f'    self.{f} = copy.deepcopy(state["{f}"])' for f in fields)
    if voice is None:
        copy_doc, restore_doc = ("Return a deep copy of every domain field, keyed by field name.",
                                 "Set every domain field from a dict made by ``_capture_state`` (copied).")
    else:
        held = voice.holdings()
        copy_doc = voice.pick("capture", f"Copy {voice.possessive} {held} (deeply), keyed by field name.",
                              f"A deep copy of the {held} of {voice.the}, one entry per field.")
        restore_doc = voice.pick("restore", f"Put back {voice.possessive} {held} from a copy made by ``_capture_state``.",
                                 f"Set the {held} of {voice.the} from a ``_capture_state`` copy (copied again).")
    return f'''
def _capture_state(self) -> dict:
    """{copy_doc}"""
    return {{{capture}
    }}

def _restore_state(self, state: dict) -> None:
    """{restore_doc}"""
{restore}
'''


def prefix_of(scenario: Scenario, rng: random.Random, minimum: int = 1) -> list[Step]:
    """A random non-empty prefix of a scenario's steps (the whole thing when it is short)."""
    steps = list(scenario.steps)
    if len(steps) <= minimum:
        return steps
    return steps[: rng.randint(minimum, len(steps))]


def query_steps(model: ClassModel, limit: int = 2) -> list[Step]:
    """Calls of up to `limit` own no-argument queries, to observe state after a sequence."""
    return [Step(target="obj", method=m.name) for m in own_queries(model)[:limit]]
