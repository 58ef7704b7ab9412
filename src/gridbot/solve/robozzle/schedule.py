"""How a RoboZZle solve divides its time beyond the deepening's schedule (gridbot.solve.deepening.Schedule): the
heuristics' share before a length (heuristic_share), and where the seconds went (Spent, _timed)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gridbot.solve.robozzle.settings import Settings


def heuristic_share(expected: float, left: float | None, settings: Settings) -> float:
    """Seconds of heuristic before a length expected to take `expected` seconds, with `left` seconds left (None:
    no limit), by the settings: `beam_hopeless` of the time left when the length will not end in time (expected
    beyond `hopeless` times the time left), `beam_last` of it when it may well not (beyond half), else
    `beam_share` of the length's expected time. O(1)."""
    if left is not None and expected > settings.hopeless * left:
        return settings.beam_hopeless * left
    if left is not None and 2 * expected > left:
        return settings.beam_last * left
    return settings.beam_share * expected


@dataclass(slots=True)
class Spent:
    """Where a solve's seconds went: the heuristic's turns, lengths searched in this process and lengths split
    over the workers (of either, `unfinished`: the last one, stopped by the clock), and the annealer beside
    (at the same time as lengths in this process and the turns). The rest is loading the kernels and
    bookkeeping."""

    heuristic: float = 0.0
    exact: float = 0.0
    split: float = 0.0
    unfinished: float = 0.0
    annealer: float = 0.0

    def stats(self) -> dict[str, float]:
        """The seconds as SolveResult.stats entries (`seconds_heuristic`, ...), to the millisecond."""
        return {f"seconds_{name}": round(getattr(self, name), 3) for name in self.__slots__}


@contextlib.contextmanager
def _timed(into: Any, name: str) -> Iterator[None]:
    """Add the seconds the block takes (also when it raises) to the attribute `name` of `into`."""
    began = time.monotonic()
    try:
        yield
    finally:
        setattr(into, name, getattr(into, name) + time.monotonic() - began)
