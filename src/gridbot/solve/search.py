"""Search machinery shared by the solvers: deadlines, throttled progress reports and the memory budget.

>>> Clock(2.5).deadline is not None
True
>>> Clock(float("nan"))
Traceback (most recent call last):
...
ValueError: time_limit must be a positive number of seconds or None, not nan
"""

from __future__ import annotations

import math
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridbot.solve.workers import stop_requested

Progress = Callable[[dict[str, Any]], None]

MAX_BUDGET = 8 * 2**30  # no solver needs more; leaves the rest of a big machine to others
UNREADABLE_BUDGET = 4 * 2**30  # when the machine does not say how much memory it has


class Timeout(Exception):
    """Raised inside a search when its deadline has passed; caught by the solver's front."""


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


class Clock:
    """Wall time since the start, a deadline, and progress reports at most every `every` seconds.

    Raises ValueError for a time limit that is not a positive number (NaN,
    zero, negative); an infinite one means no limit.
    """

    def __init__(self, time_limit: float | None, progress: Progress | None = None, every: float = 0.2) -> None:
        time_limit = check_time_limit(time_limit)
        self.start = time.perf_counter()
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else self.start + time_limit
        self.progress = progress
        self.every = every
        self._last = self.start

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0), or None without one."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def check(self, **report: Any) -> None:
        """Raise Timeout past the deadline; pass `report` to the progress callback now and then."""
        now = time.perf_counter()
        if (self.deadline is not None and now > self.deadline) or stop_requested():
            raise Timeout  # a stop request: a level solved as a task whose run is being cancelled
        if self.progress is not None and now - self._last >= self.every:
            self._last = now
            self.progress({**report, "seconds": now - self.start})


# ---------------------------------------------------------------- memory


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def _cgroup_room(root: Path = Path("/sys/fs/cgroup"), own: Path = Path("/proc/self/cgroup")) -> int | None:
    """Bytes this process's control groups (v1 or v2) still allow it, the tightest over the hierarchy; None if no
    limit is set or none can be read. O(depth of the hierarchy)."""
    try:
        lines = own.read_text().splitlines()
    except OSError:
        return None
    rooms: list[int] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, where = parts
        if controllers == "":  # v2: one unified hierarchy
            base, limit_name, usage_name = root, "memory.max", "memory.current"
            if not (base / "cgroup.controllers").exists():
                base = root / "unified"
        elif "memory" in controllers.split(","):
            base, limit_name, usage_name = root / "memory", "memory.limit_in_bytes", "memory.usage_in_bytes"
        else:
            continue
        folder = Path(where.lstrip("/"))
        for part in (folder, *folder.parents):
            here = base / part
            limit, usage = _read_int(here / limit_name), _read_int(here / usage_name)
            if limit is not None and limit < 2**60:  # "max" or a huge number: no limit
                rooms.append(max(0, limit - (usage or 0)))
    return min(rooms) if rooms else None


def _address_room() -> int | None:
    """Bytes of address space RLIMIT_AS still allows this process; None without a limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        used = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        used = 0
    return max(0, soft - used)


def _physical() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def memory_budget(share: float = 1.0) -> int:
    """Bytes a solver may allocate for its tables, `share` of what it gets (e.g. 1/workers).

    The least of: a third of the physical memory (at most 8 GiB; 4 GiB when it
    cannot be read), half of the address space RLIMIT_AS leaves, and half of
    what the control group's memory limit leaves. Halves, because a table that
    grows by doubling needs room for the old and the new copy, and the
    interpreter needs some too. Read afresh at every call: O(cgroup depth).
    """
    physical = _physical()
    room = UNREADABLE_BUDGET if physical is None else min(MAX_BUDGET, physical // 3)
    for limited in (_address_room(), _cgroup_room()):
        if limited is not None:
            room = min(room, limited // 2)
    return max(0, int(room * share))


class OutOfBudget(Exception):
    """A table or memo would not fit in the memory budget; the solver stops there and says so."""
