"""Ctrl-C during a solve: the search stops as a time limit stops it, and the command reports what it has.

The first SIGINT sets a stop event that the solver reads through gridbot.deadline.stop_requested (in this
thread, by `reading`; in worker processes and on a cluster, through their executor's stop event, which the
command hands over with `also`). The solver then answers as at a time limit: the best program found and the
lengths excluded. A second SIGINT raises KeyboardInterrupt, for a person who will not wait for that answer.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from gridbot.deadline import reading


class Stop:
    """The stop request of one command: `requested` once Ctrl-C came; `also` adds an event set with it."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._others: list[Any] = []

    @property
    def requested(self) -> bool:
        return self.event.is_set()

    def also(self, event: Any) -> None:
        """Set `event` too on Ctrl-C (a pool's or a cluster's stop event); at once if Ctrl-C came already."""
        self._others.append(event)
        if self.requested:
            event.set()

    def request(self) -> None:
        self.event.set()
        for event in self._others:
            event.set()


@contextmanager
def stop_on_interrupt() -> Iterator[Stop]:
    """Within the block, the first Ctrl-C requests a stop instead of raising KeyboardInterrupt. Outside the main
    thread (where signals cannot be caught) the block runs as it would without it."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def interrupted(signum: int, frame: FrameType | None) -> None:
        if stop.requested:  # the second Ctrl-C: the person will not wait for the answer
            raise KeyboardInterrupt
        stop.request()

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        with reading(stop.event):
            yield stop
    finally:
        signal.signal(signal.SIGINT, previous)
