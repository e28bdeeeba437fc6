"""Interaction across the seam of a composed class: does a value of one part change what the other returns?

The interaction gate measures edges between any two methods of a class; in a composed class the tests can
satisfy it by interleaving the two parts' methods without any value crossing between them (each part's
edges are exercised on its own). This check measures only the edges that cross the seam.

The parts are the two seeds' members as the compose stage recorded them (`generator.parameters["parts"]`:
per part, its methods and its instance fields by their names in the hybrid). A *carrier* is a method that
writes one part's fields with a value derived from the other's (a bridge: it reads the source part through
a query and passes the value to a method of the target part that records it). Reading one part and writing
the other is not enough: the value written must derive from what was read (`_carried`, a small
flow-insensitive taint over the method's own statements; the methods it calls count by what they read and
write). A *seam edge* ``carrier -> reader`` joins a carrier to a method of the class that reads a field of
the target part the carrier writes: calling the carrier, then the reader, shows the other part a value of
the first. A test *crosses the seam* when, on one instance, it calls a carrier and later calls such a
reader itself (both driven from the test, in the tracer's ordered calls of `validation.sandbox.interaction`): a
reader reached only inside the carrier (the bridge's own call of the target method) shows the test nothing.

A composed candidate fails (`incoherent_fusion`) when neither part influences the other (no seam edge) or
no test crosses the seam. Pure functions on source text and the tracer's result; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from core.analysis.class_model import ClassModel, analyse


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
    nodes = {n.name: n for n in _class_node(source, class_name).body
             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    fields = {name: set(part["fields"]) for name, part in parts.items()}
    edges = []
    for carrier, node in nodes.items():
        if carrier == "__init__":
            continue
        for origin, destination in ((a, b) for a in fields for b in fields if a != b):
            carried = _carried(model, node, fields[origin], fields[destination])
            for reader in model.methods:
                shown = model.reach(reader)[0] & carried
                if reader not in ("__init__", carrier) and shown:
                    edges.append({"kind": "state", "source": carrier, "target": reader, "from_part": origin,
                                  "to_part": destination, "attributes": sorted(shown)})
    return edges


def _class_node(source: str, class_name: str) -> ast.ClassDef:
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return node
    raise LookupError(f"class {class_name} not found")


def _carried(model: ClassModel, method: ast.FunctionDef | ast.AsyncFunctionDef, origin: set[str],
             destination: set[str]) -> set[str]:
    """The `destination` fields that `method` writes with a value derived from the `origin` fields: passed
    to a method that writes them (``self.add(value)``), assigned to them, or handed to a method of them
    (``self.samples.append(value)``). A value is derived when it is read from an origin field, returned by
    a method that reads one, or held by a local name bound to such a value (flow-insensitive). Reading one
    part and writing the other in unrelated statements carries nothing."""
    args = method.args.posonlyargs + method.args.args
    me = args[0].arg if args else "self"
    tainted: set[str] = set()

    def on_self(node: ast.AST) -> str | None:
        return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == me else None

    def derived(node: ast.AST | None) -> bool:
        for sub in ast.walk(node) if node is not None else ():
            if isinstance(sub, ast.Name) and sub.id in tainted or on_self(sub) in origin:
                return True
            if isinstance(sub, ast.Call) and (name := on_self(sub.func)) in model.methods \
                    and model.reach(name)[0] & origin:
                return True
        return False

    def root(node: ast.AST) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript)) and on_self(node) is None:
            node = node.value
        return on_self(node)

    bindings = [(t, n.value) for n in ast.walk(method) if isinstance(n, ast.Assign) for t in n.targets]
    bindings += [(n.target, n.value) for n in ast.walk(method)
                 if isinstance(n, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and n.value is not None]
    bindings += [(n.target, n.iter) for n in ast.walk(method) if isinstance(n, (ast.For, ast.comprehension))]
    changed = True
    while changed:
        changed = False
        for target, value in bindings:
            names = {t.id for t in ast.walk(target) if isinstance(t, ast.Name)} - tainted
            if names and derived(value):
                tainted |= names
                changed = True
    carried: set[str] = set()
    for node in ast.walk(method):
        if isinstance(node, ast.Call) and any(derived(a) for a in [*node.args, *(k.value for k in node.keywords)]):
            name = on_self(node.func)
            if name in model.methods:
                carried |= model.reach(name)[1] & destination
            elif isinstance(node.func, ast.Attribute) and root(node.func.value) in destination:
                carried.add(root(node.func.value))
    for target, value in bindings:
        if root(target) in destination and derived(value):
            carried.add(root(target))
    return carried


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
