"""A priority job scheduler for one worker on a simulated clock."""

import heapq


class PriorityScheduler:
    """Run named jobs one at a time, highest priority first, on a simulated clock.

    Pending jobs are kept in ``_jobs`` (name -> ``(priority, sequence,
    duration, token)``) and in a heap of ``(-priority, sequence, token,
    name)`` entries.  Changing a priority or cancelling a job does not search
    the heap: it only updates ``_jobs``, and :meth:`_drop_stale` discards heap
    entries whose token no longer matches.  Equal priorities run in
    submission order.  Running a job advances ``_clock`` by its duration and
    records the completion time.

    >>> sched = PriorityScheduler()
    >>> sched.submit("backup", 1, 30)
    >>> sched.submit("alert", 5, 2)
    >>> sched.submit("report", 3, 10)
    >>> sched.run_next(), sched.run_next()
    ('alert', 'report')
    >>> sched.completion_time("report")
    12
    """

    def __init__(self) -> None:
        """Create an idle scheduler at time 0.

        >>> PriorityScheduler().pending()
        []
        """
        self._clock = 0
        self._counter = 0
        self._heap: list[tuple[int, int, int, str]] = []
        self._jobs: dict[str, tuple[int, int, int, int]] = {}
        self._completed: dict[str, int] = {}

    def _push(self, name: str, priority: int, sequence: int, duration: int) -> None:
        """Store ``name`` as pending and push a fresh heap entry for it.

        :param name: job name.
        :param priority: larger runs earlier.
        :param sequence: submission number used to break priority ties.
        :param duration: time units the job needs.

        >>> sched = PriorityScheduler()
        >>> sched._push("x", 1, 0, 1)
        >>> sched.peek()
        'x'
        """
        self._counter += 1
        token = self._counter
        self._jobs[name] = (priority, sequence, duration, token)
        heapq.heappush(self._heap, (-priority, sequence, token, name))

    def _drop_stale(self) -> None:
        """Pop heap entries of cancelled or re-prioritised jobs off the top.

        >>> sched = PriorityScheduler()
        >>> sched._drop_stale()
        """
        while self._heap:
            _, _, token, name = self._heap[0]
            job = self._jobs.get(name)
            if job is not None and job[3] == token:
                return
            heapq.heappop(self._heap)

    def submit(self, name: str, priority: int, duration: int) -> None:
        """Queue a new job.

        :param name: unique name among pending and completed jobs.
        :param priority: larger numbers run earlier.
        :param duration: time units the job needs, at least 1.
        :raises ValueError: if the name is in use or ``duration < 1``.

        >>> sched = PriorityScheduler()
        >>> sched.submit("a", 0, 5)
        >>> sched.submit("a", 0, 5)
        Traceback (most recent call last):
        ...
        ValueError: job name already used: a
        """
        if name in self._jobs or name in self._completed:
            raise ValueError(f"job name already used: {name}")
        if duration < 1:
            raise ValueError(f"duration must be at least 1, got {duration}")
        self._push(name, priority, self._counter, duration)

    def cancel(self, name: str) -> bool:
        """Withdraw a pending job.

        :param name: the job to cancel.
        :return: ``True`` if a pending job was cancelled, ``False`` otherwise.

        >>> sched = PriorityScheduler()
        >>> sched.submit("a", 0, 5)
        >>> sched.cancel("a"), sched.cancel("a")
        (True, False)
        """
        return self._jobs.pop(name, None) is not None

    def change_priority(self, name: str, priority: int) -> None:
        """Give a pending job a new priority, keeping its place among equals.

        :param name: a pending job.
        :param priority: its new priority.
        :raises KeyError: if no such job is pending.

        >>> sched = PriorityScheduler()
        >>> sched.submit("a", 1, 1); sched.submit("b", 2, 1)
        >>> sched.change_priority("a", 9)
        >>> sched.peek()
        'a'
        """
        if name not in self._jobs:
            raise KeyError(f"no pending job: {name}")
        _, sequence, duration, _ = self._jobs[name]
        self._push(name, priority, sequence, duration)

    def peek(self) -> str | None:
        """Name the job that would run next, without running it.

        :return: the job name, or ``None`` if nothing is pending.

        >>> PriorityScheduler().peek() is None
        True
        """
        self._drop_stale()
        return self._heap[0][3] if self._heap else None

    def run_next(self) -> str:
        """Run the next job to completion and advance the clock.

        :return: the name of the job that ran.
        :raises IndexError: if no job is pending.

        >>> sched = PriorityScheduler()
        >>> sched.submit("a", 0, 4)
        >>> sched.run_next(), sched.now()
        ('a', 4)
        """
        name = self.peek()
        if name is None:
            raise IndexError("no pending jobs")
        heapq.heappop(self._heap)
        _, _, duration, _ = self._jobs.pop(name)
        self._clock += duration
        self._completed[name] = self._clock
        return name

    def run_until(self, deadline: int) -> list[str]:
        """Run jobs in order while they can start before ``deadline``.

        A job that starts before the deadline runs to completion even if it
        finishes after it.  If the queue empties early the clock jumps to the
        deadline (the worker idles).

        :param deadline: time limit for starting jobs.
        :return: names of the jobs that ran, in order.
        :raises ValueError: if ``deadline`` lies before the current time.

        >>> sched = PriorityScheduler()
        >>> sched.submit("a", 2, 3); sched.submit("b", 1, 3); sched.submit("c", 0, 3)
        >>> sched.run_until(5), sched.now()
        (['a', 'b'], 6)
        """
        if deadline < self._clock:
            raise ValueError(f"deadline {deadline} is before the current time {self._clock}")
        ran: list[str] = []
        while self._clock < deadline and self.peek() is not None:
            ran.append(self.run_next())
        self._clock = max(self._clock, deadline)
        return ran

    def pending(self) -> list[str]:
        """List pending jobs in the order they would run.

        :return: job names, next job first.

        >>> sched = PriorityScheduler()
        >>> sched.submit("low", 1, 1); sched.submit("high", 5, 1)
        >>> sched.pending()
        ['high', 'low']
        """
        return sorted(self._jobs, key=lambda name: (-self._jobs[name][0], self._jobs[name][1]))

    def completion_time(self, name: str) -> int:
        """Return the clock time at which a job finished.

        :param name: a completed job.
        :return: its completion time.
        :raises KeyError: if the job has not completed.

        >>> sched = PriorityScheduler()
        >>> sched.submit("a", 0, 7); _ = sched.run_next()
        >>> sched.completion_time("a")
        7
        """
        if name not in self._completed:
            raise KeyError(f"job has not completed: {name}")
        return self._completed[name]

    def now(self) -> int:
        """Return the current simulated time.

        :return: time units elapsed since the scheduler was created.

        >>> PriorityScheduler().now()
        0
        """
        return self._clock
