import json

import pytest

from config_audit import AuditedSettings


@pytest.fixture
def settings():
    return AuditedSettings({"theme": "light", "font": 12, "sync": False})


def test_a_change_is_audited(settings):
    assert settings.set("font", 14) is True
    assert settings.get("font") == 14
    assert settings.changes("font") == [(12, 14)]
    assert settings.set("font", 14) is False
    assert settings.audited() == 1


def test_loading_json_audits_each_change(settings):
    assert settings.load_json('{"theme": "dark", "font": 12, "sync": true}') == 2
    assert settings.get("theme") == "dark"
    assert settings.get("sync") is True
    assert settings.changes("theme") == [("light", "dark")]
    assert settings.changes("font") == []
    assert settings.audited() == 2
    settings.set("theme", "light")
    assert settings.changes("theme") == [("light", "dark"), ("dark", "light")]


def test_bad_json_and_unknown_settings_are_refused(settings):
    with pytest.raises(json.JSONDecodeError):
        settings.load_json("{theme: dark")
    with pytest.raises(KeyError):
        settings.load_json('{"colour": "red"}')
    with pytest.raises(KeyError):
        settings.get("colour")
    with pytest.raises(KeyError):
        settings.set("colour", 1)
    assert settings.audited() == 0
