"""Which members of a composed class come from which of its two seeds, read from the sources alone.

The offline composer knows the parts of a hybrid because it builds it (`pipeline/synthesis/compose.py`
renames the second seed's members and records them). A model writes the hybrid itself, renaming, merging
and adding members as it sees fit, so its parts are recovered afterwards, in three steps:

1. by name: a hybrid method or field whose name (leading underscores aside) is a member of exactly one
   seed belongs to that seed's part (a name both seeds have says nothing);
2. a field no name placed belongs to a part when the placed methods that use it all belong to that part;
3. a method no name placed belongs to a part when the placed fields it reads or writes itself all belong
   to that part. Calls do not count: calling the other part's methods is what a bridge does, so a method
   that converts with one part and stores in the other (``self.values.append(self.convert(v))``) sits with
   the part whose fields it touches, and a method touching fields of both stays in neither;
4. a field the methods of both parts use (a field the fusion renamed or added, which one part's operation
   feeds: a till's renamed ``balance_cents`` that a check-in charges its fee into) belongs to the part whose
   placed methods *observe* it, when only one part's do: its value decides what they return, whether they
   raise or what they store elsewhere (`core.analysis.state_flow`). A method that only adds to it (the
   check-in's ``self.balance_cents += fee``) feeds it; the till's ``balance()`` and ``withdraw()`` read it.

Only the fields matter to the seam check (a value crosses when a method writes one part's fields with a
value derived from the other's); the methods are kept for the record.

Steps 2 and 3 repeat until nothing moves, then step 4 places what it can and they repeat again. The parts are what the gate's seam check reads
(`validation/seam.py`): a hybrid whose parts could not both be found (a part without a method or a field)
gets none, and the gate says the seam was not measured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.analysis.class_model import ClassModel, analyse
from core.analysis.state_flow import MethodFlow, state_flows


def _bare(name: str) -> str:
    return name.lstrip("_")


def _members(model: ClassModel) -> tuple[set[str], set[str]]:
    methods = {_bare(m) for m in model.methods if not (m.startswith("__") and m.endswith("__"))}
    fields = {_bare(f) for f in (*model.fields, *model.fields_written_outside_init())}
    return methods, fields


def part_members(source: str, class_name: str, seeds: Sequence[tuple[str, str]]) -> dict[str, dict[str, list[str]]] | None:
    """Part name (the seed's class name) -> its methods and fields by their names in the hybrid, or None
    when either part has no method or no field there. `seeds` are the two seeds' (class name, source).
    Raises SyntaxError or LookupError when a class cannot be read."""
    if len(seeds) != 2:
        return None
    model = analyse(source, class_name)
    names = [name if name != seeds[0][0] or i == 0 else f"{name} (2)" for i, (name, _) in enumerate(seeds)]
    known = [_members(analyse(seed_source, seed_name)) for seed_name, seed_source in seeds]
    methods = [m for m in model.methods if m != "__init__" and not (m.startswith("__") and m.endswith("__"))]
    fields = list(dict.fromkeys((*model.fields, *sorted(model.fields_written_outside_init()))))
    method_part: dict[str, int] = {}
    field_part: dict[str, int] = {}
    for i in (0, 1):
        other = known[1 - i]
        method_part.update({m: i for m in methods if _bare(m) in known[i][0] and _bare(m) not in other[0]})
        field_part.update({f: i for f in fields if _bare(f) in known[i][1] and _bare(f) not in other[1]})
    place(model, state_flows(source, class_name), method_part, field_part)
    parts = {names[i]: {"methods": [m for m in methods if method_part.get(m) == i],
                        "fields": [f for f in fields if field_part.get(f) == i]} for i in (0, 1)}
    if not all(part["methods"] and part["fields"] for part in parts.values()):
        return None
    return parts


def place(model: ClassModel, flows: dict[str, MethodFlow], method_part: dict[str, int],
          field_part: dict[str, int]) -> None:
    """Steps 2 to 4 of the module docstring, in place, on the members `method_part` and `field_part` have
    not placed yet (a part is 0 or 1)."""
    methods = [m for m in model.methods if m != "__init__" and not (m.startswith("__") and m.endswith("__"))]
    fields = list(dict.fromkeys((*model.fields, *sorted(model.fields_written_outside_init()))))
    moved = True
    while moved:
        moved = False
        for f in fields:
            users = {method_part[m] for m in methods if m in method_part
                     and f in model.methods[m].reads | model.methods[m].writes}
            if f not in field_part and len(users) == 1:
                field_part[f], moved = users.pop(), True
        for m in methods:
            touched = {field_part[f] for f in model.methods[m].reads | model.methods[m].writes if f in field_part}
            if m not in method_part and len(touched) == 1:
                method_part[m], moved = touched.pop(), True
        if not moved:
            for f in fields:
                observers = {method_part[m] for m in methods if m in method_part and m in flows
                             and f in flows[m].observes()}
                if f not in field_part and len(observers) == 1:
                    field_part[f], moved = observers.pop(), True


def complete_parts(source: str, class_name: str,
                   parts: Mapping[str, Mapping[str, Sequence[str]]]) -> dict[str, dict[str, list[str]]]:
    """The recorded parts with the class's members they leave out placed by steps 2 to 4 (a field a later
    rewrite of the class added, or one the recovery could not place then). Raises SyntaxError or
    LookupError when the class cannot be read."""
    model = analyse(source, class_name)
    names = list(parts)
    method_part = {m: i for i, name in enumerate(names) for m in parts[name].get("methods", ())}
    field_part = {f: i for i, name in enumerate(names) for f in parts[name].get("fields", ())}
    place(model, state_flows(source, class_name), method_part, field_part)
    return {name: {"methods": [m for m, p in method_part.items() if p == i],
                   "fields": [f for f, p in field_part.items() if p == i]} for i, name in enumerate(names)}
