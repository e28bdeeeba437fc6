"""A weekly timesheet with submission locks and overtime pay."""


class Timesheet:
    """Hours worked by one employee, per day and project.

    Days are numbered from 1; week ``w`` holds days ``7*(w-1)+1 .. 7*w``.
    A submitted week is locked: its entries can no longer change until it is
    reopened. An approved week is final: it stays locked and can no longer be
    reopened, so its hours are the ones payroll and reports rely on. Hours beyond the weekly limit are overtime, paid at 1.5 times the rate.

    >>> ts = Timesheet("noor", 20.0, weekly_limit=10.0)
    >>> ts.log(1, "alpha", 8.0)
    8.0
    >>> ts.log(2, "beta", 4.0)
    4.0
    >>> ts.overtime(1)
    2.0
    >>> ts.gross_pay(1)
    260.0
    """

    OVERTIME_FACTOR = 1.5

    def __init__(self, employee: str, hourly_rate: float, weekly_limit: float = 40.0) -> None:
        """Create an empty timesheet.

        :param employee: whose hours these are.
        :param hourly_rate: pay per regular hour, at least 0.
        :param weekly_limit: regular hours per week before overtime starts.
        :raises ValueError: if the rate or the limit is negative.

        >>> Timesheet("noor", 25.0).weekly_limit
        40.0
        """
        if hourly_rate < 0 or weekly_limit < 0:
            raise ValueError("rate and weekly limit must not be negative")
        self.employee = employee
        self.hourly_rate = hourly_rate
        self.weekly_limit = weekly_limit
        self.entries: dict[int, dict[str, float]] = {}
        self.submitted: set[int] = set()
        self.approved: set[int] = set()

    def week_of(self, day: int) -> int:
        """Week number containing ``day``.

        :param day: day number, at least 1.
        :return: the week number, starting at 1.
        :raises ValueError: if ``day`` is below 1.

        >>> Timesheet("noor", 1.0).week_of(8)
        2
        """
        if day < 1:
            raise ValueError("days start at 1")
        return (day - 1) // 7 + 1

    def _check_open(self, day: int) -> None:
        """Refuse changes to a day whose week is submitted.

        :param day: day number, at least 1.
        :raises ValueError: if ``day`` is below 1.
        :raises PermissionError: if the week of ``day`` is submitted.

        >>> ts = Timesheet("noor", 1.0)
        >>> _ = ts.log(1, "alpha", 1.0)
        >>> _ = ts.submit_week(1)
        >>> ts._check_open(2)
        Traceback (most recent call last):
        ...
        PermissionError: week 1 is submitted and locked
        """
        week = self.week_of(day)
        if week in self.submitted:
            raise PermissionError(f"week {week} is submitted and locked")

    def day_total(self, day: int) -> float:
        """Hours logged on ``day`` across all projects.

        :param day: day number.
        :return: total hours (0.0 when nothing is logged).

        >>> Timesheet("noor", 1.0).day_total(3)
        0.0
        """
        return float(sum(self.entries.get(day, {}).values()))

    def log(self, day: int, project: str, hours: float) -> float:
        """Add ``hours`` on ``project`` for ``day`` (adding to any earlier entry).

        :param day: day number, at least 1.
        :param project: project code.
        :param hours: positive number of hours.
        :return: the new total for the day.
        :raises ValueError: if hours are not positive, the day is invalid, or the day would exceed 24 hours.
        :raises PermissionError: if the week is submitted.

        >>> ts = Timesheet("noor", 1.0)
        >>> ts.log(1, "alpha", 2.5)
        2.5
        >>> ts.log(1, "alpha", 1.0)
        3.5
        """
        if hours <= 0:
            raise ValueError("hours must be positive")
        self._check_open(day)
        if self.day_total(day) + hours > 24:
            raise ValueError(f"day {day} would exceed 24 hours")
        projects = self.entries.setdefault(day, {})
        projects[project] = projects.get(project, 0.0) + hours
        return self.day_total(day)

    def remove(self, day: int, project: str) -> float:
        """Delete the entry for ``project`` on ``day``.

        :param day: day number.
        :param project: project code.
        :return: the hours that were removed.
        :raises KeyError: if there is no such entry.
        :raises PermissionError: if the week is submitted.

        >>> ts = Timesheet("noor", 1.0)
        >>> _ = ts.log(1, "alpha", 2.0)
        >>> ts.remove(1, "alpha")
        2.0
        """
        self._check_open(day)
        if project not in self.entries.get(day, {}):
            raise KeyError((day, project))
        hours = self.entries[day].pop(project)
        if not self.entries[day]:
            del self.entries[day]
        return hours

    def week_total(self, week: int) -> float:
        """Hours logged in ``week``.

        :param week: week number, at least 1.
        :return: total hours of the seven days of the week.

        >>> ts = Timesheet("noor", 1.0)
        >>> _ = ts.log(7, "alpha", 3.0)
        >>> _ = ts.log(8, "alpha", 5.0)
        >>> ts.week_total(1), ts.week_total(2)
        (3.0, 5.0)
        """
        first = 7 * (week - 1) + 1
        return sum((self.day_total(day) for day in range(first, first + 7)), 0.0)

    def overtime(self, week: int) -> float:
        """Hours in ``week`` beyond the weekly limit.

        :param week: week number.
        :return: overtime hours, never negative.

        >>> Timesheet("noor", 1.0).overtime(1)
        0.0
        """
        return max(0.0, self.week_total(week) - self.weekly_limit)

    def gross_pay(self, week: int) -> float:
        """Pay for ``week``: regular hours at the rate, overtime at 1.5 times the rate.

        :param week: week number.
        :return: the amount rounded to cents.

        >>> ts = Timesheet("noor", 10.0)
        >>> _ = ts.log(1, "alpha", 4.0)
        >>> ts.gross_pay(1)
        40.0
        """
        extra = self.overtime(week)
        regular = self.week_total(week) - extra
        return round(regular * self.hourly_rate + extra * self.hourly_rate * self.OVERTIME_FACTOR, 2)

    def project_hours(self, project: str) -> float:
        """Hours booked on ``project`` over the whole timesheet.

        :param project: project code.
        :return: total hours, 0.0 for a project never logged.

        >>> Timesheet("noor", 1.0).project_hours("alpha")
        0.0
        """
        return sum((projects.get(project, 0.0) for projects in self.entries.values()), 0.0)

    def submit_week(self, week: int) -> float:
        """Submit ``week`` for approval, locking its entries.

        :param week: week number.
        :return: the week's total hours.
        :raises ValueError: if the week is already submitted or has no hours.

        >>> ts = Timesheet("noor", 1.0)
        >>> _ = ts.log(2, "alpha", 6.0)
        >>> ts.submit_week(1)
        6.0
        """
        if week in self.submitted:
            raise ValueError(f"week {week} is already submitted")
        total = self.week_total(week)
        if total == 0:
            raise ValueError(f"week {week} has no hours to submit")
        self.submitted.add(week)
        return total

    def approve_week(self, week: int) -> float:
        """Approve a submitted ``week``: its hours become final.

        An approved week stays locked for good; :meth:`reopen_week` refuses it.

        :param week: week number.
        :return: the week's final total hours.
        :raises ValueError: if the week is not submitted or is already approved.

        >>> ts = Timesheet("noor", 1.0)
        >>> _ = ts.log(2, "alpha", 6.0)
        >>> _ = ts.submit_week(1)
        >>> ts.approve_week(1)
        6.0
        """
        if week not in self.submitted:
            raise ValueError(f"week {week} is not submitted")
        if week in self.approved:
            raise ValueError(f"week {week} is already approved")
        self.approved.add(week)
        return self.week_total(week)

    def reopen_week(self, week: int) -> None:
        """Unlock a submitted week so it can be corrected before approval.

        :param week: week number.
        :raises ValueError: if the week was not submitted.
        :raises PermissionError: if the week is approved, and so final.

        >>> ts = Timesheet("noor", 1.0)
        >>> _ = ts.log(2, "alpha", 6.0)
        >>> _ = ts.submit_week(1)
        >>> ts.reopen_week(1)
        >>> ts.log(2, "alpha", 1.0)
        7.0
        """
        if week not in self.submitted:
            raise ValueError(f"week {week} is not submitted")
        if week in self.approved:
            raise PermissionError(f"week {week} is approved and final")
        self.submitted.remove(week)
