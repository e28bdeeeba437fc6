"""Files copied into sandbox job folders by the offline judges (stdlib and pytest only; never imported by
the pipeline itself: they import the untrusted reference)."""

from pathlib import Path


def text(name: str) -> str:
    """Source of one of the files in this folder."""
    return (Path(__file__).parent / name).read_text(encoding="utf-8")
