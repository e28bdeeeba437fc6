"""The answer contract: one fenced python block defining the expected class, or a bad answer with its reason."""

from __future__ import annotations

import pytest

from core.records import RejectReason
from models.answers import BadAnswer, extract_python, extract_tests

CLASS = "class Wallet:\n    def pay(self, amount):\n        return amount\n"


def fenced(code: str, tag: str = "python") -> str:
    return f"```{tag}\n{code}```\n"


def reason_of(text: str, class_name: str = "Wallet") -> RejectReason:
    with pytest.raises(BadAnswer) as bad:
        extract_python(text, class_name)
    return bad.value.reason


@pytest.mark.parametrize("tag", ["python", "py", "Python", ""])
def test_one_block_with_text_around_it(tag: str) -> None:
    text = f"Sure! Here is the class.\n\n{fenced(CLASS, tag)}\n\nIt pays.\n"
    assert extract_python(text, "Wallet") == CLASS


def test_among_several_blocks_the_one_defining_the_class_is_used() -> None:
    usage = "wallet = Wallet()\nwallet.pay(3)\n"
    text = f"{fenced(usage)}\nand the class:\n{fenced(CLASS)}\n{fenced('pip install nothing', 'bash')}"
    assert extract_python(text, "Wallet") == CLASS


def test_helper_exception_classes_are_allowed_beside_the_class() -> None:
    code = "class WalletError(Exception):\n    pass\n\n\n" + CLASS
    assert extract_python(fenced(code), "Wallet") == code


@pytest.mark.parametrize(("text", "reason"), [
    ("I cannot do that.", RejectReason.NO_CODE),
    (fenced("echo hi", "bash"), RejectReason.NO_CODE),
    (fenced(CLASS.replace("Wallet", "Purse")), RejectReason.WRONG_CLASS_NAME),
    (fenced("x = 1\n") + fenced("y = 2\n"), RejectReason.WRONG_CLASS_NAME),
    (fenced(CLASS) + "\nor, shorter:\n" + fenced(CLASS), RejectReason.SEVERAL_CLASSES),
    (fenced(CLASS + "\n" + CLASS), RejectReason.SEVERAL_CLASSES),
    (fenced("class Wallet:\n    def pay(self, amount)\n        return amount\n"), RejectReason.SYNTAX_ERROR),
])
def test_bad_answers_have_their_reason(text: str, reason: RejectReason) -> None:
    assert reason_of(text) is reason


def test_a_broken_block_among_several_is_still_the_answer() -> None:
    broken = "class Wallet:\n    def pay(self\n"
    assert reason_of(fenced("w = Wallet()\n") + fenced(broken)) is RejectReason.SYNTAX_ERROR


def test_tests_answer() -> None:
    tests = "from wallet import Wallet\n\n\ndef test_pay():\n    assert Wallet().pay(2) == 2\n"
    assert extract_tests("Tests:\n" + fenced("import pytest\n") + fenced(tests)) == tests
    with pytest.raises(BadAnswer) as bad:
        extract_tests(fenced(tests) + fenced(tests))
    assert bad.value.reason is RejectReason.AMBIGUOUS_ANSWER
    with pytest.raises(BadAnswer) as bad:
        extract_tests("no code")
    assert bad.value.reason is RejectReason.NO_CODE
