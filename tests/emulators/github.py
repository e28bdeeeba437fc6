"""A local GitHub REST emulator: the endpoints the miner reaches through PyGithub.

    GET /search/repositories?q=&per_page=&page=          Github.search_repositories
    GET /repos/{owner}/{name}                            Github.get_repo
    GET /repos/{owner}/{name}/branches/{branch}          Repository.get_branch
    GET /repos/{owner}/{name}/git/trees/{sha}            Repository.get_git_tree(recursive=True)
    GET /repos/{owner}/{name}/git/blobs/{sha}            Repository.get_git_blob
    GET /repos/{owner}/{name}/readme                     Repository.get_readme
    GET /repos/{owner}/{name}/commits?path=&sha=         Repository.get_commits (newest first, paginated)
    GET /repos/{owner}/{name}/commits/{sha}              Repository.get_commit (with its files)

Every answer carries `X-RateLimit-Limit/Remaining/Reset/Used/Resource` computed from one quota and a clock
the test supplies (the same fake clock the miner sleeps on). `rate_limit_after=N` makes request N+1 and
later answer 403 "API rate limit exceeded" with `Remaining: 0` until the clock passes the reset time; the
quota then refills. Lists are paginated with `Link` headers built from the same page arithmetic (next,
last, first, prev), which is what PyGithub follows and what its `totalCount` reads.

Search is a substring match of the query's first word against name, description and topics, and honours
`pushed:>=DATE`. Test helper, not product code: it runs in the test process on 127.0.0.1, port 0.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.emulators.json_http import send_json

RATE_LIMITED = "API rate limit exceeded for user ID 1."


def blob_sha(text: str) -> str:
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class FakeCommit:
    sha: str
    date: str  # ISO, e.g. 2025-03-01T12:00:00Z
    files: dict[str, str | None]  # path -> new text (None: deleted)
    renamed: dict[str, str] = field(default_factory=dict)  # new path -> old path


@dataclass
class FakeRepo:
    full_name: str
    licence: str | None
    commits: list[FakeCommit] = field(default_factory=list)  # oldest first
    topics: list[str] = field(default_factory=list)
    description: str = ""
    readme: str = ""
    pushed_at: str = "2025-06-01T00:00:00Z"

    def add_commit(self, date: str, files: dict[str, str | None], renamed: dict[str, str] | None = None) -> str:
        sha = hashlib.sha1(f"{self.full_name}{len(self.commits)}{date}".encode()).hexdigest()
        self.commits.append(FakeCommit(sha, f"{date}T12:00:00Z", files, renamed or {}))
        return sha

    def files_at(self, sha: str) -> dict[str, str]:
        state: dict[str, str] = {}
        for commit in self.commits:
            for old in commit.renamed.values():
                state.pop(old, None)
            for path, text in commit.files.items():
                if text is None:
                    state.pop(path, None)
                else:
                    state[path] = text
            if commit.sha == sha:
                break
        return state

    @property
    def head(self) -> str:
        return self.commits[-1].sha


class GithubEmulator:
    """`with GithubEmulator(repos, clock=...) as gh:` serves `repos` at `gh.base_url`."""

    def __init__(self, repos: list[FakeRepo], *, clock: Callable[[], float], quota: int = 5000,
                 rate_limit_after: int | None = None, reset_in: float = 60.0, token: str = "test-token") -> None:
        self.repos = {r.full_name: r for r in repos}
        self.clock, self.quota, self.reset_in, self.token = clock, quota, reset_in, token
        self.rate_limit_after = rate_limit_after
        self.requests: list[str] = []
        self.limited: list[str] = []  # requests answered 403 for the rate limit
        self._used = 0
        self._reset_at = clock() + 3600
        self._episode = "none" if rate_limit_after is None else "pending"
        self._lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> GithubEmulator:
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                emulator.handle(self)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()

    # -- rate limits --------------------------------------------------------------------------------------

    def _rate_headers(self) -> dict[str, str]:
        return {"X-RateLimit-Limit": str(self.quota), "X-RateLimit-Remaining": str(max(0, self.quota - self._used)),
                "X-RateLimit-Reset": str(int(self._reset_at)), "X-RateLimit-Used": str(self._used),
                "X-RateLimit-Resource": "core"}

    def _admit(self) -> bool:
        """Count a request; False when it must be refused for the rate limit (one episode per emulator)."""
        with self._lock:
            now = self.clock()
            if self._episode == "active" and now >= self._reset_at:
                self._episode = "over"
            if now >= self._reset_at:
                self._used, self._reset_at = 0, now + 3600
            if self._episode == "pending" and len(self.requests) >= (self.rate_limit_after or 0):
                self._episode, self._used, self._reset_at = "active", self.quota, now + self.reset_in
            if self._episode == "active" or self._used >= self.quota:
                return False
            self._used += 1
            return True

    # -- routing ------------------------------------------------------------------------------------------

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        url = urlsplit(handler.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if handler.headers.get("Authorization") != f"token {self.token}" and \
                handler.headers.get("Authorization") != f"Bearer {self.token}":
            send_json(handler, 401, {"message": "Bad credentials"})
            return
        admitted = self._admit()
        self.requests.append(handler.path)
        if not admitted:
            self.limited.append(handler.path)
            send_json(handler, 403, {"message": RATE_LIMITED}, self._rate_headers())
            return
        status, body, headers = self.route(url.path, query)
        send_json(handler, status, body, {**self._rate_headers(), **headers})

    def route(self, path: str, query: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        if path == "/search/repositories":
            found = self._search(query.get("q", ""))
            page, headers = self._page(path, query, found)
            return 200, {"total_count": len(found), "incomplete_results": False, "items": page}, headers
        match = re.fullmatch(r"/repos/([\w.-]+/[\w.-]+)(/.*)?", path)
        if not match or match.group(1) not in self.repos:
            return 404, {"message": "Not Found"}, {}
        repo, rest = self.repos[match.group(1)], match.group(2) or ""
        if rest == "":
            return 200, self._repo_json(repo), {}
        if m := re.fullmatch(r"/branches/([\w.-]+)", rest):
            return 200, {"name": m.group(1), "commit": self._commit_json(repo, repo.commits[-1])}, {}
        if m := re.fullmatch(r"/git/trees/(\w+)", rest):
            files = repo.files_at(m.group(1))
            tree = [{"path": p, "mode": "100644", "type": "blob", "sha": blob_sha(t), "size": len(t)} for p, t in sorted(files.items())]
            return 200, {"sha": m.group(1), "tree": tree, "truncated": False}, {}
        if m := re.fullmatch(r"/git/blobs/(\w+)", rest):
            for commit in repo.commits:
                for text in commit.files.values():
                    if text is not None and blob_sha(text) == m.group(1):
                        return 200, {"sha": m.group(1), "size": len(text), "encoding": "base64",
                                     "content": base64.b64encode(text.encode()).decode()}, {}
            return 404, {"message": "Not Found"}, {}
        if rest == "/readme":
            if not repo.readme:
                return 404, {"message": "Not Found"}, {}
            return 200, {"type": "file", "name": "README.md", "path": "README.md", "encoding": "base64",
                         "content": base64.b64encode(repo.readme.encode()).decode(), "sha": blob_sha(repo.readme)}, {}
        if rest == "/commits":
            return self._commits(repo, path, query)
        if m := re.fullmatch(r"/commits/(\w+)", rest):
            commit = next((c for c in repo.commits if c.sha == m.group(1)), None)
            if commit is None:
                return 404, {"message": "Not Found"}, {}
            return 200, self._commit_json(repo, commit, with_files=True), {}
        return 404, {"message": "Not Found"}, {}

    def _search(self, q: str) -> list[dict[str, Any]]:
        words = re.findall(r'"[^"]+"|\S+', q)
        terms = [w.strip('"').lower() for w in words if ":" not in w]
        pushed = next((w.split(">=", 1)[1] for w in words if w.startswith("pushed:>=")), None)
        out = []
        for repo in self.repos.values():
            text = " ".join([repo.full_name, repo.description, *repo.topics, repo.readme]).lower()
            if all(t in text for t in terms) and (pushed is None or repo.pushed_at[:10] >= pushed):
                out.append(self._repo_json(repo))
        return out

    def _page(self, path: str, query: dict[str, str], items: list[Any]) -> tuple[list[Any], dict[str, str]]:
        per_page = int(query.get("per_page", 30))
        page = int(query.get("page", 1))
        last = max(1, -(-len(items) // per_page))
        links = []

        def link(number: int, rel: str) -> str:
            return f'<{self.base_url}{path}?{urlencode({**query, "page": number})}>; rel="{rel}"'

        if page < last:
            links += [link(page + 1, "next"), link(last, "last")]
        if page > 1:
            links += [link(1, "first"), link(page - 1, "prev")]
        return items[(page - 1) * per_page: page * per_page], ({"Link": ", ".join(links)} if links else {})

    def _commits(self, repo: FakeRepo, path: str, query: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        upto = query.get("sha", repo.head)
        history: list[FakeCommit] = []
        for commit in repo.commits:
            history.append(commit)
            if commit.sha == upto:
                break
        wanted = query.get("path")
        if wanted:
            history = [c for c in history if wanted in c.files or wanted in c.renamed]
        rows = [self._commit_json(repo, c) for c in reversed(history)]  # newest first, as GitHub lists them
        page, headers = self._page(path, query, rows)
        return 200, page, headers

    def _repo_json(self, repo: FakeRepo) -> dict[str, Any]:
        owner, name = repo.full_name.split("/")
        licence = None if repo.licence is None else {"key": repo.licence.lower(), "name": repo.licence,
                                                     "spdx_id": repo.licence, "url": None}
        return {"id": abs(hash(repo.full_name)) % 10**8, "name": name, "full_name": repo.full_name,
                "owner": {"login": owner}, "private": False, "html_url": f"https://github.com/{repo.full_name}",
                "url": f"{self.base_url}/repos/{repo.full_name}", "description": repo.description,
                "default_branch": "main", "license": licence, "topics": repo.topics, "language": "Python",
                "pushed_at": repo.pushed_at, "created_at": repo.commits[0].date if repo.commits else None}

    def _commit_json(self, repo: FakeRepo, commit: FakeCommit, with_files: bool = False) -> dict[str, Any]:
        person = {"name": "a", "email": "a@example.invalid", "date": commit.date}
        body: dict[str, Any] = {"sha": commit.sha, "url": f"{self.base_url}/repos/{repo.full_name}/commits/{commit.sha}",
                                "commit": {"author": person, "committer": person, "message": "change"}}
        if with_files:
            files = []
            for path, text in commit.files.items():
                entry = {"filename": path, "status": "removed" if text is None else "added"}
                if path in commit.renamed:
                    entry.update(status="renamed", previous_filename=commit.renamed[path])
                files.append(entry)
            body["files"] = files
        return body
