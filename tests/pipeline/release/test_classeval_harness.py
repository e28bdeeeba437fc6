"""The ClassEval export runs under ClassEval's harness: every task of a release's `classeval.json`, given
its reference as the answer, plain and in a Markdown fence, passes every test class through the harness's
steps (classeval_steps.py: its extraction, `import_statement` + code + test, unittest per test class, in the
sandbox), and fails them with the skeleton; the pytest module becomes unittest classes in ClassEval's
shape."""

from __future__ import annotations

import json
import textwrap
from datetime import date

import pytest
from classeval_steps import cut_code, failing, fenced, harness_module, mark_static, run_task
from release_fixtures import build_task

from core.funnel import Funnel
from core.records import MethodDependencies, MethodInfo
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from pipeline.release.export import classeval_entry, to_unittest
from pipeline.release.task_builder import split_imports
from validation.sandbox import SandboxPool


@pytest.fixture(scope="module")
def pool():
    with SandboxPool(jobs=1) as sandbox:
        yield sandbox

TOKENS_SOLUTION = textwrap.dedent('''
    """Word counting."""

    import re
    from collections import Counter

    _WORD = re.compile(r"[a-z']+")


    class Tokens:
        """Counts the words of texts."""

        def __init__(self):
            self.counts = Counter()

        def feed(self, text):
            """Count the words of `text`; return how many there were."""
            if not isinstance(text, str):
                raise TypeError("text must be a string")
            words = _WORD.findall(text.lower())
            self.counts.update(words)
            return len(words)

        def share(self, word):
            """The share of `word` among all words counted."""
            total = sum(self.counts.values())
            if total == 0:
                raise ValueError("nothing counted yet")
            return self.counts[word] / total
''').strip() + "\n"

TOKENS_TEST = textwrap.dedent('''
    from __future__ import annotations

    import pytest

    from tokens import Tokens

    TEXT = """one two
    two three"""


    def fed(text=TEXT):
        tokens = Tokens()
        tokens.feed(text)
        return tokens


    def test_feed_counts_words():
        assert Tokens().feed(TEXT) == 4


    def test_feed_refuses_a_number():
        with pytest.raises(TypeError, match="must be a string"):
            Tokens().feed(3)


    def test_share_after_feed():
        tokens = Tokens()
        tokens.feed("a b b")
        assert tokens.share("b") == pytest.approx(2 / 3)


    def test_share_of_a_multiline_text():
        assert fed().share("two") == 0.5


    def test_share_before_anything_is_counted():
        with pytest.raises(ValueError):
            Tokens().share("a")


    @pytest.fixture
    def tokens():
        return fed()


    def test_with_a_fixture(tokens):
        assert tokens.share("one") == 0.25


    @pytest.fixture
    def counted():
        tokens = Tokens()
        yield tokens
        tokens.counts.clear()


    def test_with_a_yield_fixture(counted):
        assert counted.feed("a") == 1
''').strip() + "\n"


def _method(name: str) -> MethodInfo:
    return MethodInfo(method_name=name, method_description=f"def {name}(self):", test_class="", test_code="",
                      solution_code="", dependencies=MethodDependencies(Standalone=False))


def _tokens_task():
    imports, solution = split_imports(TOKENS_SOLUTION)  # as the task builder splits a reference
    task = build_task("Tokens", solution, TOKENS_TEST, module="tokens", imports=imports)
    return task.model_copy(update={"methods_info": (_method("__init__"), _method("feed"), _method("share"))})


def test_the_pytest_module_becomes_unittest_classes_in_classeval_shape():
    task = _tokens_task()
    entry = classeval_entry(task)
    assert entry["test_classes"] == ["TokensTestFeed", "TokensTestShare", "TokensTest"]
    test = entry["test"]
    assert "from tokens import" not in test and "from __future__" not in test and test.startswith("import unittest\n")
    assert "class TokensTestFeed(unittest.TestCase):\n    def test_feed_counts_words(self):" in test
    # the multi-line string keeps its exact text; a fixture's statements are written into the test taking it
    # (the fixture goes), and a test whose fixture has a teardown stays a function the harness does not run
    assert 'TEXT = """one two\ntwo three"""' in test
    assert "    def test_with_a_fixture(self):\n        tokens = fed()\n        assert tokens.share" in test
    assert "def tokens():" not in test
    assert "\ndef test_with_a_yield_fixture(counted):" in test and "def counted():" in test
    assert entry["solution_code"].startswith('import re\nfrom collections import Counter\n\n"""Word counting."""')
    # the harness puts import_statement in front of what it cut: the constant above the class travels there
    assert entry["import_statement"] == ["import re", "from collections import Counter", "_WORD = re.compile(r\"[a-z']+\")"]
    methods = {m["method_name"]: m for m in entry["methods_info"]}
    assert methods["share"]["test_class"] == "TokensTestShare"
    assert methods["share"]["test_code"].startswith("class TokensTestShare(unittest.TestCase):")
    assert methods["__init__"]["test_class"] == "" and methods["__init__"]["test_code"] == ""


def test_statements_are_taken_whole_and_async_tests_are_named_not_converted():
    # `import a; import b` is one line of two statements: the tests after it keep their own places
    test = "import math; import pytest\n\n\ndef test_a():\n    Thing().go()\n\n\nasync def test_b():\n    pass\n"
    converted = to_unittest(test, "Thing", ["go"])
    assert list(converted.classes) == ["ThingTestGo"] and converted.not_converted == ["test_b"]
    assert converted.code.startswith("import unittest\nimport math; import pytest\n")
    assert "async def test_b():" in converted.code


def test_class_names_do_not_shadow_the_solution():
    converted = to_unittest("def test_x():\n    Thing().go()\n", "Thing", ["go"], frozenset({"ThingTestGo"}))
    assert list(converted.classes) == ["ThingTestGo_"]


NOTES_SOLUTION = textwrap.dedent('''
    """Notes kept as Markdown."""

    import re

    FENCE = "```"
    DEFAULT_TITLE = "untitled"


    def _clean(text):
        return re.sub(r"\\s+", " ", text).strip()


    class Notes:
        """Notes with a title; a note may hold code between ```` fences.

        ```
        notes = Notes()
        ```
        """

        def __init__(self):
            self.items = []

        def add(self, text, title=DEFAULT_TITLE):
            """Add a note; a title like ````"x"`` is kept as given. Returns the count."""
            self.items.append((title, _clean(text)))
            return len(self.items)

        @staticmethod
        def as_code(text):
            """`text` in a fence: ```text```."""
            return FENCE + "\\n" + text + "\\n" + r"```"

        def render(self):
            return "\\n".join(f"# {title}\\n{body}" for title, body in self.items)
''').strip() + "\n"

NOTES_TEST = textwrap.dedent('''
    from notes import Notes


    def test_add_counts():
        notes = Notes()
        assert notes.add("a  b") == 1
        assert notes.add("c", "t") == 2


    def test_as_code_fences():
        assert Notes.as_code("x") == "```\\nx\\n```"


    def test_render_after_add():
        notes = Notes()
        notes.add("x   y")
        assert notes.render() == "# untitled\\nx y"
''').strip() + "\n"


def _notes_task():
    imports, solution = split_imports(NOTES_SOLUTION)
    task = build_task("Notes", solution, NOTES_TEST, module="notes", imports=imports)
    return task.model_copy(update={"methods_info": (_method("__init__"), _method("add"), _method("as_code"),
                                                    _method("render"))})


def test_the_harness_steps_cut_code_as_documented():
    assert cut_code("Here:\n```python\nx = 1\n```\nmore ```python\ny\n```") == "\nx = 1\n"
    assert cut_code("```\nx = 2\n```") == "\nx = 2\n"
    # plain code: only import lines survive above the class, and lines equal to a dropped one go everywhere
    plain = "import re\nX = 1\n\nclass A:\n    y = X\n\n    def f(self):\n        X = 1\n        return X\n"
    assert cut_code(plain) == "import re\nclass A:\n    y = X\n    def f(self):\n        X = 1\n        return X"
    # an opened python fence that is never closed gives nothing
    assert cut_code("```python\nclass A: pass") == ""
    marked = mark_static("class A:\n    @staticmethod\n    def f(x):\n        return x\n    def g(self):\n        pass")
    assert marked == "class A:\n    @staticmethod\n    def f(x):\n        return x\n    def g(self):\n        pass"
    task = {"import_statement": ["import re"], "test": "T"}
    assert harness_module(task, "class A:\n    pass") == "import re\nclass A:\n    pass\nT"


def test_module_level_names_and_backticks_travel_where_the_harness_keeps_them():
    entry = classeval_entry(_notes_task())
    assert entry["import_statement"][:1] == ["import re"]
    assert entry["import_statement"][1:] == ['FENCE = "```"', 'DEFAULT_TITLE = "untitled"',
                                            'def _clean(text):\n    return re.sub(r"\\s+", " ", text).strip()']
    assert "```" not in entry["solution_code"] and "```" not in entry["skeleton"]
    assert "a title like ``\\x60`\"x\"``" in entry["solution_code"]  # same docstring value, no fence in it
    # without the carried statements the harness's cut loses the names the class uses
    lost = cut_code(entry["solution_code"])
    assert "DEFAULT_TITLE =" not in lost and "def _clean" not in lost


def test_a_release_export_passes_the_harness_plain_and_fenced_and_fails_with_the_skeleton(tmp_path, pool):
    store = ArtifactStore(tmp_path / "artifacts")
    result = release(store, "run-1", [_tokens_task(), _notes_task(), build_task()], Funnel(run_id="run-1"),
                     ReleaseConfig(release_date=date(2026, 11, 5)))
    export = json.loads((result.path / "classeval.json").read_text())
    manifest = json.loads((result.path / "manifest.json").read_text())
    tokens_id = next(e["task_id"] for e in export if e["class_name"] == "Tokens")
    assert manifest["export_notes"]["tests_not_converted"] == {tokens_id: ["test_with_a_yield_fixture"]}
    assert len(export) == 3

    assert failing(pool, export, fence=False) == {}
    assert failing(pool, export, fence=True) == {}
    # the one that also feeds is in TokensTest; the one taking a fixture that feeds is in TokensTestShare
    tokens = next(e for e in export if e["task_id"] == tokens_id)
    assert set(run_task(pool, tokens, tokens["solution_code"])) == {"TokensTestFeed", "TokensTestShare", "TokensTest"}

    for entry in export:
        verdicts = run_task(pool, entry, fenced(entry["skeleton"]))
        assert verdicts and all(v != "success" for v in verdicts.values()), (entry["class_name"], verdicts)
