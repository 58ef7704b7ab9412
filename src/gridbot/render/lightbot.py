"""Light-Bot drawn from above: tiles shaded by height (higher is darker, and casts a shadow on lower neighbours),
the height written on tiles big enough to read it, lights blue while off and yellow once on, the robot's way.

A top view keeps every cell a square of the Board, so a click on the page maps to one tile.

>>> import gridbot
>>> from gridbot.render import lightbot
>>> level = gridbot.load("lightbot:1")
>>> scene = lightbot.draw(level, None, [0])[0]
>>> sum(1 for s in scene.shapes if s.cls == "cell") == len(level.heights) * len(level.heights[0])
True
>>> lightbot.edit(gridbot.games.lightbot.Level.parse("000\\n\\n>.*"), 0, 1).splitlines()[0]
'000'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from gridbot.games import lightbot

from .scene import Board, Rect, Scene, Shape, Text, Trail, beacon, steps_between

# What a click on a tile turns it into, in turn: a tile's code is its height, then `*` when it carries a light.
# Heights above 4 (the original game's boards stop at 4) go back to the start of the cycle.
PALETTE = tuple(code for h in "01234" for code in (h, h + "*"))
SHADES = ("#e8edf2", "#c5d3e0", "#a3b8cc", "#8399b3", "#647a96", "#4f6580", "#3e526b", "#2f4157", "#223245", "#172433")
BACKGROUND = "#f7f4ec"
LIGHT_OFF = "#1e5fd8"
LIGHT_ON = "#ffd43b"
LIGHT_ON_EDGE = "#f08c00"
ROBOT = "#f76707"
PATH = "#7048e8"
MIN_TEXT_CELL = 14  # below this many pixels a cell shows no height number


def steps(level: lightbot.Level, program: lightbot.Program) -> int:
    """The steps of the run that a picture follows (at most render.MAX_STEPS; an endless run is cut there).
    O(steps)."""
    from . import MAX_STEPS

    return sum(1 for _ in itertools.islice(lightbot.steps(level, program), MAX_STEPS))


def _ground(level: lightbot.Level, board: Board) -> list[Shape]:
    """The tiles, their shadows and height numbers: the same in every frame of a level. O(cells)."""
    heights = level.heights
    rows, cols = len(heights), len(heights[0])
    shapes: list[Shape] = list(board.tiles(level.rows, {str(h): SHADES[h] for h in range(10)}))
    if board.cell >= 12:  # thinner shadows would be a pixel of noise, at the cost of a shape each
        # Light from the north-west: a tile higher than its neighbour to the south or east darkens that
        # neighbour's near edge, the more the higher it stands, so steps read as steps without perspective.
        unit = board.cell / 12
        for r in range(rows):
            for c in range(cols):
                x, y = board.corner(r, c)
                if r > 0 and heights[r - 1][c] > heights[r][c]:
                    depth = max(1, round(unit * min(3, heights[r - 1][c] - heights[r][c])))
                    shapes.append(Rect(x, y, board.cell, depth, SHADES[min(9, heights[r][c] + 3)], cls="shadow"))
                if c > 0 and heights[r][c - 1] > heights[r][c]:
                    depth = max(1, round(unit * min(3, heights[r][c - 1] - heights[r][c])))
                    shapes.append(Rect(x, y, depth, board.cell, SHADES[min(9, heights[r][c] + 3)], cls="shadow"))
    return shapes


def _picture(level: lightbot.Level, board: Board, ground: list[Shape], position: lightbot.Position, facing: int,
             lit: int, trail: Trail | None, number: int) -> Scene:  # fmt: skip
    shapes = list(ground)
    inset = board.cell * 0.2
    for i, (r, c) in enumerate(level.lights):
        on = lit >> i & 1
        fill, edge = (LIGHT_ON, LIGHT_ON_EDGE) if on else (LIGHT_OFF, "#0b3d91")
        x, y = board.corner(r, c)
        size = board.cell - 2 * inset
        shapes.append(Rect(x + inset, y + inset, size, size, fill, edge, max(1.0, board.cell / 20),
                           "light on" if on else "light"))  # fmt: skip
    if trail is not None:  # under the numbers, so they stay legible where it passes
        shapes += trail.lines(board, PATH, max(1.0, board.cell / 12))
    if board.cell >= MIN_TEXT_CELL:
        lights = {pos: lit >> i & 1 for i, pos in enumerate(level.lights)}
        for r, row in enumerate(level.heights):
            for c, h in enumerate(row):
                if h == 0 or (r, c) == position:
                    continue  # the floor goes without saying, and the robot covers its tile
                x, y = board.centre(r, c)
                on = lights.get((r, c))
                ink = "#ffffff" if on == 0 or (on is None and h >= 4) else "#1d2b3a"
                shapes.append(Text(x, y, str(h), round(board.cell * 0.4, 1), ink, cls="height"))
    ring = beacon(board, *position, ROBOT)
    if ring is not None:
        shapes.append(ring)
    shapes.append(board.arrow(position[0], position[1], facing, ROBOT, 0.7 if board.cell >= 16 else 1.0))
    done = bin(lit).count("1")
    caption = f"{level.name or 'Light-Bot'}: step {number}, {done} of {level.size} lights on"
    return Scene(board.width, board.height, tuple(shapes), BACKGROUND, board, caption)


def draw(level: lightbot.Level, program: lightbot.Program | None, at: Sequence[int]) -> list[Scene]:
    """The board after each step number in `at` (ascending): tiles shaded by height, lights off (blue) or on
    (yellow), the robot an orange arrow, its way so far an orange line. One pass of `lightbot.steps`.
    O(len(at) x cells + steps)."""
    board = Board(len(level.heights), len(level.heights[0]))
    ground = _ground(level, board)
    position, facing, lit = level.start, int(level.facing), 0
    trail = Trail(position)
    if program is None:
        return [_picture(level, board, ground, position, facing, lit, None, 0)]
    out: list[Scene] = []
    number = 0
    for taken in steps_between(lightbot.steps(level, program), at):
        for step in taken:
            number = step.number
            trail.go(step.position)
            position, facing, lit = step.position, step.facing, step.lit
        out.append(_picture(level, board, ground, position, facing, lit, trail, number))
    return out


def _code(level: lightbot.Level, r: int, c: int) -> str:
    return str(level.heights[r][c]) + ("*" if (r, c) in level.lights else "")


def edit(level: lightbot.Level, row: int, col: int) -> str:
    """The level's text with tile (row, col) turned to the next code of PALETTE (height, then height with a
    light, then the next height...); the robot's start tile stays as it is. Raises ValueError for a cell
    outside the board. O(cells)."""
    rows, cols = len(level.heights), len(level.heights[0])
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    if (row, col) == level.start:
        return str(level)
    here = _code(level, row, col)
    code = PALETTE[(PALETTE.index(here) + 1) % len(PALETTE)] if here in PALETTE else PALETTE[0]
    heights = [list(line) for line in level.heights]
    heights[row][col] = int(code[0])
    lights = [pos for pos in level.lights if pos != (row, col)]
    if code.endswith("*"):
        lights.append((row, col))
    edited = lightbot.Level(tuple(map(tuple, heights)), tuple(sorted(lights)), level.start, level.facing, level.name)
    return str(edited)


__all__ = ["PALETTE", "steps", "draw", "edit"]
