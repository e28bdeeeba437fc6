"""Canonical Python literals for values, inside the sandbox.

A value becomes a literal only when the literal evaluates back to an equal value of the same type; sets
are written in sorted order and dict keys sorted, so the same value gives the same text whatever the hash
seed (dict and set equality ignore order, so the expectation stays correct).
"""

import math

MAX_LITERAL = 400
SAFE_NAMES = {"set": set, "frozenset": frozenset}


def _string(value):
    text = repr(value)
    if text.startswith("'") and '"' not in value:
        text = '"' + text[1:-1].replace("\\'", "'") + '"'
    return text


def _render(value, depth):
    if depth > 6:
        return None
    kind = type(value)
    if value is None or kind is bool or kind is int:
        return repr(value)
    if kind is float:
        return repr(value) if math.isfinite(value) else None
    if kind is str:
        return _string(value)
    if kind is bytes:
        return repr(value)
    if kind in (list, tuple):
        parts = [_render(item, depth + 1) for item in value]
        if any(p is None for p in parts):
            return None
        if kind is list:
            return "[" + ", ".join(parts) + "]"
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if kind is dict:
        items = []
        for key, item in value.items():
            key_text, item_text = _render(key, depth + 1), _render(item, depth + 1)
            if key_text is None or item_text is None:
                return None
            items.append((type(key).__name__, key_text, item_text))
        items.sort(key=lambda entry: (entry[0], entry[1]))
        return "{" + ", ".join(f"{k}: {v}" for _, k, v in items) + "}"
    if kind in (set, frozenset):
        parts = [_render(item, depth + 1) for item in value]
        if any(p is None for p in parts):
            return None
        parts.sort()
        body = "{" + ", ".join(parts) + "}" if parts else ""
        if kind is set:
            return body or "set()"
        return f"frozenset({body})"
    return None


def literal(value):
    """Canonical literal text of `value`, or None when it has none (objects, NaN, very long values)."""
    try:
        text = _render(value, 0)
        if text is None or len(text) > MAX_LITERAL:
            return None
        back = eval(text, {"__builtins__": {}}, dict(SAFE_NAMES))  # noqa: S307 - our own literal text
        if type(back) is not type(value) or back != value:
            return None
        return text
    except Exception:  # noqa: BLE001 - exotic __eq__/__repr__: no literal
        return None


def evaluate(text, names=None):
    """The value of an argument's text: a literal, or an expression over `names` (the task module's own
    names: `Direction.UP`, `Card('A', 'spades')`)."""
    return eval(text, {"__builtins__": {}}, {**(names or {}), **SAFE_NAMES})  # noqa: S307 - text from the pipeline
