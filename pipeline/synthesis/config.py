"""Typed settings of the offline enhance and compose stages; every field has a working default."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pipeline.synthesis.transforms import REGISTRY


class EnhanceConfig(BaseModel):
    """How many enhanced candidates to make per seed, and with which features."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rng_seed: int = Field(default=20250101, description="Seed of every random choice (features, scenarios).")
    min_features: int = Field(default=1, ge=1, le=3, description="Fewest features woven into one candidate.")
    max_features: int = Field(default=3, ge=1, le=3, description="Most features woven into one candidate.")
    candidates_per_seed: int = Field(default=4, ge=1, le=20, description="Distinct feature sets tried per seed.")
    transforms: tuple[str, ...] = Field(default=tuple(REGISTRY), description="Feature transforms that may be used.")
    max_tests: int = Field(default=36, ge=5, description="Most tests kept per candidate.")

    @model_validator(mode="after")
    def _check(self) -> EnhanceConfig:
        if self.min_features > self.max_features:
            raise ValueError("min_features must not exceed max_features")
        unknown = [t for t in self.transforms if t not in REGISTRY]
        if unknown:
            raise ValueError(f"unknown transforms {unknown}; known: {list(REGISTRY)}")
        return self


class ComposeConfig(BaseModel):
    """How seeds are paired across domains and fused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rng_seed: int = Field(default=20250101, description="Seed of every random choice (pairs, scenarios).")
    max_pairs: int = Field(default=110, ge=0, description="Most pairs of bundled seeds composed in one build; "
                           "pairs holding a mined class are counted apart, up to as many again.")
    max_uses_per_seed: int = Field(default=16, ge=1, description="How often one seed may take part in a pair. "
                                   "A log or a message bus is the natural end of many classes' operations: "
                                   "at 8 the bus took half of its 16 linkable pairs and left the rest uncomposed.")
    composable: dict[str, tuple[str, ...]] = Field(
        default_factory=dict,
        description="Domain -> domains it may be paired with (the registry's composable_with); a domain "
        "missing here, or mapped to an empty tuple, may pair with any other domain.",
    )
    max_links: int = Field(default=3, ge=0, description="Most links (woven or link methods) of one hybrid class; "
                           "the events of several operations handed to one log or bus count as one link, since "
                           "the purpose that names them needs them all (an SLA review hears every ticket change).")
    max_tests: int = Field(default=36, ge=5, description="Most tests kept per candidate.")

    @classmethod
    def from_registry(cls, registry: object, **overrides: object) -> ComposeConfig:
        """Take the composable-domain matrix from the domain registry (`core.domains.DomainRegistry`)."""
        matrix = {d.name: tuple(d.composable_with) for d in registry.domain}  # type: ignore[attr-defined]
        return cls(composable=matrix, **overrides)
