"""The deterministic checks (the judges of the checks layer), in an explicit registry.

The registry maps a judge's name to the factory that builds it, "module:factory", every factory taking
`(config: JudgesConfig, runner: SuiteRunner | None)` so that the judge stage builds the panel without
knowing any judge: a judge takes from the `[judges]` section what it needs and ignores the rest, and only a
judge that runs code uses the runner. The registry's order is the panel's: verdicts are recorded and
released in it, so a new judge goes last, never between two others.

To add one: a module here with a class following `judges.protocol.Judge` (an offline `JudgeSpec`) and a
`make_judge(config, runner)` factory, and one line in `REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable

from core.registry import Registry
from core.suite_runs import SuiteRunner
from judges.config import JudgesConfig
from judges.protocol import Judge

JudgeFactory = Callable[[JudgesConfig, SuiteRunner | None], Judge]

REGISTRY: Registry = Registry("offline judge", {
    "specification": "judges.offline.specification:make_judge",
    "consistency": "judges.offline.consistency:make_judge",
    "adequacy": "judges.offline.adequacy:make_judge",
})


def offline_judges(config: JudgesConfig, runner: SuiteRunner | None) -> list[Judge]:
    """Every registered check, built for `config`, in the registry's order."""
    factories: list[JudgeFactory] = [REGISTRY.load(name) for name in REGISTRY]
    return [factory(config, runner) for factory in factories]


__all__ = ["REGISTRY", "JudgeFactory", "offline_judges"]
