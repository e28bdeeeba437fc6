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
    own_methods,
    prefix_of,
    query_steps,
    require_free_names,
    require_state_fields,
    state_helpers,
)
from pipeline.synthesis.transforms.fit import generators, memo_fields, require_edits, require_plain_state, state_writers
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("undo", "can_undo", "undo_history", "_record_operation")


def operations(model: ClassModel) -> list[str]:
    """Entry mutators whose body runs during the call (a generator's would run after it returned)."""
    lazy, writers = generators(model), state_writers(model)
    return [m.name for m in entry_mutators(model) if m.name not in lazy and m.name in writers]


def _refusing(model: ClassModel, names: list[str]) -> list[str]:
    """Recorded operations annotated to return a bool: they may refuse by returning False, which changes
    nothing and so is not recorded (said where it applies, not of methods that never return a bool)."""
    return [n for n in names if (model.methods[n].returns or "").replace(" ", "") in ("bool", "bool|None")]


def class_text(voice: Voice, listed: str, refusing: list[str]) -> str:
    """The undo rules, stated once in the class docstring."""
    holdings = voice.holdings()
    head = voice.pick(
        "undo-rule",
        f"Undo: each call of {listed} that returns normally and changes {voice.possessive} {holdings} goes "
        f"into an operation history",
        f"Edits can be taken back: {voice.the} keeps a history of the calls of {listed} that returned "
        f"normally and changed its {holdings}",
        f"History of edits: a call of {listed} that changes {voice.possessive} {holdings} and returns normally "
        f"is remembered, newest last",
    )
    refused = (f" (such as a call of {english_list(refusing)} that returns False)" if refusing else "")
    return (f"{head}. A call that raises, or after which the {holdings} are as they were{refused}, is not "
            f"recorded. ``undo()`` puts {voice.possessive} {holdings} back as they were before the "
            f"newest recorded call; ``can_undo()`` and ``undo_history()`` read {voice.possessive} history.")


class HistoryUndo:
    """Undo fits a class whose operations are edits a user would want to take back: adding a recipe,
    granting a role, revaluing a deal. It does not fit a class whose operations move its clock forward
    (a ticket queue's `advance_clock`: time is not taken back), serve what arrived in arrival order (a
    queue's `assign_next`, a limiter's `allow`: reverting one reorders everything behind it), or mostly
    record measurements (a latency monitor, a histogram: a measurement happened). It also needs state that
    can be captured and compared (plain data), as the history keeps copies of it."""

    name = "history_undo"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        require_plain_state(model, require_state_fields(model))
        if not operations(model):
            raise TransformError(f"class {model.name} has no public method that changes its state", "no_state_change")
        require_edits(model, "undo")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        fields = require_state_fields(model)
        recorded = operations(model)
        voice = Voice.of(model, [m.name for m in own_methods(model)], fields)
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
        if "_capture_state" not in editor.method_names():
            editor.append_methods(state_helpers(fields, voice))
        listed = english_list(recorded)
        # A cache the call refilled or dropped is no change: comparing it would record no-ops.
        caches = [f for f in memo_fields(model) if f in fields]
        skip = f" if key not in ({', '.join(repr(c) for c in caches)},)" if caches else ""
        holdings = voice.holdings()
        undo_doc = voice.docstring(
            voice.pick("undo-summary", f"Take back the newest recorded edit of {voice.the}.",
                       f"Revert {voice.possessive} most recent recorded call and drop it from the history.",
                       f"Restore {voice.possessive} {holdings} to what they were before the newest recorded call."),
            returns=voice.pick("undo-return", f"the name of the {voice.noun} method whose call was reverted",
                               f"which method of {voice.the} was undone"),
            raises=[("IndexError", f"if {voice.the} has no recorded call to revert")],
        )
        can_doc = voice.docstring(voice.pick(
            "can-undo", f"Return True if {voice.the} has a recorded call that ``undo()`` can revert.",
            f"Return whether ``undo()`` has anything to take back in {voice.the}."))
        history_doc = voice.docstring(voice.pick(
            "undo-history", f"Return the names of {voice.possessive} recorded calls, oldest first; ``undo()`` takes "
                            "the last one.",
            f"Return the methods whose calls {voice.the} can still undo, oldest first (the last is undone first)."))
        editor.append_methods(f'''
def _record_operation(self, name: str, before: dict) -> None:
    """Keep {voice.possessive} {holdings} from before a call of ``name`` that returned, if it changed them."""
    after = self._capture_state()
    if any(after[key] != before[key] for key in after{skip}):
        self._undo_stack.append((name, before))

def undo(self) -> str:
    """{indent_docstring(undo_doc)}"""
    if not self._undo_stack:
        raise IndexError("nothing to undo")
    name, state = self._undo_stack.pop()
    self._restore_state(state)
    return name

def can_undo(self) -> bool:
    """{indent_docstring(can_doc)}"""
    return bool(self._undo_stack)

def undo_history(self) -> list[str]:
    """{indent_docstring(history_doc)}"""
    return [name for name, _ in self._undo_stack]
''')
        editor.extend_class_docstring(class_text(voice, listed, _refusing(model, recorded)))
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
