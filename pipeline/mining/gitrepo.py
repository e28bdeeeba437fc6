"""Read a local git repository through git's plumbing commands (git is a trusted tool; the code it holds
is not: it is only read, never checked out into a place that runs it).

Works the same on clones, bare mirrors and partial clones. In a partial clone git would try to fetch an
absent object from its promisor remote; `GIT_ALLOW_PROTOCOL=file` keeps that from reaching the network, so
an absent blob is simply unreadable and costs the one file (or class) that needed it.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",  # never wait for a password
    "GIT_ALLOW_PROTOCOL": "file",  # lazy fetches of absent objects stay off the network
    "GIT_OPTIONAL_LOCKS": "0",  # reading must not take the index lock of a repository someone else uses
    "GIT_CONFIG_NOSYSTEM": "1",
    "LC_ALL": "C",
}


class GitError(Exception):
    """A git command failed; the message carries the command and git's own words."""


@dataclass(frozen=True)
class TreeEntry:
    """One file of a commit's tree."""

    path: str
    blob: str
    mode: str


class GitRepo:
    """A repository on disk (`path` is the work tree or the bare repository folder)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._listed: tuple[str, list[TreeEntry]] | None = None
        self.unreadable: set[str] = set()
        """Paths whose blob at HEAD is absent: history queries leave them out, or every query whose commits
        touch them would die on the absent blob instead of costing only that file's classes."""

    def git(self, *args: str, input_bytes: bytes | None = None, timeout: float = 600.0,
            quiet_codes: tuple[int, ...] = ()) -> bytes:
        """Run git; a non-zero exit raises GitError unless it is one of `quiet_codes` (then: no output)."""
        env = {**os.environ, **GIT_ENV}
        command = ["git", "-C", str(self.path), "-c", "core.quotepath=off", *args]
        try:
            done = subprocess.run(command, input=input_bytes, capture_output=True, env=env, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise GitError(f"git {' '.join(args[:3])}: timed out after {timeout:.0f}s") from exc
        if done.returncode in quiet_codes:
            return b""
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"git {' '.join(args[:3])} in {self.path}: {message[-1] if message else done.returncode}")
        return done.stdout

    def text(self, *args: str) -> str:
        return self.git(*args).decode("utf-8", "replace")

    def head(self) -> str:
        return self.text("rev-parse", "--verify", "HEAD^{commit}").strip()

    def origin_url(self) -> str | None:
        try:
            return self.text("config", "--get", "remote.origin.url").strip() or None
        except GitError:
            return None

    def commit_date(self, commit: str) -> int:
        """The older of author and committer time (a rebase keeps the author's)."""
        author, committer = self.text("show", "-s", "--format=%at %ct", commit).split()
        return min(int(author), int(committer))

    def _listing(self, commit: str) -> list[TreeEntry]:
        """Every entry of `commit`'s tree (files, links, submodules), listed once per commit."""
        if self._listed is None or self._listed[0] != commit:
            entries: list[TreeEntry] = []
            for record in self.git("ls-tree", "-r", "-z", "--full-tree", commit).split(b"\0"):
                if not record:
                    continue
                meta, _, path = record.partition(b"\t")
                mode, _, blob = meta.decode().split()
                entries.append(TreeEntry(path.decode("utf-8", "replace"), blob, mode))
            self._listed = (commit, entries)
        return self._listed[1]

    def tree(self, commit: str) -> list[TreeEntry]:
        """Every file of `commit`'s tree (blobs only; submodules and links left out)."""
        return [e for e in self._listing(commit) if e.mode in ("100644", "100755")]

    def links(self, commit: str) -> list[TreeEntry]:
        """The symbolic links of `commit`'s tree (mode 120000): `tree` leaves them out, and nothing follows
        them (a link may point in a loop or outside the repository)."""
        return [e for e in self._listing(commit) if e.mode == "120000"]

    def read_blobs(self, blobs: list[str]) -> dict[str, bytes | None]:
        """Contents of many blobs in one `cat-file --batch` call; an absent blob maps to None."""
        if not blobs:
            return {}
        unique = list(dict.fromkeys(blobs))
        data = self.git("cat-file", "--batch", input_bytes=("\n".join(unique) + "\n").encode())
        found: dict[str, bytes | None] = {}
        position = 0
        for blob in unique:
            end = data.index(b"\n", position)
            header = data[position:end].decode("utf-8", "replace").split()
            position = end + 1
            if len(header) == 2 and header[1] == "missing":
                found[blob] = None
                continue
            size = int(header[2])
            found[blob] = data[position:position + size]
            position += size + 1  # the content is followed by a newline
        return found

    def log_pickaxe(self, needle: str, *, regex: bool = False, until: int | None = None) -> list[tuple[str, int]]:
        """Commits (any branch) whose change to a Python file changes how often `needle` occurs, with the
        older of their author and committer times, oldest first.

        Limited to `*.py` paths: a path-less pickaxe must read every blob of every commit and dies on the
        first absent one in a partial clone.
        """
        args = ["log", "--all", "--format=%H %at %ct", f"-S{needle}"]
        if regex:
            args.append("--pickaxe-regex")
        if until is not None:
            args.append(f"--until={until}")
        rows = []
        excluded = [f":(exclude,literal){path}" for path in sorted(self.unreadable)]
        for line in self.text(*args, "--", "*.py", *excluded).splitlines():
            sha, author, committer = line.split()
            rows.append((sha, min(int(author), int(committer))))
        return sorted(rows, key=lambda row: row[1])

    def log_diff_grep(self, regex: str) -> list[tuple[str, int]]:
        """Commits (any branch) whose Python diff adds or removes a line matching `regex`, oldest first."""
        excluded = [f":(exclude,literal){path}" for path in sorted(self.unreadable)]
        rows = []
        for line in self.text("log", "--all", "--format=%H %at %ct", f"-G{regex}", "--", "*.py", *excluded).splitlines():
            sha, author, committer = line.split()
            rows.append((sha, min(int(author), int(committer))))
        return sorted(rows, key=lambda row: row[1])

    def added_lines(self, commit: str) -> str:
        """The diff of `commit` against its first parent, Python files only, no context lines."""
        excluded = [f":(exclude,literal){path}" for path in sorted(self.unreadable)]
        return self.text("show", "--format=", "-U0", "--first-parent", commit, "--", "*.py", *excluded)

    def files_containing(self, commit: str, needle: str) -> list[str]:
        """Python files of `commit` containing the literal `needle` (git grep reads the commit's blobs)."""
        out = self.git("grep", "-l", "-F", "-e", needle, commit, "--", "*.py", quiet_codes=(1,)).decode("utf-8", "replace")
        return [line.split(":", 1)[1] for line in out.splitlines() if ":" in line]

    def read_file(self, commit: str, path: str) -> bytes | None:
        entries = self.git("ls-tree", "-z", commit, "--", path).split(b"\0")
        for record in entries:
            if record:
                meta = record.partition(b"\t")[0].decode().split()
                return self.read_blobs([meta[2]]).get(meta[2])
        return None


def find_repositories(root: Path) -> list[Path]:
    """Every git repository under `root` (work trees and bare ones), sorted; nested repositories inside a
    found one are not searched (its history is what counts)."""
    found: list[Path] = []
    seen: set[tuple[int, int]] = set()  # folders walked, by device and inode: a symlink loop is walked once
    for current, dirs, files in os.walk(root, followlinks=True):
        here = Path(current)
        try:
            status = here.stat()
        except OSError:  # a dangling link or a loop the kernel refuses (ELOOP)
            dirs.clear()
            continue
        if (status.st_dev, status.st_ino) in seen:
            dirs.clear()
            continue
        seen.add((status.st_dev, status.st_ino))
        if ".git" in dirs or ".git" in files:
            found.append(here)
            dirs.clear()
        elif "HEAD" in files and "objects" in dirs and "refs" in dirs:
            found.append(here)
            dirs.clear()
        else:
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    return sorted(found)
