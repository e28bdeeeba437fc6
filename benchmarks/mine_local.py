"""Speed of the local miner on a generated repository: classes per second, and where the time goes.

    .venv/bin/python benchmarks/mine_local.py [--commits 3000] [--files 1000] [--task-share 0.08]

The repository is written with `git fast-import` (seconds, not the minutes of one `git commit` each):
`--files` Python modules, each made of small helper classes and functions, a share of them holding a class
that passes every cheap filter (so that it reaches the history queries); `--commits` commits spread from
2023 to mid-2025: the first holds half the modules, each later one writes one module (a new one, or a
new version of an old one), so that some task classes were written before the 2025-01-01
cut-off and touched after it. Mining (filters, slices and first-appearance queries; no test synthesis) is
timed as a whole and per phase: reading and parsing HEAD, the filters, the history queries. It prints
classes seen per second, the kept/not-fresh split, and the share of time spent in history queries.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import settings  # noqa: E402
from core.domains import load_domains  # noqa: E402
from pipeline.mining import freshness, local  # noqa: E402
from pipeline.mining.records import MineConfig, MinedClass  # noqa: E402
from pipeline.mining.tally import Tally  # noqa: E402

START, END = 1_672_531_200, 1_748_736_000  # 2023-01-01 .. 2025-06-01


def filler(index: int, version: int) -> str:
    """Small code that the cheap filters drop: two tiny classes and a function."""
    return textwrap.dedent(f'''
        def helper_{index}(value):
            return value * {version + 1}


        class Point{index}:
            def __init__(self, x):
                self.x = x

            def moved(self, dx):
                return Point{index}(self.x + dx)


        class Error{index}(ValueError):
            pass
        ''')


def task_class(index: int, version: int) -> str:
    """A class that passes kind, size, documentation, slice, effects and interaction filters."""
    methods = "\n".join(textwrap.indent(textwrap.dedent(f'''
        def step_{m}(self, amount: int) -> int:
            """Add `amount` to slot {m} and return the running total."""
            self.slots[{m}] = self.slots.get({m}, 0) + amount * {version + 1}
            self.history.append(({m}, amount))
            return self.total()
        '''), "    ") for m in range(5))
    return textwrap.dedent(f'''
        class Counter{index}:
            """Counts amounts in numbered slots (variant {index})."""

            def __init__(self) -> None:
                """Start with no slots."""
                self.slots: dict[int, int] = {{}}
                self.history: list[tuple[int, int]] = []

            def total(self) -> int:
                """Sum of every slot."""
                return sum(self.slots.values())

            def undo(self) -> int:
                """Take back the last step and return the new total."""
                slot, amount = self.history.pop()
                self.slots[slot] -= amount
                return self.total()
        ''') + methods + "\n"


def generate(repo: Path, commits: int, files: int, task_share: float, rng: random.Random) -> None:
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    tasks = set(rng.sample(range(files), max(1, int(files * task_share))))
    versions = [0] * files
    stream: list[bytes] = []

    def blob(text: str) -> bytes:
        data = text.encode()
        return b"data %d\n%s\n" % (len(data), data)

    def module(index: int) -> str:
        body = filler(index, versions[index])
        return body + (task_class(index, versions[index] if index % 2 else 0) if index in tasks else "")

    times = sorted(rng.randrange(START, END) for _ in range(commits))
    for number, when in enumerate(times):
        if number == 0:  # half the modules at the start; the others appear when a commit first writes them
            changed = list(range(files // 2))
            extra = [("LICENSE", "MIT License\n\nPermission is hereby granted, free of charge, to any person "
                                 "obtaining a copy of this software\n"), ("README.md", "A counter cache.\n")]
        else:
            changed, extra = [rng.randrange(files)], []
            versions[changed[0]] += 1
        stream.append(b"commit refs/heads/main\n")
        stream.append(b"committer a <a@example.invalid> %d +0000\n" % when)
        stream.append(blob(f"change {number}"))  # later commits continue the branch fast-import is writing
        for index in changed:
            stream.append(b"M 100644 inline pkg/mod_%04d.py\n" % index + blob(module(index)))
        for path, text in extra:
            stream.append(f"M 100644 inline {path}\n".encode() + blob(text))
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input=b"".join(stream), check=True)
    subprocess.run(["git", "-C", str(repo), "symbolic-ref", "HEAD", "refs/heads/main"], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--task-share", type=float, default=0.08)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "generated.git"
        began = time.perf_counter()
        generate(repo, args.commits, args.files, args.task_share, random.Random(args.seed))
        print(f"generated {args.commits} commits, {args.files} files in {time.perf_counter() - began:.1f}s")
        history = [0.0]
        original = freshness.first_appearance

        def timed(*a, **k):  # noqa: ANN002, ANN003, ANN202 - a pass-through wrapper that times the call
            start = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                history[0] += time.perf_counter() - start

        local.first_appearance = timed
        tally, reasons, kept = Tally(), Counter(), 0
        began = time.perf_counter()
        for item in local.mine_repository(repo, MineConfig(), load_domains(settings.domain_registry_path()), tally):
            if isinstance(item, MinedClass):
                kept += 1
            else:
                reasons[item.reason.value] += 1
        elapsed = time.perf_counter() - began
    print(f"mined in {elapsed:.1f}s: {tally.classes_seen} classes seen, {tally.classes_seen / elapsed:.1f} classes/s")
    print(f"kept {kept}; rejected {dict(sorted(reasons.items()))}")
    queried = kept + reasons.get("not_fresh", 0)
    print(f"history queries: {queried} classes, {history[0]:.1f}s ({history[0] / elapsed:.0%} of the time, "
          f"{history[0] / max(queried, 1):.2f}s per class)")


if __name__ == "__main__":
    main()
