"""Snapshot round trip: `to_dict` copies the state out, `from_dict` builds an equal instance from it."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import CLASS, Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    FEATURE_FIELDS,
    ScenarioContext,
    TransformError,
    prefix_of,
    query_steps,
    own_methods,
    require_free_names,
    require_state_fields,
)
from pipeline.synthesis.transforms.fit import field_meaning, require_plain_state
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("to_dict", "from_dict", "same_state_as")


def _keys(fields: tuple[str, ...]) -> dict[str, str]:
    keys = {f: f.lstrip("_") for f in fields}
    if len(set(keys.values())) != len(keys):
        raise TransformError("two fields differ only by leading underscores", "name_clash")
    return keys


class SnapshotRoundTrip:
    """A snapshot fits a class whose state is a value worth saving and restoring (a document, a board, an
    inventory): plain data that every public query or constructor argument accounts for. It does not fit
    a class holding resources (connections, locks, handles) or caches, or fields nothing public shows."""
    name = "snapshot_roundtrip"

    def check(self, model: ClassModel) -> None:
        """A snapshot is plain data whose every value the docstring can state: no connection, lock, handle,
        callable or identity-compared object (to_dict deep-copies them), no cache (it would show when the
        reference computed something), no internal field that nothing public shows."""
        require_free_names(model, METHODS)
        fields = require_state_fields(model)
        _keys(fields)
        require_plain_state(model, fields, allow_caches=False)
        for field in fields:
            field_meaning(model, field)

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        fields = require_state_fields(model)
        keys = _keys(fields)
        shape = "\n".join(f'    - ``"{keys[f]}"``: {field_meaning(model, f)};' for f in fields)[:-1] + "."
        voice = Voice.of(model, [m.name for m in own_methods(model)], fields)
        from_doc = voice.docstring(
            f"Build a {voice.noun} whose {voice.holdings()} are a deep copy of ``data`` (as returned by ``to_dict``).",
            f"The constructor is not called; bookkeeping that is not part of ``to_dict`` starts as in a new "
            f"{voice.noun} (no counts, no history, not frozen).",
            raises=[("ValueError", "if a key of ``to_dict`` is missing from ``data``")])
        editor = ClassEditor(source, model.name)
        editor.add_import("copy")
        out_entries = "\n".join(f'        "{keys[f]}": copy.deepcopy(self.{f}),' for f in fields)
        in_entries = "\n".join(f'    instance.{f} = copy.deepcopy(data["{keys[f]}"])' for f in fields)
        # Bookkeeping of other features starts fresh in a restored instance, exactly as in __init__.
        bookkeeping = {
            "_undo_stack": "[]", "_batches_applied": "0", "_rejected_arguments": "{}", "_call_counts": "{}",
            "_frozen": "False", "_refused_writes": "0", "_call_depth": "0",
        }
        fresh = "\n".join(f"    instance.{f} = {bookkeeping[f]}" for f in model.fields if f in FEATURE_FIELDS)
        required = ", ".join(f'"{keys[f]}"' for f in fields)
        editor.append_methods(f'''
def to_dict(self) -> dict:
    """Return a deep copy of the state as a dict with exactly these keys, in this order:

{shape}

    Changing the returned dict does not change the instance.
    """
    return {{
{out_entries}
    }}

@classmethod
def from_dict(cls, data: dict) -> "{model.name}":
    """{indent_docstring(from_doc)}"""
    missing = [key for key in ({required},) if key not in data]
    if missing:
        raise ValueError(f"snapshot is missing {{', '.join(missing)}}")
    instance = cls.__new__(cls)
{in_entries}
{fresh}
    return instance

def same_state_as(self, other: object) -> bool:
    """Return True if ``other`` is a ``{model.name}`` whose ``to_dict()`` equals this one's."""
    return isinstance(other, {model.name}) and self.to_dict() == other.to_dict()
''')
        editor.extend_class_docstring(
            f"Snapshots: ``to_dict()`` copies the {voice.noun}'s {voice.holdings()} out, ``from_dict()`` builds a "
            f"{voice.noun} with equal ones, and ``same_state_as()`` compares two by their snapshots."
        )
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        observe = query_steps(context.model, 2)
        for base in list(context.bases)[:8]:
            steps = prefix_of(base, rng)
            restore = Step(CLASS, "from_dict", (Arg(call=("obj", "to_dict")),), bind="restored")
            steps = steps + [restore, Step("obj", "same_state_as", (Arg(var="restored"),))]
            steps += [Step("restored", s.method) for s in observe]
            tail = [s for s in base.steps[len(steps):] if s.target == "obj"][:1]
            if tail:
                steps += tail + [Step("obj", "same_state_as", (Arg(var="restored"),))]
            out.append(base.with_steps(steps, title="from_dict_restores_equal_state", origin=self.name,
                                       focus=("to_dict", "from_dict")))
        out.append(Scenario(steps=(Step("obj", "to_dict"), Step(CLASS, "from_dict", (Arg(literal="{}"),))),
                            title="from_dict_rejects_incomplete_snapshot", origin=self.name, focus=("from_dict",)))
        return out
