"""The human report of a solve, as `gridbot solve` prints it: the one place a SolveResult becomes text.

A game whose report is its own notation has a `describe(level, result)` hook (Bender prints bare moves, as
CodinGame expects; the torch cave draws the path and the light left; Robo's Escape reports a score). Every other
game gets the generic report, worded with the game's UNIT and SOLUTION, and closed by the lines of its
`report_lines(result)` hook where it has one (RoboZZle: where the seconds went).

>>> import gridbot
>>> from gridbot.result import SolveResult
>>> level = gridbot.load("carrots:2")
>>> print(describe(level, SolveResult("carrots", "carrots:02", "optimal", "LOOP{F F R}", 4, 0.1, 4)))
carrots:02: optimal, 4 tokens (proven shortest)
  program     LOOP{F F R}
  seconds     0.100
"""

from __future__ import annotations

from typing import Any

from gridbot import games
from gridbot.grid import plural
from gridbot.result import SolveResult, Status


def describe(level: Any, result: SolveResult, all_solutions: bool = False, name: str | None = None) -> str:
    """The report of `result`, a solve of `level`: the game's own (its `describe` hook) or the generic one, which
    names the level `name` (default: the level's own name, else the result's) and, with `all_solutions`, lists
    the solutions. O(the text)."""
    game = games.of(level)
    own = games.optional(game, "describe")
    if own is not None:
        return own(level, result)
    more = games.optional(game, "report_lines")
    return generic(
        result,
        name or getattr(level, "name", "") or result.level,
        all_solutions,
        games.optional(game, "UNIT"),
        games.optional(game, "SOLUTION"),
        [] if more is None else more(result),
    )


def generic(
    result: SolveResult, name: str, all_solutions: bool, unit: str, noun: str, more: list[str] | None = None
) -> str:
    """The generic report: the verdict and length in `unit` ("tokens"), the solution (`noun`: "program", "path"),
    what is proven impossible, the candidates and seconds, the lines `more` of the game, and the solutions."""
    stats = result.stats or {}
    lines = []
    proven = result.proven_impossible
    if result.status == Status.OPTIMAL:
        shortest = "proven shortest" if noun == "program" else f"every {noun} has this length"
        lines.append(f"{name}: optimal, {plural(result.length, unit, unit=True)} ({shortest})")
    elif result.status == Status.SOLVED:
        lines.append(f"{name}: solved, {plural(result.length, unit, unit=True)} (not proven shortest)")
    elif result.status == Status.UNSOLVABLE:
        lines.append(f"{name}: unsolvable (proven: no {noun} completes this level)")
    else:
        lines.append(f"{name}: timeout, no solution found")
    if result.solution is not None:
        lines.append(f"  {noun:<11} {result.solution}")
    if result.status in (Status.SOLVED, Status.TIMEOUT):
        lines.append(f"  lengths up to {proven} proven impossible" if proven > 0 else "  no length proven impossible")
    if stats.get("reason"):
        lines.append(f"  reason      {stats['reason']}")
    if "candidates" in stats:
        lines.append(f"  candidates  {int(stats['candidates']):,}")
    lines.append(f"  seconds     {result.seconds:.3f}")
    lines.extend(more or ())
    if all_solutions and result.solutions:
        kind = "optimal" if result.status == Status.OPTIMAL else "shortest found"
        capped = " (capped: there are more)" if result.solutions_capped else ""
        lines.append(f"  {plural(len(result.solutions), f'{kind} {noun}')}{capped}:")
        lines.extend(f"    {s}" for s in result.solutions)
    return "\n".join(lines)


__all__ = ["describe", "generic"]
