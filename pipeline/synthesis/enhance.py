"""Stage 1, offline: weave one to three feature transforms into each seed class and synthesise its tests.

For each seed: check every transform's preconditions (one that does not fit is skipped, and the skip and
its reason are recorded with the seed's candidates), harvest argument pools from its own tests (sandbox),
choose feature sets with a seeded RNG (distinct, compatible, applicable), apply them with libcst in the
application order, and let the oracle write the tests. A transform that cannot be applied, or a job that
fails, yields a `Rejection`, never an exception.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

from core.analysis.class_model import ClassModel, analyse
from core.analysis.cst_edit import EditError
from core.analysis.python_need import requires_python
from core.analysis.skeleton import make_skeleton
from core.layout import Stage
from core.records import (
    Candidate,
    GeneratorSpec,
    Origin,
    Rejection,
    RejectReason,
    SeedClass,
    content_hash,
    seed_provenance,
)
from pipeline.corpus.classeval import imported
from pipeline.synthesis import transforms as registry
from pipeline.synthesis.config import EnhanceConfig
from pipeline.synthesis.jobs import JobFailed, error_rejection, never_fatal
from pipeline.synthesis.stated_orders import unordered_methods
from pipeline.synthesis.testgen import MIN_TESTS, synthesize_tests
from pipeline.synthesis.tracing import ArgumentPools, harvest, replay_scenarios
from pipeline.synthesis.transforms.base import FEATURE_FIELDS, ScenarioContext, TransformError
from validation.sandbox import SandboxPool

STAGE = Stage.ENHANCE


def feature_sets(applicable: Sequence[str], config: EnhanceConfig, rng: random.Random) -> list[tuple[str, ...]]:
    """Distinct compatible feature sets, sizes spread over [min, max], in a seeded order."""
    by_size: dict[int, list[tuple[str, ...]]] = {}
    for size in range(config.min_features, config.max_features + 1):
        combos = [c for c in itertools.combinations(applicable, size)
                  if not any(pair <= set(c) for pair in registry.INCOMPATIBLE)]
        rng.shuffle(combos)
        by_size[size] = combos
    chosen: list[tuple[str, ...]] = []
    sizes = list(range(config.min_features, config.max_features + 1))
    while len(chosen) < config.candidates_per_seed and any(by_size.values()):
        for size in sizes:
            if by_size[size] and len(chosen) < config.candidates_per_seed:
                chosen.append(tuple(registry.canonical_order(by_size[size].pop())))
    return chosen


def apply_features(source: str, class_name: str, names: Sequence[str]) -> str:
    for name in registry.application_order(list(names)):
        source = registry.get(name).apply(source, analyse(source, class_name, FEATURE_FIELDS))
    compile(source, f"<{class_name}>", "exec")
    return source


def _rejection(seed: SeedClass, names: Sequence[str], rng_seed: int, detail: str, **evidence: Any) -> Rejection:
    return Rejection(
        candidate_id="enh-" + content_hash(seed.seed_id, list(names), rng_seed),
        stage=STAGE,
        reason=RejectReason.GENERATION_FAILED,
        detail=detail[:300],
        evidence={"seed_id": seed.seed_id, "transforms": list(names), "rng_seed": rng_seed, **evidence},
    )


def _public_names(source: str, class_name: str) -> set[str]:
    model = analyse(source, class_name)
    return {m.name for m in model.public_methods()}


def skipped_transforms(model: ClassModel, names: Sequence[str]) -> dict[str, dict[str, str]]:
    """Transform name -> {"reason": code, "detail": message} for every one of `names` whose preconditions the
    class does not meet; the others apply. Recorded with the seed's candidates (and its rejection when
    none applies), so that a transform that does not fit is skipped visibly, never woven in broken."""
    skipped: dict[str, dict[str, str]] = {}
    for name in names:
        try:
            registry.get(name).check(model)
        except TransformError as exc:
            skipped[name] = {"reason": exc.reason, "detail": str(exc)[:300]}
    return skipped


def enhance_one(seed: SeedClass, names: Sequence[str], config: EnhanceConfig, pools: ArgumentPools, *,
                pool: SandboxPool, skipped: dict[str, dict[str, str]] | None = None) -> Candidate | Rejection:
    """One enhanced candidate of `seed` with the features `names`; `skipped` (the transforms that do not fit
    the seed, with their reasons) is recorded in the candidate's generator parameters."""
    rng = random.Random(f"{config.rng_seed}:{seed.seed_id}:{'+'.join(names)}")
    try:
        solution = apply_features(seed.source, seed.class_name, names)
    except (TransformError, EditError, SyntaxError) as exc:
        return _rejection(seed, names, config.rng_seed, f"transform failed: {exc}", error=str(exc))
    model = analyse(solution, seed.class_name, FEATURE_FIELDS)
    bases = replay_scenarios(pools)

    def sample(method: str):  # noqa: ANN202 - StepSampler
        observed = pools.sample(method, rng)
        return observed.step() if observed else None

    context = ScenarioContext(model=model, bases=bases, sample=sample, rng=rng)
    extra = [s for name in registry.canonical_order(list(names)) for s in registry.get(name).scenarios(context)]
    try:
        result = synthesize_tests(pool, source=solution, module=seed.module_name, model=model, pools=pools,
                                  extra=extra, rng=rng, max_tests=config.max_tests,
                                  unordered=unordered_methods(solution, seed.class_name) if imported(seed)
                                  else frozenset())
    except JobFailed as exc:
        return _rejection(seed, names, config.rng_seed, f"oracle run failed: {exc}", error=str(exc))
    if result.tests < MIN_TESTS:
        return _rejection(seed, names, config.rng_seed, f"only {result.tests} tests written", tests=result.tests,
                          **result.defects_recorded())
    skeleton = make_skeleton(solution, seed.class_name)
    feature_words = ", ".join(n.replace("_", " ") for n in names)
    return Candidate(
        candidate_id=Candidate.make_id(seed.class_name, solution, result.test_code),
        class_name=seed.class_name,
        module_name=seed.module_name,
        domains=(seed.domain,),
        description=f"{seed.description} Extended with: {feature_words}.",
        skeleton=skeleton,
        solution_code=solution,
        test_code=result.test_code,
        origin=Origin.ENHANCED,
        provenance=seed_provenance(seed, seed_ids=(seed.seed_id,), transforms=tuple(names), rng_seed=config.rng_seed,
                                   source=seed.provenance.source),
        generator=GeneratorSpec(backend="offline", parameters={"stage": STAGE, "features": list(names),
                                                               "scenarios_run": result.scenarios_run,
                                                               "skipped_transforms": dict(skipped or {}),
                                                               **result.defects_recorded()}),
        requires_python=requires_python(solution, result.test_code),
    )


def seed_pools(seed: SeedClass, *, pool: SandboxPool) -> ArgumentPools:
    """Argument pools of a seed, harvested from its own tests in the sandbox (raises JobFailed)."""
    return harvest(pool, source=seed.source, tests=seed.tests, module=seed.module_name,
                   class_name=seed.class_name, public=_public_names(seed.source, seed.class_name))


def enhance_seed(seed: SeedClass, config: EnhanceConfig, *, pool: SandboxPool) -> list[Candidate | Rejection]:
    """The enhance stage's work for one seed: its candidates (or rejections) in feature-set order. An
    unexpected error becomes the seed's rejection (`never_fatal`), so one seed never ends the stage."""
    def failed(item: SeedClass, exc: Exception) -> Rejection:
        return error_rejection("enh-" + content_hash(item.seed_id, "error", config.rng_seed), STAGE, exc,
                               seed_id=item.seed_id, rng_seed=config.rng_seed)

    return never_fatal(lambda item: list(_enhance_seed(item, config, pool)), failed)(seed)


def _enhance_seed(seed: SeedClass, config: EnhanceConfig, pool: SandboxPool) -> Iterator[Candidate | Rejection]:
    try:
        model = analyse(seed.source, seed.class_name, FEATURE_FIELDS)
    except (SyntaxError, LookupError) as exc:
        yield _rejection(seed, (), config.rng_seed, f"seed does not analyse: {exc}")
        return
    skipped = skipped_transforms(model, config.transforms)
    applicable = [name for name in config.transforms if name not in skipped]
    if not applicable:
        yield _rejection(seed, (), config.rng_seed, "no feature transform applies to this class",
                         skipped_transforms=skipped)
        return
    try:
        pools = seed_pools(seed, pool=pool)
    except JobFailed as exc:
        yield _rejection(seed, (), config.rng_seed, f"argument harvest failed: {exc}")
        return
    rng = random.Random(f"{config.rng_seed}:{seed.seed_id}")
    for names in feature_sets(registry.canonical_order(applicable), config, rng):
        yield enhance_one(seed, names, config, pools, pool=pool, skipped=skipped)
