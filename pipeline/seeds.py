"""Loading and checking the seed corpus.

A seed is a folder `seeds/<domain>/<name>/` with `seed.toml`, the class module `<name>.py` and its tests
`test_<name>.py`. Loading checks what can be checked without running anything (running happens only in the
validation sandbox): the files exist, both modules parse, the named class is defined at top level, and the
tests import it and define at least one test. Each problem names the file it is in, and one broken seed
never stops the others from being checked.
"""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.domains import DomainRegistry
from pipeline.records import Provenance, SeedClass

METADATA_FILE = "seed.toml"


class SeedProvenance(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str = Field(min_length=1)
    created: str | None = None
    repository: str | None = None
    path: str | None = None


class SeedMetadata(BaseModel):
    """Schema of seed.toml."""

    model_config = ConfigDict(extra="forbid")
    class_name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    licence: str = Field(min_length=1)
    provenance: SeedProvenance


@dataclass(frozen=True)
class SeedProblem:
    """Why one seed could not be loaded; `path` is the file at fault."""

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _parse(path: Path) -> tuple[ast.Module | None, SeedProblem | None]:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), None
    except SyntaxError as exc:
        return None, SeedProblem(path, f"syntax error at line {exc.lineno}: {exc.msg}")
    except UnicodeDecodeError:
        return None, SeedProblem(path, "not UTF-8 text")


def _imports_class(tree: ast.Module, module: str, class_name: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == module:
            if any(alias.name in (class_name, "*") for alias in node.names):
                return True
        if isinstance(node, ast.Import) and any(alias.name == module for alias in node.names):
            return True
    return False


def _count_tests(tree: ast.Module) -> int:
    count = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            count += 1
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            count += sum(
                1
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test")
            )
    return count


def load_seed(folder: Path, domain: str) -> SeedClass | SeedProblem:
    """Check one seed folder and turn it into a `SeedClass`, or say what is wrong with it."""
    name = folder.name
    meta_path = folder / METADATA_FILE
    module_path = folder / f"{name}.py"
    tests_path = folder / f"test_{name}.py"
    for required in (meta_path, module_path, tests_path):
        if not required.is_file():
            return SeedProblem(required, "missing")
    try:
        meta = SeedMetadata.model_validate(tomllib.loads(meta_path.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as exc:
        return SeedProblem(meta_path, f"not valid TOML: {exc}")
    except ValidationError as exc:
        err = exc.errors()[0]
        return SeedProblem(meta_path, f"field {'.'.join(map(str, err['loc']))}: {err['msg']}")
    module_tree, problem = _parse(module_path)
    if problem:
        return problem
    classes = [n.name for n in module_tree.body if isinstance(n, ast.ClassDef)]
    if meta.class_name not in classes:
        found = ", ".join(classes) or "none"
        return SeedProblem(module_path, f"class {meta.class_name!r} named in {METADATA_FILE} is not defined (found: {found})")
    tests_tree, problem = _parse(tests_path)
    if problem:
        return problem
    if not _imports_class(tests_tree, name, meta.class_name):
        return SeedProblem(tests_path, f"does not import {meta.class_name} from module {name!r}")
    if _count_tests(tests_tree) == 0:
        return SeedProblem(tests_path, "defines no tests (no test_* function or Test* class with test_* methods)")
    return SeedClass(
        seed_id=f"{domain}/{name}",
        domain=domain,
        name=name,
        class_name=meta.class_name,
        description=meta.description,
        source=module_path.read_text(encoding="utf-8"),
        tests=tests_path.read_text(encoding="utf-8"),
        provenance=Provenance(
            path=f"{domain}/{name}/{name}.py",
            licence=meta.licence,
            source=meta.provenance.source,
            first_commit_date=meta.provenance.created,
            repository=meta.provenance.repository,
        ),
    )


@dataclass(frozen=True)
class CorpusLoad:
    """Everything found in the corpus: the good seeds and the problems, in a stable order."""

    seeds: tuple[SeedClass, ...]
    problems: tuple[SeedProblem, ...]

    def count_by_domain(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for seed in self.seeds:
            counts[seed.domain] = counts.get(seed.domain, 0) + 1
        return counts


def load_corpus(root: Path, registry: DomainRegistry) -> CorpusLoad:
    """Load every seed of every registered domain. A folder under seeds/ that is not a registered domain
    is reported as a problem rather than ignored, so a misspelt domain folder is noticed."""
    seeds: list[SeedClass] = []
    problems: list[SeedProblem] = []
    for domain in registry.names:
        domain_dir = root / domain
        if not domain_dir.is_dir():
            continue
        for folder in sorted(p for p in domain_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            result = load_seed(folder, domain)
            (problems if isinstance(result, SeedProblem) else seeds).append(result)
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if folder.name not in registry.names:
            problems.append(SeedProblem(folder, "folder is not a domain in the registry"))
    return CorpusLoad(tuple(seeds), tuple(problems))
