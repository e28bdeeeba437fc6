"""Fresh by date is not fresh by content: a mined class that is a well-known implementation is not a new task.

A class first committed last month can still be something every model has seen thousands of times: a
textbook data structure or algorithm (a stack, a binary search tree, an LRU cache), a copy of a standard
library class, or a near-copy of a public benchmark's task. Such a class is `well_known`: without
`[mine] as_seeds` it is rejected; with it, it may still feed enhancement and composition (which make
something new of it) but is never released as a mined task of its own.

The rule, decided on the class's names, its shape and its tokens (nothing runs):

1. **Name.** The class name, split into words (`AVLTree` -> avl tree, `EfficientQueue` -> efficient queue),
   with qualifier words dropped (simple, basic, my, custom, efficient, naive, generic, ...), is a textbook
   name (`TEXTBOOK_NAMES`: stack, queue, linked list, binary search tree, heap, AVL tree, trie, LRU cache,
   union-find, bank account, binary search, ...), or such a name followed by `node` (`AVLNode`, `TrieNode`).
   Names that real code also uses for other things (`NAMES_NEEDING_SHAPE`: node, graph, tree, cache,
   account, matrix, ...) count only with the structure's vocabulary (below) or its fields (a node's
   next/left/right/value).
2. **Shape.** Whatever the name, the public methods hold every core group of a textbook shape
   (`TEXTBOOK_SHAPES`: push+pop+peek for a stack, enqueue+dequeue for a queue, deposit+withdraw for an
   account, insert+search+starts_with for a trie, add_edge+bfs+dfs for a graph, find+union for a disjoint
   set, left and right rotations for a balanced tree, ...) and at least `SHAPE_SHARE` of the public
   methods are the shape's vocabulary (core names and the usual extras: size, is_empty, display, ...). A
   class that merely has a `pop` among twenty domain methods is not a stack.
3. **Tokens.** The share of the class's 10-token n-grams (the decontamination measure,
   `pipeline.release.decontam.ngrams`) found in one entry of the reference corpus reaches
   `OVERLAP_THRESHOLD`. The corpus is built from what the user already has, nothing is downloaded: the
   classes of the standard library's own data-structure and utility modules (`STDLIB_MODULES`, read from
   this interpreter's library folder) and the public benchmarks the build decontaminates against
   (`benchmarks`, ClassEval-format files).

A match on any of the three makes the class well known; the evidence names which and what matched.
"""

from __future__ import annotations

import ast
import re
import sysconfig
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.release.decontam import ngrams, read_benchmark

QUALIFIERS = frozenset({
    "simple", "basic", "my", "custom", "efficient", "naive", "generic", "simplified", "minimal", "mini", "toy",
    "optimized", "optimised", "fast", "better", "improved", "dynamic", "based", "python", "py",
    "impl", "implementation", "class", "ds", "demo", "example", "sample", "new", "own", "classic", "standard",
    "using", "with", "two", "stacks", "queues", "typed", "thread", "safe", "threadsafe",
})
"""Words that qualify a structure's name without making it another structure (`EfficientQueue` is a queue,
`QueueUsingTwoStacks` a queue)."""

STRUCTURAL_PREFIXES = frozenset({"array", "list", "linked", "dynamic", "resizable", "fixed", "bounded"})
"""Words naming what a structure is built on, dropped from the front (`ArrayStack`, `LinkedListQueue`)."""

TEXTBOOK_NAMES = frozenset({
    "stack", "min stack", "max stack", "queue", "deque", "circular queue", "priority queue", "double ended queue",
    "linked list", "singly linked list", "doubly linked list", "circular linked list", "skip list",
    "binary tree", "binary search tree", "bst", "avl tree", "avl", "red black tree", "rb tree", "b tree",
    "splay tree", "segment tree", "fenwick tree", "binary indexed tree", "interval tree", "suffix tree",
    "suffix array", "heap", "min heap", "max heap", "binary heap", "heap queue", "trie", "prefix tree",
    "lru cache", "lfu cache", "union find", "disjoint set", "disjoint set union", "dsu", "hash map",
    "hash table", "hash set", "bloom filter", "ring buffer", "circular buffer", "sparse matrix",
    "bank account", "binary search", "bubble sort", "merge sort", "quick sort", "insertion sort",
    "selection sort", "heap sort", "tic tac toe", "tic tac toe game", "tic tac toe board", "tower of hanoi",
    "n queens", "count min sketch", "hyper log log", "lamport clock", "vector clock", "hybrid logical clock",
    "object pool", "resource pool", "knn", "k nearest neighbors", "k nearest neighbours", "bayes",
    "bayes classifier", "linear regression", "polynomial regression", "logistic regression", "logistic",
})
"""Textbook structures and algorithms, as words after qualifiers are dropped."""

NAMES_NEEDING_SHAPE = frozenset({
    "node", "list node", "tree node", "graph", "directed graph", "undirected graph", "weighted graph", "tree",
    "cache", "account", "matrix", "vector", "calculator", "counter", "ordered dict", "default dict", "fraction",
})
"""Names real code also gives to other things: well known only with the structure's vocabulary or fields."""

NODE_FIELDS = frozenset({"next", "prev", "previous", "left", "right", "parent", "children", "child", "data", "val",
                         "value", "key", "height", "color", "colour", "is_end", "is_end_of_word", "end", "nxt"})
"""The fields a textbook node holds; two of them (and a name ending in node) make one."""


@dataclass(frozen=True)
class Shape:
    """A textbook structure's method names: every core group must be present (any name of a group), and the
    public methods must mostly be its vocabulary (the core names and `extras`)."""

    name: str
    core: tuple[frozenset[str], ...]
    extras: frozenset[str] = frozenset()
    by_name_only: bool = False  # get+put is every key-value store's shape: an LRU cache only when so named

    @property
    def vocabulary(self) -> frozenset[str]:
        return frozenset().union(*self.core) | self.extras | COMMON_EXTRAS


COMMON_EXTRAS = frozenset({"size", "is_empty", "isempty", "empty", "is_full", "isfull", "display", "show", "print",
                           "print_list", "traverse", "to_list", "clear", "length", "get_size", "count", "len",
                           "contains", "peek", "top", "front", "rear", "back", "search", "find", "get", "set"})


def _names(*groups: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(group.split()) for group in groups)


TEXTBOOK_SHAPES: tuple[Shape, ...] = (
    Shape("stack", _names("push", "pop", "peek top")),
    Shape("queue", _names("enqueue add_rear put offer", "dequeue remove_front poll")),
    Shape("deque", _names("add_front push_front append_left appendleft insert_front",
                          "add_rear push_back append insert_rear", "remove_front pop_front popleft delete_front",
                          "remove_rear pop_back pop delete_rear")),
    Shape("linked list", _names("insert_at_head insert_at_beginning insert_front prepend add_first push_front "
                                "insert_at_start insert_head add_at_head",
                                "insert_at_tail insert_at_end append add_last push_back insert_end insert_tail "
                                "add_at_tail"),
          frozenset({"delete", "remove", "delete_node", "reverse", "insert_after", "insert_at", "delete_at",
                     "remove_first", "remove_last", "delete_head", "delete_tail", "index", "get_at", "pop_front",
                     "pop_back", "insert", "insert_at_index", "delete_at_index", "print_list"})),
    Shape("binary search tree", _names("insert add", "search find contains",
                                       "inorder inorder_traversal in_order in_order_traversal preorder "
                                       "postorder level_order"),
          frozenset({"delete", "remove", "min", "max", "find_min", "find_max", "min_value", "max_value", "height",
                     "preorder", "postorder", "preorder_traversal", "postorder_traversal", "level_order",
                     "level_order_traversal", "successor", "predecessor"})),
    Shape("heap", _names("push insert heappush add", "pop extract_min extract_max extract heappop delete_min "
                         "delete_max remove_min remove_max", "sift_up heapify_up bubble_up percolate_up "
                         "sift_down heapify_down bubble_down percolate_down heapify"),
          frozenset({"parent", "left_child", "right_child", "swap", "build_heap", "get_min", "get_max"})),
    Shape("balanced tree", _names("rotate_left left_rotate rotate_l", "rotate_right right_rotate rotate_r"),
          frozenset({"insert", "delete", "remove", "height", "get_height", "balance", "get_balance",
                     "balance_factor", "rebalance", "update_height", "inorder", "preorder", "search",
                     "fix_insert", "fix_delete", "min_value_node"})),
    Shape("trie", _names("insert add_word", "search find", "starts_with startswith starts_with_prefix has_prefix"),
          frozenset({"delete", "remove", "words_with_prefix", "autocomplete", "count_prefix"})),
    Shape("graph", _names("add_edge", "bfs breadth_first_search", "dfs depth_first_search"),
          frozenset({"add_vertex", "add_node", "remove_edge", "remove_vertex", "neighbors", "neighbours",
                     "topological_sort", "has_path", "shortest_path", "dijkstra", "has_cycle", "get_neighbors"})),
    Shape("disjoint set", _names("find find_set", "union union_sets merge"),
          frozenset({"connected", "same_set", "make_set", "is_connected", "count_sets", "size"})),
    Shape("bank account", _names("deposit", "withdraw"),
          frozenset({"get_balance", "balance", "view_balance", "check_balance", "transfer", "statement",
                     "get_transactions", "transaction_history", "add_interest", "apply_interest"})),
    Shape("lru cache", _names("get", "put"), frozenset({"capacity", "evict", "move_to_end", "remove"}),
          by_name_only=True),
)
"""Method-name shapes of textbook structures (names compared after snake-casing and dropping underscores at
the ends)."""

SHAPE_SHARE = 0.6
"""Share of a class's public methods that must be its shape's vocabulary for the shape to match."""

OVERLAP_THRESHOLD = 0.5
"""Share of a class's n-grams found in one reference entry that makes it a near-copy (the decontamination
threshold)."""

NGRAM_SIZE = 10

STDLIB_MODULES = (
    "collections/__init__.py", "_collections_abc.py", "queue.py", "heapq.py", "bisect.py", "functools.py",
    "graphlib.py", "fractions.py", "statistics.py", "string.py", "textwrap.py", "shlex.py", "configparser.py",
    "calendar.py", "ipaddress.py", "difflib.py", "sched.py", "weakref.py", "_weakrefset.py", "csv.py",
    "json/encoder.py", "json/decoder.py", "html/parser.py", "urllib/parse.py", "http/cookies.py", "random.py",
    "contextlib.py", "reprlib.py", "pprint.py", "argparse.py", "dataclasses.py", "enum.py", "cmd.py",
    "tokenize.py", "base64.py", "_pydatetime.py", "_pydecimal.py", "threading.py", "asyncio/queues.py",
    "asyncio/locks.py", "email/message.py", "mailbox.py", "zipfile/__init__.py", "tarfile.py", "logging/__init__.py",
)
"""Standard-library modules whose classes a mined class may copy or re-create: containers, parsers,
formatters, number types, synchronisation primitives. Read from this interpreter's library folder."""

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|\d+|[A-Z]+")


def name_words(name: str) -> list[str]:
    """`AVLTree` -> ['avl', 'tree']; `LRU_Cache` -> ['lru', 'cache']; `min_heap` -> ['min', 'heap']."""
    return [w.lower() for part in name.split("_") for w in _WORD.findall(part)]


def method_key(name: str) -> str:
    """A method name as shapes compare it: snake case, no leading or trailing underscores."""
    return "_".join(name_words(name.strip("_"))) if any(c.isupper() for c in name) else name.strip("_").lower()


def structure_names(class_name: str) -> list[str]:
    """The class name as a structure's names: its words with qualifiers dropped (all kept when all are
    qualifiers), then the same without each leading word that names what it is built on."""
    words = name_words(class_name)
    kept = [w for w in words if w not in QUALIFIERS] or words
    names = [" ".join(kept)]
    while len(kept) > 1 and kept[0] in STRUCTURAL_PREFIXES:
        kept = kept[1:]
        names.append(" ".join(kept))
    return names


@dataclass(frozen=True)
class Verdict:
    """Why a class is well known: which rule matched ('name', 'shape', 'overlap') and what it saw."""

    rule: str
    detail: str
    evidence: dict[str, Any] = field(default_factory=dict)


def _public_methods(node: ast.ClassDef) -> list[str]:
    return [item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            and not item.name.startswith("_")]


def _fields(node: ast.ClassDef) -> set[str]:
    """Attributes assigned on `self` anywhere in the class, and annotated class-level names (dataclasses)."""
    found = {target.attr for sub in ast.walk(node) if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             for target in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
             if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"}
    found |= {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)
              and isinstance(item.target, ast.Name)}
    return found


def matching_shape(methods: Sequence[str], *, named: bool = False) -> tuple[Shape, float] | None:
    """The textbook shape whose core groups `methods` (public method names) all hold, with the share of the
    methods that are its vocabulary, when that share reaches `SHAPE_SHARE`; the best such shape, or None.
    `named`: the class's name is a structure's (shapes too common to count alone then count)."""
    keys = [method_key(m) for m in methods]
    if not keys:
        return None
    best: tuple[Shape, float] | None = None
    for shape in TEXTBOOK_SHAPES:
        if (shape.by_name_only and not named) or not all(group & set(keys) for group in shape.core):
            continue
        share = sum(1 for k in keys if k in shape.vocabulary) / len(keys)
        if share >= SHAPE_SHARE and (best is None or share > best[1]):
            best = (shape, share)
    return best


def _name_verdict(node: ast.ClassDef) -> Verdict | None:
    names = structure_names(node.name)
    textbook = next((n for n in names if n in TEXTBOOK_NAMES), None)
    if textbook is not None:
        return Verdict("name", f"{node.name} is named as the textbook {textbook}", {"structure": textbook})
    name = names[0]
    words = name.split()
    node_of = words[-1] == "node" and (len(words) == 1 or " ".join(words[:-1]) in TEXTBOOK_NAMES | NAMES_NEEDING_SHAPE)
    if any(n in NAMES_NEEDING_SHAPE for n in names) or node_of:
        node_fields = sorted(_fields(node) & NODE_FIELDS)
        if node_of and len(node_fields) >= 2:
            return Verdict("name", f"{node.name} is a textbook node (fields {', '.join(node_fields)})",
                           {"structure": name, "fields": node_fields})
        shape = matching_shape(_public_methods(node), named=True)
        if shape is not None:
            return Verdict("name", f"{node.name} is named and shaped as a textbook {shape[0].name}",
                           {"structure": name, "shape": shape[0].name, "vocabulary_share": round(shape[1], 3)})
    return None


def _shape_verdict(node: ast.ClassDef) -> Verdict | None:
    methods = _public_methods(node)
    shape = matching_shape(methods)
    if shape is None:
        return None
    return Verdict("shape", f"{node.name}'s methods are a textbook {shape[0].name}'s "
                   f"({shape[1]:.0%} of {len(methods)} public methods are its vocabulary)",
                   {"shape": shape[0].name, "vocabulary_share": round(shape[1], 3), "methods": methods})


@dataclass(frozen=True)
class ReferenceEntry:
    """One class (or benchmark task) of the reference corpus: where it is and its n-grams."""

    source: str  # "stdlib:<module path>:<class>" or "<benchmark file>:<task_id>"
    grams: frozenset[tuple[str, ...]]


class ReferenceCorpus:
    """An inverted index n-gram -> reference entries, so a class is compared with every entry in one pass.
    Comparing per entry (not with the union of the corpus) keeps common idioms from adding up."""

    def __init__(self, entries: Iterable[ReferenceEntry]) -> None:
        self.entries = [e for e in entries if e.grams]
        self._postings: dict[tuple[str, ...], list[int]] = {}
        for index, entry in enumerate(self.entries):
            for gram in entry.grams:
                self._postings.setdefault(gram, []).append(index)

    def closest(self, code: str) -> tuple[float, str | None]:
        """(share of `code`'s n-grams found in the closest entry, that entry's source)."""
        grams = ngrams(code, NGRAM_SIZE)
        counts: Counter[int] = Counter()
        for gram in grams:
            counts.update(self._postings.get(gram, ()))
        if not grams or not counts:
            return 0.0, None
        best, shared = min(counts.items(), key=lambda kv: (-kv[1], self.entries[kv[0]].source))
        return round(shared / len(grams), 4), self.entries[best].source


def _classes_of(text: str) -> Iterable[tuple[str, str]]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            yield node.name, ast.get_source_segment(text, node) or ""


@lru_cache(maxsize=1)
def stdlib_entries() -> tuple[ReferenceEntry, ...]:
    """The classes of `STDLIB_MODULES` in this interpreter's library folder (a module absent from it, as
    some are from one Python to the next, is skipped)."""
    root = Path(sysconfig.get_paths()["stdlib"])
    entries = []
    for module in STDLIB_MODULES:
        path = root / module
        if not path.is_file():
            continue
        for name, code in _classes_of(path.read_text(encoding="utf-8", errors="replace")):
            entries.append(ReferenceEntry(f"stdlib:{module}:{name}", frozenset(ngrams(code, NGRAM_SIZE))))
    return tuple(entries)


@lru_cache(maxsize=4)
def reference_corpus(benchmarks: tuple[Path, ...] = ()) -> ReferenceCorpus:
    """The standard library's classes and the tasks of the benchmark files (their solutions), as one corpus;
    built once per process and set of files."""
    tasks = [ReferenceEntry(entry.source, frozenset(ngrams(entry.solution or entry.skeleton, NGRAM_SIZE)))
             for path in benchmarks for entry in read_benchmark(Path(path))]
    return ReferenceCorpus([*stdlib_entries(), *tasks])


def well_known(code: str, class_name: str, corpus: ReferenceCorpus | None = None) -> Verdict | None:
    """Why the class `class_name` of `code` is a well-known implementation (names, then shape, then token
    overlap with `corpus`), or None when it is not (or cannot be parsed: the other filters say why)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if node is None:
        return None
    verdict = _name_verdict(node) or _shape_verdict(node)
    if verdict is not None or corpus is None:
        return verdict
    overlap, source = corpus.closest(ast.get_source_segment(code, node) or code)
    if overlap >= OVERLAP_THRESHOLD:
        return Verdict("overlap", f"{class_name} shares {overlap:.0%} of its {NGRAM_SIZE}-grams with {source}",
                       {"overlap": overlap, "entry": source})
    return None
