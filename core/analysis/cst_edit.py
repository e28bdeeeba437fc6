"""Small, precise edits of one class in a module, on libcst so that everything not edited keeps its exact
formatting and comments (an `ast` round trip would lose both, and the reference solution is shown to people).

Every edit works on source text and returns source text; `ClassEditor` keeps the tree between edits.
"""

from __future__ import annotations

import re
import textwrap

import libcst as cst

METHOD_INDENT = " " * 8
CLASS_INDENT = " " * 4
WRAP_WIDTH = 100
SECTION_HEADER = re.compile(r"(?:Args|Arguments|Parameters|Returns?|Raises|Yields|Examples?|Note):\s*$")
"""A Google-style docstring section's first line: its paragraph is a field list, kept as written."""


class EditError(Exception):
    """An edit could not be made (missing class or method, unexpected shape)."""


def _docstring_node(body: cst.BaseSuite) -> cst.SimpleString | None:
    if not isinstance(body, cst.IndentedBlock) or not body.body:
        return None
    first = body.body[0]
    if isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr):
        value = first.body[0].value
        if isinstance(value, cst.SimpleString):
            return value
    return None


def wrap_paragraph(text: str, indent: str) -> str:
    """Wrap `text` (paragraphs separated by blank lines) at WRAP_WIDTH with `indent` on every line."""
    paragraphs = [p.strip() for p in text.strip().split("\n\n")]
    out = []
    for paragraph in paragraphs:
        lines = paragraph.splitlines()
        if SECTION_HEADER.match(lines[0].strip()):
            out.append("\n".join(indent + line.rstrip() for line in textwrap.dedent(paragraph).splitlines()))
        elif all(line.lstrip().startswith((":", "-", ">>>")) for line in lines if line.strip()):
            out.append("\n".join(indent + line.strip() for line in lines))
        else:
            out.append(textwrap.fill(" ".join(paragraph.split()), WRAP_WIDTH, initial_indent=indent, subsequent_indent=indent))
    return "\n\n".join(out)


def extended_docstring(node: cst.SimpleString | None, addition: str, indent: str) -> cst.SimpleString:
    """A docstring with `addition` appended as a new paragraph (or a new docstring holding only it)."""
    if '"""' in addition or "\\" in addition:
        raise EditError("docstring addition must not contain triple quotes or backslashes")
    wrapped = wrap_paragraph(addition, indent)
    if node is None:
        return cst.SimpleString('"""' + wrapped.lstrip() + "\n" + indent + '"""')
    raw = node.value
    prefix = ""
    while raw and raw[0] in "rRuUbB":
        prefix, raw = prefix + raw[0], raw[1:]
    if raw.startswith(('"""', "'''")):
        quote = raw[:3]
        inner = raw[3:-3]
    else:
        quote = '"""'
        inner = raw[1:-1]
    inner = inner.rstrip()
    return cst.SimpleString(f'{prefix}{quote}{inner}\n\n{wrapped}\n{indent}{quote}')


def parse_class_members(source: str) -> list[cst.BaseStatement]:
    """Parse dedented method definitions as members of a class, so that the text inside their docstrings is
    indented for a method body (libcst re-indents code, never the contents of string literals)."""
    body = textwrap.indent(textwrap.dedent(source).strip("\n"), CLASS_INDENT)
    module = cst.parse_module("class _Members:\n" + body + "\n")
    cls = module.body[0]
    assert isinstance(cls, cst.ClassDef) and isinstance(cls.body, cst.IndentedBlock)
    return list(cls.body.body)


def parse_statements(source: str) -> list[cst.BaseStatement]:
    """Parse dedented source into statements ready to be inserted in any block."""
    module = cst.parse_module(textwrap.dedent(source).strip("\n") + "\n")
    return list(module.body)


def _rewrapped(function: cst.FunctionDef) -> cst.FunctionDef:
    """Re-wrap the prose paragraphs of a generated method's docstring at WRAP_WIDTH (interpolated names
    make template lines arbitrarily long); field lists (`:param ...`) are kept as written."""
    doc = _docstring_node(function.body)
    if doc is None or not doc.value.startswith('"""'):
        return function
    inner = doc.value[3:-3]
    lines = inner.split("\n")
    head, rest = lines[0], "\n".join(lines[1:])
    paragraphs = [p for p in textwrap.dedent(rest).strip("\n").split("\n\n")] if rest.strip() else []
    parts = [textwrap.fill(head.strip(), WRAP_WIDTH, initial_indent=METHOD_INDENT, subsequent_indent=METHOD_INDENT).lstrip()]
    for paragraph in paragraphs:
        if paragraph.lstrip().startswith((":", ">>>")) or SECTION_HEADER.match(paragraph.strip().splitlines()[0]):
            parts.append(textwrap.indent(paragraph, METHOD_INDENT))
        else:
            parts.append(wrap_paragraph(paragraph, METHOD_INDENT))
    text = "\n\n".join(parts)
    if len(lines) > 1:
        text += "\n" + METHOD_INDENT
    new_doc = cst.SimpleString('"""' + text + '"""')
    inner_body = list(function.body.body)
    inner_body[0] = inner_body[0].with_changes(body=[cst.Expr(new_doc)])
    return function.with_changes(body=function.body.with_changes(body=inner_body))


class ClassEditor:
    """Edits one top-level class of a module."""

    def __init__(self, source: str, class_name: str) -> None:
        try:
            self.module = cst.parse_module(source)
        except cst.ParserSyntaxError as exc:
            raise EditError(f"source does not parse: {exc.message}") from None
        self.class_name = class_name
        self._class_index()  # fail early

    # -- locating -------------------------------------------------------------------------------------
    def _class_index(self) -> int:
        for index, node in enumerate(self.module.body):
            if isinstance(node, cst.ClassDef) and node.name.value == self.class_name:
                return index
        raise EditError(f"class {self.class_name!r} not found at module level")

    @property
    def cls(self) -> cst.ClassDef:
        return self.module.body[self._class_index()]  # type: ignore[return-value]

    def _set_class(self, new: cst.ClassDef) -> None:
        index = self._class_index()
        body = list(self.module.body)
        body[index] = new
        self.module = self.module.with_changes(body=body)

    def _class_body(self) -> list[cst.BaseStatement]:
        body = self.cls.body
        if not isinstance(body, cst.IndentedBlock):
            raise EditError(f"class {self.class_name!r} has a one-line body")
        return list(body.body)

    def _set_class_body(self, statements: list[cst.BaseStatement]) -> None:
        self._set_class(self.cls.with_changes(body=self.cls.body.with_changes(body=statements)))

    def method_names(self) -> list[str]:
        return [s.name.value for s in self._class_body() if isinstance(s, cst.FunctionDef)]

    def _method_index(self, name: str) -> int:
        for index, statement in enumerate(self._class_body()):
            if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
                return index
        raise EditError(f"method {self.class_name}.{name} not found")

    def method(self, name: str) -> cst.FunctionDef:
        return self._class_body()[self._method_index(name)]  # type: ignore[return-value]

    def _set_method(self, name: str, new: cst.FunctionDef) -> None:
        body = self._class_body()
        body[self._method_index(name)] = new
        self._set_class_body(body)

    # -- module-level edits ---------------------------------------------------------------------------
    def add_import(self, module_name: str) -> None:
        """Add `import <module_name>` after the module's imports, unless it is already imported."""
        body = list(self.module.body)
        last_import = -1
        for index, statement in enumerate(body):
            if isinstance(statement, cst.SimpleStatementLine) and statement.body:
                small = statement.body[0]
                if isinstance(small, cst.Import):
                    if any(cst.Module([]).code_for_node(alias.name) == module_name for alias in small.names):
                        return
                    last_import = index
                elif isinstance(small, cst.ImportFrom):
                    last_import = index
                elif index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
                    last_import = max(last_import, 0)
        new = parse_statements(f"import {module_name}")[0]
        if last_import == -1:
            body.insert(0, new)
        else:
            body.insert(last_import + 1, new.with_changes(leading_lines=() if isinstance(body[last_import], cst.SimpleStatementLine) and not isinstance(body[last_import].body[0], cst.Expr) else (cst.EmptyLine(),)))
        self.module = self.module.with_changes(body=body)

    def add_before_class(self, source: str) -> None:
        """Insert module-level statements (e.g. an exception class) just before the edited class."""
        statements = parse_statements(source)
        index = self._class_index()
        body = list(self.module.body)
        two_blank = (cst.EmptyLine(), cst.EmptyLine())
        statements[0] = statements[0].with_changes(leading_lines=two_blank)
        body[index] = body[index].with_changes(leading_lines=two_blank)
        body[index:index] = statements
        self.module = self.module.with_changes(body=body)

    def module_level_names(self) -> set[str]:
        names: set[str] = set()
        for statement in self.module.body:
            if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
                names.add(statement.name.value)
        return names

    # -- class-level edits ----------------------------------------------------------------------------
    def extend_class_docstring(self, text: str) -> None:
        body = self._class_body()
        doc = _docstring_node(self.cls.body)
        new_doc = cst.SimpleStatementLine([cst.Expr(extended_docstring(doc, text, CLASS_INDENT))])
        if doc is None:
            body.insert(0, new_doc)
        else:
            body[0] = body[0].with_changes(body=[cst.Expr(extended_docstring(doc, text, CLASS_INDENT))])
        self._set_class_body(body)

    def append_methods(self, source: str) -> None:
        """Append the methods (and only methods) in `source` at the end of the class, one blank line apart."""
        statements = parse_class_members(source)
        for statement in statements:
            if not isinstance(statement, cst.FunctionDef):
                raise EditError("append_methods takes function definitions only")
            if statement.name.value in self.method_names():
                raise EditError(f"method {self.class_name}.{statement.name.value} already exists")
        body = self._class_body()
        for statement in statements:
            body.append(_rewrapped(statement).with_changes(leading_lines=(cst.EmptyLine(indent=False),)))
        self._set_class_body(body)

    def append_to_init(self, source: str) -> None:
        """Append statements at the end of `__init__` (creating `__init__(self) -> None` if there is none)."""
        statements = parse_statements(source)
        if "__init__" not in self.method_names():
            init = parse_class_members('def __init__(self) -> None:\n    """Create an instance with no recorded state."""\n    pass\n')[0]
            body = self._class_body()
            insert_at = 0
            for index, statement in enumerate(body):
                if isinstance(statement, cst.FunctionDef):
                    insert_at = index
                    break
                insert_at = index + 1
            body.insert(insert_at, init.with_changes(leading_lines=(cst.EmptyLine(indent=False),)))
            self._set_class_body(body)
            method = self.method("__init__")
            inner = [s for s in method.body.body if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Pass))]
            self._set_method("__init__", method.with_changes(body=method.body.with_changes(body=inner + statements)))
            return
        method = self.method("__init__")
        self._set_method("__init__", method.with_changes(body=method.body.with_changes(body=list(method.body.body) + statements)))

    def prepend_to_method(self, name: str, source: str) -> None:
        """Insert statements at the start of a method's body, after its docstring."""
        method = self.method(name)
        if not isinstance(method.body, cst.IndentedBlock):
            raise EditError(f"method {self.class_name}.{name} has a one-line body")
        inner = list(method.body.body)
        at = 1 if _docstring_node(method.body) is not None else 0
        inner[at:at] = parse_statements(source)
        self._set_method(name, method.with_changes(body=method.body.with_changes(body=inner)))

    def wrap_method_body(self, name: str, before: str, handler: str | None = None, final: str | None = None) -> None:
        """Turn a body into `before; try: <body> except Exception: <handler>; raise finally: <final>`
        (docstring kept first; the `except` clause only with a handler, the `finally` only with `final`)."""
        if handler is None and final is None:
            raise EditError("wrap_method_body needs a handler or a final block")
        method = self.method(name)
        if not isinstance(method.body, cst.IndentedBlock):
            raise EditError(f"method {self.class_name}.{name} has a one-line body")
        inner = list(method.body.body)
        has_doc = _docstring_node(method.body) is not None
        doc, rest = (inner[:1], inner[1:]) if has_doc else ([], inner)
        if not rest:
            raise EditError(f"method {self.class_name}.{name} has no statements to wrap")
        rest[0] = rest[0].with_changes(leading_lines=())
        text = "try:\n    pass\n"
        if handler is not None:
            text += f"except Exception:\n{textwrap.indent(textwrap.dedent(handler).strip(), '    ')}\n    raise\n"
        if final is not None:
            text += f"finally:\n{textwrap.indent(textwrap.dedent(final).strip(), '    ')}\n"
        template = parse_statements(text)[0]
        assert isinstance(template, cst.Try)
        wrapped = template.with_changes(body=template.body.with_changes(body=rest))
        new_inner = doc + parse_statements(before) + [wrapped]
        self._set_method(name, method.with_changes(body=method.body.with_changes(body=new_inner)))

    def extend_method_docstring(self, name: str, text: str) -> None:
        method = self.method(name)
        if not isinstance(method.body, cst.IndentedBlock):
            raise EditError(f"method {self.class_name}.{name} has a one-line body")
        inner = list(method.body.body)
        doc = _docstring_node(method.body)
        new_line = cst.SimpleStatementLine([cst.Expr(extended_docstring(doc, text, METHOD_INDENT))])
        if doc is None:
            inner.insert(0, new_line)
        else:
            inner[0] = inner[0].with_changes(body=[cst.Expr(extended_docstring(doc, text, METHOD_INDENT))])
        self._set_method(name, method.with_changes(body=method.body.with_changes(body=inner)))

    def transform_method(self, name: str, transformer: cst.CSTTransformer) -> None:
        """Replace a method by what `transformer` makes of it."""
        self._set_method(name, self.method(name).visit(transformer))

    def set_method_docstring(self, name: str, literal: str) -> None:
        """Make `literal` (a string literal's source, quotes included) the method's docstring."""
        method = self.method(name)
        if not isinstance(method.body, cst.IndentedBlock):
            raise EditError(f"method {self.class_name}.{name} has a one-line body")
        inner = list(method.body.body)
        line = cst.SimpleStatementLine([cst.Expr(cst.SimpleString(literal))])
        if _docstring_node(method.body) is None:
            inner.insert(0, line)
        else:
            inner[0] = inner[0].with_changes(body=line.body)
        self._set_method(name, method.with_changes(body=method.body.with_changes(body=inner)))

    def code(self) -> str:
        return self.module.code
