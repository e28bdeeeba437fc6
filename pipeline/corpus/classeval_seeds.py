"""ClassEval-format tasks written as seed folders (`import-classeval --as-seeds DIR`).

ClassEval keeps a class's specification in its skeleton (method docstrings with examples) and leaves the
solution bare, so a seed made of the solution alone states nothing: every candidate built on it is rejected
by the specification judge. The skeleton's docstrings are therefore merged into the solution, with libcst
so the solution's own text and layout stay as written. A task names no domain; it is given the registered
domain whose keywords (and, more weakly, description words) its class name and description mention most,
or one the user names.

Nothing here runs the imported code: the files are parsed, never imported.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst

from core.analysis.class_text import docstring_statement, find_class
from core.analysis.parsed import ClassNotFound
from core.domains import DomainRegistry, load_domains
from core.errors import InputError
from core.records import Accepts, Produces, SeedClass
from core.store import atomic_write_text
from pipeline.corpus.classeval import classeval_entry_to_seed
from pipeline.corpus.classeval_ends import derive_ends, ends_toml
from pipeline.corpus.seeds import METADATA_FILE

# A keyword names the domain outright; a word of its description only leans towards it.
KEYWORD_WEIGHT, DESCRIPTION_WEIGHT = 3, 1
REGISTRY_FILE = "domains.toml"  # where `settings.domain_registry_path` looks by default
_STOP_WORDS = frozenset({"and", "the", "with", "without", "from", "into", "for", "live", "all", "general", "logic",
                         "processing", "computation"})


def merge_skeleton_docstrings(solution: str, skeleton: str, class_name: str) -> tuple[str, int]:
    """The solution with the skeleton's docstrings put where the solution has none (the class's and each
    method's, matched by name), and how many were added. A docstring the solution writes itself is kept.
    Raises SyntaxError naming the part that does not parse (ClassEval has skeletons that do not)."""
    try:
        ast.parse(skeleton)  # its messages name the line and the character (ClassEval has curly quotes)
    except SyntaxError as exc:
        raise SyntaxError(f"skeleton does not parse: {exc.msg} (line {exc.lineno})") from None
    skeleton_class = find_class(cst.parse_module(skeleton), class_name)
    docs: dict[str | None, cst.SimpleStatementLine] = {}
    if (statement := docstring_statement(skeleton_class.body)) is not None:
        docs[None] = statement
    for member in skeleton_class.body.body:
        if isinstance(member, cst.FunctionDef) and (statement := docstring_statement(member.body)) is not None:
            docs[member.name.value] = statement
    module = cst.parse_module(solution)
    target = find_class(module, class_name)
    added = 0

    def with_doc(body: cst.IndentedBlock, key: str | None) -> cst.IndentedBlock:
        nonlocal added
        if key not in docs or docstring_statement(body) is not None:
            return body
        added += 1
        rest = list(body.body)
        if key is None and rest and not rest[0].leading_lines:  # a blank line between class docstring and members
            rest[0] = rest[0].with_changes(leading_lines=(cst.EmptyLine(indent=False),))
        return body.with_changes(body=[docs[key].with_changes(leading_lines=()), *rest])

    members = [m.with_changes(body=with_doc(m.body, m.name.value))
               if isinstance(m, cst.FunctionDef) and isinstance(m.body, cst.IndentedBlock) else m
               for m in target.body.body]
    body = with_doc(target.body.with_changes(body=members), None)
    return module.deep_replace(target, target.with_changes(body=body)).code, added


def _stem(word: str) -> str:
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ers", ""), ("er", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: len(word) - len(suffix)] + replacement
    return word


def _words(text: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", text)
    return [_stem(w) for w in re.findall(r"[a-z0-9]+", spaced.lower())]


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return n > 0 and any(list(words[i:i + n]) == list(phrase) for i in range(len(words) - n + 1))


def domain_scores(text: str, registry: DomainRegistry) -> dict[str, int]:
    """How strongly `text` (a class name and description) points at each registered domain: three points
    per keyword it contains (as a phrase, words compared stemmed), one per word of the domain's
    description. Domains it does not point at are left out."""
    words = _words(text)
    scores: dict[str, int] = {}
    for domain in registry.domain:
        score = KEYWORD_WEIGHT * sum(_contains(words, _words(k)) for k in domain.keywords)
        described = {w for w in _words(domain.description) if len(w) > 3 and w not in _STOP_WORDS}
        score += DESCRIPTION_WEIGHT * len(described & set(words))
        if score:
            scores[domain.name] = score
    return scores


def assign_domain(entry: dict[str, Any], registry: DomainRegistry) -> str | None:
    """The domain a task's class name and description point at most (registry order breaks ties); when they
    point nowhere, the one its skeleton (method names and docstrings, a noisier text) points at; or None."""
    for text in (f"{entry.get('class_name', '')} {entry.get('class_description') or ''}", entry.get("skeleton") or ""):
        if scores := domain_scores(str(text), registry):
            return max(scores, key=lambda name: (scores[name], -registry.names.index(name)))
    return None


def seed_toml(seed: SeedClass, licence: str) -> str:
    """seed.toml text for `seed` (strings written as JSON strings, which TOML reads alike), with the ends it
    produces and accepts (`[[produces]]`, `[[accepts]]`) when it has any."""
    lines = [f"class_name = {json.dumps(seed.class_name)}", f"description = {json.dumps(seed.description)}",
             f"licence = {json.dumps(licence)}", "", "[provenance]", f"source = {json.dumps(seed.provenance.source)}"]
    return "\n".join(lines) + "\n" + ends_toml(list(seed.produces), list(seed.accepts))


@dataclass
class SeedImport:
    """What an import wrote and left out: seed folders per domain, and per task why it was skipped or
    what it still lacks (a skeleton that does not parse leaves the solution without docstrings)."""

    written: dict[str, list[str]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    docstrings_added: int = 0
    derived_ends: list[str] = field(default_factory=list)  # classes whose ends their docstrings state
    declared_ends: list[str] = field(default_factory=list)  # classes whose ends the maintainer's file gives

    @property
    def count(self) -> int:
        return sum(len(names) for names in self.written.values())


def _parses(text: str, what: str, where: str) -> str | None:
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return f"{where}: {what} does not parse: {exc.msg} (line {exc.lineno})"
    return None


def _ends(source: str, class_name: str, overlay: Mapping[str, tuple[list[Produces], list[Accepts]]],
          result: SeedImport, where: str) -> tuple[list[Produces], list[Accepts]]:
    """The ends the seed.toml declares: the maintainer's for a class the overlay names, else those its
    docstrings state (`classeval_ends.derive_ends`); each class with any is listed in `result`."""
    if class_name in overlay:
        result.declared_ends.append(class_name)
        return overlay[class_name]
    try:
        produces, accepts = derive_ends(source, class_name)
    except (SyntaxError, LookupError) as exc:
        result.notes.append(f"{where}: no ends derived: {exc}")
        return [], []
    if produces or accepts:
        result.derived_ends.append(class_name)
    return produces, accepts


def import_as_seeds(entries: Sequence[Any], source_name: str, root: Path, registry_file: Path, *,
                    domain: str | None = None, default_domain: str | None = None, licence: str = "unknown",
                    overlay: Mapping[str, tuple[list[Produces], list[Accepts]]] | None = None) -> SeedImport:
    """Write each ClassEval task as `root/<domain>/<module>/` (seed.toml, the class with the skeleton's
    docstrings, its tests), the layout `seeds/` uses. `domain` gives every task that domain; otherwise
    each gets `assign_domain`'s, or `default_domain` when no keyword points anywhere (without one such a
    task is skipped and named). A malformed task, or one whose solution or tests do not parse, is skipped
    with the reason; the registry is copied into `root` when it has none, so `root` is a corpus of its own.
    Each seed.toml declares what the class produces and accepts (`_ends`): `overlay` gives a maintainer's
    ends per class name, which replace the derived ones."""
    registry = load_domains(registry_file)
    for name in (domain, default_domain):
        if name is not None and name not in registry.names:
            raise InputError(f"domain {name!r} is not in the registry (registered: {', '.join(registry.names)})")
    result = SeedImport()
    taken: set[tuple[str, str]] = set()
    for index, entry in enumerate(entries):
        where = f"{source_name}[{index}]"
        try:
            seed = classeval_entry_to_seed(entry, where, "unassigned")
        except InputError as exc:  # a malformed task is named; the others are still imported
            result.skipped.append(str(exc))
            continue
        where = f"{where} ({entry['task_id']})"
        chosen = domain or assign_domain(entry, registry) or default_domain
        if chosen is None:
            result.skipped.append(f"{where}: no domain keyword in its name, description or skeleton; give --default-domain")
            continue
        if problem := _parses(seed.source, "solution_code", where) or _parses(seed.tests, "test", where):
            result.skipped.append(problem)
            continue
        source = seed.source
        try:
            source, added = merge_skeleton_docstrings(seed.source, entry.get("skeleton") or "", seed.class_name)
            result.docstrings_added += added
        except (SyntaxError, cst.ParserSyntaxError, ClassNotFound) as exc:
            result.notes.append(f"{where}: docstrings not merged: {exc}")
        name, suffix = seed.name, 2
        while (chosen, name) in taken:
            name, suffix = f"{seed.name}_{suffix}", suffix + 1
        taken.add((chosen, name))
        tests = seed.tests.replace(f"from {seed.name} import *", f"from {name} import *", 1)
        folder = root / chosen / name
        provenance = seed.provenance.model_copy(update={"source": f"{seed.provenance.source} ({source_name})"})
        produces, accepts = _ends(source, seed.class_name, overlay or {}, result, where)
        seed = seed.model_copy(update={"provenance": provenance, "produces": tuple(produces),
                                       "accepts": tuple(accepts)})
        atomic_write_text(folder / METADATA_FILE, seed_toml(seed, licence))
        atomic_write_text(folder / f"{name}.py", source)
        atomic_write_text(folder / f"test_{name}.py", tests)
        result.written.setdefault(chosen, []).append(name)
    for name in sorted(set(overlay or {}) - set(result.declared_ends)):
        result.notes.append(f"ends declared for {name}, which no imported task defines")
    if result.count and not (root / REGISTRY_FILE).exists():
        shutil.copyfile(registry_file, root / REGISTRY_FILE)
    return result
