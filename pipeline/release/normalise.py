"""Normalising a class's source so that two tasks that differ only cosmetically look the same.

Written on the standard `ast` module rather than libcst on purpose: libcst keeps comments and formatting
(its point is lossless round trips), while here they must go; `ast` drops them for free and `ast.dump`
gives a canonical text of the tree to hash. Static analysis only: nothing here runs the code.

What is normalised: comments and formatting (gone with the parse), docstrings (removed), and local names
(parameters and names bound inside a function are renamed `_v0`, `_v1`, ... in order of first appearance).
What is kept: class, method and attribute names (they are the task's interface: renaming `self.balance`
changes what a solver must write), imported and global names, literals.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import re
import tokenize
from typing import Any


class _DocstringRemover(ast.NodeTransformer):
    """Drops the docstring of the module, of every class and of every function."""

    def _strip(self, node: Any) -> Any:
        self.generic_visit(node)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        node.body = body or [ast.Pass()]  # an emptied body must stay valid Python for unparse
        return node

    visit_Module = _strip
    visit_ClassDef = _strip
    visit_FunctionDef = _strip
    visit_AsyncFunctionDef = _strip


def _local_names(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Parameters and names bound in `func`'s own scope (not in nested functions or classes), in source order.

    Names declared `global`/`nonlocal` are not local and keep their names.
    """
    args = func.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    declared_outside: set[str] = set()
    bound: list[str] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                if not isinstance(child, ast.Lambda):
                    bound.append(child.name)  # a nested def binds its name locally; its body is its own scope
                continue
            if isinstance(child, (ast.Global, ast.Nonlocal)):
                declared_outside.update(child.names)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                bound.append(child.id)
            elif isinstance(child, ast.ExceptHandler) and child.name:
                bound.append(child.name)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                bound.extend((a.asname or a.name).split(".")[0] for a in child.names)
            walk(child)

    for statement in func.body:
        walk(ast.Module(body=[statement], type_ignores=[]))
    ordered: list[str] = []
    for name in (*params, *bound):
        if name not in ordered and name not in declared_outside:
            ordered.append(name)
    return ordered


class _LocalRenamer(ast.NodeTransformer):
    """Renames each function's local names to `_v<i>`; nested functions get their own numbering."""

    def __init__(self) -> None:
        self._scopes: list[dict[str, str]] = []

    def _function(self, node: Any) -> Any:
        mapping = {name: f"_v{i}" for i, name in enumerate(_local_names(node))}
        # Decorators and defaults are evaluated in the enclosing scope: rename them with the outer mapping.
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args.defaults = [self.visit(d) for d in node.args.defaults]
        node.args.kw_defaults = [self.visit(d) if d is not None else None for d in node.args.kw_defaults]
        if node.returns is not None:
            node.returns = self.visit(node.returns)
        self._scopes.append(mapping)
        for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg):
            if arg is not None:
                arg.arg = mapping.get(arg.arg, arg.arg)
                arg.annotation = None  # annotations are presentation, not behaviour
        node.body = [self.visit(s) for s in node.body]
        self._scopes.pop()
        if self._scopes and node.name in self._scopes[-1]:
            node.name = self._scopes[-1][node.name]
        return node

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if self._scopes:
            node.id = self._scopes[-1].get(node.id, node.id)
        return node

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.ExceptHandler:
        self.generic_visit(node)
        if self._scopes and node.name:
            node.name = self._scopes[-1].get(node.name, node.name)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        # `x: int = 1` inside a function: keep the binding, drop the annotation.
        self.generic_visit(node)
        if self._scopes and node.value is not None:
            return ast.copy_location(ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno), node)
        return node


def normalised_tree(source: str) -> ast.Module:
    """The normalised syntax tree of `source`; raises SyntaxError for code that does not parse."""
    tree = ast.parse(source)
    tree = _DocstringRemover().visit(tree)
    tree = _LocalRenamer().visit(tree)
    return ast.fix_missing_locations(tree)


def normalised_source(source: str) -> str:
    """`source` with comments, docstrings, formatting and local names normalised (via `ast.unparse`)."""
    return normal_forms(source)[0]


@functools.lru_cache(maxsize=2048)
def structural_hash(source: str) -> str:
    """sha256 of the normalised tree's canonical dump: equal for code that differs only cosmetically.
    Cached per process: the gate asks it of every released task and candidate, the release again."""
    return _tree_hash(normalised_tree(source))


@functools.lru_cache(maxsize=1024)
def normal_forms(source: str) -> tuple[str, str]:
    """(`normalised_source`, `structural_hash`) of `source` from one normalisation: deduplication needs
    both of every task, and normalising twice was most of a rebuild's release stage."""
    tree = normalised_tree(source)
    return ast.unparse(tree), _tree_hash(tree)


def _tree_hash(tree: ast.AST) -> str:
    dump = ast.dump(tree, annotate_fields=False, include_attributes=False)
    return hashlib.sha256(dump.encode("utf-8")).hexdigest()


_WORD = re.compile(r"\w+|[^\w\s]")
_SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER, tokenize.ENCODING}


def code_tokens(source: str, *, split_strings: bool = False) -> list[str]:
    """Python tokens of `source` without comments and layout tokens.

    With `split_strings`, string literals are split into words and punctuation, so that a docstring
    copied into a skeleton counts word by word (a whole docstring as one token would hide a copy that
    changed one word). Falls back to a plain word split for text that does not tokenize (a skeleton with
    a stray indent must still be comparable, not crash the release).
    """
    tokens: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in _SKIPPED:
                continue
            if split_strings and tok.type == tokenize.STRING:
                tokens.extend(_WORD.findall(tok.string))
            else:
                tokens.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return _WORD.findall(source)
    return tokens
