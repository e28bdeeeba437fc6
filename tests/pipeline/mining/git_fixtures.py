"""Git repositories made by the tests, with chosen commit dates (GIT_AUTHOR_DATE, GIT_COMMITTER_DATE)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

MIT = """MIT License

Copyright (c) 2025 Example

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction.
"""

GPL = """                    GNU GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007

 Copyright (C) 2007 Free Software Foundation, Inc. <https://fsf.org/>
"""


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.invalid",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.invalid", "GIT_CONFIG_NOSYSTEM": "1"}
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{date}T12:00:00+00:00"
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True, text=True).stdout


def make_repo(path: Path, licence: str | None = MIT) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    if licence is not None:
        (path / "LICENSE").write_text(licence)
    return path


def commit(repo: Path, date: str, files: dict[str, str | None], message: str = "change") -> str:
    """Write (or delete, for None) files and commit them at `date` (YYYY-MM-DD)."""
    for name, text in files.items():
        target = repo / name
        if text is None:
            git(repo, "rm", "-q", name)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        git(repo, "add", name)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD").strip()
