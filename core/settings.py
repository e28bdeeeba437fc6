"""Where things live, and the process environment that keeps every library offline.

Paths default to the checkout (the folder above this package) so that `classeval-pro` works from a clone
with no configuration; environment variables move them for a maintainer who keeps seeds or artifacts
elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def seeds_dir() -> Path:
    """The seed corpus folder (`CLASSEVAL_PRO_SEEDS`, default `<checkout>/seeds`)."""
    return Path(os.environ.get("CLASSEVAL_PRO_SEEDS", PROJECT_ROOT / "seeds"))


def artifacts_dir() -> Path:
    """The artifact tree (`CLASSEVAL_PRO_ARTIFACTS`, default `<checkout>/artifacts`)."""
    return Path(os.environ.get("CLASSEVAL_PRO_ARTIFACTS", PROJECT_ROOT / "artifacts"))


def domain_registry_path() -> Path:
    """The domain registry file (`CLASSEVAL_PRO_DOMAINS`, default `<seeds>/domains.toml`)."""
    return Path(os.environ.get("CLASSEVAL_PRO_DOMAINS", seeds_dir() / "domains.toml"))


class Settings(BaseModel):
    """The environment, resolved once when a run starts and handed to its stages (pipeline/stages/driver.py), so
    that nothing below the driver reads the environment and every task of a run, wherever it runs, sees
    the same values. Not part of the run's identity: moving the artifacts or the seeds does not make a
    new run (the seeds and the domain registry themselves are recorded with the run)."""

    model_config = ConfigDict(frozen=True)

    artifacts: Path = Field(description="The artifact tree (CLASSEVAL_PRO_ARTIFACTS).")
    seeds: Path = Field(description="The seed corpus folder (CLASSEVAL_PRO_SEEDS).")
    domains: Path = Field(description="The domain registry file (CLASSEVAL_PRO_DOMAINS).")
    github_token: SecretStr | None = Field(default=None, exclude=True,
                                           description="GITHUB_TOKEN, for mining GitHub; never written.")
    hf_token: SecretStr | None = Field(default=None, exclude=True,
                                       description="HF_TOKEN, for publishing to the Hugging Face Hub; never written.")
    hf_endpoint: str | None = Field(default=None, description="HF_ENDPOINT: the Hub's address (None: huggingface.co).")
    model_keys: frozenset[str] = Field(
        default=frozenset(), description="Names of the `*_API_KEY` variables that are set (never their values): "
        "the providers' keys litellm reads itself, checked before a model is first asked (models/preflight.py).")

    @classmethod
    def from_environment(cls) -> Settings:
        env = os.environ
        return cls(artifacts=artifacts_dir(), seeds=seeds_dir(), domains=domain_registry_path(),
                   github_token=env.get("GITHUB_TOKEN") or None, hf_token=env.get("HF_TOKEN", "").strip() or None,
                   hf_endpoint=env.get("HF_ENDPOINT") or None,
                   model_keys=frozenset(k for k, v in env.items() if k.endswith("_API_KEY") and v))

    def with_artifacts(self, root: Path) -> Settings:
        """These settings on another artifact tree (a test's or a benchmark's scratch folder)."""
        return self.model_copy(update={"artifacts": Path(root)})

    @property
    def model_cache(self) -> Path:
        """The model answer cache, shared by every model stage and the model judges."""
        return self.artifacts / "cache" / "models"

    @property
    def verdict_cache(self) -> Path:
        return self.artifacts / "cache" / "verdicts"

    @property
    def results_cache(self) -> Path:
        """The stages' results kept across runs (core/results.py), unless `[cache] path` moves them."""
        return self.artifacts / "cache" / "results"

    def token(self) -> str:
        return self.github_token.get_secret_value() if self.github_token is not None else ""

    def hub_token(self) -> str:
        return self.hf_token.get_secret_value() if self.hf_token is not None else ""


def configure_offline_environment(artifacts: Path | None = None) -> None:
    """Set the variables that keep Prefect, litellm and Hugging Face libraries local and quiet.

    Must run before those libraries are imported: each reads its settings at import. Values already set by
    the user win (`setdefault`), so a maintainer can still point Prefect at a real server.
    Failure modes this prevents: Prefect writing to the home folder and looking up an analytics host (a
    "database is locked" traceback with no network), its temporary server missing a 20 s start deadline on a
    cold database, litellm downloading a price map at import, `datasets` pinging a download counter.
    """
    root = Path(artifacts) if artifacts is not None else artifacts_dir()
    defaults = {
        "PREFECT_HOME": str(root / ".prefect"),
        "PREFECT_LOCAL_STORAGE_PATH": str(root / ".prefect" / "storage"),
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
        "PREFECT_LOGGING_LEVEL": "WARNING",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HF_HOME": str(root / ".hf"),
        "HF_HUB_OFFLINE": "1",
        "HF_UPDATE_DOWNLOAD_COUNTS": "0",
        "HF_DATASETS_OFFLINE": "1",
    }
    for key, value in defaults.items():
        os.environ.setdefault(key, value)
    # Prefect creates its home with a non-recursive mkdir: a missing artifacts folder makes its temporary
    # server fail to open its database and time out two minutes later.
    Path(os.environ["PREFECT_HOME"]).mkdir(parents=True, exist_ok=True)
