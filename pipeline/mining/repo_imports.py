"""Repository-local imports in slices: `from .util import helper` becomes the definition of `helper`.

A class's slice (`slicing`) holds only statements of its own file, so a class using a helper of a sibling
module was rejected `not_self_contained` although everything it needs is in its repository and the standard
library. Here such an import is replaced by the slice of the imported names in the module that defines
them (the statements binding them and what those use, across files too), placed where the import was, so
the combined slice is one module again and goes through the same checks as any other.

What is followed: `from M import a, b as c` at module level, where M is a module of the repository found
from the file paths at HEAD (`ModuleIndex`) or a relative import resolved against the importing file's
folder. An alias binds by an assignment after the definition (`c = b`): the definition keeps its name, so
its own references stay right. What is not: `import M` (its uses are `M.attr`, an object the slice would
have to build), star imports, imports inside functions or `if` blocks other than `if TYPE_CHECKING:` (whose
imports are followed like top-level ones: the names then exist at run time too, which is harmless), and
modules of the standard library's names (the standard one wins, as Python's own path order usually makes it). Those stay imports,
and the slice is rejected as before, with the chain of modules that led to them.

Two definitions of one name from different files would silently overwrite each other in one module, so a
name bound by differing statements of two files is a clash and the class is rejected; nothing is renamed (a
renamed helper would no longer be what the repository's tests or docstrings call it). A statement two files
hold word for word (`import re`, `logger = logging.getLogger(__name__)`) is no clash: it is kept once, as is
one import of the same object (`typing.Callable` and `collections.abc.Callable` count as one).
A future import of an inlined file opens the combined slice (Python requires it there), so it applies to
the class's file too: `from __future__ import annotations` only defers annotations, which a task's code
does not read at run time.

Following stops where it cannot change the outcome: a class whose own file already needs a module nothing
here follows keeps its plain slice, and once a followed file needs one, further imports are left (the
detail says so). Bounds: `MAX_DEPTH` files in a chain, `MAX_STATEMENTS` statements taken per class.

Only syntax trees are read: nothing of the repository is imported or run.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

import libcst as cst

from pipeline.mining.extract import ClassUnit, ParsedModule, dotted_name, import_bindings, parse_module
from pipeline.mining.filters import Drop
from pipeline.mining.slicing import (STDLIB, ModuleGraph, Slice, imported_modules, is_future_import, module_graph,
                                     slice_class, third_party)

MAX_DEPTH = 6
"""Modules in one import chain: deeper chains are layers of a framework, not a helper a task can carry."""
MAX_STATEMENTS = 300
"""Statements taken from other files for one class: more is a subsystem, not a slice."""

_TOP_FOLDER, _SRC, _PLAIN = 2, 1, 0  # how a module name was found from a path; lower wins


def _valid(parts: list[str]) -> bool:
    return bool(parts) and all(p.isidentifier() and not keyword.iskeyword(p) for p in parts)


def _module_parts(path: str) -> list[str]:
    parts = path.removesuffix(".py").split("/")
    return parts[:-1] if parts[-1] == "__init__" else parts


class ModuleIndex:
    """Dotted module names of a repository's Python files, from their paths at HEAD.

    `a/b/c.py` is `a.b.c` and `a/b/__init__.py` is `a.b`; a file under a `src` folder is also named from
    below it (`src/pkg/x.py` is `pkg.x`), and a package one folder down (`libs/pkg/__init__.py`) from below
    that folder. A name two files claim at the same rank is ambiguous and resolves to nothing: guessing
    would inline the wrong helper. The plain name outranks the others (a top-level `pkg/` beats `src/pkg/`)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = frozenset(p for p in paths if p.endswith(".py"))
        claims: dict[str, tuple[int, set[str]]] = {}
        for path in sorted(self.paths):
            for rank, name in self._names_of(path):
                best = claims.get(name)
                if best is None or rank < best[0]:
                    claims[name] = (rank, {path})
                elif rank == best[0]:
                    best[1].add(path)
        self._claims = claims
        self._names: dict[str, str] = {}
        preference = {_SRC: 0, _PLAIN: 1, _TOP_FOLDER: 2}  # the name it is imported by, `src.` an artefact
        for name, (rank, paths) in sorted(claims.items(), key=lambda item: (preference[item[1][0]], item[0])):
            if len(paths) == 1:
                self._names.setdefault(next(iter(paths)), name)

    def _names_of(self, path: str) -> list[tuple[int, str]]:
        parts = _module_parts(path)
        found = [(_PLAIN, parts)]
        found += [(_SRC, parts[k:]) for k in range(1, len(parts)) if parts[k - 1] == "src"]
        if len(parts) >= 2 and parts[0] != "src" and f"{parts[0]}/{parts[1]}/__init__.py" in self.paths:
            found.append((_TOP_FOLDER, parts[1:]))
        return [(rank, ".".join(p)) for rank, p in found if _valid(p)]

    def find(self, name: str) -> str | list[str] | None:
        """The file of module `name`; the competing files when ambiguous; None when not in the repository."""
        claim = self._claims.get(name)
        if claim is None:
            return None
        paths = sorted(claim[1])
        return paths[0] if len(paths) == 1 else paths

    def name_of(self, path: str) -> str:
        """The module name `path` is known by (its path when no name is unambiguous), for details."""
        return self._names.get(path, path)

    def relative(self, importer: str, level: int, module: str) -> str | None:
        """The file `from <level dots><module> import ...` in `importer` names, or None when absent.
        Resolved on paths, so it works in folders the index names no module for."""
        folder = PurePosixPath(importer).parent
        for _ in range(level - 1):
            if folder == PurePosixPath("."):
                return None  # above the repository's root
            folder = folder.parent
        base = folder.joinpath(*module.split(".")) if module else folder
        for candidate in ((f"{base}.py", f"{base}/__init__.py") if module else (f"{base}/__init__.py",)):
            candidate = candidate.removeprefix("./")
            if candidate in self.paths:
                return candidate
        return None


@dataclass(frozen=True)
class _Missing:
    """Why an import of a repository module cannot be followed (it then stays, and rejects the class)."""

    why: str


class RepositoryModules:
    """The repository's Python files at HEAD as modules to slice from: located by `ModuleIndex`, decoded and
    parsed once each, on first use. `sources` maps path -> bytes (None for a blob absent from a partial
    clone), as the local source reads them."""

    def __init__(self, sources: Mapping[str, bytes | str | None], max_bytes: int | None = None) -> None:
        self.sources = sources
        self.index = ModuleIndex(sources)
        self.max_bytes = max_bytes
        self._parsed: dict[str, ParsedModule | _Missing] = {}
        # per statement node (nodes of a parsed module are shared by every class that imports from it, and
        # printing or walking a large class for each of them was most of the cost of following imports)
        self._code: dict[cst.BaseStatement, str] = {}
        self._imports: dict[cst.BaseStatement, set[str]] = {}
        self._names: dict[str, frozenset[str] | None] = {}

    def names(self, path: str) -> frozenset[str] | None:
        """`_top_level_names` of the file at `path` (parsed), once."""
        if path not in self._names:
            module = self.module(path)
            self._names[path] = _top_level_names(module.tree) if isinstance(module, ParsedModule) else None
        return self._names[path]

    def code(self, stmt: cst.BaseStatement) -> str:
        """The statement's code without the blank lines and comments before it."""
        if stmt not in self._code:
            self._code[stmt] = cst.Module(body=[stmt.with_changes(leading_lines=())]).code
        return self._code[stmt]

    def imports(self, stmt: cst.BaseStatement) -> set[str]:
        """The modules the statement imports (nested imports too), as `Slice.imports` counts them."""
        if stmt not in self._imports:
            self._imports[stmt] = imported_modules([stmt])
        return self._imports[stmt]

    def locate(self, importer: str, node: cst.ImportFrom) -> str | _Missing | None:
        """The repository file `node` (in file `importer`) imports from; None for a module of the standard
        library or one the repository does not hold (a third-party one)."""
        module = dotted_name(node.module) if node.module is not None else ""
        if node.relative:
            found = self.index.relative(importer, len(node.relative), module)
            return found or _Missing(f"{'.' * len(node.relative)}{module} is not a file of the repository at HEAD")
        if not module or module.split(".")[0] in STDLIB:
            return None
        found = self.index.find(module)
        if isinstance(found, list):
            return _Missing(f"{module} is ambiguous: {', '.join(found[:3])}")
        return found

    def module(self, path: str) -> ParsedModule | _Missing:
        if path not in self._parsed:
            self._parsed[path] = self._parse(path)
        return self._parsed[path]

    def _parse(self, path: str) -> ParsedModule | _Missing:
        data = self.sources.get(path)
        if data is None:  # a partial clone's absent blob
            return _Missing(f"{path} is unreadable (its blob is absent)")
        if self.max_bytes is not None and len(data) > self.max_bytes:
            return _Missing(f"{path} is larger than {self.max_bytes} bytes")
        try:
            text = data if isinstance(data, str) else data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return _Missing(f"{path} is not UTF-8")
        parsed = parse_module(text, path)
        return _Missing(f"{path} does not parse: {parsed.detail}") if isinstance(parsed, Drop) else parsed


_SAME_OBJECTS = {"typing": "collections.abc"}
"""Modules whose names of the same spelling are interchangeable for a slice (`typing.Callable` is the
generic alias of `collections.abc.Callable`): importing one in a file and the other in another is no clash."""


def _target(module: str, name: str) -> str:
    return f"{_SAME_OBJECTS.get(module, module)}.{name}"


def _import_identities(stmt: cst.BaseStatement) -> dict[str, str] | None:
    """Name -> what it is bound to, for a line of imports or an `if TYPE_CHECKING:` block of them
    (`import a.b` binds a to 'a', `from m import n as k` binds k to 'm.n'); None for any other statement.
    Two files importing the same thing agree."""
    if _is_type_checking(stmt):
        out: dict[str, str] = {}
        for line in stmt.body.body:
            inner = _import_identities(line)
            if inner is None:
                return None
            out.update(inner)
        return out
    if not isinstance(stmt, cst.SimpleStatementLine):
        return None
    out = {}
    for small in stmt.body:
        if isinstance(small, cst.Import):
            out.update(import_bindings(small))
        elif isinstance(small, cst.ImportFrom) and not small.relative and not isinstance(small.names, cst.ImportStar):
            module = dotted_name(small.module) if small.module is not None else ""
            for alias in small.names:
                out[_bound(alias)] = _target(module, dotted_name(alias.name))
        else:
            return None
    return out


def _bound(alias: cst.ImportAlias) -> str:
    """The name an alias of `from m import ...` binds."""
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return dotted_name(alias.name)


def _is_type_checking(stmt: cst.BaseStatement) -> bool:
    """`if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`) with no `else`: imports for annotations only."""
    return (isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock)
            and dotted_name(stmt.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"))


@dataclass
class _Out:
    """One statement of the combined slice: where it comes from and what it binds."""

    origin: str  # file path
    stmt: cst.BaseStatement
    binds: dict[str, str]  # name -> identity: an import's target, or the defining statement's code


@dataclass
class _Combiner:
    """Builds one class's combined slice: its own file's statements in order, each followed import of a
    repository module replaced by the statements it leads to."""

    repo: RepositoryModules
    out: list[_Out] = field(default_factory=list)
    futures: dict[str, cst.BaseStatement] = field(default_factory=dict)
    done: set[tuple[str, int]] = field(default_factory=set)
    inlined: dict[tuple[str, str], str] = field(default_factory=dict)  # (path, name) -> "module:name"
    aliases: set[tuple[str, str, str]] = field(default_factory=set)
    through: dict[str, str] = field(default_factory=dict)
    undefined: set[str] = field(default_factory=set)
    chain: list[str] = field(default_factory=list)  # files being inlined, outermost first
    home: str = ""  # the class's own file: importing from it again is a cycle too
    doomed: str = ""  # a module an inlined statement needs that nothing can follow: the class is rejected
    taken: int = 0

    def take(self, path: str, graph: ModuleGraph, needed: dict[int, set[str]]) -> None:
        """The `needed` statements of file `path`, in source order, imports of repository modules followed."""
        labels = [self.repo.index.name_of(p) for p in self.chain]
        for stmt in graph.body:  # hoisted: a future import must open the module (and the slice keeps them all)
            if is_future_import(stmt):
                self.futures.setdefault(cst.Module(body=[stmt.with_changes(leading_lines=())]).code.strip(), stmt)
        for index in sorted(needed):
            stmt = graph.body[index]
            self.undefined |= {f"{n} (in {labels[-1]})" if labels else n for n in graph.undefined.get(index, ())}
            if is_future_import(stmt):
                continue
            rest = self._follow(path, stmt, needed[index])
            if rest is None or (path, index) in self.done:
                continue
            self.done.add((path, index))
            identities = _import_identities(rest)
            binds = (identities if identities is not None
                     else dict.fromkeys(graph.binds.get(index, ()), self.repo.code(rest)))
            self.out.append(_Out(path, rest, binds))
            if labels:
                outside = third_party(self.repo.imports(rest))
                for module in outside:
                    self.through.setdefault(module, "through " + " -> ".join(labels))
                unfollowable = sorted(set(outside) - _followable(self.repo, path, [rest]))
                self.doomed = self.doomed or (f"{unfollowable[0]}" if unfollowable else "")

    def _follow(self, path: str, stmt: cst.BaseStatement, names: set[str]) -> cst.BaseStatement | None:
        """Inline what `stmt` imports from repository modules (at module level, or in an `if TYPE_CHECKING:`
        block, whose names then exist at run time too: harmless); the statement left to keep (its other
        parts, or all of it when nothing was followed), or None when nothing is left."""
        if _is_type_checking(stmt):
            lines = [kept for line in stmt.body.body if (kept := self._follow(path, line, names)) is not None]
            if not lines:
                return None
            return stmt.with_changes(body=stmt.body.with_changes(body=lines))
        if not isinstance(stmt, cst.SimpleStatementLine):
            return stmt
        kept: list[cst.BaseSmallStatement] = []
        for small in stmt.body:
            if not self._inline_import(path, small, names):
                kept.append(small)
        if len(kept) == len(stmt.body):
            return stmt
        if not kept:
            return None
        kept[-1] = kept[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return stmt.with_changes(body=kept)

    def _inline_import(self, path: str, small: cst.BaseSmallStatement, names: set[str]) -> bool:
        """True when `small` is an import of a repository module whose needed names are now defined
        (inlined) above, so that the import itself goes."""
        if not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar):
            return False
        target = self.repo.locate(path, small)
        if target is None:
            return False
        written = "." * len(small.relative) + (dotted_name(small.module) if small.module is not None else "")
        pairs = [(dotted_name(alias.name), _bound(alias)) for alias in small.names if _bound(alias) in names]
        if not pairs:
            return True  # nothing of it is needed (another part of the line was)
        missing = target if isinstance(target, _Missing) else self._inline(target, [n for n, _ in pairs])
        if missing is not None:
            labels = [self.repo.index.name_of(p) for p in self.chain]
            self.through.setdefault(written, missing.why + (f", through {' -> '.join(labels)}" if labels else ""))
            return False
        for name, bound in pairs:
            if bound != name and (path, bound, name) not in self.aliases:
                self.aliases.add((path, bound, name))
                alias = cst.parse_statement(f"{bound} = {name}\n")
                self.out.append(_Out(path, alias, {bound: f"{self.inlined.get((target, name), name)} as {bound}"}))
        return True

    def _inline(self, path: str, names: list[str]) -> _Missing | None:
        """Take the definitions of `names` from file `path` (and what they use); why not, if not."""
        label = self.repo.index.name_of(path)
        if self.doomed:  # following more would cost scope analyses and change nothing
            return _Missing(f"not followed, as it needs {self.doomed} already")
        if path in self.chain or path == self.home:
            return _Missing(f"{label} is imported in a cycle")
        if len(self.chain) >= MAX_DEPTH:
            return _Missing(f"{label} is more than {MAX_DEPTH} imports deep")
        module = self.repo.module(path)
        if isinstance(module, _Missing):
            return module
        bindable = self.repo.names(path)
        absent = [name for name in names if bindable is not None and name not in bindable]
        if absent:  # said before the scope analysis, which is costly on the large generated modules this is
            return _Missing(f"{label} defines no {absent[0]} (a submodule, or a star import's)")
        try:
            graph = module_graph(module)
        except Exception as exc:  # noqa: BLE001 - libcst's scope analysis on odd code: this import only
            return _Missing(f"{label} could not be analysed: {type(exc).__name__}")
        wanted: dict[int, set[str]] = {}
        for name in names:
            if (path, name) in self.inlined:
                continue
            definers = graph.definers(name)
            if not definers:
                return _Missing(f"{label} defines no {name} (a submodule, or a star import's)")
            for index in definers:
                wanted.setdefault(index, set()).add(name)
        if not wanted:
            return None
        needed = graph.closure(wanted)
        self.taken += len(needed)
        if self.taken > MAX_STATEMENTS:
            return _Missing(f"{label}: more than {MAX_STATEMENTS} statements from other files")
        self.chain.append(path)
        try:
            self.take(path, graph, needed)
        finally:
            self.chain.pop()
        for name in names:
            self.inlined.setdefault((path, name), f"{label}:{name}")
        return None


def _clashes(out: list[_Out]) -> list[str]:
    """Names bound by statements of two files, unless every binding is the same import."""
    seen: dict[str, list[tuple[str, str]]] = {}
    for item in out:
        for name, identity in item.binds.items():
            seen.setdefault(name, []).append((item.origin, identity))
    return sorted(f"{name} ({', '.join(sorted({origin for origin, _ in bindings}))})"
                  for name, bindings in seen.items()
                  if len({o for o, _ in bindings}) > 1 and len({i for _, i in bindings}) > 1)


def slice_with_imports(unit: ClassUnit, repo: RepositoryModules) -> Slice:
    """The slice of `unit` with the repository's own modules followed (see the module docstring); the
    plain slice when nothing was followed. Names two files define differently are its `clashes`, which
    `self_contained` rejects after the imports (a third-party import is the more telling reason).

    A class whose own file's slice already imports a module no import here could follow (a third-party
    one, or any module imported inside a function) is rejected whatever the rest gives: its plain slice is
    returned without following anything, which is most classes of a framework-heavy repository."""
    plain = slice_class(unit)
    graph = module_graph(unit.module)
    start = unit.module.tree.body.index(unit.node)
    needed = graph.closure({start: {unit.name}})
    outside = set(third_party(plain.imports))
    if not outside or outside - _followable(repo, unit.module.path, [graph.body[i] for i in needed]):
        return plain
    combiner = _Combiner(repo, home=unit.module.path)
    combiner.take(unit.module.path, graph, needed)
    if not combiner.inlined:
        return replace(plain, through=tuple(sorted(combiner.through.items())))
    body = _spaced(list(combiner.futures.values()) + _distinct(combiner.out, repo))
    if combiner.undefined:  # as the plain slice does: the star import explains the undefined names
        body += [s for s in unit.module.tree.body if isinstance(s, cst.SimpleStatementLine)
                 and any(isinstance(x, cst.ImportFrom) and isinstance(x.names, cst.ImportStar) for x in s.body)]
    own = unit.node
    names = sorted({n for item in combiner.out if item.stmt is not own for n in item.binds})
    return Slice(unit.name, unit.module.tree.with_changes(body=body).code, tuple(names),
                 tuple(sorted(set().union(*map(repo.imports, body)))), tuple(sorted(combiner.undefined)),
                 inlined=tuple(sorted(combiner.inlined.values())), through=tuple(sorted(combiner.through.items())),
                 clashes=tuple(_clashes(combiner.out)))


def _followable(repo: RepositoryModules, path: str, statements: list[cst.BaseStatement]) -> set[str]:
    """The modules, as written, of the imports among `statements` that `_Combiner` tries to follow: `from M
    import ...` at module level or in an `if TYPE_CHECKING:` block, M in the repository (readable or not)."""
    lines = [line for stmt in statements
             for line in (stmt.body.body if _is_type_checking(stmt) else (stmt,))
             if isinstance(line, cst.SimpleStatementLine)]
    return {"." * len(small.relative) + (dotted_name(small.module) if small.module is not None else "")
            for line in lines for small in line.body
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar)
            and repo.locate(path, small) is not None}


def _top_level_names(tree: cst.Module) -> frozenset[str] | None:
    """Every name occurring in `tree` outside function and class bodies (a definition's own name counts):
    a superset of what the module binds, read from the syntax alone; None when a star import may bind
    anything."""
    found: set[str] = set()
    starred = False

    class _Find(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            found.add(node.name.value)
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            found.add(node.name.value)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

        def visit_ImportStar(self, node: cst.ImportStar) -> None:
            nonlocal starred
            starred = True

    tree.visit(_Find())
    return None if starred else frozenset(found)


def _spaced(body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """Two blank lines around each function and class, as in the files they came from (a definition
    inlined after another file's last line would otherwise touch it)."""
    out: list[cst.BaseStatement] = []
    for stmt in body:
        compound = isinstance(stmt, (cst.FunctionDef, cst.ClassDef))
        after_compound = bool(out) and isinstance(out[-1], (cst.FunctionDef, cst.ClassDef))
        if out and (compound or after_compound) and not any(line.comment is None for line in stmt.leading_lines):
            stmt = stmt.with_changes(leading_lines=(cst.EmptyLine(), cst.EmptyLine(), *stmt.leading_lines))
        out.append(stmt)
    return out


def _distinct(out: list[_Out], repo: RepositoryModules) -> list[cst.BaseStatement]:
    """The statements, one repeated word for word by a later file (`import re`, `logger = ...`) kept once;
    repeats within one file stay (they may be meant: `x += 1`)."""
    first: dict[str, str] = {}
    body = []
    for item in out:
        code = repo.code(item.stmt)
        if first.setdefault(code, item.origin) != item.origin:
            continue
        body.append(item.stmt)
    return body
