"""Top-level classes of a mined module, read with libcst (mined code is parsed, never imported or run).

`ParsedModule` parses a file once; `ClassUnit` is one of its top-level classes with the cheap facts the
shape filters need (method names, line count, bases, decorators). Nested classes are not tasks on their
own: a solver would need the enclosing class to use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from core.analysis.class_facts import ClassFacts, Edge, class_facts, edges_from_facts
from core.records import RejectReason
from pipeline.mining.filters import Drop


def dotted_name(node: cst.BaseExpression) -> str:
    """`a.b.c` for a Name/Attribute chain (subscripts and calls are looked through: `Generic[T]` -> Generic);
    '' for anything else."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head else ""
    if isinstance(node, cst.Subscript):
        return dotted_name(node.value)
    if isinstance(node, cst.Call):
        return dotted_name(node.func)
    return ""


def import_bindings(node: cst.Import) -> dict[str, str]:
    """What `import a.b as c` / `import a.b` binds: {'c': 'a.b'} / {'a': 'a'} (the package a dotted import
    binds is its first part)."""
    bound = {}
    for alias in node.names:
        full = dotted_name(alias.name)
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            bound[alias.asname.name.value] = full
        else:
            bound[full.split(".")[0]] = full.split(".")[0]
    return bound


@dataclass(frozen=True, eq=False)
class ClassUnit:
    """One top-level class of a parsed module."""

    module: ParsedModule
    node: cst.ClassDef

    @property
    def name(self) -> str:
        return self.node.name.value

    @cached_property
    def code(self) -> str:
        """The class's source, decorators included, without the blank lines before it."""
        return self.module.tree.code_for_node(self.node.with_changes(leading_lines=())).strip("\n") + "\n"

    @property
    def line_count(self) -> int:
        return self.code.count("\n")

    @property
    def bases(self) -> tuple[str, ...]:
        return tuple(dotted_name(arg.value) for arg in self.node.bases)

    @property
    def keywords(self) -> dict[str, str]:
        """Class keywords such as metaclass=ABCMeta."""
        return {arg.keyword.value: dotted_name(arg.value) for arg in self.node.keywords if arg.keyword is not None}

    @property
    def decorators(self) -> tuple[str, ...]:
        return tuple(dotted_name(d.decorator) for d in self.node.decorators)

    @cached_property
    def functions(self) -> tuple[cst.FunctionDef, ...]:
        body = self.node.body.body if isinstance(self.node.body, cst.IndentedBlock) else ()
        return tuple(stmt for stmt in body if isinstance(stmt, cst.FunctionDef))

    @property
    def method_names(self) -> tuple[str, ...]:
        """Distinct method names in source order (a property's getter and setter count once)."""
        return tuple(dict.fromkeys(f.name.value for f in self.functions))

    @cached_property
    def facts(self) -> ClassFacts:
        """Reads, writes and calls per method (core.analysis): the interaction filter's input.

        Read from the class's own code, not the module's: parsing a large module again per class was most
        of the miner's time, and edges, fields and docstrings do not depend on the rest of the module."""
        return class_facts(self.code, self.name)

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        return tuple(edges_from_facts(self.facts))


class ParsedModule:
    """A mined Python file parsed once; `classes` lists its top-level classes in source order."""

    def __init__(self, source: str, path: str = "<module>") -> None:
        self.source = source
        self.path = path
        self.tree = cst.parse_module(source)  # raises libcst.ParserSyntaxError

    @cached_property
    def metadata(self) -> tuple[dict, dict]:
        """libcst's scopes and positions for the whole module, resolved once and shared by every class's
        slice (resolving them per class made slicing quadratic in the module's size)."""
        from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

        wrapper = MetadataWrapper(self.tree, unsafe_skip_copy=True)  # the same nodes as `tree`
        resolved = wrapper.resolve_many([ScopeProvider, PositionProvider])
        return resolved[ScopeProvider], resolved[PositionProvider]

    @cached_property
    def classes(self) -> tuple[ClassUnit, ...]:
        return tuple(ClassUnit(self, stmt) for stmt in self.tree.body if isinstance(stmt, cst.ClassDef))


def parse_module(source: str, path: str = "<module>") -> ParsedModule | Drop:
    """The parsed module, or the drop of a file that is not valid Python to libcst's grammar (which reaches
    3.14, so this is a syntax error in any version) or nests deeper than the parser recurses."""
    try:
        return ParsedModule(source, path)
    except cst.ParserSyntaxError as exc:
        return Drop(RejectReason.SYNTAX_ERROR, f"libcst cannot parse it: {exc.message} (line {exc.raw_line})")
    except (RecursionError, ValueError) as exc:
        return Drop(RejectReason.MALFORMED, f"could not parse it: {type(exc).__name__}: {str(exc)[:200]}")
