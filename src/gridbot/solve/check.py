"""The re-check of a solver's answer by the game's own simulator: the one place it is done.

Every answer gridbot hands out (by the API's front `gridbot.solve`, hence by the command line and the
playground) passes through `recheck` first: a search is fast because it trusts its own model of the rules, and
the simulator is the rules. A rejected answer is a bug in the solver, and raises WrongAnswer (an exception, not an
`assert`, so that `python -O` keeps the check).

>>> import gridbot
>>> from gridbot.result import SolveResult
>>> level = gridbot.load("carrots:2")
>>> recheck(level, SolveResult("carrots", "carrots:02", "optimal", "LOOP{F F R}", 4, 0.1, 4))
>>> recheck(level, SolveResult("carrots", "carrots:02", "optimal", "LOOP{F R}", 3, 0.1, 3))
Traceback (most recent call last):
...
gridbot.errors.WrongAnswer: the solver's answer LOOP{F R} for carrots:02 does not complete it (...)
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from gridbot import games
from gridbot.errors import WrongAnswer
from gridbot.result import SolveResult


def completes(game: ModuleType, level: Any, name: str, solution: Any) -> None:
    """WrongAnswer unless `solution` completes `level` by the simulator of `game`. O(its run)."""
    verdict = game.run(level, solution).verdict
    if not verdict.won:
        raise WrongAnswer(f"the solver's answer {solution} for {name} does not complete it ({verdict})")


def recheck(level: Any, result: SolveResult, name: str | None = None) -> None:
    """Re-run the solution of `result` and every solution it lists on `level` by the game's simulator; WrongAnswer
    when one does not complete the level, when a status that promises a solution comes without one, or when the
    solution's length is not the result's. `name` names the level in the message (default: its own name, else the
    result's). O(the runs of the solutions)."""
    game = games.of(level)
    name = name or getattr(level, "name", "") or result.level
    if result.status.has_solution:
        if result.solution is None:
            raise WrongAnswer(f"the solver reported {result.status} for {name} without a program")
        completes(game, level, name, result.solution)
        tokens = getattr(result.solution, "tokens", result.length)
        if tokens != result.length:
            raise WrongAnswer(f"{result.solution} has {tokens} tokens, not {result.length}, for {name}")
    for other in result.solutions:
        completes(game, level, name, other)


__all__ = ["WrongAnswer", "completes", "recheck"]
