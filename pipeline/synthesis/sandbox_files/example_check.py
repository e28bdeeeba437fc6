"""Runs proposed docstring examples on the reference, inside the sandbox only.

`examples.json` holds the module name and a list of doctest texts. Each text is run twice, each time on a
fresh copy of the module's names (an example builds its own state), and passes only when both runs pass:
an example a reader is shown must be a fact about the class, not about one lucky run.
"""

import doctest
import importlib
import json

with open("examples.json", encoding="utf-8") as _handle:
    _CONFIG = json.load(_handle)

RESULTS = {}
MARK_BEGIN, MARK_END = "<<<EXAMPLES-BEGIN>>>", "<<<EXAMPLES-END>>>"


def _passes(module, text, index):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, dict(vars(module)), f"example_{index}", None, 0)
    runner = doctest.DocTestRunner(verbose=False)
    lines = []
    result = runner.run(test, out=lines.append, clear_globs=True)
    return result.failed == 0 and result.attempted > 0, "".join(lines)[-600:]


def check_all():
    module = importlib.import_module(_CONFIG["module"])
    for index, text in enumerate(_CONFIG["examples"]):
        try:
            first, note = _passes(module, text, index)
            second, _ = _passes(module, text, index) if first else (False, "")
        except Exception as error:  # noqa: BLE001 - a broken example is a failed one
            first, second, note = False, False, f"{type(error).__name__}: {error}"
        RESULTS[str(index)] = {"passed": first and second, "note": "" if first and second else note}
