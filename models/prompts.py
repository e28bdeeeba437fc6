"""The model stages' prompts: the templates in `models/prompts/`, in the format of
core/prompt_templates.py (a versioned TOML file per prompt)."""

from __future__ import annotations

from pathlib import Path

from core.prompt_templates import PromptTemplate
from core.prompt_templates import load_prompt as load_template

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"


def load_prompt(name: str, directory: Path | None = None) -> PromptTemplate:
    """The template `<directory>/<name>.toml` (default: the model stages' prompts folder)."""
    return load_template(name, directory if directory is not None else PROMPTS_DIR)
