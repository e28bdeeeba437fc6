"""A mined class becomes a candidate: skeleton from the slice, the original code as the reference, and
tests: the repository's own when they use the class standalone, followed by the offline oracle synthesis's
(`with_oracle_tests`), otherwise the oracle's alone.

The repository's tests are taken when one of its test modules imports the class and every other import it
makes is the standard library, pytest, or a name the slice defines; its import of the class is rewritten
to the task's module. Otherwise tests are synthesised the way enhance does it, with argument pools read
from the class's source (`pools`): scenarios run on the reference in the sandbox, and the outcomes become
the expectations. Everything executed runs in the sandbox; this process only parses.
"""

from __future__ import annotations

import ast
import random

from core.analysis.class_model import analyse
from core.analysis.python_need import requires_python
from core.analysis.skeleton import make_skeleton
from core.module_names import task_module_name
from core.records import Candidate, GeneratorSpec, Origin, Provenance, Rejection, RejectReason
from models.prompts import load_prompt
from pipeline.mining.docstrings import PROMPT as DOCSTRING_PROMPT
from pipeline.mining.examine import DERIVED, STAGE
from pipeline.mining.pools import static_pools
from pipeline.mining.records import MinedClass
from pipeline.mining.slicing import STDLIB
from pipeline.mining.stated_tests import keep_stated_tests
from pipeline.synthesis.jobs import JobFailed
from pipeline.synthesis.long_walks import long_walks
from pipeline.synthesis.stated_orders import unordered_methods
from pipeline.synthesis.testgen import snake, synthesize_tests
from validation.sandbox import SandboxPool

TEST_MODULES_ALLOWED = frozenset({"pytest", "unittest"}) | STDLIB



def module_name_for(class_name: str) -> str:
    """The task's module name: the class name in snake case, or `m_` and that when it is taken."""
    return task_module_name(snake(class_name))


def adapt_repo_tests(test_source: str, module: str, defined: set[str]) -> str | None:
    """The test module with its imports of the repository's code pointed at `module`, or None when it
    needs anything else (another module of the repository, a third-party package, a relative import)."""
    try:
        tree = ast.parse(test_source)
    except SyntaxError:
        return None
    lines = test_source.splitlines()
    replaced: dict[int, tuple[int, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(alias.name.split(".")[0] not in TEST_MODULES_ALLOWED for alias in node.names):
                return None
        elif isinstance(node, ast.ImportFrom):
            root = (node.module or "").split(".")[0]
            if node.level == 0 and root in TEST_MODULES_ALLOWED:
                continue
            names = [alias.name for alias in node.names]
            if node not in tree.body or not set(names) <= defined:
                return None
            imported = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
            replaced[node.lineno - 1] = (node.end_lineno or node.lineno, f"from {module} import {imported}")
    if not replaced:
        return None
    out: list[str] = []
    index = 0
    while index < len(lines):
        if index in replaced:
            end, text = replaced[index]
            out.append(text)
            index = end
        else:
            out.append(lines[index])
            index += 1
    return "\n".join(out) + "\n"


def _defined_names(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _oracle_tests(mined: MinedClass, module: str, pool: SandboxPool,
                  rng_seed: int) -> tuple[str, int, str, tuple[dict, ...]]:
    model = analyse(mined.slice_code, mined.class_name)
    pools = static_pools(mined.slice_code, mined.class_name)
    rng = random.Random(f"{rng_seed}:{mined.mined_id}")
    walks = long_walks(model, pools, random.Random(f"{rng_seed}:{mined.mined_id}:long"))  # apart: the random walks stay as they were
    result = synthesize_tests(pool, source=mined.slice_code, module=module, model=model, pools=pools,
                              extra=walks, rng=rng,  # raises the docstrings (author's or derived) leave out: dropped there
                              unordered=unordered_methods(mined.slice_code, mined.class_name))
    return result.test_code, result.tests, result.outcomes, result.reference_defects


def with_oracle_tests(repo_tests: str, oracle_tests: str) -> str | None:
    """The repository's test module followed by the oracle's tests, or None when a top-level name of the
    one is defined by the other too (a test or fixture would silently replace its namesake).

    A repository's tests are what its author meant and are kept whole, but they are written to check one
    behaviour each, often one method on a fresh instance: the gate's coverage and interaction rules then
    reject a class whose own suite is good. The oracle's scenarios add calls in sequence on one instance."""
    def names(text: str) -> set[str]:
        return {n.name for n in ast.parse(text).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    if names(repo_tests) & names(oracle_tests):
        return None
    return (repo_tests.rstrip("\n") + "\n\n\n# Added by the oracle synthesis: calls in sequence on one instance.\n\n"
            + oracle_tests)


def _docstrings_origin(mined: MinedClass) -> str:
    """Who wrote the method docstrings: the source's author, a model, or the offline derivation from
    observed behaviour (`derived`)."""
    if mined.docstrings_by is None:
        return "source"
    return DERIVED if mined.docstrings_by == DERIVED else "model"


def _rejection(mined: MinedClass, reason: RejectReason, detail: str) -> Rejection:
    return Rejection(candidate_id=mined.mined_id, stage=STAGE, reason=reason,
                     detail=f"{mined.repository}:{mined.path}:{mined.class_name}: {detail}",
                     evidence={"repository": mined.repository, "path": mined.path, "class_name": mined.class_name})


WELL_KNOWN = "well_known"
"""The generator parameter of a mined candidate that is a well-known implementation (its evidence): it may feed
enhance and compose as a seed, never be released as a task of its own."""


def releasable_alone(candidate: Candidate) -> bool:
    """False for a mined candidate marked well known: it is a seed's material, not a task."""
    return candidate.origin is not Origin.MINED or not candidate.generator.parameters.get(WELL_KNOWN)


def build_candidate(mined: MinedClass, *, pool: SandboxPool, rng_seed: int,
                    source: str = "git", well_known: dict | None = None) -> Candidate | Rejection:
    """The candidate made of `mined` (or why none could be made); `well_known`, the evidence that it is a
    well-known implementation, is recorded in its generator's parameters."""
    module = module_name_for(mined.class_name)
    skeleton = make_skeleton(mined.slice_code, mined.class_name)
    defined = _defined_names(mined.slice_code)
    tests, kind, dropped = None, "repository", {}
    for text in mined.repo_tests:
        adapted = adapt_repo_tests(text, module, defined)
        if adapted is not None:  # the tests checking what the skeleton does not state go (stated_tests)
            stated = keep_stated_tests(adapted, skeleton, mined.class_name, mined.slice_code)
            tests, dropped = stated.test_code, stated.dropped
            if tests is not None:
                break
    try:
        oracle, count, outcomes, defects = _oracle_tests(mined, module, pool, rng_seed)
    except (JobFailed, SyntaxError, LookupError) as exc:
        if tests is None:
            return _rejection(mined, RejectReason.GENERATION_FAILED, f"test synthesis failed: {exc}")
        oracle, count, outcomes, defects = "", 0, "", ()
    if tests is None:
        kind = "oracle"
        if count == 0:
            return _rejection(mined, RejectReason.NO_TESTS, f"no scenario gave a usable test: {outcomes}"[:1500])
        tests = oracle
    elif count and (joined := with_oracle_tests(tests, oracle)) is not None:
        kind, tests = "repository+oracle", joined
    # derived docstrings name no model: none wrote them (an offline product is never passed off as a model's)
    by_model = mined.docstrings_by if mined.docstrings_by not in (None, DERIVED) else None
    provenance = Provenance(repository=mined.repository if "/" in mined.repository else mined.origin,
                            commit=mined.commit, path=mined.path, licence=mined.licence,
                            first_commit_date=mined.first_commit_date, first_commit=mined.first_commit,
                            source=f"mined from {mined.origin}")
    return Candidate(
        candidate_id=Candidate.make_id(mined.class_name, mined.slice_code, tests),
        class_name=mined.class_name, module_name=module, domains=(mined.domain,),
        description=mined.description or f"{mined.class_name}, from {mined.repository}.",
        skeleton=skeleton, solution_code=mined.slice_code, test_code=tests, origin=Origin.MINED,
        provenance=provenance,
        generator=GeneratorSpec(backend=source, model=by_model,
                                prompt_version=load_prompt(DOCSTRING_PROMPT).ref if by_model else None,
                                parameters={"stage": STAGE, "tests": kind, "found_by": mined.found_by,
                                            "rng_seed": rng_seed, "docstrings": _docstrings_origin(mined),
                                **({WELL_KNOWN: well_known} if well_known else {}),
                                **({"repo_tests_dropped": dropped} if dropped and kind != "oracle" else {}),
                                **({"reference_defects": [dict(d) for d in defects]} if defects else {})}),
        requires_python=requires_python(mined.slice_code, tests),
    )
