"""The GitHub source through PyGithub against the local REST emulator: search, pagination, licences,
dating by file history (renames followed), the rate-limit wait, retries, the response cache, every reason."""

from __future__ import annotations

import pytest
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.records import RejectReason
from pipeline.mining.github_api import GithubApi
from pipeline.mining.github_source import mine_github
from pipeline.mining.records import GithubSettings, MineConfig, MinedClass
from pipeline.mining.tally import Tally
from tests.emulators.github import FakeRepo, GithubEmulator

pytestmark = pytest.mark.slow  # PyGithub against a local server, a few hundred requests

TOKEN = "test-token"


class FakeTime:
    """One clock for the emulator's rate-limit windows and the miner's sleeps: sleeping moves it on."""

    def __init__(self) -> None:
        self.now, self.slept = 1_750_000_000.0, []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def _repos() -> list[FakeRepo]:
    fresh = FakeRepo("acme/cachekit", "MIT", topics=["cache"], description="a cache toolkit")
    fresh.add_commit("2025-02-01", {"cachekit/ledger.py": ledger_module("FreshLedger")})
    fresh.add_commit("2025-02-02", {"cachekit/numeric.py": ledger_module("NumpyLedger", imports="import numpy as np",
                                                                         helper_call="np.round(label)"),
                                    "cachekit/bare.py": ledger_module("BareLedger", documented=False),
                                    "cachekit/small.py": "class Tiny:\n    def a(self):\n        return 1\n",
                                    "cachekit/net.py": ledger_module("NetLedger", imports="import socket", extra_method=(
                                        "def host(self):\n    \"\"\"This machine's name.\"\"\"\n"
                                        "    return socket.gethostname()\n")),
                                    "cachekit/errors.py": "class CacheError(Exception):\n    pass\n"})
    old = FakeRepo("acme/oldcache", "Apache-2.0", topics=["cache"], readme="An old cache.")
    old.add_commit("2022-01-01", {"oldcache/old_name.py": ledger_module("AgedLedger")})
    old.add_commit("2025-03-01", {"oldcache/ledger.py": ledger_module("AgedLedger")},
                   renamed={"oldcache/ledger.py": "oldcache/old_name.py"})
    old.add_commit("2025-03-02", {"oldcache/ledger.py": ledger_module("AgedLedger") + "\nX = 1\n"})
    gpl = FakeRepo("acme/gplcache", "GPL-3.0", topics=["cache"])
    gpl.add_commit("2025-02-01", {"ledger.py": ledger_module("GplLedger")})
    nameless = FakeRepo("acme/cache-odd", None, topics=["cache"])
    nameless.add_commit("2025-02-01", {"ledger.py": ledger_module("OddLedger")})
    stale = FakeRepo("acme/stale-cache", "MIT", topics=["cache"], pushed_at="2024-05-01T00:00:00Z")
    stale.add_commit("2024-05-01", {"ledger.py": ledger_module("StaleLedger")})
    return [fresh, old, gpl, nameless, stale]


def _mine(emulator: GithubEmulator, time: FakeTime, cache, **config):
    api = GithubApi(TOKEN, cache, base_url=emulator.base_url, per_page=2, clock=time.clock, sleep=time.sleep)
    settings_ = MineConfig(github=True, domains=("Algo_DataStruct",),
                           github_settings=GithubSettings(per_page=2, repos_per_keyword=10), **config)
    tally = Tally()
    items = list(mine_github(settings_, load_domains(settings.domain_registry_path()), tally, client=api))
    kept = {i.class_name: i for i in items if isinstance(i, MinedClass)}
    rejected = {i.evidence.get("class_name") or i.evidence["repository"]: i for i in items if not isinstance(i, MinedClass)}
    return kept, rejected, tally, api


@pytest.fixture()
def time() -> FakeTime:
    return FakeTime()


def test_every_rejection_reason_and_the_kept_class(time, tmp_path):
    with GithubEmulator(_repos(), clock=time.clock) as emulator:
        kept, rejected, tally, _ = _mine(emulator, time, tmp_path / "cache")
    assert set(kept) == {"FreshLedger"}
    fresh = kept["FreshLedger"]
    assert (fresh.repository, fresh.licence, fresh.first_commit_date) == ("acme/cachekit", "MIT", "2025-02-01")
    assert fresh.url == "https://github.com/acme/cachekit" and fresh.domain == "Algo_DataStruct"
    reasons = {name: r.reason for name, r in rejected.items()}
    assert reasons == {
        "NumpyLedger": RejectReason.NOT_SELF_CONTAINED, "BareLedger": RejectReason.UNDOCUMENTED,
        "Tiny": RejectReason.TOO_SMALL, "NetLedger": RejectReason.UNSAFE_EFFECTS,
        "CacheError": RejectReason.NOT_A_TASK_CLASS, "AgedLedger": RejectReason.NOT_FRESH,
        "acme/gplcache": RejectReason.LICENCE_NOT_ALLOWED, "acme/cache-odd": RejectReason.LICENCE_NOT_ALLOWED,
    }
    # the class's file was renamed after the cut-off; its history before the rename dates it
    assert rejected["AgedLedger"].evidence["first_commit_date"] == "2022-01-01"
    assert "acme/stale-cache" not in tally.repositories  # search asked for pushes after the cut-off


def test_pagination_follows_link_headers(time, tmp_path):
    with GithubEmulator(_repos(), clock=time.clock) as emulator:
        _, _, tally, _ = _mine(emulator, time, tmp_path / "cache")
        searches = [r for r in emulator.requests if r.startswith("/search/repositories")]
    # four matching repositories at two per page: each search reads page 1 and page 2
    assert any("page=2" in r for r in searches)
    assert sorted(tally.repositories) == ["acme/cache-odd", "acme/cachekit", "acme/gplcache", "acme/oldcache"]


def test_the_miner_waits_out_a_rate_limit_episode(time, tmp_path):
    with GithubEmulator(_repos(), clock=time.clock, rate_limit_after=5, reset_in=120) as emulator:
        kept, _, _, api = _mine(emulator, time, tmp_path / "cache")
        limited = list(emulator.limited)
    assert set(kept) == {"FreshLedger"}
    assert len(limited) == 1 and 120 <= sum(time.slept) <= 125
    assert api.waited_s == sum(time.slept)


def test_server_errors_are_retried_with_backoff(time, tmp_path):
    with GithubEmulator(_repos(), clock=time.clock) as emulator:
        original, failures = emulator.route, []

        def flaky(path, query):
            if path == "/repos/acme/cachekit" and len(failures) < 2:
                failures.append(path)
                return 502, {"message": "Bad Gateway"}, {}
            return original(path, query)

        emulator.route = flaky
        kept, _, _, _ = _mine(emulator, time, tmp_path / "cache")
    assert set(kept) == {"FreshLedger"} and len(failures) == 2 and time.slept[:2] == [2.0, 4.0]


def test_a_rerun_asks_nothing_it_already_has(time, tmp_path):
    with GithubEmulator(_repos(), clock=time.clock) as emulator:
        first, _, _, _ = _mine(emulator, time, tmp_path / "cache")
        asked = len(emulator.requests)
        second, _, _, api = _mine(emulator, time, tmp_path / "cache")
        assert len(emulator.requests) == asked and api.requests == 0
    assert first.keys() == second.keys()


def test_secondary_limits_wait_as_told(time, tmp_path):
    with GithubEmulator(_repos(), clock=time.clock) as emulator:
        original, refused = emulator.route, []

        def limited(path, query):
            if path == "/repos/acme/oldcache" and not refused:
                refused.append(path)
                return 403, {"message": "You have exceeded a secondary rate limit."}, {"Retry-After": "30"}
            if path == "/repos/acme/gplcache" and len(refused) == 1:
                refused.append(path)
                return 429, {"message": "Too many requests"}, {}
            return original(path, query)

        emulator.route = limited
        kept, rejected, _, _ = _mine(emulator, time, tmp_path / "cache")
    assert refused == ["/repos/acme/oldcache", "/repos/acme/gplcache"] and 30.0 in time.slept
    assert set(kept) == {"FreshLedger"} and rejected["AgedLedger"].reason is RejectReason.NOT_FRESH
