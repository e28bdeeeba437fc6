"""Build configuration: defaults work, unknown or invalid settings are one error naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import InputError
from pipeline.release.assemble import ReleaseConfig
from pipeline.stages.config import BuildConfig, load_config


def test_no_file_means_the_offline_defaults():
    config = load_config(None)
    assert config == BuildConfig()
    assert config.gate.min_line_coverage == 0.90 and config.gate.min_interaction_edge_coverage == 0.75


def test_sections_override_their_stage_and_the_top_level_seed_wins(tmp_path: Path):
    path = tmp_path / "build.toml"
    path.write_text("rng_seed = 7\n[enhance]\ncandidates_per_seed = 2\nrng_seed = 99\n[gate]\nrun_mutation = false\n")
    config = load_config(path)
    assert config.enhance_config().candidates_per_seed == 2 and config.enhance_config().rng_seed == 7
    assert config.gate.run_mutation is False
    assert config.fingerprint() != BuildConfig().fingerprint()


@pytest.mark.parametrize(
    ("text", "field"),
    [("jobz = 2\n", "jobz"), ("[gate]\nmin_line_coverage = 1.5\n", "gate.min_line_coverage"), ("jobs = 0\n", "jobs")],
)
def test_a_bad_setting_names_the_file_and_field(tmp_path: Path, text: str, field: str):
    path = tmp_path / "build.toml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: field {field}:")


def test_mined_classes_as_seeds_is_the_default_and_keeps_earlier_run_ids(tmp_path: Path):
    from pipeline.mining.records import MineConfig

    mining = BuildConfig(mine=MineConfig(local=Path("/tmp/repos")))
    assert mining.mine.as_seeds is True
    # digests of these configurations as `[compose]` now reads (`max_links`, sixteen uses per seed), the same
    # whether or not `[mine] as_seeds`, `derive_docstrings` and the mining filters' settings are written out
    # at their defaults
    assert (mining.fingerprint(), BuildConfig().fingerprint()) == ("f4cfcc2c6d", "6d197c6d84")
    # a release setting added since changes the id only when it is set away from its default
    limited = BuildConfig(release=ReleaseConfig(max_variants_per_family=3))
    assert limited.fingerprint() != BuildConfig().fingerprint() and not limited.resumes_as(BuildConfig())
    path = tmp_path / "build.toml"
    path.write_text('[mine]\nlocal = "/tmp/repos"\nas_seeds = false\n')
    apart = load_config(path)
    assert apart.mine.as_seeds is False and apart.fingerprint() != mining.fingerprint()
    assert not apart.resumes_as(mining)
    path.write_text('[mine]\nlocal = "/tmp/repos"\nderive_docstrings = false\n')
    underived = load_config(path)
    assert underived.mine.derive_docstrings is False and underived.fingerprint() != mining.fingerprint()
