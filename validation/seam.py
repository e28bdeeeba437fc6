"""Interaction across the seam of a composed class: does a value of one part change what the other returns?

The interaction gate measures edges between any two methods of a class; in a composed class the tests can
satisfy it by interleaving the two parts' methods without any value crossing between them (each part's
edges are exercised on its own). This check measures only the edges that cross the seam.

The parts are the two seeds' members as the compose stage recorded them (`generator.parameters["parts"]`:
per part, its methods and its instance fields by their names in the hybrid); a field the record leaves out
(added or renamed by a later rewrite) is placed by the methods that use and observe it
(`core.analysis.parts.complete_parts`). A *carrier* is a method that writes one part's fields with a value
derived from the other's state, by any path `core.analysis.state_flow` follows: assigned, handed to a helper
or to the other part's method that stores it, returned by a helper, written through an object a field holds
(a database connection, a list of records), or decided by the state (a fee charged only once one part's
checks passed). A bridge method and a link woven into one part's own operation are carriers alike. Reading
one part and writing the other is not enough: the value written must derive from what was read (or a
condition on it); a constant written for nobody carries nothing. A *seam edge* ``carrier -> reader`` joins
a carrier to a method of the class that reads a field of the target part the carrier writes: calling the
carrier, then the reader, shows the other part a value of the first. A test *crosses the seam* when, on one
instance, it calls a carrier and later calls such a reader itself (both driven from the test, in the
tracer's ordered calls of `validation.sandbox.interaction`): a reader reached only inside the carrier (the
bridge's own call of the target method) shows the test nothing.

A composed candidate fails (`incoherent_fusion`) when neither part influences the other (no seam edge) or
no test crosses the seam. Pure functions on source text and the tracer's result; nothing runs here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.analysis.class_model import analyse
from core.analysis.parts import complete_parts
from core.analysis.state_flow import field_source, state_flows


def recorded_parts(parameters: Mapping[str, Any]) -> dict[str, dict[str, list[str]]] | None:
    """The parts a composed candidate's generator recorded, or None when it recorded none (a model's
    composition whose parts could not be recovered from its seeds, or a candidate made before the parts
    were recorded)."""
    parts = parameters.get("parts")
    if not isinstance(parts, Mapping) or len(parts) != 2:
        return None
    return {name: {"methods": list(part.get("methods") or ()), "fields": list(part.get("fields") or ())}
            for name, part in parts.items()}


def seam_edges(source: str, class_name: str, parts: Mapping[str, Mapping[str, list[str]]]) -> list[dict[str, Any]]:
    """Every seam edge of the class (see the module docstring), as JSON-able dicts: the carrier
    (``source``), the reader (``target``), the parts the value goes from and to, and the fields it rests
    on. Raises SyntaxError or LookupError when the class cannot be read."""
    model = analyse(source, class_name)
    flows = state_flows(source, class_name)
    completed = complete_parts(source, class_name, parts)
    fields = {name: set(part["fields"]) for name, part in completed.items()}
    edges = []
    for carrier, flow in flows.items():
        if carrier == "__init__":
            continue
        for origin, destination in ((a, b) for a in fields for b in fields if a != b):
            derived = {field_source(f) for f in fields[origin]}
            carried = {f for f in fields[destination] if flow.writes.get(f, frozenset()) & derived}
            for reader in model.methods:
                shown = model.reach(reader)[0] & carried
                if reader not in ("__init__", carrier) and shown:
                    edges.append({"kind": "state", "source": carrier, "target": reader, "from_part": origin,
                                  "to_part": destination, "attributes": sorted(shown)})
    return edges


def _crosses(edge: Mapping[str, Any], instance: Mapping[str, Any]) -> bool:
    """Whether the test drove the edge's carrier and, later, its reader on this instance."""
    carried = False
    for name, _caller, nested in instance.get("calls", ()):
        if nested:
            continue
        if name == edge["source"]:
            carried = True
        elif carried and name == edge["target"]:
            return True
    return False


def seam_summary(edges: list[dict[str, Any]], traces: Mapping[str, Any], parts: Mapping[str, Any],
                 *, tests_per_edge: int = 5) -> dict[str, Any]:
    """What the gate reports about the seam: each edge with the tests that cross it, the tests crossing
    the seam, and per direction (``"A -> B"``) whether a part influences the other and in how many tests."""
    tests = list(traces.get("tests", ()))
    per_edge = [[t["nodeid"] for t in tests if any(_crosses(edge, i) for i in t["instances"])] for edge in edges]
    described = [{**edge, "tests": tests[:tests_per_edge], "n_tests": len(tests)}
                 for edge, tests in zip(edges, per_edge)]
    directions = {}
    for origin in parts:
        for destination in parts:
            if origin != destination:
                mine = [(e, t) for e, t in zip(edges, per_edge)
                        if (e["from_part"], e["to_part"]) == (origin, destination)]
                directions[f"{origin} -> {destination}"] = {
                    "edges": len(mine), "tests": len({test for _, tests in mine for test in tests})}
    return {
        "parts": list(parts),
        "seam_edges": len(edges),
        "exercised_seam_edges": sum(1 for tests in per_edge if tests),
        "tests_crossing": sorted({test for tests in per_edge for test in tests}),
        "directions": directions,
        "edges": described,
    }
