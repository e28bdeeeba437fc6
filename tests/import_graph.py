"""The project's import graph, read from its source with `ast` (nothing is imported), and its layers.

`tests/test_layers.py` checks the graph against the layers; `benchmarks/import_graph.py` prints its figures.

Each layer is one top-level folder, so a module's layer is the first part of its name and nothing else. Lowest
first; a module may import its own layer and the layers below it, never one above:

- `core`: the typed records, the artifact store, errors, settings, the funnel, static analysis of a class and
  what a skeleton states, timing, progress, stop requests, TOML loading, the judges' agreement figures.
- `validation`: the sandbox and the validation gate.
- `models`: the model client (litellm, its cache, budget, retries, prompts, answer checks).
- `judges`: the judge protocol, the offline and model judges, the panel and its decisions.
  `validation`, `models` and `judges` import only `core` (and themselves): the sandbox worker imports
  `validation` with nothing else on its path, the model client serves judges and stages alike, and the judges
  are handed the sandbox and the model client through protocols of `core` (`core.suite_runs.SuiteRunner`,
  `core.model_calls.ModelAsker`).
- `pipeline`: the stages and what they are made of (synthesis, mining, release, evaluation, report, the
  corpus readers) and, in `pipeline/stages/`, one file per stage with the driver, the build's configuration
  and runs.
- `flows`: the Prefect flows that sequence the stages.
- `commands`: the command line, every command in one place.

Every import counts, at a module's top, inside a function, or under `if TYPE_CHECKING`: an import moved
into a function still makes its module depend on the other at run time, so it cannot hide an upward edge or
a cycle. A function-level import of a heavy third-party library (kept for start-up time) is not a project
import and is not read here.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("core", "validation", "models", "judges", "pipeline", "flows", "commands")
PACKAGES = LAYERS
RANK = {layer: rank for rank, layer in enumerate(LAYERS)}
# Beside each other above `core`: none imports another.
SIDE_BY_SIDE = ("validation", "models", "judges")


def layer_of(module: str) -> str:
    """The layer `module` belongs to: its top-level folder."""
    return module.split(".")[0]


def may_import(importer: str, imported: str) -> bool:
    """Whether the layers let `importer` import `imported`: its own layer, or one ranked below it (and, for
    the three layers side by side, `core` only)."""
    source, target = layer_of(importer), layer_of(imported)
    if source == target:
        return True
    if source in SIDE_BY_SIDE:
        return target == "core"
    return RANK[target] < RANK[source]


def folder_of(module: str, root: Path = ROOT) -> str:
    """The folder a module's file lies in, as a dotted name (`pipeline.stages` for `pipeline.stages.gate`,
    and for the package `pipeline.stages` itself)."""
    if (root / Path(*module.split("."))).is_dir():
        return module
    return module.rpartition(".")[0]


@dataclass(frozen=True)
class Import:
    """One import of a project module by another."""

    importer: str
    imported: str
    line: int
    function_level: bool
    type_checking: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(path, root): path
            for package in PACKAGES for path in sorted((root / package).rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module `name` denotes: itself, or the package it lies in (`from pipeline import stages`
    is resolved by the caller, which tries `pipeline.stages` first)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


class _Collector(ast.NodeVisitor):
    def __init__(self, importer: str, is_package: bool, modules: dict[str, Path]):
        self.importer, self.is_package, self.modules = importer, is_package, modules
        self.depth = 0
        self.type_checking = 0
        self.found: list[Import] = []

    def _add(self, name: str, line: int) -> None:
        resolved = _resolve(name, self.modules)
        edge = Import(self.importer, resolved or "", line, self.depth > 0, self.type_checking > 0)
        if resolved is not None and resolved != self.importer and edge not in self.found:
            self.found.append(edge)  # once per statement: `from m import a, b` is one import of m

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        guarded = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
        self.type_checking += guarded
        for child in node.body:
            self.visit(child)
        self.type_checking -= guarded
        for child in node.orelse:
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            package = self.importer if self.is_package else self.importer.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = ".".join(part for part in (package, node.module or "") if part)
        else:
            base = node.module or ""
        for alias in node.names:
            # `from core import store` imports the module core.store, not the package
            if f"{base}.{alias.name}" in self.modules:
                self._add(f"{base}.{alias.name}", node.lineno)
            else:
                self._add(base, node.lineno)


def imports(root: Path = ROOT) -> list[Import]:
    modules = project_modules(root)
    found: list[Import] = []
    for name, path in modules.items():
        collector = _Collector(name, path.name == "__init__.py", modules)
        collector.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        found.extend(collector.found)
    return found


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the components of more than one node, or of one importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    nodes = sorted(set(edges) | {target for targets in edges.values() for target in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges.get(node, ()):
                        components.append(sorted(component))
    return sorted(components)


def graph(found: list[Import], key=lambda name: name) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for edge in found:
        source, target = key(edge.importer), key(edge.imported)
        if source != target:
            edges.setdefault(source, set()).add(target)
    return edges


