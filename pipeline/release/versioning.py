"""Calendar versions of releases: `YYYY.MM.N`, N counting releases made within that month from 0.

A calendar version tells a reader when the tasks were collected, which is what a contamination cut-off
is about; the month is zero-padded so that folder names sort in release order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from pipeline.errors import InputError

VERSION = re.compile(r"(\d{4})\.(\d{2})\.(\d+)")


def parse_version(version: str) -> tuple[int, int, int]:
    """(year, month, n) of a version; InputError for anything else."""
    match = VERSION.fullmatch(version)
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise InputError(f"release version {version!r} is not a calendar version YYYY.MM.N")
    year, month, n = (int(g) for g in match.groups())
    return year, month, n


def is_version(name: str) -> bool:
    try:
        parse_version(name)
    except InputError:
        return False
    return True


def sorted_versions(names: Iterable[str]) -> list[str]:
    """The calendar versions among `names`, oldest first (other folder names are ignored)."""
    return sorted((n for n in names if is_version(n)), key=parse_version)


def next_version(existing: Iterable[str], today: date) -> str:
    """The version a release made `today` gets: N+1 after this month's latest release, else N = 0."""
    same_month = [parse_version(v)[2] for v in sorted_versions(existing)
                  if parse_version(v)[:2] == (today.year, today.month)]
    n = max(same_month) + 1 if same_month else 0
    return f"{today.year:04d}.{today.month:02d}.{n}"
