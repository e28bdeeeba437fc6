"""Role-based access control with inheritance and wildcard permissions."""


class RoleRegistry:
    """Keep roles, their permissions and which users hold which roles.

    A permission is ``"resource:action"``. A role may also be granted
    ``"resource:*"`` (every action on one resource) or ``"*"`` (everything).
    A role inherits all permissions of the roles it was declared to inherit
    from, transitively. Because parents must exist when a role is added and a
    role with children cannot be removed, the role graph never has cycles.

    >>> rbac = RoleRegistry()
    >>> rbac.add_role("viewer")
    ['viewer']
    >>> rbac.add_role("editor", ["viewer"])
    ['editor', 'viewer']
    >>> rbac.grant("viewer", "docs:read")
    True
    >>> rbac.assign("ada", "editor")
    ['editor']
    >>> rbac.is_allowed("ada", "docs:read")
    True
    """

    def __init__(self) -> None:
        """Create an empty registry with no roles, permissions or users.

        >>> RoleRegistry().effective_permissions("anyone")
        []
        """
        self._permissions: dict[str, set[str]] = {}
        self._parents: dict[str, list[str]] = {}
        self._assignments: dict[str, set[str]] = {}

    @staticmethod
    def _check_permission(permission: str) -> None:
        """Raise ValueError unless ``permission`` is ``"*"`` or ``"resource:action"``.

        Args:
            permission: the permission text to validate.

        >>> RoleRegistry._check_permission("docs:read")
        """
        resource, sep, action = permission.partition(":")
        if permission != "*" and not (sep and resource and action and ":" not in action):
            raise ValueError(f"invalid permission {permission!r}")

    def add_role(self, name: str, inherits: list[str] | None = None) -> list[str]:
        """Declare a role, optionally inheriting from existing roles.

        Args:
            name: the new role's name.
            inherits: names of existing roles whose permissions it inherits.

        Returns:
            The role and all roles it inherits from, sorted.

        Raises:
            ValueError: if the role already exists or the name is empty.
            KeyError: if a parent role does not exist.

        >>> RoleRegistry().add_role("admin")
        ['admin']
        """
        if not name or name in self._permissions:
            raise ValueError(f"role {name!r} already exists or is empty")
        parents = list(inherits or [])
        for parent in parents:
            if parent not in self._permissions:
                raise KeyError(parent)
        self._permissions[name] = set()
        self._parents[name] = parents
        return self._lineage(name)

    def _lineage(self, role: str) -> list[str]:
        """Return ``role`` and every role it inherits from, sorted.

        Args:
            role: an existing role name.

        Returns:
            Role names in ascending order, including ``role`` itself.

        >>> rbac = RoleRegistry()
        >>> _ = rbac.add_role("a"); _ = rbac.add_role("b", ["a"])
        >>> rbac._lineage("b")
        ['a', 'b']
        """
        seen: set[str] = set()
        stack = [role]
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(self._parents[current])
        return sorted(seen)

    def grant(self, role: str, permission: str) -> bool:
        """Give ``permission`` to ``role``.

        Args:
            role: an existing role name.
            permission: ``resource:action``, ``resource:*`` or ``*``.

        Returns:
            True if it was newly granted, False if the role already had it.

        Raises:
            KeyError: if the role does not exist.
            ValueError: if the permission is malformed.

        >>> rbac = RoleRegistry(); _ = rbac.add_role("ops")
        >>> rbac.grant("ops", "servers:*"), rbac.grant("ops", "servers:*")
        (True, False)
        """
        self._check_permission(permission)
        if permission in self._permissions[role]:
            return False
        self._permissions[role].add(permission)
        return True

    def revoke(self, role: str, permission: str) -> bool:
        """Take ``permission`` away from ``role`` (inherited ones are unaffected).

        Args:
            role: an existing role name.
            permission: the permission to remove.

        Returns:
            True if the role had it directly, False otherwise.

        Raises:
            KeyError: if the role does not exist.

        >>> rbac = RoleRegistry(); _ = rbac.add_role("ops")
        >>> rbac.revoke("ops", "servers:reboot")
        False
        """
        if permission not in self._permissions[role]:
            return False
        self._permissions[role].discard(permission)
        return True

    def assign(self, user: str, role: str) -> list[str]:
        """Give ``role`` to ``user``.

        Args:
            user: the user name.
            role: an existing role name.

        Returns:
            The roles assigned directly to the user, sorted.

        Raises:
            KeyError: if the role does not exist.

        >>> rbac = RoleRegistry(); _ = rbac.add_role("ops")
        >>> rbac.assign("bob", "ops")
        ['ops']
        """
        if role not in self._permissions:
            raise KeyError(role)
        self._assignments.setdefault(user, set()).add(role)
        return sorted(self._assignments[user])

    def unassign(self, user: str, role: str) -> bool:
        """Remove ``role`` from ``user``.

        Args:
            user: the user name.
            role: the role to take away.

        Returns:
            True if the user held the role directly, False otherwise.

        >>> RoleRegistry().unassign("bob", "ops")
        False
        """
        if role not in self._assignments.get(user, set()):
            return False
        self._assignments[user].discard(role)
        return True

    def effective_permissions(self, user: str) -> list[str]:
        """Return every permission the user holds through any role, sorted.

        Args:
            user: the user name; unknown users hold nothing.

        Returns:
            Permission strings in ascending order, wildcards included as granted.

        >>> rbac = RoleRegistry(); _ = rbac.add_role("ops")
        >>> _ = rbac.grant("ops", "logs:read"); _ = rbac.assign("bob", "ops")
        >>> rbac.effective_permissions("bob")
        ['logs:read']
        """
        result: set[str] = set()
        for role in self._assignments.get(user, set()):
            for inherited in self._lineage(role):
                result |= self._permissions[inherited]
        return sorted(result)

    def is_allowed(self, user: str, permission: str) -> bool:
        """Decide whether ``user`` may perform ``permission``.

        A held ``"*"`` or ``"<resource>:*"`` covers the requested permission.

        Args:
            user: the user name.
            permission: the requested ``resource:action``.

        Returns:
            True if any of the user's roles (with inheritance) covers the permission.

        Raises:
            ValueError: if the requested permission is malformed.

        >>> RoleRegistry().is_allowed("nobody", "docs:read")
        False
        """
        self._check_permission(permission)
        held = set(self.effective_permissions(user))
        resource = permission.partition(":")[0]
        return bool(held & {permission, f"{resource}:*", "*"})

    def explain(self, user: str, permission: str) -> list[str]:
        """List the roles (direct or inherited) whose grants allow ``permission``.

        Args:
            user: the user name.
            permission: the requested ``resource:action``.

        Returns:
            Role names, sorted; empty if access is denied.

        >>> rbac = RoleRegistry(); _ = rbac.add_role("root")
        >>> _ = rbac.grant("root", "*"); _ = rbac.assign("eve", "root")
        >>> rbac.explain("eve", "db:drop")
        ['root']
        """
        resource = permission.partition(":")[0]
        wanted = {permission, f"{resource}:*", "*"}
        granting: set[str] = set()
        for role in self._assignments.get(user, set()):
            granting.update(r for r in self._lineage(role) if self._permissions[r] & wanted)
        return sorted(granting)

    def remove_role(self, name: str) -> int:
        """Delete a role and take it away from every user holding it.

        Args:
            name: the role to delete.

        Returns:
            How many users lost the role.

        Raises:
            KeyError: if the role does not exist.
            ValueError: if another role inherits from it.

        >>> rbac = RoleRegistry(); _ = rbac.add_role("temp"); _ = rbac.assign("bob", "temp")
        >>> rbac.remove_role("temp")
        1
        """
        if name not in self._permissions:
            raise KeyError(name)
        children = sorted(r for r, parents in self._parents.items() if name in parents)
        if children:
            raise ValueError(f"role {name!r} is inherited by {', '.join(children)}")
        del self._permissions[name]
        del self._parents[name]
        affected = 0
        for user in sorted(self._assignments):
            if name in self._assignments[user]:
                self._assignments[user].discard(name)
                affected += 1
        return affected
