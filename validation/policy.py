"""`GatePolicy`: the validation gate's thresholds and switches, typed and documented, with the defaults of
issue 3. A build configuration or the CLI can override any field; the report records the values applied."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from validation.sandbox.job import Limits


class GatePolicy(BaseModel):
    """What a candidate must show to pass the validation gate."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_line_coverage: float = Field(0.90, ge=0, le=1, description="Line coverage must be strictly above this.")
    min_interaction_edge_coverage: float = Field(
        0.75, ge=0, le=1, description="Exercised / static interaction edges must be at least this."
    )
    min_methods_on_one_instance: int = Field(
        3, ge=0, description="At least one test must drive this many distinct methods (not __init__) on one instance."
    )
    require_interaction_edges: bool = Field(
        True, description="A class with no static interaction edge fails the interaction check (nothing to exercise)."
    )
    max_vacuous_share: float = Field(
        0.10, ge=0, le=1, description="Share of tests allowed to pass against the NotImplementedError skeleton."
    )
    min_mutation_score: float | None = Field(
        None, ge=0, le=1, description="Gate on mutation score only when set; the score is reported always."
    )
    run_mutation: bool = Field(True, description="Measure the mutation score (costs one run per mutant).")
    max_mutants: int | None = Field(
        40, ge=0, description="Reproducible random sample of at most this many mutants (None: all of them)."
    )
    mutant_schemata: bool = Field(
        True, description="Run mutants from one module that switches between them (validation.schemata); false: "
                          "each mutant from its own source, the way kept as the baseline of benchmarks and tests.",
    )
    faithful_variants: bool = Field(
        True, description="Run faithful variants of the reference (validation/faithful/): a test that fails one "
                          "checks what the skeleton does not state, and the candidate is rejected overspecified_tests.",
    )
    method_deletion: bool = Field(
        True, description="Replace each public method's body by `pass` (validation/method_deletion.py): a method "
                          "no test calls, or whose deletion no test fails, rejects the candidate untested_method.",
    )
    robustness: bool = Field(
        True, description="Rerun with another hash seed and shuffled order, and on a moved clock / other user and host."
    )
    shuffle_seed: int = Field(20250101, description="Seed of the shuffled test order of the robustness run.")
    allow_skipped: bool = Field(False, description="Count skipped tests as acceptable (default: a skip is not a pass).")
    per_test_seconds: float = Field(10.0, gt=0, description="Time limit of one test.")
    wall_seconds: float = Field(60.0, gt=0, description="Time limit of one run of the whole suite.")
    memory_mb: int = Field(1024, gt=64, description="Address-space limit of a run, in MiB.")

    def limits(self) -> Limits:
        """The sandbox limits this policy asks for."""
        return Limits(
            wall_seconds=self.wall_seconds,
            per_test_seconds=self.per_test_seconds,
            cpu_seconds=int(self.wall_seconds) + 5,
            memory_bytes=self.memory_mb << 20,
        )
