"""The run's settings: the environment read once, its secrets kept out of everything written."""

from __future__ import annotations

from pathlib import Path

from core.settings import Settings


def test_the_environment_is_resolved_once_into_the_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "a"))
    monkeypatch.setenv("HF_TOKEN", " hf_secret \n")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("GROQ_API_KEY", "")  # set but empty: no key
    resolved = Settings.from_environment()
    monkeypatch.setenv("HF_TOKEN", "hf_other")  # read when the run started, not when used
    assert resolved.artifacts == tmp_path / "a" and resolved.hub_token() == "hf_secret"
    assert resolved.hf_endpoint == "http://127.0.0.1:1"
    assert "OPENAI_API_KEY" in resolved.model_keys and "GROQ_API_KEY" not in resolved.model_keys
    assert resolved.with_artifacts(tmp_path / "b").artifacts == Path(tmp_path / "b")


def test_no_secret_is_written_or_shown(monkeypatch, tmp_path):
    settings = Settings(artifacts=tmp_path, seeds=tmp_path, domains=tmp_path, github_token="ghp_secret",
                        hf_token="hf_secret", model_keys=frozenset({"OPENAI_API_KEY"}))
    for text in (settings.model_dump_json(), repr(settings), str(settings.model_dump())):
        assert "ghp_secret" not in text and "hf_secret" not in text
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert Settings.from_environment().hub_token() == ""
