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


class InputValidation:
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
        editor = ClassEditor(source, model.name)
        editor.add_before_class(f'''
class {ERROR}(TypeError):
    """An argument passed to a ``{model.name}`` method does not have the annotated type."""
''')
        editor.append_to_init("self._rejected_arguments: dict[str, int] = {}")
        validated = _validated(model)
        for method in validated:
            checks = []
            lines = []
            for param, types in checked_params(method):
                tuple_src = "(" + ", ".join("type(None)" if t == "NoneType" else t for t in types) + ",)"
                checks.append(f'self._check_argument("{method.name}", "{param.name}", {param.name}, {tuple_src})')
                lines.append(f":raises {ERROR}: if ``{param.name}`` is not {_describe(types)}.")
            lines[-1] = lines[-1][:-1] + (
                "; checked in parameter order, before the method's own checks (nothing changes)."
            )
            editor.prepend_to_method(method.name, "\n".join(checks))
            editor.extend_method_docstring(method.name, "\n".join(lines))
        editor.append_methods(f'''
def _check_argument(self, method: str, name: str, value: object, allowed: tuple) -> None:
    """Raise {ERROR} (and count the rejection) unless ``value`` is an instance of ``allowed``.

    ``bool`` is not accepted where only ``int`` or ``float`` is allowed, although it is a subclass of int.
    """
    is_bool_for_number = isinstance(value, bool) and bool not in allowed
    if is_bool_for_number or not isinstance(value, allowed):
        self._rejected_arguments[method] = self._rejected_arguments.get(method, 0) + 1
        expected = " or ".join(kind.__name__ for kind in allowed)
        raise {ERROR}(f"{{method}}() argument {{name!r}} must be {{expected}}, got {{type(value).__name__}}")

def rejected_argument_counts(self) -> dict[str, int]:
    """Return how many calls each method refused because of a wrongly typed argument.

    :return: method name -> number of refused calls, in alphabetical order of method name; methods
        that never refused a call are left out.
    """
    return {{name: self._rejected_arguments[name] for name in sorted(self._rejected_arguments)}}
''')
        editor.extend_class_docstring(
            f"Input validation: the arguments of {english_list([m.name for m in validated])} (and of no other "
            f"method) are checked against the annotated types; a wrongly typed one raises ``{ERROR}`` (a "
            "``TypeError``) before the method's own checks and before anything changes. "
            "``rejected_argument_counts()`` reports the refused calls per method."
        )
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
