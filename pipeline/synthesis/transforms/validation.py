"""Input validation with a custom exception: arguments are checked against the annotated types."""

from __future__ import annotations

import re

from core.analysis.class_model import ClassModel, MethodModel, Param
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_methods,
    require_free_names,
)
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("_check_argument", "rejected_argument_counts")
ERROR = "InvalidArgumentError"

_SIMPLE = {
    "int": ("int",), "float": ("int", "float"), "str": ("str",), "bool": ("bool",), "bytes": ("bytes",),
    "list": ("list",), "dict": ("dict",), "tuple": ("tuple",), "set": ("set", "frozenset"),
}
_WRONG_VALUE = {"int": '"7"', "float": '"1.5"', "str": "7", "bool": '"yes"', "bytes": '"data"', "list": '"a"',
                "dict": '"a"', "tuple": '"a"', "set": '"a"'}
"""A literal of the wrong type for each checked kind, used by the scenarios."""


def expected_types(annotation: str | None) -> tuple[str, ...] | None:
    """Builtin type names an annotation allows (`int | None` -> int, NoneType), or None if not checkable."""
    if annotation is None:
        return None
    text = annotation.replace(" ", "")
    optional = False
    match = re.fullmatch(r"Optional\[(.+)\]", text)
    if match:
        text, optional = match.group(1), True
    parts = text.split("|") if "[" not in text or text.count("|") == 0 else _split_union(text)
    names: list[str] = []
    for part in parts:
        if part == "None":
            optional = True
            continue
        base = part.split("[", 1)[0]
        if base not in _SIMPLE:
            return None
        names += [n for n in _SIMPLE[base] if n not in names]
    if not names:
        return None
    if optional:
        names.append("NoneType")
    return tuple(names)


def _split_union(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def checked_params(method: MethodModel) -> list[tuple[Param, tuple[str, ...]]]:
    return [(p, t) for p in method.params if p.kind in ("positional", "keyword")
            for t in [expected_types(p.annotation)] if t is not None]


def _validated(model: ClassModel) -> list[MethodModel]:
    return [m for m in own_methods(model) if checked_params(m)]


def _describe(types: tuple[str, ...]) -> str:
    words = {"NoneType": "None", "int": "int (not bool)"}
    return " or ".join(words.get(t, t) for t in types)


def class_text(voice: Voice, listed: str) -> str:
    """The validation rule, stated once in the class docstring (each method's annotations say the types)."""
    head = voice.pick(
        "validation-rule",
        f"Typed arguments: {listed} check every argument against its annotation, in parameter order, and raise "
        f"``{ERROR}`` for a wrongly typed one before any other argument check of the {voice.noun}",
        f"The arguments of {listed} must have their annotated types: the {voice.noun} checks them in parameter "
        f"order, before any other argument check, and raises ``{ERROR}`` for the first one of another type",
    )
    return (f"{head}; a ``bool`` is not accepted for an ``int`` or ``float``. No other {voice.noun} method checks "
            f"types, and ``rejected_argument_counts()`` reports how many calls of each {voice.noun} method were refused "
            "this way.")


class InputValidation:
    """Input validation fits a class whose public methods take simply typed arguments (str, int, float,
    list, dict ...) from callers: the annotations are its contract at that boundary, and a wrongly typed
    argument is a caller's error to report as such rather than a failure deep inside. It does not fit a class
    none of whose methods is so annotated: there is no declared type to check against."""

    name = "input_validation"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if ERROR in model.module_names:
            raise TransformError(f"module already defines {ERROR}", "name_clash")
        if not _validated(model):
            raise TransformError(f"class {model.name} has no public method with simply typed parameters",
                                 "no_typed_parameters")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        voice = Voice.of(model, [m.name for m in own_methods(model)])
        editor = ClassEditor(source, model.name)
        editor.add_before_class(f'''
class {ERROR}(TypeError):
    """A {voice.noun} method (of ``{model.name}``) was given an argument that is not of its annotated type (a ``TypeError``)."""
''')
        editor.append_to_init("self._rejected_arguments: dict[str, int] = {}")
        validated = _validated(model)
        for method in validated:
            checks = []
            for param, types in checked_params(method):
                tuple_src = "(" + ", ".join("type(None)" if t == "NoneType" else t for t in types) + ",)"
                checks.append(f'self._check_argument("{method.name}", "{param.name}", {param.name}, {tuple_src})')
            editor.prepend_to_method(method.name, "\n".join(checks))
        counts_doc = voice.docstring(
            voice.pick("rejected-summary", f"Return how many calls of each {voice.noun} method a wrongly typed argument refused.",
                       f"Count, per method, the calls the {voice.noun} refused for an argument of the wrong type."),
            returns=voice.pick("rejected-return",
                               f"{voice.noun} method name -> refused calls, sorted by name; a method that refused "
                               "none is left out",
                               f"a dict from method name to refused calls, in name order, holding only the "
                               f"{voice.noun} methods that refused one"),
        )
        editor.append_methods(f'''
def _check_argument(self, method: str, name: str, value: object, allowed: tuple) -> None:
    """Raise {ERROR} and count the refusal unless ``value`` is one of ``allowed`` (a bool is no {voice.noun} number)."""
    is_bool_for_number = isinstance(value, bool) and bool not in allowed
    if is_bool_for_number or not isinstance(value, allowed):
        self._rejected_arguments[method] = self._rejected_arguments.get(method, 0) + 1
        expected = " or ".join(kind.__name__ for kind in allowed)
        raise {ERROR}(f"{{method}}() argument {{name!r}} must be {{expected}}, got {{type(value).__name__}}")

def rejected_argument_counts(self) -> dict[str, int]:
    """{indent_docstring(counts_doc)}"""
    return {{name: self._rejected_arguments[name] for name in sorted(self._rejected_arguments)}}
''')
        editor.extend_class_docstring(class_text(voice, english_list([m.name for m in validated])))
        return editor.code()

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        methods = _validated(context.model)
        for method in methods:
            sample = context.sample(method.name)
            params = [p for p, t in checked_params(method) if p.kind == "positional" and "NoneType" not in t]
            if sample is None or not params:
                continue
            param = rng.choice(params)
            types = expected_types(param.annotation) or ("str",)
            position = [p.name for p in method.params].index(param.name)
            args = list(sample.args)
            if position >= len(args) or sample.kwargs:
                continue
            args[position] = Arg(literal=_WRONG_VALUE[types[0]])
            base = rng.choice(list(context.bases)) if context.bases else Scenario()
            prefix = list(base.steps[: rng.randint(0, len(base.steps))])
            bad = Step("obj", method.name, tuple(args))
            steps = prefix + [bad, sample, Step("obj", "rejected_argument_counts")]
            out.append(base.with_steps(steps, title=f"{method.name}_rejects_wrongly_typed_{param.name}",
                                       origin=self.name, focus=(method.name,)))
        out.append(Scenario(steps=(Step("obj", "rejected_argument_counts"),), title="no_rejections_on_a_fresh_instance",
                            origin=self.name, focus=("rejected_argument_counts",)))
        return out
