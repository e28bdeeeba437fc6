"""Links that read as a real program has them: a producer's clock stamps a log's entries, operations that
return nothing report what they did, a value crosses only when the operation changed something, and a log
or a bus hears every operation its purpose names. Built from the bundled seeds whose ends say so."""

from __future__ import annotations

import ast
import random
import textwrap
from fractions import Fraction
from typing import Any

import pytest
from synthesis_samples import hybrid_instance

from core.analysis.class_model import analyse
from core.meanings import clock_factor
from core.records import Accepts, Produces
from pipeline.synthesis.compose import Fusion, chosen_links, fuse
from pipeline.synthesis.links import held_writers, supplied, weavable


def _entries(chain: Any) -> list[tuple[str, str, str]]:
    """(timestamp, actor, action) of each audit entry."""
    return [tuple(line.split("|")[1:4]) for line in chain.export_lines()]


def _method_source(fusion: Fusion, name: str) -> str:
    """The method's code, with its docstring's lines joined (sentences are wrapped)."""
    cls = next(n for n in ast.parse(fusion.source).body if isinstance(n, ast.ClassDef))
    code = ast.unparse(next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name))
    return " ".join(code.replace("\\n", " ").split())


def test_a_time_from_the_producers_clock_is_given_in_the_consumers_unit_or_not_at_all():
    accepted = Accepts(method="append", parameter="action", meaning="text", unit="event", role="kept",
                       action="keep {what}", verb="log", context={"who": "actor", "when": "timestamp"},
                       units={"when": "seconds"})
    minute_clock = Produces(method="open", meaning="text", unit="event", what="a note", name="note",
                            context={"who": "'desk'", "when": "self.now"}, units={"when": "minutes"})
    assert supplied(minute_clock, accepted) == (("timestamp", "self.now * 60"), ("actor", "'desk'"))
    # a coarser consumer unit floors; an expression is bracketed before it is scaled
    hours = accepted.model_copy(update={"units": {"when": "hours"}})
    assert supplied(minute_clock, hours)[0] == ("timestamp", "self.now // 60")
    day_clock = minute_clock.model_copy(update={"context": {"when": "self.day + 1"}, "units": {"when": "days"}})
    assert supplied(day_clock, accepted) == (("timestamp", "(self.day + 1) * 86400"),)
    # a clock with no stated unit (or a count of ticks) is no time the consumer can take: it is not given
    unstated = minute_clock.model_copy(update={"units": {}})
    assert supplied(unstated, accepted) == (("actor", "'desk'"),)
    assert clock_factor("ticks", "seconds") is None and clock_factor("days", "seconds") == Fraction(86400)


def test_a_queues_minute_clock_stamps_every_audit_entry_inside_its_operations(seeds):
    fusion = fuse(seeds["support_ticket_queue"], seeds["audit_chain"], random.Random(0), max_links=1)
    # one audit chain hears every operation the SLA review names: it counts once towards max_links
    assert sorted(link.producer for link in fusion.links) == [
        "advance_clock", "assign_next", "escalate", "open_ticket", "resolve"]
    assert all(link.woven for link in fusion.links)
    queue = hybrid_instance(fusion, agents=["kim"])
    queue.advance_clock(2)
    ticket = queue.open_ticket("printer on fire", "P2")
    queue.advance_clock(3)
    queue.escalate(ticket)
    queue.assign_next("kim")
    queue.advance_clock(5)
    queue.resolve(ticket)
    late = queue.open_ticket("vpn down", "P1")
    assert queue.advance_clock(61) == [late]  # only a move that makes a ticket breach is logged
    assert _entries(queue) == [("120", "helpdesk", "ticket 1 opened: printer on fire (P2)"),
                               ("300", "helpdesk", "ticket 1 escalated to P1"),
                               ("300", "kim", "ticket 1 assigned to kim"),
                               ("600", "kim", "ticket 1 resolved; within SLA: True"),
                               ("600", "helpdesk", "ticket 2 opened: vpn down (P1)"),
                               ("4260", "helpdesk", "SLA breached after 61 more minutes by tickets [2]")]
    assert "(the time on its own clock, in seconds)" in _method_source(fusion, "open_ticket")
    # the chain's Google-style Raises section is read: the operation says what a refused entry does
    assert "If ``append`` refuses the value, its error propagates" in " ".join(
        _method_source(fusion, "open_ticket").split())


def test_a_producer_without_a_clock_leaves_the_time_to_the_logs_own_clock(seeds):
    fusion = fuse(seeds["currency_wallet"], seeds["audit_chain"], random.Random(0), max_links=3)
    assert sorted(link.producer for link in fusion.links) == ["convert", "deposit", "withdraw"]
    assert all(link.woven and "timestamp" not in link.given for link in fusion.links)
    wallet = hybrid_instance(fusion, base="EUR", rates={"GBP": "1.20"})
    wallet.set_clock(50)
    wallet.deposit("EUR", 1200)
    wallet.convert("EUR", "GBP", 1200)
    # an exchange moves money through the wallet's private helpers: it is logged once, as an exchange
    assert _entries(wallet) == [("50", "owner", "1200 minor units of EUR deposited; balance 1200"),
                                ("50", "owner", "1200 minor units of EUR exchanged into 1000 minor units of GBP")]
    assert wallet.statement() == ["deposit 1200 EUR", "convert 1200 EUR -> 1000 GBP"]
    assert "passes on what" not in _method_source(fusion, "convert")


def test_a_method_calling_a_woven_operation_says_that_its_report_is_passed_on(seeds):
    fusion = fuse(seeds["expense_splitter"], seeds["audit_chain"], random.Random(0), max_links=3)
    assert "add_weighted_expense" in {link.producer for link in fusion.links}
    add_expense = " ".join(_method_source(fusion, "add_expense").split())
    assert "Its call of ``add_weighted_expense`` passes on what that method reports (to ``append``)" in add_expense


def test_operations_that_return_nothing_report_what_they_did_at_their_end(seeds):
    fusion = fuse(seeds["leave_request_workflow"], seeds["audit_chain"], random.Random(0), max_links=3)
    assert sorted(link.producer for link in fusion.links) == ["approve", "cancel", "reject", "submit"]
    workflow = hybrid_instance(fusion)
    workflow.add_employee("fa", 4)
    rejected = workflow.submit("fa", 1, 1)
    workflow.reject(rejected, "lead", "busy week")
    kept = workflow.submit("fa", 3, 3)
    workflow.approve(kept, "boss")
    workflow.cancel(kept)
    assert [entry[1:] for entry in _entries(workflow)] == [
        ("fa", "leave request 1 submitted by fa for days 1 to 1"), ("lead", "leave request 1 rejected by lead: busy week"),
        ("fa", "leave request 2 submitted by fa for days 3 to 3"),
        ("boss", "leave request 2 approved by boss; 3 days of allowance left"),
        ("fa", "leave request 2 cancelled; 4 days of allowance left")]
    # the class docstring says once what the log does, and why for each operation
    cls = next(n for n in ast.parse(fusion.source).body if isinstance(n, ast.ClassDef))
    doc = " ".join((ast.get_docstring(cls) or "").split())
    assert doc.startswith("A note of each ``approve``, ``cancel``, ``reject`` and ``submit`` is appended to the "
                          "audit chain, because who approved which absence must be on record for payroll audits "
                          "(``approve``);")
    assert doc.count("appended to the audit chain") == 1
    # a refused rejection changes nothing and reports nothing
    with pytest.raises(ValueError):
        workflow.reject(kept, "lead", "again")
    assert len(workflow.export_lines()) == 5


def test_an_operation_that_returns_nothing_with_an_early_return_is_not_woven():
    source = textwrap.dedent('''
        class Door:
            def __init__(self) -> None:
                self.open = False

            def close(self, who: str) -> None:
                if not self.open:
                    return
                self.open = False

            def shut(self, who: str) -> None:
                self.open = False
    ''')
    log = analyse("class Log:\n    def keep(self, line: str) -> None:\n        self.lines = [line]\n", "Log")
    model = analyse(source, "Door")
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef))
    node = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    part = ("close", "shut")
    assert weavable(node["shut"], model, part, log.methods["keep"], "line", reports=True)
    # the early return did nothing: an event at the end would be skipped there, so nothing is woven
    assert not weavable(node["close"], model, part, log.methods["keep"], "line", reports=True)
    # a value consumer needs a value: an operation that returns nothing never hands one on
    assert not weavable(node["shut"], model, part, log.methods["keep"], "line")


def test_a_value_crosses_only_when_the_operation_changed_something(seeds):
    roles = fuse(seeds["role_registry"], seeds["priority_event_bus"], random.Random(0), max_links=3)
    registry = hybrid_instance(roles)
    registry.add_role("ops")
    registry.subscribe("cache", "roles.*")
    registry.assign("bob", "ops")
    registry.assign("bob", "ops")  # held already: no gain to report
    assert registry.unassign("bob", "ops") is True
    assert registry.unassign("bob", "ops") is False  # not held: nothing taken away
    assert registry.drain("cache") == ["roles.assigned: role ops assigned to bob",
                                       "roles.unassigned: role ops taken from bob"]
    assert "``assign`` reports only when the user did not hold the role already" in " ".join(roles.source.split())
    assert "return False" in _method_source(roles, "unassign")  # a literal that is never reported stays as it was
    # a permission cache hears permissions given and taken, and a deleted role, not only assignments
    assert registry.grant("ops", "servers:*") is True and registry.grant("ops", "servers:*") is False
    assert registry.revoke("ops", "servers:*") is True and registry.revoke("ops", "servers:*") is False
    registry.assign("ann", "ops")
    assert registry.remove_role("ops") == 1
    assert registry.drain("cache") == ["roles.granted: permission servers:* granted to role ops",
                                       "roles.revoked: permission servers:* revoked from role ops",
                                       "roles.assigned: role ops assigned to ann",
                                       "roles.deleted: role ops deleted, taken from 1 users"]

    hotp = fuse(seeds["hotp_authenticator"], seeds["priority_event_bus"], random.Random(0), max_links=3)
    auth = hybrid_instance(hotp, max_failures=2)
    auth.enroll("key", "ab" * 20)
    auth.subscribe("security", "devices.*")
    assert auth.unlock("key") == 0  # nothing to lift
    assert auth.verify("key", "000000") is False
    assert auth.unlock("key") == 1  # failures cleared, but the device was never locked: no lockout lifted
    assert auth.verify("key", "000000") is False and auth.verify("key", "000000") is False  # the second locks it
    assert auth.unlock("key") == 2
    assert auth.drain("security") == ["devices.locked: device key locked out after too many wrong codes in a row",
                                      "devices.unlocked: device key unlocked; its lockout after 2 failed attempts "
                                      "is lifted"]


def test_statistics_of_a_timesheet_take_approved_weeks_only(seeds):
    fusion = fuse(seeds["timesheet"], seeds["running_stats"], random.Random(0), max_links=3)
    (link,) = fusion.links
    assert link.woven and link.producer == "approve_week" and not link.condition
    sheet = hybrid_instance(fusion, employee="noor", hourly_rate=1.0)
    sheet.log(1, "alpha", 9.0)
    sheet.submit_week(1)
    sheet.reopen_week(1)  # a mistake corrected before approval never reaches the statistics
    sheet.remove(1, "alpha")
    sheet.log(2, "alpha", 6.0)
    sheet.submit_week(1)
    assert sheet.approve_week(1) == 6.0
    sheet.log(8, "alpha", 4.0)
    sheet.submit_week(2)
    assert sheet.summary()["count"] == 1 and sheet.mean() == 6.0
    sheet.approve_week(2)
    assert sheet.summary()["count"] == 2 and sheet.mean() == 5.0
    with pytest.raises(PermissionError):
        sheet.reopen_week(1)


def test_a_registered_room_is_completed_from_its_registration_and_raised_by_its_bookings(seeds):
    fusion = fuse(seeds["room_booking_calendar"], seeds["prefix_trie"], random.Random(0), max_links=3)
    # one series of room names: every registered room is completed, and each booking ranks it higher
    links = sorted((link for link in fusion.links if link.consumer == "insert"), key=lambda link: link.producer)
    assert [(link.producer, link.woven, link.returns_nothing) for link in links] == [
        ("add_room", True, True), ("book", True, False)]
    calendar = hybrid_instance(fusion)
    calendar.add_room("Elm", 8)
    calendar.add_room("Eden", 4)
    assert calendar.complete("E") == ["Eden", "Elm"]
    calendar.book("Elm", 1, 9, 10, "ana", 3)
    assert calendar.complete("E") == ["Elm", "Eden"]
    with pytest.raises(ValueError):
        calendar.add_room("Elm", 2)  # refused before its end: nothing is handed on
    assert calendar.frequency("Elm") == 2


def test_a_migration_run_is_audited_under_the_runners_user_only_when_it_applied_something(seeds):
    fusion = fuse(seeds["migration_runner"], seeds["audit_chain"], random.Random(0), max_links=3)
    assert sorted((link.producer, link.woven) for link in fusion.links) == [("migrate", True), ("rollback", True)]
    runner = hybrid_instance(fusion, db_user="deploy")
    runner.register(1, "users", "CREATE TABLE users (id INTEGER)", "DROP TABLE users")
    assert runner.migrate() == [1] and runner.migrate() == []
    runner.rollback()
    assert [entry[1:] for entry in _entries(runner)] == [
        ("deploy", "schema migrated; versions applied: [1]"), ("deploy", "schema rolled back; versions reverted: [1]")]


def test_a_word_with_no_correction_is_not_learned_as_a_completion(seeds):
    # The bundled checker no longer declares this end (no program turns corrections into completions);
    # the condition on a link method is tested with it declared here.
    corrected = Produces(method="correct", meaning="word", unit="word", what="the spelling correction of a word",
                         name="corrected_word", condition="self.known({result})",
                         condition_words="when the correction is a word the dictionary knows")
    checker = seeds["spell_checker"].model_copy(update={"produces": (*seeds["spell_checker"].produces, corrected)})
    fusion = fuse(seeds["prefix_trie"], checker, random.Random(0), max_links=3)
    (link,) = fusion.links
    assert not link.woven and link.call == "insert_corrected_word"
    trie = hybrid_instance(fusion)
    trie.add_word("python")
    assert trie.insert_corrected_word("xqzv") is None and not trie.complete("xq")
    trie.insert_corrected_word("pyton")
    assert trie.complete("py") == ["python"]
    assert "-> int | None" in fusion.source and "or None when nothing is passed on" in _method_source(
        fusion, "insert_corrected_word")


def test_an_inventory_that_books_through_its_database_reports_every_movement(seeds):
    ledger = seeds["inventory_ledger"]
    assert {"ship", "adjust", "receive"} <= held_writers(ledger.source, ledger.class_name,
                                                         analyse(ledger.source, ledger.class_name))
    fusion = fuse(ledger, seeds["priority_event_bus"], random.Random(0), max_links=1)
    assert sorted((link.producer, link.woven) for link in fusion.links) == [
        ("adjust", True), ("receive", True), ("ship", True)]


def test_max_links_counts_other_links_one_by_one(seeds):
    bus, queue = seeds["priority_event_bus"], seeds["support_ticket_queue"]
    model_bus, model_queue = analyse(bus.source, bus.class_name), analyse(queue.source, queue.class_name)
    links = chosen_links(queue, model_queue, bus, model_bus, random.Random(0), 1, {})
    assert len(links) == 5 and {link.consumer for link in links} == {"publish"}
    assert not chosen_links(queue, model_queue, bus, model_bus, random.Random(0), 0, {})


def test_every_change_of_a_deal_and_of_a_group_is_on_record_from_its_opening(seeds):
    # a deal is on record from the moment it is opened (under its owner), not from its first stage change
    fusion = fuse(seeds["sales_pipeline"], seeds["audit_chain"], random.Random(0), max_links=3)
    assert sorted(link.producer for link in fusion.links) == ["add_deal", "advance", "mark_lost", "revalue"]
    pipeline = hybrid_instance(fusion)
    pipeline.add_deal("Bolt", 500, "sam")
    assert [entry[1:] for entry in _entries(pipeline)] == [("sam", "deal Bolt opened at value 500 for sam")]
    # the words every reason starts with are said once in the class docstring, not once per operation
    cls = next(n for n in ast.parse(fusion.source).body if isinstance(n, ast.ClassDef))
    summary = " ".join((ast.get_docstring(cls) or "").split()).split(" SalesPipeline part:")[0]
    assert summary.count("for commission disputes") == 1
    assert ("because for commission disputes, who owns a deal and its value when it was opened must be on record "
            "(``add_deal``); each stage change of a deal must be on record (``advance``);") in summary
    # members joining are on record as well as members leaving
    group = fuse(seeds["expense_splitter"], seeds["audit_chain"], random.Random(0), max_links=3)
    assert {"add_member", "remove_member"} <= {link.producer for link in group.links}
    splitter = hybrid_instance(group, members=["ana"])
    splitter.add_member("ben")
    assert [entry[1:] for entry in _entries(splitter)] == [("group", "member ben joined the group")]
