"""Where a class's stored values come from (`core.analysis.state_flow`): the paths a value takes into a
field, each on a small class."""

from __future__ import annotations

from core.analysis.parts import complete_parts
from core.analysis.state_flow import state_flows

DESK = '''
import sqlite3


class Desk:
    def __init__(self):
        self.rates = {}
        self.guests = {}
        self.till = 0
        self.counts = {}
        self.log = []
        self.db = sqlite3.connect(":memory:")

    def check_in(self, room, guest, nights):
        if room in self.guests:
            raise ValueError(room)
        self.guests[room] = guest
        self._charge(self._fee(room, nights))
        self._tick()

    def _fee(self, room, nights):
        return self.rates[room] * nights

    def _charge(self, amount):
        self.till += amount
        cursor = self.db.cursor()
        cursor.execute("INSERT INTO sales VALUES (?)", (amount,))

    def _tick(self):
        self.counts["stay"] = self.counts.get("stay", 0) + 1

    def reset_log(self):
        if self.guests:
            raise RuntimeError("guests in")
        self.log = []

    def preview(self):
        copy = self.log.copy()
        copy.append(self.till)
        return len(copy)

    def revenue(self):
        return self.db.execute("SELECT SUM(x) FROM sales", ()).fetchone()[0]

    def balance(self):
        return self.till

    def withdraw(self, amount):
        if amount > self.till:
            raise ValueError(amount)
        self.till -= amount

    def rate_list(self):
        return [self.rates[r] for r in sorted(self.rates)]
'''


def test_values_reach_fields_through_helpers_returns_held_objects_and_conditions():
    flows = state_flows(DESK, "Desk")
    check_in = flows["check_in"].writes
    # the fee, returned by one helper and handed to another, is added to the till and written to the
    # database through a cursor the helper holds
    assert {"field:rates", "param:nights"} <= check_in["till"] and "field:rates" in check_in["db"]
    # the counter's increment is a constant, but it happens only once the guests' check passed
    assert "field:guests" in check_in["counts"]
    assert flows["_fee"].returns == {"field:rates", "param:room", "param:nights"}
    assert flows["check_in"].guards >= {"field:guests"}


def test_resets_copies_and_queries_write_nothing_of_what_was_read():
    flows = state_flows(DESK, "Desk")
    assert flows["reset_log"].writes["log"] == frozenset()  # a reset stores what it stores, whatever the check
    assert "log" not in flows["preview"].writes  # a copy of the log is not the log
    assert "db" not in flows["revenue"].writes  # a SELECT reads the database
    assert flows["rate_list"].returns >= {"field:rates"}


def test_a_field_is_observed_where_its_value_decides_something_else():
    flows = state_flows(DESK, "Desk")
    assert "till" in flows["balance"].observes() and "till" in flows["withdraw"].observes()
    assert "till" not in flows["check_in"].observes()  # it only adds to the till
    assert {"rates", "guests"} <= flows["check_in"].observes()


def test_a_field_the_record_leaves_out_goes_to_the_part_that_observes_it():
    parts = {"Rooms": {"methods": ["check_in", "rate_list"], "fields": ["rates", "guests"]},
             "Till": {"methods": ["balance", "withdraw", "revenue"], "fields": ["db"]}}
    completed = complete_parts(DESK, "Desk", parts)
    # `till` is written by the rooms' check-in and read by the till's methods: it is the till's
    assert "till" in completed["Till"]["fields"] and "till" not in completed["Rooms"]["fields"]
    assert completed["Rooms"]["fields"][:2] == ["rates", "guests"]
