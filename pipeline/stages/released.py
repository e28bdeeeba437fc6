"""What the releases so far hold, as the stages before the release ask it: is this code already released?

The release drops a task whose solution has the same normalised syntax tree as a task of an earlier release
(pipeline/release/dedup.py). A candidate of that code, whatever its origin (a mined class, an enhanced seed,
a composed pair, a repaired candidate), would be gated, repaired and judged only to be dropped there; the
stages ask here first, so that a rebuild spends the sandbox on what is new. The mine stage asks for a
mined class's code before its tests are written; the gate asks for every candidate before the sandbox sees
it, and writes its report as `duplicate` (`released_report`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from core.records import CheckResult, GateReport, RejectReason
from core.store import ArtifactStore
from pipeline.release.assemble import earlier_tasks
from pipeline.release.dedup import NormalForms, module_structure, released_structures
from pipeline.release.versioning import sorted_versions
from pipeline.stages.reuse import normal_forms_in

RELEASED_CHECK = "not_released"  # the gate's check that a candidate's code is not in an earlier release


def released_code(store: ArtifactStore, results: Path | None = None) -> Mapping[str, tuple[str, str]]:
    """The structural hash of every task the artifact tree's releases hold -> (release, task id); with
    `results` (the result store's root), the hashes earlier runs kept there are not computed again."""
    return _released_code(store.root, tuple(sorted_versions(store.existing_releases())), results)


@lru_cache(maxsize=4)
def _released_code(root: Path, versions: tuple[str, ...], results: Path | None) -> Mapping[str, tuple[str, str]]:
    # Read once per process and set of releases (a Prefect task per item opens its stage each time): a
    # release is never rewritten, so the same versions under the same root hold the same tasks.
    return MappingProxyType(released_structures(earlier_tasks(ArtifactStore(root), versions), normal_forms_in(results)))


def released_match(code: str, released: Mapping[str, tuple[str, str]],
                   forms: NormalForms | None = None) -> tuple[str, str] | None:
    """(release, task id) of the released task with this module's normalised syntax tree, or None (also for
    code that does not parse: the candidate's own checks say what is wrong with it). `forms`: where the
    module's normal forms are kept (`normal_forms_in`); a rebuild asks of every candidate several times
    (its result key, whether the driver settles it, its report)."""
    if not released:
        return None
    try:
        return released.get(module_structure(code, forms))
    except SyntaxError:
        return None


def released_report(candidate_id: str, match: tuple[str, str]) -> GateReport:
    """The gate's report on a candidate whose task an earlier release holds: rejected `duplicate`, nothing
    run."""
    version, task_id = match
    detail = f"released in {version} as {task_id} (same normalised syntax tree)"
    return GateReport(candidate_id=candidate_id, passed=False, reasons=(RejectReason.DUPLICATE,),
                      checks=(CheckResult(name=RELEASED_CHECK, value=False, threshold=True, passed=False, detail=detail),),
                      evidence={"matched_release": version, "matched_task_id": task_id})
