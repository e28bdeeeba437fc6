"""Runs call scenarios on the reference class and records what happened, inside the sandbox only.

`scenarios.json` holds the module and class names and the scenarios; each generated test
`test_sNNNN` runs scenario NNNN twice on fresh instances (an outcome that differs between the two runs is
marked unstable), and the conftest prints every outcome as JSON between markers when the session ends.

Two facts per step let the renderer drop calls a reader does not need without losing what the tests
measure: the attributes of the target a step changed (`changed`: its state pickled before and after, per
attribute; an attribute that does not pickle counts as changed, a class attribute as `@name`), and the
lines each step ran (a coverage context `<test id>|<step>` per step). Both are taken in the first run of a
scenario and only in the measured job (the one recording coverage contexts): the second run checks
stability and the reseeded job hash-order dependence, and need neither.
"""

import builtins
import importlib
import json
import os
import pickle

from literals import evaluate, literal

with open("scenarios.json", encoding="utf-8") as _handle:
    _CONFIG = json.load(_handle)

RESULTS = {}
MARK_BEGIN, MARK_END = "<<<ORACLE-BEGIN>>>", "<<<ORACLE-END>>>"


def _class():
    module = importlib.import_module(_CONFIG["module"])
    return module, getattr(module, _CONFIG["class_name"])


def _value(arg, env, module=None):
    if "literal" in arg:
        return evaluate(arg["literal"], vars(module) if module is not None else None)
    if "var" in arg:
        return env[arg["var"]]
    variable, method = arg["call"]
    return getattr(env[variable], method)()


def _exception(error, module):
    kind = type(error)
    defined_here = getattr(kind, "__module__", None) == module.__name__
    importable = None
    for base in kind.__mro__:
        if getattr(base, "__module__", None) == module.__name__ and getattr(module, base.__name__, None) is base:
            importable = importable or base.__name__
        if getattr(builtins, base.__name__, None) is base and issubclass(base, Exception):
            break
    builtin_base = next((b.__name__ for b in kind.__mro__ if getattr(builtins, b.__name__, None) is b), "Exception")
    return {"kind": "raise", "exc": kind.__name__, "defined_here": defined_here, "importable": importable,
            "builtin": builtin_base}


def _pickled(value):
    try:
        return pickle.dumps(value, protocol=4)
    except Exception:  # noqa: BLE001 - an unpicklable value cannot be compared: it counts as changed
        return None


def _state(target):
    """Per attribute, its pickled value (None when it does not pickle); None for a target with no
    instance state to read (a class)."""
    if isinstance(target, type):
        return None
    fields = dict(getattr(target, "__dict__", {}))
    for klass in type(target).__mro__:
        for slot in getattr(klass, "__slots__", ()):
            if isinstance(slot, str) and slot not in fields and hasattr(target, slot):
                fields[slot] = getattr(target, slot)
        if klass is not object:
            for name, value in vars(klass).items():
                if not name.startswith("__") and not callable(value) and not hasattr(value, "__get__"):
                    fields["@" + name] = value
    return {name: _pickled(value) for name, value in fields.items()}


def _changed(before, after):
    """Sorted names of the attributes whose value differs; ["*"] when the state could not be read."""
    if before is None or after is None:
        return ["*"]
    names = set(before) | set(after)
    return sorted(n for n in names if before.get(n) is None or after.get(n) is None or before[n] != after[n])


def _coverage():
    """The coverage run recording per-test contexts, and this test's context; (None, None) without."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    try:
        import coverage

        current = coverage.Coverage.current()
    except Exception:  # noqa: BLE001 - no coverage in this run (the reseeded run)
        return None, None
    return (current, test) if current is not None and test else (None, None)


def _once(scenario, measure):
    """One run of the scenario on a fresh instance; with `measure`, also what each step changed and ran."""
    module, cls = _class()
    env = {}
    outcomes = []
    changed = []
    cov, test = _coverage() if measure else (None, None)
    try:
        args = [_value(a, env, module) for a in scenario["ctor_args"]]
        kwargs = {k: _value(v, env, module) for k, v in scenario["ctor_kwargs"]}
        env["obj"] = cls(*args, **kwargs)
    except Exception as error:  # noqa: BLE001
        return {"ctor": _exception(error, module), "steps": [], "changed": []}
    for index, step in enumerate(scenario["steps"]):
        if cov is not None:
            cov.switch_context(f"{test}|{index}")
        try:
            outcome, before, after = _step(step, cls, module, env, measure and cov is not None)
        finally:
            if cov is not None:
                cov.switch_context(test)
        outcomes.append(outcome)
        if cov is not None:
            changed.append(_changed(before, after))
        if outcome["kind"] == "skipped":
            break
    return {"ctor": None, "steps": outcomes, "changed": changed}


def _step(step, cls, module, env, measure):
    """(outcome, state before, state after) of one step (the states only when `measure`)."""
    try:
        target = cls if step["target"] == "@cls" else env[step["target"]]
        args = [_value(a, env, module) for a in step.get("args", [])]
        kwargs = {k: _value(v, env, module) for k, v in step.get("kwargs", [])}
    except Exception:  # noqa: BLE001 - an argument could not be built: the scenario stops here
        return {"kind": "skipped"}, None, None
    state = _state if measure else (lambda _: None)
    before = state(target)
    try:
        value = getattr(target, step["method"])(*args, **kwargs)
    except Exception as error:  # noqa: BLE001
        return _exception(error, module), before, state(target)
    if step.get("bind"):
        env[step["bind"]] = value
    return ({"kind": "return", "literal": literal(value), "is_none": value is None, "type": type(value).__name__},
            before, state(target))


def run_scenario(index):
    scenario = _CONFIG["scenarios"][index]
    try:
        _class()
    except BaseException as error:  # the module does not import: say so once, for the whole job
        RESULTS.setdefault("import_error", (type(error).__name__ + ": " + str(error))[:500])
        raise
    first = _once(scenario, measure=True)
    second = _once(scenario, measure=False)
    stable = json.dumps(first["steps"], sort_keys=True) == json.dumps(second["steps"], sort_keys=True)
    if not stable and len(first["steps"]) == len(second["steps"]):
        for a, b in zip(first["steps"], second["steps"]):
            if json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True):
                a["unstable"] = True
    RESULTS[str(index)] = first
