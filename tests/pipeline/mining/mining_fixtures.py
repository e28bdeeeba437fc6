"""Small mined-code fixtures: a class that passes every shape filter, written under any name."""

from __future__ import annotations

import textwrap


def ledger_class(name: str = "Ledger", *, helper_call: str = "_clean(label)", extra_method: str = "",
                 documented: bool = True, flavour: str | None = None) -> str:
    """A class with seven methods, shared state and cross-method calls: a fine task by shape.

    `helper_call` is what `add` calls on its label (a module-level helper the slice must pull in);
    `extra_method` is appended to the body (e.g. one that touches the network). `flavour` (default: the
    name) goes into the error messages, so classes of different flavours have different bodies and a
    renamed class keeps its body when given its old flavour.
    """
    flavour = flavour or name
    store = flavour.lower() + "_entries"
    def d(text: str) -> str:
        return f'"""{text}"""' if documented else ""

    body = f'''
class {name}:
    """Keeps labelled amounts and reports totals."""

    def __init__(self, limit: int = 100) -> None:
        {d("Start empty; no single amount may exceed `limit`.")}
        self.limit = limit
        self.{store}: list[tuple[str, int]] = []
        self.{store}_closed = False

    def add(self, label: str, amount: int) -> int:
        {d("Record an amount under a label and return the number of entries.")}
        self._check_open()
        if amount > self.limit:
            raise ValueError("{flavour}: amount over the limit of this ledger")
        self.{store}.append(({helper_call}, amount))
        return len(self.{store})

    def total(self) -> int:
        {d("Sum of every amount recorded.")}
        return sum(amount for _, amount in self.{store})

    def by_label(self, label: str) -> int:
        {d("Sum of the amounts recorded under `label`.")}
        return sum(amount for name, amount in self.{store} if name == label)

    def labels(self) -> list[str]:
        {d("Distinct labels in first-seen order.")}
        seen: list[str] = []
        for label, _ in self.{store}:
            if label not in seen:
                seen.append(label)
        return seen

    def close(self) -> int:
        {d("Close the ledger and return its total.")}
        self.{store}_closed = True
        return self.total()

    def _check_open(self) -> None:
        {d("Refuse changes after close.")}
        if self.{store}_closed:
            raise RuntimeError("{flavour}: the ledger is closed to changes")
{textwrap.indent(textwrap.dedent(extra_method), "    ")}'''
    return body


HELPER = '''
def _clean(label: str) -> str:
    """Trim and lower a label."""
    return label.strip().lower()
'''


def ledger_module(name: str = "Ledger", *, imports: str = "", **kwargs: object) -> str:
    """A module: imports, the `_clean` helper, and the ledger class."""
    return f"{imports}\n{HELPER}\n{ledger_class(name, **kwargs)}"
