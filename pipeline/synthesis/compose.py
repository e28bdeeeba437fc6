"""Stage 2, offline: fuse two classes from different domains into one hybrid class joined by meaning.

The hybrid keeps every field and method of both classes, except a method that takes another instance of its
own part's class (`own_kind.py`: a bank account's transfer to another account), which the class docstring
names as left out. Names of the second class that collide with the
first's (methods, fields, class attributes, constructor parameters, module-level names) are renamed with
the second class's snake-case name as prefix, everywhere in the second class's code, so behaviour is
unchanged. What makes it one class is its links (`links.py`): something one part produces (a basket's
total, a drop's avalanche, a week's pay) that the other part exists to consume, joined on the meaning and
unit both seeds declare, never on type alone. A link lives inside the producing operation where it can
(woven: the operation hands its result on), or is a method whose docstring says what it is for
(`weaving.py`); the hybrid's class docstring opens with what crosses and why. A pair with no link is not
composed: it is rejected `incoherent_fusion` at this stage, and the gate checks the composed candidates that
remain for tests that cross the seam (`validation/seam.py`). Which pairs are tried is decided before any
fusion (`links.may_link`), on the seeds alone, so that the seeds' turns go to pairs that can be linked.

The hybrid's specification is both parts' whole docstrings (`fused_docs.py`): the class docstring holds
each part's class docstring and the constructor's each part's constructor docstring, under "<Part> part:",
and every example builds the hybrid with the arguments both parts require.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import random
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import libcst as cst

from core.analysis.class_model import ClassModel, MethodModel, analyse
from core.analysis.cst_edit import WRAP_WIDTH, ClassEditor, EditError, _docstring_node
from core.analysis.python_need import requires_python
from core.analysis.skeleton import make_skeleton
from core.analysis.statements import documents_a_raise
from core.layout import Stage
from core.meanings import EVENT
from core.module_names import task_module_name
from core.records import Candidate, GeneratorSpec, Origin, Provenance, Rejection, RejectReason, SeedClass, content_hash
from core.scenarios import MAIN, Arg, Scenario, Step
from pipeline.corpus.classeval import imported
from pipeline.synthesis.config import ComposeConfig
from pipeline.synthesis.fused_docs import PartDocs, constructor_values, docstring_literal, evaluated_docstring
from pipeline.synthesis.jobs import JobFailed, error_rejection, never_fatal
from pipeline.synthesis.links import (Link, SeedLink, held_writers, in_hybrid, links_summary, returns_nothing, seed_links,
                                      weavable)
from pipeline.synthesis.observed_types import with_observed_types
from pipeline.synthesis.oracle import ScenarioRun
from pipeline.synthesis.own_kind import left_out_note, own_kind_methods
from pipeline.synthesis.stated_orders import unordered_methods
from pipeline.synthesis.testgen import MIN_TESTS, snake, synthesize_tests
from pipeline.synthesis.tracing import ArgumentPools, ObservedCall, harvest, replay_scenarios
from pipeline.synthesis.weaving import callers_told, link_method_source, weave
from validation.sandbox import SandboxPool

STAGE = Stage.COMPOSE


class CompositionError(Exception):
    """The two classes cannot be fused; the message says why."""


@dataclass(frozen=True)
class Part:
    """One half of a hybrid: its class name, its methods and its instance fields, by their hybrid names."""

    name: str
    methods: tuple[str, ...]
    fields: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"methods": list(self.methods), "fields": list(self.fields)}


@dataclass(frozen=True)
class Fusion:
    """A hybrid module and the maps the test synthesiser needs to reuse both halves' argument pools."""

    class_name: str
    module_name: str
    source: str
    method_map_b: dict[str, str]
    params_a: tuple[str, ...]
    params_b: dict[str, str]  # B's constructor parameter -> its name in the hybrid
    links: tuple[Link, ...]
    parts: tuple[Part, Part]
    left_out: tuple[str, ...] = ()  # "<Part>.<method>": part methods taking another instance of their class


class _Renamer(cst.CSTTransformer):
    """Renames `self.x`/`cls.x`/`Class.x` attributes, method definitions, module-level names and the
    class's own name, inside one class (and module-level statements of its module)."""

    def __init__(self, attrs: dict[str, str], names: dict[str, str]) -> None:
        self.attrs = attrs
        self.names = names

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        if isinstance(updated.value, cst.Name) and updated.value.value in ("self", "cls", *self.names.values()) \
                and original.attr.value in self.attrs:
            return updated.with_changes(attr=cst.Name(self.attrs[original.attr.value]))
        # `names` are variables (module-level names, constructor parameters), never attribute names: renaming
        # the parameter `seed` must leave `self.seed` alone, or `__init__` sets a field no other method reads
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)  # `random.Random(seed=seed)` keeps its keyword

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        if updated.value in self.names:
            return updated.with_changes(value=self.names[updated.value])
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if original.name.value in self.attrs:
            return updated.with_changes(name=cst.Name(self.attrs[original.name.value]))
        return updated


def _class_node(module: cst.Module, name: str) -> cst.ClassDef:
    for node in module.body:
        if isinstance(node, cst.ClassDef) and node.name.value == name:
            return node
    raise CompositionError(f"class {name} not found")


def _check_fusable(model: ClassModel, node: cst.ClassDef) -> None:
    if node.bases or node.keywords:
        raise CompositionError(f"{model.name} has base classes")
    if model.self_referencing:
        raise CompositionError(f"{model.name} builds new instances of itself")
    init = model.methods.get("__init__")
    if init is not None and not init.simple_signature:
        raise CompositionError(f"{model.name}.__init__ takes *args or **kwargs")
    if any(m.kind == "other" for m in model.methods.values()):
        raise CompositionError(f"{model.name} has decorated methods")


def chosen_links(a: SeedClass, model_a: ClassModel, b: SeedClass, model_b: ClassModel, rng: random.Random,
                 max_links: int, renames_b: dict[str, str]) -> list[Link]:
    """At most `max_links` links of the pair (`seed_links`), by their names in the hybrid (the second part's
    members renamed as `renames_b` says), no two sharing a producer or a consumer (except a log or a bus of
    events, which records what several operations report), woven ones first, in a
    seeded order. A link needs a query of the consumer's part that reads what the consumer writes (its
    observers: what a test checks after the value crossed; their arguments come from observed calls)."""
    usable: list[Link] = []
    for seed_link in seed_links(a, b, model_a, model_b):
        link = _hybrid_link(seed_link, (a, model_a), (b, model_b), renames_b)
        if link is not None:
            usable.append(link)
    rng.shuffle(usable)
    usable.sort(key=lambda link: not link.woven)
    links: list[Link] = []
    for link in usable:
        if any(link.producer == other.producer or link.call == other.call
               or (link.consumer == other.consumer and link.group != other.group)
               for other in links):  # a log or a bus takes the events of several operations, a series its values
            continue
        if len({other.group for other in links} | {link.group}) > max_links:
            continue
        links.append(link)
    return sorted(links, key=lambda link: link.call)


def _hybrid_link(seed_link: SeedLink, first: tuple[SeedClass, ClassModel], second: tuple[SeedClass, ClassModel],
                 renames_b: dict[str, str]) -> Link | None:
    """The link in the hybrid, woven when the producer allows it (`weavable`), or None when nothing of the
    consumer's part would show the value arriving."""
    (giver, giver_model), (taker, taker_model) = (first, second) if seed_link.forward else (second, first)
    to_hybrid_giver = {} if seed_link.forward else renames_b
    to_hybrid_taker = renames_b if seed_link.forward else {}
    consumer = taker_model.methods[seed_link.accepted.method]
    written = taker_model.reach(consumer.name)[1]
    observers = tuple(to_hybrid_taker.get(q, q) for q, m in taker_model.methods.items()
                      if q != consumer.name and _observes(taker_model, m) and taker_model.reach(q)[0] & written)
    if not observers:
        return None
    producer_node = _function_node(giver.source, giver.class_name, seed_link.produced.method)
    part_methods = tuple(m for m in giver_model.methods if m != "__init__")
    produced = seed_link.produced
    woven = weavable(producer_node, giver_model, part_methods, consumer, seed_link.accepted.parameter,
                     seed_link.given, reports=seed_link.accepted.unit == EVENT, names=bool(produced.event),
                     held=held_writers(giver.source, giver.class_name, giver_model))
    silent = returns_nothing(producer_node)
    if (silent or produced.value) and not woven:
        return None  # an operation that returns nothing, or hands on what it does not return, reports inside itself
    producer = to_hybrid_giver.get(produced.method, produced.method)
    call = producer if woven else f"{seed_link.accepted.verb}_{produced.name}"
    return Link(call=call, producer=producer, consumer=to_hybrid_taker.get(consumer.name, consumer.name),
                parameter=seed_link.accepted.parameter, source_part=giver.class_name, target_part=taker.class_name,
                observers=observers, woven=woven, produced=produced, accepted=seed_link.accepted,
                conversion=seed_link.conversion,
                supplied=tuple((name, in_hybrid(value, to_hybrid_giver)) for name, value in seed_link.supplied),
                condition=in_hybrid(produced.condition, to_hybrid_giver), value=in_hybrid(produced.value, to_hybrid_giver),
                returns_nothing=silent)


def _observes(model: ClassModel, method: MethodModel) -> bool:
    """A public method that changes nothing and returns a value: what a test reads before and after a value
    crosses (its arguments, if it takes any, come from observed calls)."""
    return (method.public and method.kind == "instance" and method.name not in model.mutators
            and method.simple_signature and method.returns_value and (method.returns or "") != "None")


def _function_node(source: str, class_name: str, name: str) -> ast.FunctionDef:
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name)


def fuse(a: SeedClass, b: SeedClass, rng: random.Random, max_links: int,
         observed_ctors: tuple[Sequence[ObservedCall], Sequence[ObservedCall]] = ((), ())) -> Fusion:
    """Fuse seed `a` and seed `b` into one hybrid class (raises CompositionError or EditError).

    `observed_ctors` are constructor calls of each seed's tests: values for the other part's required
    constructor arguments in a part's docstring examples when its own examples give none."""
    model_a, model_b = analyse(a.source, a.class_name), analyse(b.source, b.class_name)
    module_a, module_b = cst.parse_module(a.source), cst.parse_module(b.source)
    _check_fusable(model_a, _class_node(module_a, a.class_name))
    _check_fusable(model_b, _class_node(module_b, b.class_name))
    hybrid = a.class_name + b.class_name
    prefix = snake(b.class_name)
    attrs, module_renames = _second_part_renames(a, model_a, b, model_b, module_b, hybrid, prefix)
    renamed_b = module_b.visit(_Renamer(attrs, module_renames))
    class_b = _class_node(renamed_b, hybrid)
    class_a = _class_node(module_a.visit(_Renamer({}, {a.class_name: hybrid})), hybrid)
    init_a, init_b = model_a.methods.get("__init__"), model_b.methods.get("__init__")
    params_a = tuple(p.name for p in init_a.params) if init_a else ()
    params_b = _second_constructor_params(init_b, params_a, prefix)
    init_nodes = _constructor_nodes(class_a, class_b, params_b)
    docs_a, docs_b = _part_docs(a, model_a, b, model_b, hybrid, params_b, attrs, module_renames, observed_ctors)
    doc = _joined_docstring(
        f'Create the combined state: the {a.class_name} part from '
        f'{", ".join(f"``{p}``" for p in params_a) or "no arguments"}, the {b.class_name} part from '
        f'{", ".join(f"``{p}``" for p in params_b.values()) or "no arguments"}.',
        ((a.class_name, docs_a, init_a.docstring if init_a else None),
         (b.class_name, docs_b, init_b.docstring if init_b else None)), " " * 8)
    init = _hybrid_constructor(init_nodes, doc)
    renamed = ("Renamed from " + b.class_name + " to avoid clashes: " + ", ".join(
        f"``{old}`` -> ``{new}``" for old, new in sorted(attrs.items())) + ".") if attrs else ""
    left_out = [(a.class_name, m) for m in own_kind_methods(model_a)] + \
        [(b.class_name, attrs.get(m, m)) for m in own_kind_methods(model_b)]
    dropped = {m for _, m in left_out}
    taken = set(model_a.methods) | {attrs.get(m, m) for m in model_b.methods}
    links = _without_left_out([link for link in chosen_links(a, model_a, b, model_b, rng, max_links, attrs)
                               if link.woven or link.call not in taken], dropped)
    class_doc = _joined_docstring(
        textwrap.fill(links_summary(links) or f"{a.class_name} and {b.class_name} in one class.", WRAP_WIDTH - 4),
        ((a.class_name, docs_a, model_a.docstring or a.description),
         (b.class_name, docs_b, model_b.docstring or b.description)), " " * 4,
        "\n\n".join(filter(None, (renamed, textwrap.fill(left_out_note(hybrid, left_out), WRAP_WIDTH - 4)))))
    hybrid_class = _hybrid_class(hybrid, ((class_a, docs_a), (class_b, docs_b)), init, class_doc, dropped)
    source = _with_links(_hybrid_module(a, b, hybrid, module_a, renamed_b, hybrid_class), hybrid, links)
    compile(source, f"<{hybrid}>", "exec")
    module_name = task_module_name(snake(hybrid))
    parts = (_part(a.class_name, model_a, {}, dropped), _part(b.class_name, model_b, attrs, dropped))
    return Fusion(hybrid, module_name, source, {old: new for old, new in attrs.items() if old in model_b.methods},
                  params_a, params_b, tuple(links), parts, tuple(f"{part}.{m}" for part, m in left_out))


def _without_left_out(links: Sequence[Link], dropped: set[str]) -> list[Link]:
    """The links that neither produce nor consume through a left-out method, each without left-out observers
    (a link that no observer is left to show is dropped too)."""
    kept = []
    for link in links:
        observers = tuple(q for q in link.observers if q not in dropped)
        if link.producer not in dropped and link.consumer not in dropped and observers:
            kept.append(replace(link, observers=observers))
    return kept


def _with_links(source: str, hybrid: str, links: Sequence[Link]) -> str:
    """The hybrid with its woven links written into their producers and its link methods appended."""
    for link in links:
        if link.woven:
            node = _function_node(source, hybrid, link.producer)
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {a.arg for a in ast.walk(node)
                                                                                  if isinstance(a, ast.arg)}
            consumer = analyse(source, hybrid).methods[link.consumer]
            source = weave(source, hybrid, link, names, documents_a_raise(consumer.docstring or ""))
    source = _callers_told(source, hybrid, [link for link in links if link.woven])
    methods = [link for link in links if not link.woven]
    if methods:
        model = analyse(source, hybrid)
        editor = ClassEditor(source, hybrid)
        editor.append_methods("\n".join(link_method_source(link, model.methods[link.producer],
                                                            model.methods[link.consumer]) for link in methods))
        source = editor.code()
    return source


def _callers_told(source: str, hybrid: str, woven: Sequence[Link]) -> str:
    """The hybrid with a sentence in each method that calls woven producers (a conversion that withdraws and
    deposits): their values reach the consumer through these calls too, in the order the calls are made."""
    model = analyse(source, hybrid)
    told: dict[str, list[Link]] = {}
    for name, method in model.methods.items():
        node = _function_node(source, hybrid, name)
        text = ast.unparse(node)
        called = [link for link in woven if link.producer in method.calls and name not in (link.producer, "__init__")]
        if called:
            told[name] = sorted(called, key=lambda link: text.find(f"self.{link.producer}("))
    return callers_told(source, hybrid, told) if told else source


def _second_part_renames(a: SeedClass, model_a: ClassModel, b: SeedClass, model_b: ClassModel,
                         module_b: cst.Module, hybrid: str, prefix: str) -> tuple[dict[str, str], dict[str, str]]:
    """The second part's members and module-level names that clash with the first's, renamed under the
    second class's prefix (members) or its capitalised name (module names); its own class becomes the
    hybrid. An imported name is left alone: renaming it would break the import."""
    taken_a = set(model_a.methods) | set(model_a.fields) | set(model_a.class_attributes)
    attrs: dict[str, str] = {}
    for name in list(model_b.methods) + list(model_b.fields) + list(model_b.class_attributes):
        if name.startswith("__") or name in attrs:
            continue
        if name in taken_a:
            attrs[name] = ("_" if name.startswith("_") else "") + prefix + "_" + name.lstrip("_")
    module_renames: dict[str, str] = {b.class_name: hybrid}
    a_names = set(model_a.module_names) | {a.class_name}
    for name in model_b.module_names:
        if name in a_names and name not in _imported_names(module_b):
            module_renames[name] = "".join(w.capitalize() for w in prefix.split("_")) + name
    return attrs, module_renames


def _second_constructor_params(init_b: MethodModel | None, params_a: tuple[str, ...], prefix: str) -> dict[str, str]:
    """The second part's constructor parameters by their names in the hybrid (prefixed where the first
    part's constructor takes the same name)."""
    params_b: dict[str, str] = {}
    for p in init_b.params if init_b else ():
        params_b[p.name] = p.name if p.name not in params_a else f"{prefix}_{p.name}"
    return params_b


def _constructor_nodes(class_a: cst.ClassDef, class_b: cst.ClassDef,
                       params_b: dict[str, str]) -> dict[str, cst.FunctionDef]:
    """Each part's constructor ("a", "b"; a part without one is absent), the second with its parameters
    renamed as in the hybrid."""
    init_nodes = {}
    for label, cls in (("a", class_a), ("b", class_b)):
        for statement in cls.body.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
                init_nodes[label] = statement
    if any(new != old for old, new in params_b.items()) and "b" in init_nodes:
        param_renamer = _Renamer({}, {old: new for old, new in params_b.items() if old != new})
        init_nodes["b"] = init_nodes["b"].visit(param_renamer)
    return init_nodes


def _hybrid_constructor(init_nodes: dict[str, cst.FunctionDef], doc: str) -> cst.FunctionDef:
    """One constructor taking the first part's parameters then the second's, required before defaulted
    (else the hybrid would not parse), running both bodies without their docstrings and bare `pass`es."""
    params: list[cst.Param] = []
    kwonly: list[cst.Param] = []
    for label in ("a", "b"):
        node = init_nodes.get(label)
        if node is None:
            continue
        if node.params.posonly_params:
            raise CompositionError("positional-only constructor parameters")
        params += list(node.params.params[1:])
        kwonly += list(node.params.kwonly_params)
    params = [p for p in params if p.default is None] + [p for p in params if p.default is not None]
    params = [p.with_changes(comma=cst.MaybeSentinel.DEFAULT) for p in params]
    self_param = cst.Param(cst.Name("self"))
    init_body: list[cst.BaseStatement] = []
    for label in ("a", "b"):
        node = init_nodes.get(label)
        if node is None:
            continue
        statements = list(node.body.body)
        if _docstring_node(node.body) is not None:
            statements = statements[1:]
        init_body += [s for s in statements if not (isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Pass))]
    return cst.FunctionDef(
        name=cst.Name("__init__"),
        params=cst.Parameters(params=[self_param, *params], kwonly_params=kwonly,
                              star_arg=cst.ParamStar() if kwonly else cst.MaybeSentinel.DEFAULT),
        body=cst.IndentedBlock(body=[cst.SimpleStatementLine([cst.Expr(cst.SimpleString(doc))]), *init_body]),
        returns=cst.Annotation(cst.Name("None")),
    )


def _hybrid_class(hybrid: str, parts: Sequence[tuple[cst.ClassDef, PartDocs]], init: cst.FunctionDef,
                  class_doc: str, dropped: set[str]) -> cst.ClassDef:
    """The hybrid class: its docstring, both parts' members with their docstrings rewritten for the hybrid
    (the parts' own class docstrings and constructors left out, and the `dropped` methods, which take another
    instance of their part's class), the joined constructor before the first method."""
    members: list[cst.BaseStatement] = []
    for cls, docs in parts:
        for statement in cls.body.body:
            if isinstance(statement, cst.FunctionDef):
                statement = _with_docstring_rewritten(statement, docs)
            if statement is cls.body.body[0] and _docstring_node(cls.body) is not None:
                continue
            if isinstance(statement, cst.FunctionDef) and statement.name.value in ("__init__", *dropped):
                continue
            members.append(statement)
    first_method = next((i for i, s in enumerate(members) if isinstance(s, cst.FunctionDef)), len(members))
    members.insert(first_method, init.with_changes(leading_lines=(cst.EmptyLine(indent=False),)))
    members = [m.with_changes(leading_lines=(cst.EmptyLine(indent=False),)) if isinstance(m, cst.FunctionDef) else m
               for m in members]
    members.insert(0, cst.SimpleStatementLine([cst.Expr(cst.SimpleString(class_doc))]))
    return cst.ClassDef(name=cst.Name(hybrid), body=cst.IndentedBlock(body=members),
                        leading_lines=(cst.EmptyLine(indent=False), cst.EmptyLine(indent=False)))


def _hybrid_module(a: SeedClass, b: SeedClass, hybrid: str, module_a: cst.Module, renamed_b: cst.Module,
                   hybrid_class: cst.ClassDef) -> str:
    """The hybrid's module: a docstring, the imports of both (once each, `__future__` first, or it would not
    compile), the other top-level statements of both, then the hybrid class."""
    imports: list[cst.BaseStatement] = []
    seen_imports: set[str] = set()
    others: list[cst.BaseStatement] = []
    for module in (module_a, renamed_b):
        for statement in module.body:
            if isinstance(statement, cst.ClassDef) and statement.name.value in (hybrid, a.class_name):
                continue
            if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], (cst.Import, cst.ImportFrom)):
                code = cst.Module([]).code_for_node(statement).strip()
                if code not in seen_imports:
                    seen_imports.add(code)
                    imports.append(statement.with_changes(leading_lines=()))
                continue
            if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Expr) \
                    and isinstance(statement.body[0].value, cst.SimpleString):
                continue  # module docstrings
            others.append(statement.with_changes(leading_lines=(cst.EmptyLine(indent=False), cst.EmptyLine(indent=False)))
                          if isinstance(statement, (cst.ClassDef, cst.FunctionDef)) else statement)
    future = [s for s in imports if isinstance(s.body[0], cst.ImportFrom) and cst.Module([]).code_for_node(s.body[0].module or cst.Name("x")) == "__future__"]
    imports = future + [s for s in imports if s not in future]
    header = cst.SimpleStatementLine([cst.Expr(cst.SimpleString(
        f'"""{hybrid}: the {a.class_name} ({a.domain}) and {b.class_name} ({b.domain}) classes fused into one."""'))])
    body = [header]
    if imports:
        body += [imports[0].with_changes(leading_lines=(cst.EmptyLine(indent=False),))] + imports[1:]
    body += others + [hybrid_class]
    return cst.Module(body=body).code


def _part(name: str, model: ClassModel, renames: dict[str, str], dropped: set[str]) -> Part:
    """A seed's half of the hybrid, by the names its members have there (without the `dropped` methods)."""
    fields = list(model.fields) + sorted(model.fields_written_outside_init())
    return Part(name, tuple(renames.get(m, m) for m in model.methods
                            if m != "__init__" and renames.get(m, m) not in dropped),
                tuple(dict.fromkeys(renames.get(f, f) for f in fields)))


def _part_docs(a: SeedClass, model_a: ClassModel, b: SeedClass, model_b: ClassModel, hybrid: str,
               params_b: dict[str, str], attrs: dict[str, str], module_renames: dict[str, str],
               observed: tuple[Sequence[ObservedCall], Sequence[ObservedCall]]) -> tuple[PartDocs, PartDocs]:
    """How each part's docstrings become the hybrid's: the second part's renames, and for each part's
    examples the other part's required constructor arguments (by their names in the hybrid)."""
    def init_params(model: ClassModel) -> tuple[tuple[str, ...], tuple[str, ...]]:
        init = model.methods.get("__init__")
        params = init.params if init else ()
        return tuple(p.name for p in params), tuple(p.name for p in params if not p.has_default)

    def required_values(seed: SeedClass, model: ClassModel, calls: Sequence[ObservedCall],
                        names: dict[str, str]) -> tuple[tuple[str, str], ...]:
        params, required = init_params(model)
        values = constructor_values(seed.source, seed.class_name, params, required,
                                    [(c.args, c.kwargs) for c in calls])
        return tuple((names.get(p, p), values[p]) for p in required if p in values)

    params_a, _ = init_params(model_a)
    params_of_b, _ = init_params(model_b)
    names_b = {old: new for old, new in module_renames.items() if old != b.class_name}
    docs_a = PartDocs(a.class_name, hybrid, params_a,
                      others=required_values(b, model_b, observed[1], params_b))
    docs_b = PartDocs(b.class_name, hybrid, params_of_b, params={o: n for o, n in params_b.items() if o != n},
                      members=attrs, methods=frozenset(model_b.methods), names=names_b,
                      others=required_values(a, model_a, observed[0], {}))
    return docs_a, docs_b


def _joined_docstring(summary: str, parts: Sequence[tuple[str, PartDocs, str | None]], indent: str,
                      closing: str = "") -> str:
    """A hybrid docstring: a summary line, then each part's whole docstring (rewritten for the hybrid)
    under "<Part> part:", then `closing`; as a literal whose continuation lines carry `indent`."""
    paragraphs = [summary]
    for name, docs, text in parts:
        if text and text.strip():
            paragraphs.append(f"{name} part: " + docs.rewrite(inspect.cleandoc(text), constructor=True))
    if closing:
        paragraphs.append(closing)
    return docstring_literal("\n\n".join(paragraphs), indent)


def _with_docstring_rewritten(method: cst.FunctionDef, docs: PartDocs) -> cst.FunctionDef:
    """The method with its docstring rewritten for the hybrid (unchanged when nothing needs rewriting)."""
    node = _docstring_node(method.body)
    text = evaluated_docstring(node) if node is not None else None
    if text is None:
        return method
    rewritten = docs.rewrite(text)
    if rewritten == text:
        return method
    indent = " " * 8  # a method of a top-level class
    first = method.body.body[0]
    new_first = first.with_changes(body=[cst.Expr(cst.SimpleString(docstring_literal(rewritten, indent)))])
    return method.with_changes(body=method.body.with_changes(body=[new_first, *method.body.body[1:]]))


def _imported_names(module: cst.Module) -> set[str]:
    names: set[str] = set()
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        target = alias.asname.name if alias.asname else alias.name
                        names.add(cst.Module([]).code_for_node(target).split(".")[0])
    return names


def _as_kwargs(call: ObservedCall | None, names: Sequence[str], rename: dict[str, str] | None = None) -> list[tuple[str, str]]:
    if call is None:
        return []
    out = [(names[i], v) for i, v in enumerate(call.args) if i < len(names)]
    out += list(call.kwargs)
    return [((rename or {}).get(k, k), v) for k, v in out]


def merged_pools(fusion: Fusion, pools_a: ArgumentPools, pools_b: ArgumentPools) -> ArgumentPools:
    """Pools of the hybrid: constructor calls combine one observed call of each half (as keywords),
    replays interleave one replay of each half; B's methods carry their hybrid names."""
    b = pools_b.renamed(fusion.method_map_b)
    b_names = list(fusion.params_b)
    ctors_a = pools_a.ctors or [None]
    ctors_b = b.ctors or [None]
    merged = ArgumentPools()
    count = max(len(ctors_a), len(ctors_b))
    for i in range(count):
        kwargs = _as_kwargs(ctors_a[i % len(ctors_a)], fusion.params_a) + _as_kwargs(ctors_b[i % len(ctors_b)], b_names, fusion.params_b)
        merged.ctors.append(ObservedCall("__init__", (), tuple(kwargs)))
    absent = {name.split(".", 1)[1] for name in fusion.left_out}  # calls of a left-out method have no target
    merged.calls = {m: cs for m, cs in {**pools_a.calls, **b.calls}.items() if m not in absent}
    replays_a, replays_b = pools_a.replays, b.replays
    for i in range(max(len(replays_a), len(replays_b))):
        ctor_a, seq_a = replays_a[i % len(replays_a)] if replays_a else (None, [])
        ctor_b, seq_b = replays_b[i % len(replays_b)] if replays_b else (None, [])
        kwargs = _as_kwargs(ctor_a, fusion.params_a) + _as_kwargs(ctor_b, b_names, fusion.params_b)
        merged.replays.append((ObservedCall("__init__", (), tuple(kwargs)),
                               [c for c in list(seq_a) + list(seq_b) if c.method not in absent]))
    return merged


def _observed(call: ObservedCall | None, method: MethodModel) -> dict[str, str] | None:
    """An observed call's arguments by parameter name (None when there is no call)."""
    if call is None:
        return None
    names = [p.name for p in method.params if p.kind == "positional"]
    return {**dict(zip(names, call.args)), **dict(call.kwargs)}


def link_scenarios(fusion: Fusion, model: ClassModel, pools: ArgumentPools, rng: random.Random) -> list[Scenario]:
    """For each link and up to five of its observers, scenarios that show its flow: the producing part's
    observed calls (its state), then the observer, the link's call (the woven operation, or the link
    method), and the observer again, so that the test asserts the consuming part's result before and after
    the value crossed (`shows_the_flow` keeps only the runs where it changed). Where a replay of the
    producing part's tests calls the producer, the state is what came before that call and the producer
    gets that call's arguments: values that make sense in that state (a deal that exists, a cell on the
    grid), where arguments drawn from elsewhere would often only raise."""
    out: list[Scenario] = []
    bases = replay_scenarios(pools)
    for link in fusion.links:
        part = next(p for p in fusion.parts if p.name == link.source_part)
        observers = rng.sample(link.observers, min(5, len(link.observers)))
        # replays that call the producer, then those that change the producing part most
        ranked = sorted(bases, key=lambda b: (-any(s.method == link.producer for s in b.steps),
                                              -sum(s.method in part.methods and s.method in model.mutators
                                                   for s in b.steps)))
        for observer, base in itertools.product(observers, ranked[:3]):
            state = [s for s in base.steps if s.method in part.methods and all(a.literal is not None for a in s.args)
                     and all(v.literal is not None for _, v in s.kwargs)]
            calls = [i for i, s in enumerate(state) if s.method == link.producer]
            given = _observed_step(state[calls[-1]], model.methods[link.producer]) if calls else None
            state = state[:calls[-1]] if calls else state
            args = _link_arguments(link, model, pools, rng, given)
            if args is None:
                continue
            look = _observer_arguments(model.methods[observer], args, model.methods[link.call], pools, rng)
            if look is None:
                continue
            steps = state + [Step(MAIN, observer, look), Step(MAIN, link.call, args), Step(MAIN, observer, look)]
            out.append(base.with_steps(steps, title=f"{link.call}_changes_{observer}", origin=BRIDGE,
                                       focus=(link.call, observer)))
    return out


def _observed_step(step: Step, method: MethodModel) -> dict[str, str]:
    """A replayed call's literal arguments by parameter name."""
    names = [p.name for p in method.params if p.kind == "positional"]
    values = {name: arg.literal for name, arg in zip(names, step.args) if arg.literal is not None}
    return {**values, **{k: v.literal for k, v in step.kwargs if v.literal is not None}}


def _observer_arguments(observer: MethodModel, args: tuple[Arg, ...], call: MethodModel, pools: ArgumentPools,
                        rng: random.Random) -> tuple[Arg, ...] | None:
    """Arguments for an observer: a parameter named as one of the link call's takes the same value (the
    actor whose entries are read is the one the link appended for), the others come from observed calls;
    None when some cannot be given."""
    passed = {p.name: a for p, a in zip((p for p in call.params if not p.has_default), args)}
    if not observer.required_params:
        return ()
    seen = _observed(pools.sample(observer.name, rng), observer) or {}
    out = []
    for p in observer.required_params:
        if p.name in passed:
            out.append(passed[p.name])
        elif p.name in seen:
            out.append(Arg(literal=seen[p.name]))
        else:
            return None
    return tuple(out)


def _link_arguments(link: Link, model: ClassModel, pools: ArgumentPools, rng: random.Random,
                    given: dict[str, str] | None = None) -> tuple[Arg, ...] | None:
    """Arguments for the link's call: the producer's required ones (from the replayed call `given`, else
    from observed calls), then (for a link method) the consumer's other required ones; None when no
    observed call gives them all."""
    producer, consumer = model.methods[link.producer], model.methods[link.consumer]
    own = given if given is not None else (
        _observed(pools.sample(link.producer, rng), producer) if producer.required_params else {})
    rest = [] if link.woven else [p for p in consumer.params if p.name != link.parameter
                                  and p.name not in link.given and not p.has_default]
    other = _observed(pools.sample(link.consumer, rng), consumer) if rest else {}
    if own is None or other is None or any(p.name not in own for p in producer.required_params) \
            or any(p.name not in other for p in rest):
        return None
    return tuple(Arg(literal=own[p.name]) for p in producer.required_params) + \
        tuple(Arg(literal=other[p.name]) for p in rest)


BRIDGE = "bridge"
"""Origin of the scenarios `link_scenarios` makes."""


def shows_the_flow(run: ScenarioRun) -> bool:
    """A link scenario's run shows its flow when the observer's outcome after the link's call differs from
    its outcome before (a stable value or an exception type); other runs are not concerned."""
    if run.scenario.origin != BRIDGE:
        return True
    if len(run.steps) != len(run.scenario.steps):  # the run stopped early (an argument could not be built)
        return False
    before, after = run.steps[-3], run.steps[-1]
    if any(s.get("unstable") or s["kind"] not in ("return", "raise") for s in (before, after)):
        return False
    def seen(step: dict[str, Any]) -> tuple[Any, ...]:
        return step["kind"], step.get("literal"), step.get("exc")

    return seen(before) != seen(after)


_POOL_CACHE: dict[str, ArgumentPools] = {}


def pools_for(seed: SeedClass, *, pool: SandboxPool) -> ArgumentPools:
    """Argument pools of a seed, harvested once per process and seed content (raises JobFailed)."""
    key = content_hash(seed.source, seed.tests, seed.class_name)
    if key not in _POOL_CACHE:
        public = {m.name for m in analyse(seed.source, seed.class_name).public_methods()}
        _POOL_CACHE[key] = harvest(pool, source=seed.source, tests=seed.tests, module=seed.module_name,
                                   class_name=seed.class_name, public=public)
    return _POOL_CACHE[key]


def _newest_date(a: SeedClass, b: SeedClass) -> str | None:
    """A hybrid is as new as its newer source: the date an evaluator's cut-off must compare against."""
    dates = [d for d in (a.provenance.first_commit_date, b.provenance.first_commit_date) if d]
    return max(dates) if dates else None


def _rejection(a: SeedClass, b: SeedClass, rng_seed: int, detail: str,
               reason: RejectReason = RejectReason.GENERATION_FAILED, **evidence: Any) -> Rejection:
    return Rejection(candidate_id="cmp-" + content_hash(a.seed_id, b.seed_id, rng_seed), stage=STAGE,
                     reason=reason, detail=detail[:300],
                     evidence={"seed_ids": [a.seed_id, b.seed_id], "rng_seed": rng_seed, **evidence})


NO_LINK = ("no meaningful link: nothing one part produces has the meaning and unit of something the other part "
           "consumes, with a query of the consuming part showing it arrive")
"""Why a pair is not composed when `chosen_links` finds nothing (the pair's rejection detail)."""


def compose_pair(a: SeedClass, b: SeedClass, config: ComposeConfig, *, pool: SandboxPool) -> Candidate | Rejection:
    rng = random.Random(f"{config.rng_seed}:{a.seed_id}+{b.seed_id}")
    try:
        pools_a, pools_b = pools_for(a, pool=pool), pools_for(b, pool=pool)
    except JobFailed as exc:
        return _rejection(a, b, config.rng_seed, f"sandbox job failed: {exc}")
    try:
        # where a seed has no type hints (a ClassEval-style corpus), links are found on observed types
        fusion = fuse(with_observed_types(a, pools_a), with_observed_types(b, pools_b), rng, config.max_links,
                      (pools_a.ctors, pools_b.ctors))
    except (CompositionError, EditError, SyntaxError, LookupError) as exc:
        return _rejection(a, b, config.rng_seed, f"fusion failed: {exc}")
    if not fusion.links:
        # Two halves that never exchange a value are two tasks in one class, not a composition.
        return _rejection(a, b, config.rng_seed, NO_LINK, RejectReason.INCOHERENT_FUSION, skipped="no_link")
    try:
        pools = merged_pools(fusion, pools_a, pools_b)
        model = analyse(fusion.source, fusion.class_name)
        extra = link_scenarios(fusion, model, pools, rng)
        unordered = (unordered_methods(fusion.source, fusion.class_name) if imported(a) or imported(b)
                     else frozenset())
        result = synthesize_tests(pool, source=fusion.source, module=fusion.module_name, model=model, pools=pools,
                                  extra=extra, rng=rng, max_tests=config.max_tests, shows=shows_the_flow,
                                  unordered=unordered)
    except JobFailed as exc:
        return _rejection(a, b, config.rng_seed, f"sandbox job failed: {exc}")
    if result.tests < MIN_TESTS:
        return _rejection(a, b, config.rng_seed, f"only {result.tests} tests written", **result.defects_recorded())
    return Candidate(
        candidate_id=Candidate.make_id(fusion.class_name, fusion.source, result.test_code),
        class_name=fusion.class_name,
        module_name=fusion.module_name,
        domains=(a.domain, b.domain),
        description=" ".join([a.description, links_summary(fusion.links), b.description]),
        skeleton=make_skeleton(fusion.source, fusion.class_name),
        solution_code=fusion.source,
        test_code=result.test_code,
        origin=Origin.COMPOSED,
        provenance=Provenance(seed_ids=(a.seed_id, b.seed_id),
                              transforms=("compose",) + tuple(_link_label(link) for link in fusion.links),
                              rng_seed=config.rng_seed, source="offline composition of two seeds",
                              first_commit_date=_newest_date(a, b)),
        generator=GeneratorSpec(backend="offline", parameters={
            "stage": STAGE, "links": [_link_label(link) for link in fusion.links],
            "scenarios_run": result.scenarios_run,
            # the gate's seam check (validation/seam.py) reads which members belong to which part
            "parts": {part.name: part.to_json() for part in fusion.parts},
            # part methods the hybrid does not have: each takes another instance of its part's class (`own_kind.py`)
            "left_out": list(fusion.left_out), **result.defects_recorded()}),
        requires_python=requires_python(fusion.source, result.test_code),
    )


def _link_label(link: Link) -> str:
    """How a link is named in provenance: woven into its producer, or a method; with what it carries."""
    kind = "woven" if link.woven else "link"
    return f"{kind}:{link.call}:{link.produced.meaning}->{link.consumer}"


def compose_guarded(pair: tuple[SeedClass, SeedClass], config: ComposeConfig, *,
                    pool: SandboxPool) -> list[Candidate | Rejection]:
    """One pair's candidate (or rejection), such that the pair never ends the stage: an unexpected error
    becomes its `internal_error` rejection. The work for one item of the compose stage (`pipeline/stages/synthesis.py`)."""
    def failed(pair: tuple[SeedClass, SeedClass], exc: Exception) -> Rejection:
        a, b = pair
        return error_rejection("cmp-" + content_hash(a.seed_id, b.seed_id, "error", config.rng_seed), STAGE, exc,
                               seed_ids=[a.seed_id, b.seed_id], rng_seed=config.rng_seed)

    return never_fatal(lambda item: [compose_pair(*item, config, pool=pool)], failed)(pair)
