"""The mining corpus (benchmarks/mining_corpus.toml): bring its repositories here, and check the dates of what
was kept from them independently of the miner.

    .venv/bin/python benchmarks/mining_corpus.py prepare OUT [--mirrors DIR]
    .venv/bin/classeval-pro mine --local OUT --json kept.json
    .venv/bin/python benchmarks/mining_corpus.py verify OUT kept.json   # or verify OUT RUN_DIR (its mined/)
    .venv/bin/python benchmarks/mining_corpus.py funnel RUN_DIR

`classeval-pro build` with `[mine] local = "OUT"` mines the corpus too; `funnel` reads a run's folder (of
either command) and prints the funnel per rejection reason and per repository as Markdown tables, and, for
a build, what became of the mined candidates after the gate and the judges.

`prepare` makes one bare repository per corpus entry at OUT/<owner>/<name>, its HEAD detached at the listed
commit (so a later push upstream changes nothing that is mined). With `--mirrors DIR` it clones
`DIR/<owner>+<name>/repo` (or `DIR/<owner>/<name>`) with `--shared` (no object is copied; the mirror may be
partial: an absent blob costs only its file); without it, it clones the GitHub URL in full (a blobless clone
would leave every blob absent: the miner never lets git fetch one). Nothing is checked out, so the corpus
code is never on a path that runs it.

`verify` dates every kept class a second way, without the miner's code: for each of its most distinctive
lines (the longest code lines that occur once in it), the oldest commit on any branch whose `*.py` files
change that line's count (`git log -S`); the class is as old as the oldest of them, which must be after the
cut-off. It prints the classes whose lines are older than the cut-off (STALE) or whose date differs from the
miner's first commit by more than a day (DIFFERS), and exits 1 when any is stale.
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
    kept = (json.loads(kept_json.read_text(encoding="utf-8")) if kept_json.is_file()  # mine --json, or a run's mined/
            else [json.loads(p.read_text(encoding="utf-8")) for p in sorted((kept_json / "mined").glob("*.json"))])
    stale = differ = 0
    for item in kept:
        repo = out / item["repository"]
        code = git("-C", str(repo), "show", f"HEAD:{item['path']}")
        body = _class_code(code, item["class_name"])
        dated = [found for line in distinctive_lines(body) if (found := oldest_commit(repo, line))]
        if not dated:
            print(f"UNVERIFIED {item['repository']}:{item['path']}::{item['class_name']}: no distinctive line found")
            continue
        commit, when = min(dated, key=lambda pair: pair[1])
        verified = datetime.fromtimestamp(when, timezone.utc).date().isoformat()
        label = f"{item['repository']}:{item['path']}::{item['class_name']}"
        if when < cutoff:
            stale += 1
            print(f"STALE {label}: a distinctive line is in {commit[:12]} of {verified}; "
                  f"miner: {item['first_commit_date']}")
        elif abs(date.fromisoformat(verified) - date.fromisoformat(item["first_commit_date"][:10])).days > 1:
            differ += 1
            print(f"DIFFERS {label}: lines first in {commit[:12]} of {verified}; miner: "
                  f"{item['first_commit'][:12]} of {item['first_commit_date'][:10]}")
    print(f"{len(kept)} kept classes: {len(kept) - stale} verified after {since}, {stale} before; "
          f"{differ} dated differently by more than a day")
    return 1 if stale else 0


def funnel(run: Path) -> None:
    works = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((run / "mine_work").glob("*.json"))]
    seen = sum(w["classes_seen"] for w in works)
    kept = sum(len(w["kept"]) for w in works)
    reasons: dict[str, int] = {}
    for work in works:
        for reason, count in work["rejected"].items():
            reasons[reason] = reasons.get(reason, 0) + count
    print(f"{len(works)} repositories, {seen} classes seen, {kept} kept\n")
    print("| reason | rejections |\n| --- | ---: |")
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"| `{reason}` | {count} |")
    top = [reason for reason, _ in sorted(reasons.items(), key=lambda item: -item[1])][:6]
    print("\n| repository | classes | kept | " + " | ".join(f"`{r}`" for r in top) + " | other |")
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in top) + " | ---: |")
    for work in sorted(works, key=lambda w: (-len(w["kept"]), w["repository"])):
        counts = [work["rejected"].get(r, 0) for r in top]
        other = sum(work["rejected"].values()) - sum(counts)
        print(f"| {work['repository']} | {work['classes_seen']} | {len(work['kept'])} | "
              + " | ".join(str(c) for c in counts) + f" | {other} |")
    candidates = {cid for work in works for _, cid in work["kept"]}
    if not (run / "validate").is_dir():
        return
    released_ids = _released_candidates(run)
    fates: dict[str, list[str]] = {}
    for cid in sorted(candidates):
        fates.setdefault(_fate(run, cid, released_ids), []).append(cid)
    released = sum(len(ids) for fate, ids in fates.items() if fate.startswith("released"))
    print(f"\n{len(candidates)} mined candidates: {released} released, {len(candidates) - released} not "
          "(each by the last stage that saw it; a candidate whose tests the repair rewrote, by what became of the "
          "rewritten one)")
    for fate, ids in sorted(fates.items(), key=lambda item: -len(item[1])):
        print(f"  {fate}: {len(ids)}")
    released_ids = {cid for fate, ids in fates.items() if fate.startswith("released") for cid in ids}
    per_repository = {w["repository"]: sum(1 for _, cid in w["kept"] if cid in released_ids) for w in works}
    print("\n| repository | candidates | released |\n| --- | ---: | ---: |")
    for work in sorted(works, key=lambda w: (-per_repository[w["repository"]], -len(w["kept"]), w["repository"])):
        if work["kept"]:
            print(f"| {work['repository']} | {len(work['kept'])} | {per_repository[work['repository']]} |")


def _released_candidates(run: Path) -> set[str]:
    """Candidate ids of the tasks the run released (its release's table, beside the runs folder)."""
    import pandas as pd

    done = run / "release.done.json"
    if not done.exists():
        return set()
    version = json.loads(done.read_text(encoding="utf-8"))["version"]
    tables = sorted((run.parent.parent / "releases" / version / "data").glob("*.parquet"))
    return {cid for table in tables for cid in pd.read_parquet(table, columns=["candidate_id"])["candidate_id"]}


def _fate(run: Path, candidate_id: str, released: set[str]) -> str:
    """What became of one mined candidate, followed to the candidate the gate's repair made of it, if any:
    "released", or the stage and reason that ended it. A gate rejection that the repair answers is not
    always written as a rejection record, so the gate report and the judges' decision are read too."""
    def read(folder: str, cid: str) -> dict | None:
        path = run / folder / f"{cid}.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None

    repair = read("repair", candidate_id)
    final = repair["candidate_id"] if repair else candidate_id
    after = " after repair" if final != candidate_id else ""
    if final in released:
        return "released" + after
    rejection = read("rejections", final)
    if rejection is not None:
        return f"{rejection['stage']}: {rejection['reason']}{after}"
    report = read("validate", final)
    if report is not None and not report["passed"]:
        return f"validate: {report['reasons'][0]}{after}"
    decision = read("judge", final)
    if decision is not None and decision["outcome"] != "accept":
        return f"judge: {decision['outcome']}{after}"
    return "not released" + after


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
    check = commands.add_parser("verify", help="date kept classes (mine --json file, or a run folder) with git log -S")
    check.add_argument("out", type=Path)
    check.add_argument("kept", type=Path)
    tally = commands.add_parser("funnel", help="the funnel of a run that mined the corpus, as Markdown")
    tally.add_argument("run", type=Path)
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.out, args.mirrors)
        return 0
    if args.command == "funnel":
        funnel(args.run)
        return 0
    return verify(args.out, args.kept)


if __name__ == "__main__":
    sys.exit(main())
