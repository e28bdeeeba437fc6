"""The libcst machinery the kinds rewrite a class with: a transformer base that visits the target class's
methods and records the places it changes, a rewriter that wraps public methods' returns in a helper call,
and the small readings of libcst nodes several kinds need."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from core.analysis.parsed import parsed


def is_public(name: str) -> bool:
    return not name.startswith("_")


def docstring_statement(body: Sequence[cst.BaseStatement]) -> bool:
    first = body[0] if body else None
    return (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def self_call(node: cst.BaseExpression) -> str | None:
    """`m` for an expression `self.m(...)`, else None."""
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name)
            and node.func.value.value == "self"):
        return node.func.attr.value
    return None


class ClassRewriter(cst.CSTTransformer):
    """Base: visits the target class's methods (not nested functions), tracks the current method."""

    METADATA_DEPENDENCIES = (cst.metadata.PositionProvider,)

    def __init__(self, class_name: str) -> None:
        super().__init__()
        self.class_name = class_name
        self.in_class = 0
        self.method: str | None = None
        self.depth = 0  # function nesting inside the class: 1 = a method's own body
        self.sites: list[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if node.name.value == self.class_name and self.in_class == 0:
            self.in_class += 1
            return True
        return self.in_class > 0

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if original.name.value == self.class_name and self.in_class == 1 and self.depth == 0:
            self.in_class -= 1
            return self.finish_class(updated)
        return updated

    def finish_class(self, node: cst.ClassDef) -> cst.ClassDef:
        return node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.in_class:
            self.depth += 1
            if self.depth == 1:
                self.method = node.name.value
        return True

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if self.in_class:
            result = self.finish_method(original, updated) if self.depth == 1 else updated
            self.depth -= 1
            if self.depth == 0:
                self.method = None
            return result
        return updated

    def finish_method(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        return updated

    def in_method_body(self) -> bool:
        return self.in_class == 1 and self.depth == 1 and self.method is not None

    def site(self, node: cst.CSTNode) -> None:
        line = self.get_metadata(cst.metadata.PositionProvider, node).start.line
        self.sites.append(f"{self.method}:{line}")


class WrapReturns(ClassRewriter):
    """Wraps `return X` of public methods as `return helper(X, extra)`, where `wanted` says so."""

    def __init__(self, class_name: str, helper: str, wanted) -> None:  # wanted(method, value node) -> extra args or None
        super().__init__(class_name)
        self.helper = helper
        self.wanted = wanted

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        if not self.in_method_body() or updated.value is None or not is_public(self.method or "_"):
            return updated
        extra = self.wanted(self.method, original)
        if extra is None:
            return updated
        self.site(original)
        value = updated.value
        if isinstance(value, cst.Tuple) and not value.lpar:
            # `return a, b` is one tuple: unparenthesised as an argument it would be two arguments
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        call_args = [cst.Arg(value)] + [cst.Arg(cst.parse_expression(e)) for e in extra]
        return updated.with_changes(value=cst.Call(func=cst.Name(self.helper), args=call_args))


def rewrite(source: str, transformer: ClassRewriter) -> tuple[str, list[str]]:
    """The source with `transformer` applied, and the places it changed. The parsed module is the one every
    kind shares (`parsed`): libcst's nodes are immutable, so skipping the copy cannot leak one kind's change
    into another's."""
    wrapper = cst.metadata.MetadataWrapper(parsed(source).module, unsafe_skip_copy=True)
    code = wrapper.visit(transformer).code
    return code, transformer.sites


def methods_changed(sites: Sequence[str]) -> int:
    """How many methods a rewrite changed, from its sites ("<method>:<where>")."""
    return len({site.split(":")[0] for site in sites})
