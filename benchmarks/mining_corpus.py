"""The mining corpus (benchmarks/mining_corpus.toml): bring its repositories here, and check the dates of what
was kept from them independently of the miner.

    .venv/bin/python benchmarks/mining_corpus.py prepare OUT [--mirrors DIR]
    .venv/bin/classeval-pro mine --local OUT --json kept.json
    .venv/bin/python benchmarks/mining_corpus.py verify OUT kept.json

`prepare` makes one bare repository per corpus entry at OUT/<owner>/<name>, its HEAD detached at the listed
commit (so a later push upstream changes nothing that is mined). With `--mirrors DIR` it clones
`DIR/<owner>+<name>/repo` (or `DIR/<owner>/<name>`) with `--shared` (no object is copied; the mirror may be
partial: an absent blob costs only its file); without it, it clones the GitHub URL in full (a blobless clone
would leave every blob absent: the miner never lets git fetch one). Nothing is checked out, so the corpus
code is never on a path that runs it.

`verify` dates every kept class a second way: for each of its most distinctive lines (the longest lines of
its code that occur once in it), the oldest commit whose `*.py` files change that line's count
(`git log -S`) is found; the class's date is the newest of those (a class is as old as its youngest
distinctive line when some of its lines are older idioms, and as old as its oldest when every line came at
once), and it must be after the cut-off. It prints the classes whose verified date is before the cut-off
or differs from the miner's first commit by more than a day, and exits 1 when any is before the cut-off.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tomllib
from datetime import date, datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "mining_corpus.toml"


def load_corpus(path: Path = CORPUS) -> tuple[date, list[dict]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return data["since"], data["repository"]


def git(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False,
                          env={"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args[:4])}: {done.stderr.strip()}")
    return done.stdout


def _mirror(mirrors: Path, name: str) -> Path | None:
    owner, repo = name.split("/")
    for candidate in (mirrors / f"{owner}+{repo}" / "repo", mirrors / owner / repo):
        if candidate.is_dir():
            return candidate
    return None


def prepare(out: Path, mirrors: Path | None) -> None:
    _, repositories = load_corpus()
    for entry in repositories:
        target = out / entry["name"]
        if not target.exists():
            source = _mirror(mirrors, entry["name"]) if mirrors else None
            if mirrors and source is None:
                print(f"{entry['name']}: no mirror under {mirrors}; skipped", file=sys.stderr)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            git("clone", "--quiet", "--bare", *(["--shared", str(source)] if source else [entry["url"]]), str(target))
        git("-C", str(target), "update-ref", "--no-deref", "HEAD", entry["commit"])
        print(f"{entry['name']}: {target} at {entry['commit'][:12]}")


def distinctive_lines(code: str, count: int = 3) -> list[str]:
    """The `count` longest stripped lines that occur once in `code`, leaving out docstring and comment
    lines (prose is reworded more often than code is moved) and lines too short to be specific."""
    lines = [line.strip() for line in code.splitlines()]
    unique = [line for line in lines if lines.count(line) == 1 and len(line) >= 25
              and not line.startswith(("#", '"""', "'''")) and not line.endswith('"""')
              and any(ch in line for ch in "=(:")]
    return sorted(unique, key=len, reverse=True)[:count]


def oldest_commit(repo: Path, line: str) -> tuple[str, int] | None:
    """The oldest commit (any branch) whose Python files change the count of `line`, and its time (the
    older of author and committer time)."""
    log = git("-C", str(repo), "log", "--all", "--format=%H %at %ct", "-S", line, "--", "*.py").split("\n")
    found = [row.split() for row in log if row.strip()]
    if not found:
        return None
    commit, author, committer = found[-1]
    return commit, min(int(author), int(committer))


def verify(out: Path, kept_json: Path) -> int:
    since, _ = load_corpus()
    cutoff = int(datetime(since.year, since.month, since.day, tzinfo=timezone.utc).timestamp())
    kept = json.loads(kept_json.read_text(encoding="utf-8"))
    stale = differ = 0
    for item in kept:
        repo = out / item["repository"]
        code = git("-C", str(repo), "show", f"HEAD:{item['path']}")
        body = _class_code(code, item["class_name"])
        dated = [found for line in distinctive_lines(body) if (found := oldest_commit(repo, line))]
        if not dated:
            print(f"UNVERIFIED {item['repository']}:{item['path']}::{item['class_name']}: no distinctive line found")
            continue
        commit, when = max(dated, key=lambda pair: pair[1])
        verified = datetime.fromtimestamp(when, timezone.utc).date().isoformat()
        label = f"{item['repository']}:{item['path']}::{item['class_name']}"
        if when < cutoff:
            stale += 1
            print(f"STALE {label}: a distinctive line is in {commit[:12]} of {verified}; miner: {item['first_commit_date']}")
        elif abs(date.fromisoformat(verified) - date.fromisoformat(item["first_commit_date"][:10])).days > 1:
            differ += 1
            print(f"DIFFERS {label}: lines first in {commit[:12]} of {verified}; miner: "
                  f"{item['first_commit'][:12]} of {item['first_commit_date'][:10]}")
    print(f"{len(kept)} kept classes: {len(kept) - stale} verified after {since}, {stale} before; "
          f"{differ} dated differently by more than a day")
    return 1 if stale else 0


def _class_code(module: str, name: str) -> str:
    """The source of top-level class `name` in `module` (its header line to the next top-level line)."""
    lines = module.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"class {name}") and line[6 + len(name)] in "(:[")
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace()
                and not lines[i].startswith((")", "]"))), len(lines))
    return "\n".join(lines[start:end])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prep = commands.add_parser("prepare", help="bare repositories at their listed commits under OUT")
    prep.add_argument("out", type=Path)
    prep.add_argument("--mirrors", type=Path, help="a folder of mirrors (<owner>+<name>/repo or <owner>/<name>)")
    check = commands.add_parser("verify", help="date the kept classes of `mine --json` with git log -S")
    check.add_argument("out", type=Path)
    check.add_argument("kept", type=Path)
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.out, args.mirrors)
        return 0
    return verify(args.out, args.kept)


if __name__ == "__main__":
    sys.exit(main())
