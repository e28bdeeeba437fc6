"""Runs call scenarios on the reference class and records what happened, inside the sandbox only.

`scenarios.json` holds the module and class names and the scenarios; each generated test
`test_sNNNN` runs scenario NNNN twice on fresh instances (an outcome that differs between the two runs is
marked unstable), and the conftest prints every outcome as JSON between markers when the session ends.
"""

import builtins
import importlib
import json

from literals import evaluate, literal

with open("scenarios.json", encoding="utf-8") as _handle:
    _CONFIG = json.load(_handle)

RESULTS = {}
MARK_BEGIN, MARK_END = "<<<ORACLE-BEGIN>>>", "<<<ORACLE-END>>>"


def _class():
    module = importlib.import_module(_CONFIG["module"])
    return module, getattr(module, _CONFIG["class_name"])


def _value(arg, env):
    if "literal" in arg:
        return evaluate(arg["literal"])
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


def _once(scenario):
    module, cls = _class()
    env = {}
    outcomes = []
    try:
        args = [_value(a, env) for a in scenario["ctor_args"]]
        kwargs = {k: _value(v, env) for k, v in scenario["ctor_kwargs"]}
        env["obj"] = cls(*args, **kwargs)
    except Exception as error:  # noqa: BLE001
        return {"ctor": _exception(error, module), "steps": []}
    for step in scenario["steps"]:
        try:
            target = cls if step["target"] == "@cls" else env[step["target"]]
            args = [_value(a, env) for a in step.get("args", [])]
            kwargs = {k: _value(v, env) for k, v in step.get("kwargs", [])}
        except Exception:  # noqa: BLE001 - an argument could not be built: the scenario stops here
            outcomes.append({"kind": "skipped"})
            break
        try:
            value = getattr(target, step["method"])(*args, **kwargs)
        except Exception as error:  # noqa: BLE001
            outcomes.append(_exception(error, module))
            continue
        if step.get("bind"):
            env[step["bind"]] = value
        outcomes.append({"kind": "return", "literal": literal(value), "is_none": value is None,
                         "type": type(value).__name__})
    return {"ctor": None, "steps": outcomes}


def run_scenario(index):
    scenario = _CONFIG["scenarios"][index]
    first = _once(scenario)
    second = _once(scenario)
    stable = json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    if not stable and len(first["steps"]) == len(second["steps"]):
        for a, b in zip(first["steps"], second["steps"]):
            if json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True):
                a["unstable"] = True
    RESULTS[str(index)] = first
