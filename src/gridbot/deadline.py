"""When a search must stop: one clock, one deadline type, and the stop request of a parallel run.

Every solver, share and task reads the same clock (`time.monotonic`): a deadline is a moment on it, and
`Clock` is the start of a solve, its deadline and its progress reports. A deadline does not cross machines
(a Dask worker's clock is its own), so work sent elsewhere carries the seconds it has left (`Deadline.left`)
and makes its own deadline there (`Deadline.after`). A search also stops when the process that started it asks
(`stop_requested`): a worker process reads the stop event of its pool, a task on a Dask worker the flag of its
run (`reading`). A caller that wants each better program as a search finds it listens (`hearing`); a solver
hands each one to `announce` (see gridbot.solve's `on_solution`).

>>> Clock(2.5).deadline.at is not None
True
>>> Deadline.after(None).expired()
False
>>> Clock(float("nan"))
Traceback (most recent call last):
...
ValueError: time_limit must be a positive number of seconds or None, not nan
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

Progress = Callable[[dict[str, Any]], None]

now = time.monotonic  # the one clock: system-wide on one machine, never set back

_process_stop: Any = None  # in a worker process: the pool's stop event, set once when the worker starts
_thread = threading.local()  # .stop: the flag a task in this thread reads instead (a Dask worker's task); .hear:
# the listener of `hearing`


class Timeout(Exception):
    """Raised inside a search when its deadline has passed or a stop is requested; caught by the solver's front."""


def check_time_limit(time_limit: float | None) -> float | None:
    """`time_limit` itself if it is None or a positive number of seconds (inf means none); else ValueError."""
    if time_limit is None:
        return None
    try:
        value = float(time_limit)
    except (TypeError, ValueError):
        raise ValueError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}") from None
    if math.isnan(value) or value <= 0:
        raise ValueError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
    return None if math.isinf(value) else value


@dataclass(frozen=True, slots=True)
class Deadline:
    """A moment on this machine's clock (`at`, seconds of `now()`), or none (`at` None: no limit)."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline `seconds` from now (None: none)."""
        return cls(None if seconds is None else now() + seconds)

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0), or None without one."""
        return None if self.at is None else max(0.0, self.at - now())

    def expired(self) -> bool:
        return self.at is not None and now() > self.at


class Clock:
    """Wall time since the start of a solve, its deadline, and progress reports at most every `every` seconds.

    Raises ValueError for a time limit that is not a positive number (NaN,
    zero, negative); an infinite one means no limit.
    """

    def __init__(self, time_limit: float | None, progress: Progress | None = None, every: float = 0.2) -> None:
        time_limit = check_time_limit(time_limit)
        self.start = now()
        self.time_limit = time_limit
        self.deadline = Deadline(None if time_limit is None else self.start + time_limit)
        self.progress = progress
        self.every = every
        self._last = self.start

    @property
    def seconds(self) -> float:
        return now() - self.start

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0), or None without one."""
        return self.deadline.left()

    def expired(self) -> bool:
        return self.deadline.expired()

    def check(self, **report: Any) -> None:
        """Raise Timeout past the deadline or on a stop request; pass `report` to the progress callback now and
        then."""
        moment = now()
        at = self.deadline.at
        if (at is not None and moment > at) or stop_requested():
            raise Timeout  # a stop request: a level solved as a task whose run is being cancelled
        if self.progress is not None and moment - self._last >= self.every:
            self._last = moment
            self.progress({**report, "seconds": moment - self.start})


def stop_requested() -> bool:
    """Has the process that started this work asked it to stop? (False outside a pool.) O(1), or one look at the
    flag of `reading` (its own pace)."""
    override = getattr(_thread, "stop", None)
    if override is not None:
        return bool(override.is_set())
    return _process_stop is not None and _process_stop.is_set()


def read_in_process(stop: Any) -> None:
    """From now on, `stop_requested()` in this process reads `stop` (a worker process's pool event)."""
    global _process_stop  # per worker process, set once at its start: the one way to hand it an inherited Event
    _process_stop = stop
    # a process forked inside a `reading` block inherits the forking thread's flag, a copy nobody sets: the pool's
    # event is the one to read
    _thread.stop = None


@contextlib.contextmanager
def reading(stop: Any) -> Iterator[None]:
    """Within the block, `stop_requested()` in this thread reads `stop` (anything with `is_set()`): a task on a
    Dask worker shares its process with other tasks, so the flag is per thread, not per process."""
    with _this_thread("stop", stop):
        yield


def announce(program: Any) -> None:
    """Hand a better program than any before to the listener of this thread's solve (`hearing`), if it has one. O(1)
    without one; the listener's time with one. It may raise (a program its re-check rejects)."""
    hear = getattr(_thread, "hear", None)
    if hear is not None:
        hear(program)


def listening() -> bool:
    """Is a listener waiting for better programs in this thread (a solver may skip the work of finding them)?"""
    return getattr(_thread, "hear", None) is not None


@contextlib.contextmanager
def hearing(listener: Callable[[Any], None]) -> Iterator[None]:
    """Within the block, `announce(program)` in this thread calls `listener(program)`. Per thread, as `reading`:
    the solve that listens runs in the caller's thread."""
    with _this_thread("hear", listener):
        yield


@contextlib.contextmanager
def _this_thread(name: str, value: Any) -> Iterator[None]:
    """Within the block, this thread's `name` (of `_thread`) is `value`; the one before comes back after."""
    before = getattr(_thread, name, None)
    setattr(_thread, name, value)
    try:
        yield
    finally:
        setattr(_thread, name, before)
