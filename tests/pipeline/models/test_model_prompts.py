"""Prompt files: versioned templates, rendered strictly."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import InputError
from models.prompts import load_prompt

TEMPLATE = '''version = "2"
description = "asks for a class"
[[messages]]
role = "system"
content = "You write Python. Costs are in $$."
[[messages]]
role = "user"
content = """Write class $class_name:
```python
$code
```
{braces stay}"""
'''


def write(tmp_path: Path, text: str, name: str = "ask") -> Path:
    (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_render_gives_chat_messages(tmp_path: Path) -> None:
    prompt = load_prompt("ask", write(tmp_path, TEMPLATE))
    assert (prompt.name, prompt.version, prompt.ref) == ("ask", "2", "ask@2")
    messages = prompt.render(class_name="Wallet", code="def f(): return {'$': 1}")
    assert messages[0] == {"role": "system", "content": "You write Python. Costs are in $."}
    assert messages[1]["role"] == "user"
    assert "Write class Wallet:" in messages[1]["content"]
    assert "def f(): return {'$': 1}" in messages[1]["content"]  # values are not re-expanded
    assert "{braces stay}" in messages[1]["content"]


def test_missing_and_unused_values_are_refused(tmp_path: Path) -> None:
    prompt = load_prompt("ask", write(tmp_path, TEMPLATE))
    with pytest.raises(InputError, match=r"ask\.toml.*no value for \$code"):
        prompt.render(class_name="Wallet")
    with pytest.raises(InputError, match="values not in the template: clas_name"):
        prompt.render(class_name="Wallet", code="", clas_name="x")


@pytest.mark.parametrize(("text", "message"), [
    ('description = "no version"\n[[messages]]\nrole = "user"\ncontent = "hi"\n', "field version"),
    ('version = "1"\n[[messages]]\nrole = "robot"\ncontent = "hi"\n', "field messages.0.role"),
    ('version = "1"\nmessages = []\n', "field messages"),
    ('version = "1"\n[[messages]]\nrole = "user"\ncontent = "costs 5$ now"\n', "literal dollar"),
    ("version = \n", "not valid TOML"),
])
def test_broken_prompt_files_name_the_file(tmp_path: Path, text: str, message: str) -> None:
    write(tmp_path, text, "broken")
    with pytest.raises(InputError, match=message) as error:
        load_prompt("broken", tmp_path)
    assert "broken.toml" in str(error.value)


def test_missing_prompt_and_unsafe_names(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_prompt("absent", tmp_path)
    with pytest.raises(InputError, match="not a file name"):
        load_prompt("../ask", tmp_path)

