"""pipeline: the stages of a build and what they are made of.

- `stages/`: one file per stage (seeds, mine, mined_seeds, synthesis and model for enhance and compose,
  gate, repair, judge, release), with the driver that runs any of them, the executors, the build's
  configuration (`config`), the run's records (`runs`, `run_records`) and the stages over a command's inputs
  (`inputs`).
- What the stages call, a folder per concern: `synthesis` (offline enhance and compose, oracle tests,
  repair), `mining` (fresh classes from git repositories and GitHub), `release` (tasks, deduplication,
  decontamination, the dataset, its card and manifest, publishing), `evaluation` (models on a release),
  `report` (the HTML report), `corpus` (the seed corpus, ClassEval's format, a command's inputs).

Below it: `core`, `validation`, `models`, `judges`; above it: `flows` and `commands` (tests/test_layers.py).
"""
