"""The filters every source applies to the classes of one file, in cost order, before any history query:
shape (kind, size, interaction), the Python the class needs, slice (standard library only), effects,
documentation.

Sources (local git, GitHub) differ only in how they read files and date classes; this is what they share.
No file ends a mine: a file that cannot be read or parsed is one rejection (`examine_source`), and a class
whose analysis fails is one rejection of its own (`examine_module`), named by what failed.
"""

from __future__ import annotations

import io
import re
import tokenize
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst

from core.analysis.python_need import RUNNING, PythonNeed, Supported, python_need
from core.layout import Stage
from core.records import Rejection, RejectReason
from pipeline.mining.effects import effects_filter
from pipeline.mining.extract import ClassUnit, ParsedModule, parse_module
from pipeline.mining.filters import Drop, Filter, first_drop
from pipeline.mining.records import MineConfig, mined_id
from pipeline.mining.repo_imports import RepositoryModules, slice_with_imports
from pipeline.mining.shape import interaction_filter, kind_filter, size_filter, trivial_filter
from pipeline.mining.slicing import Slice, self_contained, slice_class
from pipeline.synthesis.stated_raises import DERIVED

STAGE = Stage.MINE
def undocumented_methods(unit: ClassUnit) -> list[str]:
    """Methods a solver would have to implement without a docstring (dunders other than __init__ are
    exempt: their meaning is the language's; so are private helpers, named with a leading underscore: a
    task's tests use only the public interface, as the consistency judge demands, so a solver may write
    its helpers its own way). A name documented in one of its definitions is documented
    (a property's getter speaks for its setter, an implementation for its `@overload` stubs), and
    `__init__` is documented by a class docstring that names each of its parameters (the common style of
    putting the constructor's arguments under the class). Read from the syntax tree directly: this filter
    runs before the costlier analyses."""
    missing, documented = [], set()
    for function in unit.functions:
        name = function.name.value
        if name.startswith("_") and name != "__init__":
            continue
        if function.get_docstring() is not None or (name == "__init__" and _init_in_class_docstring(unit, function)):
            documented.add(name)
        elif name not in missing:
            missing.append(name)
    return [name for name in missing if name not in documented]


def _init_in_class_docstring(unit: ClassUnit, init: cst.FunctionDef) -> bool:
    """The class docstring names every named parameter of `init` (a bare `*args`/`**kwargs` excepted)."""
    doc = unit.node.get_docstring()
    if not doc:
        return False
    params = init.params
    names = [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)][1:]
    return all(re.search(rf"\b{re.escape(name)}\b", doc) for name in names)


def documented_filter(unit: ClassUnit) -> Drop | None:
    missing = undocumented_methods(unit)
    if missing:
        return Drop(RejectReason.UNDOCUMENTED, f"{unit.name}: no docstring on {', '.join(missing[:5])}",
                    {"methods": missing})
    return None


Documenter = Callable[[str, str, list[str]], "str | Drop"]
"""(class name, slice code, undocumented methods) -> the slice with docstrings added, or why not. Called for
every class that passed the filters, with an empty list too: the offline writer also completes what its
author's docstrings leave out."""


def documented_slice(unit: ClassUnit, piece: Slice, documenter: Documenter | None) -> str | Drop:
    """The slice's code, with docstrings written (or completed) by the documenter when one is given."""
    if documenter is None:
        return piece.code
    return documenter(unit.name, piece.code, undocumented_methods(unit))


def docstring_author(config: MineConfig) -> str:
    """Who writes the missing docstrings under `config`: the model, or the offline derivation."""
    return config.docstring_model or DERIVED


@dataclass(frozen=True)
class Passed:
    """A class that passed the cheap filters, with its slice."""

    unit: ClassUnit
    piece: Slice


def unsupported(name: str, need: PythonNeed, supported: Supported) -> Drop | None:
    """`unsupported_syntax` when code of `need` cannot be run by the sandbox or read by this process."""
    refusals = supported.refusals(need)
    if not refusals:
        return None
    return Drop(RejectReason.UNSUPPORTED_SYNTAX, f"{name}: {refusals[0]}", {**need.evidence(), "refusals": list(refusals)})


def syntax_filter(supported: Supported) -> Filter[ClassUnit]:
    """The class's own syntax, before anything parses it with this process's `ast` (which would fail on
    syntax newer than itself, and did: `class _Item[KEY, VAL]:` ended a whole mine)."""
    def check(unit: ClassUnit) -> Drop | None:
        try:
            need = python_need(unit.code)
        except SyntaxError as exc:
            return Drop(RejectReason.SYNTAX_ERROR, f"{unit.name}: {exc}")
        if not supported.refusals(need):
            return None
        return unsupported(unit.name, need.shifted(_first_line(unit) - 1), supported)  # lines of the file
    return check


def _first_line(unit: ClassUnit) -> int:
    """The file line the class's code (its first decorator) starts on; asked only for a refused class,
    since it resolves the module's positions."""
    _, positions = unit.module.metadata
    bare = unit.module.tree.code_for_node(unit.node.with_changes(leading_lines=(), decorators=()))
    return positions[unit.node].start.line - (unit.code.count("\n") - bare.strip("\n").count("\n") - 1)


def _failed(unit: ClassUnit, step: str, exc: Exception, supported: Supported) -> Drop:
    """Why an analysis of `unit` raised: its syntax when that explains it, else `malformed` with the error."""
    try:
        explained = syntax_filter(supported)(unit)
    except Exception:  # noqa: BLE001 - the class is odd enough that even this fails; the first error stands
        explained = None
    return explained or Drop(RejectReason.MALFORMED, f"could not {step} {unit.name}: {type(exc).__name__}: {exc}")


def hidden_characters(name: str, code: str) -> Drop | None:
    """`hidden_characters` when `code` (the slice, with the file's header comment) holds invisible format
    characters (Unicode category Cf: zero-width spaces and joiners, bidirectional overrides, a byte-order
    mark inside the text). A task is read by people and models as text: code whose visible form differs from
    what runs, or that carries a watermark tracing its copies, is not one."""
    found = sorted({char for char in code if unicodedata.category(char) == "Cf"})
    if not found:
        return None
    line = next(number for number, text in enumerate(code.splitlines(), 1) if any(c in text for c in found))
    names = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}" for c in found[:3])
    return Drop(RejectReason.HIDDEN_CHARACTERS, f"{name}: invisible characters ({names}), first on line {line} of its slice",
                {"characters": [f"U+{ord(c):04X}" for c in found], "line": line})


def _examine_class(unit: ClassUnit, cheap: list[Filter[ClassUnit]], supported: Supported,
                   repository: RepositoryModules | None = None,
                   trivial: Filter[ClassUnit] | None = None, tests: tuple[str, ...] = ()) -> Passed | Drop:
    drop = first_drop(unit, cheap)
    if drop is not None:
        return drop
    try:
        piece = slice_class(unit) if repository is None else slice_with_imports(unit, repository)
    except Exception as exc:  # noqa: BLE001 - a resolver failure on odd code costs this class only
        return _failed(unit, "slice", exc, supported)
    drop = self_contained(piece) or hidden_characters(piece.class_name, piece.code) or effects_filter(piece, tests)
    if drop is None:
        try:
            drop = unsupported(f"{unit.name} (its slice)", python_need(piece.code), supported)  # its names count too
        except SyntaxError as exc:
            drop = Drop(RejectReason.SYNTAX_ERROR, f"the slice of {unit.name} does not parse: {exc}")
    return drop or interaction_filter(unit) or (trivial(unit) if trivial else None) or Passed(unit, piece)


def examine_module(module: ParsedModule, config: MineConfig, *, require_docstrings: bool = True,
                   supported: Supported | None = None, repository: RepositoryModules | None = None,
                   test_sources: dict[str, str] | None = None) -> Iterator[Passed | tuple[ClassUnit, Drop]]:
    """For each top-level class: `Passed`, or the class and the first filter's drop.

    Order, by cost: kind and size (the syntax tree as parsed), the Python the class needs, documentation,
    the slice and its imports and effects (one scope analysis per module) and the Python the slice needs,
    and last the interaction edges and the interplay of public methods (`trivial_filter`; per-method
    analyses, the costliest). `supported` is what the sandbox
    and this process can run and read (default: this process's own Python for both). An analysis that
    raises costs its class only. With `repository` (the files of the module's repository) a slice follows
    imports of the repository's own modules (`repo_imports`); without, they reject the class. The
    repository's tests (`test_sources`, path -> text) that import a class may redirect its default-path
    writes (`effects`)."""
    supported = supported or Supported(sandbox=RUNNING)
    cheap = ([kind_filter(module.path), size_filter(config.shape), syntax_filter(supported)]
             + ([documented_filter] if require_docstrings else []))
    for unit in module.classes:
        try:
            outcome = _examine_class(unit, cheap, supported, repository, trivial_filter(config.shape),
                                     tests_using(unit.name, test_sources or {}))
        except Exception as exc:  # noqa: BLE001 - e.g. the kind filter's analysis on syntax it cannot read
            outcome = _failed(unit, "analyse", exc, supported)
        yield outcome if isinstance(outcome, Passed) else (unit, outcome)


FileOutcome = Passed | tuple[str, Drop]
"""What `examine_source` yields: a class that passed, or (class name, drop); the name is '' for a drop of
the whole file."""


def source_text(data: bytes | str | None, max_bytes: int) -> str | Drop:
    """The text of a Python file as read from a source, or why it cannot be mined: an absent blob, a size
    beyond `max_bytes` (generated code and data dumps: parsing them costs minutes and yields no task), a
    null byte (no Python accepts one), or bytes that are not UTF-8 (the task's module is written as UTF-8;
    a file declaring another encoding names it)."""
    if data is None:
        return Drop(RejectReason.SOURCE_UNREADABLE, "the file's blob is absent (partial clone)")
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > max_bytes:
        return Drop(RejectReason.TOO_LARGE, f"file of {size:,} bytes, more than {max_bytes:,} ([mine] max_file_bytes)",
                    {"bytes": size})
    if (b"\x00" if isinstance(data, bytes) else "\x00") in data:
        return Drop(RejectReason.SYNTAX_ERROR, "the file holds a null byte (U+0000), which no Python accepts")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            declared = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        except SyntaxError:
            declared = "utf-8"
        return Drop(RejectReason.SOURCE_UNREADABLE,
                    f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
                    + (f"; it declares {declared}, and only UTF-8 sources are mined" if declared != "utf-8" else ""),
                    {"encoding": declared})


def examine_source(path: str, data: bytes | str | None, config: MineConfig, *, require_docstrings: bool = True,
                   supported: Supported | None = None, repository: RepositoryModules | None = None,
                   test_sources: dict[str, str] | None = None) -> Iterator[FileOutcome]:
    """Every top-level class of one file through `examine_module`, or one drop for a file that cannot be
    read (`source_text`) or parsed by libcst (whose grammar reaches Python 3.14: what it cannot parse is not
    Python)."""
    text = source_text(data, config.max_file_bytes)
    if isinstance(text, Drop):
        yield "", text
        return
    module = parse_module(text, path)
    if isinstance(module, Drop):
        yield "", module
        return
    for outcome in examine_module(module, config, require_docstrings=require_docstrings, supported=supported,
                                  repository=repository, test_sources=test_sources):
        yield outcome if isinstance(outcome, Passed) else (outcome[0].name, outcome[1])


def rejection(repository: str, path: str, class_name: str, drop: Drop) -> Rejection:
    """A mining rejection, keyed by where the class was found."""
    return Rejection(candidate_id=mined_id(repository, path, class_name), stage=STAGE, reason=drop.reason,
                     detail=f"{repository}:{path}:{class_name}: {drop.detail}",
                     evidence={"repository": repository, "path": path, "class_name": class_name, **drop.evidence})


def vendored_rejections(repository: str, vendored: dict[str, int]) -> Iterator[Rejection]:
    """One `vendored` rejection per folder of third-party code (pipeline/mining/vendored.py)."""
    for root, files in sorted(vendored.items()):
        yield rejection(repository, root, "", Drop(RejectReason.VENDORED, f"{files} Python files of third-party code "
                                                   "committed under this folder: not mined", {"files": files}))


def description_of(unit: ClassUnit) -> str:
    """The class docstring's first paragraph, one line."""
    doc = unit.facts.docstring or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def tests_using(class_name: str, test_sources: dict[str, str]) -> tuple[str, ...]:
    """The repository's test modules that import `class_name` by name."""
    pattern = re.compile(rf"^\s*from\s+[\w.]+\s+import\s+[^\n]*\b{re.escape(class_name)}\b", re.MULTILINE)
    return tuple(text for path, text in sorted(test_sources.items()) if pattern.search(text))
