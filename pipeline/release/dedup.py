"""Exact and near-duplicate detection, within a release and against every earlier release.

Exact: two tasks whose reference solutions have the same normalised syntax tree (see `normalise`).
Near: MinHash over shingles of normalised tokens, Jaccard >= 0.85 (the threshold ClassEval-Pro uses).
datasketch's MinHashLSH finds candidate pairs without comparing every pair; each candidate is then
confirmed with the exact Jaccard of the two shingle sets, because an LSH band match is only probable
evidence: its false positives would reject good tasks, and its index is queried at a lower threshold than
the decision so that its false negatives (pairs just above 0.85 that share no band) are rare.

The first task seen wins: earlier releases before this one, then this release's tasks in the order given.
Release assembly gives them in its order of preference (`variants.preference_order`: distinct features,
then the higher mutation score, the task id last), so of two near-duplicates the preferred variant stays,
and the outcome does not depend on the order a build happened to produce them in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.errors import InputError
from core.records import RejectReason, Task
from pipeline.release.normalise import code_tokens, normal_forms, structural_hash
from pipeline.release.task_builder import split_imports


@dataclass(frozen=True)
class DedupSettings:
    """How near is near."""

    threshold: float = 0.85  # Jaccard of shingle sets at or above which two tasks are near duplicates
    shingle_size: int = 5  # tokens per shingle
    num_perm: int = 128  # MinHash permutations
    lsh_threshold: float = 0.7  # candidate retrieval threshold, below `threshold` on purpose (see module doc)


@dataclass(frozen=True)
class DedupFinding:
    """Why one task was dropped: the task it duplicates and how similar they are."""

    task_id: str
    reason: RejectReason  # DUPLICATE or NEAR_DUPLICATE
    matched_task_id: str
    matched_release: str | None  # version of the earlier release, None when within this release
    similarity: float  # 1.0 for exact duplicates, the shingle Jaccard for near ones
    structural_hash: str


@dataclass
class DedupOutcome:
    kept: list[Task] = field(default_factory=list)
    findings: list[DedupFinding] = field(default_factory=list)


NormalForms = Callable[[str], tuple[str, str]]  # source -> (normalised source, structural hash)


@dataclass(frozen=True)
class _Fingerprint:
    structural: str
    shingles: frozenset[str]


def full_source(task: Task) -> str:
    """The solution module as it runs: import lines, then the solution."""
    return "\n".join([*task.import_statement, task.solution_code])


def fingerprint(task: Task, shingle_size: int, forms: NormalForms = normal_forms) -> _Fingerprint:
    source = full_source(task)
    try:
        normal, structural = forms(source)
    except SyntaxError as exc:
        raise InputError(f"task {task.task_id}: solution_code does not parse: line {exc.lineno}: {exc.msg}") from None
    tokens = code_tokens(normal)
    if len(tokens) < shingle_size:
        shingles = frozenset([" ".join(tokens)])
    else:
        shingles = frozenset(" ".join(tokens[i:i + shingle_size]) for i in range(len(tokens) - shingle_size + 1))
    return _Fingerprint(structural, shingles)


def module_structure(source: str, forms: NormalForms | None = None) -> str:
    """The structural hash a task whose reference module is `source` is deduplicated by: its imports moved
    in front, as the released `import_statement` and `solution_code` put them back together (taken from
    `forms` when given). Raises SyntaxError for code that does not parse."""
    imports, solution = split_imports(source)
    module = "\n".join([*imports, solution])
    return structural_hash(module) if forms is None else forms(module)[1]


def released_structures(earlier: Sequence[tuple[str, Task]],
                        forms: NormalForms = normal_forms) -> dict[str, tuple[str, str]]:
    """Structural hash of every released task's solution -> (the release, the task id) that first had it:
    what a class must differ from to be more than an exact duplicate."""
    out: dict[str, tuple[str, str]] = {}
    for version, task in earlier:
        try:
            out.setdefault(forms(full_source(task))[1], (version, task.task_id))
        except SyntaxError as exc:
            raise InputError(f"release {version}, task {task.task_id}: solution_code does not parse: "
                             f"line {exc.lineno}: {exc.msg}") from None
    return out


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def deduplicate(
    tasks: Sequence[Task],
    earlier: Sequence[tuple[str, Task]] = (),
    settings: DedupSettings = DedupSettings(),
    forms: NormalForms = normal_forms,
) -> DedupOutcome:
    """Split `tasks` into kept ones and findings; `earlier` is (release version, task) for every earlier task.
    Of two duplicates, the one earlier in `tasks` is kept (see the module doc). `forms` normalises a
    source (a rebuild passes one that keeps what earlier runs normalised: pipeline/stages/reuse.py)."""
    from datasketch import MinHash, MinHashLSH  # imported here: numpy/scipy import cost

    lsh = MinHashLSH(threshold=settings.lsh_threshold, num_perm=settings.num_perm)
    seen: dict[str, tuple[str | None, _Fingerprint]] = {}  # key -> (release, fingerprint); key = task id
    by_structure: dict[str, str] = {}  # structural hash -> first key

    def minhash(fp: _Fingerprint) -> MinHash:
        mh = MinHash(num_perm=settings.num_perm, seed=1)
        mh.update_batch([s.encode("utf-8") for s in sorted(fp.shingles)])
        return mh

    def remember(key: str, release: str | None, fp: _Fingerprint) -> None:
        seen[key] = (release, fp)
        by_structure.setdefault(fp.structural, key)
        lsh.insert(key, minhash(fp))

    for version, task in earlier:
        key = f"{version}/{task.task_id}"
        if key not in seen:
            remember(key, version, fingerprint(task, settings.shingle_size, forms))

    outcome = DedupOutcome()
    for task in tasks:
        fp = fingerprint(task, settings.shingle_size, forms)
        first = by_structure.get(fp.structural)
        if first is not None:
            release, _ = seen[first]
            outcome.findings.append(DedupFinding(task.task_id, RejectReason.DUPLICATE, first.rsplit("/", 1)[-1],
                                                 release, 1.0, fp.structural))
            continue
        best: tuple[float, str] | None = None
        for key in lsh.query(minhash(fp)):
            similarity = jaccard(fp.shingles, seen[key][1].shingles)
            if similarity >= settings.threshold and (best is None or (similarity, key) > best):
                best = (similarity, key)
        if best is not None:
            similarity, key = best
            outcome.findings.append(DedupFinding(task.task_id, RejectReason.NEAR_DUPLICATE, key.rsplit("/", 1)[-1],
                                                 seen[key][0], round(similarity, 4), fp.structural))
            continue
        remember(f"/{task.task_id}", None, fp)
        outcome.kept.append(task)
    return outcome
