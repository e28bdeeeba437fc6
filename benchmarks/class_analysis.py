"""CPU cost of the static class analysis on the bundled seeds: the two parsers, and the gate's in-process
analysis work per candidate with one shared parse against a parse per consumer.

    python benchmarks/class_analysis.py [--repeat 3]

Prints process CPU seconds (best of --repeat) for the 55 seeds and ratios measured in the same run:
- `ast.parse` against `libcst.parse_module` (why the facts are read from `ast`);
- class facts (`ast` scan), the synthesis class model, the libcst text of the methods (release rows);
- the gate's analysis of one candidate (static edges, the two vacuous-test skeletons, mutant generation)
  with the shared parse (`core.analysis.parsed`) and with the cache emptied before each consumer,
  as if each parsed for itself.
"""

from __future__ import annotations

import argparse
import ast
import time
from collections.abc import Callable
from pathlib import Path

import libcst

from core.analysis import parsed as parsed_module
from core.analysis.class_facts import class_facts, static_edges
from core.analysis.class_model import analyse
from core.analysis.skeleton import make_skeleton
from core.domains import load_domains
from core.records import SeedClass
from pipeline.corpus.seeds import load_corpus
from validation.mutation import generate_mutants

ROOT = Path(__file__).resolve().parent.parent / "seeds"


def _cpu(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        parsed_module._RECENT.clear()
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def _gate_analysis(seeds: tuple[SeedClass, ...], *, shared: bool, max_mutants: int) -> None:
    """What the gate computes in its own process for each candidate, in the gate's order."""
    for seed in seeds:
        steps = (
            lambda: static_edges(seed.source, seed.class_name),
            lambda: make_skeleton(seed.source, seed.class_name, body="raise", keep_init=True),
            lambda: make_skeleton(seed.source, seed.class_name, body="pass"),
            lambda: generate_mutants(seed.source, seed.class_name, max_mutants=max_mutants),
        )
        for step in steps:
            if not shared:
                parsed_module._RECENT.clear()
            step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-mutants", type=int, default=40, help="the gate's default sample of mutants")
    args = parser.parse_args()
    seeds = load_corpus(ROOT, load_domains(ROOT / "domains.toml")).seeds
    print(f"{len(seeds)} seeds, {sum(len(s.source) for s in seeds)} characters; CPU seconds, best of {args.repeat}")

    def text_of_all() -> None:
        for s in seeds:
            for m in class_facts(s.source, s.class_name).methods:
                _ = (m.source, m.description, m.signature)

    rows = {
        "ast.parse": lambda: [ast.parse(s.source) for s in seeds],
        "libcst.parse_module": lambda: [libcst.parse_module(s.source) for s in seeds],
        "class facts (ast)": lambda: [class_facts(s.source, s.class_name).methods for s in seeds],
        "class model (synthesis)": lambda: [analyse(s.source, s.class_name) for s in seeds],
        "facts + libcst method text": text_of_all,
        "gate analysis, shared parse": lambda: _gate_analysis(seeds, shared=True, max_mutants=args.max_mutants),
        "gate analysis, parse per consumer": lambda: _gate_analysis(seeds, shared=False,
                                                                    max_mutants=args.max_mutants),
    }
    times = {label: _cpu(work, args.repeat) for label, work in rows.items()}
    for label, seconds in times.items():
        print(f"  {label:36s} {seconds:8.3f}")
    print(f"libcst parse / ast parse: {times['libcst.parse_module'] / times['ast.parse']:.1f}x")
    print(f"gate analysis, parse per consumer / shared: "
          f"{times['gate analysis, parse per consumer'] / times['gate analysis, shared parse']:.2f}x")


if __name__ == "__main__":
    main()
