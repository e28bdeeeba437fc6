"""An INI-like configuration document with typed getters and value references."""

import re


class IniDocument:
    """Sections of ``key = value`` pairs read from text, queried, edited and rendered.

    Values may refer to other values with ``${key}`` (same section) or
    ``${section:key}``; ``get`` expands such references recursively.

    >>> doc = IniDocument()
    >>> doc.parse("[paths]\\nroot = /srv\\nlogs = ${root}/logs\\n")
    2
    >>> doc.get("paths", "logs")
    '/srv/logs'
    >>> doc.set("server", "port", "8080")
    >>> doc.get_int("server", "port")
    8080
    """

    _REFERENCE = re.compile(r"\$\{([^}]+)\}")
    _TRUE = ("1", "yes", "true", "on")
    _FALSE = ("0", "no", "false", "off")

    def __init__(self) -> None:
        """Create an empty document without sections."""
        self.sections: dict[str, dict[str, str]] = {}

    def parse(self, text: str) -> int:
        """Read sections and keys from ``text`` and merge them into the document.

        Lines starting with ``#`` or ``;`` and blank lines are ignored. Keys are
        lower-cased, values stripped; a later key overrides an earlier one.

        Args:
            text: the INI text.

        Returns:
            The number of key lines read.

        Raises:
            ValueError: for a key line before the first section header or a line
                that is neither a header, a comment nor ``key = value``.

        >>> IniDocument().parse("; comment\\n[a]\\nx = 1\\ny=2\\n")
        2
        """
        current = None
        count = 0
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("[") and line.endswith("]"):
                current = line[1:-1].strip()
                self.sections.setdefault(current, {})
                continue
            if "=" not in line:
                raise ValueError(f"line {number}: expected 'key = value'")
            if current is None:
                raise ValueError(f"line {number}: key outside of any section")
            key, value = line.split("=", 1)
            self.sections[current][key.strip().lower()] = value.strip()
            count += 1
        return count

    def get(self, section: str, key: str) -> str:
        """Return a value with all ``${...}`` references expanded.

        Args:
            section: section name.
            key: key name (case-insensitive).

        Returns:
            The expanded value.

        Raises:
            KeyError: if the section, the key or a referenced key is missing.
            ValueError: if references form a cycle.

        >>> doc = IniDocument()
        >>> doc.parse("[db]\\nhost = h\\nurl = pg://${host}:${net:port}\\n[net]\\nport=5432\\n")
        3
        >>> doc.get("db", "url")
        'pg://h:5432'
        """
        return self._resolve(section, key.lower(), [])

    def _resolve(self, section: str, key: str, trail: list[str]) -> str:
        """Expand one value, tracking the chain of references in ``trail``."""
        name = f"{section}:{key}"
        if name in trail:
            raise ValueError("reference cycle: " + " -> ".join(trail + [name]))
        raw = self.sections[section][key]

        def expand(match: re.Match) -> str:
            ref = match.group(1)
            ref_section, _, ref_key = ref.rpartition(":")
            return self._resolve(ref_section or section, ref_key.lower(), trail + [name])

        return self._REFERENCE.sub(expand, raw)

    def get_int(self, section: str, key: str, default: int = 0) -> int:
        """Return a value as an integer, or ``default`` when the key is missing.

        Args:
            section: section name.
            key: key name.
            default: returned if the section or key does not exist.

        Returns:
            The integer value.

        Raises:
            ValueError: if the value is not an integer.

        >>> doc = IniDocument()
        >>> doc.parse("[w]\\nthreads = 4\\n")
        1
        >>> doc.get_int("w", "threads"), doc.get_int("w", "queue", 16)
        (4, 16)
        """
        if not self.has(section, key):
            return default
        return int(self.get(section, key))

    def get_bool(self, section: str, key: str, default: bool = False) -> bool:
        """Return a value read as a boolean (yes/no, true/false, on/off, 1/0).

        Args:
            section: section name.
            key: key name.
            default: returned if the section or key does not exist.

        Returns:
            The boolean value.

        Raises:
            ValueError: if the value is not one of the recognised words.

        >>> doc = IniDocument()
        >>> doc.parse("[f]\\ndebug = Yes\\n")
        1
        >>> doc.get_bool("f", "debug")
        True
        """
        if not self.has(section, key):
            return default
        word = self.get(section, key).lower()
        if word in self._TRUE:
            return True
        if word in self._FALSE:
            return False
        raise ValueError(f"{section}:{key} is not a boolean: {word!r}")

    def get_list(self, section: str, key: str) -> list[str]:
        """Return a comma-separated value as a list of stripped, non-empty items.

        Args:
            section: section name.
            key: key name.

        Returns:
            The items; an empty list if the key is missing.

        >>> doc = IniDocument()
        >>> doc.parse("[m]\\nhosts = a, b,,c\\n")
        1
        >>> doc.get_list("m", "hosts")
        ['a', 'b', 'c']
        """
        if not self.has(section, key):
            return []
        return [item.strip() for item in self.get(section, key).split(",") if item.strip()]

    def has(self, section: str, key: str) -> bool:
        """Tell whether ``key`` exists in ``section``.

        Args:
            section: section name.
            key: key name (case-insensitive).

        Returns:
            True if present.

        >>> IniDocument().has("a", "b")
        False
        """
        return key.lower() in self.sections.get(section, {})

    def set(self, section: str, key: str, value: str) -> None:
        """Store a raw value, creating the section if needed.

        Args:
            section: section name.
            key: key name (stored lower-case).
            value: raw value; ``${...}`` references are kept unexpanded.

        Raises:
            ValueError: if the key is empty or contains ``=`` or a newline.

        >>> doc = IniDocument()
        >>> doc.set("a", "Name", "x")
        >>> doc.sections
        {'a': {'name': 'x'}}
        """
        key = key.strip().lower()
        if not key or "=" in key or "\n" in key or "\n" in value:
            raise ValueError(f"invalid key or value for {section}:{key}")
        self.sections.setdefault(section, {})[key] = value

    def remove(self, section: str, key: str = "") -> bool:
        """Remove one key, or a whole section when ``key`` is empty.

        Args:
            section: section name.
            key: key to remove; empty to drop the section.

        Returns:
            True if something was removed.

        >>> doc = IniDocument()
        >>> doc.set("a", "k", "v")
        >>> doc.remove("a", "k"), doc.remove("a", "k"), doc.remove("a")
        (True, False, True)
        """
        if not key:
            return self.sections.pop(section, None) is not None
        if not self.has(section, key):
            return False
        del self.sections[section][key.lower()]
        return True

    def render(self) -> str:
        """Write the document back as INI text, sections and keys in insertion order.

        Values are written raw (references unexpanded); sections are separated by a
        blank line.

        Returns:
            The INI text, or an empty string for an empty document.

        >>> doc = IniDocument()
        >>> doc.set("b", "x", "1")
        >>> doc.set("a", "y", "${b:x}")
        >>> doc.render()
        '[b]\\nx = 1\\n\\n[a]\\ny = ${b:x}\\n'
        """
        blocks = []
        for name, entries in self.sections.items():
            lines = [f"[{name}]"] + [f"{k} = {v}" for k, v in entries.items()]
            blocks.append("\n".join(lines) + "\n")
        return "\n".join(blocks)
