"""A repository's licence, from its licence file, as an SPDX id.

Matching is on phrases every copy of a licence carries (its title or a distinctive sentence), checked in
an order where a more specific licence comes before the one it extends (BSD-3 before BSD-2, LGPL before GPL).
A file no phrase matches is 'unknown' and, like a missing file, is not allowed: mining only takes code whose
licence lets it be redistributed in a benchmark. The SPDX id a GitHub API answer gives is used as is.
"""

from __future__ import annotations

import re

LICENCE_FILE = re.compile(r"^(licen[cs]e|copying|unlicen[cs]e)([.-].*)?$", re.IGNORECASE)
"""Names of licence files at a repository's root (LICENSE, LICENSE.txt, LICENCE.md, COPYING, UNLICENSE)."""

DEFAULT_ALLOWED: tuple[str, ...] = ("MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "PSF-2.0", "Unlicense")

_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("AGPL-3.0", ("gnu affero general public license",)),
    ("LGPL-3.0", ("gnu lesser general public license", "version 3")),
    ("LGPL-2.1", ("gnu lesser general public license",)),
    ("GPL-3.0", ("gnu general public license", "version 3")),
    ("GPL-2.0", ("gnu general public license",)),
    ("MPL-2.0", ("mozilla public license",)),
    ("Apache-2.0", ("apache license", "version 2.0")),
    ("Unlicense", ("this is free and unencumbered software released into the public domain",)),
    ("PSF-2.0", ("python software foundation license",)),
    ("BSD-3-Clause", ("redistributions of source code must retain", "neither the name")),
    ("BSD-3-Clause", ("redistributions of source code must retain", "may be used to endorse or promote")),
    ("BSD-2-Clause", ("redistributions of source code must retain", "redistributions in binary form")),
    ("ISC", ("permission to use, copy, modify, and/or distribute this software for any purpose",)),
    ("ISC", ("permission to use, copy, modify, and distribute this software for any purpose",)),
    ("MIT", ("permission is hereby granted, free of charge, to any person obtaining a copy",)),
)

UNKNOWN = "unknown"
NONE = "none"


def spdx_of_text(text: str) -> str:
    """The SPDX id of a licence file's text, or 'unknown'."""
    flat = re.sub(r"[\s*#>]+", " ", text.lower())
    for spdx, phrases in _RULES:
        if all(phrase in flat for phrase in phrases):
            return spdx
    return UNKNOWN


def licence_files(names: list[str] | tuple[str, ...]) -> list[str]:
    """The root-level names that are licence files, LICENSE-like names before COPYING."""
    found = [n for n in names if "/" not in n and LICENCE_FILE.match(n)]
    return sorted(found, key=lambda n: (not n.lower().startswith("licen"), len(n), n))


def is_allowed(spdx: str, allowed: tuple[str, ...] | list[str]) -> bool:
    """Whether `spdx` is on the allow-list (SPDX ids compare case-insensitively)."""
    return spdx.lower() in {a.lower() for a in allowed}
