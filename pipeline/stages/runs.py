"""A run is a record of one build: what it started from, what each stage made, and how it ended.

Three rules follow, and this module holds them so that the stages and the flow apply them the same way:

- A run works from what it recorded. The seeds stage writes the seeds the run starts from under `seeds/`;
  every later stage reads those records, never the live corpus, so a seed edited during or between two
  attempts cannot change a run half-way (a changed corpus makes a new run id).
- A run's configuration is written once. Resuming a run under another configuration would mix two builds
  in one folder, so it is refused with the name of the field that differs.
- A finished stage leaves a done marker (`<stage>.done.json`, its count); the release stage's marker is the
  run's outcome. A finished run is never touched again: rerunning it reports the outcome and writes nothing.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from core.domains import DomainRegistry, load_domains
from core.errors import InputError
from core.funnel import Funnel
from core.layout import Stage
from core.records import Record, SeedClass
from core.store import ArtifactStore
from pipeline.stages.config import BuildConfig

CONFIG_FILE = "config.json"
FUNNEL_FILE = "funnel.json"
OUTCOME_FILE = "release.done.json"
REGISTRY_FILE = "domains.json"


class RunOutcome(Record):
    """How a finished run ended: the release it made, or why it made none."""

    run_id: str = Field(description="The run.")
    version: str | None = Field(default=None, description="The release this run made; None when nothing was new.")
    message: str = Field(description="The release stage's one-line summary.")
    released: tuple[str, ...] = Field(default=(), description="Ids of the tasks this run released.")

    def sentence(self) -> str:
        """What a rerun of the finished run prints."""
        if self.version is not None:
            return f"run {self.run_id} already released as {self.version}"
        return f"run {self.run_id} already finished without a release ({self.message})"


def run_dir(store: ArtifactStore, run_id: str) -> Path:
    return store.runs / run_id


def finished_outcome(store: ArtifactStore, run_id: str) -> RunOutcome | None:
    """The outcome of a finished run, or None while the run is new or unfinished."""
    path = run_dir(store, run_id) / OUTCOME_FILE
    if not path.is_file():
        return None
    try:
        return RunOutcome.from_json(path.read_bytes())
    except ValueError as exc:
        raise InputError(f"{path}: not a valid RunOutcome record: {exc}") from None


def record_outcome(store: ArtifactStore, outcome: RunOutcome) -> None:
    """Mark the run finished (written last, after the release and the funnel)."""
    store.write_run_file(outcome.run_id, OUTCOME_FILE, outcome.to_json() + "\n")


def read_funnel(store: ArtifactStore, run_id: str) -> Funnel:
    path = run_dir(store, run_id) / FUNNEL_FILE
    try:
        return Funnel.from_json(path.read_bytes())
    except FileNotFoundError:
        return Funnel(run_id=run_id)
    except ValueError as exc:
        raise InputError(f"{path}: not a valid Funnel record: {exc}") from None


def record_configuration(store: ArtifactStore, run_id: str, config: BuildConfig) -> None:
    """Write the run's configuration the first time; on a resume, refuse a configuration that differs."""
    path = run_dir(store, run_id) / CONFIG_FILE
    text = config.model_dump_json(indent=2) + "\n"
    if not path.is_file():
        store.write_run_file(run_id, CONFIG_FILE, text)
        return
    try:
        recorded = BuildConfig.model_validate_json(path.read_bytes())
    except ValueError as exc:
        raise InputError(f"{path}: not a valid build configuration: {exc}") from None
    if recorded != config and recorded.resumes_as(config):
        store.write_run_file(run_id, CONFIG_FILE, text)  # a raised model budget (or the like) resumes the run
        return
    if recorded != config:
        mine, theirs = config.model_dump(mode="json"), recorded.model_dump(mode="json")
        fields = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
        raise InputError(f"{path}: run {run_id} was started with another configuration (differs in "
                         f"{', '.join(fields)}); resume it with the same one or choose another --run-id")


def run_seeds(store: ArtifactStore, run_id: str) -> tuple[SeedClass, ...]:
    """The seeds the run recorded when it started, in seed id order."""
    seeds = tuple(seed for _, seed in store.iter_records(run_id, Stage.SEEDS, SeedClass))
    if not seeds:
        raise InputError(f"{store.stage_dir(run_id, Stage.SEEDS)}: run {run_id} has no seed records; "
                         "its seeds stage has not run")
    return tuple(sorted(seeds, key=lambda s: s.seed_id))


def run_mined_seeds(store: ArtifactStore, run_id: str) -> tuple[SeedClass, ...]:
    """The mined classes the run took as seeds (`[mine] as_seeds`: those whose candidate passed the gate), in
    seed id order; none when the run mined nothing or keeps mined classes to themselves."""
    seeds = (seed for _, seed in store.iter_records(run_id, Stage.MINED_SEEDS, SeedClass))
    return tuple(sorted(seeds, key=lambda s: s.seed_id))


def record_registry(store: ArtifactStore, run_id: str, registry: DomainRegistry) -> None:
    """Keep the domain registry the run starts from (written with its seeds), so that an edit to the live
    registry between two attempts cannot change the pairs or the mining of a run that resumes."""
    store.write_run_file(run_id, REGISTRY_FILE, registry.model_dump_json(indent=2) + "\n")


def run_registry(store: ArtifactStore, run_id: str, settings) -> DomainRegistry:  # noqa: ANN001 - Settings
    """The domain registry the run recorded. A run started before registries were recorded gets the live
    one (`settings.domains`) recorded now, so that from here on it keeps it."""
    path = run_dir(store, run_id) / REGISTRY_FILE
    if path.is_file():
        try:
            return DomainRegistry.model_validate_json(path.read_bytes())
        except ValueError as exc:
            raise InputError(f"{path}: not a valid domain registry: {exc}") from None
    registry = load_domains(settings.domains)
    record_registry(store, run_id, registry)
    return registry
