"""Effects a benchmark task may not have: network, processes, writes to fixed paths, dynamic imports.

A task's reference runs in the sandbox, which would stop these anyway; the point of this filter is that a
class whose behaviour *is* such an effect cannot be graded offline, so it is not a task. Writes are allowed
to paths the class is given (a parameter, an attribute): a literal path is a write outside them.

The check reads the slice's syntax tree: calls are resolved through the slice's imports
(`from os import system as run; run(...)` is `os.system`).
"""

from __future__ import annotations

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


def effects_filter(piece: Slice) -> Drop | None:
    """Drop a slice that imports a forbidden module or makes a forbidden call (the first one found)."""
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
    if problems:
        return Drop(RejectReason.UNSAFE_EFFECTS, f"{piece.class_name} {problems[0]}", {"effects": problems[:10]})
    return None
