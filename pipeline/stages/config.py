"""Typed build configuration, read from an optional TOML file; every field has a working default.

The defaults are the embedded offline build: bundled seeds, offline backends, a fixed RNG seed.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from core.errors import InputError
from core.records import content_hash
from core.tomlfile import load_toml_model
from judges.config import JudgesConfig
from models.config import ModelsConfig
from pipeline.mining.records import MineConfig
from pipeline.mining.shape import ShapeLimits
from pipeline.release.assemble import ReleaseConfig
from pipeline.synthesis.config import ComposeConfig, EnhanceConfig
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool
from validation.sandbox.interpreter import Interpreter, InterpreterError, interpreter_for


class CacheConfig(BaseModel):
    """`[cache]`: the stages' results kept across runs by content (core/results.py). Not part of a run's
    identity nor of a release: a result reused is byte for byte the one computed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = Field(default=True, description="Reuse a result an earlier run computed for the same inputs.")
    path: Path | None = Field(default=None, description="Where the results are kept (shared by builds that "
                              "name it); None: the artifacts folder's cache/results.")

# Release settings added after run ids were first recorded: at their defaults they are left out of a run's
# identity, so the runs of earlier builds keep their ids.
RELEASE_SETTINGS_ADDED = ("max_variants_per_family", "citation_title", "citation_author", "citation_url")


class BuildConfig(BaseModel):
    """Settings of one build. Unknown keys are refused so that a misspelt setting is not silently ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rng_seed: int = Field(
        default=20250101,
        description="Seed of every random choice in the build; it replaces the rng_seed of [enhance] and [compose].",
    )
    domains: tuple[str, ...] = Field(default=(), description="Restrict to these domains; empty = all.")
    jobs: int = Field(default=2, ge=1, description="Parallel sandbox workers.")
    sandbox_python: Path | None = Field(
        default=None, description="The interpreter that runs sandboxed code (a path, e.g. a virtual environment's "
        "python with or without pytest and coverage); None: the project's own. A class needing a newer Python is "
        "rejected as unsupported_syntax.")
    enhance: EnhanceConfig = Field(default_factory=EnhanceConfig, description="Stage 1: feature transforms per seed.")
    compose: ComposeConfig = Field(default_factory=ComposeConfig, description="Stage 2: cross-domain pairs.")
    gate: GatePolicy = Field(default_factory=GatePolicy, description="Thresholds of the validation gate.")
    judges: JudgesConfig = Field(default_factory=JudgesConfig, description="The judge panel on the gate's survivors.")
    release: ReleaseConfig = Field(default_factory=ReleaseConfig, description="Deduplication, decontamination, card.")
    benchmarks: tuple[Path, ...] = Field(
        default=(), description="ClassEval-format files of public benchmarks to decontaminate against (local files)."
    )
    mine: MineConfig = Field(default_factory=MineConfig, description="Stage 3: mining (off without a source).")
    repair: bool = Field(default=True, description="Give a candidate that fails on coverage or interaction one "
                         "round of oracle tests aimed at what its report found missing.")
    models: ModelsConfig = Field(default_factory=ModelsConfig,
                                 description="Model backends, models per role and budget (models/config.py).")
    cache: CacheConfig = Field(default_factory=CacheConfig, description="Results reused across runs by content.")

    def sandbox_interpreter(self) -> Interpreter:
        """The sandbox's interpreter, asked what it is; InputError naming `sandbox_python` when it cannot be."""
        try:
            return interpreter_for(self.sandbox_python)
        except InterpreterError as exc:
            raise InputError(f"sandbox_python: {exc}") from None

    def sandbox_pool(self, jobs: int | None = None) -> SandboxPool:
        """A sandbox pool with this build's workers, limits and interpreter."""
        self.sandbox_interpreter()  # a bad setting is an input error, not a pool that fails to start
        return SandboxPool(jobs=jobs or self.jobs, limits=self.gate.limits(), python=self.sandbox_python)

    def enhance_config(self) -> EnhanceConfig:
        return self.enhance.model_copy(update={"rng_seed": self.rng_seed})

    def compose_config(self, registry: object) -> ComposeConfig:
        """The [compose] settings with the registry's composable-domain matrix (unless configured) and the seed."""
        matrix = self.compose.composable or ComposeConfig.from_registry(registry).composable
        return self.compose.model_copy(update={"rng_seed": self.rng_seed, "composable": matrix})

    def _identity(self) -> dict:
        settings = self.model_dump(mode="json", exclude={"models", "sandbox_python", "cache"})
        if self.sandbox_python is not None:  # unset, it keeps the run ids of builds made before the setting
            settings["sandbox_python"] = str(self.sandbox_python)
        for name in ("as_seeds", "derive_docstrings"):  # at their defaults they keep the run ids of builds
            if getattr(self.mine, name):                 # made before the settings existed
                del settings["mine"][name]
        if self.gate.method_deletion:  # likewise
            del settings["gate"]["method_deletion"]
        if self.mine.shape.min_dependent_methods == ShapeLimits().min_dependent_methods:
            del settings["mine"]["shape"]["min_dependent_methods"]
        defaults = ReleaseConfig()
        for name in RELEASE_SETTINGS_ADDED:  # likewise the release's settings added since
            if getattr(self.release, name) == getattr(defaults, name):
                del settings["release"][name]
        if self.models.uses_models:  # offline builds keep their run ids; the budget never changes a run's id
            settings["models"] = self.models.run_identity()
        return settings

    def resumes_as(self, other: BuildConfig) -> bool:
        """True when `other` may resume a run started under this configuration: they differ at most in what
        does not change what a run makes (the model budget, the cache switch, where models are served)."""
        return self._identity() == other._identity()

    def recorded(self) -> dict:
        """The configuration as a release records it: where results are cached changes nothing released."""
        return self.model_dump(mode="json", exclude={"cache"})

    def fingerprint(self) -> str:
        """Digest of the settings, part of the default run id so that changed settings start a new run."""
        return content_hash(self._identity(), length=10)


def load_config(path: Path | None) -> BuildConfig:
    """Read a TOML configuration file (or return the defaults); errors name the file and field."""
    return BuildConfig() if path is None else load_toml_model(path, BuildConfig, "configuration file")
