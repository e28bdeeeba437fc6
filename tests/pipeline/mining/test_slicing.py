"""Extraction, shape filters, dependency slicing and the effects check on small modules."""

from __future__ import annotations

import textwrap

from mining_fixtures import ledger_module

from core.records import RejectReason
from pipeline.mining.effects import effects_filter
from pipeline.mining.extract import parse_module
from pipeline.mining.filters import first_drop
from pipeline.mining.shape import ShapeLimits, class_kind, shape_chain
from pipeline.mining.slicing import self_contained, slice_class


def _unit(source: str, name: str = "Ledger", path: str = "pkg/ledger.py"):
    module = parse_module(source, path)
    assert module is not None
    return next(c for c in module.classes if c.name == name)


def test_a_good_class_passes_every_shape_filter():
    unit = _unit(ledger_module())
    assert len(unit.method_names) == 7 and unit.line_count >= 40
    assert first_drop(unit, shape_chain("pkg/ledger.py", ShapeLimits())) is None


def test_shape_filters_name_their_reason():
    small = _unit("class Tiny:\n    def a(self):\n        return self.b()\n    def b(self):\n        return 1\n", "Tiny")
    assert first_drop(small, shape_chain("m.py", ShapeLimits())).reason is RejectReason.TOO_SMALL
    big = _unit(ledger_module())
    assert first_drop(big, shape_chain("m.py", ShapeLimits(max_lines=20))).reason is RejectReason.TOO_LARGE
    pytest_class = _unit(ledger_module().replace("def total(", "def test_total("), path="tests/test_ledger.py")
    in_test_file = first_drop(pytest_class, shape_chain("tests/test_ledger.py", ShapeLimits()))
    assert in_test_file.reason is RejectReason.NOT_A_TASK_CLASS and in_test_file.evidence == {"kind": "test"}
    lonely = "\n".join(f"    def m{i}(self, x):\n        y = x + {i}\n        z = y * 2\n        w = z - 1\n"
                       f"        v = w + y\n        u = v * z\n        return u + {i}\n" for i in range(6))
    no_edges = _unit("class Calc:\n" + lonely, "Calc")
    assert first_drop(no_edges, shape_chain("m.py", ShapeLimits())).reason is RejectReason.NO_INTERACTION


def test_class_kinds():
    def kind(header: str) -> str | None:
        return class_kind(_unit(f"{header}\n    x = 1\n", "K"))

    assert kind("class K(Enum):") == "enum"
    assert kind("class K(ValueError):") == "exception"
    assert kind("class K(typing.Protocol):") == "protocol"
    assert kind("class K(ABC):") == "abstract interface"
    assert kind("class K(metaclass=abc.ABCMeta):") == "abstract interface"
    assert kind("@dataclass\nclass K:") == "data holder"
    assert kind("class K(unittest.TestCase):") == "test"
    assert kind("class K(Base):") is None


def test_slice_takes_used_names_transitively_and_leaves_the_rest():
    source = textwrap.dedent('''
        from __future__ import annotations
        import requests
        import re

        PATTERN = re.compile(r"\\s+")
        UNUSED = 3

        def _squash(text):
            return PATTERN.sub(" ", text)

        def fetch(url):
            return requests.get(url)
        ''') + ledger_module(helper_call="_squash(label)").replace("\ndef _clean", "\ndef _unused_clean")
    piece = slice_class(_unit(source))
    assert piece.names == ("PATTERN", "_squash", "re")
    assert "requests" not in piece.code and "UNUSED" not in piece.code and "def fetch" not in piece.code
    assert piece.code.lstrip().startswith("from __future__ import annotations")
    assert piece.imports == ("__future__", "re")
    assert self_contained(piece) is None


def test_a_local_name_shadowing_a_module_name_does_not_pull_it_in():
    source = "import numpy as np\n" + ledger_module(helper_call="(lambda np: np)(label)")
    assert "numpy" not in slice_class(_unit(source)).code


def test_third_party_and_relative_imports_are_not_self_contained():
    third = slice_class(_unit(ledger_module(imports="from numpy import clip as _clean")))
    drop = self_contained(third)
    assert drop.reason is RejectReason.NOT_SELF_CONTAINED and drop.evidence == {"modules": ["numpy"]}
    relative = slice_class(_unit(ledger_module(imports="from .helpers import tidy", helper_call="tidy(label)")))
    assert self_contained(relative).evidence == {"modules": [".helpers"]}
    star = slice_class(_unit(ledger_module(imports="from helpers import *", helper_call="tidy(label)")))
    assert self_contained(star).reason is RejectReason.NOT_SELF_CONTAINED


def test_effects_filter():
    def drop_for(method: str, imports: str = ""):
        piece = slice_class(_unit(ledger_module(imports=imports, extra_method=method)))
        return effects_filter(piece)

    assert drop_for("") is None
    assert drop_for("def save(self, path):\n    with open(path, 'w') as f:\n        f.write('x')\n") is None
    fixed = drop_for("def save(self):\n    with open('/etc/ledger', 'w') as f:\n        f.write('x')\n")
    assert fixed.reason is RejectReason.UNSAFE_EFFECTS and "/etc/ledger" in fixed.detail
    assert drop_for("def read(self):\n    return open('data.txt').read()\n") is None
    spawn = drop_for("def run(self):\n    return run_it('ls')\n", imports="from os import system as run_it")
    assert spawn.reason is RejectReason.UNSAFE_EFFECTS and "os.system" in spawn.detail
    net = drop_for("def ping(self):\n    return socket.socket()\n", imports="import socket")
    assert net.reason is RejectReason.UNSAFE_EFFECTS and "socket" in net.detail
    nested = drop_for("def sh(self):\n    import subprocess\n    return subprocess.run(['ls'])\n")
    assert nested.reason is RejectReason.UNSAFE_EFFECTS
    path = drop_for("def wipe(self):\n    Path('/tmp/x').unlink()\n", imports="from pathlib import Path")
    assert path.reason is RejectReason.UNSAFE_EFFECTS


def test_a_name_used_only_in_a_decorator_belongs_to_the_decorated_statement():
    """`@dataclass` on a helper class the task class uses: the helper's import comes along (it used to be
    counted as used by the statement before the decorator, and the slice failed on import)."""
    source = textwrap.dedent('''
        from __future__ import annotations

        from dataclasses import dataclass


        @dataclass
        class Record:
            rid: str
            text: str


        class Store:
            def __init__(self):
                self._records = []

            def insert(self, text):
                record = Record(rid=str(len(self._records)), text=text)
                self._records.append(record)
                return record.rid
        ''')
    piece = slice_class(_unit(source, "Store"))
    assert "from dataclasses import dataclass" in piece.code
    assert piece.names == ("Record", "dataclass")
