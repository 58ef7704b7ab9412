"""Bender's answer: his forced moves to the booth, or LOOP with its proof.

>>> import gridbot
>>> from gridbot.solve.bender import solve
>>> result = solve(gridbot.load("bender:01"))
>>> result.status, result.solution
('optimal', ('SOUTH', 'SOUTH', 'EAST', 'EAST'))

There is nothing to search: Bender's rules are deterministic, so his journey is
the only one and the solver is the simulator (`gridbot.games.bender.journey`).
It stops at the booth (status 'optimal': the unique answer, hence the shortest)
or at the first repeated state (status 'unsolvable', solution the string
'LOOP'): the repeat proves the loop because every later move repeats too. See
`journey` for why the state without the destroyed X set suffices within an
epoch. Complexity O((destroyed X + 1) x 16 x cells) moves at worst, one pass.
"""

from __future__ import annotations

from gridbot.games.bender import LOOP, NAME, BenderResult, Level, journey
from gridbot.solve.search import Clock, Progress, Timeout

CHECK_EVERY = 1 << 16  # moves between clock checks


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
) -> BenderResult:
    """Bender's moves (status 'optimal', solution a tuple of move names, length their number),
    'unsolvable' with solution 'LOOP' and length None, or 'timeout' when `time_limit` runs out first.

    `all_solutions` is accepted for the common interface: the answer is unique.
    """
    clock = Clock(time_limit, progress)

    def check() -> None:
        clock.check(candidates=0)

    try:
        trip = journey(level, check=check, check_every=CHECK_EVERY)
    except Timeout:
        return BenderResult(NAME, level.name, "timeout", None, None, clock.seconds, 0, {})
    stats = {"moves": len(trip.moves), "states": trip.states, "broken": trip.broken}
    if trip.loops:
        stats["reason"] = "stuck between walls" if trip.outcome == "stuck" else "a state repeats"
        return BenderResult(NAME, level.name, "unsolvable", LOOP, None, clock.seconds, 0, stats)
    answer = trip.answer
    return BenderResult(NAME, level.name, "optimal", answer, len(answer), clock.seconds, len(answer), stats)
