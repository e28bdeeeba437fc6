"""Which pairs of a seed corpus can be composed, and through which links: read before a build, on the seeds alone.

    .venv/bin/python benchmarks/composition_links.py [--seeds seeds] [--pairs] [--domains A B ...]

For every pair of seeds from different domains (the pairs the compose stage may try), the links the
seeds' declared ends allow (`pipeline/synthesis/links.py`: a producer of one joined to a consumer of the
other on meaning and unit). It prints the number of cross-domain pairs, how many have a link, how many
links are woven (the producing operation hands its value on) rather than link methods, the seeds that
produce or accept nothing, how many linkable pairs each seed is in, and with `--pairs` every link as the
sentence the hybrid's docstring would open with. Nothing runs: the seeds are only read.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.analysis.class_model import analyse  # noqa: E402
from core.domains import load_domains  # noqa: E402
from pipeline.corpus.seeds import load_corpus  # noqa: E402
from pipeline.synthesis.compose import chosen_links  # noqa: E402
from pipeline.synthesis.links import seed_ends  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=Path, default=ROOT / "seeds")
    parser.add_argument("--pairs", action="store_true", help="print every link's sentence")
    parser.add_argument("--domains", nargs="*", default=())
    args = parser.parse_args(argv)
    registry = load_domains(args.seeds / "domains.toml")
    corpus = load_corpus(args.seeds, registry, args.domains)
    for problem in corpus.problems:
        print(f"problem: {problem}")
    seeds = sorted(corpus.seeds, key=lambda s: s.seed_id)
    models = {s.seed_id: analyse(s.source, s.class_name) for s in seeds}
    pairs = [(a, b) for a, b in itertools.combinations(seeds, 2) if a.domain != b.domain]
    linked, woven, methods = 0, 0, 0
    per_seed: Counter[str] = Counter()
    for a, b in pairs:
        links = chosen_links(a, models[a.seed_id], b, models[b.seed_id], random.Random(0), 3, {})
        if not links:
            continue
        linked += 1
        per_seed.update([a.seed_id, b.seed_id])
        woven += sum(link.woven for link in links)
        methods += sum(not link.woven for link in links)
        if args.pairs:
            for link in links:
                kind = "woven" if link.woven else f"method {link.call}"
                print(f"{a.seed_id} + {b.seed_id} [{kind}]: {link.sentence}")
    print(f"cross-domain pairs: {len(pairs)}; with a link: {linked}; links woven: {woven}, link methods: {methods}")
    silent = [s.seed_id for s in seeds if seed_ends(s, models[s.seed_id]) == ((), ())]
    print(f"seeds with no declared or derived end ({len(silent)}): {', '.join(silent) or '-'}")
    print("linkable pairs per seed: " + ", ".join(f"{seed}={n}" for seed, n in per_seed.most_common()))
    unlinked = [s.seed_id for s in seeds if s.seed_id not in per_seed]
    print(f"seeds in no linkable pair ({len(unlinked)}): {', '.join(unlinked) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
