"""Counter-based one-time passwords (RFC 4226) with lockout and resync."""

import hashlib
import hmac


class HotpAuthenticator:
    """Validate HOTP codes for enrolled devices.

    Each device has a shared secret and a moving counter. A submitted code is
    accepted if it matches one of the next ``look_ahead + 1`` counter values;
    the counter then moves past the matching value so the code cannot be
    replayed. After ``max_failures`` consecutive wrong codes the device is
    locked until ``unlock`` or a successful ``resync``.

    >>> auth = HotpAuthenticator()
    >>> auth.enroll("phone", "3132333435363738393031323334353637383930")
    0
    >>> auth.code_at("phone", 0)
    '755224'
    >>> auth.verify("phone", "287082")
    True
    >>> auth.counter("phone")
    2
    """

    def __init__(self, digits: int = 6, look_ahead: int = 3, max_failures: int = 3) -> None:
        """Configure the validator.

        Args:
            digits: code length (6 to 8).
            look_ahead: how many counter values beyond the expected one are accepted.
            max_failures: consecutive failures that lock a device.

        >>> auth = HotpAuthenticator(digits=8); _ = auth.enroll("k", "3132333435363738393031323334353637383930")
        >>> auth.code_at("k", 0)
        '84755224'
        """
        self.digits = digits
        self.look_ahead = look_ahead
        self.max_failures = max_failures
        self._secrets: dict[str, bytes] = {}
        self._counters: dict[str, int] = {}
        self._failures: dict[str, int] = {}

    def enroll(self, device: str, secret_hex: str) -> int:
        """Register a device with its shared secret given in hexadecimal.

        Args:
            device: a unique device name.
            secret_hex: the shared secret as hexadecimal text.

        Returns:
            The device's starting counter (always 0).

        Raises:
            ValueError: if the device is already enrolled or the secret is not
                valid hexadecimal of at least 16 bytes.

        >>> HotpAuthenticator().enroll("key", "00" * 16)
        0
        """
        if device in self._secrets:
            raise ValueError(f"device {device!r} already enrolled")
        secret = bytes.fromhex(secret_hex)
        if len(secret) < 16:
            raise ValueError("secret must be at least 16 bytes")
        self._secrets[device] = secret
        self._counters[device] = 0
        self._failures[device] = 0
        return 0

    def code_at(self, device: str, counter: int) -> str:
        """Compute the device's code for an explicit counter value.

        Uses HMAC-SHA1 and dynamic truncation as in RFC 4226, zero-padded
        to ``digits`` characters.

        Args:
            device: an enrolled device name.
            counter: the counter value (0 or more).

        Returns:
            The code as a string of exactly ``digits`` decimal digits.

        Raises:
            KeyError: if the device is not enrolled.
            ValueError: if ``counter`` is negative.

        >>> auth = HotpAuthenticator(digits=8)
        >>> _ = auth.enroll("k", "3132333435363738393031323334353637383930")
        >>> auth.code_at("k", 1)
        '94287082'
        """
        if counter < 0:
            raise ValueError("counter must not be negative")
        mac = hmac.new(self._secrets[device], counter.to_bytes(8, "big"), hashlib.sha1).digest()
        offset = mac[-1] & 0x0F
        value = int.from_bytes(mac[offset:offset + 4], "big") & 0x7FFFFFFF
        return str(value % 10 ** self.digits).zfill(self.digits)

    def counter(self, device: str) -> int:
        """Return the next counter value the device is expected to use.

        Args:
            device: an enrolled device name.

        Returns:
            The counter value that the next expected code uses.

        Raises:
            KeyError: if the device is not enrolled.

        >>> auth = HotpAuthenticator(); _ = auth.enroll("k", "ab" * 20)
        >>> auth.counter("k")
        0
        """
        return self._counters[device]

    def is_locked(self, device: str) -> bool:
        """Tell whether the device has reached ``max_failures`` failures in a row.

        Args:
            device: an enrolled device name.

        Returns:
            True if the device is locked, False otherwise.

        Raises:
            KeyError: if the device is not enrolled.

        >>> auth = HotpAuthenticator(); _ = auth.enroll("k", "ab" * 20)
        >>> auth.is_locked("k")
        False
        """
        return self._failures[device] >= self.max_failures

    def verify(self, device: str, code: str) -> bool:
        """Check a submitted code and advance the counter on success.

        Args:
            device: an enrolled device name.
            code: the code the user typed.

        Returns:
            True if the code matched a counter in the look-ahead window; False
            otherwise (the failure is counted).

        Raises:
            KeyError: if the device is not enrolled.
            PermissionError: if the device is locked.

        >>> auth = HotpAuthenticator(); _ = auth.enroll("k", "3132333435363738393031323334353637383930")
        >>> auth.verify("k", "000000")
        False
        """
        if self.is_locked(device):
            raise PermissionError(f"device {device!r} is locked")
        start = self._counters[device]
        for candidate in range(start, start + self.look_ahead + 1):
            if hmac.compare_digest(self.code_at(device, candidate), code):
                self._counters[device] = candidate + 1
                self._failures[device] = 0
                return True
        self._failures[device] += 1
        return False

    def unlock(self, device: str) -> int:
        """Clear the failure count of a device.

        Args:
            device: an enrolled device name.

        Returns:
            The failure count before clearing.

        Raises:
            KeyError: if the device is not enrolled.

        >>> auth = HotpAuthenticator(); _ = auth.enroll("k", "ab" * 20)
        >>> auth.unlock("k")
        0
        """
        previous = self._failures[device]
        self._failures[device] = 0
        return previous

    def resync(self, device: str, first_code: str, second_code: str, window: int = 50) -> int:
        """Find two consecutive codes within ``window`` counters and jump past them.

        This recovers a device whose counter drifted beyond the look-ahead
        window (for example after many button presses). A successful resync
        also unlocks the device.

        Args:
            device: an enrolled device name.
            first_code: a code the device showed.
            second_code: the code the device showed right after ``first_code``.
            window: how many counter values from the current one to search.

        Returns:
            The new expected counter.

        Raises:
            KeyError: if the device is not enrolled.
            ValueError: if no two consecutive matching codes are found.

        >>> auth = HotpAuthenticator(); _ = auth.enroll("k", "3132333435363738393031323334353637383930")
        >>> auth.resync("k", "162583", "399871")
        9
        """
        start = self._counters[device]
        for candidate in range(start, start + window):
            if (self.code_at(device, candidate) == first_code
                    and self.code_at(device, candidate + 1) == second_code):
                self._counters[device] = candidate + 2
                self.unlock(device)
                return candidate + 2
        raise ValueError("codes not found in resync window")
