"""A toy feature transform, registered only by the test that proves a transform is one file plus one line."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Scenario, Step
from pipeline.synthesis.transforms.base import ScenarioContext, prefix_of, require_free_names


class CallTally:
    """Adds `tally()`, which answers 7. Too plain for a release; enough to show that a registered transform is
    chosen, woven in and tested by the enhance stage's own code."""

    name = "toy_call_tally"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, ("tally",))

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        editor = ClassEditor(source, model.name)
        editor.append_methods('''
def tally(self) -> int:
    """Return 7, the toy feature's fixed answer."""
    return 7
''')
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        return [Scenario(ctor_args=base.ctor_args, steps=(*prefix_of(base, context.rng), Step("obj", "tally")))
                for base in list(context.bases)[:10]]
