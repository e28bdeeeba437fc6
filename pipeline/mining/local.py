"""The local source: every git repository under a folder (clones, bare mirrors, partial clones).

Per repository, cheapest first: the licence (one blob), then every Python file of HEAD read in one
`cat-file --batch`, parsed and put through the shared filters (`examine`), and only for the survivors the
history queries that date them (`freshness`). An absent blob costs its file; a history query that fails
costs its class; neither ends the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timezone
from pathlib import Path

from core.analysis.python_need import Supported
from core.domains import DomainRegistry
from core.errors import InputError
from core.records import Rejection, RejectReason
from pipeline.mining.domain import match_domain
from pipeline.mining.examine import (
    Documenter,
    Passed,
    description_of,
    docstring_author,
    documented_slice,
    examine_source,
    rejection,
    tests_using,
    vendored_rejections,
)
from pipeline.mining.filters import Drop
from pipeline.mining.freshness import first_appearance, first_by_names
from pipeline.mining.gitrepo import GitError, GitRepo, TreeEntry, find_repositories
from pipeline.mining.licence import NONE, is_allowed, licence_files, spdx_of_text
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.repo_imports import RepositoryModules
from pipeline.mining.shape import is_test_path
from pipeline.mining.tally import Tally
from pipeline.mining.vendored import split_vendored

README_NAMES = ("readme.md", "readme.rst", "readme.txt", "readme")
BLOB_BATCH = 500


def cutoff_timestamp(config: MineConfig) -> int:
    return int(datetime(config.since.year, config.since.month, config.since.day, tzinfo=timezone.utc).timestamp())


def _root_text(repo: GitRepo, entries: list[TreeEntry], names: list[str]) -> str:
    chosen = next((e for name in names for e in entries if e.path == name), None)
    if chosen is None:
        return ""
    data = repo.read_blobs([chosen.blob]).get(chosen.blob)
    return data.decode("utf-8", "replace") if data else ""


def repository_licence(repo: GitRepo, entries: list[TreeEntry]) -> str:
    """SPDX id of the repository's licence file at HEAD; 'none' without one, 'unknown' when unreadable."""
    files = licence_files([e.path for e in entries])
    if not files:
        return NONE
    return spdx_of_text(_root_text(repo, entries, files[:1]))


def _read_python(repo: GitRepo, entries: list[TreeEntry]) -> dict[str, bytes | None]:
    """path -> the file's bytes (None for an absent blob), read in batches; decoded by `examine_source`,
    which turns a file that is not UTF-8 into a rejection instead of replacement characters in its code."""
    out: dict[str, bytes | None] = {}
    for start in range(0, len(entries), BLOB_BATCH):
        batch = entries[start:start + BLOB_BATCH]
        blobs = repo.read_blobs([e.blob for e in batch])
        for entry in batch:
            out[entry.path] = blobs.get(entry.blob)
    return out


def _test_sources(sources: dict[str, bytes | None]) -> dict[str, str]:
    """The test modules that are readable UTF-8 (only read for the imports of a kept class)."""
    out = {}
    for path, data in sources.items():
        if data is not None and is_test_path(path):
            try:
                out[path] = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                continue
    return out


def mine_repository(path: Path, config: MineConfig, registry: DomainRegistry, tally: Tally,
                    name: str | None = None, documenter: Documenter | None = None,
                    supported: Supported | None = None) -> Iterator[MinedClass | Rejection]:
    """Kept classes and rejections of one local repository (`supported`: what the sandbox can run)."""
    repo = GitRepo(path)
    repository = name or path.name.removesuffix(".git")
    try:
        head = repo.head()
        entries = repo.tree(head)
    except GitError as exc:
        tally.repository(repository)
        yield rejection(repository, "", "", Drop(RejectReason.SOURCE_UNREADABLE, str(exc)))
        return
    tally.repository(repository)
    licence = repository_licence(repo, entries)
    if not is_allowed(licence, config.licences):
        yield rejection(repository, "", "", Drop(RejectReason.LICENCE_NOT_ALLOWED,
                                                 f"licence {licence} is not on the allow-list", {"licence": licence}))
        return
    readme = _root_text(repo, entries, [e.path for e in entries if e.path.lower() in README_NAMES][:1])
    for link in repo.links(head):
        if link.path.endswith(".py"):
            yield rejection(repository, link.path, "", Drop(
                RejectReason.SOURCE_UNREADABLE, "a symbolic link, not a file: not followed (a loop or a path outside "
                "the repository would be read through it; its target is mined where it lives)"))
    own, vendored = split_vendored([e.path for e in entries if e.path.endswith(".py")])
    yield from vendored_rejections(repository, vendored)
    kept = set(own)
    python = [e for e in entries if e.path in kept]
    sources = _read_python(repo, python)
    test_sources = _test_sources(sources)
    repo.unreadable = {p for p, s in sources.items() if s is None}
    cutoff = cutoff_timestamp(config)
    url = repo.origin_url() or str(path)
    survivors: list[tuple[str, Passed, str]] = []  # (path, class, domain): what the history queries date
    modules = RepositoryModules(sources, config.max_file_bytes)  # slices follow imports of these
    for file_path, source in sorted(sources.items()):
        for outcome in examine_source(file_path, source, config, supported=supported, repository=modules,
                                      test_sources=test_sources,
                                      require_docstrings=config.require_docstrings and documenter is None):
            if not isinstance(outcome, Passed):
                class_name, drop = outcome
                if class_name:
                    tally.class_seen()
                yield rejection(repository, file_path, class_name, drop)
                continue
            tally.class_seen()
            unit = outcome.unit
            domain, scores = match_domain(registry, class_names=[unit.name, file_path, *unit.method_names],
                                          context=[repository, readme[:20000]], allowed=config.domains)
            if domain is None:
                yield rejection(repository, file_path, unit.name, Drop(
                    RejectReason.NO_DOMAIN, "no selected domain's keywords match", {"scores": scores}))
                continue
            survivors.append((file_path, outcome, domain))
    by_name = _names_at_once(repo, [passed.unit.name for _, passed, _ in survivors])
    for file_path, outcome, domain in survivors:
        unit = outcome.unit
        try:
            known = by_name.get(unit.name) if by_name is not None else None
            first = (first_appearance(repo, unit.name, unit.code, cutoff, by_name=known) if by_name is not None
                     else first_appearance(repo, unit.name, unit.code, cutoff))
        except GitError as exc:
            yield rejection(repository, file_path, unit.name, Drop(RejectReason.SOURCE_UNREADABLE, str(exc)))
            continue
        if first.timestamp < cutoff:
            yield rejection(repository, file_path, unit.name, Drop(
                RejectReason.NOT_FRESH, f"first appeared {first.date} in {first.commit[:12]} (by {first.how})",
                {"first_commit": first.commit, "first_commit_date": first.date, "found_by": first.how}))
            continue
        code = documented_slice(unit, outcome.piece, documenter)  # after the date: only fresh classes cost a call
        if isinstance(code, Drop):
            yield rejection(repository, file_path, unit.name, code)
            continue
        yield MinedClass(repository=repository, url=url, path=file_path, class_name=unit.name, commit=head,
                         licence=licence, first_commit=first.commit, first_commit_date=first.date,
                         found_by=first.how, domain=domain, slice_code=code,
                         repo_tests=tests_using(unit.name, test_sources), description=description_of(unit),
                         docstrings_by=docstring_author(config) if code != outcome.piece.code else None,
                         inlined=outcome.piece.inlined)


def _names_at_once(repo: GitRepo, names: list[str]):  # noqa: ANN202 - dict[str, Appearance] | None
    """Every survivor's name query in one history walk, or None when that walk cannot read the history
    (then each class asks on its own, so that an unreadable object costs only the classes that need it)."""
    if not names:
        return {}
    try:
        return first_by_names(repo, names)
    except GitError:
        return None


def local_repositories(root: Path) -> list[tuple[str, Path]]:
    """(name, path) of every repository under `root`, in path order; the name is the path below `root`
    (the folder's own name when `root` is itself a repository), less a bare repository's `.git`."""
    if not root.is_dir():
        raise InputError(f"--local {root}: not a folder")
    return [((path.relative_to(root).as_posix() if path != root else path.name).removesuffix(".git"), path)
            for path in find_repositories(root)]


def mine_local(root: Path, config: MineConfig, registry: DomainRegistry, tally: Tally,
               documenter: Documenter | None = None, supported: Supported | None = None) -> Iterator[MinedClass | Rejection]:
    """Every repository under `root`, in path order."""
    for name, path in local_repositories(root):
        yield from mine_repository(path, config, registry, tally, name=name, documenter=documenter, supported=supported)


UNREADABLE = "unreadable"  # a repository's head in the run id's snapshot when git cannot read it


def local_heads(config: MineConfig) -> list[tuple[str, str]]:
    """(repository name, HEAD commit) of every repository under `[mine] local`, in path order. An
    unreadable repository is named as such rather than left out, so that it becoming readable (or
    unreadable) changes the run id too; the stage rejects it as `source_unreadable`."""
    if config.local is None:
        return []
    heads = []
    for name, path in local_repositories(config.local):
        try:
            heads.append((name, GitRepo(path).head()))
        except GitError:
            heads.append((name, UNREADABLE))
    return heads


class LocalGit:
    """The `local` mining source (pipeline/mining/sources.py): every git repository under `[mine] local`,
    named by its path below that folder ("." when the folder is itself a repository), dated by its full
    history (`freshness`), its state the repositories' heads."""

    needs_token = False

    def requested(self, config: MineConfig) -> bool:
        return config.local is not None

    def connect(self, config: MineConfig, settings: object) -> None:
        return None  # git is read in place

    def repositories(self, config: MineConfig, registry: DomainRegistry, client: object) -> list[str]:
        root = self._root(config)
        return [path.relative_to(root).as_posix() if path != root else "." for _, path in local_repositories(root)]

    def mine(self, name: str, config: MineConfig, registry: DomainRegistry, tally: Tally, *, client: object,
             documenter: Documenter | None, supported: Supported | None) -> Iterator[MinedClass | Rejection]:
        root = self._root(config)
        path = root if name == "." else root / name
        label = (root.name if name == "." else name).removesuffix(".git")
        yield from mine_repository(path, config, registry, tally, name=label, documenter=documenter,
                                   supported=supported)

    def state(self, config: MineConfig, *, today: date) -> list[list[str]]:
        return [list(pair) for pair in local_heads(config)]

    @staticmethod
    def _root(config: MineConfig) -> Path:
        if config.local is None:
            raise InputError("the local mining source needs [mine] local")
        return config.local
