"""A small declarative command-line argument parser."""


class CommandLineParser:
    """Declare flags, options and positionals, then parse argument lists.

    Supported syntax: ``--name value``, ``--name=value``, ``-n value``,
    bundled short flags (``-vq``), ``--no-<flag>`` to switch a flag off and
    ``--`` to end option processing. Dashes in long names on the command line
    stand for underscores in declared names (``--dry-run`` sets ``dry_run``). Option values are converted to the
    declared type (``"str"``, ``"int"`` or ``"float"``). Every error is a
    ``ValueError`` with a message fit for the user.

    >>> cli = CommandLineParser("backup")
    >>> cli.add_flag("verbose", short="v")
    >>> cli.add_option("level", value_type="int", default=3)
    >>> cli.add_positional("source")
    1
    >>> cli.parse(["-v", "--level=9", "/home"])
    {'level': 9, 'source': '/home', 'verbose': True}
    >>> cli.usage()
    'usage: backup [-v] [--level LEVEL] source'
    """

    TYPES = {"str": str, "int": int, "float": float}

    def __init__(self, program: str) -> None:
        """Create a parser for the program called ``program``, with nothing declared.

        >>> CommandLineParser("ls").usage()
        'usage: ls'
        """
        self.program = program
        self._specs: dict[str, dict[str, str | int | float | bool | list[str] | None]] = {}
        self._shorts: dict[str, str] = {}
        self._positionals: list[str] = []

    def _declare(self, name: str, short: str, spec: dict[str, str | int | float | bool | list[str] | None]) -> None:
        """Register a flag or option after checking that its names are free.

        Args:
            name: the long name (a Python identifier).
            short: a one-letter alias, or empty for none.
            spec: the declaration fields (``kind``, ``default``, ...).

        Raises:
            ValueError: if the name or short alias is taken or malformed.

        >>> CommandLineParser("p")._declare("x", "", {"kind": "flag"})
        """
        if not name.isidentifier() or name in self._specs or name in self._positionals:
            raise ValueError(f"bad or duplicate name {name!r}")
        if short and (len(short) != 1 or not short.isalpha() or short in self._shorts):
            raise ValueError(f"bad or duplicate short alias {short!r}")
        self._specs[name] = {**spec, "short": short}
        if short:
            self._shorts[short] = name

    def add_flag(self, name: str, short: str = "") -> None:
        """Declare a boolean flag that defaults to False.

        Args:
            name: the long name (a Python identifier).
            short: a one-letter alias, or empty for none.

        Raises:
            ValueError: if the name or short alias is already used.

        >>> cli = CommandLineParser("p"); cli.add_flag("force", short="f")
        >>> cli.parse(["-f"])
        {'force': True}
        """
        self._declare(name, short, {"kind": "flag", "default": False})

    def add_option(self, name: str, value_type: str = "str", default: str | int | float | None = None,
                   short: str = "", required: bool = False, choices: list[str] | None = None) -> None:
        """Declare an option that takes one value.

        Args:
            name: long name, used as ``--name`` and as the key in parse results.
            value_type: ``"str"``, ``"int"`` or ``"float"``.
            default: value when the option is absent (ignored if required).
            short: optional one-letter alias.
            required: whether parsing fails when the option is absent.
            choices: allowed raw values, if restricted.

        Raises:
            ValueError: for an unknown type or a name clash.

        >>> cli = CommandLineParser("p"); cli.add_option("mode", choices=["fast", "safe"], default="safe")
        >>> cli.parse([])
        {'mode': 'safe'}
        """
        if value_type not in self.TYPES:
            raise ValueError(f"unknown type {value_type!r}")
        self._declare(name, short, {"kind": "option", "type": value_type, "default": default,
                                    "required": required, "choices": choices})

    def add_positional(self, name: str) -> int:
        """Declare the next required positional argument.

        Args:
            name: the key under which ``parse`` reports the value.

        Returns:
            The number of positionals declared so far.

        Raises:
            ValueError: if the name is already used.

        >>> CommandLineParser("p").add_positional("path")
        1
        """
        if not name.isidentifier() or name in self._specs or name in self._positionals:
            raise ValueError(f"bad or duplicate name {name!r}")
        self._positionals.append(name)
        return len(self._positionals)

    def defaults(self) -> dict[str, str | int | float | bool | None]:
        """Return the value every flag and non-required option has when absent.

        Returns:
            A dict from name to default, sorted by name; required options are left out.

        >>> cli = CommandLineParser("p"); cli.add_flag("dry_run"); cli.add_option("n", "int", 1)
        >>> cli.defaults()
        {'dry_run': False, 'n': 1}
        """
        return {name: spec["default"] for name, spec in sorted(self._specs.items()) if not spec.get("required")}

    def _convert(self, name: str, raw: str) -> str | int | float:
        """Check ``raw`` against the option's choices and convert it to its type.

        Args:
            name: a declared option name.
            raw: the value as typed on the command line.

        Returns:
            The value converted to the option's declared type.

        Raises:
            ValueError: if the value is not allowed or cannot be converted.

        >>> cli = CommandLineParser("p"); cli.add_option("ratio", "float")
        >>> cli._convert("ratio", "0.25")
        0.25
        """
        spec = self._specs[name]
        choices = spec["choices"]
        if isinstance(choices, list) and raw not in choices:
            raise ValueError(f"--{name} must be one of {', '.join(choices)}")
        try:
            return self.TYPES[str(spec["type"])](raw)
        except ValueError:
            raise ValueError(f"--{name} expects {spec['type']}, got {raw!r}") from None

    def parse(self, argv: list[str]) -> dict[str, str | int | float | bool | None]:
        """Parse ``argv`` (without the program name) into a name -> value dict.

        Keys are sorted; the result holds every declared flag, option and
        positional.

        Args:
            argv: the arguments, e.g. ``["-v", "--level=2", "src"]``; not modified.

        Returns:
            A dict from every declared name to its value, sorted by name.

        Raises:
            ValueError: for unknown options, missing values, bad values,
                missing required options or a wrong number of positionals.

        >>> cli = CommandLineParser("p"); cli.add_option("out", short="o", required=True)
        >>> cli.parse(["-o", "a.txt"])
        {'out': 'a.txt'}
        """
        values = self.defaults()
        seen: set[str] = set()
        rest: list[str] = []
        tokens = list(argv)
        while tokens:
            token = tokens.pop(0)
            if token == "--":
                rest.extend(tokens)
                break
            if token.startswith("--"):
                name, has_value, inline = token[2:].partition("=")
                name = name.replace("-", "_")
                if name.startswith("no_") and self._specs.get(name[3:], {}).get("kind") == "flag" and not has_value:
                    values[name[3:]] = False
                    continue
                names = [name]
            elif token.startswith("-") and len(token) > 1:
                names = [self._shorts.get(ch, "-" + ch) for ch in token[1:]]
                has_value, inline = False, ""
            else:
                rest.append(token)
                continue
            for name in names:
                spec = self._specs.get(name)
                if spec is None:
                    raise ValueError(f"unknown option {name if name.startswith('-') else '--' + name}")
                if spec["kind"] == "flag":
                    if has_value:
                        raise ValueError(f"flag --{name} takes no value")
                    values[name] = True
                    continue
                if has_value:
                    raw = inline
                elif name == names[-1] and tokens:
                    raw = tokens.pop(0)
                else:
                    raise ValueError(f"--{name} needs a value")
                values[name] = self._convert(name, raw)
                seen.add(name)
        missing = sorted(n for n, s in self._specs.items() if s.get("required") and n not in seen)
        if missing:
            raise ValueError("missing required option(s): " + ", ".join("--" + n for n in missing))
        if len(rest) != len(self._positionals):
            raise ValueError(f"expected {len(self._positionals)} positional argument(s), got {len(rest)}")
        values.update(zip(self._positionals, rest))
        return dict(sorted(values.items()))

    def usage(self) -> str:
        """Return a one-line usage summary in declaration order.

        Returns:
            The text ``usage: <program> ...``; optional items are in brackets.

        >>> cli = CommandLineParser("tar"); cli.add_option("file", short="f", required=True)
        >>> cli.usage()
        'usage: tar -f FILE'
        """
        parts = [f"usage: {self.program}"]
        for name, spec in self._specs.items():
            label = f"-{spec['short']}" if spec["short"] else "--" + name.replace("_", "-")
            if spec["kind"] == "option":
                label += " " + name.upper()
            parts.append(label if spec.get("required") else f"[{label}]")
        parts.extend(self._positionals)
        return " ".join(parts)
