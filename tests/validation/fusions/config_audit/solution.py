import json


class AuditedSettings:
    """Application settings loaded from JSON text, with an audit trail of every change.

    Each change of a setting's value (one by one or by loading a JSON object) is entered in the audit trail
    as ``(key, old value, new value)``; a load that changes nothing enters nothing.
    """

    def __init__(self, defaults):
        """Start from the `defaults` (a dict of setting -> value) and an empty audit trail."""
        self.values = dict(defaults)
        self.trail = []

    def get(self, key):
        """Return the value of setting `key`.

        :raises KeyError: if there is no setting `key`.
        """
        return self.values[key]

    def set(self, key, value):
        """Set `key` to `value`; returns whether the value changed (a change is audited).

        :raises KeyError: if there is no setting `key` (settings are only those of the defaults).
        """
        old = self.values[key]
        if old == value:
            return False
        self.values[key] = value
        self._audit(key, old, value)
        return True

    def load_json(self, text):
        """Apply the settings of the JSON object `text`; returns how many values changed.

        :raises json.JSONDecodeError: if `text` is not JSON.
        :raises KeyError: if the object names an unknown setting (the settings before it stay set).
        """
        return sum(self.set(key, value) for key, value in json.loads(text).items())

    def _audit(self, key, old, new):
        self.trail.append((key, old, new))

    def changes(self, key):
        """Return the audited changes of `key` as (old, new) pairs, oldest first."""
        return [(old, new) for k, old, new in self.trail if k == key]

    def audited(self):
        """Return how many changes the audit trail holds."""
        return len(self.trail)
