"""One way to name a release on the command line: its version (`2026.12.0`) or its folder (a path).

Every command that takes a release resolves its argument here, so they all accept the same two forms and
report the same errors. The checks run in a fixed order, so that the first error a user sees is the one
to fix first: a release that does not exist, then a version that is malformed (said precisely, e.g. the
month needs two digits); a command's own checks (a token, a repository name) come after.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from core.errors import InputError
from core.store import ArtifactStore
from pipeline.release.manifest import MANIFEST
from pipeline.release.versioning import sorted_versions, version_problem


@dataclass(frozen=True)
class ReleaseRef:
    """A release that exists: its version (from its manifest) and its folder."""

    version: str
    folder: Path


def _looks_like_path(text: str) -> bool:
    return "/" in text or text.startswith(".") or text.startswith("~")


def _from_folder(folder: Path) -> ReleaseRef:
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise InputError(f"{folder}: not a release folder (no {MANIFEST}); name a release by its version "
                         "or by its folder under the artifacts' releases/")
    try:
        version = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{manifest}: unreadable (no version); the release is damaged") from None
    return ReleaseRef(version=str(version), folder=folder)


def release_version(folder: Path) -> str | None:
    """The version `folder`'s manifest records, or None when it has no readable manifest (a folder of
    split files copied without it)."""
    try:
        return _from_folder(folder).version
    except InputError:
        return None


def _listing(store: ArtifactStore) -> str:
    existing = sorted_versions(store.existing_releases())
    return f"releases there: {', '.join(existing[-5:])}" if existing else "there is no release yet"


def resolve_release(ref: str, store: ArtifactStore) -> ReleaseRef:
    """The release `ref` names: an existing folder, or a version under `store`'s releases.

    Errors (InputError, exit 2): a path that is not there or not a release folder; a version that is
    malformed (saying what is wrong) or that has no release.
    """
    path = Path(ref).expanduser()
    if path.is_dir():
        return _from_folder(path)
    if _looks_like_path(ref):
        raise InputError(f"{path}: no such release folder")
    problem = version_problem(ref)
    if problem is not None:
        raise InputError(f"release version {ref!r} {problem}; no release of that name in {store.releases} "
                         f"({_listing(store)})")
    folder = store.release_dir(ref)
    if not folder.is_dir():
        raise InputError(f"no release {ref} in {store.releases} ({_listing(store)})")
    return _from_folder(folder)


def release_or_path(path: Path, store: ArtifactStore) -> Path:
    """For commands that take a path of several kinds: a name that is no existing path but is a version is
    the folder of that release under `store` (the command's artifact tree; resolved as above, with its
    errors); anything else is returned as it is."""
    if Path(path).exists() or version_problem(str(path)) is not None:
        return Path(path)
    return resolve_release(str(path), store).folder
