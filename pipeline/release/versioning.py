"""Calendar versions of releases: `YYYY.MM.N`, N counting releases made within that month from 0.

A calendar version tells a reader when the tasks were collected, which is what a contamination cut-off
is about; the month is zero-padded so that folder names sort in release order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from core.errors import InputError

VERSION = re.compile(r"(\d{4})\.(\d{2})\.(\d+)")


_LOOSE = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def version_problem(version: str) -> str | None:
    """What is wrong with `version` as a calendar version YYYY.MM.N, in words; None when nothing is."""
    loose = _LOOSE.fullmatch(version)
    if loose is None:
        return "is not a calendar version YYYY.MM.N (e.g. 2026.12.0)"
    year, month, n = loose.groups()
    if len(year) != 4:
        return "needs a four-digit year (YYYY.MM.N)"
    if len(month) != 2:
        padded = f"{year}.{int(month):02d}.{n}" if int(month) < 100 else "YYYY.MM.N"
        return f"needs a two-digit month ({padded})"
    if not 1 <= int(month) <= 12:
        return f"has month {month}; months run from 01 to 12"
    return None


def parse_version(version: str) -> tuple[int, int, int]:
    """(year, month, n) of a version; InputError saying what is wrong for anything else."""
    problem = version_problem(version)
    if problem is not None:
        raise InputError(f"release version {version!r} {problem}")
    year, month, n = (int(g) for g in VERSION.fullmatch(version).groups())  # type: ignore[union-attr]
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
