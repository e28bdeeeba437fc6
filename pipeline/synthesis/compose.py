"""Stage 2, offline: fuse two classes from different domains into one hybrid class.

The hybrid keeps every field and method of both classes. Names of the second class that collide with the
first's (methods, fields, class attributes, constructor parameters, module-level names) are renamed with
the second class's snake-case name as prefix, everywhere in the second class's code, so behaviour is
unchanged. Bridge methods then connect the two halves where a method of one returns the type that a
method of the other takes first (from the type hints): the data flows from one domain's logic into the
other's, and the docstring says so.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst

from pipeline.analysis.python_need import requires_python
from pipeline.records import Candidate, GeneratorSpec, Origin, Provenance, Rejection, RejectReason, SeedClass, content_hash
from pipeline.analysis.class_model import ClassModel, MethodModel, analyse
from pipeline.synthesis.config import ComposeConfig
from pipeline.synthesis.cst_edit import ClassEditor, EditError, _docstring_node
from pipeline.synthesis.jobs import JobFailed, error_rejection, in_order, never_fatal
from pipeline.synthesis.pairing import pair_seeds
from pipeline.synthesis.scenarios import Arg, Scenario, Step
from pipeline.synthesis.testgen import MIN_TESTS, snake, synthesize_tests
from pipeline.synthesis.tracing import ArgumentPools, ObservedCall, harvest, replay_scenarios

STAGE = "compose"


class CompositionError(Exception):
    """The two classes cannot be fused; the message says why."""


@dataclass(frozen=True)
class Bridge:
    name: str
    source: str  # method of one half whose result is passed on
    target: str  # method of the other half that receives it first
    type: str


@dataclass(frozen=True)
class Fusion:
    """A hybrid module and the maps the test synthesiser needs to reuse both halves' argument pools."""

    class_name: str
    module_name: str
    source: str
    method_map_b: dict[str, str]
    params_a: tuple[str, ...]
    params_b: dict[str, str]  # B's constructor parameter -> its name in the hybrid
    bridges: tuple[Bridge, ...]


class _Renamer(cst.CSTTransformer):
    """Renames `self.x`/`cls.x`/`Class.x` attributes, method definitions, module-level names and the
    class's own name, inside one class (and module-level statements of its module)."""

    def __init__(self, attrs: dict[str, str], names: dict[str, str]) -> None:
        self.attrs = attrs
        self.names = names

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        if isinstance(updated.value, cst.Name) and updated.value.value in ("self", "cls", *self.names.values()) \
                and updated.attr.value in self.attrs:
            return updated.with_changes(attr=cst.Name(self.attrs[updated.attr.value]))
        return updated

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


def _normal_type(annotation: str | None) -> str | None:
    if annotation is None:
        return None
    text = annotation.replace(" ", "").replace("List[", "list[").replace("Dict[", "dict[").replace("Tuple[", "tuple[")
    return None if text in ("None", "object", "Any", "") or "None" in text.split("|") else text


def find_bridges(a: ClassModel, b: ClassModel, b_map: dict[str, str], taken: set[str]) -> list[Bridge]:
    """Every (source, target) pair across the halves whose return type equals the target's first
    parameter type, both ways, with a name free in the hybrid."""
    out: list[Bridge] = []

    def scan(first: ClassModel, second: ClassModel, first_map: dict[str, str], second_map: dict[str, str]) -> None:
        for source in first.public_methods():
            produced = _normal_type(source.returns)
            if produced is None or not source.simple_signature:
                continue
            for target in second.public_methods():
                if not target.simple_signature or not target.params or target.params[0].kind != "positional":
                    continue
                if _normal_type(target.params[0].annotation) != produced:
                    continue
                s_name, t_name = first_map.get(source.name, source.name), second_map.get(target.name, target.name)
                name = f"{t_name}_from_{s_name}"
                if name in taken or len(name) > 48:
                    continue
                out.append(Bridge(name, s_name, t_name, produced))

    scan(a, b, {}, b_map)
    scan(b, a, b_map, {})
    return sorted(out, key=lambda br: br.name)


def _bridge_source(bridge: Bridge, source: MethodModel, target: MethodModel) -> str:
    used = {p.name for p in source.params}
    rest = []
    for p in target.params[1:]:
        name = p.name if p.name not in used else f"{p.name}_for_{target.name.lstrip('_')}"
        rest.append((p, name))
        used.add(name)

    def param(p: Any, name: str) -> str:
        text = name + (f": {p.annotation}" if p.annotation else "")
        return text

    required = [param(p, p.name) for p in source.params if not p.has_default] + [param(p, n) for p, n in rest if not p.has_default]
    signature = ", ".join(["self"] + required)
    call_source = ", ".join(p.name for p in source.params if not p.has_default)
    call_target = ", ".join(["value"] + [n for p, n in rest if not p.has_default])
    returns = f" -> {target.returns}" if target.returns else ""
    params_doc = "\n".join([f":param {p.name}: passed to ``{bridge.source}``." for p in source.params if not p.has_default]
                           + [f":param {n}: passed to ``{bridge.target}``." for p, n in rest if not p.has_default]
                           + [f":return: what ``{bridge.target}`` returns."])
    doc_params = "\n\n    " + params_doc.replace("\n", "\n    ")
    return f'''
def {bridge.name}({signature}){returns}:
    """Call ``{bridge.source}`` and pass the ``{bridge.type}`` it returns as the first argument of ``{bridge.target}``.

    Data flows from one half of the class into the other: whatever ``{bridge.source}`` changes or reports
    is what ``{bridge.target}`` receives. Errors of either call propagate unchanged; if
    ``{bridge.target}`` raises, the effects of ``{bridge.source}`` remain.{doc_params}
    """
    value = self.{bridge.source}({call_source})
    return self.{bridge.target}({call_target})
'''


def fuse(a: SeedClass, b: SeedClass, rng: random.Random, max_bridges: int) -> Fusion:
    """Fuse seed `a` and seed `b` into one hybrid class (raises CompositionError or EditError)."""
    model_a, model_b = analyse(a.source, a.class_name), analyse(b.source, b.class_name)
    module_a, module_b = cst.parse_module(a.source), cst.parse_module(b.source)
    class_a, class_b = _class_node(module_a, a.class_name), _class_node(module_b, b.class_name)
    _check_fusable(model_a, class_a)
    _check_fusable(model_b, class_b)
    hybrid = a.class_name + b.class_name
    prefix = snake(b.class_name)
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
    renamed_b = module_b.visit(_Renamer(attrs, module_renames))
    class_b = _class_node(renamed_b, hybrid)
    class_a = _class_node(module_a.visit(_Renamer({}, {a.class_name: hybrid})), hybrid)
    init_a = model_a.methods.get("__init__")
    init_b = model_b.methods.get("__init__")
    params_a = tuple(p.name for p in init_a.params) if init_a else ()
    params_b: dict[str, str] = {}
    for p in init_b.params if init_b else ():
        params_b[p.name] = p.name if p.name not in params_a else f"{prefix}_{p.name}"
    if any(new != old for old, new in params_b.items()):
        param_renamer = _Renamer({}, {old: new for old, new in params_b.items() if old != new})
    else:
        param_renamer = None
    # constructor: A's parameters then B's, required before defaulted
    init_nodes = {}
    for label, cls in (("a", class_a), ("b", class_b)):
        for statement in cls.body.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
                init_nodes[label] = statement
    if param_renamer is not None and "b" in init_nodes:
        init_nodes["b"] = init_nodes["b"].visit(param_renamer)
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
    raises = _raises_clauses(init_a.docstring if init_a else None, {}) + _raises_clauses(
        init_b.docstring if init_b else None, params_b)
    doc = (f'"""Create the combined state: the {a.class_name} part from '
           f'{", ".join(f"``{p}``" for p in params_a) or "no arguments"}, the {b.class_name} part from '
           f'{", ".join(f"``{p}``" for p in params_b.values()) or "no arguments"}.'
           + ("\n\n" + "\n".join(" " * 8 + line for line in raises) + "\n" + " " * 8 if raises else "") + '"""')
    init = cst.FunctionDef(
        name=cst.Name("__init__"),
        params=cst.Parameters(params=[self_param, *params], kwonly_params=kwonly,
                              star_arg=cst.ParamStar() if kwonly else cst.MaybeSentinel.DEFAULT),
        body=cst.IndentedBlock(body=[cst.SimpleStatementLine([cst.Expr(cst.SimpleString(doc))]), *init_body]),
        returns=cst.Annotation(cst.Name("None")),
    )
    members: list[cst.BaseStatement] = []
    for cls in (class_a, class_b):
        for statement in cls.body.body:
            if statement is cls.body.body[0] and _docstring_node(cls.body) is not None:
                continue
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
                continue
            members.append(statement)
    first_method = next((i for i, s in enumerate(members) if isinstance(s, cst.FunctionDef)), len(members))
    members.insert(first_method, init.with_changes(leading_lines=(cst.EmptyLine(indent=False),)))
    members = [m.with_changes(leading_lines=(cst.EmptyLine(indent=False),)) if isinstance(m, cst.FunctionDef) else m
               for m in members]
    doc_a = (model_a.docstring or a.description).split("\n\n")[0].strip()
    doc_b = (model_b.docstring or b.description).split("\n\n")[0].strip()
    class_doc = (f'"""{a.class_name} and {b.class_name} in one class, sharing one instance.\n\n'
                 f"    {a.class_name} part: {_one_line(doc_a)}\n\n    {b.class_name} part: {_one_line(doc_b)}")
    if attrs:
        class_doc += "\n\n    Renamed from " + b.class_name + " to avoid clashes: " + ", ".join(
            f"``{old}`` -> ``{new}``" for old, new in sorted(attrs.items())) + "."
    class_doc += '\n    """'
    members.insert(0, cst.SimpleStatementLine([cst.Expr(cst.SimpleString(class_doc))]))
    hybrid_class = cst.ClassDef(name=cst.Name(hybrid), body=cst.IndentedBlock(body=members),
                                leading_lines=(cst.EmptyLine(indent=False), cst.EmptyLine(indent=False)))
    # module: docstring, imports of both, other top-level statements of both, then the hybrid class
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
    source = cst.Module(body=body).code
    model_h = analyse(source, hybrid)
    candidates = find_bridges(model_a, model_b, attrs, set(model_h.methods))
    rng.shuffle(candidates)
    bridges: list[Bridge] = []
    for bridge in candidates:
        if len(bridges) >= max_bridges:
            break
        if any(bridge.source == b2.source or bridge.target == b2.target for b2 in bridges):
            continue
        bridges.append(bridge)
    bridges.sort(key=lambda br: br.name)
    if bridges:
        editor = ClassEditor(source, hybrid)
        editor.append_methods("\n".join(_bridge_source(br, model_h.methods[br.source], model_h.methods[br.target]) for br in bridges))
        editor.extend_class_docstring("Bridges between the two parts: " + ", ".join(
            f"``{br.name}`` ({br.source} -> {br.target})" for br in bridges) + ".")
        source = editor.code()
    source = _examples_name_the_hybrid(source, (a.class_name, b.class_name), hybrid)
    compile(source, f"<{hybrid}>", "exec")
    module_name = snake(hybrid)
    return Fusion(hybrid, module_name, source, {old: new for old, new in attrs.items() if old in model_b.methods},
                  params_a, params_b, tuple(bridges))


def _raises_clauses(docstring: str | None, renames: dict[str, str]) -> list[str]:
    """The `:raises X: ...` fields of a source constructor's docstring (with continuation lines), its
    parameters renamed as in the hybrid: the merged constructor raises what its parts raise, and a
    specification that drops that leaves solvers guessing."""
    lines = (docstring or "").splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        if line.strip().startswith(":raises"):
            field = [line.strip()]
            indent = len(line) - len(line.lstrip())
            for follow in lines[i + 1:]:
                if not follow.strip() or follow.strip().startswith(":") or len(follow) - len(follow.lstrip()) <= indent:
                    break
                field.append("    " + follow.strip())
            out += field
    for old, new in renames.items():
        out = [line.replace(f"``{old}``", f"``{new}``") for line in out]
    return out


_EXAMPLE_LINE = re.compile(r"^(\s*(?:>>>|\.\.\.) )(.*)$")


def _examples_name_the_hybrid(source: str, originals: Sequence[str], hybrid: str) -> str:
    """Docstring examples (`>>>` / `...` lines) that build a source class build the hybrid instead: an
    example naming a class the task does not define misleads the solver. Whether the example still holds
    (the hybrid's constructor takes both parts' arguments) is for the judges to check by running it."""
    names = re.compile(r"\b(" + "|".join(re.escape(n) for n in originals) + r")\b")

    def rename(line: str) -> str:
        match = _EXAMPLE_LINE.match(line)
        return match.group(1) + names.sub(hybrid, match.group(2)) if match else line

    return "\n".join(rename(line) for line in source.split("\n"))


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


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace('"""', "'''").replace("\\", "/")


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
    merged.calls = {**pools_a.calls, **b.calls}
    replays_a, replays_b = pools_a.replays, b.replays
    for i in range(max(len(replays_a), len(replays_b))):
        ctor_a, seq_a = replays_a[i % len(replays_a)] if replays_a else (None, [])
        ctor_b, seq_b = replays_b[i % len(replays_b)] if replays_b else (None, [])
        kwargs = _as_kwargs(ctor_a, fusion.params_a) + _as_kwargs(ctor_b, b_names, fusion.params_b)
        merged.replays.append((ObservedCall("__init__", (), tuple(kwargs)), list(seq_a) + list(seq_b)))
    return merged


def bridge_scenarios(fusion: Fusion, model: ClassModel, pools: ArgumentPools, rng: random.Random) -> list[Scenario]:
    out: list[Scenario] = []
    bases = replay_scenarios(pools)
    for bridge in fusion.bridges:
        source = model.methods[bridge.source]
        target = model.methods[bridge.target]
        for base in bases[:6]:
            args: list[Arg] = []
            call = pools.sample(bridge.source, rng) if source.required_params else ObservedCall(bridge.source, ())
            if call is None or len(call.args) < len(source.required_params):
                continue
            args += [Arg(literal=v) for v in call.args[: len(source.required_params)]]
            rest = [p for p in target.params[1:] if not p.has_default]
            if rest:
                other = pools.sample(bridge.target, rng)
                if other is None or len(other.args) < 1 + len(rest):
                    continue
                args += [Arg(literal=v) for v in other.args[1: 1 + len(rest)]]
            steps = list(base.steps[: rng.randint(0, len(base.steps))]) + [Step("obj", bridge.name, tuple(args))]
            out.append(base.with_steps(steps, title=f"{bridge.name}_passes_result_on", origin="bridge", focus=(bridge.name,)))
    return out


_POOL_CACHE: dict[str, ArgumentPools] = {}


def pools_for(seed: SeedClass, *, pool: Any) -> ArgumentPools:
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


def _rejection(a: SeedClass, b: SeedClass, rng_seed: int, detail: str) -> Rejection:
    return Rejection(candidate_id="cmp-" + content_hash(a.seed_id, b.seed_id, rng_seed), stage=STAGE,
                     reason=RejectReason.GENERATION_FAILED, detail=detail[:300],
                     evidence={"seed_ids": [a.seed_id, b.seed_id], "rng_seed": rng_seed})


def compose_pair(a: SeedClass, b: SeedClass, config: ComposeConfig, *, pool: Any) -> Candidate | Rejection:
    from pipeline.analysis.skeleton import make_skeleton

    rng = random.Random(f"{config.rng_seed}:{a.seed_id}+{b.seed_id}")
    try:
        fusion = fuse(a, b, rng, config.max_bridges)
    except (CompositionError, EditError, SyntaxError, LookupError) as exc:
        return _rejection(a, b, config.rng_seed, f"fusion failed: {exc}")
    try:
        pools = merged_pools(fusion, pools_for(a, pool=pool), pools_for(b, pool=pool))
        model = analyse(fusion.source, fusion.class_name)
        extra = bridge_scenarios(fusion, model, pools, rng)
        result = synthesize_tests(pool, source=fusion.source, module=fusion.module_name, model=model, pools=pools,
                                  extra=extra, rng=rng, max_tests=config.max_tests)
    except JobFailed as exc:
        return _rejection(a, b, config.rng_seed, f"sandbox job failed: {exc}")
    if result.tests < MIN_TESTS:
        return _rejection(a, b, config.rng_seed, f"only {result.tests} tests written")
    return Candidate(
        candidate_id=Candidate.make_id(fusion.class_name, fusion.source, result.test_code),
        class_name=fusion.class_name,
        module_name=fusion.module_name,
        domains=(a.domain, b.domain),
        description=f"{a.description} Combined with: {b.description}",
        skeleton=make_skeleton(fusion.source, fusion.class_name),
        solution_code=fusion.source,
        test_code=result.test_code,
        origin=Origin.COMPOSED,
        provenance=Provenance(seed_ids=(a.seed_id, b.seed_id),
                              transforms=("compose",) + tuple(f"bridge:{br.name}" for br in fusion.bridges),
                              rng_seed=config.rng_seed, source="offline composition of two seeds",
                              first_commit_date=_newest_date(a, b)),
        generator=GeneratorSpec(backend="offline", parameters={"stage": STAGE, "bridges": [br.name for br in fusion.bridges],
                                                               "scenarios_run": result.scenarios_run}),
        requires_python=requires_python(fusion.source, result.test_code),
    )


def compose_seeds(seeds: Sequence[SeedClass], config: ComposeConfig, *, pool: Any, jobs: int = 1,
                  on_pairs: Callable[[int], None] | None = None,
                  on_done: Callable[[], None] | None = None) -> Iterator[Candidate | Rejection]:
    """Composed candidates (or rejections) for the seeded, spread-out pairs of `seeds`, in pair order.

    `jobs` pairs are synthesised at once (each waits on its own sandbox worker); the output order does not
    depend on it. For progress reporting, `on_pairs(n)` is told how many pairs will be tried and `on_done()`
    is called as each pair is finished.
    """
    pairs = pair_seeds(seeds, rng_seed=config.rng_seed, max_pairs=config.max_pairs,
                       max_uses_per_seed=config.max_uses_per_seed, composable=config.composable)
    if on_pairs is not None:
        on_pairs(len(pairs))
    yield from in_order(lambda pair: compose_guarded(pair, config, pool=pool), pairs, jobs, on_done)


def compose_guarded(pair: tuple[SeedClass, SeedClass], config: ComposeConfig, *, pool: Any) -> list[Candidate | Rejection]:
    """One pair's candidate (or rejection), such that the pair never ends the stage: an unexpected error
    becomes its `internal_error` rejection. The unit of work of `compose_seeds` and of a per-pair task."""
    def failed(pair: tuple[SeedClass, SeedClass], exc: Exception) -> Rejection:
        a, b = pair
        return error_rejection("cmp-" + content_hash(a.seed_id, b.seed_id, "error", config.rng_seed), STAGE, exc,
                               seed_ids=[a.seed_id, b.seed_id], rng_seed=config.rng_seed)

    return never_fatal(lambda item: [compose_pair(*item, config, pool=pool)], failed)(pair)
