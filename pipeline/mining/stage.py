"""The mine stage over the artifact store: sources -> mined classes -> candidates, rejections kept.

Layout under the run: `mined/<mined id>.json` (MinedClass), `mine/<candidate id>.json` (Candidate, read by
the gate and release like enhance's and compose's), `rejections/<id>.json`, and `mine.done.json` with the
stage's count. A mined class whose candidate (or rejection) exists is not built again, so an interrupted
stage resumes; the history queries of the local source are repeated (they are cheap next to synthesis).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pipeline import progress
from pipeline.domains import DomainRegistry
from pipeline.errors import InputError
from pipeline.funnel import StageCount
from pipeline.mining.candidates import build_candidate
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally
from pipeline.records import Candidate, Rejection
from pipeline.stages import MINE_STAGE, REJECTIONS
from pipeline.store import ArtifactStore

MINED_STAGE = "mined"


def mining_configured(config: MineConfig) -> bool:
    """Whether the stage has a source: a local folder, or GitHub with a token in the environment."""
    return config.local is not None or (config.github and bool(os.environ.get("GITHUB_TOKEN")))


def make_documenter(config: MineConfig, client: Any = None) -> Any:
    """The docstring writer of `[mine] docstring_model` (None offline), on the shared model client."""
    if config.docstring_model is None:
        return None
    from pipeline import settings
    from pipeline.mining.docstrings import write_docstrings
    from pipeline.models.client import ModelClient

    client = client or ModelClient(settings.artifacts_dir() / "cache" / "models")
    return lambda name, code, missing: write_docstrings(client, config.docstring_model, config.docstring_api_base,
                                                        name, code, missing)


def mined_classes(config: MineConfig, registry: DomainRegistry, tally: Tally, *,
                  github: Any = None, model_client: Any = None) -> Iterator[MinedClass | Rejection]:
    """Every configured source in turn: the local folder first, then GitHub."""
    documenter = make_documenter(config, model_client)
    if config.local is not None:
        from pipeline.mining.local import mine_local

        yield from mine_local(config.local, config, registry, tally, documenter=documenter)
    if config.github:
        from pipeline.mining.github_source import mine_github

        if github is None and not os.environ.get("GITHUB_TOKEN"):
            raise InputError("[mine] github = true needs GITHUB_TOKEN in the environment")
        yield from mine_github(config, registry, tally, client=github, documenter=documenter)


@dataclass
class MineResult:
    """What the stage did: its count, the tally, and the kept (mined class, candidate) pairs."""

    count: StageCount
    tally: Tally
    kept: list[tuple[MinedClass, Candidate]] = field(default_factory=list)


def _file_id(record_id: str) -> str:
    return record_id.replace("/", "__")


def _key(source: str | None, path: str | None, class_name: str) -> tuple[str, str, str]:
    return (source or "", path or "", class_name)


def stage_mine(store: ArtifactStore, run_id: str, config: MineConfig, registry: DomainRegistry, *, pool: Any,
               github: Any = None, model_client: Any = None) -> MineResult:
    """Mine, build candidates, write everything under the run; stops after `config.limit` kept classes."""
    tally = Tally()
    result = MineResult(StageCount(), tally)
    rejected: list[Rejection] = []
    # candidates an earlier attempt of this run built, by where their class came from: not built again
    earlier = {_key(c.provenance.source, c.provenance.path, c.class_name): c
               for _, c in store.iter_records(run_id, MINE_STAGE, Candidate)}
    with progress.step(MINE_STAGE) as step:  # how many classes there are is known only at the end
        for item in mined_classes(config, registry, tally, github=github, model_client=model_client):
            step.advance()
            if isinstance(item, Rejection):
                store.write(run_id, REJECTIONS, _file_id(item.candidate_id), item)
                rejected.append(item)
                continue
            store.write(run_id, MINED_STAGE, item.mined_id, item)
            source = "github" if item.url.startswith("https://github.") or "/api/" in item.url else "git"
            built = earlier.get(_key(f"mined from {item.url}", item.path, item.class_name)) or build_candidate(
                item, pool=pool, rng_seed=config.test_rng_seed, source=source)
            if isinstance(built, Rejection):
                store.write(run_id, REJECTIONS, _file_id(built.candidate_id), built)
                rejected.append(built)
                continue
            store.write(run_id, MINE_STAGE, built.candidate_id, built)
            tally.kept += 1
            result.kept.append((item, built))
            if config.limit is not None and tally.kept >= config.limit:
                break
    tally.rejected.update(r.reason for r in rejected)
    result.count = StageCount(received=tally.classes_seen, accepted=tally.kept,
                              rejected=dict(sorted(tally.rejected.items())))
    return result
