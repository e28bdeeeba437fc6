"""The kind of value a parameter without a type hint takes, read from how its method uses it.

A mined class's pools (pipeline/mining/pools.py) take values from type hints, defaults and the constants a
parameter is compared with; an unannotated parameter with none of these got the fallback values `1` and
`'alpha'`. A model's `fit(self, X, y)` called with `1` raises `TypeError` in every scenario, and a corpus
build rejected such classes by the dozen (`no_tests`, `undocumented`: no call succeeded) or left the branches
behind the call unreached. How the body uses the parameter says what it is: `for row in X` and `row[0]`
make a list of rows, `text.lower()` a string, `range(n)` an integer, `config.items()` a dict. Each use is a
vote; the kind with the most votes wins, and with no use at all the parameter's name decides (`items`,
`text`, `count`). Read from the syntax tree: nothing is run.
"""

from __future__ import annotations

import ast
from collections import Counter

_STR_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines",
                          "startswith", "endswith", "replace", "find", "rfind", "isdigit", "isalpha", "isalnum",
                          "isspace", "title", "capitalize", "casefold", "encode", "format", "partition",
                          "zfill", "center", "ljust", "rjust", "isupper", "islower"})
_DICT_METHODS = frozenset({"items", "keys", "values", "get", "setdefault", "popitem"})
_LIST_METHODS = frozenset({"append", "extend", "insert", "sort", "reverse", "index"})
_SEQUENCE_CALLS = frozenset({"len", "sorted", "enumerate", "zip", "list", "tuple", "set", "frozenset", "iter",
                             "reversed", "any", "all", "sum", "max", "min", "map", "filter"})
_NUMBER_CALLS = {"range": "int", "abs": "int", "round": "float", "math.sqrt": "float", "math.log": "float",
                 "math.exp": "float", "math.floor": "float", "math.ceil": "float"}
_LIST_NAMES = frozenset({"x", "y", "data", "values", "items", "elements", "nums", "numbers", "arr", "array",
                         "lst", "seq", "sequence", "points", "weights", "scores", "samples", "labels",
                         "targets", "features", "vector", "vec", "iterable", "collection", "keys"})
_MATRIX_NAMES = frozenset({"matrix", "grid", "board", "rows", "table", "mat"})
_STR_NAMES = frozenset({"text", "word", "name", "label", "key", "query", "message", "msg", "s", "string",
                        "title", "prefix", "suffix", "pattern", "token", "char", "sentence", "line",
                        "description", "category", "tag", "username", "email", "code", "symbol", "status"})
_INT_NAMES = frozenset({"n", "k", "i", "j", "count", "size", "index", "idx", "capacity", "limit", "amount",
                        "quantity", "qty", "num", "number", "depth", "level", "width", "height", "length",
                        "steps", "times", "row", "col", "column", "position", "pos", "start", "end", "age",
                        "priority", "weight", "score", "seconds", "minutes", "year", "month", "day"})
_FLOAT_NAMES = frozenset({"rate", "alpha", "beta", "threshold", "probability", "prob", "ratio", "factor",
                          "learning_rate", "lr", "temperature", "price", "balance", "percent", "percentage"})


def _is(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def _rows_of(function: ast.AST, name: str) -> bool:
    """Whether the items of `name` are themselves sequences: `for row in name` with `row[...]` or `for v in
    row`, `name[i][j]`, or `len(name[0])`."""
    loop_vars = {item for node in ast.walk(function) if isinstance(node, (ast.For, ast.comprehension))
                 for item in _items_bound(node.iter, node.target, name)}
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript) and _is(node.value.value, name):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in loop_vars:
            return True
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name) and node.iter.id in loop_vars:
            return True
    return False


def _items_bound(iterated: ast.expr, target: ast.expr, name: str) -> list[str]:
    """The loop variables that take the items of `name`: `for row in name`, `for i, row in enumerate(name)`,
    `for row, label in zip(name, labels)`."""
    if _is(iterated, name) and isinstance(target, ast.Name):
        return [target.id]
    if not (isinstance(iterated, ast.Call) and isinstance(target, ast.Tuple)):
        return []
    called = _call_name(iterated)
    if called == "enumerate" and iterated.args and _is(iterated.args[0], name) and len(target.elts) == 2:
        return [target.elts[1].id] if isinstance(target.elts[1], ast.Name) else []
    if called == "zip":
        return [elt.id for arg, elt in zip(iterated.args, target.elts) if _is(arg, name) and isinstance(elt, ast.Name)]
    return []


def usage_kind(function: ast.FunctionDef, name: str) -> str | None:
    """`str`, `int`, `float`, `list`, `matrix` (a list of rows) or `dict` for parameter `name` of `function`,
    or None when neither its uses nor its name say."""
    votes: Counter[str] = Counter()
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and _is(node.value, name):
            kind = ("str" if node.attr in _STR_METHODS else "dict" if node.attr in _DICT_METHODS
                    else "list" if node.attr in _LIST_METHODS else None)
            if kind:
                votes[kind] += 1
        elif isinstance(node, ast.Call) and node.args and _is(node.args[0], name):
            called = _call_name(node)
            if called in _SEQUENCE_CALLS:
                votes["list"] += 1
            elif called in _NUMBER_CALLS:
                votes[_NUMBER_CALLS[called]] += 1
        elif isinstance(node, (ast.For, ast.comprehension)) and (_is(node.iter, name)
                                                                   or _items_bound(node.iter, node.target, name)):
            votes["list"] += 1
        elif isinstance(node, ast.Subscript) and _is(node.value, name) and not isinstance(node.ctx, ast.Store):
            key = node.slice  # a string key makes a dict; any other index a list (a dict keyed by a variable reads alike)
            votes["dict" if isinstance(key, ast.Constant) and isinstance(key.value, str) else "list"] += 1
        elif isinstance(node, ast.BinOp) and (_is(node.left, name) or _is(node.right, name)):
            other = node.right if _is(node.left, name) else node.left
            if isinstance(other, ast.Constant) and isinstance(other.value, (int, float)) and not isinstance(other.value, bool):
                votes["float" if isinstance(other.value, float) or isinstance(node.op, ast.Div) else "int"] += 1
            elif isinstance(other, ast.Constant) and isinstance(other.value, str):
                votes["str"] += 1
    if votes:
        kind = max(votes, key=lambda k: (votes[k], k == "list"))
        return "matrix" if kind == "list" and _rows_of(function, name) else kind
    lowered = name.lower()
    if lowered in _MATRIX_NAMES:
        return "matrix"
    if lowered in _LIST_NAMES or (lowered.endswith("s") and not lowered.endswith("ss") and len(lowered) > 3
                                  and lowered not in _INT_NAMES | _FLOAT_NAMES | _STR_NAMES):
        return "list"
    if lowered in _STR_NAMES or lowered.endswith(("_name", "_key", "_text", "_label")):
        return "str"
    if lowered in _FLOAT_NAMES:
        return "float"
    if lowered in _INT_NAMES or lowered.startswith(("num_", "n_", "max_", "min_")) or lowered.endswith(("_count", "_size", "_index")):
        return "int"
    return None
