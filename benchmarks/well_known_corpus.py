"""The `well_known` filter's decisions on what passes every other mining filter of a corpus.

    .venv/bin/python benchmarks/well_known_corpus.py collect CORPUS OUT.jsonl [--jobs 1] [--only OWNER/NAME ...]
    .venv/bin/python benchmarks/well_known_corpus.py judge OUT.jsonl [MORE.jsonl ...] [--benchmark FILE ...] [--all]

`collect` mines every repository under CORPUS (bare clones, as `mining_corpus.py prepare` makes them) with
the default `[mine]` settings: the source's whole chain of filters, the history queries and the docstrings
derived in the sandbox, exactly as the mine stage runs them, but without writing tests (the expensive part
of a mine, which the `well_known` filter comes before). Each repository's passing classes are appended to
OUT as one JSON line, so an interrupted collection resumes at the next repository (`--only` splits a
collection between processes; `judge` reads several files, a repository once).

`judge` applies `pipeline.mining.well_known.well_known` to every collected class (nothing runs: names,
shapes and n-gram overlap with the standard library and the `--benchmark` files) and prints how many it
rejects, by rule, and each rejected class with its evidence, as a Markdown table to read by hand; `--all`
lists the classes it lets through too. Rerun it after changing a rule: the collection does not change.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.domains import load_domains  # noqa: E402
from core.records import Rejection  # noqa: E402
from core.settings import Settings  # noqa: E402
from pipeline.mining.local import local_repositories, mine_repository  # noqa: E402
from pipeline.mining.records import MineConfig, MinedClass  # noqa: E402
from pipeline.mining.tally import Tally  # noqa: E402
from pipeline.mining.well_known import reference_corpus, well_known  # noqa: E402
from pipeline.stages.config import load_config  # noqa: E402
from pipeline.stages.mine import make_documenter, supported_by  # noqa: E402


def _done(out: Path) -> set[str]:
    if not out.is_file():
        return set()
    return {json.loads(line)["repository"] for line in out.read_text(encoding="utf-8").splitlines() if line.strip()}


def collect(corpus: Path, out: Path, jobs: int, only: tuple[str, ...] = ()) -> None:
    build = load_config(None)
    config = MineConfig(local=corpus.resolve())
    registry = load_domains(Settings.from_environment().domains)
    done = _done(out)
    with build.sandbox_pool(jobs) as pool, out.open("a", encoding="utf-8") as sink:
        documenter = make_documenter(config, None, None, pool=pool)
        for name, path in local_repositories(config.local):
            if name in done or (only and name not in only):
                continue
            tally = Tally()
            passed: list[dict] = []
            rejected: Counter[str] = Counter()
            for item in mine_repository(path, config, registry, tally, name=name, documenter=documenter,
                                        supported=supported_by(pool)):
                if isinstance(item, Rejection):
                    rejected[item.reason.value] += 1
                else:
                    passed.append(item.model_dump(mode="json"))
            sink.write(json.dumps({"repository": name, "classes_seen": tally.classes_seen, "passed": passed,
                                   "rejected": dict(sorted(rejected.items()))}) + "\n")
            sink.flush()
            print(f"{name}: {tally.classes_seen} seen, {len(passed)} pass every other filter", flush=True)


def judge(collected: list[Path], benchmarks: tuple[Path, ...], show_all: bool) -> None:
    reference = reference_corpus(benchmarks)
    rows = list({row["repository"]: row for path in collected for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip() and (row := json.loads(line))}.values())
    classes = [MinedClass.model_validate(c) for row in rows for c in row["passed"]]
    rules: Counter[str] = Counter()
    print("| repository | path | class | rule | detail |\n| --- | --- | --- | --- | --- |")
    for mined in classes:
        verdict = well_known(mined.slice_code, mined.class_name, reference)
        if verdict is not None:
            rules[verdict.rule] += 1
        if verdict is not None or show_all:
            rule, detail = (verdict.rule, verdict.detail) if verdict else ("", "kept")
            print(f"| {mined.repository} | {mined.path} | {mined.class_name} | {rule} | {detail} |")
    print(f"\n{len(rows)} repositories, {sum(r['classes_seen'] for r in rows)} classes seen, {len(classes)} pass "
          f"every other mining filter; well_known rejects {sum(rules.values())} "
          f"({', '.join(f'{rule} {n}' for rule, n in sorted(rules.items()))})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    collecting = commands.add_parser("collect")
    collecting.add_argument("corpus", type=Path)
    collecting.add_argument("out", type=Path)
    collecting.add_argument("--jobs", type=int, default=1)
    collecting.add_argument("--only", nargs="*", default=[], help="Only these repositories (owner/name).")
    judging = commands.add_parser("judge")
    judging.add_argument("collected", type=Path, nargs="+")
    judging.add_argument("--benchmark", type=Path, action="append", default=[])
    judging.add_argument("--all", action="store_true")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.corpus, args.out, args.jobs, tuple(args.only))
    else:
        judge(args.collected, tuple(args.benchmark), args.all)


if __name__ == "__main__":
    main()
