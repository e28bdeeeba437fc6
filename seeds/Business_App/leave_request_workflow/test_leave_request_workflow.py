import pytest

from leave_request_workflow import LeaveRequestWorkflow


@pytest.fixture
def wf():
    workflow = LeaveRequestWorkflow(holidays=[10])
    workflow.add_employee("ana", 10)
    workflow.add_employee("ben", 3)
    return workflow


def test_add_employee_returns_allowance():
    assert LeaveRequestWorkflow().add_employee("zoe", 12) == 12


def test_add_employee_duplicate_rejected(wf):
    with pytest.raises(ValueError):
        wf.add_employee("ana", 5)


def test_add_employee_negative_allowance_rejected():
    with pytest.raises(ValueError):
        LeaveRequestWorkflow().add_employee("zoe", -1)


def test_working_days_skips_weekend():
    assert LeaveRequestWorkflow().working_days(1, 7) == 5


def test_working_days_skips_holidays():
    assert LeaveRequestWorkflow(holidays=[2, 3]).working_days(1, 5) == 3


def test_working_days_weekend_only_is_zero():
    assert LeaveRequestWorkflow().working_days(6, 7) == 0


def test_working_days_reversed_range_rejected():
    with pytest.raises(ValueError):
        LeaveRequestWorkflow().working_days(5, 4)


def test_working_days_out_of_year_rejected():
    with pytest.raises(ValueError):
        LeaveRequestWorkflow().working_days(360, 366)


def test_remaining_balance_starts_at_allowance(wf):
    assert wf.remaining_balance("ana") == 10


def test_remaining_balance_unknown_employee(wf):
    with pytest.raises(KeyError):
        wf.remaining_balance("nobody")


def test_submit_returns_sequential_ids(wf):
    assert wf.submit("ana", 1, 1) == 1
    assert wf.submit("ben", 1, 1) == 2


def test_submit_unknown_employee(wf):
    with pytest.raises(KeyError):
        wf.submit("nobody", 1, 2)


def test_submit_weekend_only_rejected(wf):
    with pytest.raises(ValueError):
        wf.submit("ana", 13, 14)


def test_submit_overlapping_request_rejected(wf):
    wf.submit("ana", 1, 3)
    with pytest.raises(ValueError):
        wf.submit("ana", 3, 4)


def test_submit_other_employee_may_overlap(wf):
    wf.submit("ana", 1, 3)
    assert wf.submit("ben", 2, 3) == 2


def test_submit_more_than_allowance_rejected(wf):
    with pytest.raises(ValueError):
        wf.submit("ben", 1, 4)


def test_submit_counts_pending_requests_against_balance(wf):
    wf.submit("ben", 1, 2)
    with pytest.raises(ValueError):
        wf.submit("ben", 8, 9)


def test_submit_does_not_charge_balance_until_approved(wf):
    wf.submit("ana", 1, 5)
    assert wf.remaining_balance("ana") == 10


def test_approve_charges_working_days(wf):
    rid = wf.submit("ana", 8, 14)
    assert wf.approve(rid, "boss") == 6


def test_approve_records_approver(wf):
    rid = wf.submit("ana", 1, 1)
    wf.approve(rid, "boss")
    assert wf.status(rid) == ("approved", "approved by boss")


def test_approve_own_request_rejected(wf):
    rid = wf.submit("ana", 1, 1)
    with pytest.raises(ValueError):
        wf.approve(rid, "ana")


def test_approve_unknown_request(wf):
    with pytest.raises(KeyError):
        wf.approve(99, "boss")


def test_approve_twice_rejected(wf):
    rid = wf.submit("ana", 1, 1)
    wf.approve(rid, "boss")
    with pytest.raises(ValueError):
        wf.approve(rid, "boss")


def test_reject_keeps_reason(wf):
    rid = wf.submit("ana", 1, 2)
    wf.reject(rid, "lead", "release week")
    assert wf.status(rid) == ("rejected", "release week")


def test_reject_blank_reason_rejected(wf):
    rid = wf.submit("ana", 1, 2)
    with pytest.raises(ValueError):
        wf.reject(rid, "lead", "   ")


def test_reject_approved_request_rejected(wf):
    rid = wf.submit("ana", 1, 2)
    wf.approve(rid, "boss")
    with pytest.raises(ValueError):
        wf.reject(rid, "lead", "too late")


def test_reject_own_request_refused(wf):
    rid = wf.submit("ana", 1, 2)
    with pytest.raises(ValueError):
        wf.reject(rid, "ana", "changed my mind")
    assert wf.status(rid)[0] == "pending"


def test_reject_unknown_request(wf):
    with pytest.raises(KeyError):
        wf.reject(5, "lead", "no")


def test_rejected_request_frees_the_days_for_a_new_request(wf):
    rid = wf.submit("ben", 1, 3)
    wf.reject(rid, "lead", "cover missing")
    assert wf.submit("ben", 1, 3) == 2


def test_cancel_approved_restores_balance(wf):
    rid = wf.submit("ben", 1, 3)
    wf.approve(rid, "boss")
    assert wf.cancel(rid) == 3


def test_cancel_pending_request(wf):
    rid = wf.submit("ana", 1, 1)
    assert wf.cancel(rid) == 10
    assert wf.status(rid) == ("cancelled", "")


def test_cancel_twice_rejected(wf):
    rid = wf.submit("ana", 1, 1)
    wf.cancel(rid)
    with pytest.raises(ValueError):
        wf.cancel(rid)


def test_cancel_unknown_request(wf):
    with pytest.raises(KeyError):
        wf.cancel(3)


def test_status_of_pending_request(wf):
    assert wf.status(wf.submit("ana", 2, 2)) == ("pending", "")


def test_status_unknown_request(wf):
    with pytest.raises(KeyError):
        wf.status(42)


def test_on_leave_lists_approved_sorted(wf):
    wf.approve(wf.submit("ben", 2, 4), "boss")
    wf.approve(wf.submit("ana", 1, 3), "boss")
    assert wf.on_leave(3) == ["ana", "ben"]


def test_on_leave_ignores_pending(wf):
    wf.submit("ana", 1, 3)
    assert wf.on_leave(2) == []


def test_holiday_is_not_charged(wf):
    rid = wf.submit("ana", 8, 12)
    assert wf.approve(rid, "boss") == 6


def test_full_lifecycle_in_several_orders():
    wf = LeaveRequestWorkflow(holidays=[10])
    assert wf.add_employee("ana", 10) == 10
    first = wf.submit("ana", 1, 2)
    assert wf.approve(first, "boss") == 8
    second = wf.submit("ana", 8, 9)
    wf.reject(second, "lead", "audit")
    third = wf.submit("ana", 15, 16)
    assert wf.cancel(first) == 10
    assert wf.on_leave(1) == []
    assert wf.approve(third, "boss") == 8
    fourth = wf.submit("ana", 22, 23)
    wf.reject(fourth, "lead", "conference")
    assert wf.cancel(third) == 10
    fifth = wf.submit("ana", 29, 30)
    assert wf.approve(fifth, "boss") == 8
    assert wf.status(fourth) == ("rejected", "conference")
    assert wf.on_leave(29) == ["ana"]
    assert wf.remaining_balance("ana") == 8


def test_cancel_then_reject_then_approve_order(wf):
    a = wf.submit("ben", 1, 1)
    b = wf.submit("ben", 2, 2)
    c = wf.submit("ben", 3, 3)
    wf.cancel(a)
    wf.reject(b, "lead", "overlap with audit")
    assert wf.approve(c, "boss") == 2
    assert wf.remaining_balance("ben") == 2
    assert wf.on_leave(3) == ["ben"]


def test_working_days_single_day_at_year_boundaries():
    workflow = LeaveRequestWorkflow()
    assert workflow.working_days(1, 1) == 1
    assert workflow.working_days(365, 365) == 1


def test_submit_overlapping_approved_request_rejected(wf):
    wf.approve(wf.submit("ana", 1, 3), "boss")
    with pytest.raises(ValueError):
        wf.submit("ana", 2, 4)
