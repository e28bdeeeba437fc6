"""Methods of a part that take another instance of the part's own class: what a hybrid leaves out.

A bank account's `transfer(other_account, amount)` moves money to another bank account. In a hybrid of the
account and a currency converter, that other account would be another hybrid carrying a converter part the
transfer has nothing to do with, and no generated test builds a second hybrid to pass (the gate then rejects
the whole candidate `untested_method`). Such a method belongs to the part's own class, not to the hybrid,
so the hybrid leaves it out and its class docstring says which and why (`fuse`, `left_out_note`).

The other instance is known from what the class states about the parameter, in this order: its annotation
names the class (or `Self`), the ClassEval-style docstring line `:param other_account: BankAccount` names it,
or the parameter is called `other_<word>` after a word of the class's name (`other_account` of BankAccount).
A method that another method of the part calls is kept: leaving it out would break its caller.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.analysis.class_model import ClassModel, MethodModel, Param
from pipeline.synthesis.testgen import snake


def _stated_type(docstring: str | None, parameter: str) -> str | None:
    """The first word of a docstring's `:param <parameter>: <Type> ...` line, when there is one."""
    match = re.search(rf":param\s+{re.escape(parameter)}\s*:\s*([A-Za-z_][\w.]*)", docstring or "")
    return match.group(1) if match else None


def _is_own_kind(model: ClassModel, method: MethodModel, param: Param) -> bool:
    """Whether `param` of `method` is documented or named as another instance of `model`'s class."""
    annotation = (param.annotation or "").strip("'\"")
    if annotation in (model.name, "Self", "typing.Self"):
        return True
    if _stated_type(method.docstring, param.name) == model.name:
        return True
    words = snake(model.name).split("_")
    return param.annotation is None and param.name in {f"other_{word}" for word in words}


def own_kind_methods(model: ClassModel) -> tuple[str, ...]:
    """The public instance methods of `model` that take another instance of its class through a parameter,
    and that no other method of the class calls (in source order)."""
    found = [name for name, method in model.methods.items()
             if method.public and method.kind == "instance" and name != "__init__"
             and any(_is_own_kind(model, method, p) for p in method.params)]
    return tuple(name for name in found
                 if not any(name in other.calls for other_name, other in model.methods.items() if other_name != name))


def left_out_note(hybrid: str, left_out: Sequence[tuple[str, str]]) -> str:
    """The hybrid docstring's sentence naming the methods left out, as (part, method) pairs; empty for none."""
    if not left_out:
        return ""
    parts = ", ".join(f"``{method}`` of the {part} part, which takes another {part}" for part, method in left_out)
    return (f"Left out of this class: {parts}. Here that would be another {hybrid}, whose other part "
            f"such an operation has no meaning for.")
