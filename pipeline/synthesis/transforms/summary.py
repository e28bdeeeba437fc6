"""A summary that combines several getters, and a comparison of two summaries."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_methods,
    own_queries,
    prefix_of,
    require_free_names,
)
from pipeline.synthesis.transforms.fit import generators, may_raise
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("overview", "changed_since")
MAX_GETTERS = 4


def _getters(model: ClassModel) -> list[str]:
    """Argument-free queries that cannot raise: an overview must work in every state (one that calls
    `winner()` raises on every unfinished game, and its tests would assert that it raises)."""
    unsafe = may_raise(model) | generators(model)
    return [m.name for m in own_queries(model) if m.name not in unsafe][:MAX_GETTERS]


class CombinedSummary:
    """An overview fits a class whose state is read through several argument-free queries that work in every
    state (a basket's subtotal and total, a board's score and valid moves): reading them together is a
    status report of that class. It does not fit a class with fewer than two such queries, nor queries that
    raise in some states (a game's `winner()` before the end): an overview must work at any time."""
    name = "combined_summary"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if len(_getters(model)) < 2:
            unsafe = [m.name for m in own_queries(model) if m.name in may_raise(model)]
            raise TransformError(f"class {model.name} has fewer than two argument-free queries that cannot raise"
                                 + (f" ({', '.join(unsafe)} may raise)" if unsafe else ""),
                                 "may_raise" if unsafe else "too_few_queries")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        getters = _getters(model)
        entries = "\n".join(f'        "{g}": self.{g}(),' for g in getters)
        voice = Voice.of(model, [m.name for m in own_methods(model)])
        noun = voice.noun
        overview_doc = voice.docstring(
            voice.pick("overview", f"Return the {noun} at a glance: the results of {english_list(getters)} in one dict.",
                       f"Return {english_list(getters)} of the {noun} in one dict, in that order."),
            f"The keys are those method names; the {noun} does not change.")
        changed_doc = voice.docstring(
            voice.pick("changed-since", f"List which parts of the {noun}'s ``overview()`` differ from an earlier one.",
                       f"Compare the {noun}'s current ``overview()`` with an earlier one."),
            params=[("earlier", f"a dict returned by the {noun}'s ``overview()`` before.")],
            returns=f"the names whose value differs, in ``overview()`` order; a name missing from ``earlier`` "
                    f"counts as changed for the {noun}")
        editor = ClassEditor(source, model.name)
        editor.append_methods(f'''
def overview(self) -> dict:
    """{indent_docstring(overview_doc)}"""
    return {{
{entries}
    }}

def changed_since(self, earlier: dict) -> list[str]:
    """{indent_docstring(changed_doc)}"""
    current = self.overview()
    return [name for name, value in current.items() if name not in earlier or earlier[name] != value]
''')
        editor.extend_class_docstring(voice.pick(
            "overview-class",
            f"Overview: ``overview()`` reports {english_list(getters)} of the {noun} together, and "
            "``changed_since()`` lists which of them changed since an earlier overview.",
            f"The {noun}'s {english_list(getters)} can be read together with ``overview()``; ``changed_since()`` "
            "compares two such overviews."))
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        for base in list(context.bases)[:10]:
            steps = prefix_of(base, rng)
            cut = rng.randint(0, len(steps))
            steps = steps[:cut] + [Step("obj", "overview", bind="before")] + steps[cut:]
            steps += [Step("obj", "overview"), Step("obj", "changed_since", (Arg(var="before"),))]
            out.append(base.with_steps(steps, title="changed_since_lists_changed_values", origin=self.name,
                                       focus=("overview", "changed_since")))
        out.append(Scenario(steps=(Step("obj", "overview"), Step("obj", "changed_since", (Arg(literal="{}"),))),
                            title="changed_since_empty_overview_lists_everything", origin=self.name, focus=("changed_since",)))
        return out
