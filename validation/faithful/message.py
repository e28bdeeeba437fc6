"""``message``: exception messages reworded (values formatted into them are kept), unless the skeleton's
docstrings quote the message's fixed text (`core.analysis.statements.message_stated`).

A test that matches a message the skeleton never quotes fails every solver who words it otherwise."""

from __future__ import annotations

import libcst as cst

from core.analysis.statements import Statements, message_stated
from validation.faithful.rewriter import ClassRewriter, rewrite
from validation.faithful.variant import Rewrite, Subject


def _static_text(node: cst.BaseExpression) -> str | None:
    """The fixed text of a string message (the literal parts of an f-string), None when not a string."""
    if isinstance(node, cst.SimpleString):
        return str(node.evaluated_value)
    if isinstance(node, cst.ConcatenatedString):
        left, right = _static_text(node.left), _static_text(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, cst.FormattedString):
        return "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
    return None


class _RewordMessages(ClassRewriter):
    def __init__(self, class_name: str, statements: Statements) -> None:
        super().__init__(class_name)
        self.statements = statements

    def leave_Raise(self, original: cst.Raise, updated: cst.Raise) -> cst.Raise:
        if not self.in_class or self.method is None or not isinstance(updated.exc, cst.Call):
            return updated
        args = list(updated.exc.args)
        if not args or args[0].keyword is not None or args[0].star:
            return updated
        message = _static_text(args[0].value)
        if message is None:
            return updated
        stated = self.statements.class_doc + "\n" + self.statements.of(self.method)
        if message_stated(message, stated):
            return updated
        # Values formatted into the message stay (a solver may well name the offending value); the words go.
        values = [p for p in args[0].value.parts if isinstance(p, cst.FormattedStringExpression)] \
            if isinstance(args[0].value, cst.FormattedString) else []
        if values:
            parts: list[cst.BaseFormattedStringContent] = [cst.FormattedStringText("reworded:")]
            for value in values:
                parts += [cst.FormattedStringText(" "), value]
            replacement: cst.BaseExpression = cst.FormattedString(parts=parts, start='f"', end='"')
        else:
            replacement = cst.SimpleString('"reworded message"')
        self.site(original)
        args[0] = args[0].with_changes(value=replacement)
        return updated.with_changes(exc=updated.exc.with_changes(args=args))


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name
    code, sites = rewrite(source, _RewordMessages(class_name, subject.statements))
    if not sites:
        return None
    return Rewrite(code, tuple(sites),
                   f"{len(sites)} exception message(s) the skeleton does not quote, reworded")
