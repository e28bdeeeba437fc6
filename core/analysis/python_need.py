"""The oldest Python a module needs, read from its syntax and the standard-library names it uses.

Why: code written after 2025 uses 3.12 and 3.13 syntax (type parameter lists, `type` statements, f-strings
that nest their own quotes) and names (`itertools.batched`, `warnings.deprecated`) more and more. The
sandbox runs one configured interpreter, and the pipeline's own analyses parse with the `ast` of the
interpreter they run on: code newer than either fails there for reasons that have nothing to do with the
code, or ends the run. Knowing the version a task needs turns that into a verdict (`unsupported_syntax`) and
a column (`requires_python`) a user filters on.

Two readers, the cheap one first:

- the running interpreter's `ast` (the parse shared with the other analyses, `parsed`), whenever it can
  read the code; on 3.12 and later it also reads what 3.12 added, so the same walk names those nodes;
- libcst's parser, whose grammar reaches 3.14, when `ast` cannot: the constructs that stopped `ast` are
  named from libcst's tree (the running interpreter is too old to parse them, so one of them is why).

`FLOOR` is the oldest version considered: anything that parses and uses no listed name needs "3.8 or
later", which every supported interpreter is. The names below were checked against CPython 3.9 to 3.13
(present from the version given, absent in the one before; `tests/core/analysis/test_python_need.py`
checks them again wherever those interpreters are installed); the 3.14 ones follow its "What's New".
"""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass, replace

from core.analysis.parsed import parsed

Version = tuple[int, int]
FLOOR: Version = (3, 8)
RUNNING: Version = sys.version_info[:2]
"""What the pipeline's own `ast` reads: code needing more cannot be analysed in this process."""

STDLIB_SINCE: dict[str, Version] = {
    # modules
    "zoneinfo": (3, 9), "graphlib": (3, 9), "tomllib": (3, 11), "annotationlib": (3, 14),
    "compression": (3, 14), "string.templatelib": (3, 14),
    # 3.9
    "math.lcm": (3, 9), "math.nextafter": (3, 9), "math.ulp": (3, 9), "functools.cache": (3, 9),
    "typing.Annotated": (3, 9), "ast.unparse": (3, 9), "asyncio.to_thread": (3, 9), "random.randbytes": (3, 9),
    # 3.10
    "itertools.pairwise": (3, 10), "statistics.correlation": (3, 10), "statistics.covariance": (3, 10),
    "statistics.linear_regression": (3, 10), "typing.TypeAlias": (3, 10), "typing.ParamSpec": (3, 10),
    "typing.Concatenate": (3, 10), "typing.TypeGuard": (3, 10), "typing.is_typeddict": (3, 10),
    "contextlib.aclosing": (3, 10), "dataclasses.KW_ONLY": (3, 10), "aiter": (3, 10), "anext": (3, 10),
    # 3.11
    "typing.Self": (3, 11), "typing.LiteralString": (3, 11), "typing.Never": (3, 11),
    "typing.assert_never": (3, 11), "typing.assert_type": (3, 11), "typing.reveal_type": (3, 11),
    "typing.TypeVarTuple": (3, 11), "typing.Unpack": (3, 11), "typing.Required": (3, 11),
    "typing.NotRequired": (3, 11), "typing.dataclass_transform": (3, 11), "enum.StrEnum": (3, 11),
    "enum.verify": (3, 11), "enum.member": (3, 11), "enum.nonmember": (3, 11), "enum.global_enum": (3, 11),
    "enum.ReprEnum": (3, 11), "enum.EnumCheck": (3, 11), "enum.FlagBoundary": (3, 11), "enum.EnumType": (3, 11),
    "datetime.UTC": (3, 11), "asyncio.TaskGroup": (3, 11), "asyncio.timeout": (3, 11), "asyncio.Runner": (3, 11),
    "asyncio.Barrier": (3, 11), "contextlib.chdir": (3, 11), "hashlib.file_digest": (3, 11),
    "operator.call": (3, 11), "math.cbrt": (3, 11), "math.exp2": (3, 11), "ExceptionGroup": (3, 11),
    "BaseExceptionGroup": (3, 11),
    # 3.12
    "itertools.batched": (3, 12), "typing.override": (3, 12), "typing.TypeAliasType": (3, 12),
    "math.sumprod": (3, 12), "random.binomialvariate": (3, 12), "calendar.Month": (3, 12),
    "calendar.Day": (3, 12), "collections.abc.Buffer": (3, 12), "types.get_original_bases": (3, 12),
    "sys.monitoring": (3, 12), "os.path.splitroot": (3, 12),
    # 3.13
    "warnings.deprecated": (3, 13), "copy.replace": (3, 13), "typing.TypeIs": (3, 13), "typing.ReadOnly": (3, 13),
    "typing.NoDefault": (3, 13), "typing.get_protocol_members": (3, 13), "typing.is_protocol": (3, 13),
    "math.fma": (3, 13), "statistics.kde": (3, 13), "base64.z85encode": (3, 13), "queue.ShutDown": (3, 13),
    "os.process_cpu_count": (3, 13), "PythonFinalizationError": (3, 13),
    # 3.14
    "uuid.uuid7": (3, 14), "functools.Placeholder": (3, 14), "heapq.heappush_max": (3, 14),
}
"""Standard-library names by the version that added them: a module, `module.name`, or a builtin."""

KEYWORDS_SINCE: dict[tuple[str, str], Version] = {
    ("zip", "strict"): (3, 10), ("dataclasses.dataclass", "slots"): (3, 10), ("dataclasses.dataclass", "kw_only"): (3, 10),
    ("itertools.batched", "strict"): (3, 13),
}
"""Keyword arguments of standard-library calls by the version that added them."""

_TYPING_ALIASES = {"typing_extensions"}  # the back-port: the same names, any version
_BUILTIN_GENERICS = frozenset({"list", "dict", "tuple", "set", "frozenset", "type"})


def version_text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


def parse_version(text: str) -> Version:
    """'3.12' or '3.12.1' -> (3, 12); ValueError for anything else."""
    parts = text.strip().split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        raise ValueError(f"{text!r} is not a Python version (MAJOR.MINOR)")
    return int(parts[0]), int(parts[1])


@dataclass(frozen=True, order=True)
class Need:
    """One construct or name and the version that brought it."""

    version: Version
    what: str
    line: int = 0
    syntax: bool = True  # False for a standard-library name: only the interpreter running the code matters

    def describe(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"{self.what} needs Python {version_text(self.version)}{where}"


@dataclass(frozen=True)
class PythonNeed:
    """The oldest version some code needs, and why (each construct or name once, newest first)."""

    version: Version = FLOOR
    needs: tuple[Need, ...] = ()
    parsed_by: str = "ast"  # 'ast' (the running interpreter read it) or 'libcst' (only libcst could)

    @property
    def text(self) -> str:
        return version_text(self.version)

    def newer_than(self, version: Version, *, syntax_only: bool = False) -> tuple[Need, ...]:
        """The needs that `version` does not meet (only the syntax ones with `syntax_only`)."""
        return tuple(n for n in self.needs if n.version > version and (n.syntax or not syntax_only))

    def shifted(self, lines: int) -> PythonNeed:
        """The same needs with their lines moved by `lines` (code read out of a larger file)."""
        return PythonNeed(self.version, tuple(replace(n, line=n.line + lines) if n.line else n for n in self.needs),
                          self.parsed_by)

    def evidence(self) -> dict[str, object]:
        return {"requires_python": self.text, "needs": [n.describe() for n in self.needs], "parsed_by": self.parsed_by}


def _combine(needs: list[Need], parsed_by: str) -> PythonNeed:
    first: dict[str, Need] = {}
    for need in sorted(needs, key=lambda n: (n.line or 0)):
        first.setdefault(need.what, need)
    ordered = tuple(sorted(first.values(), key=lambda n: (-n.version[0], -n.version[1], n.line, n.what)))
    version = max([FLOOR, *(n.version for n in ordered)])
    return PythonNeed(version, ordered, parsed_by)


def python_need(*sources: str) -> PythonNeed:
    """The oldest Python that can run all of `sources` (a solution and its tests, say).

    Raises SyntaxError when neither reader can parse a source: that code runs nowhere."""
    needs: list[Need] = []
    parsed_by = "ast"
    for source in sources:
        try:
            tree = parsed(source).tree
        except (SyntaxError, ValueError) as exc:  # ValueError: a null byte on older interpreters
            needs += _libcst_needs(source, exc)
            parsed_by = "libcst"
            continue
        needs += _AstNeeds(tree).needs
        if RUNNING >= (3, 12) and any(isinstance(n, ast.JoinedStr) for n in ast.walk(tree)):
            needs += _pep701_needs(source)  # this `ast` reads 3.12 f-strings and does not say which they are
    return _combine(needs, parsed_by)


# --- the running interpreter's ast ---------------------------------------------------------------------

def _future_annotations(tree: ast.Module) -> bool:
    return any(isinstance(s, ast.ImportFrom) and s.module == "__future__" and any(a.name == "annotations" for a in s.names)
               for s in tree.body)


class _AstNeeds(ast.NodeVisitor):
    def __init__(self, tree: ast.Module) -> None:
        self.needs: list[Need] = []
        self.aliases: dict[str, str] = {}  # local name -> module or module.name it stands for
        self.lazy_annotations = _future_annotations(tree)
        self.depth = 0  # inside a function body: variable annotations there are never evaluated
        self.visit(tree)

    def need(self, version: Version, what: str, node: ast.AST, syntax: bool = True) -> None:
        self.needs.append(Need(version, what, getattr(node, "lineno", 0), syntax))

    def resolve(self, dotted: str) -> str:
        """The full name a dotted use stands for, through the module's imports (`it.batched` after
        `import itertools as it` -> itertools.batched)."""
        head, dot, rest = dotted.partition(".")
        return self.aliases.get(head, head) + dot + rest

    def name_used(self, dotted: str, node: ast.AST) -> None:
        for candidate in _prefixes(self.resolve(dotted)):
            since = STDLIB_SINCE.get(candidate)
            if since is not None:
                self.need(since, candidate, node, syntax=False)
                return

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.aliases[alias.asname] = alias.name
            else:
                self.aliases[alias.name.split(".")[0]] = alias.name.split(".")[0]
            self.name_used(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module or node.module in _TYPING_ALIASES:
            return
        self.name_used(node.module, node)
        for alias in node.names:
            if alias.name != "*":
                self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                self.name_used(f"{node.module}.{alias.name}", node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = _ast_dotted(node)
        if dotted and dotted.split(".")[0] in self.aliases:
            self.name_used(dotted, node)
            return  # the chain is one use; its inner attributes are prefixes of it
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases or node.id in STDLIB_SINCE:
            self.name_used(node.id, node)

    def visit_Call(self, node: ast.Call) -> None:
        callee = _ast_dotted(node.func)
        full = self.resolve(callee) if callee else ""
        for keyword in node.keywords:
            since = KEYWORDS_SINCE.get((full, keyword.arg or ""))
            if since is not None:
                self.need(since, f"{full}({keyword.arg}=...)", node, syntax=False)
        if callee in ("isinstance", "issubclass") and len(node.args) == 2 and _is_union(node.args[1]):
            self.need((3, 10), "X | Y as a type at run time (PEP 604)", node, syntax=False)
        self.generic_visit(node)

    def visit_Match(self, node: ast.AST) -> None:
        self.need((3, 10), "match statement (PEP 634)", node)
        self.generic_visit(node)

    def visit_TryStar(self, node: ast.AST) -> None:
        self.need((3, 11), "except* (PEP 654)", node)
        self.generic_visit(node)

    def visit_TypeAlias(self, node: ast.AST) -> None:  # ast of 3.12 and later
        self.need((3, 12), "type alias statement (PEP 695)", node)
        self._type_params(node)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(e, ast.Starred) for e in elements):
            self.need((3, 11), "star expression in an index (PEP 646)", node)
        self.generic_visit(node)

    def _type_params(self, node: ast.AST) -> None:
        params = getattr(node, "type_params", None) or ()
        if params:
            self.need((3, 12), "type parameter list (PEP 695)", node)
        if any(getattr(p, "default_value", None) is not None for p in params):
            self.need((3, 13), "type parameter default (PEP 696)", node)

    def _decorators(self, node: ast.AST) -> None:
        for decorator in getattr(node, "decorator_list", ()):
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if not _ast_dotted(target):
                self.need((3, 9), "decorator that is any expression (PEP 614)", decorator)

    def _annotation(self, annotation: ast.AST | None) -> None:
        if annotation is None or self.lazy_annotations or isinstance(annotation, ast.Constant):
            return
        for node in ast.walk(annotation):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
                self.need((3, 10), "X | Y in an annotation evaluated at run time (PEP 604)", node, syntax=False)
            elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                  and node.value.id in _BUILTIN_GENERICS):
                self.need((3, 9), f"{node.value.id}[...] in an annotation evaluated at run time (PEP 585)", node,
                          syntax=False)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._type_params(node)
        self._decorators(node)
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                if isinstance(arg.annotation, ast.Starred):
                    self.need((3, 11), "*args: *Ts (PEP 646)", arg)
                self._annotation(arg.annotation)
        self._annotation(node.returns)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._type_params(node)
        self._decorators(node)
        saved, self.depth = self.depth, 0  # a class body's annotations are evaluated
        self.generic_visit(node)
        self.depth = saved

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if self.depth == 0:
            self._annotation(node.annotation)
        self.generic_visit(node)


def _prefixes(dotted: str) -> list[str]:
    """'a.b.c' -> ['a.b.c', 'a.b', 'a']: the longest known name wins."""
    parts = dotted.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _ast_dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _ast_dotted(node.value)
        return f"{head}.{node.attr}" if head else ""
    return ""


def _is_union(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)


# --- libcst, for what the running interpreter cannot parse ---------------------------------------------

def _libcst_needs(source: str, error: Exception) -> list[Need]:
    """The constructs newer than this interpreter, named from libcst's tree; SyntaxError when libcst
    cannot parse the code either (it is not Python of any version libcst knows)."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    if "\x00" in source:
        raise SyntaxError("the source holds a null byte (U+0000), which no Python accepts")
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        raise SyntaxError(exc.message) from None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    visitor = _cst_visitor()(module)
    wrapper.visit(visitor)
    positions = wrapper.resolve(PositionProvider)
    needs = [Need(version, what, positions[node].start.line if node in positions else 0)
             for version, what, node in visitor.found]
    if not any(n.version > RUNNING for n in needs):  # libcst reads it, this ast does not, and we cannot say why
        line = getattr(error, "lineno", 0) or 0
        needs.append(Need((RUNNING[0], RUNNING[1] + 1),
                          f"syntax this interpreter cannot parse ({getattr(error, 'msg', error)})", line))
    return needs


def _pep701_needs(source: str) -> list[Need]:
    """f-strings that only 3.12's grammar accepts (PEP 701), named from libcst's tree."""
    import libcst as cst

    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return []
    visitor = _cst_visitor()(module, fstrings_only=True)
    module.visit(visitor)
    return [Need(version, what) for version, what, _ in visitor.found]


@functools.cache
def _cst_visitor():  # noqa: ANN202 - the class is made on first use: libcst is imported only when needed
    import libcst as cst

    class CstNeeds(cst.CSTVisitor):
        def __init__(self, module: cst.Module, fstrings_only: bool = False) -> None:
            self.module = module
            self.fstrings_only = fstrings_only
            self.found: list[tuple[Version, str, cst.CSTNode]] = []

        def add(self, version: Version, what: str, node: cst.CSTNode) -> None:
            if not self.fstrings_only or "PEP 701" in what:
                self.found.append((version, what, node))

        def _type_parameters(self, node: cst.ClassDef | cst.FunctionDef) -> None:
            if node.type_parameters is not None:
                self.add((3, 12), "type parameter list (PEP 695)", node)
                if any(p.default is not None for p in node.type_parameters.params):
                    self.add((3, 13), "type parameter default (PEP 696)", node)

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            self._type_parameters(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self._type_parameters(node)

        def visit_TypeAlias(self, node: cst.TypeAlias) -> None:
            self.add((3, 12), "type alias statement (PEP 695)", node)
            if node.type_parameters is not None and any(p.default is not None for p in node.type_parameters.params):
                self.add((3, 13), "type parameter default (PEP 696)", node)

        def visit_TryStar(self, node: cst.TryStar) -> None:
            self.add((3, 11), "except* (PEP 654)", node)

        def visit_Match(self, node: cst.Match) -> None:
            self.add((3, 10), "match statement (PEP 634)", node)

        def visit_TemplatedString(self, node: cst.TemplatedString) -> None:
            self.add((3, 14), "template string t'...' (PEP 750)", node)

        def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
            self._bare_tuple(node)

        def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
            self._bare_tuple(node)

        def _bare_tuple(self, node: cst.ExceptHandler | cst.ExceptStarHandler) -> None:
            if isinstance(node.type, cst.Tuple) and not node.type.lpar:
                self.add((3, 14), "except with several types and no parentheses (PEP 758)", node)

        def visit_SubscriptElement(self, node: cst.SubscriptElement) -> None:
            if isinstance(node.slice, cst.Index) and node.slice.star is not None:
                self.add((3, 11), "star expression in an index (PEP 646)", node)

        def visit_FormattedString(self, node: cst.FormattedString) -> None:
            quote = node.end  # the closing quote(s): ', ", ''' or """
            for part in node.parts:
                if not isinstance(part, cst.FormattedStringExpression):
                    continue
                inner = self.module.code_for_node(part.expression)
                if quote in inner or "\\" in inner or (len(quote) == 1 and "\n" in inner) or _has_comment(inner):
                    self.add((3, 12), "f-string reusing its quotes, a backslash or a comment inside {} (PEP 701)",
                             node)
                    return

    return CstNeeds


def _has_comment(code: str) -> bool:
    import io
    import tokenize

    try:
        return any(t.type == tokenize.COMMENT for t in tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return "#" in code


@dataclass(frozen=True)
class Supported:
    """What can be done with code of a given need here: the sandbox's interpreter runs it, and this
    process's `ast` must read it (every analysis of the gate, synthesis and release does)."""

    sandbox: Version
    pipeline: Version = RUNNING

    def refusals(self, need: PythonNeed) -> tuple[str, ...]:
        """Why code of `need` cannot become a task here (empty: it can)."""
        reasons = [f"{n.describe()}; the sandbox runs Python {version_text(self.sandbox)}"
                   for n in need.newer_than(self.sandbox)]
        if not reasons:
            reasons = [f"{n.describe()}; the pipeline's own parser is Python {version_text(self.pipeline)}'s, "
                       f"which cannot analyse it (run the pipeline on a newer Python)"
                       for n in need.newer_than(self.pipeline, syntax_only=True)]
        return tuple(reasons)


def requires_python(*sources: str) -> str | None:
    """`python_need(*sources).text`, or None for code that no parser reads (rejected for that elsewhere)."""
    try:
        return python_need(*sources).text
    except SyntaxError:
        return None
