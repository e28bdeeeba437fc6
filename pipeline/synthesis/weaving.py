"""Writing a composition's links into the hybrid: inside the producing operation, or as a method of their own.

A woven link changes the producer's code as a person would write it: every ``return value`` becomes
"keep the value, hand it to the consumer, return it", and the producer's docstring gains one paragraph
(before its parameter list) saying what happens to the value. A link method reads the producer and feeds
the consumer; its summary line is the consumer's declared action ("pay the week's gross pay into the
wallet"), and its body is the call its docstring states, so the flow can be written from the skeleton alone.
"""

from __future__ import annotations

import ast
import re
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
    keep the value under `local`, pass it to the consumer (when it passes `guard`), return it. For an
    operation that returns nothing (`at_end`), the call is its last statement instead. A condition read on
    the state the operation finds (`before`: name, expression) is kept first, after the docstring."""

    def __init__(self, call: str, local: str, guard: str, at_end: bool = False,
                 before: tuple[str, str] | None = None) -> None:
        self.call, self.local, self.guard, self.at_end, self.before = call, local, guard, at_end, before
        self.depth = 0

    def _hand_on(self) -> str:
        return f"if {self.guard}:\n    {self.call}\n" if self.guard else f"{self.call}\n"

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return self.depth == 1

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.depth -= 1
        if self.depth > 0 or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        body = list(updated.body.body)
        if self.at_end:
            body += list(cst.parse_module(self._hand_on()).body)
        if self.before is not None:
            at = 1 if body and _docstring_node(updated.body) is not None else 0
            body.insert(at, cst.parse_statement(f"{self.before[0]} = {self.before[1]}\n"))
        return updated.with_changes(body=updated.body.with_changes(body=body))

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
                                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if self.at_end or len(updated.body) != 1 or not isinstance(updated.body[0], cst.Return) \
                or updated.body[0].value is None:
            return updated
        value = cst.Module([]).code_for_node(updated.body[0].value)
        known = _settled(self.guard, self.local, value)
        if known is False:
            return updated  # a literal that never passes (`return False` where only True is reported)
        hand_on = f"{self.call}\n" if known else self._hand_on()
        statements = cst.parse_module(f"{self.local} = {value}\n{hand_on}return {self.local}\n").body
        first = statements[0].with_changes(leading_lines=updated.leading_lines)
        return cst.FlattenSentinel([first, *statements[1:]])


_CONSTANT_NODES = (ast.Expression, ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.cmpop, ast.boolop,
                   ast.unaryop)


def _settled(guard: str, local: str, value: str) -> bool | None:
    """Whether `guard` passes when the returned `value` is a literal and the guard reads nothing else (True
    or False), so that a `return False` where only True is reported hands nothing on and reads so; None
    when it depends on more than the literal."""
    if not guard:
        return True
    try:
        tree = ast.parse(re.sub(rf"\b{re.escape(local)}\b", f"({value})", guard), mode="eval")
    except SyntaxError:
        return None
    if not all(isinstance(node, _CONSTANT_NODES) for node in ast.walk(tree)):
        return None
    return bool(eval(compile(tree, "<guard>", "eval"), {"__builtins__": {}}))  # constants only: checked above


def _free_name(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_value"
    return name


def weave(source: str, hybrid: str, link: Link, producer_locals: set[str], consumer_raises: bool) -> str:
    """The hybrid with `link` woven into its producer: the value every `return` gives (or, for an operation
    that returns nothing, the event it reports at its end) is handed to the consumer first, and the
    producer's docstring says so (and what an error of the consumer does, when `consumer_raises`: its
    docstring names an exception)."""
    # what the operation returns keeps a name of its own where the value handed on is something else
    local = _free_name("returned" if link.value else link.produced.name, producer_locals)
    before_name = _free_name("hand_on", producer_locals | {local})
    before = (before_name, link.condition) if link.checked_before else None
    given = "".join(f", {name}={expression}" for name, expression in link.supplied)
    call = f"self.{link.consumer}({link.parameter}={link.passed(local)}{given})"
    editor = ClassEditor(source, hybrid)
    node = _docstring_node(editor.method(link.producer).body)
    editor.transform_method(link.producer, _HandOn(call, local, link.guard(local, before_name),
                                                   link.returns_nothing, before))
    text = evaluated_docstring(node) if node is not None else ""
    when = " when it is above zero" if link.positive else ""
    with_ = (", with " + " and ".join(f"``{name}={expression}``{_clock_note(link, name)}"
                                      for name, expression in link.supplied) if link.supplied else "")
    returned = ", for ``{result}``, the value it returns" if "{result}" in link.produced.event else ""
    what = (f"the text ``{link.produced.event}``, filled with its arguments{returned}," if link.produced.event
            else f"``{link.value.replace('{result}', 'the value it returns')}``" if link.value
            else "the value it returns")
    paragraph = (f"{capitalised(link.produced.what)} is then {link.accepted.role} (this method passes {what} to "
                 f"``{link.consumer}`` as ``{link.parameter}``{with_}{when}, after its own changes)"
                 f"{link.unit_note}{link.reason}.")
    if link.produced.condition_words:
        paragraph += f" It is passed on only {link.produced.condition_words}."
    if consumer_raises:
        paragraph += (f" If ``{link.consumer}`` refuses the value, its error propagates and this method's own "
                      f"changes stay made.")
    text = paragraph_inserted(text or "", paragraph).strip()
    editor.set_method_docstring(link.producer, docstring_literal(text, METHOD_INDENT))
    return editor.code()


def _clock_note(link: Link, parameter: str) -> str:
    """Words for a time the producer gives from its own clock ("" for any other parameter it gives)."""
    if link.accepted.context.get("when") != parameter:
        return ""
    return f" (the time on its own clock, in {link.accepted.units.get('when', 'its unit')})"


def callers_told(source: str, hybrid: str, told: dict[str, list[Link]]) -> str:
    """The hybrid with a sentence in the docstring of each method that calls woven producers (`told`: the
    method's name -> the links of the producers it calls, in call order): what those producers hand on
    reaches their consumers through these calls too (an even expense is added as a weighted one, and that one is logged)."""
    editor = ClassEditor(source, hybrid)
    for caller, links in told.items():
        node = _docstring_node(editor.method(caller).body)
        if node is None:
            continue
        names = " and ".join(f"``{link.producer}``" for link in links)
        consumers = " and ".join(dict.fromkeys(f"``{link.consumer}``" for link in links))
        paragraph = (f"Its call of {names} passes on what that method reports (to {consumers}) too, as that "
                     f"method describes." if len(links) == 1 else
                     f"Its calls of {names} pass on what those methods report (to {consumers}) too, as those "
                     f"methods describe.")
        text = paragraph_inserted(evaluated_docstring(node) or "", paragraph).strip()
        editor.set_method_docstring(caller, docstring_literal(text, METHOD_INDENT))
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
    before = _free_name("hand_on", used | {local})
    passed = link.passed(local)
    guard = link.guard(local, before, positive=False)

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
    if guard and consumer.returns and consumer.returns != "None":
        returns = f" -> {consumer.returns} | None"
    summary = capitalised(link.accepted.action.replace("{what}", link.produced.what)) + "."
    params_doc = "\n".join([f":param {p.name}: passed to ``{link.producer}``." for p in own]
                           + [f":param {renamed[p.name]}: passed to ``{link.consumer}`` as ``{p.name}``." for p in rest]
                           + [f":return: what ``{link.consumer}`` returns"
                              + (", or None when nothing is passed on." if guard else ".")])
    how = (f"a text naming what ``{link.producer}`` acted on and what it returned" if link.produced.event
           else f"the value ``{link.producer}`` returns")
    same = (f"The same as ``{record(link.passed(read))}``: {how} is passed as ``{link.parameter}``."
            if not guard else f"It calls ``{read}`` and, only then, passes {how} to ``{link.consumer}`` as "
            f"``{link.parameter}``.")
    flow = (f"{link.sentence} {same} If ``{link.producer}`` raises, nothing is passed on; errors of "
            f"``{link.consumer}`` propagate.")
    doc = summary + "\n\n" + textwrap.fill(flow, WRAP_WIDTH - len(METHOD_INDENT)) + "\n\n" + params_doc
    body = textwrap.indent(docstring_literal(doc, "    "), "    ")
    lines = [f"    {before} = {link.condition}"] if link.checked_before else []
    lines.append(f"    {read}" if link.returns_nothing else f"    {local} = {read}")
    if guard:
        lines.append(f"    if not ({guard}):\n        return None")
    lines.append(f"    return {record(passed)}")
    return f"\ndef {link.call}({signature}){returns}:\n{body}\n" + "\n".join(lines) + "\n"
