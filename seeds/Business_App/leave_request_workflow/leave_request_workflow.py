"""Annual-leave requests with an approval step and per-employee balances."""


class LeaveRequestWorkflow:
    """Leave requests for a team, from submission through approval.

    Days are numbered 1..365 within one year and day 1 is a Monday, so a day
    ``d`` falls on a weekend when ``(d - 1) % 7`` is 5 or 6. Only working days
    (not weekends, not public holidays) are charged against an allowance.
    A request is ``pending`` until it is ``approved`` or ``rejected``; pending and
    approved requests may be ``cancelled``. Only approved requests use up balance,
    but a new request may not ask for more than the balance left after the
    employee's other pending requests.

    >>> wf = LeaveRequestWorkflow(holidays=[3])
    >>> wf.add_employee("ana", 10)
    10
    >>> rid = wf.submit("ana", 1, 7)
    >>> wf.approve(rid, "lead")
    6
    >>> wf.on_leave(2)
    ['ana']
    """

    STATUSES = ("pending", "approved", "rejected", "cancelled")

    def __init__(self, holidays: list[int] | None = None) -> None:
        """Create an empty workflow.

        :param holidays: day numbers of public holidays, never charged as leave.

        >>> LeaveRequestWorkflow(holidays=[100]).working_days(100, 100)
        0
        """
        self.holidays = set(holidays or [])
        self.allowances: dict[str, int] = {}
        self.requests: dict[int, dict] = {}
        self.next_id = 1

    def add_employee(self, name: str, allowance: int) -> int:
        """Register an employee with a yearly allowance in working days.

        :param name: unique employee name.
        :param allowance: number of leave days for the year, at least 0.
        :return: the allowance that was recorded.
        :raises ValueError: if the name is already registered or the allowance is negative.

        >>> LeaveRequestWorkflow().add_employee("bo", 20)
        20
        """
        if name in self.allowances:
            raise ValueError(f"employee {name!r} already exists")
        if allowance < 0:
            raise ValueError("allowance must not be negative")
        self.allowances[name] = allowance
        return allowance

    def working_days(self, start: int, end: int) -> int:
        """Count the chargeable working days in the inclusive range ``start..end``.

        :param start: first day (1..365).
        :param end: last day (start..365).
        :return: number of days that are neither weekend nor holiday.
        :raises ValueError: if the range is empty or outside 1..365.

        >>> LeaveRequestWorkflow(holidays=[2]).working_days(1, 8)
        5
        """
        if not 1 <= start <= end <= 365:
            raise ValueError(f"invalid day range {start}..{end}")
        return sum(
            1
            for day in range(start, end + 1)
            if (day - 1) % 7 < 5 and day not in self.holidays
        )

    def remaining_balance(self, name: str) -> int:
        """Days of allowance left after all approved requests of ``name``.

        :param name: a registered employee.
        :return: allowance minus approved working days.
        :raises KeyError: if the employee is unknown.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("cy", 3)
        3
        >>> wf.remaining_balance("cy")
        3
        """
        if name not in self.allowances:
            raise KeyError(name)
        used = sum(
            r["days"]
            for r in self.requests.values()
            if r["employee"] == name and r["status"] == "approved"
        )
        return self.allowances[name] - used

    def _overlaps(self, name: str, start: int, end: int) -> bool:
        """Whether ``name`` already has a pending or approved request touching ``start..end``.

        :param name: employee name.
        :param start: first day of the range.
        :param end: last day of the range.
        :return: True if an open request of ``name`` shares at least one day with the range.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("jo", 5)
        5
        >>> _ = wf.submit("jo", 1, 3)
        >>> wf._overlaps("jo", 3, 4), wf._overlaps("jo", 4, 5)
        (True, False)
        """
        return any(
            r["employee"] == name
            and r["status"] in ("pending", "approved")
            and r["start"] <= end
            and start <= r["end"]
            for r in self.requests.values()
        )

    def submit(self, name: str, start: int, end: int) -> int:
        """Submit a leave request for the inclusive day range ``start..end``.

        :param name: a registered employee.
        :param start: first day of leave.
        :param end: last day of leave.
        :return: the new request id (1, 2, ...).
        :raises KeyError: if the employee is unknown.
        :raises ValueError: if the range is invalid, contains no working day, overlaps
            another open request of the employee, or exceeds the balance left after
            the employee's pending requests.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("di", 5)
        5
        >>> wf.submit("di", 8, 9)
        1
        """
        balance = self.remaining_balance(name)
        days = self.working_days(start, end)
        if days == 0:
            raise ValueError("request contains no working day")
        if self._overlaps(name, start, end):
            raise ValueError("request overlaps an existing request")
        pending = sum(r["days"] for r in self.requests.values()
                      if r["employee"] == name and r["status"] == "pending")
        if days > balance - pending:
            raise ValueError(f"{days} days requested but only {balance - pending} available")
        request_id = self.next_id
        self.next_id += 1
        self.requests[request_id] = {
            "employee": name, "start": start, "end": end,
            "days": days, "status": "pending", "note": "",
        }
        return request_id

    def _pending_request(self, request_id: int, decider: str = "") -> dict:
        """The record of a pending request, for ``decider`` to approve or reject.

        :param request_id: id returned by :meth:`submit`.
        :param decider: who approves or rejects it; "" when nobody decides.
        :return: the request's record (a dict, shared with the workflow).
        :raises KeyError: if the request id is unknown.
        :raises ValueError: if the request is not pending, or ``decider`` is the requester
            (nobody decides their own request).

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("jo", 5)
        5
        >>> wf._pending_request(wf.submit("jo", 1, 1))["days"]
        1
        """
        if request_id not in self.requests:
            raise KeyError(request_id)
        request = self.requests[request_id]
        if request["status"] != "pending":
            raise ValueError(f"request {request_id} is {request['status']}, not pending")
        if decider == request["employee"]:
            raise ValueError("employees cannot decide their own requests")
        return request

    def approve(self, request_id: int, approver: str) -> int:
        """Approve a pending request.

        :param request_id: id returned by :meth:`submit`.
        :param approver: who approves; an employee may not approve their own request.
        :return: the employee's remaining balance after approval.
        :raises KeyError: if the request id is unknown.
        :raises ValueError: if the request is not pending or the approver is the requester.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("ed", 4)
        4
        >>> wf.approve(wf.submit("ed", 1, 2), "boss")
        2
        """
        request = self._pending_request(request_id, approver)
        request["status"] = "approved"
        request["note"] = f"approved by {approver}"
        return self.remaining_balance(request["employee"])

    def reject(self, request_id: int, approver: str, reason: str) -> None:
        """Reject a pending request with a reason.

        :param request_id: id returned by :meth:`submit`.
        :param approver: who refuses; an employee may not reject their own request.
        :param reason: non-empty explanation kept on the request.
        :raises KeyError: if the request id is unknown.
        :raises ValueError: if the request is not pending, the reason is blank or the approver
            is the requester.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("fa", 4)
        4
        >>> wf.reject(wf.submit("fa", 1, 1), "boss", "busy week")
        >>> wf.status(1)
        ('rejected', 'busy week')
        """
        if not reason.strip():
            raise ValueError("a rejection needs a reason")
        request = self._pending_request(request_id, approver)
        request["status"] = "rejected"
        request["note"] = reason

    def cancel(self, request_id: int) -> int:
        """Cancel a pending or approved request, giving any charged days back.

        :param request_id: id returned by :meth:`submit`.
        :return: the employee's remaining balance after cancellation.
        :raises KeyError: if the request id is unknown.
        :raises ValueError: if the request was already rejected or cancelled.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("gu", 4)
        4
        >>> rid = wf.submit("gu", 1, 2)
        >>> wf.approve(rid, "boss")
        2
        >>> wf.cancel(rid)
        4
        """
        if request_id not in self.requests:
            raise KeyError(request_id)
        request = self.requests[request_id]
        if request["status"] not in ("pending", "approved"):
            raise ValueError(f"request {request_id} is already {request['status']}")
        request["status"] = "cancelled"
        return self.remaining_balance(request["employee"])

    def status(self, request_id: int) -> tuple[str, str]:
        """Status and note of a request: ``"approved by <approver>"`` once approved, the reason once
        rejected.

        :param request_id: id returned by :meth:`submit`.
        :return: ``(status, note)``; the note is empty while pending.
        :raises KeyError: if the request id is unknown.

        >>> wf = LeaveRequestWorkflow()
        >>> wf.add_employee("ha", 4)
        4
        >>> wf.status(wf.submit("ha", 1, 1))
        ('pending', '')
        """
        request = self.requests[request_id]
        return request["status"], request["note"]

    def on_leave(self, day: int) -> list[str]:
        """Employees with an approved request covering ``day``, sorted by name.

        :param day: a day number.
        :return: sorted names; empty when nobody is away.

        >>> LeaveRequestWorkflow().on_leave(10)
        []
        """
        return sorted(
            r["employee"]
            for r in self.requests.values()
            if r["status"] == "approved" and r["start"] <= day <= r["end"]
        )
