import pytest

from support_ticket_queue import SupportTicketQueue


@pytest.fixture
def q():
    return SupportTicketQueue(["kim", "lee"], max_active=2)


def test_init_requires_agents():
    with pytest.raises(ValueError):
        SupportTicketQueue([])


def test_open_ticket_sequential_ids(q):
    assert q.open_ticket("mail down", "P1") == 1
    assert q.open_ticket("new mouse", "P3") == 2


def test_open_ticket_blank_title_rejected(q):
    with pytest.raises(ValueError):
        q.open_ticket("  ", "P1")


def test_open_ticket_unknown_priority_rejected(q):
    with pytest.raises(ValueError):
        q.open_ticket("mail down", "P0")


def test_time_left_uses_priority_sla(q):
    assert q.time_left(q.open_ticket("mail down", "P1")) == 60
    assert q.time_left(q.open_ticket("vpn slow", "P2")) == 240
    assert q.time_left(q.open_ticket("new mouse", "P3")) == 1440


def test_time_left_counts_down(q):
    ticket = q.open_ticket("mail down", "P1")
    q.advance_clock(45)
    assert q.time_left(ticket) == 15


def test_time_left_unknown_ticket(q):
    with pytest.raises(KeyError):
        q.time_left(9)


def test_ticket_opened_later_gets_later_deadline(q):
    q.advance_clock(100)
    ticket = q.open_ticket("mail down", "P1")
    q.advance_clock(50)
    assert q.time_left(ticket) == 10


def test_advance_clock_reports_new_breaches_only(q):
    first = q.open_ticket("mail down", "P1")
    second = q.open_ticket("vpn slow", "P2")
    assert q.advance_clock(61) == [first]
    assert q.advance_clock(200) == [second]


def test_advance_clock_exact_deadline_not_breached(q):
    q.open_ticket("mail down", "P1")
    assert q.advance_clock(60) == []


def test_advance_clock_negative_rejected(q):
    with pytest.raises(ValueError):
        q.advance_clock(-1)


def test_breached_lists_sorted_unresolved(q):
    q.open_ticket("a", "P1")
    q.open_ticket("b", "P3")
    q.open_ticket("c", "P1")
    q.advance_clock(90)
    assert q.breached() == [1, 3]


def test_breached_excludes_resolved(q):
    ticket = q.open_ticket("a", "P1")
    q.assign_next("kim")
    q.advance_clock(90)
    q.resolve(ticket)
    assert q.breached() == []


def test_escalate_p3_to_p2_tightens_deadline(q):
    ticket = q.open_ticket("slow laptop", "P3")
    q.advance_clock(100)
    assert q.escalate(ticket) == "P2"
    assert q.time_left(ticket) == 140


def test_escalate_can_cause_immediate_breach(q):
    ticket = q.open_ticket("slow laptop", "P2")
    q.advance_clock(100)
    q.escalate(ticket)
    assert q.breached() == [ticket]


def test_escalate_p1_rejected(q):
    ticket = q.open_ticket("mail down", "P1")
    with pytest.raises(ValueError):
        q.escalate(ticket)


def test_escalate_resolved_rejected(q):
    ticket = q.open_ticket("slow laptop", "P3")
    q.assign_next("kim")
    q.resolve(ticket)
    with pytest.raises(ValueError):
        q.escalate(ticket)


def test_assign_next_picks_earliest_deadline(q):
    q.open_ticket("slow laptop", "P3")
    urgent = q.open_ticket("mail down", "P1")
    assert q.assign_next("kim") == urgent


def test_assign_next_ties_by_lowest_id(q):
    q.open_ticket("a", "P2")
    q.open_ticket("b", "P2")
    assert q.assign_next("lee") == 1


def test_assign_next_skips_assigned(q):
    q.open_ticket("a", "P2")
    q.open_ticket("b", "P2")
    q.assign_next("kim")
    assert q.assign_next("kim") == 2


def test_assign_next_respects_max_active(q):
    for title in ("a", "b", "c"):
        q.open_ticket(title, "P3")
    q.assign_next("kim")
    q.assign_next("kim")
    with pytest.raises(ValueError):
        q.assign_next("kim")


def test_assign_next_empty_queue(q):
    with pytest.raises(LookupError):
        q.assign_next("kim")


def test_assign_next_unknown_agent(q):
    q.open_ticket("a", "P2")
    with pytest.raises(KeyError):
        q.assign_next("zed")


def test_resolve_in_time(q):
    ticket = q.open_ticket("a", "P1")
    q.assign_next("kim")
    q.advance_clock(60)
    assert q.resolve(ticket) is True


def test_resolve_late(q):
    ticket = q.open_ticket("a", "P1")
    q.assign_next("kim")
    q.advance_clock(61)
    assert q.resolve(ticket) is False


def test_resolve_unassigned_rejected(q):
    ticket = q.open_ticket("a", "P1")
    with pytest.raises(ValueError):
        q.resolve(ticket)


def test_resolve_twice_rejected(q):
    ticket = q.open_ticket("a", "P1")
    q.assign_next("kim")
    q.resolve(ticket)
    with pytest.raises(ValueError):
        q.resolve(ticket)


def test_resolve_frees_agent_capacity(q):
    for title in ("a", "b", "c"):
        q.open_ticket(title, "P3")
    q.assign_next("kim")
    q.assign_next("kim")
    q.resolve(1)
    assert q.assign_next("kim") == 3


def test_workload_counts_active(q):
    q.open_ticket("a", "P3")
    q.open_ticket("b", "P3")
    q.assign_next("lee")
    q.assign_next("lee")
    assert q.workload() == {"kim": 0, "lee": 2}


def test_sla_compliance_nothing_resolved(q):
    q.open_ticket("a", "P3")
    assert q.sla_compliance() == 1.0


def test_sla_compliance_mixed(q):
    q.open_ticket("a", "P1")
    q.open_ticket("b", "P3")
    q.open_ticket("c", "P3")
    q.assign_next("kim")
    q.assign_next("kim")
    q.assign_next("lee")
    q.advance_clock(120)
    q.resolve(1)
    q.resolve(2)
    q.resolve(3)
    assert q.sla_compliance() == 0.6667


def test_shift_scenario():
    q = SupportTicketQueue(["kim", "lee"], max_active=1)
    printer = q.open_ticket("printer jam", "P3")
    mail = q.open_ticket("mail down", "P2")
    assert q.assign_next("kim") == mail
    assert q.advance_clock(30) == []
    assert q.escalate(printer) == "P2"
    assert q.resolve(mail) is True
    assert q.workload() == {"kim": 0, "lee": 0}
    vpn = q.open_ticket("vpn down", "P1")
    assert q.assign_next("lee") == vpn
    assert q.advance_clock(220) == [printer, vpn]
    assert q.assign_next("kim") == printer
    assert q.resolve(vpn) is False
    assert q.breached() == [printer]
    assert q.time_left(printer) == -10
    assert q.resolve(printer) is False
    assert q.sla_compliance() == 0.3333
    assert q.breached() == []


def test_escalate_after_assignment_scenario():
    q = SupportTicketQueue(["kim"])
    ticket = q.open_ticket("disk full", "P3")
    assert q.assign_next("kim") == ticket
    assert q.escalate(ticket) == "P2"
    assert q.advance_clock(241) == [ticket]
    assert q.escalate(ticket) == "P1"
    assert q.resolve(ticket) is False
    assert q.workload() == {"kim": 0}
