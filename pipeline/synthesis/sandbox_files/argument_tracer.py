"""conftest for the argument-harvesting job: records the arguments every method of the class is called
with while the class's own tests run, then prints them as JSON between markers at the end of the session.

Runs inside the sandbox only. Configuration comes from `harvest_config.json` in the run folder.
"""

import functools
import importlib
import json

from job_output import emit

from literals import literal

with open("harvest_config.json", encoding="utf-8") as _handle:
    _CONFIG = json.load(_handle)

_TESTS = []
_CURRENT = {"nodeid": None, "instances": {}, "order": [], "depth": 0}
MARK_BEGIN, MARK_END = "<<<HARVEST-BEGIN>>>", "<<<HARVEST-END>>>"


def _render_call(args, kwargs):
    rendered = [literal(a) for a in args]
    rendered_kw = [[k, literal(v)] for k, v in kwargs.items()]
    if any(r is None for r in rendered) or any(v is None for _, v in rendered_kw):
        return None
    return {"args": rendered, "kwargs": rendered_kw}


def _instance(obj):
    key = id(obj)
    instances = _CURRENT["instances"]
    if key not in instances:
        instances[key] = {"ctor": None, "calls": [], "broken": False, "ref": obj}
        _CURRENT["order"].append(key)
    return instances[key]


def _wrap(name, function, kind):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        depth = _CURRENT["depth"]
        entry = None
        try:
            if _CURRENT["nodeid"] is not None and kind == "instance" and args:
                record = _instance(args[0])
                call = _render_call(args[1:], kwargs)
                if name == "__init__":
                    record["ctor"] = call if depth == 0 else record["ctor"]
                    record["ctor_broken"] = call is None
                elif depth == 0:
                    entry = {"method": name, "call": call}
                    record["calls"].append(entry)
                else:
                    entry = {"method": name, "call": call}
                    record.setdefault("nested", []).append(entry)
        except Exception:  # noqa: BLE001 - recording must never change the test's behaviour
            pass
        _CURRENT["depth"] = depth + 1
        try:
            result = function(*args, **kwargs)
        finally:
            _CURRENT["depth"] = depth
        if entry is not None:
            try:
                entry["result"] = literal(result)  # None: a value without a literal (an object)
            except Exception:  # noqa: BLE001 - as above
                pass
        return result

    return wrapper


def _patch():
    module = importlib.import_module(_CONFIG["module"])
    cls = getattr(module, _CONFIG["class_name"])
    for name, member in list(vars(cls).items()):
        if name.startswith("__") and name != "__init__":
            continue
        if isinstance(member, (staticmethod, classmethod)) or not callable(member):
            continue
        setattr(cls, name, _wrap(name, member, "instance"))


_patch()


def pytest_runtest_logstart(nodeid, location):
    _CURRENT.update({"nodeid": nodeid, "instances": {}, "order": [], "depth": 0})


def pytest_runtest_logfinish(nodeid, location):
    instances = []
    for key in _CURRENT["order"]:
        record = _CURRENT["instances"][key]
        record.pop("ref", None)
        instances.append(record)
    _TESTS.append({"nodeid": nodeid, "instances": instances})
    _CURRENT.update({"nodeid": None, "instances": {}, "order": [], "depth": 0})


def pytest_terminal_summary(terminalreporter):
    emit(MARK_BEGIN + json.dumps({"tests": _TESTS}) + MARK_END)
