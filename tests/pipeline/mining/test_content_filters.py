"""New in content, substantial, safe: well-known implementations, getter/setter holders and default-path writes.

The static rules are tested on small classes; the mine stage's use of them on git repositories the tests
make (a textbook stack beside a ledger): rejected `well_known` without `[mine] as_seeds`, kept as a seed
only with it.
"""

from __future__ import annotations

import json
import sysconfig
import textwrap
from pathlib import Path

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from core.layout import Folder, Stage
from core.records import Rejection, RejectReason
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.mining.candidates import WELL_KNOWN, releasable_alone
from pipeline.mining.effects import effects_filter
from pipeline.mining.examine import Passed, examine_source
from pipeline.mining.extract import parse_module
from pipeline.mining.records import MineConfig
from pipeline.mining.shape import ShapeLimits, trivial_filter
from pipeline.mining.slicing import slice_class
from pipeline.mining.well_known import reference_corpus, structure_names, well_known
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, run_stage
from pipeline.stages.mine import MineStage
from pipeline.stages.mined_seeds import MinedSeedsStage
from pipeline.stages.run_records import accepted, generated_candidates

STACK = textwrap.dedent('''
    class Stack:
        """A last-in, first-out stack of items."""

        def __init__(self):
            """Start empty."""
            self.items = []

        def push(self, item):
            """Put an item on top."""
            self.items.append(item)

        def pop(self):
            """Take the top item off and return it; IndexError when empty."""
            if not self.items:
                raise IndexError("pop from an empty stack")
            return self.items.pop()

        def peek(self):
            """The top item, left in place; IndexError when empty."""
            if not self.items:
                raise IndexError("peek at an empty stack")
            return self.items[-1]

        def is_empty(self):
            """Whether no item is held."""
            return not self.items

        def size(self):
            """How many items are held."""
            return len(self.items)
''')


def _unit(source: str, name: str):
    return next(c for c in parse_module(source, "pkg/mod.py").classes if c.name == name)


@pytest.mark.parametrize("name,words", [("AVLTree", ["avl tree"]), ("EfficientQueue", ["queue"]),
                                        ("LRU_Cache", ["lru cache"]), ("LinkedListStack", ["linked list stack",
                                                                                           "list stack", "stack"])])
def test_a_class_name_reads_as_a_structure_name(name, words):
    assert structure_names(name) == words


@pytest.mark.parametrize("name", ["Stack", "EfficientQueue", "AVLTree", "BinarySearch", "BankAccount", "LRUCache",
                                  "MinHeap", "Trie", "DoublyLinkedList", "QueueUsingTwoStacks",
                                  # the corpus's textbook sketches, clocks, pools and from-scratch models
                                  "CountMinSketch", "HyperLogLog", "VectorClock", "ObjectPool", "NaiveBayes",
                                  "LinearRegression", "KNN", "TicTacToeGame"])
def test_textbook_names_are_well_known(name):
    verdict = well_known(f"class {name}:\n    def run(self):\n        return 1\n", name)
    assert verdict is not None and verdict.rule == "name", name


def test_ambiguous_names_need_the_structures_vocabulary_or_fields():
    node = "class Node:\n    def __init__(self, value):\n        self.value = value\n        self.next = None\n"
    assert well_known(node, "Node").rule == "name"
    avl = "class AVLNode:\n    def __init__(self, key):\n        self.key = key\n        self.left = self.right = None\n"
    assert well_known(avl, "AVLNode") is not None
    # an agent framework's node and graph are not textbook ones
    step = "class Node:\n    def __init__(self, tool):\n        self.tool = tool\n    def run(self, state):\n        return state\n"
    assert well_known(step, "Node") is None
    graph = "class Graph:\n    def add_step(self, step):\n        pass\n    def compile(self):\n        pass\n"
    assert well_known(graph, "Graph") is None
    assert well_known(graph.replace("add_step", "add_edge").replace("compile(self)", "bfs(self, start)")
                      + "    def dfs(self, start):\n        pass\n", "Graph").rule == "name"


def test_a_textbook_shape_is_well_known_under_any_name_unless_its_methods_are_mostly_other():
    renamed = STACK.replace("class Stack", "class UndoHistory")
    verdict = well_known(renamed, "UndoHistory")
    assert verdict.rule == "shape" and verdict.evidence["shape"] == "stack"
    assert well_known(STACK, "Stack").rule == "name"
    # a domain class with push/pop/peek among many other methods is not a stack
    busy = renamed + "".join(f"    def step_{i}(self):\n        return {i}\n" for i in range(6))
    assert well_known(busy, "UndoHistory") is None
    # get/put is every key-value store's shape: an LRU cache only when so named
    store = "class ToolRegistry:\n    def get(self, key):\n        pass\n    def put(self, key, value):\n        pass\n"
    assert well_known(store, "ToolRegistry") is None
    assert well_known(ledger_module(), "Ledger") is None


def test_a_copy_of_a_standard_library_class_overlaps_the_reference_corpus():
    source = (Path(sysconfig.get_paths()["stdlib"]) / "graphlib.py").read_text(encoding="utf-8")
    copied = source.replace("class TopologicalSorter", "class StepOrdering").replace("TopologicalSorter", "StepOrdering")
    verdict = well_known(copied, "StepOrdering", reference_corpus())
    assert verdict.rule == "overlap" and verdict.evidence["entry"] == "stdlib:graphlib.py:TopologicalSorter"
    assert verdict.evidence["overlap"] >= 0.5
    assert well_known(ledger_module(), "Ledger", reference_corpus()) is None


def test_a_near_copy_of_a_benchmark_task_overlaps_the_benchmark_file(tmp_path):
    original = ledger_module("Ledger")
    benchmark = tmp_path / "bench.json"
    benchmark.write_text(json.dumps([{"task_id": "Bench/7", "skeleton": "", "solution_code": original}]))
    renamed = original.replace("class Ledger", "class Tally")
    assert well_known(renamed, "Tally", reference_corpus()) is None  # not in the standard library
    verdict = well_known(renamed, "Tally", reference_corpus((benchmark,)))
    assert verdict.rule == "overlap" and verdict.evidence["entry"] == "bench.json:Bench/7"


NODE_HOLDER = textwrap.dedent('''
    class Node:
        """One item of a chain."""

        def __init__(self, data):
            self.data = data
            self.next = None

        def get_data(self):
            return self.data

        def set_data(self, data):
            self.data = data

        def get_next(self):
            return self.next

        def set_next(self, node):
            self.next = node
''')

CONSTANT_RESULTS = textwrap.dedent('''
    class Pricing:
        """Prices from rates fixed at construction."""

        def __init__(self, rate, fee):
            self.rate = rate
            self.fee = fee

        def price(self, amount):
            return self._round(amount * self.rate) + self.fee

        def quote(self, amounts):
            return [self.price(a) for a in amounts]

        def _round(self, value):
            return round(value, 2)
''')


def test_getter_setter_holders_and_constructor_only_classes_are_trivial():
    check = trivial_filter(ShapeLimits())
    drop = check(_unit(NODE_HOLDER, "Node"))
    assert drop.reason is RejectReason.TRIVIAL
    assert set(drop.evidence["accessors"]) == {"get_data", "set_data", "get_next", "set_next"}
    assert drop.evidence["dependent_methods"] == {}
    pricing = check(_unit(CONSTANT_RESULTS, "Pricing"))
    assert pricing.reason is RejectReason.TRIVIAL and "0 public method(s)" in pricing.detail
    assert check(_unit(STACK, "Stack")) is None  # pop and peek read what push wrote
    assert check(_unit(ledger_module(), "Ledger")) is None
    assert trivial_filter(ShapeLimits(min_dependent_methods=0))(_unit(NODE_HOLDER, "Node")) is None


def test_examine_rejects_a_trivial_class_with_its_reason():
    source = NODE_HOLDER + "\n" + "\n".join(f"# padding line {i}" for i in range(20))
    config = MineConfig(require_docstrings=False, shape=ShapeLimits(min_lines=5, enough_lines=5))
    [(name, drop)] = list(examine_source("pkg/node.py", source, config, require_docstrings=False))
    assert name == "Node" and drop.reason is RejectReason.TRIVIAL


def _writes(method: str, *, init: str = "def __init__(self):\n    self.rows = []\n", header: str = "") -> str:
    body = textwrap.indent(init + method, "    ")
    return (f"import json\nimport os\nfrom pathlib import Path\n{header}\n\nclass Scores:\n    \"\"\"Scores.\"\"\"\n\n{body}\n"
            "    def add(self, value):\n        self.rows.append(value)\n")


@pytest.mark.parametrize("source,written", [
    (_writes("def save(self, path='data/scores.json'):\n    with open(path, 'w') as f:\n        json.dump(self.rows, f)\n"),
     "'data/scores.json'"),
    (_writes("def save(self):\n    with open(self.path, 'w') as f:\n        json.dump(self.rows, f)\n",
             init="def __init__(self, path='scores.json'):\n    self.path = path\n    self.rows = []\n"), "'scores.json'"),
    (_writes("def save(self):\n    Path(self.path).write_text(json.dumps(self.rows))\n",
             init="def __init__(self):\n    self.path = '/var/tmp/scores.json'\n    self.rows = []\n"),
     "'/var/tmp/scores.json'"),
    (_writes("def save(self):\n    with open(SCORES, 'w') as f:\n        json.dump(self.rows, f)\n",
             header="SCORES = os.path.join('data', 'scores.json')\n"), "'data'"),
    (_writes("def save(self):\n    (self.folder / 'scores.json').write_text('x')\n",
             init="def __init__(self, folder=Path('data')):\n    self.folder = folder\n    self.rows = []\n"),
     "'data'"),
])
def test_a_write_to_a_default_path_is_unsafe(source, written):
    drop = effects_filter(slice_class(_unit(source, "Scores")))
    assert drop is not None and drop.reason is RejectReason.UNSAFE_EFFECTS, source
    assert f"writes the default path {written}" in drop.detail


def test_a_default_path_is_safe_when_the_tests_redirect_it_into_the_working_folder():
    source = _writes("def save(self):\n    with open(self.path, 'w') as f:\n        json.dump(self.rows, f)\n",
                     init="def __init__(self, path='data/scores.json'):\n    self.path = path\n    self.rows = []\n")
    piece = slice_class(_unit(source, "Scores"))
    redirecting = "def test_save(tmp_path):\n    Scores(path=tmp_path / 's.json').save()\n"
    assert effects_filter(piece, (redirecting,)) is None
    assert effects_filter(piece, ("def test_save():\n    Scores(path='other.json').save()\n",)) is not None
    assert effects_filter(piece) is not None
    # reading a default path, or writing a path the caller gives, is no default-path write
    reader = _writes("def load(self, path='data/scores.json'):\n    with open(path) as f:\n        return json.load(f)\n")
    assert effects_filter(slice_class(_unit(reader, "Scores"))) is None
    given = _writes("def save(self, path):\n    with open(path, 'w') as f:\n        json.dump(self.rows, f)\n")
    assert effects_filter(slice_class(_unit(given, "Scores"))) is None


def test_examine_reads_the_repositorys_tests_for_the_redirect():
    source = _writes("def save(self):\n    with open(self.path, 'w') as f:\n        json.dump(self.rows, f)\n"
                     "    return len(self.rows)\n",
                     init="def __init__(self, path='data/scores.json'):\n    self.path = path\n    self.rows = []\n")
    config = MineConfig(require_docstrings=False, shape=ShapeLimits(min_lines=5, enough_lines=5, min_dependent_methods=0))
    [(name, drop)] = list(examine_source("pkg/scores.py", source, config, require_docstrings=False))
    assert drop.reason is RejectReason.UNSAFE_EFFECTS
    tests = {"tests/test_scores.py": "from pkg.scores import Scores\n\ndef test_it(tmp_path):\n"
                                     "    assert Scores(path=str(tmp_path / 'x.json')).save() == 0\n"}
    [passed] = list(examine_source("pkg/scores.py", source, config, test_sources=tests, require_docstrings=False))
    assert isinstance(passed, Passed)


@pytest.mark.slow
@pytest.mark.parametrize("as_seeds", [False, True])
def test_the_mine_stage_rejects_a_textbook_stack_or_keeps_it_as_a_seed_only(tmp_path, as_seeds):
    repo = make_repo(tmp_path / "repos" / "study")
    commit(repo, "2025-04-02", {"study/stack.py": STACK + "\n" + "\n".join(f"# note {i}" for i in range(8)),
                                "study/ledger.py": ledger_module("FreshLedger"), "README.md": "a ledger cache"})
    config = BuildConfig(mine=MineConfig(local=tmp_path / "repos", as_seeds=as_seeds))
    store = ArtifactStore(tmp_path / "artifacts")
    ctx = RunContext(store, "run-1", config, Settings.from_environment().with_artifacts(store.root))
    count = run_stage(MineStage(), ctx)[Stage.MINE]
    candidates = {c.class_name: c for c in generated_candidates(store, "run-1")}
    rejections = [r for _, r in store.iter_records("run-1", Folder.REJECTIONS, Rejection)]
    if not as_seeds:
        assert set(candidates) == {"FreshLedger"} and count.rejected.get(RejectReason.WELL_KNOWN) == 1
        [known] = [r for r in rejections if r.reason is RejectReason.WELL_KNOWN]
        assert known.evidence["class_name"] == "Stack" and known.evidence["rule"] == "name"
        return
    assert set(candidates) == {"FreshLedger", "Stack"} and not count.rejected.get(RejectReason.WELL_KNOWN)
    stack = candidates["Stack"]
    assert stack.generator.parameters[WELL_KNOWN]["rule"] == "name" and not releasable_alone(stack)
    assert releasable_alone(candidates["FreshLedger"])
    seeds = run_stage(MinedSeedsStage(), ctx)[Stage.MINED_SEEDS]
    # the stack passed the gate and became a seed, recorded as rejected for a task of its own
    assert store.has("run-1", Stage.MINED_SEEDS, stack.candidate_id)
    assert seeds.rejected == {RejectReason.WELL_KNOWN: 1}
    [known] = [r for _, r in store.iter_records("run-1", Folder.REJECTIONS, Rejection)
               if r.reason is RejectReason.WELL_KNOWN]
    assert known.candidate_id == stack.candidate_id and known.stage == Stage.MINED_SEEDS.value
    assert "seed of enhance and compose only" in known.detail
    passed = {c.class_name for _, c, _ in accepted(store, "run-1")}
    assert "Stack" not in passed
