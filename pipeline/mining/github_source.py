"""The GitHub source: repositories found per domain keyword, read and dated through the REST API.

Search asks for Python repositories pushed on or after the cut-off, one query per registry keyword; the
licence comes from GitHub's own detection (its SPDX id) and must be on the allow-list before any file is
read. Files are read as blobs of the default branch's tree; classes go through the same filters as the
local source (`examine`). A class is dated by the commits that touched its file: the oldest of them,
following the file back through renames (GitHub's list does not follow them, so the oldest commit's file
list is asked whether it renamed the file). That date is an upper bound on the class's age only for code
that never moved between files without a rename: the local source, with the full history, also matches by
name and body.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timezone
from pathlib import Path

from core.analysis.python_need import Supported
from core.domains import DomainRegistry
from core.errors import InputError
from core.records import Rejection, RejectReason
from core.settings import Settings
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
from pipeline.mining.github_api import GithubApi, GithubUnavailable
from pipeline.mining.licence import NONE, UNKNOWN, is_allowed
from pipeline.mining.local import cutoff_timestamp
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.shape import is_test_path
from pipeline.mining.tally import Tally
from pipeline.mining.vendored import split_vendored

MAX_RENAMES = 5


def make_api(config: MineConfig, token: str, cache: Path) -> GithubApi:
    """The GitHub client of `[mine]`, with its answers cached under `cache`."""
    gh = config.github_settings
    return GithubApi(token, cache, base_url=gh.base_url, per_page=gh.per_page,
                     max_wait_s=gh.max_wait_s)


def search_queries(config: MineConfig, registry: DomainRegistry) -> list[str]:
    """One search per keyword of each selected domain, in registry order."""
    domains = [d for d in registry.domain if not config.domains or d.name in config.domains]
    return [f'"{keyword}" language:python pushed:>={config.since.isoformat()}' if " " in keyword
            else f"{keyword} language:python pushed:>={config.since.isoformat()}"
            for domain in domains for keyword in domain.keywords]


def first_file_time(api: GithubApi, full_name: str, path: str, head: str) -> tuple[str, int] | None:
    """(sha, time) of the oldest commit touching `path`, through up to MAX_RENAMES renames."""
    oldest: tuple[str, int] | None = None
    current, ref = path, head
    for _ in range(MAX_RENAMES + 1):
        commits = api.file_commits(full_name, current, ref)
        if not commits:
            break
        first = commits[0]
        if oldest is None or first["time"] < oldest[1]:
            oldest = (first["sha"], int(first["time"]))
        previous = api.previous_path(full_name, first["sha"], current)
        if previous is None:
            break
        current, ref = previous, first["sha"]
    return oldest


def mine_repository(api: GithubApi, full_name: str, config: MineConfig, registry: DomainRegistry,
                    tally: Tally, documenter: Documenter | None = None,
                    supported: Supported | None = None) -> Iterator[MinedClass | Rejection]:
    tally.repository(full_name)
    info = api.repository(full_name)
    licence = info["licence"] or NONE
    if licence == "NOASSERTION":
        licence = UNKNOWN
    if not is_allowed(licence, config.licences):
        yield rejection(full_name, "", "", Drop(RejectReason.LICENCE_NOT_ALLOWED,
                                                f"licence {licence} is not on the allow-list", {"licence": licence}))
        return
    files = [e for e in api.tree(full_name, info["head"]) if e["path"].endswith(".py")]
    own, vendored = split_vendored([e["path"] for e in files])
    yield from vendored_rejections(full_name, vendored)
    kept = set(own)
    files = [e for e in files if e["path"] in kept][:config.github_settings.max_files_per_repo]
    sources: dict[str, str | None] = {}
    for entry in files:
        try:
            sources[entry["path"]] = api.blob(full_name, entry["sha"])
        except GithubUnavailable:
            sources[entry["path"]] = None
    tests = {p: s for p, s in sources.items() if s is not None and is_test_path(p)}
    context = [full_name, info["description"], " ".join(info["topics"]), api.readme(full_name)[:20000]]
    cutoff = cutoff_timestamp(config)
    for path, source in sorted(sources.items()):
        if source is None:
            yield rejection(full_name, path, "", Drop(RejectReason.SOURCE_UNREADABLE, "the file could not be read"))
            continue
        for outcome in examine_source(path, source, config, supported=supported, test_sources=tests,
                                      require_docstrings=config.require_docstrings and documenter is None):
            if not isinstance(outcome, Passed):
                if outcome[0]:
                    tally.class_seen()
                yield rejection(full_name, path, outcome[0], outcome[1])
                continue
            tally.class_seen()
            unit = outcome.unit
            domain, scores = match_domain(registry, class_names=[unit.name, path, *unit.method_names],
                                          context=context, allowed=config.domains)
            if domain is None:
                yield rejection(full_name, path, unit.name, Drop(RejectReason.NO_DOMAIN,
                                                                 "no selected domain's keywords match", {"scores": scores}))
                continue
            try:
                first = first_file_time(api, full_name, path, info["head"])
            except GithubUnavailable as exc:
                yield rejection(full_name, path, unit.name, Drop(RejectReason.SOURCE_UNREADABLE, str(exc)))
                continue
            if first is None:
                yield rejection(full_name, path, unit.name, Drop(RejectReason.SOURCE_UNREADABLE, "no commit touches the file"))
                continue
            date = datetime.fromtimestamp(first[1], tz=timezone.utc).date().isoformat()
            if first[1] < cutoff:
                yield rejection(full_name, path, unit.name, Drop(
                    RejectReason.NOT_FRESH, f"its file first appeared {date} in {first[0][:12]}",
                    {"first_commit": first[0], "first_commit_date": date, "found_by": "file history"}))
                continue
            code = documented_slice(unit, outcome.piece, documenter)
            if isinstance(code, Drop):
                yield rejection(full_name, path, unit.name, code)
                continue
            yield MinedClass(repository=full_name, url=info["url"], path=path, class_name=unit.name,
                             commit=info["head"], licence=licence, first_commit=first[0], first_commit_date=date,
                             found_by="file history", domain=domain, slice_code=code,
                             repo_tests=tests_using(unit.name, tests), description=description_of(unit),
                             docstrings_by=docstring_author(config) if code != outcome.piece.code else None)


def mine_github(config: MineConfig, registry: DomainRegistry, tally: Tally, *, client: GithubApi,
                documenter: Documenter | None = None, supported: Supported | None = None) -> Iterator[MinedClass | Rejection]:
    """Every repository the keyword searches find (each once), in the order found."""
    for full_name in found_repositories(client, config, registry):
        try:
            yield from mine_repository(client, full_name, config, registry, tally, documenter, supported)
        except GithubUnavailable as exc:
            yield rejection(full_name, "", "", Drop(RejectReason.SOURCE_UNREADABLE, str(exc)))


def found_repositories(api: GithubApi, config: MineConfig, registry: DomainRegistry) -> list[str]:
    """Every repository the keyword searches find, each once, in the order found."""
    found: dict[str, None] = {}
    for query in search_queries(config, registry):
        for full_name in api.search_repositories(query, config.github_settings.repos_per_keyword):
            found.setdefault(full_name)
    return list(found)


class GithubSearch:
    """The `github` mining source (pipeline/mining/sources.py): the repositories the domain keywords' searches
    find, named "owner/name", read and dated through the REST API (`first_file_time`). GitHub cannot be asked
    cheaply what changed, so its state for the run id is the UTC day of the build: a build on another day is
    another run, an interrupted one resumes the same day."""

    needs_token = True

    def requested(self, config: MineConfig) -> bool:
        return config.github

    def connect(self, config: MineConfig, settings: Settings) -> GithubApi | None:
        if not (config.github and settings.token()):
            return None
        return make_api(config, settings.token(), settings.artifacts / "github-cache")

    def repositories(self, config: MineConfig, registry: DomainRegistry, client: GithubApi | None) -> list[str]:
        return found_repositories(_client(client), config, registry)

    def mine(self, name: str, config: MineConfig, registry: DomainRegistry, tally: Tally, *,
             client: GithubApi | None, documenter: Documenter | None,
             supported: Supported | None) -> Iterator[MinedClass | Rejection]:
        yield from mine_repository(_client(client), name, config, registry, tally, documenter, supported)

    def state(self, config: MineConfig, *, today: date) -> str:
        return today.isoformat()


def _client(client: GithubApi | None) -> GithubApi:
    if client is None:  # no token: the build skips GitHub then, and a direct caller gets why, not an AttributeError
        raise InputError("[mine] github = true needs GITHUB_TOKEN in the environment")
    return client
