"""Per-method statistics: every call of a public method from outside the object is counted and can be queried
and reset."""

from __future__ import annotations

from core.analysis.class_model import ClassModel
from core.analysis.cst_edit import ClassEditor
from core.scenarios import Arg, Scenario, Step
from pipeline.synthesis.transforms.base import (
    ScenarioContext,
    TransformError,
    english_list,
    own_methods,
    prefix_of,
    require_free_names,
)
from pipeline.synthesis.transforms.fit import generators, measuring, requests
from pipeline.synthesis.transforms.voice import Voice, indent_docstring

METHODS = ("_enter_call", "_leave_call", "call_count", "call_counts", "most_called", "reset_statistics")



def counted_methods(model: ClassModel) -> list[str]:
    """The class's own public methods, generators excepted (their body runs after the call has returned,
    so no guard around the call can tell an outside call from an inside one)."""
    lazy = generators(model)
    return [m.name for m in own_methods(model) if m.name not in lazy]


def policy(voice: Voice) -> str:
    """The counting contract, stated once in the class docstring: what the counts are must not depend on
    whether the reference's methods happen to call each other (a `best_match` that goes through `versions()`
    and one that does not are both correct)."""
    return voice.pick(
        "count-policy",
        f"Only calls made from outside count: a {voice.noun} method called by another {voice.noun} method is not "
        "counted, and a call counts when it starts, whether it returns or raises.",
        f"A call counts when it starts (one that raises counts too) and only when made from outside the "
        f"{voice.noun}: its methods calling one another add nothing.",
    )


class MethodStatistics:
    """Call counters fit a service-like class: one whose methods answer callers' requests (lookups, checks,
    conversions, routes, quotes), where how often each request is made is what an operator watches. They
    do not fit a measuring class (a histogram or latency monitor already counts what it is given, and
    counting calls of it would count the same samples again), nor a class with fewer than two requests."""

    name = "method_statistics"

    def check(self, model: ClassModel) -> None:
        require_free_names(model, METHODS)
        if len(counted_methods(model)) < 2:
            raise TransformError(f"class {model.name} has fewer than two public methods to count", "too_few_methods")
        observed = measuring(model)
        if observed:
            raise TransformError(f"call counters do not fit {model.name}: it is a measuring class "
                                 f"({', '.join(observed)} record measurements)", "measuring_class")
        if len(requests(model)) < 2:
            raise TransformError(f"call counters do not fit {model.name}: fewer than two methods answer a "
                                 "request (take arguments and return a value)", "not_service_like")

    def apply(self, source: str, model: ClassModel) -> str:
        self.check(model)
        names = counted_methods(model)
        lazy = generators(model)
        voice = Voice.of(model, names)
        # Every public method holds the depth while it runs, features' methods too (`apply_batch`,
        # `overview`), so that what they call on the instance is an inside call; the finally clause
        # restores the depth when a method raises. Only the two helpers write the depth: a field that
        # every public method wrote would be a state edge between every pair of methods for the gate.
        guarded = [m.name for m in model.public_methods() if m.name not in METHODS and m.name not in lazy]
        editor = ClassEditor(source, model.name)
        for name in guarded + (["__init__"] if "__init__" in model.methods else []):
            label = f'"{name}"' if name in names else "None"
            editor.wrap_method_body(name, before=f"_depth = self._enter_call({label})",
                                    final="self._leave_call(_depth)")
        # The constructor is an inside caller too; the fields exist before its first statement, since it
        # may call a counted method.
        if "__init__" in model.methods:
            editor.prepend_to_method("__init__", "self._call_counts: dict[str, int] = {}\nself._call_depth = 0")
        else:
            editor.append_to_init("self._call_counts: dict[str, int] = {}\nself._call_depth = 0")
        tracked = ", ".join(f'"{n}"' for n in names)
        docs = self._docs(voice, names)
        editor.append_methods(f'''
def _enter_call(self, name: str | None) -> int:
    """Count a call of ``name`` unless a {voice.noun} method is already running; return the depth found."""
    depth = self._call_depth
    if depth == 0 and name is not None:
        self._call_counts[name] = self._call_counts.get(name, 0) + 1
    self._call_depth = depth + 1
    return depth

def _leave_call(self, depth: int) -> None:
    """Give the {voice.noun} back the call depth ``_enter_call`` found (on return or on raise)."""
    self._call_depth = depth

def call_count(self, method: str) -> int:
    """{indent_docstring(docs["call_count"])}"""
    if method not in ({tracked},):
        raise ValueError(f"{{method!r}} is not a counted method")
    return self._call_counts.get(method, 0)

def call_counts(self) -> dict[str, int]:
    """{indent_docstring(docs["call_counts"])}"""
    return {{name: self._call_counts[name] for name in sorted(self._call_counts)}}

def most_called(self) -> str | None:
    """{indent_docstring(docs["most_called"])}"""
    if not self._call_counts:
        return None
    return min(self._call_counts, key=lambda name: (-self._call_counts[name], name))

def reset_statistics(self) -> int:
    """{indent_docstring(docs["reset_statistics"])}"""
    total = sum(self._call_counts.values())
    self._call_counts = {{}}
    return total
''')
        editor.extend_class_docstring(
            voice.pick("count-head", f"Request statistics: calls of {english_list(names)} on the {voice.noun} are "
                                     "counted, per method, until ``reset_statistics()``.",
                       f"The {voice.noun} counts how often each of {english_list(names)} is called, for "
                       "``call_count``, ``call_counts`` and ``most_called``; ``reset_statistics`` clears the counts.")
            + " " + policy(voice))
        return editor.code()

    @staticmethod
    def _docs(voice: Voice, names: list[str]) -> dict[str, str]:
        noun = voice.noun
        return {
            "call_count": voice.docstring(
                voice.pick("call-count", f"Return how many times the {noun}'s ``method`` was called since it was "
                                         "created or last reset.",
                           f"Return the number of outside calls of one {noun} method since creation or ``reset_statistics()``."),
                params=[("method", f"one of {english_list(names)}.")],
                raises=[("ValueError", f"if ``method`` is not a counted {noun} method")]),
            "call_counts": voice.docstring(voice.pick(
                "call-counts", f"Return each called {noun} method's count, sorted by method name.",
                f"Return all non-zero {noun} call counts, method name -> calls, in name order.")),
            "most_called": voice.docstring(voice.pick(
                "most-called", f"Return the {noun} method called most often (the alphabetically first on a tie), "
                               "or None before any call.",
                f"Return the most requested {noun} method: highest count, ties to the first name in alphabetical "
                "order; None when nothing was called.")),
            "reset_statistics": voice.docstring(
                voice.pick("reset", f"Clear the {noun}'s call counts.", f"Start counting {noun} calls from zero again."),
                returns=f"how many {noun} calls were counted before the reset"),
        }

    def scenarios(self, context: ScenarioContext) -> list[Scenario]:
        rng, out = context.rng, []
        names = counted_methods(context.model)
        for base in list(context.bases)[:10]:
            steps = prefix_of(base, rng)
            called = [s.method for s in steps if s.method in names]
            probe = rng.choice(called) if called else rng.choice(names)
            steps = steps + [Step("obj", "call_count", (Arg(literal=f'"{probe}"'),)), Step("obj", "most_called"),
                             Step("obj", "call_counts")]
            if rng.random() < 0.5:
                steps += [Step("obj", "reset_statistics"), Step("obj", "most_called")]
            out.append(base.with_steps(steps, title=f"call_count_of_{probe}", origin=self.name, focus=("call_count",)))
        out.append(Scenario(steps=(Step("obj", "most_called"), Step("obj", "call_count", (Arg(literal='"no_such_method"'),))),
                            title="call_count_rejects_unknown_method", origin=self.name, focus=("call_count",)))
        out.append(Scenario(steps=(Step("obj", "reset_statistics"), Step("obj", "call_counts")),
                            title="reset_statistics_on_a_fresh_instance", origin=self.name, focus=("reset_statistics",)))
        return out
