"""The ClassEval export runs under ClassEval's harness: a release's `classeval.json`, run through the
harness's steps (classeval_harness.py, in its own process), passes every test class with the reference and
fails them with the skeleton; the pytest module becomes unittest classes in ClassEval's shape."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

from release_fixtures import build_task

from core.funnel import Funnel
from core.records import MethodDependencies, MethodInfo
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from pipeline.release.export import classeval_entry, to_unittest
from pipeline.release.task_builder import split_imports

HARNESS = Path(__file__).with_name("classeval_harness.py")

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


def _harness(export: Path, mode: str, workdir: Path) -> dict:
    workdir.mkdir()
    done = subprocess.run([sys.executable, str(HARNESS), str(export), mode, str(workdir)], capture_output=True,
                          text=True, timeout=120, cwd=workdir)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


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
    assert entry["import_statement"] == ["import re", "from collections import Counter"]
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


def test_a_release_export_passes_the_harness_with_the_reference_and_fails_with_the_skeleton(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    result = release(store, "run-1", [_tokens_task(), build_task()], Funnel(run_id="run-1"),
                     ReleaseConfig(release_date=date(2026, 11, 5)))
    export = result.path / "classeval.json"
    manifest = json.loads((result.path / "manifest.json").read_text())
    tokens_id = next(e["task_id"] for e in json.loads(export.read_text()) if e["class_name"] == "Tokens")
    assert manifest["export_notes"]["tests_not_converted"] == {tokens_id: ["test_with_a_yield_fixture"]}

    reference = _harness(export, "reference", tmp_path / "reference")
    assert len(reference) == 2
    for per_class in reference.values():
        for outcome in per_class.values():
            assert outcome["testsRun"] > 0 and outcome["errors"] == outcome["failures"] == 0, per_class
    # the one that also feeds is in TokensTest; the one taking a fixture that feeds is in TokensTestShare
    assert reference[tokens_id]["TokensTestShare"]["testsRun"] == 3

    skeleton = _harness(export, "skeleton", tmp_path / "skeleton")
    for per_class in skeleton.values():
        for name, outcome in per_class.items():
            assert outcome["testsRun"] > 0 and outcome["errors"] + outcome["failures"] > 0, (name, outcome)
