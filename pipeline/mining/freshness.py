"""When did a class first appear in a repository's history? Freshness is what keeps a benchmark clean.

A class counts as fresh only when its code first appeared after the cut-off. The repository's creation
date is not enough (old repositories gain new classes; new repositories carry old code), and neither is
the date of the file that holds it today (a class moved to a new file, or renamed, keeps its age). So:

- **by name**: the oldest commit, on any branch, whose change to a Python file added or removed a
  `class Name` header (git's pickaxe, limited to `*.py` so that it never reads absent blobs);
- **by body**: for the class's most distinctive lines (long, unique lines of its methods), the commits
  before the cut-off that introduced them; each is checked by parsing the files of that commit that
  contain the line and comparing normalised method bodies, so a renamed class is found under its old name
  while a line that merely looks alike elsewhere is not taken for it.

The first appearance is the oldest of these. History queries are the miner's costliest step, so only
classes that passed every cheap filter get here, and the body queries look only at commits before the
cut-off (`--until`), which in a young repository is nothing.
"""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timezone

from pipeline.mining.gitrepo import GitError, GitRepo

DISTINCT_LINES = 2
MIN_LINE_LENGTH = 24
SAME_CLASS_SHARE = 0.5
"""Share of the class's normalised methods an older class must contain to be taken as the same class."""
MAX_CHECKS_PER_LINE = 4


@dataclass(frozen=True)
class Appearance:
    """The oldest commit found for a class, how it was found, and its time (seconds since the epoch)."""

    commit: str
    timestamp: int
    how: str  # "name" | "body"

    @property
    def date(self) -> str:
        return datetime.fromtimestamp(self.timestamp, tz=timezone.utc).date().isoformat()


def method_fingerprints(class_node: ast.ClassDef) -> set[str]:
    """Digests of each method's body with docstrings dropped and the class's own name neutralised, so a
    renamed class or a re-documented one has the same fingerprints."""
    out: set[str] = set()
    for item in class_node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = item.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                body = body[1:]
            module = ast.Module(body=list(body), type_ignores=[])
            for node in ast.walk(module):
                if isinstance(node, ast.Name) and node.id == class_node.name:
                    node.id = "__cls__"
            text = item.name + ":" + ast.dump(module, annotate_fields=False)
            out.add(hashlib.sha1(text.encode()).hexdigest())
    return out


def _class_nodes(source: str) -> list[ast.ClassDef]:
    try:
        tree = ast.parse(source)  # parsing only: mined code is never run here
    except (SyntaxError, ValueError, RecursionError):
        return []
    return [node for node in tree.body if isinstance(node, ast.ClassDef)]


def distinctive_lines(class_code: str, count: int = DISTINCT_LINES) -> list[str]:
    """The longest lines of the class that occur once in it (stripped), skipping docstring-like lines and
    comments: the ones most likely to travel with the class and least likely to appear elsewhere."""
    lines = [line.strip() for line in class_code.splitlines()[1:]]
    singles = [line for line in dict.fromkeys(lines) if lines.count(line) == 1 and len(line) >= MIN_LINE_LENGTH
               and not line.startswith(("#", '"', "'")) and line.isascii()]
    return sorted(singles, key=lambda line: (-len(line), line))[:count]


# A header ends its name with `(` (bases), `:` or, since Python 3.12, `[` (a type parameter list).
def _header_regex(class_name: str) -> str:
    return rf"class[[:space:]]+{class_name}[[:space:]]*[[(:]"


def first_by_name(repo: GitRepo, class_name: str) -> Appearance | None:
    rows = repo.log_pickaxe(_header_regex(class_name), regex=True)
    return Appearance(rows[0][0], rows[0][1], "name") if rows else None


NAMES_PER_QUERY = 200
_ADDED_HEADER = re.compile(r"^\+\s*class\s+(\w+)\s*[(:\[]", re.MULTILINE)


def first_by_names(repo: GitRepo, names: list[str]) -> dict[str, Appearance]:
    """The oldest commit adding a `class Name` header, for many names in one history walk.

    Asking per class walks the whole history once per class; here `git log -G` (lines matching, not
    occurrence counts, so a commit that replaces one class header by another is still listed) finds every
    commit whose Python diff touches a header of any of the names, and the `+` lines of those commits say
    which names each added. Raises GitError like the per-class query; the caller then asks per class."""
    found: dict[str, Appearance] = {}
    unique = sorted(set(names))
    for start in range(0, len(unique), NAMES_PER_QUERY):
        chunk = set(unique[start:start + NAMES_PER_QUERY])
        regex = rf"class[[:space:]]+({'|'.join(sorted(chunk))})[[:space:]]*[[(:]"
        for commit, when in repo.log_diff_grep(regex):
            for name in _ADDED_HEADER.findall(repo.added_lines(commit)):
                if name in chunk and (name not in found or when < found[name].timestamp):
                    found[name] = Appearance(commit, when, "name")
    return found


def _same_class_in(repo: GitRepo, commit: str, line: str, fingerprints: set[str]) -> bool:
    for path in repo.files_containing(commit, line):
        data = repo.read_file(commit, path)
        if data is None:
            continue
        for node in _class_nodes(data.decode("utf-8", "replace")):
            older = method_fingerprints(node)
            if fingerprints and len(older & fingerprints) >= SAME_CLASS_SHARE * len(fingerprints):
                return True
    return False


def first_by_body(repo: GitRepo, class_code: str, before: int) -> Appearance | None:
    """The oldest commit before `before` holding a class with (mostly) the same methods, if any."""
    nodes = _class_nodes(class_code)
    if not nodes:
        return None
    fingerprints = method_fingerprints(nodes[0])
    best: Appearance | None = None
    for line in distinctive_lines(class_code):
        rows = [row for row in repo.log_pickaxe(line, until=before) if row[1] < before]
        for commit, when in rows[:MAX_CHECKS_PER_LINE]:
            if best is not None and when >= best.timestamp:
                break
            if _same_class_in(repo, commit, line, fingerprints):
                best = Appearance(commit, when, "body")
                break
    return best


_ASK = object()


def first_appearance(repo: GitRepo, class_name: str, class_code: str, cutoff: int,
                     by_name: Appearance | None | object = _ASK) -> Appearance:
    """The oldest appearance of the class by name or by body. `by_name` is the name query's answer when the
    caller already has it (`first_by_names`). Raises GitError when history cannot be read (e.g. a partial
    clone lacking a Python blob the query needs): the caller drops that one class."""
    if by_name is _ASK:
        by_name = first_by_name(repo, class_name)
    if by_name is not None and by_name.timestamp < cutoff:
        return by_name  # already too old: an even older body match would not change the verdict
    by_body = first_by_body(repo, class_code, cutoff)
    found = [a for a in (by_name, by_body) if a is not None]
    if not found:
        raise GitError(f"no commit adds class {class_name} (is it on a branch?)")
    return min(found, key=lambda a: a.timestamp)
