"""What an imported ClassEval-style class produces and accepts, read from its own docstrings.

A ClassEval task carries no seed.toml, and the ends `links.derived_ends` reads from names alone are too
narrow to link its classes and state no kind, so a build from an imported corpus composed nothing. The
import therefore writes into each seed.toml the ends the task's own text states, and nothing more:

- **a payment**: a method whose `:return` line gives a number and says it is an amount to be paid (a
  final amount, an amount due, a total price or cost), or returns the value of such a method ("or
  total(return value of calculate_total) otherwise"), in a class whose text speaks of prices or costs,
  produces money of kind `payment`. When one method of the class says "to be paid" or "due", only those
  count: a total before discounts is not what the customer pays. A method that may return False for
  "nothing to pay" hands on only values above zero (`positive`).
- **an account that takes payments**: a method named for paying in (`deposit`, `pay_in`, `credit`,
  `top_up`, `add_funds`) that changes the instance's state and takes an `amount` documented as a number,
  in a class whose text speaks of an account or a balance, accepts money of kind `payment`.

Units: no ClassEval task names a currency or a minor unit, so both ends say `unstated` and join only each
other. No purpose is written: an account is no sink (`links.is_sink`), and the tasks' text gives none.
Coins put into a machine, a converted amount, a portfolio's value or a balance are not payments, and no
rule reads them as such. The phrases come from the class and method names and the `:return` text.

A maintainer may declare ends the text cannot give (`read_overlay`, `--ends FILE`): they replace the
derived ends of the classes they name, and the import says so per class.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from pydantic import ValidationError

from core.analysis.class_model import ClassModel, MethodModel, analyse
from core.errors import InputError
from core.records import Accepts, Produces
from core.tomlfile import read_toml

_RETURN_LINE = re.compile(r":return(?:\s*\w*\s*:)?\s*(.*)")
_PAID = re.compile(r"\b(to be paid|amount due)\b", re.IGNORECASE)
_PRICED = re.compile(r"\b(amount to be paid|amount due|total price|total cost|price|cost)\b", re.IGNORECASE)
_RETURNS_OF = re.compile(r"return value of (\w+)")
_NUMBER_TYPE = re.compile(r"\b(float|int)\b")
_PRICE_WORDS = re.compile(r"\b(price|prices|cost|costs|paid|pay)\b", re.IGNORECASE)
_PAYING_IN = re.compile(r"^(deposit|pay_in|credit|top_up|add_funds)$")
_ACCOUNT_WORDS = re.compile(r"\b(account|balance)\b", re.IGNORECASE)

PAYMENT = "payment"
UNSTATED = "unstated"  # no ClassEval task names a currency or a minor unit


def _return_text(method: MethodModel) -> str:
    """The text of the method's `:return` line ("" when it has none)."""
    match = _RETURN_LINE.search(method.docstring or "")
    return match.group(1).strip() if match else ""


def _param_text(method: MethodModel, name: str) -> str:
    match = re.search(rf":param {re.escape(name)}\s*:(.*)", method.docstring or "")
    return match.group(1).strip() if match else ""


def _words(name: str) -> str:
    return " ".join(w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)) or name


def _amount_noun(text: str) -> str:
    """The noun phrase a `:return` text gives for the amount, from the words that name it up to a
    qualifier: 'float, the final total price.' -> 'total price'; 'float, final amount to be paid' ->
    'amount to be paid'; 'the total price of the held seats' -> 'total price'."""
    match = _PRICED.search(text)
    if match is None:
        return "amount to be paid"
    return re.split(r"\s+(?:of|in|for)\s+", text[match.start():].strip().rstrip("."), maxsplit=1)[0]


def _paid_amounts(model: ClassModel) -> dict[str, str]:
    """Method -> noun phrase of the amount it returns, for every method whose `:return` text gives a
    number that is an amount to be paid (only those saying "to be paid"/"due" when any does), or the
    return value of such a method."""
    texts = {m.name: _return_text(m) for m in model.public_methods()}
    priced = {name: text for name, text in texts.items()
              if _NUMBER_TYPE.search(text) and (_PRICED.search(text) or _PAID.search(text))}
    paid = {name: text for name, text in priced.items() if _PAID.search(text)}
    chosen = {name: _amount_noun(text) for name, text in (paid or priced).items()}
    for name, text in texts.items():
        source = _RETURNS_OF.search(text)
        if name not in chosen and source and source.group(1) in chosen:
            chosen[name] = chosen[source.group(1)]
            if name in model.mutators:  # the operation that returns it is where it is paid (a checkout):
                del chosen[source.group(1)]  # the query's total handed on by hand would be paid twice
    return chosen


def _returns_false(source: str, class_name: str, method: str) -> bool:
    """Whether the method returns False on some path (an order with nothing to check out): that is no
    payment, so only values above zero are handed on."""
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == class_name)
    node = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == method), None)
    return node is not None and any(isinstance(r, ast.Return) and isinstance(r.value, ast.Constant) and r.value.value is False
               for r in ast.walk(node))


def derive_ends(source: str, class_name: str) -> tuple[list[Produces], list[Accepts]]:
    """The payments `class_name` produces and the payments it accepts, as its docstrings state them
    (see the module docstring); empty lists when its text states neither."""
    model = analyse(source, class_name)
    subject = _words(class_name)
    text = " ".join(filter(None, [model.docstring, *(m.docstring for m in model.methods.values())]))
    produces: list[Produces] = []
    if _PRICE_WORDS.search(text):
        for name, noun in _paid_amounts(model).items():
            method = model.methods[name]
            may_refuse = _returns_false(source, class_name, name)
            of = "for" if noun.startswith("amount") else "of"  # "the amount to be paid for", "the total price of"
            produces.append(Produces(method=name, meaning="money", unit=UNSTATED, kind=PAYMENT,
                                     what=f"the {noun} {of} the {subject}", name=noun.replace(" ", "_"),
                                     positive=may_refuse))
    accepts: list[Accepts] = []
    if _ACCOUNT_WORDS.search(text):
        for method in model.public_mutators():
            if not _PAYING_IN.match(method.name) or "amount" not in {p.name for p in method.params}:
                continue
            if not (method.returns in ("int", "float") or _NUMBER_TYPE.match(_param_text(method, "amount"))):
                continue
            verb = method.name.split("_")[0]
            into = "deposited into" if verb == "deposit" else "paid into"
            accepts.append(Accepts(method=method.name, parameter="amount", meaning="money", unit=UNSTATED,
                                   kinds=(PAYMENT,), role=f"{into} the {subject}",
                                   action=f"{verb} {{what}} into the {subject}", verb=verb))
    return produces, accepts


def read_overlay(path: Path) -> dict[str, tuple[list[Produces], list[Accepts]]]:
    """A maintainer's declared ends per class name, from a TOML file of `[[<ClassName>.produces]]` and
    `[[<ClassName>.accepts]]` tables (the fields of seed.toml's). Errors name the file, the class and the
    field."""
    data = read_toml(path, "ends file")
    out: dict[str, tuple[list[Produces], list[Accepts]]] = {}
    for class_name, tables in data.items():
        if not isinstance(tables, dict) or set(tables) - {"produces", "accepts"}:
            raise InputError(f"{path}: [{class_name}] may hold only produces and accepts tables")
        ends: dict[str, list] = {"produces": [], "accepts": []}
        for key, record in (("produces", Produces), ("accepts", Accepts)):
            listed = tables.get(key, [])
            if not isinstance(listed, list):  # `[C.produces]` is one table: its fields would be read as ends
                raise InputError(f"{path}: {class_name}.{key} must be written as [[{class_name}.{key}]] tables")
            for index, table in enumerate(listed):
                try:
                    ends[key].append(record.model_validate(table))
                except ValidationError as exc:
                    first = exc.errors()[0]
                    field = "".join(f".{p}" for p in first["loc"])
                    raise InputError(f"{path}: {class_name}.{key}[{index}]{field}: {first['msg']}") from None
        out[class_name] = (ends["produces"], ends["accepts"])
    return out


def ends_toml(produces: list[Produces], accepts: list[Accepts]) -> str:
    """The `[[produces]]` and `[[accepts]]` tables of seed.toml for the ends, fields left at their default
    omitted (strings written as JSON strings, which TOML reads alike)."""
    lines: list[str] = []
    for key, ends in (("produces", produces), ("accepts", accepts)):
        for end in ends:
            lines += ["", f"[[{key}]]"]
            defaults = type(end)(**{f: getattr(end, f) for f in type(end).model_fields
                                    if type(end).model_fields[f].is_required()})
            for field, value in end.model_dump().items():
                if value != getattr(defaults, field) or type(end).model_fields[field].is_required():
                    lines.append(f"{field} = {_toml_value(value)}")
    return "\n".join(lines) + ("\n" if lines else "")


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)
