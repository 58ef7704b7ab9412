"""Pellet Eater drawn as a maze: blue walls, pellets as dots on a dark floor, the eater, its path as one line.

>>> import gridbot
>>> from gridbot.render import pellet
>>> level = gridbot.load("pellet:tunnel")
>>> for scene in pellet.draw(level, "rrr", [0, 3]):
...     print(scene.caption)
pellet:tunnel: 0 of 107 pellets eaten
pellet:tunnel: 3 of 107 pellets eaten; ended after 3 moves with 104 pellets left
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gridbot.games import pellet

from . import MAX_STEPS
from .scene import PER_CELL, Board, Circle, Line, Point, Polygon, Scene, Shape

PALETTE = pellet.PELLET + pellet.WALL  # what a click on a cell turns it into, in turn (the start stays)
EATEN = "o"  # a tile code of the drawing only: an open cell the path has entered
FLOOR = "#16181f"
WALL = "#3f51b5"
START = "#56618f"
DOT = "#ffe0b2"
PATH = "#ffa726"
EATER = "#ffd54f"
ILLEGAL = "#ef5350"
# without dots (cells too small to hold one, or a board too big for a shape per pellet) an uneaten pellet's
# cell is tinted, so that what is left to eat still shows
PELLET_TILE = "#6d5a3a"
DOT_MIN_CELL = 12  # pixels per cell from which pellets are dots (smaller ones read as noise)
EATER_MIN_RADIUS = 5.0  # pixels: on a big board the eater spills over its cell, to be found at a glance
FACING = {"r": 0.0, "d": 90.0, "l": 180.0, "u": 270.0}  # the eater's mouth, in degrees clockwise from east


def steps(level: pellet.Level, program: pellet.Moves | str) -> int:
    """The legal moves of the path (at most render.MAX_STEPS): an illegal move ends the picture. O(moves)."""
    return min(len(pellet.run(level, program).cells) - 1, MAX_STEPS)


def _eater(board: Board, r: int, c: int, move: str) -> Polygon:
    """The eater in cell (r, c): a disc with a wedge-shaped mouth open towards `move`."""
    cx, cy = board.centre(r, c)
    radius = max(board.cell * 0.42, EATER_MIN_RADIUS)
    facing = FACING[move]
    points = [(round(cx, 2), round(cy, 2))]
    for i in range(13):  # the arc from one lip to the other, outside the mouth's 70 degrees
        angle = math.radians(facing + 35 + i * 290 / 12)
        points.append((round(cx + radius * math.cos(angle), 2), round(cy + radius * math.sin(angle), 2)))
    return Polygon(tuple(points), EATER, "#000000", max(1.0, board.cell / 16), "robot")


def _cross(board: Board, r: int, c: int, stroke: str, cls: str) -> list[Shape]:
    """An X over cell (r, c), inset a fifth of the cell."""
    x, y = board.corner(r, c)
    a, b = board.cell * 0.2, board.cell * 0.8
    w = max(1.0, board.cell / 8)
    return [Line(((x + a, y + a), (x + b, y + b)), stroke, w, cls),
            Line(((x + b, y + a), (x + a, y + b)), stroke, w, cls)]  # fmt: skip


def _picture(level: pellet.Level, board: Board, walk: pellet.Walk | None, path: Sequence[tuple[int, int]],
             centres: Sequence[Point]) -> Scene:  # fmt: skip
    """The picture after len(path) - 1 moves: `path` the cells entered so far (start first), `centres` theirs."""
    k = len(path) - 1
    dots = board.cell >= DOT_MIN_CELL and level.height * level.width <= PER_CELL
    grid = [list(row) for row in level.rows]
    for r, c in path[1:]:
        grid[r][c] = EATEN
    rows = ["".join(row) for row in grid]
    colours = {pellet.WALL: WALL, pellet.START: START, EATEN: FLOOR, pellet.PELLET: FLOOR if dots else PELLET_TILE}
    shapes: list[Shape] = list(board.tiles(rows, colours))
    if dots:
        radius = max(1.0, board.cell / 9)
        for r, row in enumerate(rows):
            c = row.find(pellet.PELLET)
            while c >= 0:
                shapes.append(_dot(board, r, c, radius))
                c = row.find(pellet.PELLET, c + 1)
    if k > 0:
        shapes.append(Line(tuple(centres[: k + 1]), PATH, max(1.5, board.cell / 6), "path"))
    move = walk.moves.text[k - 1] if walk is not None and k > 0 else "r"
    caption = f"{level.name}: {k} of {level.size} pellets eaten"
    if walk is not None and k == min(len(walk.cells) - 1, MAX_STEPS):  # the last picture: the verdict
        caption += f"; {walk.verdict}"
        if walk.verdict.status == "illegal" and k == len(walk.cells) - 1:
            dr, dc = pellet.DELTA[walk.moves.text[k]]
            r, c = path[-1][0] + dr, path[-1][1] + dc
            if 0 <= r < level.height and 0 <= c < level.width:
                shapes.extend(_cross(board, r, c, ILLEGAL, "illegal"))
    shapes.append(_eater(board, *path[-1], move))
    return Scene(board.width, board.height, tuple(shapes), FLOOR, board, caption)


def _dot(board: Board, r: int, c: int, radius: float) -> Circle:
    cx, cy = board.centre(r, c)
    return Circle(cx, cy, radius, DOT, None, 1.0, "pellet")


def draw(level: pellet.Level, program: pellet.Moves | str | None, at: Sequence[int]) -> list[Scene]:
    """The board after each move number in `at` (ascending; past the last legal move: that move): pellets as
    dots (tinted cells on small boards), the path so far as one orange line, the eater facing its last move; at
    the end of an illegal path a red X marks the cell it could not enter. One check of the path
    (pellet.run), then O(moves + len(at) x (cells + moves))."""
    board = Board(level.height, level.width)
    if program is None:
        return [_picture(level, board, None, (level.start,), (board.centre(*level.start),))]
    walk = pellet.run(level, program)
    cells = walk.cells[: MAX_STEPS + 1]
    centres = [board.centre(r, c) for r, c in cells]  # once for all frames: each takes a prefix
    last = len(cells) - 1
    return [_picture(level, board, walk, cells[: min(k, last) + 1], centres) for k in at]


def edit(level: pellet.Level, row: int, col: int) -> str:
    """The level's text (with its `W H` line if it had one) with cell (row, col) turned to the next of PALETTE:
    pellet, wall, pellet. The start stays. ValueError for a cell off the board. O(cells)."""
    if not (0 <= row < level.height and 0 <= col < level.width):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    rows = [list(r) for r in level.rows]
    here = rows[row][col]
    if here != pellet.START:
        rows[row][col] = PALETTE[(PALETTE.index(here) + 1) % len(PALETTE)]
    head = f"{level.width} {level.height}\n" if level.first_line == 2 else ""
    return head + "\n".join("".join(r) for r in rows)


__all__ = ["PALETTE", "steps", "draw", "edit"]
