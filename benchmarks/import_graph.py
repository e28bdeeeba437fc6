"""The project's import graph: the imports that go up its layers, function-level project imports, cycles.

    python benchmarks/import_graph.py [--list] [--root CHECKOUT] [--moves SCRIPT]

Counts, over every module of `pipeline`, `validation`, `judges` and `flows` (the layers and how the graph is
read are in `tests/import_graph.py`, which `tests/test_layers.py` enforces):

- upward imports: a module importing one of a higher layer;
- function-level project imports: project imports inside a function, the usual way of hiding an upward
  import or a cycle from the interpreter;
- module cycles: strongly connected components of the module graph (every import is an edge), and how many
  modules they hold;
- package cycles: the same between packages (`core`, `validation`, `judges`, `flows`, each
  subpackage of `pipeline`, and `pipeline`'s top-level modules as one);
- two-way package pairs: pairs of those packages that import each other, and the imports between them (the
  figure that does not depend on where the layers are drawn: `pipeline` importing `validation` while
  `validation` imports `pipeline` is one such pair).

`--root` reads another checkout (the main branch, for the figures before a change); `--moves` names a
script with a `MOVES` map (old module -> new module) applied to that checkout's names first, so that modules
are placed in the layers they move to.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.import_graph import (  # noqa: E402
    ROOT,
    Import,
    folder_of,
    graph,
    imports,
    layer_of,
    may_import,
    project_modules,
    strongly_connected,
)


def renamed(name: str, moves: dict[str, str]) -> str:
    for old, new in moves.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return name


def main(argv: list[str]) -> int:
    root = Path(argv[argv.index("--root") + 1]).resolve() if "--root" in argv else ROOT
    moves = runpy.run_path(argv[argv.index("--moves") + 1])["MOVES"] if "--moves" in argv else {}
    found = [Import(renamed(e.importer, moves), renamed(e.imported, moves), e.line, e.function_level,
                    e.type_checking) for e in imports(root)]
    upward = [edge for edge in found if not may_import(edge.importer, edge.imported)]
    function_level = [edge for edge in found if edge.function_level]
    module_cycles = strongly_connected(graph(found))
    package_cycles = strongly_connected(graph(found, folder_of))
    packages = graph(found, folder_of)
    pairs = sorted({tuple(sorted((a, b))) for a, targets in packages.items() for b in targets
                    if a in packages.get(b, ())})
    in_pairs = [e for e in found if tuple(sorted((folder_of(e.importer), folder_of(e.imported)))) in pairs
                and folder_of(e.importer) != folder_of(e.imported)]
    print(f"modules: {len(project_modules(root))}, project imports: {len(found)}")
    print(f"upward imports (against the layers): {len(upward)}"
          f" ({sum(edge.function_level for edge in upward)} of them function-level)")
    print(f"function-level project imports: {len(function_level)}")
    print(f"module cycles: {len(module_cycles)} ({sum(map(len, module_cycles))} modules in them)")
    print(f"package cycles: {len(package_cycles)} ({sum(map(len, package_cycles))} packages in them)")
    print(f"two-way package pairs: {len(pairs)} ({len(in_pairs)} imports between them,"
          f" {sum(e.function_level for e in in_pairs)} function-level)")
    if "--list" in argv:
        for title, edges in (("upward", upward), ("function-level", function_level)):
            print(f"\n{title}:")
            for edge in edges:
                print(f"  {edge.importer}:{edge.line} -> {edge.imported}"
                      f" [{layer_of(edge.importer)} -> {layer_of(edge.imported)}]")
        print("\ntwo-way package pairs:")
        for a, b in pairs:
            print(f"  {a} <-> {b}")
        for title, components in (("module cycles", module_cycles), ("package cycles", package_cycles)):
            print(f"\n{title}:")
            for component in components:
                print("  " + " <-> ".join(component))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
