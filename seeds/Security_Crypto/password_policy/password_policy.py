"""Password composition rules with a per-user reuse history."""

import hashlib
import string


class PasswordPolicy:
    """Check passwords against composition rules and remember recent ones per user.

    Passwords are never stored in clear: each accepted password is kept as a
    salted PBKDF2-SHA256 digest, newest last, and only the most recent
    ``history_depth`` digests are retained. The newest digest is the user's
    current password.

    >>> policy = PasswordPolicy(min_length=8, history_depth=2)
    >>> policy.violations("short")
    ['too_short', 'no_upper', 'no_digit', 'no_symbol']
    >>> policy.set_password("ada", "Engine#1843")
    1
    >>> policy.verify("ada", "Engine#1843")
    True
    """

    SYMBOLS = set(string.punctuation)

    def __init__(self, min_length: int = 10, history_depth: int = 3, salt: str = "classeval") -> None:
        """Create a policy.

        Args:
            min_length: minimum number of characters a password must have.
            history_depth: how many previous passwords per user are remembered.
            salt: site-wide salt mixed into every digest.

        >>> PasswordPolicy(min_length=12).violations("Short#1a")
        ['too_short']
        """
        self.min_length = min_length
        self.history_depth = history_depth
        self._salt = salt
        self._banned: set[str] = set()
        self._history: dict[str, list[str]] = {}

    def ban_word(self, word: str) -> int:
        """Forbid passwords that contain ``word`` (case-insensitive).

        Args:
            word: a non-empty word such as a company or product name.

        Returns:
            The number of banned words after adding this one.

        Raises:
            ValueError: if ``word`` is empty or only whitespace.

        >>> PasswordPolicy().ban_word("Acme")
        1
        """
        cleaned = word.strip().lower()
        if not cleaned:
            raise ValueError("banned word must not be empty")
        self._banned.add(cleaned)
        return len(self._banned)

    def violations(self, password: str) -> list[str]:
        """List every rule that ``password`` breaks, in a fixed order.

        The codes are ``too_short``, ``no_upper``, ``no_lower``, ``no_digit``,
        ``no_symbol`` and then ``banned:<word>`` for each banned word found,
        sorted alphabetically.

        Args:
            password: the candidate password.

        Returns:
            A list of rule codes; empty when the password is acceptable.

        >>> PasswordPolicy(min_length=4).violations("Ab1!")
        []
        """
        problems = []
        if len(password) < self.min_length:
            problems.append("too_short")
        if not any(ch.isupper() for ch in password):
            problems.append("no_upper")
        if not any(ch.islower() for ch in password):
            problems.append("no_lower")
        if not any(ch.isdigit() for ch in password):
            problems.append("no_digit")
        if not any(ch in self.SYMBOLS for ch in password):
            problems.append("no_symbol")
        lowered = password.lower()
        problems.extend(f"banned:{word}" for word in sorted(self._banned) if word in lowered)
        return problems

    def strength(self, password: str) -> int:
        """Score a password from 0 to 100.

        Four points per character (at most 60), ten points per character class
        present (at most 40), minus fifteen points per rule violation; the
        result is raised to 0 if negative (it cannot exceed 100).

        Args:
            password: the candidate password.

        Returns:
            The score as an integer.

        >>> PasswordPolicy(min_length=8).strength("Engine#1843")
        84
        """
        length_points = min(len(password) * 4, 60)
        classes = [
            any(ch.isupper() for ch in password),
            any(ch.islower() for ch in password),
            any(ch.isdigit() for ch in password),
            any(ch in self.SYMBOLS for ch in password),
        ]
        score = length_points + 10 * sum(classes) - 15 * len(self.violations(password))
        return max(0, score)

    def _digest(self, user: str, password: str) -> str:
        """Return the hex PBKDF2-SHA256 digest of ``password`` for ``user``.

        Args:
            user: the account name, mixed into the salt.
            password: the password to hash.

        Returns:
            The 64-character hex digest (1000 PBKDF2 iterations).

        >>> len(PasswordPolicy()._digest("ada", "x"))
        64
        """
        salt = f"{self._salt}:{user}".encode()
        return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 1000).hex()

    def was_used(self, user: str, password: str) -> bool:
        """Tell whether ``password`` is among the user's remembered passwords.

        Args:
            user: the account name.
            password: the password to look up.

        Returns:
            True if the password is the current one or in the history; False
            otherwise, including for unknown users.

        >>> PasswordPolicy().was_used("nobody", "Secret#123")
        False
        """
        return self._digest(user, password) in self._history.get(user, [])

    def set_password(self, user: str, password: str) -> int:
        """Make ``password`` the user's current password.

        Args:
            user: the account name; unknown users are created.
            password: the new password.

        Returns:
            The number of digests remembered for the user afterwards.

        Raises:
            ValueError: if the password breaks a rule (message lists the rule
                codes) or was used recently.

        >>> policy = PasswordPolicy(min_length=6, history_depth=1)
        >>> policy.set_password("bob", "Tulip#42")
        1
        >>> policy.set_password("bob", "Rose#4242")
        1
        """
        problems = self.violations(password)
        if problems:
            raise ValueError("password rejected: " + ", ".join(problems))
        if self.was_used(user, password):
            raise ValueError("password was used recently")
        history = self._history.setdefault(user, [])
        history.append(self._digest(user, password))
        del history[: max(0, len(history) - self.history_depth)]
        return len(history)

    def verify(self, user: str, password: str) -> bool:
        """Check ``password`` against the user's current password.

        Args:
            user: the account name.
            password: the password to check.

        Returns:
            True if it matches the newest remembered password.

        Raises:
            KeyError: if the user has never set a password.

        >>> policy = PasswordPolicy(min_length=6)
        >>> _ = policy.set_password("eve", "Apple#99")
        >>> policy.verify("eve", "apple#99")
        False
        """
        return self._history[user][-1] == self._digest(user, password)

    def forget_user(self, user: str) -> int:
        """Drop the user's whole password history.

        Args:
            user: the account name.

        Returns:
            How many digests were discarded.

        Raises:
            KeyError: if the user is unknown.

        >>> policy = PasswordPolicy(min_length=6)
        >>> _ = policy.set_password("eve", "Apple#99")
        >>> policy.forget_user("eve")
        1
        """
        return len(self._history.pop(user))

    def users(self) -> list[str]:
        """Return the names of users with a password, sorted.

        Returns:
            Account names in ascending order; empty if nobody has a password.

        >>> policy = PasswordPolicy(min_length=6)
        >>> _ = policy.set_password("zoe", "Apple#99")
        >>> _ = policy.set_password("amy", "Pear#777")
        >>> policy.users()
        ['amy', 'zoe']
        """
        return sorted(self._history)
