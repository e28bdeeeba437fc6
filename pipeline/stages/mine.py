"""The mine stage over the artifact store, one repository at a time: sources -> mined classes -> candidates,
rejections kept.

The unit of work is a repository (`mine_one`): the build maps one Prefect task over each, so the UI shows
progress per repository, a repository whose sandbox or GitHub failed for a passing reason is retried on
its own, and a task runner can spread them. Layout under the run:

- `mined/<mined id>.json` (MinedClass) and `rejections/<id>.json`, per class;
- `mine_built/<candidate id>.json`: the candidate of every kept class, as soon as it is built;
- `mine_work/<repository>.json` (MineWork): the repository is finished, with its counts and kept ids;
- `mine/<candidate id>.json`: the stage's candidates (read by the gate and release like enhance's), chosen
  by `finish_mining` from the finished repositories in source order, at most `[mine] limit` of them;
- `mine.done.json`: the stage's count.

Why candidates wait in `mine_built/`: repositories are mined side by side, so which kept classes fall
within the limit is known only once the repositories before them are finished. A repository whose work
record exists is not mined again, and a kept class whose candidate was built is not built again, so an
interrupted stage resumes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field

from core.analysis.python_need import Supported
from core.domains import DomainRegistry
from core.funnel import StageCount
from core.layout import Folder, Stage, record_file_id
from core.records import Candidate, Record, Rejection, RejectReason
from core.settings import Settings
from core.store import ArtifactStore
from models.client import ModelClient
from pipeline.mining.candidates import build_candidate
from pipeline.mining.derived_docs import derived_documenter
from pipeline.mining.docstrings import write_docstrings
from pipeline.mining.examine import rejection
from pipeline.mining.filters import Drop
from pipeline.mining.github_api import GithubUnavailable
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.sources import active_sources, connect_all, item_source, requested_sources
from pipeline.mining.tally import Tally
from pipeline.mining.well_known import Verdict, reference_corpus, well_known
from pipeline.stages.driver import Counts, RecordStage, RunContext, TransientFailure
from pipeline.stages.released import released_code, released_match
from pipeline.stages.reuse import results_root
from pipeline.synthesis.jobs import error_rejection, never_fatal

# Repository items are "<source>:<name>", the source's name in pipeline/mining/sources.py's registry:
# "local:<path below [mine] local>", "github:<owner/name>".


def mining_configured(config: MineConfig, settings: Settings) -> bool:
    """Whether the stage has a source: one `[mine]` asks for (a local folder, GitHub, ...) that can be read
    (GitHub only with a token, `GITHUB_TOKEN`)."""
    return bool(active_sources(config, token=bool(settings.token())))


def make_documenter(config: MineConfig, settings: Settings | None = None, client: Any = None, *,
                    pool: Any = None) -> Any:
    """The docstring writer of `[mine] docstring_model`, on `client` or the shared model client of
    `settings`' artifact tree; without a model, the offline writer that derives docstrings from observed
    behaviour on `pool`'s sandbox (`[mine] derive_docstrings`), or None when that is off or no sandbox is
    given."""
    if config.docstring_model is None:
        if not config.derive_docstrings or pool is None:
            return None
        return derived_documenter(pool, config.test_rng_seed)
    client = client or ModelClient(settings.model_cache)
    return lambda name, code, missing: (write_docstrings(client, config.docstring_model, config.docstring_api_base,
                                                         name, code, missing) if missing else code)


class MineWork(Record):
    """One finished repository and what it gave."""

    item_id: str = Field(description="local:<path below [mine] local> or github:<owner/name>.")
    repository: str = Field(description="The repository's name, as the mined classes carry it.")
    classes_seen: int = Field(ge=0, description="Classes examined.")
    kept: tuple[tuple[str, str], ...] = Field(default=(), description="(mined id, candidate id) of each kept "
                                              "class, in the order found.")
    rejected: dict[RejectReason, int] = Field(default_factory=dict, description="Rejections per reason.")


@dataclass
class MineResult:
    """What the stage did: its count, the tally, and the kept (mined class, candidate) pairs."""

    count: StageCount
    tally: Tally
    kept: list[tuple[MinedClass, Candidate]] = field(default_factory=list)


def repository_items(config: MineConfig, registry: DomainRegistry, *, github: Any = None,
                     clients: Mapping[str, Any] | None = None) -> list[str]:
    """Every repository to mine, as item ids, source by source in the registry's order: the local folder's
    first (path order), then what the GitHub searches find (in the order found, each once). `clients` holds
    each source's client by name (`github` is the GitHub one's)."""
    clients = _with_github(clients, github)
    return [f"{name}:{repository}" for name, found in requested_sources(config)
            for repository in found.repositories(config, registry, clients.get(name))]


def _with_github(clients: Mapping[str, Any] | None, github: Any) -> dict[str, Any]:
    return {**(clients or {}), **({"github": github} if github is not None else {})}


def supported_by(pool: Any) -> Supported | None:
    """What the pool's interpreter (asked when the pool started) and this process can run and read; None
    without a pool (this process's Python for both)."""
    interpreter = getattr(pool, "interpreter", None)
    return Supported(sandbox=interpreter.minor) if interpreter is not None else None


def _classes(item_id: str, config: MineConfig, registry: DomainRegistry, tally: Tally, *,
             clients: Mapping[str, Any], documenter: Any, supported: Supported | None) -> Iterator[MinedClass | Rejection]:
    found, name = item_source(item_id, config)
    yield from found.mine(name, config, registry, tally, client=clients.get(item_id.partition(":")[0]),
                          documenter=documenter, supported=supported)


def _work_id(item_id: str) -> str:
    return record_file_id(item_id.replace(":", "-", 1))


def _key(source: str | None, path: str | None, class_name: str) -> tuple[str, str, str]:
    return (source or "", path or "", class_name)


def _source(mined: MinedClass) -> str:
    return "github" if mined.url.startswith("https://github.") or "/api/" in mined.url else "git"


def _already_released(mined: MinedClass, released: Mapping[str, tuple[str, str]]) -> Rejection | None:
    """A `duplicate` rejection when an earlier release holds this class's code (the same normalised syntax
    tree): the release would drop its task as such, so its tests are not written nor gated again."""
    match = released_match(mined.slice_code, released)
    if match is None:
        return None
    version, task_id = match
    return rejection(mined.repository, mined.path, mined.class_name, Drop(
        RejectReason.DUPLICATE, f"released in {version} as {task_id} (same normalised syntax tree)",
        {"matched_release": version, "matched_task_id": task_id}))


def _well_known(mined: MinedClass, benchmarks: tuple[Path, ...]) -> Verdict | None:
    """Why a kept class is a well-known implementation (pipeline/mining/well_known.py), against the standard
    library's classes and the build's benchmark files."""
    return well_known(mined.slice_code, mined.class_name, reference_corpus(benchmarks))


def _well_known_rejection(mined: MinedClass, verdict: Verdict) -> Rejection:
    return rejection(mined.repository, mined.path, mined.class_name, Drop(
        RejectReason.WELL_KNOWN, verdict.detail, {"rule": verdict.rule, **verdict.evidence}))


def mine_one(store: ArtifactStore, run_id: str, item_id: str, config: MineConfig, registry: DomainRegistry, *,
             pool: Any, github: Any = None, clients: Mapping[str, Any] | None = None, documenter: Any = None,
             last_attempt: bool = True, released: Mapping[str, tuple[str, str]] | None = None,
             benchmarks: tuple[Path, ...] = ()) -> MineWork:
    """Mine one repository and write its records (see the module's layout); at most `config.limit` classes
    are kept from it, since no more can enter the stage. A class whose code an earlier release holds
    (`released`, from `released_code`) is rejected `duplicate` before its tests are written: a rebuild
    after the repositories moved on spends its sandbox on what is new.

    A passing failure (GitHub unavailable after the client's own retries, a sandbox lost while building a
    candidate: `internal_error`) raises `TransientFailure` while attempts remain, before anything but the
    built candidates is written; on the last attempt it is written as the repository's data. `clients`
    holds each source's client by name (`github` is the GitHub one's).

    A class that is a well-known implementation (`pipeline/mining/well_known.py`, with `benchmarks` in its
    reference corpus) is rejected `well_known` before its tests are written; with `[mine] as_seeds` it is
    built, marked (`generator.parameters["well_known"]`), and may only feed enhance and compose.
    """
    if store.has(run_id, Folder.MINE_WORK, _work_id(item_id)):
        return store.read(run_id, Folder.MINE_WORK, _work_id(item_id), MineWork)
    earlier = {_key(c.provenance.source, c.provenance.path, c.class_name): c
               for _, c in store.iter_records(run_id, Folder.MINE_BUILT, Candidate)}
    # One class's odd code must not end the mine: an unexpected error building its candidate is its
    # internal_error rejection (retried with the repository like a lost sandbox; a sandbox that cannot start
    # still ends the build).
    build = never_fatal(
        lambda mined: [build_candidate(mined, pool=pool, rng_seed=config.test_rng_seed, source=_source(mined),
                                       well_known=_evidence(_well_known(mined, benchmarks)))],
        lambda mined, exc: error_rejection(mined.mined_id, Stage.MINE, exc, repository=mined.repository,
                                           path=mined.path, class_name=mined.class_name))
    tally = Tally()
    found: list[MinedClass] = []
    rejected: list[Rejection] = []
    kept: list[tuple[str, str]] = []
    try:
        for item in _classes(item_id, config, registry, tally, clients=_with_github(clients, github), documenter=documenter,
                             supported=supported_by(pool)):
            if isinstance(item, Rejection):
                rejected.append(item)
                continue
            found.append(item)
            if released and (duplicate := _already_released(item, released)) is not None:
                rejected.append(duplicate)
                continue
            if not config.as_seeds and (known := _well_known(item, benchmarks)) is not None:
                rejected.append(_well_known_rejection(item, known))
                continue
            built = earlier.get(_key(f"mined from {item.origin}", item.path, item.class_name)) or build(item)[0]
            if isinstance(built, Rejection):
                rejected.append(built)
                continue
            store.write(run_id, Folder.MINE_BUILT, built.candidate_id, built)
            kept.append((item.mined_id, built.candidate_id))
            if config.limit is not None and len(kept) >= config.limit:
                break
    except GithubUnavailable as exc:
        if not last_attempt:
            raise TransientFailure(f"mine {item_id}: {exc}") from exc
        rejected.append(rejection(item_id.partition(":")[2], "", "", Drop(RejectReason.SOURCE_UNREADABLE, str(exc))))
    transient = [r for r in rejected if r.reason is RejectReason.INTERNAL_ERROR]
    if transient and not last_attempt:
        raise TransientFailure(f"mine {item_id}: " + "; ".join(r.detail for r in transient))
    for mined in found:
        store.write(run_id, Folder.MINED, mined.mined_id, mined)
    for rejection_record in rejected:
        store.write(run_id, Folder.REJECTIONS, record_file_id(rejection_record.candidate_id), rejection_record)
    work = MineWork(item_id=item_id, repository=tally.repositories[0] if tally.repositories else item_id,
                    classes_seen=tally.classes_seen, kept=tuple(kept),
                    rejected=dict(sorted(Counter(r.reason for r in rejected).items())))
    store.write(run_id, Folder.MINE_WORK, _work_id(item_id), work)
    return work


def _evidence(verdict: Verdict | None) -> dict[str, Any] | None:
    return None if verdict is None else {"rule": verdict.rule, "detail": verdict.detail, **verdict.evidence}


def is_mined(store: ArtifactStore, run_id: str, item_id: str) -> bool:
    return store.has(run_id, Folder.MINE_WORK, _work_id(item_id))


def kept_count(store: ArtifactStore, run_id: str, items: Sequence[str]) -> int:
    """Classes kept by the finished repositories among `items`."""
    return sum(len(store.read(run_id, Folder.MINE_WORK, _work_id(i), MineWork).kept) for i in items if is_mined(store, run_id, i))


def finish_mining(store: ArtifactStore, run_id: str, items: Sequence[str], config: MineConfig) -> MineResult:
    """The stage's candidates and count from the finished repositories among `items` (which are in source
    order): the first `config.limit` kept classes, in that order, are written to `mine/`."""
    works = [store.read(run_id, Folder.MINE_WORK, _work_id(i), MineWork) for i in items if is_mined(store, run_id, i)]
    chosen = [pair for work in works for pair in work.kept][:config.limit]
    kept: list[tuple[MinedClass, Candidate]] = []
    for mined_id, candidate_id in chosen:
        candidate = store.read(run_id, Folder.MINE_BUILT, candidate_id, Candidate)
        if not store.has(run_id, Stage.MINE, candidate_id):
            store.write(run_id, Stage.MINE, candidate_id, candidate)
        kept.append((store.read(run_id, Folder.MINED, mined_id, MinedClass), candidate))
    rejected: Counter[RejectReason] = Counter()
    for work in works:
        rejected.update(work.rejected)
    tally = Tally(repositories=[w.repository for w in works], classes_seen=sum(w.classes_seen for w in works),
                  kept=len(kept), rejected=rejected)
    count = StageCount(received=tally.classes_seen, accepted=tally.kept, rejected=dict(sorted(rejected.items())))
    return MineResult(count, tally, kept)


class MineStage(RecordStage):
    """The mine stage: one item per repository of the configured sources, local folder first.

    Without `[mine] limit` every repository is started at once. With one, repositories go in waves of
    `jobs` (the order they are listed in), and no new wave starts once the finished ones kept enough: the
    stage keeps the first `limit` classes in source order, as a serial run would, without mining every
    repository found for a handful of tasks. `github` (the GitHub source's), `clients` (any source's, by
    name) and `model_client` replace the clients the settings would make (tests).
    """

    stage = Stage.MINE
    reads = ("[mine] local", "GitHub", "the domain registry")

    def __init__(self, *, github: Any = None, clients: Mapping[str, Any] | None = None,
                 model_client: Any = None) -> None:
        self.clients, self.model_client = _with_github(clients, github), model_client
        self.result: MineResult | None = None  # set when this object finished the stage

    def _clients(self, ctx: RunContext) -> dict[str, Any]:
        return connect_all(ctx.config.mine, ctx.settings, self.clients)

    def items(self, ctx: RunContext) -> list[str]:
        return repository_items(ctx.config.mine, ctx.registry, clients=self._clients(ctx))

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return is_mined(ctx.store, ctx.run_id, item)

    @contextmanager
    def open(self, ctx: RunContext, pool: Any) -> Iterator[tuple[Any, Any, Any, Any]]:
        clients = self._clients(ctx)
        documenter = make_documenter(ctx.config.mine, ctx.settings, self.model_client, pool=pool)
        yield pool, clients, documenter, released_code(ctx.store, results_root(ctx))

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> None:
        pool, clients, documenter, released = kit
        mine_one(ctx.store, ctx.run_id, item, ctx.config.mine, ctx.registry, pool=pool, clients=clients,
                 documenter=documenter, last_attempt=last_attempt, released=released,
                 benchmarks=tuple(ctx.config.benchmarks))

    def waves(self, ctx: RunContext, items: Sequence[str]) -> int:
        return len(items) if ctx.config.mine.limit is None else max(1, ctx.config.jobs)

    def enough(self, ctx: RunContext, finished: Sequence[str]) -> bool:
        limit = ctx.config.mine.limit
        return limit is not None and kept_count(ctx.store, ctx.run_id, finished) >= limit

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        self.result = finish_mining(ctx.store, ctx.run_id, items, ctx.config.mine)
        return {self.stage: self.result.count}
