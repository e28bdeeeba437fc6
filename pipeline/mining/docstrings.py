"""Missing method docstrings written by a model, when one is configured (`[mine] docstring_model`).

Offline, a class with an undocumented method is rejected (`undocumented`): its skeleton would leave that
method unspecified. With a model, the class's slice goes to the model client (role `enhancer`: writing a
skeleton's specification is that role's work) under the prompt `mine_docstrings@1`; the answer must be one
JSON object giving a non-empty docstring for every missing method, or the class is rejected as before,
with the raw answer as evidence. Docstrings are inserted with libcst; the code itself is untouched.
"""

from __future__ import annotations

import json
import re
from typing import Any

import libcst as cst

from core.records import RejectReason
from models.client import ModelError, ModelRequest, Role
from models.prompts import load_prompt
from pipeline.mining.filters import Drop

PROMPT = "mine_docstrings"
_FENCED = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


def parse_docstrings(text: str, missing: list[str]) -> dict[str, str] | str:
    """The docstrings per method, or a sentence saying why the answer is unusable."""
    fenced = _FENCED.findall(text)
    body = fenced[0] if len(fenced) == 1 else text.strip()
    try:
        data = json.loads(body)
    except ValueError:
        return "the answer is not one JSON object"
    if not isinstance(data, dict):
        return "the answer is not a JSON object"
    absent = [m for m in missing if not isinstance(data.get(m), str) or not data[m].strip()]
    if absent:
        return f"no docstring for {', '.join(absent)}"
    # one line, no quote that could end the string early, backslashes kept literal
    return {m: " ".join(data[m].replace("\\", "\\\\").replace('"', "'").split()) for m in missing}


def insert_docstrings(slice_code: str, class_name: str, docstrings: dict[str, str]) -> str:
    """`slice_code` with each named method of `class_name` given its docstring as its first statement."""

    class _Insert(cst.CSTTransformer):
        def __init__(self) -> None:
            self.inside = False  # only the target class's own methods; a module function may share a name

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            self.inside = node.name.value == class_name
            return self.inside

        def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
            self.inside = False
            return updated

        def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
            text = docstrings.get(updated.name.value)
            if not self.inside or text is None or updated.get_docstring() is not None or not isinstance(updated.body, cst.IndentedBlock):
                return updated
            line = cst.SimpleStatementLine(body=[cst.Expr(cst.SimpleString(f'"""{text}"""'))])
            return updated.with_changes(body=updated.body.with_changes(body=[line, *updated.body.body]))

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False  # nested functions keep theirs

    return cst.parse_module(slice_code).visit(_Insert()).code


def write_docstrings(client: Any, model: str, api_base: str | None, class_name: str, slice_code: str,
                     missing: list[str]) -> str | Drop:
    """The slice with model-written docstrings, or the drop saying why the class stays undocumented."""
    template = load_prompt(PROMPT)
    request = ModelRequest(role=Role.ENHANCER, model=model, prompt=template.ref, api_base=api_base,
                           messages=template.render(class_code=slice_code, methods=", ".join(missing)))
    try:
        answer = client.complete(request)
    except ModelError as exc:
        return Drop(RejectReason.UNDOCUMENTED, f"{class_name}: the model call failed: {exc}", {"methods": missing})
    parsed = parse_docstrings(answer.text, missing)
    if isinstance(parsed, str):
        return Drop(RejectReason.UNDOCUMENTED, f"{class_name}: unusable model answer: {parsed}",
                    {"methods": missing, "raw_answer": answer.text[:2000]})
    return insert_docstrings(slice_code, class_name, parsed)
