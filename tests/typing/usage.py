"""The public API as a script uses it, checked by `mypy --strict` (tests/typing/test_types.py), never run: each
`assert_type` fails the check when a public signature loses its type (to Any, or to a wider one)."""

from __future__ import annotations

import threading
from typing import assert_type

import gridbot
from gridbot import Outcome, SolveResult, Status
from gridbot.games import bender, carrots, lightbot, pellet, robos_escape, robozzle, torch_cave
from gridbot.generate.order import Made

level = gridbot.load("carrots:2")
assert_type(level, gridbot.Level)
if isinstance(level, carrots.Level):
    assert_type(gridbot.run(level, "LOOP{F F R}"), carrots.Run)

board = gridbot.load("my_board.txt", game="carrots")
assert_type(board, carrots.Level)
assert_type(gridbot.load("lightbot:1", game="lightbot"), lightbot.Level)

assert_type(gridbot.parse("carrots", "S##"), carrots.Level)
assert_type(gridbot.parse("pellet", "S."), pellet.Level)
assert_type(gridbot.parse("torch_cave", "S."), torch_cave.Level)
assert_type(gridbot.parse("bender", "@$"), bender.Level)
assert_type(gridbot.parse("robos_escape", "S."), robos_escape.Level)
assert_type(gridbot.parse("robozzle", "S."), robozzle.Level)
some_game: str = "lightbot"
assert_type(gridbot.parse(some_game, "..."), gridbot.Level)

run = gridbot.run(board, carrots.Program.parse("LOOP{F F R}"))
assert_type(run, carrots.Run)
assert_type(run.verdict.status, Outcome)
assert_type(gridbot.run(gridbot.parse("bender", "@$")), bender.Run)
assert_type(gridbot.run(level, "F"), gridbot.Run)

heard: list[carrots.Program] = []
stop = threading.Event()
result = gridbot.solve(board, time_limit=10, on_solution=heard.append, stop=stop, max_length=8)
assert_type(result, SolveResult[carrots.Program])
assert_type(result.solution, carrots.Program | None)
assert_type(result.status, Status)
assert_type(result.status.proven, bool)
assert_type(gridbot.solve(gridbot.parse("robozzle", "S."), workers=2), SolveResult[robozzle.Program])
assert_type(gridbot.solve(level), SolveResult[gridbot.Program])
assert_type(result._repr_svg_(), str | None)
assert_type(board._repr_svg_(), str | None)
assert_type(run._repr_svg_(), str | None)


def lengths(results: list[SolveResult[lightbot.Program]]) -> list[int | None]:
    return [r.length for r in results if r.status == Status.OPTIMAL]


made = gridbot.generate("carrots", 8, size=(8, 8), unique=True, count=2, time_limit=60)
assert_type(made, list[Made])
assert_type(made[0].analysis.par, int | None)
assert_type(made[0].tried, int)
