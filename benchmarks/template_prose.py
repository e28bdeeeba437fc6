"""Template prose of a release: the share of its skeletons' docstring sentences that appear verbatim in more
than 20% of its tasks (class and method names masked), and the most repeated of them.

    .venv/bin/python benchmarks/template_prose.py artifacts/releases/2026.12.0 [--top 15]

The figure is computed by `pipeline.release.template_prose.measure`, the function the release card uses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.release.dataset_io import load_release  # noqa: E402
from pipeline.release.template_prose import THRESHOLD, measure  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", type=Path, help="a release folder (artifacts/releases/<version>)")
    parser.add_argument("--top", type=int, default=15, help="how many repeated sentences to list")
    args = parser.parse_args()
    tasks = load_release(args.release)
    figure = measure(tasks, top=args.top)
    print(f"{args.release}: {figure.tasks} tasks, {figure.sentences} docstring sentences")
    print(f"template prose: {100 * figure.share:.1f}% ({figure.repeated} sentences appear in more than "
          f"{THRESHOLD:.0%} of the tasks)")
    for sentence, tasks_with, occurrences in figure.top:
        print(f"  {tasks_with:4d} tasks {occurrences:5d}x  {sentence[:160]}")


if __name__ == "__main__":
    main()
