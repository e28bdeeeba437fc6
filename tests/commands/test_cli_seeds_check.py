"""`classeval-pro seeds check` on the bundled corpus reports no problem: every seed loads and passes the
validation gate (faithful variants included, so no seed's tests compare what its docstrings do not state).

A module of its own: the check runs the gate on every seed (one to two minutes on two cores), and loadscope
hands it to a worker as one unit like any other module.
"""

from __future__ import annotations

import re

import pytest

from core import settings
from tests.cli_runner import run_cli


@pytest.mark.slow
def test_every_bundled_seed_passes_seeds_check(monkeypatch, capsys):
    for name in ("CLASSEVAL_PRO_SEEDS", "CLASSEVAL_PRO_DOMAINS"):  # the bundled corpus and registry
        monkeypatch.delenv(name, raising=False)
    bundled = sorted(path.parent for path in settings.seeds_dir().glob("*/*/seed.toml"))
    assert bundled, settings.seeds_dir()

    code, out, err = run_cli(monkeypatch, capsys, "seeds", "check")

    counted = re.search(r"(\d+) valid seed\(s\), (\d+) with problems", out)
    assert counted is not None, out
    assert (int(counted.group(1)), int(counted.group(2))) == (len(bundled), 0), err
    assert code == 0, err
