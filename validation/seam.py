"""Interaction across the seam of a composed class: does a value of one part change what the other returns?

The interaction gate measures edges between any two methods of a class; in a composed class the tests can
satisfy it by interleaving the two parts' methods without any value crossing between them (each part's
edges are exercised on its own). This check measures only the edges that cross the seam.

The parts are the two seeds' members as the compose stage recorded them (`generator.parameters["parts"]`:
per part, its methods and its instance fields by their names in the hybrid). A *carrier* is a method that
reads one part's fields and writes the other's, through the methods it calls too (a bridge: it reads the
source part through a query and records the value through a method of the target part). A *seam edge*
``carrier -> reader`` joins a carrier to a method of the class that reads a field of the target part the
carrier writes: calling the carrier, then the reader, shows the other part a value of the first. A test
*crosses the seam* when, on one instance, it calls a carrier and later calls such a reader itself (both
driven from the test, in the tracer's ordered calls of `validation.interaction`): a reader reached only
inside the carrier (the bridge's own call of the target method) shows the test nothing.

A composed candidate fails (`incoherent_fusion`) when neither part influences the other (no seam edge) or
no test crosses the seam. Pure functions on source text and the tracer's result; nothing runs here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.analysis.class_model import analyse


def recorded_parts(parameters: Mapping[str, Any]) -> dict[str, dict[str, list[str]]] | None:
    """The parts a composed candidate's generator recorded, or None when it recorded none (a composition
    by a model, or a candidate made before the parts were recorded)."""
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
    fields = {name: set(part["fields"]) for name, part in parts.items()}
    edges = []
    for carrier in model.methods:
        if carrier == "__init__":
            continue
        reads, writes = model.reach(carrier)
        for origin, destination in ((a, b) for a in fields for b in fields if a != b):
            carried = writes & fields[destination]
            if not reads & fields[origin] or not carried:
                continue
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
