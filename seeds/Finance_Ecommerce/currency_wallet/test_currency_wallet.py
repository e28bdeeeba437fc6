import pytest

from currency_wallet import CurrencyWallet


@pytest.fixture
def wallet():
    return CurrencyWallet("EUR", {"USD": "0.90", "GBP": "1.20", "JPY": "0.006"}, fee_percent="1")


def test_init_rejects_bad_fee_or_rate():
    with pytest.raises(ValueError):
        CurrencyWallet("EUR", {}, fee_percent="150")
    with pytest.raises(ValueError):
        CurrencyWallet("EUR", {"USD": "0"})
    with pytest.raises(ValueError):
        CurrencyWallet("EUR", {"EUR": "2"})


def test_set_rate_adds_currency(wallet):
    wallet.set_rate("CHF", "1.05")
    assert wallet.deposit("CHF", 100) == 100


def test_set_rate_changes_quote(wallet):
    wallet.set_rate("USD", "0.80")
    assert wallet.quote("USD", "EUR", 1000) == 800


def test_set_rate_base_rejected(wallet):
    with pytest.raises(ValueError):
        wallet.set_rate("EUR", "2")


def test_set_rate_negative_rejected(wallet):
    with pytest.raises(ValueError):
        wallet.set_rate("USD", "-0.5")


def test_balance_of_unheld_currency(wallet):
    assert wallet.balance("GBP") == 0


def test_deposit_accumulates(wallet):
    wallet.deposit("USD", 500)
    assert wallet.deposit("USD", 250) == 750


def test_deposit_unknown_currency(wallet):
    with pytest.raises(KeyError):
        wallet.deposit("XYZ", 10)


def test_deposit_non_positive(wallet):
    with pytest.raises(ValueError):
        wallet.deposit("USD", 0)


def test_withdraw_reduces_balance(wallet):
    wallet.deposit("GBP", 900)
    assert wallet.withdraw("GBP", 400) == 500


def test_withdraw_whole_balance(wallet):
    wallet.deposit("GBP", 900)
    assert wallet.withdraw("GBP", 900) == 0


def test_withdraw_insufficient(wallet):
    wallet.deposit("GBP", 100)
    with pytest.raises(ValueError):
        wallet.withdraw("GBP", 101)


def test_withdraw_unknown_currency(wallet):
    with pytest.raises(KeyError):
        wallet.withdraw("XYZ", 1)


def test_quote_cross_rate(wallet):
    assert wallet.quote("GBP", "USD", 900) == 1200


def test_quote_with_fee(wallet):
    assert wallet.quote("USD", "EUR", 5000, with_fee=True) == 4455


def test_quote_rounds_half_to_even():
    w = CurrencyWallet("EUR", {"AAA": "0.5"})
    assert w.quote("AAA", "EUR", 5) == 2
    assert w.quote("AAA", "EUR", 7) == 4


def test_quote_unknown_currency(wallet):
    with pytest.raises(KeyError):
        wallet.quote("USD", "XYZ", 100)


def test_convert_moves_money(wallet):
    wallet.deposit("USD", 10000)
    assert wallet.convert("USD", "EUR", 5000) == 4455
    assert wallet.balance("USD") == 5000
    assert wallet.balance("EUR") == 4455


def test_convert_between_non_base_currencies(wallet):
    wallet.deposit("GBP", 1000)
    assert wallet.convert("GBP", "JPY", 1) == 198


def test_convert_insufficient_funds_changes_nothing(wallet):
    wallet.deposit("USD", 100)
    with pytest.raises(ValueError):
        wallet.convert("USD", "EUR", 200)
    assert wallet.statement() == ["deposit 100 USD"]


def test_convert_same_currency_rejected(wallet):
    wallet.deposit("USD", 100)
    with pytest.raises(ValueError):
        wallet.convert("USD", "USD", 50)


def test_convert_tiny_amount_yields_nothing(wallet):
    wallet.deposit("JPY", 50)
    assert wallet.convert("JPY", "GBP", 1) == 0
    assert wallet.balance("JPY") == 49
    assert wallet.balance("GBP") == 0


def test_net_worth_in_base(wallet):
    wallet.deposit("USD", 1000)
    wallet.deposit("GBP", 1000)
    assert wallet.net_worth("EUR") == 2100


def test_net_worth_in_other_currency(wallet):
    wallet.deposit("EUR", 1200)
    assert wallet.net_worth("GBP") == 1000


def test_net_worth_empty_wallet(wallet):
    assert wallet.net_worth("USD") == 0


def test_net_worth_unknown_currency(wallet):
    with pytest.raises(KeyError):
        wallet.net_worth("XYZ")


def test_statement_records_conversion_steps(wallet):
    wallet.deposit("EUR", 1200)
    wallet.convert("EUR", "GBP", 1200)
    assert wallet.statement() == [
        "deposit 1200 EUR",
        "convert 1200 EUR -> 990 GBP",
    ]


def test_conversion_is_neither_a_withdrawal_nor_a_deposit(wallet):
    wallet.deposit("EUR", 1200)
    wallet.convert("EUR", "GBP", 600)
    wallet.withdraw("EUR", 100)
    wallet.deposit("GBP", 5)
    assert [entry.split()[0] for entry in wallet.statement()] == ["deposit", "convert", "withdraw", "deposit"]
    assert wallet.balance("EUR") == 500
    assert wallet.balance("GBP") == 500


def test_convert_into_unknown_currency_changes_nothing(wallet):
    wallet.deposit("EUR", 100)
    with pytest.raises(KeyError):
        wallet.convert("EUR", "XYZ", 50)
    assert wallet.balance("EUR") == 100
    assert wallet.statement() == ["deposit 100 EUR"]


def test_statement_is_a_copy(wallet):
    wallet.deposit("EUR", 5)
    wallet.statement().clear()
    assert wallet.statement() == ["deposit 5 EUR"]


def test_travel_scenario():
    w = CurrencyWallet("EUR", {"USD": "0.90", "GBP": "1.20"}, fee_percent="0.5")
    assert w.deposit("EUR", 100000) == 100000
    assert w.convert("EUR", "USD", 45000) == 49750
    assert w.withdraw("USD", 9750) == 40000
    w.set_rate("USD", "0.95")
    assert w.net_worth("EUR") == 93000
    assert w.convert("USD", "GBP", 40000) == 31508
    assert w.balance("USD") == 0
    assert w.deposit("USD", 1000) == 1000
    assert w.withdraw("EUR", 5000) == 50000
    w.set_rate("GBP", "1.25")
    assert w.net_worth("GBP") == 72268
    assert w.statement()[-2:] == ["deposit 1000 USD", "withdraw 5000 EUR"]


def test_rate_change_between_conversions_scenario():
    w = CurrencyWallet("EUR", {"USD": "1"})
    w.deposit("USD", 1000)
    assert w.convert("USD", "EUR", 500) == 500
    w.set_rate("USD", "2")
    assert w.quote("USD", "EUR", 500) == 1000
    assert w.convert("USD", "EUR", 500) == 1000
    assert w.withdraw("EUR", 1500) == 0
    assert w.net_worth("USD") == 0


def test_default_fee_is_zero():
    w = CurrencyWallet("EUR", {"USD": "0.90"})
    w.deposit("EUR", 900)
    assert w.convert("EUR", "USD", 900) == 1000
