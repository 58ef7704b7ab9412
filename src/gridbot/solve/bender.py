"""Bender's answer: his forced moves to the booth, or LOOP with its proof.

>>> import gridbot
>>> from gridbot.solve.bender import solve
>>> result = solve(gridbot.load("bender:01"))
>>> result.status, str(result.solution), result.length
('optimal', 'SOUTH SOUTH EAST EAST', 4)
>>> solve(gridbot.load("bender:11")).status  # he loops: no answer but LOOP
'unsolvable'

There is nothing to search: Bender's rules are deterministic, so his journey is
the only one and the solver is the simulator (`gridbot.games.bender.journey`).
It stops at the booth (status 'optimal': the unique answer, hence the shortest;
the solution is an Answer, whose text is the moves separated by spaces) or at
the first repeated state (status 'unsolvable', no solution: CodinGame's answer
is then the word LOOP, which `describe` prints): the repeat proves the loop
because every later move repeats too. See `journey` for why the state without
the destroyed X set suffices within an epoch. Complexity O((destroyed X + 1) x
16 x cells) moves at worst, one pass, under the clock (looked at every
`Settings.check_every` moves); memory 16 bytes per cell for the states, and the
moves themselves, within the memory budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.games.bender import NAME, Answer, Level, journey
from gridbot.result import SolveResult, Status
from gridbot.solve.memory import OutOfBudget
from gridbot.solve.memory import memory_budget as _memory_budget

MOVE_BYTES = 32  # memory per move of the answer: its byte in the journey, its name in the Answer, its text


@dataclass(frozen=True, slots=True)
class Settings:
    """How often the solver looks at the clock and at the memory budget; neither changes Bender's answer."""

    # moves between looks at the clock (and at the memory the moves take): a move costs about a microsecond, so a
    # look comes every few tens of milliseconds, well inside the time bound's slack, and costs nothing beside them
    check_every: int = 1 << 16
    # moves allowed before the memory budget is first read: reading it costs about a millisecond (it reads the
    # control groups), and this many moves take 32 MiB (MOVE_BYTES each), which every machine running gridbot has
    free_moves: int = 1 << 20


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    memory_budget: int | None = None,
    *,
    settings: Settings | None = None,
) -> SolveResult:
    """Bender's moves (status 'optimal', solution an Answer of move names, length their number), 'unsolvable'
    (he loops; solution and length None), or 'timeout' when `time_limit` runs out or the moves would not fit
    in `memory_budget` bytes (default gridbot.solve.memory.memory_budget(); stats["reason"] says so) first.

    `all_solutions` is accepted for the common interface: the answer is unique. `settings` (default
    `Settings()`) says how often the clock and the memory are looked at.
    """
    clock = Clock(time_limit, progress)
    settings = Settings() if settings is None else settings
    free_moves = settings.free_moves
    room = None if memory_budget is None else memory_budget // MOVE_BYTES

    def check(moves: int) -> None:
        nonlocal room
        clock.check(candidates=moves)
        if room is None and moves > free_moves:
            room = _memory_budget() // MOVE_BYTES
        if room is not None and moves > room:
            raise OutOfBudget(f"his journey passed {moves:,} moves, more than the memory budget holds")

    stats: dict[str, Any] = {}
    try:
        trip = journey(level, check=check, check_every=settings.check_every)
    except Timeout:
        return SolveResult(NAME, level.name, Status.TIMEOUT, None, None, clock.seconds, 0, stats)
    except OutOfBudget as exc:
        stats["reason"] = str(exc)
        return SolveResult(NAME, level.name, Status.TIMEOUT, None, None, clock.seconds, 0, stats)
    stats.update(moves=len(trip.moves), states=trip.states, broken=trip.broken)
    if trip.loops:
        stats["reason"] = "stuck between walls" if trip.outcome == "stuck" else "a state repeats"
        return SolveResult(NAME, level.name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)
    answer = Answer(trip.answer)  # type: ignore[arg-type] - not a loop: a tuple of move names
    return SolveResult(NAME, level.name, Status.OPTIMAL, answer, len(trip.moves), clock.seconds, len(trip.moves), stats)
