class ProjectBoard:
    """A task board whose finished work is booked on a timesheet.

    Tasks belong to projects. Completing a task books the hours it took on the timesheet, under the
    task's project; hours can also be booked directly (meetings, say).
    """

    def __init__(self):
        """Start with no tasks and an empty timesheet."""
        self.tasks = {}
        self.done = []
        self.hours = {}

    def add_task(self, task_id, project):
        """Add task `task_id` of `project`, not yet done.

        :raises ValueError: if `task_id` exists; the board is then left unchanged.
        """
        if task_id in self.tasks:
            raise ValueError(task_id)
        self.tasks[task_id] = project

    def complete(self, task_id, hours):
        """Mark `task_id` done and book `hours` on its project; returns the project's booked hours.

        :raises KeyError: if there is no task `task_id`.
        :raises ValueError: if the task is already done; nothing is booked then.
        """
        project = self.tasks[task_id]
        if task_id in self.done:
            raise ValueError(task_id)
        self.done.append(task_id)
        self.log_hours(project=project, hours=hours)
        return self.booked(project)

    def open_tasks(self):
        """Return the ids of the tasks not yet done, sorted."""
        return sorted(t for t in self.tasks if t not in self.done)

    def log_hours(self, project, hours):
        """Book `hours` on `project`.

        :raises ValueError: if `hours` is not positive; nothing is booked then.
        """
        if hours <= 0:
            raise ValueError(hours)
        self.hours[project] = self.hours.get(project, 0) + hours

    def booked(self, project):
        """Return the hours booked on `project` (0 for none)."""
        return self.hours.get(project, 0)

    def busiest(self):
        """Return the project with the most booked hours (the first booked among equals), or None."""
        return max(self.hours, key=self.hours.get, default=None)
