"""The release stage: deduplicate, decontaminate, and write an immutable, versioned dataset; publish it.

A module per idea: `task_builder` (Candidate + gate report -> Task), `normalise` and `dedup` (exact and near
duplicates), `decontam` (n-gram overlap with public benchmarks), `versioning` (calendar versions),
`dataset_io` (parquet through `datasets`, load back), `export` (ClassEval JSON), `formats` (the registry of
export formats release assembly writes), `manifest` (hashes and
verification), `diff` (against the previous release), `card` (README.md dataset card), `assemble` (the
`release` function tying them together), `publish` (Hugging Face Hub) and `cli` (its commands).
Heavy libraries (datasets, huggingface_hub, datasketch) are imported inside the functions that use them.
"""

from __future__ import annotations

import importlib
from typing import Any

_ENTRY_POINTS = {
    "build_task": "pipeline.release.task_builder",
    "release": "pipeline.release.assemble",
    "ReleaseConfig": "pipeline.release.assemble",
    "ReleaseResult": "pipeline.release.assemble",
    "load_release": "pipeline.release.dataset_io",
    "verify_release": "pipeline.release.manifest",
}


def __getattr__(name: str) -> Any:
    """Entry points on first use (`from pipeline.release import release`), without importing every module.

    `publish` is not among them: it is also the name of its module; import it from pipeline.release.publish.
    """
    module = _ENTRY_POINTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pipeline.release' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
