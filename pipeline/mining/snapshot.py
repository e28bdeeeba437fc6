"""What the mine stage will read, as a short digest: part of a run's id when mining is configured.

A run's id derives from its configuration and the seed corpus, so that the same inputs name the same run
(a rerun resumes it, a finished one is reported and left alone). Mining adds an input that the
configuration does not show: `[mine] local = "repos"` names a folder whose repositories move on. Without
their state in the id, next month's rebuild after a `git pull` named last month's finished run and
stopped at "already released", and `classeval-pro mine` found last month's repositories marked done and
mined nothing new.

Each source of the registry (pipeline/mining/sources.py) names its own state (`Source.state`):

- A local repository is its HEAD commit (one `git rev-parse` each; an unreadable repository is recorded
  as such, and the stage rejects it as `source_unreadable`).
- GitHub cannot be asked what changed without searching it, so a GitHub source is the UTC day of the
  build: a build on another day is another run, and an interrupted build resumes the same day (or with
  `--run-id`).
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from core.records import content_hash
from pipeline.mining.records import MineConfig
from pipeline.mining.sources import active_sources


def sources_state(config: MineConfig, *, github_token: bool, today: date | None = None) -> dict[str, Any] | None:
    """The state of the sources the mine stage will read, by source name in the registry's order (None when
    mining is not configured: the run id of a build without mining does not change)."""
    active = active_sources(config, token=github_token)
    if not active:
        return None
    day = today or datetime.now(timezone.utc).date()
    return {name: found.state(config, today=day) for name, found in active}


def sources_digest(config: MineConfig, *, github_token: bool, today: date | None = None) -> str | None:
    """A short digest of `sources_state`, or None without mining."""
    state = sources_state(config, github_token=github_token, today=today)
    return None if state is None else content_hash(state, length=8)
