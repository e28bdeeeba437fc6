"""The mining stage's boundary records and settings.

`MinedClass` is what a source (local git or GitHub) hands to candidate building: a class that passed every
filter, its slice, and where and when it came from. `MineConfig` is the `[mine]` section of the build
configuration and the `mine` command's settings.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from core.records import Record, content_hash
from pipeline.mining.licence import DEFAULT_ALLOWED
from pipeline.mining.shape import ShapeLimits


class MinedClass(Record):
    """A fresh, self-contained class found in a repository, with its provenance."""

    repository: str = Field(description="owner/name on GitHub, or the folder name of a local repository.")
    url: str = Field(description="Where the repository lives: its clone URL, or its local path.")
    path: str = Field(description="Path of the file holding the class, inside the repository.")
    class_name: str = Field(description="Name of the class.")
    commit: str = Field(description="Commit the file was read at (the repository's HEAD).")
    licence: str = Field(description="SPDX id of the repository's licence.")
    first_commit: str = Field(description="Sha of the oldest commit found to contain the class.")
    first_commit_date: str = Field(description="ISO date of that commit (older of author and committer dates).")
    found_by: str = Field(description="'name' or 'body': how the oldest commit was found (git sources).")
    domain: str = Field(description="Registry domain matched from topics, README and the class's names.")
    slice_code: str = Field(description="The class and the module-level names it needs: the reference module.")
    repo_tests: tuple[str, ...] = Field(default=(), description="The repository's test modules that import the class.")
    description: str = Field(default="", description="The class docstring's first paragraph.")
    docstrings_by: str | None = Field(default=None, description="Who wrote missing method docstrings, if any: the "
                                      "model's name, or 'derived' when derived offline from observed behaviour.")
    inlined: tuple[str, ...] = Field(default=(), description="Definitions `slice_code` took from other files of the "
                                     "repository (imports of its own modules followed), as 'module:name'.")

    @property
    def mined_id(self) -> str:
        return mined_id(self.repository, self.path, self.class_name)

    @property
    def origin(self) -> str:
        """Where the class came from, as released data may say it: the clone URL, or for a local repository
        without a remote its folder name (`local:<name>`). A local path names the maintainer's machine and
        home folder, which a published dataset must not carry."""
        return self.url if "://" in self.url or self.url.startswith("git@") else f"local:{self.repository}"


def mined_id(repository: str, path: str, class_name: str) -> str:
    """Stable id of a class found in a repository (the rejection records of mining use it)."""
    return "mined-" + content_hash(repository, path, class_name)


class GithubSettings(BaseModel):
    """How the GitHub source searches and talks to the API (the token comes from GITHUB_TOKEN only)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(default="https://api.github.com", description="REST API root (an emulator in tests).")
    per_page: int = Field(default=50, ge=1, le=100, description="Page size of list requests.")
    repos_per_keyword: int = Field(default=5, ge=1, description="Repositories taken from each keyword's search.")
    max_files_per_repo: int = Field(default=400, ge=1, description="Python files read per repository at most.")
    max_wait_s: float = Field(default=3600.0, ge=0, description="Longest single wait for a rate-limit reset.")


class MineConfig(BaseModel):
    """Settings of the mining stage. With neither `local` nor a GitHub token the stage does nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    local: Path | None = Field(default=None, description="Folder holding git repositories to mine.")
    github: bool = Field(default=False, description="Also mine GitHub (needs GITHUB_TOKEN in the environment).")
    since: date = Field(default=date(2025, 1, 1), description="Cut-off: classes must first appear on or after it.")
    licences: tuple[str, ...] = Field(default=DEFAULT_ALLOWED, description="SPDX ids of the allowed licences.")
    shape: ShapeLimits = Field(default_factory=ShapeLimits, description="Size limits of a mined class.")
    max_file_bytes: int = Field(default=1_000_000, ge=1, description="Larger Python files are rejected unread "
                                "(too_large): generated code and data dumps cost minutes to parse and hold no task.")
    domains: tuple[str, ...] = Field(default=(), description="Keep only classes of these domains; empty = any.")
    limit: int | None = Field(default=None, ge=1, description="Stop after this many kept classes.")
    require_docstrings: bool = Field(default=True, description="Reject a class with an undocumented method "
                                     "(set false only where docstrings are written for it, or to survey a source).")
    docstring_model: str | None = Field(default=None, description="litellm model that writes missing method "
                                        "docstrings of fresh classes (role enhancer); None = offline: such classes "
                                        "are rejected as undocumented, unless derive_docstrings.")
    derive_docstrings: bool = Field(default=True, description="Without a docstring_model, write missing method "
                                    "docstrings from the class's observed behaviour (types, results, exceptions and "
                                    "examples of the oracle's recorded calls, run in the sandbox); the task records "
                                    "docstrings 'derived'. False: such classes are rejected as undocumented.")
    docstring_api_base: str | None = Field(default=None, description="Server of the docstring model, if not the provider's.")
    github_settings: GithubSettings = Field(default_factory=GithubSettings, description="GitHub search and API.")
    test_rng_seed: int = Field(default=20250101, description="Seed of the oracle test synthesis for mined classes.")
    as_seeds: bool = Field(default=True, description="Mined classes that pass the validation gate also become seeds "
                           "of enhance and compose in the same build (their tasks keep the class's provenance and "
                           "first-commit date); false: each mined class gives its own task only.")
