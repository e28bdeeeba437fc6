"""Publishing a release folder to the Hugging Face Hub, tagged with its version.

A guarded compile step: the release must verify against its manifest before anything is sent. The Hub
repository receives the folder's files at its root (earlier splits are byte-identical to what is already
there, so the client skips them) in one commit, and that commit is tagged with the version. Publishing a
version whose tag already exists changes nothing. Publishing a version older than the newest tag there is
refused: it would move the default branch back to older files.

The token (`HF_TOKEN`) and the Hub's address (`HF_ENDPOINT`) come from the run's resolved `Settings`,
handed in by the caller (the `publish` command, the scheduled flow); nothing here reads the environment.
The token is passed straight to huggingface_hub; it is never logged, written or echoed in an error
(messages are scrubbed of it in case a server repeats it). The project keeps huggingface_hub offline by
default (`HF_HUB_OFFLINE=1`, see core/settings.py); this is the one path that lifts that, and only for
the duration of the call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from core.errors import InputError
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.release.manifest import verify_release
from pipeline.release.naming import resolve_release
from pipeline.release.versioning import parse_version, sorted_versions

if TYPE_CHECKING:  # imported when publishing: huggingface_hub is slow to import
    from huggingface_hub import HfApi


@dataclass(frozen=True)
class PublishResult:
    version: str
    repo: str
    commit: str  # the tagged commit
    changed: bool  # False when the version was already tagged there
    message: str


@contextmanager
def hub_online() -> Iterator[None]:
    """Lift huggingface_hub's offline mode for the duration of a publish, then restore it.

    huggingface_hub reads `HF_HUB_OFFLINE` into `constants.HF_HUB_OFFLINE` at import and checks only that
    constant before every request, so the constant is what is lifted; the environment is left alone.
    """
    from huggingface_hub import constants

    saved = constants.HF_HUB_OFFLINE
    constants.HF_HUB_OFFLINE = False
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = saved


def _scrub(text: str, token: str) -> str:
    return text.replace(token, "***") if token else text


def _first_line(exc: Exception, token: str) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return _scrub(lines[0] if lines else type(exc).__name__, token)


def publish(release: str, repo: str, settings: Settings, *, endpoint: str | None = None,
            create: bool = False) -> PublishResult:
    """Upload a release (named by its version or its folder under `settings.artifacts`) to the dataset
    repository `repo` and tag it with its version, with the token of `settings`.

    `endpoint` defaults to the settings' (`HF_ENDPOINT`, else huggingface.co); `create` makes a missing
    repository (private) instead of failing. Errors are InputErrors, checked in order: the release (missing,
    or a malformed version), the repository name, then the token; a Hub that cannot be reached is named by
    its host.
    """
    ref = resolve_release(release, ArtifactStore(settings.artifacts))
    version, folder = ref.version, ref.folder
    parse_version(version)
    if repo.count("/") != 1 or not all(repo.split("/")):
        raise InputError(f"repository {repo!r} must be ORG/NAME")
    token = settings.hub_token()
    if not token:
        raise InputError(f"HF_TOKEN is not set: publishing to {repo} needs a Hugging Face token with write access")
    problems = verify_release(folder)
    if problems:
        raise InputError(f"{folder}: does not verify against its manifest, not published: {problems[0]}"
                         + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    endpoint = endpoint or settings.hf_endpoint

    from huggingface_hub import HfApi

    api = HfApi(endpoint=endpoint, token=token)
    with hub_online():
        try:
            return _push(api, repo, version, Path(folder), token=token, create=create)
        except Exception as exc:  # noqa: BLE001 - only the client's network errors are caught; others re-raise
            if not unreachable(exc):
                raise
            host = urlsplit(api.endpoint).netloc or api.endpoint
            raise InputError(f"publishing {version} to {repo}: cannot reach the Hub at {host} ({api.endpoint}): "
                             f"{_first_line(exc, token)}") from None


def unreachable(exc: BaseException) -> bool:
    """Whether `exc` says the Hub could not be reached (no connection, a name that does not resolve, a
    timeout) rather than answered. huggingface_hub raises its HTTP client's own transport errors (the
    `TransportError` family of httpx and its fork, `ConnectionError` in requests-based releases), whose
    messages name no host (`[Errno -2] Name or service not known`); they are recognised by class name so
    that this does not import whichever client huggingface_hub is built on."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"TransportError", "ConnectionError", "Timeout", "TimeoutException"}) or isinstance(exc, OSError)


def _push(api: HfApi, repo: str, version: str, folder: Path, *, token: str, create: bool) -> PublishResult:
    """The requests of one publish (see `publish`), online; errors the Hub answers with are InputErrors."""
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    where = api.endpoint
    try:
        api.whoami(cache=False)
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "?"
        if status == 401:
            raise InputError(f"publishing to {repo}: {where} rejected HF_TOKEN (401 Unauthorized); "
                             "check the token and that it has write access") from None
        raise InputError(f"publishing to {repo}: token check at {where} failed: {_first_line(exc, token)}") from None
    try:
        api.dataset_info(repo)
    except RepositoryNotFoundError:
        if not create:
            raise InputError(f"dataset repository {repo} not found at {where} (or HF_TOKEN cannot see it); "
                             "create it first, or pass --create") from None
        api.create_repo(repo, repo_type="dataset", private=True, exist_ok=True)
    try:
        refs = api.list_repo_refs(repo, repo_type="dataset")
        tags = {t.name: t.target_commit for t in refs.tags}
        if version in tags:
            return PublishResult(version, repo, tags[version], False,
                                 f"{repo} already has release {version} (commit {tags[version][:12]}); nothing changed")
        newer = [v for v in sorted_versions(tags) if parse_version(v) > parse_version(version)]
        if newer:
            raise InputError(f"{repo} already has the newer release {newer[-1]}; publishing {version} over it "
                             "would move the default branch back to older files")
        info = api.upload_folder(repo_id=repo, repo_type="dataset", folder_path=folder,
                                 commit_message=f"Release {version}",
                                 commit_description=f"classeval-pro release {version} (see manifest.json)")
        api.create_tag(repo, tag=version, revision=info.oid, repo_type="dataset",
                       tag_message=f"classeval-pro release {version}")
    except RepositoryNotFoundError:
        raise InputError(f"dataset repository {repo} not found at {where} (or HF_TOKEN cannot write to it)") from None
    except HfHubHTTPError as exc:
        raise InputError(f"publishing {version} to {repo} at {where} failed: {_first_line(exc, token)}") from None
    return PublishResult(version, repo, info.oid, True, f"published {version} to {repo} (commit {info.oid[:12]}, tag {version})")
