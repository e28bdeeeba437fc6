from decimal import Decimal

import pytest

from loan_schedule import LoanSchedule


@pytest.fixture
def loan():
    return LoanSchedule("1000.00", "12", 12)


def test_init_rejects_bad_terms():
    with pytest.raises(ValueError):
        LoanSchedule("0", "5", 12)
    with pytest.raises(ValueError):
        LoanSchedule("1000", "-1", 12)
    with pytest.raises(ValueError):
        LoanSchedule("1000", "5", 0)


def test_monthly_payment_annuity(loan):
    assert loan.monthly_payment() == Decimal("88.85")


def test_monthly_payment_other_terms():
    assert LoanSchedule("5000", "6.5", 24).monthly_payment() == Decimal("222.73")


def test_monthly_payment_zero_rate():
    assert LoanSchedule("1200", "0", 12).monthly_payment() == Decimal("100.00")


def test_schedule_first_row(loan):
    assert loan.schedule()[0] == (1, Decimal("10.00"), Decimal("78.85"), Decimal("921.15"))


def test_schedule_has_one_row_per_month(loan):
    assert [row[0] for row in loan.schedule()] == list(range(1, 13))


def test_schedule_final_row_clears_balance(loan):
    assert loan.schedule()[-1] == (12, Decimal("0.88"), Decimal("87.96"), Decimal("0.00"))


def test_schedule_zero_rate_last_instalment_takes_rounding_rest():
    rows = LoanSchedule("1000", "0", 3).schedule()
    assert [row[2] for row in rows] == [Decimal("333.33"), Decimal("333.33"), Decimal("333.34")]


def test_add_overpayment_returns_amount(loan):
    assert loan.add_overpayment(3, "100") == Decimal("100.00")


def test_add_overpayment_accumulates(loan):
    loan.add_overpayment(3, "100")
    assert loan.add_overpayment(3, "25.50") == Decimal("125.50")


def test_add_overpayment_rounds_to_cents(loan):
    assert loan.add_overpayment(2, "10.005") == Decimal("10.01")


def test_add_overpayment_month_out_of_range(loan):
    with pytest.raises(ValueError):
        loan.add_overpayment(13, "100")


def test_add_overpayment_non_positive(loan):
    with pytest.raises(ValueError):
        loan.add_overpayment(2, "0")


def test_add_overpayment_changes_schedule(loan):
    loan.add_overpayment(1, "500")
    assert loan.schedule()[0] == (1, Decimal("10.00"), Decimal("578.85"), Decimal("421.15"))


def test_remove_overpayment_returns_amount(loan):
    loan.add_overpayment(4, "60")
    assert loan.remove_overpayment(4) == Decimal("60.00")


def test_remove_overpayment_missing(loan):
    with pytest.raises(KeyError):
        loan.remove_overpayment(4)


def test_remove_overpayment_restores_schedule(loan):
    loan.add_overpayment(1, "500")
    loan.remove_overpayment(1)
    assert loan.payoff_month() == 12


def test_balance_after_zero_is_principal(loan):
    assert loan.balance_after(0) == Decimal("1000.00")


def test_balance_after_month(loan):
    assert loan.balance_after(11) == Decimal("87.96")


def test_balance_after_out_of_range(loan):
    with pytest.raises(ValueError):
        loan.balance_after(13)


def test_balance_after_payoff_is_zero(loan):
    loan.add_overpayment(1, "500")
    assert loan.balance_after(9) == Decimal("0.00")


def test_payoff_month_without_overpayment(loan):
    assert loan.payoff_month() == 12


def test_payoff_month_with_overpayment(loan):
    loan.add_overpayment(1, "500")
    assert loan.payoff_month() == 6


def test_overpayment_larger_than_balance_ends_loan():
    loan = LoanSchedule("1000.00", "12", 12)
    loan.add_overpayment(1, "2000")
    assert loan.schedule() == [(1, Decimal("10.00"), Decimal("1000.00"), Decimal("0.00"))]


def test_total_interest(loan):
    assert loan.total_interest() == Decimal("66.19")


def test_total_interest_with_overpayment(loan):
    loan.add_overpayment(1, "500")
    assert loan.total_interest() == Decimal("22.51")


def test_total_interest_zero_rate():
    assert LoanSchedule("600", "0", 6).total_interest() == Decimal("0.00")


def test_interest_saved_without_overpayment(loan):
    assert loan.interest_saved() == Decimal("0.00")


def test_interest_saved_with_overpayment(loan):
    loan.add_overpayment(1, "500")
    assert loan.interest_saved() == Decimal("43.68")


def test_overpayment_planning_scenario():
    loan = LoanSchedule("5000", "6.5", 24)
    assert loan.monthly_payment() == Decimal("222.73")
    assert loan.add_overpayment(6, "1000") == Decimal("1000.00")
    assert loan.add_overpayment(12, "1000") == Decimal("1000.00")
    assert loan.payoff_month() == 15
    assert loan.total_interest() == Decimal("226.17")
    assert loan.interest_saved() == Decimal("119.38")
    assert loan.balance_after(12) == Decimal("548.08")
    assert loan.remove_overpayment(12) == Decimal("1000.00")
    assert loan.payoff_month() == 20
    assert loan.balance_after(12) == Decimal("1548.08")
    assert loan.interest_saved() == Decimal("90.50")
    assert loan.add_overpayment(6, "250.5") == Decimal("1250.50")
    assert loan.schedule()[5] == (6, Decimal("21.73"), Decimal("1451.50"), Decimal("2559.61"))
    assert loan.payoff_month() == 18
    assert loan.total_interest() == Decimal("236.83")


def test_single_month_loan():
    loan = LoanSchedule("100", "12", 1)
    assert loan.monthly_payment() == Decimal("101.00")
    assert loan.schedule() == [(1, Decimal("1.00"), Decimal("100.00"), Decimal("0.00"))]


def test_one_unit_principal_and_overpayment():
    loan = LoanSchedule("1", "0", 2)
    assert loan.add_overpayment(1, "1") == Decimal("1.00")
    assert loan.payoff_month() == 1


def test_balance_below_one_is_still_repaid():
    loan = LoanSchedule("1000", "0", 10)
    loan.add_overpayment(1, "899.50")
    assert loan.payoff_month() == 2
    assert loan.schedule()[-1] == (2, Decimal("0.00"), Decimal("0.50"), Decimal("0.00"))
