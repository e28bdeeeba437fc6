"""The typed records that cross every stage boundary.

One record per boundary, so that a stage can be tested by handing it records and reading the records it
returns, and so that the artifact tree (one JSON file per record) is the source of truth of a run. Every
record is a frozen pydantic model: immutable once made, validated on load, and serialised to JSON without
loss (`to_json` / `from_json` round-trip exactly; floats must be finite for that reason).

Sequences are tuples rather than lists so that a frozen record really cannot be changed in place.
"""

from __future__ import annotations

import hashlib
import json
from enum import Enum
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field

JsonValue = Any
"""A value that JSON can carry (str, int, finite float, bool, None, lists and dicts of those)."""


class Record(BaseModel):
    """Base of all records: frozen, strict about unknown fields, exact JSON round trip."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, validate_default=True)

    def to_json(self) -> str:
        """Serialise to human-readable JSON: fields in declaration order, dict entries in insertion order
        (a funnel's stages keep the order they ran in), two-space indent. Deterministic for equal records
        built the same way; `content_hash` (sorted keys) is the order-free digest."""
        return json.dumps(self.model_dump(mode="json", by_alias=True), indent=2, ensure_ascii=False)

    def canonical_json(self) -> str:
        """Sorted-key, compact JSON: the same bytes for equal records however their dicts were built
        (e.g. after a parquet round trip). Hash this, not `to_json`."""
        return json.dumps(self.model_dump(mode="json", by_alias=True), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """Parse a record written by `to_json` (or any JSON of the same shape); raises pydantic's ValidationError."""
        return cls.model_validate_json(text)


def content_hash(*parts: JsonValue, length: int = 16) -> str:
    """Stable hex digest of JSON-able content: same content gives the same digest on every machine and run.

    Uses canonical JSON (sorted keys, no whitespace variation) so that dict ordering and platform do not leak
    into ids.
    """
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:length]


class Origin(str, Enum):
    """Which source produced a candidate."""

    SEED = "seed"
    ENHANCED = "enhanced"
    COMPOSED = "composed"
    MINED = "mined"


class RejectReason(str, Enum):
    """Why a candidate was not released. Every rejection names exactly one primary reason."""

    MALFORMED = "malformed"  # the record or its code could not be parsed into what the stage needs
    INTERNAL_ERROR = "internal_error"  # the pipeline itself failed on this record; the traceback is the evidence
    NO_CODE = "no_code"  # a generator's answer contained no usable code
    SYNTAX_ERROR = "syntax_error"
    # needs a newer Python than the sandbox's interpreter (or the pipeline's own parser): the detail names the
    # construct or standard-library name and the version that brought it
    UNSUPPORTED_SYNTAX = "unsupported_syntax"
    GENERATION_FAILED = "generation_failed"  # a synthesis transform could not be applied
    NO_TESTS = "no_tests"  # zero tests were collected: never a pass
    TESTS_FAIL = "tests_fail"  # the reference does not pass its own tests
    TIMEOUT = "timeout"
    RESOURCE_LIMIT = "resource_limit"  # killed for memory, processes, output size or file size
    SANDBOX_VIOLATION = "sandbox_violation"  # tried to escape: network, writes outside, killing the parent
    TAMPERING = "tampering"  # disarmed the grading: rebound assertions or pytest internals, edited the tests
    FLAKY = "flaky"  # outcome changed between identical or reordered runs
    ENV_DEPENDENT = "env_dependent"  # outcome depends on clock, hash seed, user, host or a missing package
    LOW_COVERAGE = "low_coverage"
    LOW_INTERACTION = "low_interaction"  # tests do not exercise methods working together
    # a composed class whose parts exchange no value: no meaningful link between the seeds (compose), or
    # no test in which a value of one part changes what the other part returns (the gate's seam check)
    INCOHERENT_FUSION = "incoherent_fusion"
    VACUOUS_TESTS = "vacuous_tests"  # too many tests pass against the bodiless skeleton
    # a public method no test calls, or whose body replaced by `pass` fails no test (the gate names it)
    UNTESTED_METHOD = "untested_method"
    LOW_MUTATION_SCORE = "low_mutation_score"
    OVERSPECIFIED_TESTS = "overspecified_tests"  # a test fails a faithful variant: it checks what the skeleton leaves open
    JUDGE_REJECTED = "judge_rejected"
    JUDGE_ABSTAINED = "judge_abstained"  # fewer than two judges gave a decision: held, not accepted
    DUPLICATE = "duplicate"  # same normalised syntax tree as another task
    NEAR_DUPLICATE = "near_duplicate"  # MinHash Jaccard above the threshold
    CONTAMINATED = "contaminated"  # overlaps a public benchmark above the threshold
    # its family already holds the release's number of variants, each chosen ahead of it for the features it
    # adds or its mutation score (pipeline.release.variants)
    VARIANT_LIMIT = "variant_limit"
    # Mining (stage 3): why a class found in a repository did not become a candidate.
    LICENCE_NOT_ALLOWED = "licence_not_allowed"  # no licence file, an unknown one, or one off the allow-list
    NOT_A_TASK_CLASS = "not_a_task_class"  # a test, enum, exception, protocol, abstract interface or data holder
    TOO_SMALL = "too_small"  # fewer methods or lines than a task needs
    TOO_LARGE = "too_large"  # more lines than a task may have
    NO_INTERACTION = "no_interaction"  # no call or state edge between its methods
    NOT_SELF_CONTAINED = "not_self_contained"  # its slice needs a package outside the standard library
    UNSAFE_EFFECTS = "unsafe_effects"  # its slice touches the network, spawns processes or writes files
    UNDOCUMENTED = "undocumented"  # a method has no docstring and no model is configured to write one
    NOT_FRESH = "not_fresh"  # first appeared in the repository before the cut-off
    SOURCE_UNREADABLE = "source_unreadable"  # an object or response of the source could not be read
    NO_DOMAIN = "no_domain"  # no (selected) domain's keywords match the repository or the class
    # third-party code committed into the repository (a virtual environment, site-packages, vendor/): neither
    # its licence nor its first commit is the repository's; one rejection per vendored folder
    VENDORED = "vendored"
    # invisible format characters (zero-width, bidirectional controls) in the code: what a reader sees is not
    # what runs, and such marks are how copies are traced
    HIDDEN_CHARACTERS = "hidden_characters"
    # a textbook structure or algorithm, a standard-library look-alike or a near-copy of a public benchmark's
    # task (pipeline/mining/well_known.py): fresh by date, not by content
    WELL_KNOWN = "well_known"
    # no interplay: fewer public methods than a task needs read state another public method writes (a holder
    # of getters and setters; pipeline/mining/shape.py trivial_filter)
    TRIVIAL = "trivial"
    # Bad model answers (models): each kept with the raw answer as evidence.
    WRONG_CLASS_NAME = "wrong_class_name"  # the answer's code does not define the expected class
    SEVERAL_CLASSES = "several_classes"  # more than one class, or more than one block defining it
    AMBIGUOUS_ANSWER = "ambiguous_answer"  # several code blocks could be the answer (e.g. two test modules)
    FOREIGN_IMPORT = "foreign_import"  # tests that import something other than the class under test
    SKELETON_MISMATCH = "skeleton_mismatch"  # a reference whose public methods differ from its skeleton
    MODEL_FAILED = "model_failed"  # the model could not be reached or kept failing after every retry


class Provenance(Record):
    """Where a class came from. Fields that do not apply to an origin stay empty."""

    seed_ids: tuple[str, ...] = Field(default=(), description="Ids of the seed classes this was derived from.")
    transforms: tuple[str, ...] = Field(default=(), description="Names of the synthesis transforms applied, in order.")
    rng_seed: int | None = Field(default=None, description="Seed of the random generator that made the choices.")
    repository: str | None = Field(default=None, description="owner/name of a mined repository.")
    commit: str | None = Field(default=None, description="Commit sha the mined file was read at.")
    path: str | None = Field(default=None, description="Path of the source file inside its repository or seeds folder.")
    licence: str | None = Field(default=None, description="SPDX identifier of the source's licence.")
    first_commit_date: str | None = Field(
        default=None, description="ISO date the class first appeared (mined code), or the seed's creation date."
    )
    source: str | None = Field(default=None, description="Free-text origin, e.g. 'written for classeval-pro'.")
    first_commit: str | None = Field(default=None, description="Sha of the commit that first added a mined class.")


class GeneratorSpec(Record):
    """Which backend made a candidate, so that an offline product is never mistaken for a model's."""

    backend: str = Field(description="'offline' for rule-based work, 'litellm' for a model, 'seed'/'github' for sources.")
    model: str | None = Field(default=None, description="Model name for model backends; None when offline.")
    prompt_version: str | None = Field(default=None, description="Version of the prompt template used, if any.")
    parameters: dict[str, JsonValue] = Field(default_factory=dict, description="Backend parameters (temperature, ...).")


class Produces(Record):
    """A quantity a seed's class hands out: what one of its methods returns, with its meaning and unit.

    Composition joins a seed that produces a quantity to one that exists to consume it (`Accepts`), on
    meaning and unit, never on type alone (`core/meanings.py`); the phrases are the words the hybrid's
    docstrings use for the value, so that a link reads as the class's own language."""

    method: str = Field(description="Public method whose return value is the quantity.")
    meaning: str = Field(description="What the value is (`core.meanings.MEANINGS`): money, duration, count, ...")
    unit: str = Field(description="Its unit within that meaning: cents, seconds, grains, words, ...")
    what: str = Field(description="Singular noun phrase for the value: 'the size of the avalanche a drop sets off'.")
    name: str = Field(description="Snake-case noun for the value, used in link method names: 'avalanche_size'.")
    kind: str = Field(default="", description="What sort of that meaning it is, for consumers that take only some: "
                                              "a duration of a 'request', a 'wait', 'work', an 'attempt'.")
    purpose: str = Field(default="", description="Clause saying why a program keeps a series of these values: "
                                                 "'avalanche sizes are what a sandpile simulation is run to measure'. "
                                                 "A consumer of any number (statistics) is linked only to an end "
                                                 "that states one: its own purpose is no reason.")
    purposes: dict[str, str] = Field(default_factory=dict, description="A purpose of its own for a consumer that "
                                     "needs one, keyed by its verb (`Accepts.verb`): a log keeps a trace, a bus "
                                     "tells someone: {log = 'who approved which absence must be on record', "
                                     "publish = 'payroll must learn of each approved absence'}.")
    positive: bool = Field(default=False, description="A zero is no event (a miss, an empty fill): only values "
                                                      "above zero are passed on.")
    context: dict[str, str] = Field(default_factory=dict, description="What the operation gives a consumer beside "
                                    "the value, by role (`core.meanings.CONTEXT_ROLES`): the name of one of its "
                                    "required parameters, a quoted literal, or an expression over those and the "
                                    "instance's state (`self.`): {who = 'approver', topic = \"'leave.approved'\", "
                                    "when = 'self.now'}.")
    units: dict[str, str] = Field(default_factory=dict, description="The unit of a context value that has one, by "
                                  "role: the clock a `when` reads ({when = 'minutes'}). A time is given to a "
                                  "consumer only in a unit that converts to the one it takes.")
    event: str = Field(default="", description="For a text of an event: the text handed on, naming its subject "
                                               "from the method's required parameters and '{result}' (what it "
                                               "returns): 'deal {name} moved to stage {result}'. A bare return "
                                               "value ('qualified') would not say which deal moved. An operation "
                                               "that returns nothing reports an event without '{result}'.")
    condition: str = Field(default="", description="A Python condition under which the value is passed on, where "
                                                   "not every call changes something: over the method's required "
                                                   "parameters, the instance's state (`self.`) and '{result}'. With "
                                                   "'{result}' it is read after the operation ('{result} > 0'), "
                                                   "without it before, on the state the operation finds "
                                                   "(\"role not in self.roles_of(user)\"). Empty: every call.")
    condition_words: str = Field(default="", description="The condition in words, completing 'passed on only ...': "
                                                         "'when the device had failed attempts to clear'.")
    value: str = Field(default="", description="What is handed on where it is not what the method returns: a "
                                           "Python expression over the method's required parameters, the "
                                           "instance's state (`self.`) and '{result}'. A retry that gives up "
                                           "returns -1.0 (no wait), yet the attempts it spent are `attempt`. "
                                           "Empty: the value returned. Such an end is only woven.")


class Accepts(Record):
    """A quantity a seed's class exists to consume: a parameter of one of its methods, with its meaning and
    unit (`number` and `any` for a class that takes any measured value, such as a statistics class)."""

    method: str = Field(description="Public method that takes the value and keeps it in the instance's state.")
    parameter: str = Field(description="The parameter that receives the value.")
    meaning: str = Field(description="What the value must be (`core.meanings.MEANINGS`), or 'number' for any quantity.")
    unit: str = Field(description="Its unit, or 'any'.")
    role: str = Field(description="Passive phrase completing '<value> is ...': 'counted in the histogram's bins'.")
    action: str = Field(description="Imperative phrase with '{what}' for a link method's summary: "
                                    "'count {what} in the histogram'.")
    verb: str = Field(description="Snake-case verb for link method names: 'bin' (link: 'bin_avalanche_size').")
    why: str = Field(default="", description="Optional clause saying what the consumer makes of it: "
                                             "'so that their distribution can be read back'.")
    positive: bool = Field(default=False, description="Only a value above zero is passed on (the method refuses "
                                                      "zero and negatives).")
    kinds: tuple[str, ...] = Field(default=(), description="Only values of these kinds (`Produces.kind`) are taken; "
                                                           "empty: any value of the meaning.")
    context: dict[str, str] = Field(default_factory=dict, description="Its other parameters a producer may fill, "
                                    "by role (`core.meanings.CONTEXT_ROLES`): {who = 'actor', topic = 'topic'}.")
    units: dict[str, str] = Field(default_factory=dict, description="The unit of a context parameter that has "
                                  "one, by role: {when = 'seconds'} for a timestamp in seconds.")


class SeedClass(Record):
    """A hand-written (or imported) class with its tests: raw material for enhance and compose."""

    seed_id: str = Field(description="'<domain>/<seed_name>': unique within the corpus.")
    domain: str = Field(description="Domain name from the registry.")
    name: str = Field(description="Seed folder name; also the module name of the class file.")
    class_name: str = Field(description="Name of the class under test inside the module.")
    description: str = Field(description="What the class models, in a sentence or two.")
    source: str = Field(description="Full source code of the class module.")
    tests: str = Field(description="Full source of the pytest (or unittest) module that tests it.")
    provenance: Provenance = Field(description="Licence, creation date and origin of the seed.")
    produces: tuple[Produces, ...] = Field(default=(), description="Quantities the class hands out (seed.toml).")
    accepts: tuple[Accepts, ...] = Field(default=(), description="Quantities the class exists to consume (seed.toml).")

    @property
    def module_name(self) -> str:
        """The module the tests import the class from."""
        return self.name

    @property
    def mined_from(self) -> str | None:
        """The repository of a mined class taken as a seed (`[mine] as_seeds`), None for any other seed. Only
        mining records the commit that first added a class; a bundled seed may name the repository it was
        adapted from, never such a commit."""
        return (self.provenance.repository or "") if self.provenance.first_commit is not None else None


def seed_provenance(seed: SeedClass, **fields: Any) -> Provenance:
    """The provenance of a class made from one seed: where the seed came from (its path, licence, repository,
    the commit it was read at and the one that first added it, for a mined seed) and its date, with `fields`
    (seed ids, transforms, ...) added. A task grown from a mined class keeps that class's freshness date."""
    own = seed.provenance
    carried = {"path": own.path, "licence": own.licence, "repository": own.repository, "commit": own.commit,
               "first_commit": own.first_commit, "first_commit_date": own.first_commit_date}
    return Provenance(**{**carried, **fields})


class Candidate(Record):
    """A proposed task, as emitted by enhance, compose or mine, before any gate."""

    candidate_id: str = Field(description="Content hash of class name, solution and tests (see `make_id`).")
    class_name: str = Field(description="Name of the class to implement.")
    module_name: str = Field(description="Module the tests import the class from (`from <module_name> import ...`).")
    domains: tuple[str, ...] = Field(description="One domain, or two for a composed class.")
    description: str = Field(description="What the class does, for the task statement.")
    skeleton: str = Field(description="The class with signatures and docstrings and no bodies.")
    solution_code: str = Field(description="Reference solution: the complete module source.")
    test_code: str = Field(description="The pytest module; it imports the class from `module_name`.")
    origin: Origin = Field(description="Which source made it.")
    provenance: Provenance = Field(description="Seeds, transforms, repository and dates behind it.")
    generator: GeneratorSpec = Field(description="Backend and parameters that produced it.")
    requires_python: str | None = Field(
        default=None, description="Oldest Python (MAJOR.MINOR) its solution and tests need, from their syntax and the "
        "standard-library names they use (core.analysis.python_need); None in candidates written before the "
        "field existed.")

    @staticmethod
    def make_id(class_name: str, solution_code: str, test_code: str) -> str:
        """Content-derived id: same class, solution and tests give the same id anywhere."""
        return "cand-" + content_hash(class_name, solution_code, test_code)


class CheckResult(Record):
    """One gate check: its measured value against its threshold."""

    name: str = Field(description="Check name, e.g. 'line_coverage'.")
    value: float | int | bool | None = Field(description="Measured value (None when it could not be measured).")
    threshold: float | int | bool | None = Field(default=None, description="The bound the policy applied.")
    passed: bool = Field(description="Whether the value satisfied the policy.")
    gated: bool = Field(default=True, description="False when the check is reported only and cannot reject.")
    detail: str = Field(default="", description="A short human-readable explanation.")


class TestOutcome(Record):
    """One test's result in one run."""

    __test__ = False  # not a pytest test class, despite its name

    test_id: str = Field(description="pytest node id, relative to the sandbox folder.")
    outcome: str = Field(description="passed | failed | error | skipped | timeout | killed.")
    reason: str = Field(default="", description="Short reason for a non-pass (exception type and message head).")
    run: str = Field(default="base", description="Which robustness run this came from.")


class GateReport(Record):
    """The validation gate's full account of one candidate."""

    candidate_id: str = Field(description="The candidate this report is about.")
    passed: bool = Field(description="True only when every gated check passed.")
    checks: tuple[CheckResult, ...] = Field(default=(), description="Every check, gated or reported.")
    reasons: tuple[RejectReason, ...] = Field(default=(), description="Reasons for rejection, most important first.")
    tests: tuple[TestOutcome, ...] = Field(default=(), description="Per-test outcomes of every run.")
    line_coverage: float | None = Field(default=None, description="Share of solution lines run by the tests (0..1).")
    branch_coverage: float | None = Field(default=None, description="Share of solution branches taken (0..1).")
    missing_lines: tuple[int, ...] = Field(default=(), description="Solution lines the tests never ran.")
    interaction_edge_coverage: float | None = Field(
        default=None, description="Exercised / static interaction edges, one per (kind, method, method) pair.")
    mutation_score: float | None = Field(default=None, description="Killed / generated mutants, when measured.")
    protections: dict[str, bool] = Field(
        default_factory=dict, description="Which sandbox protections were in force (network, uid, cgroups, ...)."
    )
    interpreter: dict[str, str] = Field(
        default_factory=dict, description="The Python that ran the tests: executable, version, implementation, label "
        "('CPython 3.11.7'), and whether it was configured (`sandbox_python`) or the project's own; empty in "
        "reports written before.")
    evidence: dict[str, JsonValue] = Field(
        default_factory=dict, description="Raw evidence: coverage JSON, interaction edges, surviving mutants, logs."
    )

    def check(self, name: str) -> CheckResult | None:
        """The check of that name, if it was run."""
        return next((c for c in self.checks if c.name == name), None)


class Decision(str, Enum):
    """A judge's decision. An unparseable answer is an abstention, never a silent accept."""

    ACCEPT = "accept"
    REJECT = "reject"
    ABSTAIN = "abstain"


class JudgeSpec(Record):
    """Identifies a judge exactly enough to reproduce its verdict."""

    backend: str = Field(description="'offline' or 'litellm'.")
    model: str | None = Field(default=None, description="Model name; None for offline judges.")
    prompt_version: str | None = Field(default=None, description="Version of the judging prompt.")
    parameters: dict[str, JsonValue] = Field(default_factory=dict, description="Sampling parameters and the like.")
    name: str = Field(default="", description="The judge's name on a panel: an offline judge's kind "
                      "('specification', ...) or the model name; unique within a panel.")
    prompt: str | None = Field(default=None, description="Name of the judging prompt template (model judges).")

    @property
    def label(self) -> str:
        """How tables and cards name this judge."""
        return self.name or "/".join(x for x in (self.backend, self.model, self.prompt_version) if x)


class Layer(str, Enum):
    """Where a judge sits in the panel."""

    CHECKS = "checks"  # deterministic judges (backend offline): always first, a filter
    MODELS = "models"  # model judges: vote on the candidates the checks accepted


def layer_of(spec: JudgeSpec) -> Layer:
    """The layer a judge belongs to, by its backend."""
    return Layer.CHECKS if spec.backend == "offline" else Layer.MODELS


class Finding(Record):
    """One criterion of a review."""

    criterion: str = Field(description="e.g. 'spec_unambiguous', 'reference_correct', 'tests_within_spec'.")
    ok: bool | None = Field(description="True/False, or None when the judge could not tell.")
    note: str = Field(default="", description="The judge's justification, shortened.")


class Verdict(Record):
    """One judge's review of one candidate."""

    candidate_id: str = Field(description="The candidate reviewed.")
    judge: JudgeSpec = Field(description="Who judged.")
    decision: Decision = Field(description="accept, reject or abstain.")
    findings: tuple[Finding, ...] = Field(default=(), description="Per-criterion findings.")
    raw_response: str = Field(default="", description="The judge's raw answer, kept for audit.")


class Rejection(Record):
    """A candidate that did not make it, kept with its reason: rejection is data."""

    candidate_id: str = Field(description="The rejected candidate.")
    stage: str = Field(description="Stage that rejected it: 'enhance', 'validate', 'judge', 'release', ...")
    reason: RejectReason = Field(description="The primary reason.")
    detail: str = Field(default="", description="One readable line saying what was wrong.")
    evidence: dict[str, JsonValue] = Field(default_factory=dict, description="What the stage saw.")


class MethodDependencies(Record):
    """ClassEval's per-method dependency record (its key names kept for compatibility)."""

    Standalone: bool = Field(description="True when the method uses no field, no other method and no library.")
    lib_dependencies: tuple[str, ...] = Field(default=(), description="Modules the method uses.")
    field_dependencies: tuple[str, ...] = Field(default=(), description="self attributes the method reads or writes.")
    method_dependencies: tuple[str, ...] = Field(default=(), description="Methods of the class it calls.")


class MethodInfo(Record):
    """ClassEval's per-method column."""

    method_name: str = Field(description="Name of the method.")
    method_description: str = Field(description="Signature and docstring, as the solver sees it.")
    test_class: str = Field(default="", description="Name of the test class (or module) testing it.")
    test_code: str = Field(default="", description="Tests that call the method.")
    solution_code: str = Field(default="", description="The method's reference source.")
    dependencies: MethodDependencies = Field(description="What the method depends on.")


class Task(Record):
    """The released record: ClassEval's columns plus what lets a reader trust the task."""

    task_id: str = Field(description="Stable id derived from the task's content (see `make_id`).")
    skeleton: str = Field(description="Class signatures and docstrings without bodies.")
    test: str = Field(description="The pytest module; imports the class from `module_name`.")
    solution_code: str = Field(description="Reference solution (module source without leading imports).")
    import_statement: tuple[str, ...] = Field(default=(), description="Import lines the solution needs.")
    class_name: str = Field(description="Name of the class to implement.")
    class_description: str = Field(description="Class docstring / statement.")
    class_constructor: str = Field(default="", description="Source of __init__.")
    fields: tuple[str, ...] = Field(default=(), description="self attributes the class keeps.")
    test_classes: tuple[str, ...] = Field(default=(), description="Names of test classes (or test functions).")
    methods_info: tuple[MethodInfo, ...] = Field(default=(), description="Per-method details and dependencies.")
    module_name: str = Field(description="Module name the tests import from.")
    domains: tuple[str, ...] = Field(description="One or two domains.")
    origin: Origin = Field(description="Source that produced it.")
    provenance: Provenance = Field(description="Where it came from.")
    generator: GeneratorSpec = Field(description="Backend that made it.")
    source_date: str | None = Field(default=None, description="ISO date of its source, for cut-off filtering.")
    metrics: dict[str, float | None] = Field(default_factory=dict, description="Gate figures: coverage, interaction, ...")
    verdicts: tuple[Verdict, ...] = Field(default=(), description="Judges' verdicts.")
    candidate_id: str = Field(
        default="", description="The candidate this task was built from, so a release traces back to its run."
    )
    requires_python: str | None = Field(
        default=None, description="Oldest Python (MAJOR.MINOR) its solution and tests need, from their syntax and the "
        "standard-library names they use; None only in tasks written before the field existed.")
    family: str = Field(
        default="", description="The seeds it grew from, so near-variants can be told apart: an enhanced task's seed "
        "id, a composed task's two seed ids joined by '+' (sorted), a mined task's repository:path::class "
        "(pipeline.release.family; empty only in tasks written before the field existed)."
    )
    variant_rank: int = Field(
        default=0, ge=0, description="Its place in its family's order of preference, counted over the whole "
        "release: 1 is the family's first choice (distinct features, then the higher mutation score; "
        "pipeline.release.variants); 0 only in tasks written before the field existed."
    )

    def module_source(self) -> str:
        """The reference as one runnable module: its imports (kept apart in ClassEval's columns) first."""
        return "\n".join(self.import_statement) + ("\n\n" if self.import_statement else "") + self.solution_code

    @staticmethod
    def make_id(class_name: str, skeleton: str, solution_code: str, test: str) -> str:
        """Stable task id: a digest of what a solver and a grader see, identical on every run and machine."""
        return "CEP-" + content_hash(class_name, skeleton, solution_code, test, length=12)
