"""A model's composition carries its parts, recovered from its two seeds, so that the gate's seam check
(validation/seam.py) holds it to what it holds the offline compositions to: through litellm against the
scripted model server, with the real gate in the sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from scripted_models import HYBRID_MODULE, StrongModel

from core import settings
from core.analysis.parts import part_members
from core.domains import load_domains
from core.records import RejectReason
from models.client import ModelClient
from models.config import ModelsConfig
from models.conversation import Conversation
from models.prompts import load_prompt
from pipeline.corpus.seeds import load_seed
from pipeline.stages.config import BuildConfig
from pipeline.stages.model import compose_blueprints
from pipeline.synthesis.model_making import make_candidate
from tests.emulators.chat import ChatEmulator
from validation.gate import validate_candidate
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool

SEEDS = settings.PROJECT_ROOT / "seeds"
POLICY = GatePolicy(run_mutation=False, robustness=False, faithful_variants=False, min_line_coverage=0.0,
                    min_interaction_edge_coverage=0.0, min_methods_on_one_instance=0,
                    require_interaction_edges=False, max_vacuous_share=1.0, method_deletion=False)

# The scripted hybrid with `record` no longer converting: the histogram half bins what it is given and the
# converter half converts for nobody. Both halves work, side by side.
SIDE_BY_SIDE = HYBRID_MODULE.replace("base = self.convert(value, unit, self.base_unit)",
                                     "base = value").replace("return self.convert(sum(self.values) / len(self.values), "
                                                             "self.base_unit, unit)", "return sum(self.values) / len(self.values)")
SIDE_BY_SIDE_TESTS = '''import pytest

from MODULE import ConversionError, NAME


def test_units_grow():
    r = NAME("m", 0, 10, 5)
    r.define_unit("km", 1000)
    assert r.units() == ["km", "m"]
    assert r.convert(2, "km", "m") == 2000


def test_record_bins_and_counts():
    r = NAME("m", 0, 10, 5)
    assert r.record(3, "m") == 1
    assert r.count(1) == 1 and r.total() == 1
    assert r.mean("m") == 3


def test_clear_forgets():
    r = NAME("m", 0, 10, 5)
    r.record(3, "m")
    r.clear()
    assert r.total() == 0
    with pytest.raises(ConversionError):
        r.count(7)
'''


class SideBySide(StrongModel):
    """The strong model, answering with the side-by-side hybrid and tests that pass it."""

    def hybrid(self, name: str, text: str) -> str:
        text = {HYBRID_MODULE: SIDE_BY_SIDE}.get(text, text)
        if "def test_units_start_with_the_base_unit_and_grow" in text:
            text = SIDE_BY_SIDE_TESTS
        return text.replace("NAME", name)


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(jobs=1, limits=POLICY.limits()) as sandbox:
        yield sandbox


def _blueprint():
    a = load_seed(SEEDS / "Math_Stats" / "histogram", "Math_Stats")
    b = load_seed(SEEDS / "Utils_Tools" / "unit_converter", "Utils_Tools")
    config = BuildConfig(compose={"max_pairs": 1})
    [blueprint] = compose_blueprints([a, b], config, load_domains(SEEDS / "domains.toml"))
    return blueprint


def _made(tmp_path: Path, model: StrongModel, pool: SandboxPool):
    blueprint = _blueprint()
    with ChatEmulator(model) as server:
        models = ModelsConfig(backend="model", model="openai/strong-1", api_base=server.base_url)
        client = ModelClient(tmp_path / "cache", max_retries=0, backoff_s=0.0, sleep=lambda s: None)
        return make_candidate(blueprint, Conversation(client, models),
                              lambda candidate: validate_candidate(candidate, POLICY, pool))


def test_parts_are_found_by_name_then_by_the_fields_the_methods_use():
    blueprint = _blueprint()
    assert [name for name, _ in blueprint.seeds] == ["Histogram", "UnitConverter"]
    parts = part_members(HYBRID_MODULE.replace("NAME", "H"), "H", blueprint.seeds)
    # `counts`, `low`, `high` are the histogram's fields by name (`_counts` there), and the methods that use
    # them, and then the fields those use, join it; `record` calls the converter's `convert` but touches
    # only the histogram's fields. `factors` is the converter's through the methods named as its.
    assert parts == {"Histogram": {"methods": ["record", "count", "total", "mean", "clear"],
                                   "fields": ["base_unit", "low", "high", "bins", "counts", "values"]},
                     "UnitConverter": {"methods": ["define_unit", "units", "convert"], "fields": ["factors"]}}
    assert part_members("class H:\n    def run(self):\n        self.x = 1\n", "H", blueprint.seeds) is None


def test_a_model_composition_is_held_to_the_seam_check(tmp_path: Path, pool: SandboxPool) -> None:
    outcome = _made(tmp_path, StrongModel(), pool)
    candidate, report = outcome.candidate, outcome.report
    assert set(candidate.generator.parameters["parts"]) == {"Histogram", "UnitConverter"}
    check = report.check("seam_interaction")
    assert check is not None and check.gated and check.passed and check.value >= 1, check
    directions = report.evidence["seam_interaction"]["directions"]
    assert directions["UnitConverter -> Histogram"]["tests"] >= 1  # `record` bins a converted value


def test_a_model_composition_of_two_halves_side_by_side_is_rejected(tmp_path: Path, pool: SandboxPool) -> None:
    outcome = _made(tmp_path, SideBySide(), pool)
    report = outcome.report
    assert "parts" in outcome.candidate.generator.parameters
    assert RejectReason.INCOHERENT_FUSION in report.reasons, report.reasons
    directions = report.evidence["seam_interaction"]["directions"]
    assert directions and all(row["edges"] == 0 for row in directions.values())


def test_a_composition_prompt_asks_for_the_links_the_seeds_declare_and_why_the_parts_belong_together():
    sandpile = load_seed(SEEDS / "Game_Sim" / "sandpile_grid", "Game_Sim")
    histogram = load_seed(SEEDS / "Math_Stats" / "histogram", "Math_Stats")
    [linked] = compose_blueprints([sandpile, histogram], BuildConfig(compose={"max_pairs": 1}),
                                  load_domains(SEEDS / "domains.toml"))
    prompt = load_prompt("compose_skeleton")
    text = " ".join(prompt.render(**linked.skeleton_values, min_methods=6)[-1]["content"].split())
    assert ("- build it around what the seeds declare links them, inside the producing operation where that reads "
            "naturally") in text
    assert ("- SandpileGrid.drop gives the number of topplings a drop sets off, which Histogram.add takes as `value`: "
            "avalanche sizes are what a sandpile simulation is run to measure") in text
    assert "- the class docstring opens by saying in plain words why the two belong together" in text
    # a pair whose seeds declare nothing that links them leaves the model to find its own link
    assert _blueprint().skeleton_values["links"] == ""
