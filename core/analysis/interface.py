"""What a skeleton declares, read statically with `ast` (never imported: it is untrusted text).

The offline judges compare tests and docstrings against this: the class's public methods with their
parameters, docstrings and return annotations; the names the skeleton states anywhere (methods, class
attributes, and identifiers its docstrings mention); and the exception classes the module defines, with
their bases, so that "a test expects ValueError" can be checked against "the method documents
`InvalidMove(ValueError)`" without running anything.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class MethodDecl:
    """One method as the skeleton declares it."""

    name: str
    params: tuple[str, ...]  # without self/cls
    docstring: str
    returns: str | None  # the return annotation's source, if any
    is_property: bool
    line: int

    @property
    def public(self) -> bool:
        return not self.name.startswith("_") or self.name == "__init__"


@dataclass
class Interface:
    """The class under test as its skeleton states it."""

    class_name: str
    class_doc: str
    methods: dict[str, MethodDecl] = field(default_factory=dict)
    class_attributes: set[str] = field(default_factory=set)
    exception_bases: dict[str, tuple[str, ...]] = field(default_factory=dict)  # module-defined exceptions
    text: str = ""  # the whole skeleton: a message or repr that appears in it is stated

    def words(self, method: str | None = None) -> set[str]:
        """Identifiers mentioned in the class docstring and (when given) the method's docstring."""
        docs = self.class_doc + "\n" + (self.methods[method].docstring if method in self.methods else "")
        return set(_WORD.findall(docs))

    def declared_names(self) -> set[str]:
        """Every name the skeleton states: methods, class attributes, identifiers in any docstring."""
        words = set(_WORD.findall(self.class_doc))
        for m in self.methods.values():
            words |= set(_WORD.findall(m.docstring))
        return words | set(self.methods) | self.class_attributes

    def is_subclass(self, name: str, base: str) -> bool:
        """Whether exception `name` is `base` or derives from it (module classes by their declared bases,
        built-in exceptions by the interpreter's own hierarchy). Unknown names are only equal to themselves."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current == base:
                return True
            if current in seen:
                continue
            seen.add(current)
            if current in self.exception_bases:
                todo.extend(self.exception_bases[current])
            else:
                a, b = getattr(builtins, current, None), getattr(builtins, base, None)
                if isinstance(a, type) and isinstance(b, type) and issubclass(a, b):
                    return True
        return False


def _base_names(node: ast.ClassDef) -> tuple[str, ...]:
    return tuple(b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                 if isinstance(b, (ast.Name, ast.Attribute)))


def _module_exceptions(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Classes of the module that derive (transitively) from a built-in exception."""
    classes = {n.name: _base_names(n) for n in tree.body if isinstance(n, ast.ClassDef)}
    out: dict[str, tuple[str, ...]] = {}
    changed = True
    while changed:
        changed = False
        for name, bases in classes.items():
            if name in out:
                continue
            if any(b in out or (isinstance(getattr(builtins, b, None), type) and issubclass(getattr(builtins, b), BaseException))
                   for b in bases):
                out[name] = bases
                changed = True
    return out


def read_interface(skeleton: str, class_name: str) -> Interface:
    """The interface of `class_name` in `skeleton`; `SyntaxError`/`LookupError` when it cannot be read."""
    tree = ast.parse(skeleton)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if node is None:
        raise LookupError(f"class {class_name} not found in the skeleton")
    interface = Interface(class_name=class_name, class_doc=ast.get_docstring(node) or "",
                          exception_bases=_module_exceptions(tree), text=skeleton)
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            decorators = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in item.decorator_list}
            args = item.args
            names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
            if "staticmethod" not in decorators and names:
                names = names[1:]  # self or cls
            names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
            interface.methods[item.name] = MethodDecl(
                name=item.name, params=tuple(names), docstring=ast.get_docstring(item) or "",
                returns=ast.unparse(item.returns) if item.returns is not None else None,
                is_property="property" in decorators or bool(decorators & {"setter", "getter"}), line=item.lineno)
        elif isinstance(item, ast.Assign):
            interface.class_attributes |= {t.id for t in item.targets if isinstance(t, ast.Name)}
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            interface.class_attributes.add(item.target.id)
    return interface
