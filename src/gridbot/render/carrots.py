"""Carrots drawn: grass squares, the carrots eaten (marked squares), the bunny and its facing, its hops.

>>> import gridbot
>>> from gridbot.render import carrots
>>> level = gridbot.load("carrots:1")
>>> [len(s.shapes) > 0 for s in carrots.draw(level, None, [0])]
[True]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from gridbot.games import carrots
from gridbot.grid import Direction

from .scene import Board, Scene, Trail, steps_between

PALETTE = carrots.SQUARE + carrots.MARKED + carrots.VOID  # what a click on a cell turns it into, in turn
COLOURS = {carrots.SQUARE: "#9ccc65", carrots.MARKED: "#ff9800", carrots.START: "#ff9800"}
VOID = "#5d4037"
BUNNY = "#ffffff"
HOPS = "#1565c0"


def steps(level: carrots.Level, program: carrots.Program) -> int:
    """The steps of the run that a picture follows (at most render.MAX_STEPS). O(steps)."""
    from . import MAX_STEPS

    return sum(1 for _ in itertools.islice(carrots.steps(level, program), MAX_STEPS))


def _picture(level: carrots.Level, board: Board, marks: int, square: int, facing: int, trail: Trail | None) -> Scene:
    grid = ["".join(carrots.VOID if ch == carrots.VOID else carrots.SQUARE for ch in row) for row in level.rows]
    bits = bin(marks)[:1:-1]
    rows = [list(row) for row in grid]
    for i, bit in enumerate(bits):
        if bit == "1":
            r, c = level.squares[i]
            rows[r][c] = carrots.MARKED
    shapes: list = board.tiles(["".join(row) for row in rows], COLOURS)
    if trail is not None:
        shapes += trail.lines(board, HOPS)
    r, c = level.squares[square]
    shapes.append(board.arrow(r, c, facing, BUNNY))
    caption = f"{level.name}: {bin(marks).count('1')} of {level.size} squares marked"
    return Scene(board.width, board.height, tuple(shapes), VOID, board, caption)


def draw(level: carrots.Level, program: carrots.Program | None, at: Sequence[int]) -> list[Scene]:
    """The board after each step number in `at` (ascending): marked squares orange, the hops so far as a blue
    line, the bunny a white arrow. O(len(at) x squares + steps)."""
    board = Board(len(level.rows), len(level.rows[0]))
    square, facing = level.start_state
    marks = level.initial_marks | (1 << level.start)
    trail = Trail(level.squares[square])
    if program is None:
        return [_picture(level, board, marks, square, facing, None)]
    out: list[Scene] = []
    for taken in steps_between(carrots.steps(level, program), at):
        for step in taken:
            trail.go(level.squares[step.square])
            square, facing, marks = step.square, step.facing, step.marks
        out.append(_picture(level, board, marks, square, facing, trail))
    return out


def edit(level: carrots.Level, row: int, col: int) -> str:
    """The level's text with cell (row, col) turned to the next of PALETTE (the start square stays)."""
    rows = [list(r) for r in level.rows]
    if not (0 <= row < len(rows) and 0 <= col < len(rows[0])):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    here = rows[row][col]
    if here != carrots.START:
        rows[row][col] = PALETTE[(PALETTE.index(here) + 1) % len(PALETTE)] if here in PALETTE else PALETTE[0]
    return "\n".join("".join(r).rstrip() for r in rows)


__all__ = ["PALETTE", "steps", "draw", "edit", "Direction"]
