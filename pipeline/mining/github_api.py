"""GitHub through PyGithub, with rate limits respected and every answer kept on disk.

Why a layer of our own around PyGithub:
- PyGithub's built-in retry sleeps on the wall clock inside the library, where tests cannot drive it; it is
  switched off (`retry=None`, no request spacing) and waiting happens here, with an injectable `clock` and
  `sleep`: after each call `X-RateLimit-Remaining` is read and, at zero, the miner waits for
  `X-RateLimit-Reset`; a 403/429 rate-limit answer waits for the reset (or `Retry-After`, the secondary
  limit's header); 5xx and other 403/429 answers back off exponentially, a bounded number of times.
- Resumable: each answer the miner needs is reduced to plain JSON and stored under
  `<artifacts>/github-cache/<digest>.json` (atomically); a rerun reads it and asks GitHub nothing it already
  has. Blob contents are keyed by their sha, so they are shared across repositories and never go stale.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.records import content_hash
from core.store import atomic_write_text

MAX_RETRIES = 6
BACKOFF_S = 2.0


class GithubUnavailable(Exception):
    """A request kept failing after the retries (or GitHub said it does not exist)."""


class GithubApi:
    """The few GitHub reads the miner needs, each cached and rate-limit aware."""

    def __init__(self, token: str, cache_dir: Path, *, base_url: str = "https://api.github.com", per_page: int = 50,
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep,
                 max_wait_s: float = 3600.0) -> None:
        from github import Auth, Github

        options = dict(base_url=base_url, auth=Auth.Token(token), per_page=per_page, retry=None,
                       seconds_between_requests=None, seconds_between_writes=None, timeout=30)
        self.github = Github(**options)
        self.lazy = Github(**options, lazy=True)  # repository handles that cost no request of their own
        self.cache_dir = Path(cache_dir)
        self.clock, self.sleep, self.max_wait_s = clock, sleep, max_wait_s
        self.requests = 0  # answers not found in the cache
        self.waited_s = 0.0

    # -- waiting ------------------------------------------------------------------------------------------

    def _wait(self, seconds: float, why: str) -> None:
        seconds = max(0.0, min(seconds, self.max_wait_s))
        self.waited_s += seconds
        self.sleep(seconds)

    def _wait_if_exhausted(self) -> None:
        remaining, _ = self.github.rate_limiting
        if remaining == 0:
            self._wait(self.github.rate_limiting_resettime - self.clock() + 1, "quota used up")

    def _call(self, action: Callable[[], Any]) -> Any:
        from github import GithubException, RateLimitExceededException, UnknownObjectException

        for attempt in range(MAX_RETRIES + 1):
            try:
                result = action()
                self._wait_if_exhausted()
                return result
            except UnknownObjectException as exc:
                raise GithubUnavailable(f"not found: {exc.data.get('message', '') if isinstance(exc.data, dict) else exc}") from exc
            except RateLimitExceededException as exc:
                headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
                if "retry-after" in headers:
                    self._wait(float(headers["retry-after"]), "secondary rate limit")
                elif "x-ratelimit-reset" in headers:
                    self._wait(float(headers["x-ratelimit-reset"]) - self.clock() + 1, "rate limit")
                else:
                    self._wait(BACKOFF_S * 2 ** attempt, "rate limit without headers")
            except GithubException as exc:
                if exc.status in (403, 429) or exc.status >= 500:
                    self._wait(BACKOFF_S * 2 ** attempt, f"HTTP {exc.status}")
                else:
                    raise GithubUnavailable(f"HTTP {exc.status}: {exc.data}") from exc
        raise GithubUnavailable(f"gave up after {MAX_RETRIES} retries")

    # -- the cache ----------------------------------------------------------------------------------------

    def cached(self, key: list[Any], fetch: Callable[[], Any]) -> Any:
        """The stored answer for `key`, or `fetch()` (under the rate-limit rules) stored for next time.
        A cache file that cannot be read is fetched again, never trusted half-written."""
        path = self.cache_dir / f"{content_hash(key, length=24)}.json"
        try:
            return json.loads(path.read_text())["answer"]
        except (OSError, ValueError, KeyError):
            pass
        answer = self._call(fetch)
        self.requests += 1
        atomic_write_text(path, json.dumps({"key": key, "answer": answer}) + "\n")
        return answer

    def _repo(self, full_name: str):  # noqa: ANN202 - a lazy PyGithub Repository
        return self.lazy.get_repo(full_name)

    # -- the reads ----------------------------------------------------------------------------------------

    def search_repositories(self, query: str, limit: int) -> list[str]:
        def fetch() -> list[str]:
            found = []
            for repo in self.github.search_repositories(query=query, sort="updated", order="desc"):
                found.append(repo.full_name)
                if len(found) >= limit:
                    break
            return found
        return self.cached(["search", query, limit], fetch)

    def repository(self, full_name: str) -> dict[str, Any]:
        def fetch() -> dict[str, Any]:
            repo = self.github.get_repo(full_name)
            licence = repo.license.spdx_id if repo.license is not None else None
            head = repo.get_branch(repo.default_branch).commit.sha
            return {"full_name": repo.full_name, "url": repo.html_url, "licence": licence, "topics": repo.topics or [],
                    "description": repo.description or "", "default_branch": repo.default_branch, "head": head,
                    "created_at": repo.created_at.isoformat() if repo.created_at else None}
        return self.cached(["repo", full_name], fetch)

    def tree(self, full_name: str, head: str) -> list[dict[str, str]]:
        def fetch() -> list[dict[str, str]]:
            tree = self._repo(full_name).get_git_tree(head, recursive=True)
            return [{"path": e.path, "sha": e.sha} for e in tree.tree if e.type == "blob"]
        return self.cached(["tree", full_name, head], fetch)

    def blob(self, full_name: str, sha: str) -> str:
        def fetch() -> str:
            import base64

            blob = self._repo(full_name).get_git_blob(sha)
            return base64.b64decode(blob.content).decode("utf-8", "replace")
        return self.cached(["blob", sha], fetch)

    def readme(self, full_name: str) -> str:
        def fetch() -> str:
            try:
                return self._repo(full_name).get_readme().decoded_content.decode("utf-8", "replace")
            except Exception:  # noqa: BLE001 - a repository without a README is normal
                return ""
        return self.cached(["readme", full_name], fetch)

    def file_commits(self, full_name: str, path: str, head: str) -> list[dict[str, Any]]:
        """Commits touching `path` up to `head`, oldest first: sha and the older of author/committer time."""
        def fetch() -> list[dict[str, Any]]:
            rows = []
            for commit in self._repo(full_name).get_commits(sha=head, path=path):
                dates = [d.timestamp() for d in (commit.commit.author.date, commit.commit.committer.date) if d]
                rows.append({"sha": commit.sha, "time": min(dates)})
            return sorted(rows, key=lambda row: row["time"])
        return self.cached(["commits", full_name, path, head], fetch)

    def previous_path(self, full_name: str, sha: str, path: str) -> str | None:
        """The file's name before `sha` when that commit renamed it (GitHub does not follow renames)."""
        def fetch() -> str | None:
            commit = self._repo(full_name).get_commit(sha)
            for changed in commit.files:
                if changed.filename == path and changed.status == "renamed":
                    return changed.previous_filename
            return None
        return self.cached(["renamed-from", full_name, sha, path], fetch)
