"""Writing a composition's links into the hybrid: inside the producing operation, or as a method of their own.

A woven link changes the producer's code as a person would write it: every ``return value`` becomes
"keep the value, hand it to the consumer, return it", and the producer's docstring gains one paragraph
(before its parameter list) saying what happens to the value. A link method reads the producer and feeds
the consumer; its summary line is the consumer's declared action ("pay the week's gross pay into the
wallet"), and its body is the call its docstring states, so the flow can be written from the skeleton alone.
"""

from __future__ import annotations

import textwrap

import libcst as cst

from core.analysis.class_model import MethodModel
from core.analysis.cst_edit import METHOD_INDENT, WRAP_WIDTH, ClassEditor, _docstring_node
from pipeline.synthesis.fused_docs import docstring_literal, evaluated_docstring
from pipeline.synthesis.links import Link, capitalised

_FIELD_STARTS = (":param", ":return", ":raise", ":rtype", ":type", ">>>", "Args:", "Returns:", "Raises:",
                 "Example", "Examples:")


def paragraph_inserted(text: str, paragraph: str, width: int = WRAP_WIDTH - len(METHOD_INDENT)) -> str:
    """The cleaned docstring `text` with `paragraph` as a new paragraph before its field list and examples
    (after the whole text when it has neither), wrapped at `width`."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if i > 0 and line.strip().startswith(_FIELD_STARTS)), len(lines))
    while at > 0 and not lines[at - 1].strip():
        at -= 1
    wrapped = textwrap.fill(" ".join(paragraph.split()), width)
    head, tail = lines[:at], lines[at:]
    while tail and not tail[0].strip():
        tail = tail[1:]
    return "\n".join(head + [""] + wrapped.split("\n") + ([""] + tail if tail else []))


class _HandOn(cst.CSTTransformer):
    """Every `return <value>` of one function (not of functions nested in it) becomes three statements:
    keep the value under `local`, pass it to the consumer, return it."""

    def __init__(self, call: str, local: str, positive: bool) -> None:
        self.call, self.local, self.positive = call, local, positive
        self.depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return self.depth == 1

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.depth -= 1
        return updated

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
                                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated.body) != 1 or not isinstance(updated.body[0], cst.Return) or updated.body[0].value is None:
            return updated
        value = cst.Module([]).code_for_node(updated.body[0].value)
        hand_on = f"if {self.local} > 0:\n    {self.call}\n" if self.positive else f"{self.call}\n"
        statements = cst.parse_module(f"{self.local} = {value}\n{hand_on}return {self.local}\n").body
        first = statements[0].with_changes(leading_lines=updated.leading_lines)
        return cst.FlattenSentinel([first, *statements[1:]])


def weave(source: str, hybrid: str, link: Link, producer_locals: set[str], consumer_raises: bool) -> str:
    """The hybrid with `link` woven into its producer: the value every `return` gives is handed to the
    consumer first, and the producer's docstring says so (and what an error of the consumer does, when
    `consumer_raises`: its docstring names an exception)."""
    local = link.produced.name
    while local in producer_locals:
        local += "_value"
    given = "".join(f", {name}={expression}" for name, expression in link.supplied)
    call = f"self.{link.consumer}({link.parameter}={link.passed(local)}{given})"
    editor = ClassEditor(source, hybrid)
    node = _docstring_node(editor.method(link.producer).body)
    editor.transform_method(link.producer, _HandOn(call, local, link.positive))
    text = evaluated_docstring(node) if node is not None else ""
    when = " when it is above zero" if link.positive else ""
    with_ = (", with " + " and ".join(f"``{name}={expression}``" for name, expression in link.supplied)
             if link.supplied else "")
    returned = ", for ``{result}``, the value it returns" if "{result}" in link.produced.event else ""
    what = (f"the text ``{link.produced.event}``, filled with its arguments{returned}," if link.produced.event
            else "the value it returns")
    paragraph = (f"{capitalised(link.produced.what)} is then {link.accepted.role} (this method passes {what} to "
                 f"``{link.consumer}`` as ``{link.parameter}``{with_}{when}, after its own changes)"
                 f"{link.unit_note}{link.reason}.")
    if consumer_raises:
        paragraph += (f" If ``{link.consumer}`` refuses the value, its error propagates and this method's own "
                      f"changes stay made.")
    text = paragraph_inserted(text or "", paragraph).strip()
    editor.set_method_docstring(link.producer, docstring_literal(text, METHOD_INDENT))
    return editor.code()


def link_method_source(link: Link, producer: MethodModel, consumer: MethodModel) -> str:
    """The link method: the producer's required parameters, then the consumer's other required ones
    (renamed where they clash); its docstring's summary is the consumer's action, then the sentence of the
    link and the call it is equivalent to."""
    used = {p.name for p in producer.params}
    given = dict(link.supplied)  # filled by the producer's own parameters or a literal: not asked of the caller
    renamed: dict[str, str] = {}
    for p in consumer.params:
        if p.name != link.parameter and p.name not in given and not p.has_default:
            renamed[p.name] = p.name if p.name not in used else f"{p.name}_for_{consumer.name.lstrip('_')}"
            used.add(renamed[p.name])

    def param(name: str, annotation: str | None) -> str:
        return name + (f": {annotation}" if annotation else "")

    own = [p for p in producer.params if not p.has_default]
    rest = [p for p in consumer.params if p.name in renamed]
    signature = ", ".join(["self"] + [param(p.name, p.annotation) for p in own]
                          + [param(renamed[p.name], p.annotation) for p in rest])
    read = f"self.{link.producer}({', '.join(p.name for p in own)})"
    local = "value" if "value" not in used else "returned"  # a producer's own `value` parameter stays readable
    passed = link.passed(local)

    def record(value: str) -> str:
        arguments, keyword = [], False
        for p in consumer.params:
            if p.name == link.parameter:
                keyword = keyword or p.has_default
                arguments.append(f"{p.name}={value}" if keyword else value)
            elif p.name in renamed or p.name in given:
                value_of = renamed.get(p.name) or given[p.name]
                arguments.append(f"{p.name}={value_of}" if keyword else value_of)
            else:
                keyword = True  # a defaulted parameter is left out: every later one goes by keyword
        return f"self.{link.consumer}({', '.join(arguments)})"

    returns = f" -> {consumer.returns}" if consumer.returns else ""
    summary = capitalised(link.accepted.action.replace("{what}", link.produced.what)) + "."
    params_doc = "\n".join([f":param {p.name}: passed to ``{link.producer}``." for p in own]
                           + [f":param {renamed[p.name]}: passed to ``{link.consumer}`` as ``{p.name}``." for p in rest]
                           + [f":return: what ``{link.consumer}`` returns."])
    how = (f"a text naming what ``{link.producer}`` acted on and what it returned" if link.produced.event
           else f"the value ``{link.producer}`` returns")
    flow = (f"{link.sentence} The same as ``{record(link.passed(read))}``: {how} is passed as "
            f"``{link.parameter}``. If ``{link.producer}`` raises, nothing is passed on; errors of "
            f"``{link.consumer}`` propagate.")
    doc = summary + "\n\n" + textwrap.fill(flow, WRAP_WIDTH - len(METHOD_INDENT)) + "\n\n" + params_doc
    body = textwrap.indent(docstring_literal(doc, "    "), "    ")
    return f"\ndef {link.call}({signature}){returns}:\n{body}\n    {local} = {read}\n    return {record(passed)}\n"
