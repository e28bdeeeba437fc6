"""A support ticket queue with SLA deadlines on a simulated clock."""


class SupportTicketQueue:
    """Support tickets with priorities P1 (urgent) to P3, each with an SLA.

    Time is a simulated minute counter starting at 0 and moved only by
    :meth:`advance_clock`. A ticket's deadline is its opening minute plus the SLA
    of its priority; it is breached while unresolved after its deadline. Agents
    work on at most ``max_active`` tickets at a time.

    >>> q = SupportTicketQueue(["kim"])
    >>> q.open_ticket("printer on fire", "P1")
    1
    >>> q.assign_next("kim")
    1
    >>> q.advance_clock(30)
    []
    >>> q.resolve(1)
    True
    """

    SLA_MINUTES = {"P1": 60, "P2": 240, "P3": 1440}

    def __init__(self, agents: list[str], max_active: int = 2) -> None:
        """Create a queue served by ``agents``.

        :param agents: names of the support agents (at least one).
        :param max_active: maximum open tickets per agent, at least 1.
        :raises ValueError: if there are no agents or ``max_active`` is below 1.

        >>> SupportTicketQueue(["kim"], max_active=3).max_active
        3
        """
        if not agents or max_active < 1:
            raise ValueError("need at least one agent and max_active >= 1")
        self.max_active = max_active
        self.now = 0
        self.next_id = 1
        self.tickets: dict[int, dict] = {}
        self.active: dict[str, list[int]] = {agent: [] for agent in agents}

    def open_ticket(self, title: str, priority: str) -> int:
        """Open a ticket at the current minute.

        :param title: short description, not blank.
        :param priority: ``"P1"``, ``"P2"`` or ``"P3"``.
        :return: the ticket id (1, 2, ...).
        :raises ValueError: if the title is blank or the priority unknown.

        >>> SupportTicketQueue(["kim"]).open_ticket("vpn down", "P2")
        1
        """
        if not title.strip():
            raise ValueError("title must not be blank")
        if priority not in self.SLA_MINUTES:
            raise ValueError(f"unknown priority {priority!r}")
        ticket_id = self.next_id
        self.next_id += 1
        self.tickets[ticket_id] = {
            "title": title, "priority": priority, "opened": self.now,
            "deadline": self.now + self.SLA_MINUTES[priority],
            "agent": None, "resolved": None,
        }
        return ticket_id

    def time_left(self, ticket_id: int) -> int:
        """Minutes until the ticket's deadline (negative once breached).

        :param ticket_id: an existing ticket.
        :return: deadline minus the current minute.
        :raises KeyError: if the ticket does not exist.

        >>> q = SupportTicketQueue(["kim"])
        >>> q.time_left(q.open_ticket("vpn down", "P2"))
        240
        """
        return self.tickets[ticket_id]["deadline"] - self.now

    def breached(self) -> list[int]:
        """Ids of unresolved tickets past their deadline, in ascending order.

        :return: sorted ticket ids.

        >>> SupportTicketQueue(["kim"]).breached()
        []
        """
        return sorted(
            ticket_id for ticket_id, t in self.tickets.items()
            if t["resolved"] is None and self.time_left(ticket_id) < 0
        )

    def advance_clock(self, minutes: int) -> list[int]:
        """Move the clock forward and report tickets that breached during the move.

        :param minutes: minutes to advance, at least 0.
        :return: sorted ids of tickets not breached before the move but breached after it.
        :raises ValueError: if ``minutes`` is negative.

        >>> q = SupportTicketQueue(["kim"])
        >>> _ = q.open_ticket("vpn down", "P1")
        >>> q.advance_clock(61)
        [1]
        """
        if minutes < 0:
            raise ValueError("the clock cannot go backwards")
        before = set(self.breached())
        self.now += minutes
        return [ticket_id for ticket_id in self.breached() if ticket_id not in before]

    def escalate(self, ticket_id: int) -> str:
        """Raise an unresolved ticket's priority by one level and tighten its deadline.

        The new deadline is the opening minute plus the SLA of the new priority.

        :param ticket_id: an existing ticket.
        :return: the new priority.
        :raises KeyError: if the ticket does not exist.
        :raises ValueError: if the ticket is resolved or already P1.

        >>> q = SupportTicketQueue(["kim"])
        >>> q.escalate(q.open_ticket("slow laptop", "P3"))
        'P2'
        """
        ticket = self.tickets[ticket_id]
        if ticket["resolved"] is not None:
            raise ValueError(f"ticket {ticket_id} is resolved")
        if ticket["priority"] == "P1":
            raise ValueError(f"ticket {ticket_id} is already P1")
        priority = "P" + str(int(ticket["priority"][1]) - 1)
        ticket["priority"] = priority
        ticket["deadline"] = ticket["opened"] + self.SLA_MINUTES[priority]
        return priority

    def assign_next(self, agent: str) -> int:
        """Give ``agent`` the most urgent unassigned ticket (earliest deadline, then lowest id).

        :param agent: a known agent.
        :return: the id of the assigned ticket.
        :raises KeyError: if the agent is unknown.
        :raises ValueError: if the agent already has ``max_active`` tickets.
        :raises LookupError: if no unassigned ticket is waiting.

        >>> q = SupportTicketQueue(["kim"])
        >>> _ = q.open_ticket("slow laptop", "P3")
        >>> _ = q.open_ticket("mail down", "P1")
        >>> q.assign_next("kim")
        2
        """
        if len(self.active[agent]) >= self.max_active:
            raise ValueError(f"{agent} already has {self.max_active} active tickets")
        waiting = [
            (t["deadline"], ticket_id) for ticket_id, t in self.tickets.items()
            if t["agent"] is None and t["resolved"] is None
        ]
        if not waiting:
            raise LookupError("no ticket is waiting")
        ticket_id = min(waiting)[1]
        self.tickets[ticket_id]["agent"] = agent
        self.active[agent].append(ticket_id)
        return ticket_id

    def resolve(self, ticket_id: int) -> bool:
        """Resolve an assigned ticket at the current minute.

        :param ticket_id: an existing, assigned, unresolved ticket.
        :return: True if it was resolved within its SLA (at or before the deadline).
        :raises KeyError: if the ticket does not exist.
        :raises ValueError: if the ticket is unassigned or already resolved.

        >>> q = SupportTicketQueue(["kim"])
        >>> _ = q.open_ticket("toner low", "P3")
        >>> q.resolve(q.assign_next("kim"))
        True
        """
        ticket = self.tickets[ticket_id]
        if ticket["resolved"] is not None:
            raise ValueError(f"ticket {ticket_id} is already resolved")
        if ticket["agent"] is None:
            raise ValueError(f"ticket {ticket_id} is not assigned")
        ticket["resolved"] = self.now
        self.active[ticket["agent"]].remove(ticket_id)
        return self.time_left(ticket_id) >= 0

    def workload(self) -> dict[str, int]:
        """Number of active tickets per agent, agents in alphabetical order.

        :return: agent -> active ticket count.

        >>> SupportTicketQueue(["lee", "kim"]).workload()
        {'kim': 0, 'lee': 0}
        """
        return {agent: len(self.active[agent]) for agent in sorted(self.active)}

    def sla_compliance(self) -> float:
        """Share of resolved tickets that met their SLA.

        :return: on-time resolutions / all resolutions, rounded to 4 decimals;
            1.0 when nothing has been resolved yet.

        >>> SupportTicketQueue(["kim"]).sla_compliance()
        1.0
        """
        resolved = [t for t in self.tickets.values() if t["resolved"] is not None]
        if not resolved:
            return 1.0
        on_time = sum(1 for t in resolved if t["resolved"] <= t["deadline"])
        return round(on_time / len(resolved), 4)
