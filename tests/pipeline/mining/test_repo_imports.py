"""Slices that follow imports of the repository's own modules: the module index, the combined slice, and
the local source on git repositories whose classes use helpers of sibling modules."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from git_fixtures import commit, git, make_repo
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.records import Rejection, RejectReason
from pipeline.mining.extract import parse_module
from pipeline.mining.filters import Drop
from pipeline.mining.local import mine_local
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.repo_imports import ModuleIndex, RepositoryModules, slice_with_imports
from pipeline.mining.slicing import self_contained
from pipeline.mining.tally import Tally

NEW = "2025-03-01"
README = "A ledger cache for accounts."

TEXT = '''import re

MAX_LABEL = 40
PATTERN = re.compile(r"\\s+")


def tidy(label: str) -> str:
    """Squash the spaces of a label."""
    return PATTERN.sub(" ", label).strip()


def unused() -> None:
    import requests  # never reached from a class's slice: not a reason to reject it
'''

MIDDLE = '''from .text import tidy


def shout(label: str) -> str:
    """A tidy label in capitals."""
    return tidy(label).upper()
'''

MODELS = '''from pydantic import BaseModel


class Label(BaseModel):
    text: str


def label_of(text: str) -> str:
    """The label, validated."""
    return Label(text=text).text
'''

FAIL = 'def fail(self):\n    """Refuse."""\n    raise LedgerError("refused")\n'


def _shop_files(package: str, prefix: str = "") -> dict[str, str]:
    """A package whose classes each use helpers of sibling modules in one way."""
    p = f"{prefix}{package}"
    return {
        f"{p}/__init__.py": "from .errors import LedgerError\n",
        f"{p}/errors.py": 'class LedgerError(Exception):\n    """A refused change."""\n',
        f"{p}/text.py": TEXT,
        f"{p}/middle.py": MIDDLE,
        f"{p}/models.py": MODELS,
        f"{p}/lost.py": "def keep(label: str) -> str:\n    return label\n",
        f"{p}/relative.py": ledger_module("RelativeLedger", imports="from .text import tidy, MAX_LABEL",
                                          helper_call="tidy(label)[:MAX_LABEL]"),
        f"{p}/absolute.py": ledger_module("AbsoluteLedger", helper_call="squash(label)[:MAX_LABEL]", extra_method=FAIL,
                                          imports=f"from {package}.text import tidy as squash, MAX_LABEL\n"
                                                  f"from {package} import LedgerError"),
        f"{p}/chain.py": ledger_module("ChainLedger", imports="from .middle import shout", helper_call="shout(label)"),
        f"{p}/typed.py": ledger_module("TypedLedger", imports="from .models import label_of",
                                       helper_call="label_of(label)"),
        f"{p}/clash.py": ledger_module("ClashLedger", imports="import re\nfrom .text import tidy\n\nPATTERN = re.compile('-')",
                                       helper_call="tidy(PATTERN.sub('', label))"),
        f"{p}/uses_lost.py": ledger_module("LostLedger", imports="from .lost import keep", helper_call="keep(label)"),
        "README.md": README,
    }


def _mine(root: Path) -> tuple[dict[str, MinedClass], dict[str, Rejection]]:
    kept, rejected = {}, {}
    for item in mine_local(root, MineConfig(), load_domains(settings.domain_registry_path()), Tally()):
        if isinstance(item, MinedClass):
            kept[item.class_name] = item
        elif item.evidence.get("class_name"):
            rejected[item.evidence["class_name"]] = item
    return kept, rejected


@pytest.fixture(scope="module")
def repos(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("repos")
    commit(make_repo(root / "shop"), NEW, _shop_files("shop"))
    srcshop = make_repo(root / "srcshop")
    commit(srcshop, NEW, {"src/srcshop/__init__.py": "", "src/srcshop/text.py": TEXT,
                          "src/srcshop/ledger.py": ledger_module("SrcLedger", imports="from srcshop.text import tidy",
                                                                 helper_call="tidy(label)"),
                          "README.md": README})
    return root


@pytest.fixture(scope="module")
def mined(repos):
    return _mine(repos)


def _compiles(code: str) -> None:
    compile(code, "<slice>", "exec")  # compiled only: mined code never runs outside the sandbox


@pytest.mark.slow
def test_helpers_of_sibling_modules_are_inlined_through_relative_and_absolute_imports(mined):
    kept, rejected = mined
    assert "AbsoluteLedger" in kept, rejected["AbsoluteLedger"].detail
    relative = kept["RelativeLedger"]
    _compiles(relative.slice_code)
    assert "def tidy(" in relative.slice_code and "MAX_LABEL = 40" in relative.slice_code
    assert "PATTERN = re.compile" in relative.slice_code and "import re" in relative.slice_code
    assert "from .text" not in relative.slice_code and "def unused" not in relative.slice_code
    assert relative.inlined == ("shop.text:MAX_LABEL", "shop.text:tidy")
    absolute = kept["AbsoluteLedger"]
    _compiles(absolute.slice_code)
    # the alias binds by an assignment; the re-export of the package's __init__ is followed to its definition
    assert "squash = tidy" in absolute.slice_code and "class LedgerError(Exception):" in absolute.slice_code
    assert "from shop" not in absolute.slice_code
    assert set(absolute.inlined) == {"shop.text:tidy", "shop.text:MAX_LABEL", "shop:LedgerError", "shop.errors:LedgerError"}


@pytest.mark.slow
def test_a_two_level_chain_and_a_src_layout_are_followed(mined):
    kept, _ = mined
    chain = kept["ChainLedger"].slice_code
    _compiles(chain)
    assert chain.index("def tidy(") < chain.index("def shout(") < chain.index("class ChainLedger")
    assert kept["ChainLedger"].inlined == ("shop.middle:shout", "shop.text:tidy")
    src = kept["SrcLedger"]
    _compiles(src.slice_code)
    assert "def tidy(" in src.slice_code and src.inlined == ("srcshop.text:tidy",)


@pytest.mark.slow
def test_a_chain_ending_in_a_third_party_import_is_rejected_naming_the_chain(mined):
    _, rejected = mined
    typed = rejected["TypedLedger"]
    assert typed.reason is RejectReason.NOT_SELF_CONTAINED
    assert "pydantic (through shop.models)" in typed.detail
    assert typed.evidence["modules"] == ["pydantic"] and typed.evidence["through"] == {"pydantic": "through shop.models"}


@pytest.mark.slow
def test_a_name_two_files_define_is_a_clash(mined):
    _, rejected = mined
    clash = rejected["ClashLedger"]
    assert clash.reason is RejectReason.NOT_SELF_CONTAINED
    assert "PATTERN (shop/clash.py, shop/text.py)" in clash.detail


@pytest.mark.slow
def test_an_unreadable_module_rejects_the_class_that_needs_it(repos, tmp_path):
    clone = tmp_path / "partial" / "shop.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repos / "shop"), str(clone)], check=True)
    blob = git(repos / "shop", "rev-parse", "HEAD:shop/lost.py").strip()
    pack_dir = clone / "objects" / "pack"  # unpack everything loose, then delete that one object
    for pack in pack_dir.glob("*.pack"):
        moved = tmp_path / pack.name
        pack.rename(moved)
        subprocess.run(["git", "-C", str(clone), "unpack-objects", "-q"], stdin=moved.open("rb"), check=True)
        for index in pack_dir.glob("*.idx"):
            index.unlink()
    (clone / "objects" / blob[:2] / blob[2:]).unlink()
    kept, rejected = _mine(tmp_path / "partial")
    lost = rejected["LostLedger"]
    assert lost.reason is RejectReason.NOT_SELF_CONTAINED
    assert ".lost (shop/lost.py is unreadable (its blob is absent))" in lost.detail
    assert "RelativeLedger" in kept


def test_the_index_names_modules_from_paths():
    index = ModuleIndex(["a/__init__.py", "a/b.py", "src/pkg/__init__.py", "src/pkg/x.py", "libs/lib/__init__.py",
                         "libs/lib/y.py", "one/util.py", "two/util.py", "scripts/tool.py", "my-dir/z.py", "json.py"])
    assert index.find("a") == "a/__init__.py" and index.find("a.b") == "a/b.py"
    assert index.find("pkg.x") == "src/pkg/x.py" and index.find("src.pkg.x") == "src/pkg/x.py"
    assert index.find("lib.y") == "libs/lib/y.py"
    assert index.find("util") is None  # one folder down only inside a package, so `one/util.py` is `one.util`
    assert index.find("tool") is None and index.find("z") is None
    assert index.name_of("src/pkg/x.py") == "pkg.x" and index.name_of("libs/lib/y.py") == "libs.lib.y"
    assert index.relative("a/b.py", 1, "b") == "a/b.py" and index.relative("a/b.py", 1, "") == "a/__init__.py"
    assert index.relative("a/b.py", 3, "x") is None  # above the root


def test_an_ambiguous_name_stays_an_import():
    index = ModuleIndex(["x/pkg/__init__.py", "x/pkg/m.py", "y/pkg/__init__.py", "y/pkg/m.py"])
    assert index.find("pkg.m") == ["x/pkg/m.py", "y/pkg/m.py"]
    sources = {"x/pkg/__init__.py": b"", "x/pkg/m.py": b"def tidy(s):\n    return s\n", "y/pkg/__init__.py": b"",
               "y/pkg/m.py": b"def tidy(s):\n    return s\n"}
    drop = self_contained(_piece(sources, "from pkg.m import tidy"))
    assert drop.reason is RejectReason.NOT_SELF_CONTAINED and "pkg.m (pkg.m is ambiguous" in drop.detail


def _piece(sources: dict[str, bytes], imports: str, helper_call: str = "tidy(label)", path: str = "app/ledger.py"):
    code = ledger_module(imports=imports, helper_call=helper_call)
    unit = next(c for c in parse_module(code, path).classes if c.name == "Ledger")
    return slice_with_imports(unit, RepositoryModules({**sources, path: code.encode()}))


def test_the_standard_library_wins_over_a_file_of_the_same_name_and_unparsable_modules_stay_imports():
    piece = _piece({"json.py": b"def dumps(x):\n    return x\n"}, "from json import dumps", "dumps(label)", "ledger.py")
    assert not isinstance(piece, Drop) and piece.inlined == () and "from json import dumps" in piece.code
    broken = _piece({"app/__init__.py": b"", "app/text.py": b"def tidy(:\n"}, "from .text import tidy")
    assert "does not parse" in self_contained(broken).detail
    missing = _piece({"app/__init__.py": b"", "app/text.py": b"X = 1\n"}, "from .text import tidy")
    assert "app.text defines no tidy" in self_contained(missing).detail


def test_a_cycle_and_an_inlined_star_import_reject():
    cycle = _piece({"app/__init__.py": b"", "app/text.py": b"from .more import tidy\n",
                    "app/more.py": b"from .text import tidy\n"}, "from .text import tidy")
    assert "imported in a cycle" in self_contained(cycle).detail
    back = _piece({"app/__init__.py": b"", "app/text.py": b"from .ledger import Ledger\n\ndef tidy(s):\n    return Ledger\n"},
                  "from .text import tidy")
    assert "app.ledger is imported in a cycle" in self_contained(back).detail
    star = _piece({"app/__init__.py": b"", "app/text.py": b"from os.path import *\n\ndef tidy(s):\n    return join(s)\n"},
                  "from .text import tidy")
    assert self_contained(star).reason is RejectReason.NOT_SELF_CONTAINED


def test_a_statement_two_files_repeat_word_for_word_is_no_clash_and_type_checking_imports_are_followed():
    logged = b"import logging\nfrom typing import Callable\n\nlogger = logging.getLogger(__name__)\n\n\n" \
             b"def tidy(s: str, f: Callable) -> str:\n    logger.debug(s)\n    return s\n"
    imports = ("import logging\nfrom collections.abc import Callable\nfrom typing import TYPE_CHECKING\n"
               "from .text import tidy\nif TYPE_CHECKING:\n    from .kinds import Kind\n\n"
               "logger = logging.getLogger(__name__)\n\n\ndef _use(k: 'Kind', f: Callable) -> None:\n    logger.info(k)\n")
    piece = _piece({"app/__init__.py": b"", "app/text.py": logged, "app/kinds.py": b"class Kind:\n    pass\n"},
                   imports, helper_call="tidy(label, _use(None, print))")
    assert self_contained(piece) is None, piece.clashes
    assert piece.code.count("logger = logging.getLogger(__name__)") == 1 and "class Kind:" in piece.code
    assert "TYPE_CHECKING:" not in piece.code and set(piece.inlined) == {"app.text:tidy", "app.kinds:Kind"}
    _compiles(piece.code)


def test_once_a_followed_module_needs_a_third_party_one_nothing_more_is_followed():
    sources = {"app/__init__.py": b"", "app/models.py": MODELS.encode(), "app/text.py": TEXT.encode()}
    piece = _piece(sources, "from .models import label_of\nfrom .text import tidy", "tidy(label_of(label))")
    drop = self_contained(piece)
    assert "pydantic (through app.models)" in drop.detail
    assert ".text (not followed, as it needs pydantic already)" in drop.detail
