"""The [models] section, the build options over it, and the run's usage and stop files."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import InputError
from core.store import ArtifactStore
from core.tomlfile import load_toml_model
from models.client import Role
from models.config import ModelsConfig, apply_build_options
from models.feedback import append_tests, drop_tests, stable_output
from models.run_state import RunLedger, read_stop, summary_lines
from models.usage import UsageSummary
from pipeline.stages.config import BuildConfig


def test_offline_default_keeps_its_run_id_and_needs_no_model() -> None:
    config = BuildConfig()
    assert not config.models.uses_models
    assert apply_build_options(config).fingerprint() == config.fingerprint()
    # model settings unused by an offline build do not change its run
    assert BuildConfig(models=ModelsConfig(temperature=0.5)).fingerprint() == config.fingerprint()


def test_build_options_override_the_section() -> None:
    config = BuildConfig(models=ModelsConfig(test_writer="openai/tests-1", budget={"max_calls": 5}))
    applied = apply_build_options(config, backend="model", model="openai/big", reference_model="openai/ref",
                                  max_cost_usd=2.5, no_cache=True)
    models = applied.models
    assert models.backend_for("enhance") == models.backend_for("compose") == "model"
    assert models.model_for(Role.ENHANCER) == "openai/big" and models.model_for(Role.TEST_WRITER) == "openai/big"
    assert models.model_for(Role.REFERENCE_WRITER) == "openai/ref"
    assert (models.budget.max_calls, models.budget.max_cost_usd, models.cache) == (5, 2.5, False)
    # Raising the budget or bypassing the cache resumes the same run.
    again = apply_build_options(config, backend="model", model="openai/big", reference_model="openai/ref",
                                max_calls=50)
    assert again.fingerprint() == applied.fingerprint()
    assert apply_build_options(config, backend="model", model="openai/other").fingerprint() != applied.fingerprint()


def test_a_model_stage_without_a_model_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no model for role"):
        apply_build_options(BuildConfig(), backend="model")
    with pytest.raises(InputError, match="--backend"):
        apply_build_options(BuildConfig(), backend="llm")


def test_models_section_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "build.toml"
    path.write_text('[models]\nenhance_backend = "model"\nmodel = "ollama/qwen"\nfeedback_rounds = 1\n'
                    '[models.budget]\nmax_cost_usd = 3.0\n')
    config = load_toml_model(path, BuildConfig, "configuration file")
    assert config.models.backend_for("enhance") == "model" and config.models.backend_for("compose") == "offline"
    assert config.models.budget.max_cost_usd == 3.0
    path.write_text('[models]\nmodle = "x"\n')
    with pytest.raises(InputError, match="models.modle"):
        load_toml_model(path, BuildConfig, "configuration file")


def test_stable_output_drops_what_changes_between_runs() -> None:
    one = "FAILED /tmp/sbx-1/w/test_a.py::test_x - <A at 0x7f00aa11bb22>\n1 failed, 3 passed in 0.51s"
    two = "FAILED /tmp/sbx-9/q/test_a.py::test_x - <A at 0x7f99cc33dd44>\n1 failed, 3 passed in 1.02s"
    assert stable_output(one) == stable_output(two)
    assert "test_a.py::test_x" in stable_output(one)


def test_test_module_edits() -> None:
    module = "import pytest\n\n\n@pytest.mark.slow\ndef test_a():\n    assert 1\n\n\ndef test_b():\n    assert 2\n"
    assert drop_tests(module, {"test_a"}) == "import pytest\n\n\n\n\ndef test_b():\n    assert 2\n"
    grown = append_tests(module, "def test_b():\n    assert 3\n\n\ndef test_c():\n    pass\n", 1)
    assert "def test_b_round1():" in grown and "def test_c():" in grown and grown.count("def test_b():") == 1


def test_run_ledger_carries_spending_and_stops_across_attempts(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    models = ModelsConfig(backend="model", model="m", budget={"max_calls": 3})
    ledger = RunLedger(store, "run-1", models)
    ledger.budget.reserve()
    ledger.budget.reserve()
    from models.usage import UsageRow

    ledger.save_usage(UsageSummary(rows=(UsageRow(role="enhancer", model="m", calls=2),)))
    ledger.record_stop("enhance", "budget exhausted (3 of max_calls=3 model calls made)", ["enh-1", "enh-2"])
    again = RunLedger(store, "run-1", models)
    assert again.budget.calls == 2  # one call left of the run's three
    again.budget.reserve()
    assert again.budget.exhausted
    lines = summary_lines(tmp_path / "runs" / "run-1")
    assert any("2 work item(s) not done (enhance 2)" in line for line in lines)
    again.record_stop("enhance", "", [])
    assert read_stop(tmp_path / "runs" / "run-1") is None


def test_a_raised_budget_resumes_the_run_a_new_model_does_not(tmp_path: Path) -> None:
    from pipeline.stages import runs

    store = ArtifactStore(tmp_path)
    started = apply_build_options(BuildConfig(), backend="model", model="openai/a", max_calls=2)
    runs.record_configuration(store, "run-1", started)
    raised = apply_build_options(BuildConfig(), backend="model", model="openai/a", max_calls=20, no_cache=True)
    runs.record_configuration(store, "run-1", raised)  # accepted, and recorded as the run's configuration now
    assert BuildConfig.model_validate_json((tmp_path / "runs" / "run-1" / "config.json").read_bytes()) == raised
    with pytest.raises(InputError, match="differs in models"):
        runs.record_configuration(store, "run-1", apply_build_options(BuildConfig(), backend="model", model="openai/b"))
