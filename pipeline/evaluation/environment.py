"""Telling an environment difference from a wrong answer: the failing tests run again where the sandbox
differs from the machine a suite was written on.

The sandbox runs as root, on its own host name, with today's clock. A suite written years ago on a
laptop may expect its own present ("upcoming" events dated that year), an ordinary user (a write to a
read-only file must fail) or the laptop's name. A failing test that passes once the run is made familiar
(uid 65534, this machine's host name, the clock a few years back: the `familiar` profile) failed because of
where it ran, unless it also passes when simply run again, twice (a random outcome: the failure stands); the single
changes (`clock_back`, `nonroot`, `host`) then name which difference it was. One extra run when no failing
test is recovered, which is the common case of a wrong answer.

A test whose code asks the network for a host (`socket.gethostbyaddr` and kin) cannot pass in a sandbox
without a network, whatever the code: it is an environment failure too, read from the code, not run.
"""

from __future__ import annotations

import re

from pipeline.evaluation.taxonomy import FailureClass
from validation.sandbox import Limits, RunResult, SandboxJob, SandboxPool

# Failure classes an environment can cause once the code imported: the rest (syntax, missing methods,
# timeouts, resources, tampering) say something about the code whatever the machine.
RECOVERABLE = frozenset({FailureClass.LOGIC, FailureClass.RUNTIME, FailureClass.DEPENDENCY})
SINGLE_CHANGES = (("clock_back", "clock"), ("nonroot", "privileges"), ("host", "hostname"))
_HOST_LOOKUPS = re.compile(r"\bsocket\.(gethostbyaddr|gethostbyname|gethostbyname_ex|getfqdn|getaddrinfo|"
                           r"getnameinfo|create_connection)\b|\burllib\.request\b|\brequests\.(get|post)\b")


def network_lookups(code: str) -> bool:
    """Whether `code` asks the network (a host name lookup, a connection): it cannot in the sandbox."""
    return _HOST_LOOKUPS.search(code) is not None


def environment_causes(failing: dict[str, str], files: dict[str, str], test_file: str, pool: SandboxPool,
                       limits: Limits) -> dict[str, str]:
    """Test id -> the difference it failed by (`clock`, `privileges`, `hostname`, `hostname lookup`, or several
    joined by `+`), for the tests of `failing` (id -> failure class) an environment could explain.

    `files` is the run's folder (the completion and its tests); only those tests run again.
    """
    candidates = tuple(t for t, cls in failing.items() if FailureClass(cls) in RECOVERABLE)
    if not candidates or not pool.protections.get("hostname_varied", False):
        return {}  # without bubblewrap the host name and user cannot be varied: nothing to compare
    familiar = _rerun(files, test_file, "familiar", candidates, pool, limits)
    recovered = tuple(t for t in candidates if familiar.get(t) == "passed")
    for profile in ("base", "reseeded"):  # a test that passes again where nothing that matters changed is
        if recovered:                      # flaky (a random outcome), not bound to the environment
            again = _rerun(files, test_file, profile, recovered, pool, limits)
            recovered = tuple(t for t in recovered if again.get(t) != "passed")
    causes: dict[str, list[str]] = {t: [] for t in recovered}
    if recovered:
        for profile, cause in SINGLE_CHANGES:
            for test_id, outcome in _rerun(files, test_file, profile, recovered, pool, limits).items():
                if outcome == "passed" and test_id in causes:
                    causes[test_id].append(cause)
    found = {t: "+".join(c) or "clock+privileges+hostname" for t, c in causes.items()}
    if any(network_lookups(text) for name, text in files.items() if name != test_file):
        found |= {t: "hostname lookup" for t in candidates if t not in found}
    return found


def _rerun(files: dict[str, str], test_file: str, profile: str, select: tuple[str, ...], pool: SandboxPool,
           limits: Limits) -> dict[str, str]:
    run: RunResult = pool.run(SandboxJob(files=files, test_file=test_file, profile=profile, select=select,
                                         limits=limits))
    return run.outcomes() if run.status == "completed" else {}
