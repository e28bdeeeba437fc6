"""One parse per source, shared by the analyses; facts never need the libcst parse."""

from core.analysis import parsed as parsed_module
from core.analysis.class_facts import class_facts, static_edges
from core.analysis.class_model import analyse
from core.analysis.parsed import RECENT_SOURCES, parsed
from core.analysis.skeleton import make_skeleton

SOURCE = '''
class Counter:
    """Counts."""

    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1

    def value(self):
        return self.n
'''


def test_the_same_source_is_parsed_once_per_parser() -> None:
    first = parsed(SOURCE)
    assert parsed(SOURCE) is first
    assert first.tree is first.tree and first.module is first.module
    assert parsed(SOURCE + "\n") is not first


def test_facts_edges_and_the_class_model_use_ast_only() -> None:
    source = SOURCE.replace("Counts.", "Counts, for this test only.")
    static_edges(source, "Counter")
    analyse(source, "Counter")
    facts = class_facts(source, "Counter")
    assert facts.method("value").reads == ("n",)
    assert "module" not in vars(parsed(source))  # libcst has not parsed it
    assert facts.method("bump").signature == "def bump(self):"  # the text parses on first read
    assert "module" in vars(parsed(source))
    make_skeleton(source, "Counter")
    assert parsed(source).module is vars(parsed(source))["module"]


def test_only_recent_sources_are_kept() -> None:
    kept = parsed(SOURCE)
    for i in range(RECENT_SOURCES):
        parsed(f"x = {i}\n")
    assert SOURCE not in parsed_module._RECENT
    assert parsed(SOURCE) is not kept


def test_an_import_inside_a_method_is_its_library() -> None:
    source = "class Clock:\n    def now(self):\n        import time as t\n        return t.time()\n"
    assert class_facts(source, "Clock").method("now").libraries == ("time",)


def test_line_separators_other_than_newlines_do_not_hide_methods() -> None:
    # str.splitlines() also breaks at U+2028 and form feeds; the parser's line numbers do not
    source = "# a\u2028b\x0cc\nclass Box:\n    def get(self):\n        return self.value\n"
    assert class_facts(source, "Box").method("get").reads == ("value",)
