"""A local Hugging Face Hub emulator: just the endpoints huggingface_hub's HfApi calls to publish a dataset.

Routes were taken from huggingface_hub 2.4's own source (hf_api.py, _commit_api.py, utils/_http.py):

    GET  /api/whoami-v2                                   HfApi.whoami
    POST /api/repos/create                                HfApi.create_repo
    GET  /api/{type}s/{ns}/{name}[/revision/{rev}]        HfApi.repo_info / dataset_info
    POST /api/validate-yaml                               create_commit, when README.md is committed
    POST /api/{type}s/{ns}/{name}/preupload/{rev}         _fetch_upload_modes (upload mode + remote oid)
    POST /api/{type}s/{ns}/{name}/commit/{rev}            _send_commit (NDJSON: header, file, deletedFile)
    GET  /api/{type}s/{ns}/{name}/refs                    HfApi.list_repo_refs
    POST /api/{type}s/{ns}/{name}/tag/{rev}               HfApi.create_tag

Error shapes follow what `hf_raise_for_status` interprets: 404 with `X-Error-Code: RepoNotFound` or
`RevisionNotFound`, 401 with `X-Error-Message: Invalid credentials in Authorization header` for a bad
token, 409 for an existing repo or tag.

Simplification, stated: preupload always answers `uploadMode: "regular"`, so files travel base64 inside
the commit payload and the LFS/Xet upload protocols are not emulated (the real Hub sends parquet files to
LFS; the client's commit logic above that choice is the same). The `oid` it returns is git's blob sha1 of
the stored content, which is what the client compares to skip unchanged files.

Test helper, not product code: it runs in the test process on 127.0.0.1 with an OS-chosen port.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from tests.emulators.json_http import send_json

INVALID_TOKEN = "Invalid credentials in Authorization header"
_REPO = r"/api/(?P<type>model|dataset|space)s/(?P<repo>[\w.-]+/[\w.-]+)"


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Commit:
    oid: str
    parent: str | None
    summary: str
    files: dict[str, bytes]


@dataclass
class Repo:
    repo_id: str
    repo_type: str
    private: bool
    commits: dict[str, Commit] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def resolve(self, revision: str) -> Commit | None:
        oid = self.branches.get(revision) or self.tags.get(revision) or revision
        return self.commits.get(oid)

    def head(self, branch: str = "main") -> Commit:
        return self.commits[self.branches[branch]]

    def commit(self, branch: str, summary: str, files: dict[str, bytes]) -> Commit:
        parent = self.branches.get(branch)
        digest = hashlib.sha1(json.dumps([parent, summary, sorted((p, git_blob_sha1(b)) for p, b in files.items())])
                              .encode()).hexdigest()
        made = Commit(digest, parent, summary, dict(files))
        self.commits[digest] = made
        self.branches[branch] = digest
        return made


class HubEmulator:
    """Start with `with HubEmulator(tokens={"hf_good": "alice"}) as hub:`; point clients at `hub.endpoint`."""

    def __init__(self, tokens: dict[str, str] | None = None) -> None:
        self.tokens = dict(tokens or {})  # token -> user name
        self.repos: dict[tuple[str, str], Repo] = {}
        self.requests: list[tuple[str, str]] = []  # (method, path) of every request, for assertions
        self.authorizations: list[str] = []  # raw Authorization headers seen (to check no token leaks elsewhere)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # -- state helpers for tests ----------------------------------------------------------------------
    def add_repo(self, repo_id: str, repo_type: str = "dataset", private: bool = False) -> Repo:
        repo = Repo(repo_id, repo_type, private)
        repo.commit("main", "initial commit", {".gitattributes": b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"})
        self.repos[(repo_type, repo_id)] = repo
        return repo

    def repo(self, repo_id: str, repo_type: str = "dataset") -> Repo:
        return self.repos[(repo_type, repo_id)]

    @property
    def endpoint(self) -> str:
        assert self._server is not None, "emulator not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> HubEmulator:
        emulator = self

        class Handler(_Handler):
            hub = emulator

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


class _Handler(BaseHTTPRequestHandler):
    hub: HubEmulator
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    # -- plumbing -------------------------------------------------------------------------------------
    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        send_json(self, status, body, headers)

    def _error(self, status: int, message: str, code: str | None = None) -> None:
        headers = {"X-Error-Message": message}
        if code:
            headers["X-Error-Code"] = code
        self._send(status, {"error": message}, headers)

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _user(self) -> str | None:
        """The authenticated user; answers 401 itself and returns None for a missing or unknown token."""
        auth = self.headers.get("Authorization", "")
        self.hub.authorizations.append(auth)
        token = auth.removeprefix("Bearer ").strip()
        user = self.hub.tokens.get(token)
        if user is None:
            self._error(401, INVALID_TOKEN)
        return user

    def _repo(self, match: re.Match) -> Repo | None:
        repo = self.hub.repos.get((match["type"], match["repo"]))
        if repo is None:
            self._error(404, "Repository not found", "RepoNotFound")
        return repo

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        path = unquote(urlsplit(self.path).path)
        self.hub.requests.append((method, path))
        body = self._body() if method == "POST" else b""
        with self.hub._lock:
            for verb, pattern, handler in _ROUTES:
                match = re.fullmatch(pattern, path)
                if verb == method and match:
                    return handler(self, match, body)
        self._error(404, f"emulator has no route for {method} {path}")

    # -- endpoints ------------------------------------------------------------------------------------
    def whoami(self, match: re.Match, body: bytes) -> None:
        user = self._user()
        if user is not None:
            self._send(200, {"type": "user", "name": user, "orgs": [],
                             "auth": {"type": "access_token", "accessToken": {"role": "write"}}})

    def create_repo(self, match: re.Match, body: bytes) -> None:
        user = self._user()
        if user is None:
            return
        payload = json.loads(body or b"{}")
        repo_id = f"{payload.get('organization') or user}/{payload['name']}"
        repo_type = payload.get("type") or "model"
        if (repo_type, repo_id) in self.hub.repos:
            return self._error(409, "You already created this repo")
        self.hub.add_repo(repo_id, repo_type, payload.get("visibility") == "private")
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        self._send(200, {"url": f"{self.hub.endpoint}/{prefix}{repo_id}", "name": repo_id})

    def repo_info(self, match: re.Match, body: bytes) -> None:
        if self._user() is None or (repo := self._repo(match)) is None:
            return
        revision = match.groupdict().get("rev") or "main"
        commit = repo.resolve(revision)
        if commit is None:
            return self._error(404, f"Invalid rev id: {revision}", "RevisionNotFound")
        self._send(200, {"id": repo.repo_id, "sha": commit.oid, "private": repo.private, "tags": [], "downloads": 0,
                         "likes": 0, "siblings": [{"rfilename": p} for p in sorted(commit.files)]})

    def validate_yaml(self, match: re.Match, body: bytes) -> None:
        content = json.loads(body).get("content", "")
        head = re.match(r"\A---\n(.*?)\n---\n", content, re.S)
        try:
            meta = yaml.safe_load(head.group(1)) if head else {}
        except yaml.YAMLError as exc:
            return self._send(400, {"errors": [{"message": f"YAML: {exc}"}]})
        if not isinstance(meta, dict):
            return self._send(400, {"errors": [{"message": "metadata must be a mapping"}]})
        self._send(200, {"errors": [], "warnings": [] if meta else [{"message": "empty metadata"}]})

    def preupload(self, match: re.Match, body: bytes) -> None:
        if self._user() is None or (repo := self._repo(match)) is None:
            return
        commit = repo.resolve(match["rev"])
        if commit is None:
            return self._error(404, f"Invalid rev id: {match['rev']}", "RevisionNotFound")
        files = json.loads(body)["files"]
        self._send(200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False,
                                    "oid": git_blob_sha1(commit.files[f["path"]]) if f["path"] in commit.files else None}
                                   for f in files]})

    def commit(self, match: re.Match, body: bytes) -> None:
        if self._user() is None or (repo := self._repo(match)) is None:
            return
        branch = match["rev"]
        if branch not in repo.branches:
            return self._error(404, f"Invalid rev id: {branch}", "RevisionNotFound")
        files = dict(repo.head(branch).files)
        summary = ""
        for line in body.splitlines():
            item = json.loads(line)
            key, value = item["key"], item["value"]
            if key == "header":
                summary = value["summary"]
                parent = value.get("parentCommit")
                if parent and parent != repo.branches[branch]:
                    return self._error(412, "parent commit is not the head of the branch")
            elif key == "file":
                files[value["path"]] = base64.b64decode(value["content"])
            elif key == "deletedFile":
                files.pop(value["path"], None)
            elif key == "deletedFolder":
                files = {p: b for p, b in files.items() if not p.startswith(value["path"].rstrip("/") + "/")}
            else:
                return self._error(400, f"emulator does not accept {key} operations (LFS is not emulated)")
        made = repo.commit(branch, summary, files)
        prefix = "" if repo.repo_type == "model" else f"{repo.repo_type}s/"
        self._send(200, {"commitUrl": f"{self.hub.endpoint}/{prefix}{repo.repo_id}/commit/{made.oid}",
                         "commitOid": made.oid, "success": True})

    def refs(self, match: re.Match, body: bytes) -> None:
        if self._user() is None or (repo := self._repo(match)) is None:
            return

        def ref(kind: str, name: str, oid: str) -> dict[str, str]:
            return {"name": name, "ref": f"refs/{kind}/{name}", "targetCommit": oid}

        self._send(200, {"branches": [ref("heads", n, o) for n, o in sorted(repo.branches.items())], "converts": [],
                         "tags": [ref("tags", n, o) for n, o in sorted(repo.tags.items())], "pullRequests": []})

    def tag(self, match: re.Match, body: bytes) -> None:
        if self._user() is None or (repo := self._repo(match)) is None:
            return
        commit = repo.resolve(match["rev"])
        if commit is None:
            return self._error(404, f"Invalid rev id: {match['rev']}", "RevisionNotFound")
        name = json.loads(body)["tag"]
        if name in repo.tags:
            return self._error(409, "Tag already exists")
        repo.tags[name] = commit.oid
        self._send(200, {})


_ROUTES = [
    ("GET", r"/api/whoami-v2", _Handler.whoami),
    ("POST", r"/api/repos/create", _Handler.create_repo),
    ("POST", r"/api/validate-yaml", _Handler.validate_yaml),
    ("GET", _REPO + r"/refs", _Handler.refs),
    ("POST", _REPO + r"/preupload/(?P<rev>[^/]+)", _Handler.preupload),
    ("POST", _REPO + r"/commit/(?P<rev>[^/]+)", _Handler.commit),
    ("POST", _REPO + r"/tag/(?P<rev>[^/]+)", _Handler.tag),
    ("GET", _REPO + r"(?:/revision/(?P<rev>[^/]+))?", _Handler.repo_info),
]
