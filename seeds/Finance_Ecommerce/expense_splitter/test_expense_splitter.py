import pytest

from expense_splitter import ExpenseSplitter


@pytest.fixture
def group():
    return ExpenseSplitter(["ana", "ben", "cy"])


def test_add_member_appears_in_balances(group):
    group.add_member("dee")
    assert group.balances() == {"ana": 0, "ben": 0, "cy": 0, "dee": 0}


def test_add_member_duplicate_rejected(group):
    with pytest.raises(ValueError):
        group.add_member("ana")


def test_add_expense_returns_sequential_ids(group):
    assert group.add_expense("ana", 300, ["ana", "ben"], "taxi") == 1
    assert group.add_expense("ben", 100, ["cy"], "coffee") == 2


def test_add_expense_even_split(group):
    group.add_expense("ana", 900, ["ana", "ben", "cy"], "dinner")
    assert group.balances() == {"ana": 600, "ben": -300, "cy": -300}


def test_add_expense_leftover_cents_go_alphabetically(group):
    group.add_expense("cy", 100, ["cy", "ben", "ana"], "snacks")
    assert group.balances() == {"ana": -34, "ben": -33, "cy": 67}


def test_add_expense_payer_not_participating(group):
    group.add_expense("ana", 500, ["ben"], "ticket")
    assert group.balances() == {"ana": 500, "ben": -500, "cy": 0}


def test_add_expense_unknown_payer(group):
    with pytest.raises(KeyError):
        group.add_expense("zed", 100, ["ana"], "x")


def test_add_expense_unknown_participant(group):
    with pytest.raises(KeyError):
        group.add_expense("ana", 100, ["ana", "zed"], "x")


def test_add_expense_no_participants(group):
    with pytest.raises(ValueError):
        group.add_expense("ana", 100, [], "x")


def test_add_expense_zero_amount(group):
    with pytest.raises(ValueError):
        group.add_expense("ana", 0, ["ben"], "x")


def test_add_weighted_expense_shares_by_weight(group):
    group.add_weighted_expense("ana", 1000, {"ana": 1, "ben": 1, "cy": 2}, "cabin")
    assert group.balances() == {"ana": 750, "ben": -250, "cy": -500}


def test_add_weighted_expense_rounding(group):
    group.add_weighted_expense("ben", 100, {"ana": 2, "cy": 1}, "fuel")
    assert group.balances() == {"ana": -67, "ben": 100, "cy": -33}


def test_add_weighted_expense_zero_weight_rejected(group):
    with pytest.raises(ValueError):
        group.add_weighted_expense("ana", 100, {"ben": 0}, "x")


def test_remove_expense_returns_description(group):
    expense = group.add_expense("ana", 300, ["ben"], "taxi")
    assert group.remove_expense(expense) == "taxi"
    assert group.owes("ben") == 0


def test_remove_expense_unknown(group):
    with pytest.raises(KeyError):
        group.remove_expense(3)


def test_record_payment_reduces_debt(group):
    group.add_expense("ana", 300, ["ben"], "taxi")
    group.record_payment("ben", "ana", 100)
    assert group.owes("ben") == 200


def test_record_payment_overpaying_turns_balance(group):
    group.add_expense("ana", 300, ["ben"], "taxi")
    group.record_payment("ben", "ana", 500)
    assert group.balances() == {"ana": -200, "ben": 200, "cy": 0}


def test_record_payment_to_self_rejected(group):
    with pytest.raises(ValueError):
        group.record_payment("ana", "ana", 10)


def test_record_payment_negative_rejected(group):
    with pytest.raises(ValueError):
        group.record_payment("ana", "ben", -10)


def test_record_payment_unknown_member(group):
    with pytest.raises(KeyError):
        group.record_payment("ana", "zed", 10)


def test_owes_creditor_is_zero(group):
    group.add_expense("ana", 300, ["ben"], "taxi")
    assert group.owes("ana") == 0


def test_owes_unknown_member(group):
    with pytest.raises(KeyError):
        group.owes("zed")


def test_remove_member_without_activity(group):
    group.remove_member("cy")
    assert group.balances() == {"ana": 0, "ben": 0}


def test_remove_member_in_expense_rejected(group):
    group.add_expense("ana", 300, ["ben"], "taxi")
    with pytest.raises(ValueError):
        group.remove_member("ben")


def test_remove_payer_rejected(group):
    group.add_expense("ana", 300, ["ben"], "taxi")
    with pytest.raises(ValueError):
        group.remove_member("ana")


def test_remove_member_with_payment_rejected(group):
    group.record_payment("cy", "ana", 300)
    with pytest.raises(ValueError):
        group.remove_member("cy")


def test_remove_member_after_expense_removed(group):
    expense = group.add_expense("ana", 300, ["cy"], "taxi")
    group.remove_expense(expense)
    group.remove_member("cy")
    assert group.balances() == {"ana": 0, "ben": 0}


def test_remove_member_unknown(group):
    with pytest.raises(KeyError):
        group.remove_member("zed")


def test_settle_up_nothing_to_do(group):
    assert group.settle_up() == []


def test_settle_up_empty_group():
    assert ExpenseSplitter([]).settle_up() == []


def test_settle_up_largest_debtor_pays_largest_creditor(group):
    group.add_member("dee")
    group.add_expense("ana", 1200, ["ana", "ben", "cy", "dee"], "boat")
    group.add_expense("ben", 400, ["cy", "dee"], "drinks")
    assert group.settle_up() == [("cy", "ana", 500), ("dee", "ana", 400), ("dee", "ben", 100)]


def test_settle_up_does_not_record_payments(group):
    group.add_expense("ana", 300, ["ben"], "taxi")
    group.settle_up()
    assert group.owes("ben") == 300


def test_trip_scenario():
    g = ExpenseSplitter(["ana", "ben", "dee"])
    assert g.add_expense("ana", 6000, ["ana", "ben"], "hotel") == 1
    g.add_member("cy")
    assert g.add_weighted_expense("cy", 3000, {"ana": 1, "ben": 1, "cy": 1}, "car") == 2
    assert g.balances() == {"ana": 2000, "ben": -4000, "cy": 2000, "dee": 0}
    g.remove_member("dee")
    g.record_payment("ben", "cy", 2000)
    assert g.owes("ben") == 2000
    assert g.settle_up() == [("ben", "ana", 2000)]
    assert g.remove_expense(2) == "car"
    assert g.balances() == {"ana": 3000, "ben": -1000, "cy": -2000}
    g.record_payment("cy", "ana", 2000)
    g.record_payment("ben", "ana", 1000)
    assert g.settle_up() == []
    assert g.add_expense("cy", 200, ["ana", "ben"], "ice cream") == 3
    assert g.settle_up() == [("ana", "cy", 100), ("ben", "cy", 100)]
    g.add_member("dee")
    assert g.owes("dee") == 0


def test_member_lifecycle_scenario():
    g = ExpenseSplitter(["ana"])
    g.add_member("ben")
    expense = g.add_expense("ben", 50, ["ana", "ben"], "lunch")
    with pytest.raises(ValueError):
        g.remove_member("ben")
    assert g.remove_expense(expense) == "lunch"
    g.remove_member("ben")
    assert g.balances() == {"ana": 0}
    g.add_member("ben")
    g.add_weighted_expense("ana", 90, {"ana": 2, "ben": 1}, "snacks")
    g.record_payment("ben", "ana", 30)
    assert g.owes("ben") == 0
    assert g.settle_up() == []


def test_one_cent_amounts_are_handled(group):
    assert group.add_expense("ana", 1, ["ben"], "sticker") == 1
    assert group.settle_up() == [("ben", "ana", 1)]
    group.record_payment("ben", "ana", 1)
    assert group.settle_up() == []


def test_record_payment_zero_rejected(group):
    with pytest.raises(ValueError):
        group.record_payment("ana", "ben", 0)
