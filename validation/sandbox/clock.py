"""Moving the clock of a run forward when libfaketime is not installed.

libfaketime (Debian package `faketime`, preloaded into a separate warm worker) moves every clock a process
reads, C extensions included, and is what the pool uses when it is present. This fallback shifts only what
Python code usually reads (time.time/time_ns/localtime/gmtime/ctime/strftime, datetime.now/today/utcnow,
date.today); it is applied in the run process before the tests are imported, so `from datetime import date`
in a test module picks up the shifted class.
"""

from __future__ import annotations

import datetime as _dt
import time as _time


def shift_python_clock(offset_seconds: float) -> None:
    real_time, real_time_ns = _time.time, _time.time_ns
    real_localtime, real_gmtime, real_ctime, real_strftime = _time.localtime, _time.gmtime, _time.ctime, _time.strftime

    def time() -> float:
        return real_time() + offset_seconds

    def time_ns() -> int:
        return real_time_ns() + int(offset_seconds * 1e9)

    _time.time, _time.time_ns = time, time_ns
    _time.localtime = lambda secs=None: real_localtime(time() if secs is None else secs)
    _time.gmtime = lambda secs=None: real_gmtime(time() if secs is None else secs)
    _time.ctime = lambda secs=None: real_ctime(time() if secs is None else secs)
    _time.strftime = lambda fmt, t=None: real_strftime(fmt, _time.localtime() if t is None else t)

    real_datetime, real_date = _dt.datetime, _dt.date

    class datetime(real_datetime):  # type: ignore[misc, valid-type]
        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def]
            return cls.fromtimestamp(time(), tz)

        @classmethod
        def today(cls):  # type: ignore[no-untyped-def]
            return cls.fromtimestamp(time())

        @classmethod
        def utcnow(cls):  # type: ignore[no-untyped-def]
            return cls.fromtimestamp(time(), _dt.timezone.utc).replace(tzinfo=None)

    class date(real_date):  # type: ignore[misc, valid-type]
        @classmethod
        def today(cls):  # type: ignore[no-untyped-def]
            return cls.fromtimestamp(time())

    _dt.datetime, _dt.date = datetime, date
