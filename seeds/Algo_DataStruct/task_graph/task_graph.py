"""Tasks with durations and prerequisites, scheduled as a DAG."""

import heapq


class TaskGraph:
    """A directed acyclic graph of named tasks, each with an integer duration.

    ``_durations`` maps every task to its duration and ``_prerequisites`` maps
    every task to the set of tasks that must finish before it starts.
    :meth:`add_dependency` refuses edges that would close a cycle (it asks
    :meth:`depends_on`), so :meth:`topological_order` always succeeds, and the
    scheduling methods build on that order.  Ties are always broken
    alphabetically so results are reproducible.

    >>> plan = TaskGraph()
    >>> for name, days in [("design", 3), ("build", 5), ("docs", 2), ("ship", 1)]:
    ...     plan.add_task(name, days)
    >>> plan.add_dependency("build", "design")
    >>> plan.add_dependency("docs", "design")
    >>> plan.add_dependency("ship", "build")
    >>> plan.add_dependency("ship", "docs")
    >>> plan.topological_order()
    ['design', 'build', 'docs', 'ship']
    >>> plan.critical_path()
    ['design', 'build', 'ship']
    """

    def __init__(self) -> None:
        """Create an empty plan.

        >>> TaskGraph().topological_order()
        []
        """
        self._durations: dict[str, int] = {}
        self._prerequisites: dict[str, set[str]] = {}

    def _require(self, name: str) -> None:
        """Make sure ``name`` is a known task.

        :param name: task name.
        :raises KeyError: if the task does not exist.

        >>> TaskGraph()._require("x")
        Traceback (most recent call last):
        ...
        KeyError: 'unknown task: x'
        """
        if name not in self._durations:
            raise KeyError(f"unknown task: {name}")

    def add_task(self, name: str, duration: int = 1) -> None:
        """Add a task without prerequisites.

        :param name: unique, non-empty task name.
        :param duration: time units the task takes, ``>= 0``.
        :raises ValueError: if the name is empty or taken, or the duration is negative.

        >>> plan = TaskGraph()
        >>> plan.add_task("write", 4)
        >>> plan.topological_order()
        ['write']
        """
        if not name:
            raise ValueError("task name must not be empty")
        if name in self._durations:
            raise ValueError(f"task already exists: {name}")
        if duration < 0:
            raise ValueError(f"duration must be >= 0, got {duration}")
        self._durations[name] = duration
        self._prerequisites[name] = set()

    def remove_task(self, name: str) -> None:
        """Delete a task and every dependency that mentions it.

        :param name: an existing task.
        :raises KeyError: if the task does not exist.

        >>> plan = TaskGraph()
        >>> plan.add_task("a"); plan.add_task("b"); plan.add_dependency("b", "a")
        >>> plan.remove_task("a")
        >>> plan.prerequisites("b")
        []
        """
        self._require(name)
        del self._durations[name]
        del self._prerequisites[name]
        for required in self._prerequisites.values():
            required.discard(name)

    def add_dependency(self, task: str, prerequisite: str) -> None:
        """Declare that ``task`` cannot start before ``prerequisite`` finishes.

        :param task: the dependent task.
        :param prerequisite: the task it waits for.
        :raises KeyError: if either task does not exist.
        :raises ValueError: if the edge would create a cycle (including a self-loop);
            the graph is left unchanged.

        >>> plan = TaskGraph()
        >>> plan.add_task("a"); plan.add_task("b")
        >>> plan.add_dependency("b", "a")
        >>> plan.add_dependency("a", "b")
        Traceback (most recent call last):
        ...
        ValueError: b -> a would create a cycle
        """
        self._require(task)
        self._require(prerequisite)
        if task == prerequisite or self.depends_on(prerequisite, task):
            raise ValueError(f"{prerequisite} -> {task} would create a cycle")
        self._prerequisites[task].add(prerequisite)

    def prerequisites(self, task: str) -> list[str]:
        """Return the direct prerequisites of ``task``, sorted.

        :param task: an existing task.
        :return: names of the tasks it waits for directly.
        :raises KeyError: if the task does not exist.

        >>> plan = TaskGraph()
        >>> plan.add_task("b"); plan.add_task("a"); plan.add_task("c")
        >>> plan.add_dependency("c", "b"); plan.add_dependency("c", "a")
        >>> plan.prerequisites("c")
        ['a', 'b']
        """
        self._require(task)
        return sorted(self._prerequisites[task])

    def depends_on(self, task: str, other: str) -> bool:
        """Tell whether ``task`` waits, directly or transitively, for ``other``.

        :param task: an existing task.
        :param other: an existing task.
        :return: ``True`` if a chain of prerequisites leads from ``task`` to ``other``.
        :raises KeyError: if either task does not exist.

        >>> plan = TaskGraph()
        >>> plan.add_task("a"); plan.add_task("b"); plan.add_task("c")
        >>> plan.add_dependency("b", "a"); plan.add_dependency("c", "b")
        >>> plan.depends_on("c", "a"), plan.depends_on("a", "c")
        (True, False)
        """
        self._require(task)
        self._require(other)
        stack, seen = [task], {task}
        while stack:
            current = stack.pop()
            for required in self._prerequisites[current]:
                if required == other:
                    return True
                if required not in seen:
                    seen.add(required)
                    stack.append(required)
        return False

    def topological_order(self) -> list[str]:
        """Order all tasks so that prerequisites come first.

        Among tasks that are ready at the same moment the alphabetically
        smallest is taken first (Kahn's algorithm with a heap).

        :return: every task exactly once.

        >>> plan = TaskGraph()
        >>> plan.add_task("z"); plan.add_task("y"); plan.add_task("x")
        >>> plan.add_dependency("x", "z")
        >>> plan.topological_order()
        ['y', 'z', 'x']
        """
        waiting = {name: len(required) for name, required in self._prerequisites.items()}
        dependents: dict[str, list[str]] = {name: [] for name in self._durations}
        for name, required in self._prerequisites.items():
            for prerequisite in required:
                dependents[prerequisite].append(name)
        ready = [name for name, count in waiting.items() if count == 0]
        heapq.heapify(ready)
        order: list[str] = []
        while ready:
            name = heapq.heappop(ready)
            order.append(name)
            for follower in dependents[name]:
                waiting[follower] -= 1
                if waiting[follower] == 0:
                    heapq.heappush(ready, follower)
        return order

    def earliest_start_times(self) -> dict[str, int]:
        """Compute when each task can start if work runs fully in parallel.

        :return: task name -> earliest start (time 0 is the project start).

        >>> plan = TaskGraph()
        >>> plan.add_task("a", 2); plan.add_task("b", 3); plan.add_task("c", 1)
        >>> plan.add_dependency("c", "a"); plan.add_dependency("c", "b")
        >>> plan.earliest_start_times()
        {'a': 0, 'b': 0, 'c': 3}
        """
        starts: dict[str, int] = {}
        for name in self.topological_order():
            starts[name] = max(
                (starts[required] + self._durations[required] for required in self._prerequisites[name]),
                default=0,
            )
        return starts

    def critical_path(self) -> list[str]:
        """Return the chain of tasks that determines the project length.

        Among equally long chains, the one whose final task comes first in
        topological order wins, and each step prefers the alphabetically
        smallest prerequisite.

        :return: task names from first to last; ``[]`` for an empty plan.

        >>> plan = TaskGraph()
        >>> plan.add_task("a", 2); plan.add_task("b", 3); plan.add_task("c", 1)
        >>> plan.add_dependency("c", "a"); plan.add_dependency("c", "b")
        >>> plan.critical_path()
        ['b', 'c']
        """
        starts = self.earliest_start_times()
        if not starts:
            return []
        finish = {name: starts[name] + self._durations[name] for name in starts}
        last = max(self.topological_order(), key=lambda name: finish[name])
        path = [last]
        while self._prerequisites[path[-1]]:
            # The prerequisite that finishes last is the one that fixed the start time.
            path.append(min(sorted(self._prerequisites[path[-1]]), key=lambda name: -finish[name]))
        return path[::-1]

    def ready_tasks(self, done: list[str]) -> list[str]:
        """List the tasks that may start now, given the finished ones.

        :param done: names of tasks already finished.
        :return: unfinished tasks whose prerequisites are all in ``done``, sorted.
        :raises KeyError: if ``done`` names an unknown task.

        >>> plan = TaskGraph()
        >>> plan.add_task("a"); plan.add_task("b"); plan.add_dependency("b", "a")
        >>> plan.ready_tasks([]), plan.ready_tasks(["a"])
        (['a'], ['b'])
        """
        for name in done:
            self._require(name)
        finished = set(done)
        return sorted(
            name
            for name, required in self._prerequisites.items()
            if name not in finished and required <= finished
        )
