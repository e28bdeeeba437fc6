"""A ClassEval-style corpus imported with `import-classeval --as-seeds` is a seed corpus `seeds check` accepts:
docstrings come from the skeleton, domains from the registry's keywords, and what cannot be used is named."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.corpus.classeval_seeds import merge_skeleton_docstrings
from tests.cli_runner import run_cli
from tests.pipeline.classeval_style import CORPUS, SHOPPING_CART, WALLET, write_corpus


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CLASSEVAL_PRO_SEEDS", "CLASSEVAL_PRO_DOMAINS"):
        monkeypatch.delenv(name, raising=False)  # the bundled registry assigns the domains
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    return tmp_path


def _method_docstrings(path: Path, class_name: str) -> dict[str, str | None]:
    [node] = [n for n in ast.parse(path.read_text()).body if isinstance(n, ast.ClassDef) and n.name == class_name]
    return {m.name: ast.get_docstring(m) for m in node.body if isinstance(m, ast.FunctionDef)}


def test_an_imported_classeval_style_corpus_passes_seeds_check(workspace: Path, monkeypatch, capsys):
    source = write_corpus(workspace / "style.json")
    seeds = workspace / "seeds"
    code, out, err = run_cli(monkeypatch, capsys, "import-classeval", str(source), "--as-seeds", str(seeds))
    assert code == 0, err
    assert "wrote 6 seed folder(s)" in out and "(Finance_Ecommerce 3, Game_Sim 3)" in out and "0 skipped" in out
    assert sorted(str(p.relative_to(seeds)) for p in seeds.glob("*/*")) == [
        "Finance_Ecommerce/invoice_book", "Finance_Ecommerce/shopping_cart", "Finance_Ecommerce/wallet",
        "Game_Sim/dice_game", "Game_Sim/game_inventory", "Game_Sim/snake_game"]
    wallet = seeds / "Finance_Ecommerce" / "wallet"
    docs = _method_docstrings(wallet / "wallet.py", "Wallet")
    assert all(docs.values()) and docs["deposit"].startswith('Put money in and record ("deposit", amount).')
    assert ast.get_docstring(ast.parse((wallet / "wallet.py").read_text()).body[0]).startswith("A wallet with")
    assert (wallet / "test_wallet.py").read_text().startswith("from wallet import *\n")
    assert (seeds / "domains.toml").is_file()  # the folder is a corpus of its own

    monkeypatch.setenv("CLASSEVAL_PRO_SEEDS", str(seeds))
    code, out, err = run_cli(monkeypatch, capsys, "seeds", "check", "--no-gate")
    assert code == 0, err
    assert "6 valid seed(s), 0 with problems, 6 with methods missing docstrings or type hints" in out
    assert f"unstated {wallet / 'wallet.py'}: method Wallet.deposit: no type hint on amount; no return type" in err
    assert "no docstring" not in err


def test_seeds_check_names_uncollected_tests_and_undocumented_methods(workspace: Path, monkeypatch, capsys):
    """Tests pytest would not collect (no TestCase base, no Test prefix) keep a seed out; a skeleton without
    docstrings leaves the seed in, with each undocumented method named."""
    entries = [{**SHOPPING_CART, "skeleton": "class ShoppingCart:\n    pass\n"}, WALLET]
    entries[1] = {**WALLET, "test": WALLET["test"].replace("(unittest.TestCase)", "")}
    seeds = workspace / "seeds"
    code, _, err = run_cli(monkeypatch, capsys, "import-classeval", str(write_corpus(workspace / "s.json", entries)),
                           "--as-seeds", str(seeds))
    assert code == 0, err
    monkeypatch.setenv("CLASSEVAL_PRO_SEEDS", str(seeds))
    code, out, err = run_cli(monkeypatch, capsys, "seeds", "check", "--no-gate")
    assert code == 1
    assert "1 valid seed(s), 1 with problems" in out
    assert "test_wallet.py: defines no tests pytest would collect" in err
    assert "method ShoppingCart.total: no docstring; no return type" in err


def test_unusable_tasks_are_named_and_the_rest_imported(workspace: Path, monkeypatch, capsys):
    nameless = {**WALLET, "task_id": "Style_07", "class_name": "Quux", "class_description": "Holds things.",
                "solution_code": WALLET["solution_code"].replace("Wallet", "Quux"), "skeleton": ""}
    broken = {**SHOPPING_CART, "task_id": "Style_08", "solution_code": "class ShoppingCart:\n    def f(self:\n"}
    curly = {**WALLET, "skeleton": WALLET["skeleton"].replace('"""', "\u201c\u201c\u201c", 1)}
    source = write_corpus(workspace / "mixed.json", [curly, nameless, broken, {"task_id": "Style_09"}])
    code, out, err = run_cli(monkeypatch, capsys, "import-classeval", str(source), "--as-seeds", str(workspace / "seeds"))
    assert code == 0
    assert "wrote 1 seed folder(s)" in out and "3 skipped" in out
    assert "mixed.json[1] (Style_07): no domain keyword in its name, description or skeleton; give --default-domain" in err
    assert "mixed.json[3]: missing or empty field(s) class_name, solution_code, test" in err
    assert "mixed.json[2] (Style_08): solution_code does not parse" in err
    assert "mixed.json[0] (Style_02): docstrings not merged: skeleton does not parse" in err

    code, out, err = run_cli(monkeypatch, capsys, "import-classeval", str(source), "--as-seeds", str(workspace / "other"),
                             "--default-domain", "Utils_Tools")
    assert "wrote 2 seed folder(s)" in out and (workspace / "other" / "Utils_Tools" / "quux" / "quux.py").is_file()


def test_one_domain_given_for_all_and_an_unknown_one_refused(workspace: Path, monkeypatch, capsys):
    source = write_corpus(workspace / "style.json")
    code, out, _ = run_cli(monkeypatch, capsys, "import-classeval", str(source), "--as-seeds", str(workspace / "seeds"),
                           "--domain", "Business_App")
    assert code == 0 and f"wrote {len(CORPUS)} seed folder(s)" in out and "(Business_App 6)" in out
    code, _, err = run_cli(monkeypatch, capsys, "import-classeval", str(source), "--as-seeds", str(workspace / "x"),
                           "--domain", "Games")
    assert code == 2 and "domain 'Games' is not in the registry" in err


def test_merging_keeps_the_solutions_own_docstrings_and_text():
    skeleton = 'class A:\n    """Class doc."""\n\n    def f(self, x):\n        """Skeleton f."""\n\n    def g(self):\n        """Skeleton g."""\n'
    solution = 'class A:\n    def f(self, x):  # keep me\n        return x\n\n    def g(self):\n        """Own g."""\n        return 1\n'
    merged, added = merge_skeleton_docstrings(solution, skeleton, "A")
    assert added == 2
    assert merged == ('class A:\n    """Class doc."""\n\n    def f(self, x):  # keep me\n        """Skeleton f."""\n'
                      '        return x\n\n    def g(self):\n        """Own g."""\n        return 1\n')
