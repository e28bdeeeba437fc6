"""The release stage: deduplicate, decontaminate, and write an immutable, versioned dataset; publish it.

A module per idea: `task_builder` (Candidate + gate report -> Task), `normalise` and `dedup` (exact and near
duplicates), `decontam` (n-gram overlap with public benchmarks), `versioning` (calendar versions),
`dataset_io` (parquet through `datasets`, load back), `export` (ClassEval JSON), `manifest` (hashes and
verification), `diff` (against the previous release), `card` (README.md dataset card), `assemble` (the
`release` function tying them together), `publish` (Hugging Face Hub) and `cli` (its commands).
Heavy libraries (datasets, huggingface_hub, datasketch) are imported inside the functions that use them.
"""
