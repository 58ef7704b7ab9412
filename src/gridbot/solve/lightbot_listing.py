"""Light-Bot's programs of one length as its exact search lists them (gridbot.solve.lightbot), for the counts of
gridbot.solve.analyze: how many solutions one command longer than the par. `main: 1 f1: FFX` is not listed
below: the search skips it for `main: FFX`, one shorter (cut 7, inlining).

>>> from gridbot.deadline import Clock
>>> from gridbot.games import lightbot
>>> programs, capped, nodes = of_length(lightbot.Level.parse("000\\n\\n>.*"), 4, 10, Clock(None))
>>> [str(p) for p in programs], capped
(['main: 1 f1: FX1', 'main: 11 f1: FX'], False)
"""

from __future__ import annotations

from gridbot.deadline import Clock
from gridbot.games.lightbot import Level, Program
from gridbot.kernels import lightbot as kern
from gridbot.solve.lightbot import DEFAULT, Settings, _checked, _Search, check_limits, tables, warm_up


def of_length(
    level: Level, length: int, most: int, clock: Clock, settings: Settings = DEFAULT, jit: bool = True
) -> tuple[tuple[Program, ...], bool, int]:
    """The winning programs of exactly `length` commands as the exact search of that length lists them, each once,
    at most `most` (more: capped), re-run by the simulator; whether capped, and the nodes searched.

    That search (the one that excludes the length) meets programs of at most `length` commands, one per walk (the
    X placement it meets first), and skips those with an equivalent of no more commands (its cuts); those of
    fewer commands are left out here. A level without lights lists none (it is won before any command). The
    clock is looked at between kernel calls (Timeout). Exponential in `length`.
    """
    if not level.lights:
        return (), False, 0
    if jit:
        warm_up()
    search = _Search(tables(level, check_limits(settings.limits)), length, jit, None, settings)
    search.sc[kern.S_SPLIT_DEPTH], search.sc[kern.S_WORKERS] = settings.split_depth, 1
    found: list[Program] = []
    while len(found) <= most:
        status = search.step()
        if status == kern.EXHAUSTED:
            break
        if status == kern.FOUND:
            program = search.program()
            if program.tokens == length and program not in found:
                found.append(program)
        clock.check(length=length, candidates=search.nodes)
    checked = _checked(level, found, lambda: clock.check(length=length, candidates=search.nodes))
    return tuple(checked[:most]), len(checked) > most, search.nodes


__all__ = ["of_length"]
