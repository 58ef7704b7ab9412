"""Search machinery shared by the solvers: deadlines and throttled progress reports."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Progress = Callable[[dict[str, Any]], None]


class Timeout(Exception):
    """Raised inside a search when its deadline has passed; caught by the solver's front."""


class Clock:
    """Wall time since the start, a deadline, and progress reports at most every `every` seconds."""

    def __init__(self, time_limit: float | None, progress: Progress | None = None, every: float = 0.2) -> None:
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.progress = progress
        self.every = every
        self._last = self.start

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def check(self, **report: Any) -> None:
        """Raise Timeout past the deadline; pass `report` to the progress callback now and then."""
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise Timeout
        if self.progress is not None and now - self._last >= self.every:
            self._last = now
            self.progress({**report, "seconds": now - self.start})
