"""``state_after_error``: where a public method checks its arguments (``if ...: raise``) before it changes
the object, the change made first when a check fails (a copy of the method without those checks runs, its
own errors swallowed, then the check's exception is raised), unless a docstring says what a failed call
leaves ("unchanged", "nothing is recorded", "the values before it stay": `core.analysis.statements.leaves_stated`)."""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst

from core.analysis.statements import Statements, leaves_stated
from validation.faithful.facts import MethodFacts, raising_if
from validation.faithful.guards import call_statement, read_guard
from validation.faithful.rewriter import ClassRewriter, docstring_statement, is_public, methods_changed, rewrite
from validation.faithful.variant import Rewrite, Subject


class _ChangeBeforeChecks(ClassRewriter):
    """Where a public method checks its arguments before changing the object, and no docstring says what a
    failed call leaves: when a check fails, a copy of the method without its argument checks runs first (its
    own errors swallowed: the change an implementation that checks late would have made), then the check's
    exception is raised as before. Checks of the object's own state (a frozen lock) stay in the copy, so a
    refused call on a locked object still changes nothing."""

    PREFIX = "_faithful_unchecked_"

    def __init__(self, class_name: str, statements: Statements, methods: MethodFacts) -> None:
        super().__init__(class_name)
        self.statements, self.methods = statements, methods
        self.copies: list[cst.FunctionDef] = []

    def _argument_guards(self, body: list[cst.BaseStatement], params: set[str]) -> list[cst.BaseStatement]:
        module = cst.Module(body=[])
        start = 1 if docstring_statement(body) else 0
        while (start < len(body) and read_guard(body[start], module, self.methods) is None
               and call_statement(body[start])):
            start += 1
        if start < len(body) and isinstance(body[start], cst.Try) and start == len(body) - 1:
            return self._argument_guards(list(body[start].body.body), params)
        found = []
        for statement in body[start:]:
            if read_guard(statement, module, self.methods) is None:
                break
            node = ast.parse(module.code_for_node(statement).strip()).body[0]
            if (raising_if(node) or isinstance(node, ast.For)) and \
                    {n.id for n in ast.walk(node.test if isinstance(node, ast.If) else node.iter)
                     if isinstance(n, ast.Name)} & params:
                found.append(statement)
        return found

    def finish_method(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        name = original.name.value
        node = self.methods.nodes.get(name)
        if (not is_public(name) or original.decorators or original.asynchronous or node is None
                or not self.methods.writes(name) or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))
                or leaves_stated(self.statements.of(name)) or leaves_stated(self.statements.class_doc)):
            return updated
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args[1:], *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
        guards = self._argument_guards(list(original.body.body), params)
        if not guards:
            return updated
        call = cst.SimpleStatementLine([cst.Expr(cst.Call(
            func=cst.Attribute(cst.Name("self"), cst.Name(self.PREFIX + name)), args=_forwarded(original.params)))])
        marked = {id(g) for g in guards}
        for guard in guards:
            check = guard if isinstance(guard, cst.If) else guard.body.body[0]  # type: ignore[attr-defined]
            self.site(check.body.body[0])  # the raise: its line runs only where the check fails
        self.copies.append(self._copy(original, marked))
        return original.with_changes(body=_GuardCalls(marked, call).visit_block(original.body))

    def _copy(self, method: cst.FunctionDef, marked: set[int]) -> cst.FunctionDef:
        body = list(method.body.body)
        start = 1 if docstring_statement(body) else 0
        module = cst.Module(body=[])
        while (start < len(body) and read_guard(body[start], module, self.methods) is None
               and call_statement(body[start])):
            start += 1  # the call recorder and its kin: the refused call was counted once already
        kept = _without(body[start:], marked) or [cst.SimpleStatementLine([cst.Pass()])]
        swallowed = cst.Try(body=cst.IndentedBlock(kept), handlers=[cst.ExceptHandler(
            body=cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])]), type=cst.Name("Exception"))])
        return method.with_changes(name=cst.Name(self.PREFIX + method.name.value), decorators=(),
                                   body=method.body.with_changes(body=[swallowed]))

    def finish_class(self, node: cst.ClassDef) -> cst.ClassDef:
        if not self.copies:
            return node
        return node.with_changes(body=node.body.with_changes(body=list(node.body.body) + self.copies))


def _forwarded(params: cst.Parameters) -> list[cst.Arg]:
    """The arguments that pass a method's own parameters on to a method of the same signature (self aside)."""
    positional = [*params.posonly_params, *params.params][1:]
    args = [cst.Arg(cst.Name(p.name.value)) for p in positional]
    if isinstance(params.star_arg, cst.Param):
        args.append(cst.Arg(cst.Name(params.star_arg.name.value), star="*"))
    args += [cst.Arg(cst.Name(p.name.value), keyword=cst.Name(p.name.value)) for p in params.kwonly_params]
    if params.star_kwarg is not None:
        args.append(cst.Arg(cst.Name(params.star_kwarg.name.value), star="**"))
    return args


def _without(statements: Sequence[cst.BaseStatement], marked: set[int]) -> list[cst.BaseStatement]:
    """The statements without the marked ones, looked for inside a leading `try` too."""
    out: list[cst.BaseStatement] = []
    for statement in statements:
        if id(statement) in marked:
            continue
        if isinstance(statement, cst.Try):
            inner = _without(list(statement.body.body), marked) or [cst.SimpleStatementLine([cst.Pass()])]
            statement = statement.with_changes(body=statement.body.with_changes(body=inner))
        out.append(statement)
    return out


class _GuardCalls:
    """Puts the call of the unchecked copy before the `raise` of each marked guard (an `if`, or the `if`
    inside a loop over items)."""

    def __init__(self, marked: set[int], call: cst.SimpleStatementLine) -> None:
        self.marked, self.call = marked, call

    def visit_block(self, block: cst.BaseSuite) -> cst.BaseSuite:
        assert isinstance(block, cst.IndentedBlock)
        body = []
        for statement in block.body:
            if id(statement) in self.marked:
                statement = self._guard(statement)
            elif isinstance(statement, cst.Try):
                statement = statement.with_changes(body=self.visit_block(statement.body))
            body.append(statement)
        return block.with_changes(body=body)

    def _guard(self, statement: cst.BaseStatement) -> cst.BaseStatement:
        if isinstance(statement, cst.For):
            inner = statement.body.body[0]
            return statement.with_changes(body=statement.body.with_changes(body=[self._guard(inner)]))
        assert isinstance(statement, cst.If)
        suite = statement.body
        raises = list(suite.body) if isinstance(suite, cst.IndentedBlock) else [cst.SimpleStatementLine(list(suite.body))]
        return statement.with_changes(body=cst.IndentedBlock([self.call, *raises]))


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name
    code, sites = rewrite(source, _ChangeBeforeChecks(class_name, subject.statements, subject.methods))
    if not sites:
        return None
    count = methods_changed(sites)
    return Rewrite(code, tuple(sites),
                   f"{count} method(s) change the object before a failed argument check raises")
