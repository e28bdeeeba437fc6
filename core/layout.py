"""The artifact tree's schema: the name of every stage and of every folder a run holds.

A run's folder is read by later stages, by a resumed attempt, by the report and by the release, so a
folder's name is part of the interface between them; it is spelt once, here. `Stage` names the build's
stages (their funnel steps, progress steps and done markers take the same name); `Folder` names the other
folders stages write (work records of unfinished items, rejections). Both are `StrEnum`s: a member is the
string it names, so it joins paths and record fields unchanged.
"""

from __future__ import annotations

from enum import StrEnum


class Stage(StrEnum):
    """A stage of the build, in build order; its value is its folder under the run and its funnel step."""

    SEEDS = "seeds"
    MINE = "mine"  # runs only when [mine] names a source, and then before enhance and compose
    MINED_SEEDS = "mined_seeds"  # the mined candidates that passed the gate, as seeds (SeedClass) for the two below
    ENHANCE = "enhance"
    COMPOSE = "compose"
    VALIDATE = "validate"
    REPAIR = "repair"
    JUDGE = "judge"
    RELEASE = "release"


class Folder(StrEnum):
    """Folders of a run that are not a stage's own output."""

    REJECTIONS = "rejections"  # one Rejection per candidate that was not released, from any stage
    SYNTHESIS_WORK = "synthesis_work"  # one finished enhance seed or compose pair (SynthesisWork)
    MODEL_WORK = "model_work"  # one finished model-backend item (ModelWork)
    MINED = "mined"  # a mined class (MinedClass)
    MINE_BUILT = "mine_built"  # the candidate of a kept mined class, before the limit chooses
    MINE_WORK = "mine_work"  # one finished repository (MineWork)
    RELEASE_TASKS = "release_tasks"  # the Task of one candidate the release takes, before the release is made


# The stages that make candidates, in the order the gate takes (and the report lists) their candidates.
CANDIDATE_STAGES = (Stage.ENHANCE, Stage.COMPOSE, Stage.MINE)


def done_marker(step: str) -> str:
    """The file a finished stage (or funnel step) leaves in the run folder; a step's name may hold a space
    ("judge checks")."""
    return f"{step.replace(' ', '_')}.done.json"


def record_file_id(record_id: str) -> str:
    """A record id as a file name: seed ids contain '/', which must not become a folder."""
    return record_id.replace("/", "__")
