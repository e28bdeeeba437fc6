"""Repair of a mined class's tests adds long walks (pipeline/synthesis/long_walks.py): a state only many calls
in a row reach (a collector sealed at its sixth distinct tag) is covered, where the short random walks of
the repair never get there."""

from __future__ import annotations

COLLECTOR = '''
class Collector:
    """Collects distinct tags; once it holds `limit` of them it is sealed and refuses more."""

    def __init__(self, limit: int = 6):
        self.limit = limit
        self.tags = set()
        self.sealed = False

    def add(self, tag: str) -> int:
        """Add `tag`; the number of distinct tags held. RuntimeError once sealed."""
        if self.sealed:
            raise RuntimeError("sealed")
        self.tags.add(tag)
        if len(self.tags) >= self.limit:
            self.sealed = True
        return len(self.tags)

    def size(self) -> int:
        """Distinct tags held."""
        return len(self.tags)

    def is_sealed(self) -> bool:
        """Whether the limit was reached."""
        return self.sealed

    def clear(self) -> None:
        """Forget every tag and unseal."""
        self.tags.clear()
        self.sealed = False
'''


def test_repair_of_a_mined_class_walks_long_enough_to_reach_a_state_of_many_calls(sandbox_pool):
    from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance
    from pipeline.synthesis.repair import repair_tests

    tests = "from collector import Collector\n" + "".join(
        f"\n\ndef test_add_{tag}():\n    assert Collector().add({tag!r}) == 1\n" for tag in "abcdef")
    missing = tuple(i + 1 for i, line in enumerate(COLLECTOR.splitlines()) if "self.sealed = True" in line)

    def repaired(origin: Origin) -> Candidate:
        candidate = Candidate(candidate_id="c", class_name="Collector", module_name="collector", domains=("X",),
                              description="d", skeleton="s", solution_code=COLLECTOR, test_code=tests,
                              origin=origin, provenance=Provenance(), generator=GeneratorSpec(backend="git"))
        return repair_tests(candidate, GateReport(candidate_id="c", passed=False, missing_lines=missing),
                            pool=sandbox_pool)

    added = repaired(Origin.MINED).test_code.split("coverage repair", 1)[1]
    assert all(f'.add("{tag}")' in added for tag in "abcdef") and "is_sealed() is True" in added
    assert repaired(Origin.ENHANCED).test_code == tests  # six distinct adds in one short random walk: never
