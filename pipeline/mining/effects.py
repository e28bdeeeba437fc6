"""Effects a benchmark task may not have: network, processes, writes to fixed paths, dynamic imports.

A task's reference runs in the sandbox, which would stop these anyway; the point of this filter is that a
class whose behaviour *is* such an effect cannot be graded offline, so it is not a task. Writes are allowed
to paths the class is given (a parameter, an attribute): a literal path is a write outside them.

A default path is a literal path too: `def __init__(self, path="data/scores.json")` whose `path` reaches a
write (`open(self.path, "w")`, `Path(self.path).write_text(...)`), an attribute or module constant holding a
literal path, or a path joined from literals (`os.path.join("data", "scores.json")`). Run by a solver, an
evaluation or a user, such a class writes wherever it is started. It is `unsafe_effects` unless its tests
redirect it: the write goes through a parameter, and one of the repository's tests of the class passes that
parameter by name with a temporary folder (`tmp_path`, `tmpdir`, `tempfile`), the sandbox's working
directory. An attribute or constant no parameter sets cannot be redirected.

The check reads the slice's syntax tree: calls are resolved through the slice's imports
(`from os import system as run; run(...)` is `os.system`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from core.records import RejectReason
from pipeline.mining.extract import dotted_name, import_bindings
from pipeline.mining.filters import Drop
from pipeline.mining.slicing import Slice

FORBIDDEN_MODULES: frozenset[str] = frozenset({
    "socket", "ssl", "socketserver", "selectors", "subprocess", "multiprocessing", "concurrent.futures.process",
    "urllib.request", "http.client", "http.server", "http.cookiejar", "ftplib", "smtplib", "poplib", "imaplib",
    "telnetlib", "nntplib", "xmlrpc", "xmlrpc.client", "xmlrpc.server", "webbrowser", "ctypes", "pty",
    "asyncio.subprocess", "wsgiref.simple_server",
})
"""Modules whose import alone means network, processes or foreign memory."""

FORBIDDEN_CALLS: frozenset[str] = frozenset({
    "os.system", "os.popen", "os.fork", "os.forkpty", "os.kill", "os.killpg", "os.execv", "os.execve", "os.execl",
    "os.execle", "os.execlp", "os.execvp", "os.execvpe", "os.spawnl", "os.spawnv", "os.spawnve", "os.posix_spawn",
    "os.posix_spawnp", "asyncio.open_connection", "asyncio.start_server", "asyncio.create_subprocess_exec",
    "asyncio.create_subprocess_shell", "asyncio.open_unix_connection", "__import__", "importlib.import_module",
    "shutil.rmtree",
})
"""Calls that spawn, signal, reach the network, remove trees or import what the import check cannot see."""

PATH_WRITES: frozenset[str] = frozenset({
    "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.renames", "os.replace", "os.makedirs",
    "os.mkdir", "os.chmod", "os.chown", "os.truncate", "os.symlink", "os.link", "shutil.move", "shutil.copy",
    "shutil.copy2", "shutil.copyfile", "shutil.copytree",
})
"""Calls that change the file system at their path arguments: allowed on given paths, not on literal ones."""

_PATH_METHODS = frozenset({"write_text", "write_bytes", "unlink", "mkdir", "rmdir", "touch", "rename", "replace"})


def _bindings(tree: cst.Module) -> dict[str, str]:
    """Local name -> fully qualified name, for every import of the slice (nested ones too).

    Unlike `class_facts.import_bindings` (name -> module it comes from, top level only) this keeps the
    imported attribute (`from os import system` -> os.system) and looks inside functions, because a call
    is judged by its full name wherever the import is."""
    bound: dict[str, str] = {}

    class _Collect(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            bound.update(import_bindings(node))

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                return
            module = dotted_name(node.module)
            for alias in node.names:
                local = alias.asname.name if alias.asname is not None else alias.name
                if isinstance(local, cst.Name):
                    bound[local.value] = f"{module}.{dotted_name(alias.name)}"

    tree.visit(_Collect())
    return bound


def _qualified(func: cst.BaseExpression, bound: dict[str, str]) -> str:
    name = dotted_name(func) if isinstance(func, (cst.Name, cst.Attribute)) else ""
    if not name:
        return ""
    head, _, rest = name.partition(".")
    return (bound.get(head, head) + ("." + rest if rest else "")) if head else name


def _literal_path(arg: cst.BaseExpression) -> bool:
    return isinstance(arg, (cst.SimpleString, cst.ConcatenatedString)) or (
        isinstance(arg, cst.FormattedString) and not any(isinstance(p, cst.FormattedStringExpression) for p in arg.parts))


def _write_mode(call: cst.Call) -> bool:
    mode = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "mode"), None)
    if mode is None:
        positional = [a for a in call.args if a.keyword is None]
        mode = positional[1].value if len(positional) > 1 else None
    if isinstance(mode, cst.SimpleString):
        return any(flag in mode.evaluated_value for flag in "wax+")
    return mode is not None  # a computed mode may write


def _problem(call: cst.Call, bound: dict[str, str]) -> str | None:
    name = _qualified(call.func, bound)
    positional = [a.value for a in call.args if a.keyword is None]
    if name in FORBIDDEN_CALLS or any(name.startswith(m + ".") for m in FORBIDDEN_MODULES):
        return f"calls {name}"
    if name in PATH_WRITES and (not positional or any(_literal_path(a) for a in positional)):
        return f"calls {name} on a fixed path"
    if name in ("open", "io.open", "codecs.open") and positional and _literal_path(positional[0]) and _write_mode(call):
        return f"writes the fixed path {cst.Module([]).code_for_node(positional[0])}"
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in _PATH_METHODS and isinstance(call.func.value, cst.Call):
        inner = call.func.value
        inner_name = _qualified(inner.func, bound)
        if inner_name in ("pathlib.Path", "Path", "pathlib.PurePath") and inner.args and _literal_path(inner.args[0].value):
            return f"changes the fixed path {cst.Module([]).code_for_node(inner.args[0].value)}"
    return None


_TEMPORARY = re.compile(r"\b(tmp_path|tmpdir|tmp_path_factory|tempfile|TemporaryDirectory|mkdtemp|mkstemp)\b")


@dataclass(frozen=True)
class _Literal:
    """A literal path a name or attribute holds: its text, and the parameter that sets it (None: nothing can)."""

    text: str
    parameter: str | None = None


def _literal_text(node: cst.BaseExpression, bound: dict[str, str], held: dict[str, _Literal]) -> _Literal | None:
    """The literal path `node` evaluates to, when it is one: a string, a name or `self.` attribute holding one,
    `Path(...)`/`str(...)`/`os.path.join(...)`/`/` of such parts (any held part makes the whole default)."""
    if _literal_path(node):
        return _Literal(cst.Module([]).code_for_node(node))
    if isinstance(node, cst.Name):
        return held.get(node.value)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
        return held.get("self." + node.attr.value)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Divide):
        return _literal_text(node.left, bound, held)
    if isinstance(node, cst.Call) and node.args and _qualified(node.func, bound) in (
            "pathlib.Path", "Path", "pathlib.PurePath", "str", "os.path.join", "os.path.abspath",
            "os.path.expanduser", "os.fspath"):
        parts = [_literal_text(a.value, bound, held) for a in node.args if a.keyword is None]
        held_parts = [p for p in parts if p is not None]
        if _qualified(node.func, bound) == "os.path.join":
            return held_parts[0] if held_parts and all(p is not None for p in parts) else None
        return held_parts[0] if held_parts else None
    return None


def _literal_holders(tree: cst.Module, bound: dict[str, str], class_name: str) -> dict[str, _Literal]:
    """Module constants, class attributes and `self.` attributes holding a literal path, and per method the
    parameters whose default is one (as "<method>:<name>"): what a write through them writes by default."""
    held: dict[str, _Literal] = {}
    for statement in tree.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign) and (text := _literal_text(small.value, bound, held)):
                    held.update({t.target.value: text for t in small.targets if isinstance(t.target, cst.Name)})
    node = next((n for n in tree.body if isinstance(n, cst.ClassDef) and n.name.value == class_name), None)
    if node is None:
        return held
    for item in node.body.body:
        if isinstance(item, cst.SimpleStatementLine):
            for small in item.body:
                target = small.target if isinstance(small, cst.AnnAssign) else (
                    small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None)
                if isinstance(target, cst.Name) and small.value is not None and (
                        text := _literal_text(small.value, bound, held)):
                    held["self." + target.value] = text
    for function in (f for f in node.body.body if isinstance(f, cst.FunctionDef)):
        scope = dict(held)
        for param in (*function.params.params, *function.params.kwonly_params):
            if param.default is not None and (text := _literal_text(param.default, bound, held)):
                scope[param.name.value] = _Literal(text.text, param.name.value)
                held[f"{function.name.value}:{param.name.value}"] = scope[param.name.value]
        _attributes_set(function, bound, scope, held)
    return held


def _attributes_set(function: cst.FunctionDef, bound: dict[str, str], scope: dict[str, _Literal],
                    held: dict[str, _Literal]) -> None:
    """`self.x = <a literal path, or a parameter defaulting to one>` in `function`: `self.x` holds it."""
    class _Stores(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            text = _literal_text(node.value, bound, scope)
            for target in node.targets:
                t = target.target
                if text and isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                    held["self." + t.attr.value] = text

    function.visit(_Stores())


def _default_path_writes(tree: cst.Module, bound: dict[str, str], class_name: str) -> list[_Literal]:
    """The literal paths the class writes through names, attributes and parameter defaults."""
    held = _literal_holders(tree, bound, class_name)
    node = next((n for n in tree.body if isinstance(n, cst.ClassDef) and n.name.value == class_name), None)
    found: list[_Literal] = []
    for function in (f for f in (node.body.body if node else ()) if isinstance(f, cst.FunctionDef)):
        scope = {**held, **{k.split(":", 1)[1]: v for k, v in held.items() if k.startswith(function.name.value + ":")}}

        class _Writes(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                target = _written_path(call, bound)
                if target is not None and not _literal_path(target) and (text := _literal_text(target, bound, scope)):
                    found.append(text)

        function.visit(_Writes())
    return found


def _written_path(call: cst.Call, bound: dict[str, str]) -> cst.BaseExpression | None:
    """The path expression a call writes to, when it is a write (open for writing, a file-system change, a
    path's write method); None otherwise."""
    name = _qualified(call.func, bound)
    positional = [a.value for a in call.args if a.keyword is None]
    if name in ("open", "io.open", "codecs.open") and positional and _write_mode(call):
        return positional[0]
    if name in PATH_WRITES and positional:
        return positional[-1] if name.startswith("shutil.") else positional[0]
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in _PATH_METHODS:
        return call.func.value
    return None


def _redirected(parameter: str | None, tests: Sequence[str]) -> bool:
    """Whether a repository test passes `parameter` by name with a temporary folder."""
    if parameter is None:
        return False
    pattern = re.compile(rf"\b{re.escape(parameter)}\s*=\s*([^,)\n]*)")
    return any(_TEMPORARY.search(value) for text in tests for value in pattern.findall(text))


def effects_filter(piece: Slice, tests: Sequence[str] = ()) -> Drop | None:
    """Drop a slice that imports a forbidden module or makes a forbidden call (the first one found), or
    writes a default path that none of `tests` (the repository's tests of the class) redirects."""
    forbidden = sorted(m for m in piece.imports if m in FORBIDDEN_MODULES or any(m.startswith(f + ".") for f in FORBIDDEN_MODULES))
    if forbidden:
        return Drop(RejectReason.UNSAFE_EFFECTS, f"{piece.class_name} imports {', '.join(forbidden)}",
                    {"modules": forbidden})
    tree = cst.parse_module(piece.code)
    bound = _bindings(tree)
    problems: list[str] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            problem = _problem(node, bound)
            if problem:
                problems.append(problem)

    tree.visit(_Calls())
    problems += [f"writes the default path {w.text}" + (f" (parameter {w.parameter})" if w.parameter else "")
                 for w in _default_path_writes(tree, bound, piece.class_name) if not _redirected(w.parameter, tests)]
    if problems:
        return Drop(RejectReason.UNSAFE_EFFECTS, f"{piece.class_name} {problems[0]}", {"effects": problems[:10]})
    return None
