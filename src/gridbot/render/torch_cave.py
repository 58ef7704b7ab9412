"""Torch cave drawn in the dark: rock, dim floor, torches as flames (spent ones grey), the treasure a gold
diamond, and the hero's path coloured by the light left, from yellow (plenty) to dark red (almost none).

>>> import gridbot
>>> from gridbot.render import torch_cave
>>> level = gridbot.load("torch_cave:prob16_sample")
>>> torch_cave.draw(level, "rr", [2])[0].caption
'torch_cave:prob16_sample: step 2, 13 light left; ended after 2 steps without reaching the treasure (13 light left)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridbot.games import torch_cave

from . import MAX_STEPS
from .scene import Board, Circle, Line, Point, Polygon, Scene, Shape

FLOOR_CODE, WALL_CODE, SPENT_CODE = ".", "x", "+"  # tile codes of the drawing (the level's walls are x, | and -)
PALETTE = FLOOR_CODE + WALL_CODE + torch_cave.TORCH  # what a click turns a cell into, in turn (H and T stay)
ROCK = "#2a2420"
FLOOR = "#6b5f55"
START = "#a4917a"
TORCH_TILE = "#a0522d"
SPENT_TILE = "#8f8780"  # ash
TREASURE_TILE = "#b8912f"
FLAME = "#ffb300"
FLAME_CORE = "#fff3c4"
STICK = "#4e342e"
GOLD = "#ffd54f"
GOLD_EDGE = "#7a5c00"
BLOCKED = "#ef5350"
# the light left after a step, from none to a full start's worth and more: a ramp of a few colours, so that a
# path is a few polylines (one per run of steps in one band), not one segment per step
RAMP = ("#6d1b1b", "#a32a1c", "#d8451b", "#f57c00", "#ffa726", "#ffd54f", "#fff59d")
ICON_MIN_CELL = 8  # pixels per cell from which torches and the treasure are drawn as icons


def steps(level: torch_cave.Level, program: torch_cave.Path | str) -> int:
    """The steps the hero takes (up to the treasure, a wall or the dark; at most render.MAX_STEPS). O(steps)."""
    return min(len(torch_cave.run(level, program).cells), MAX_STEPS)


def light_colour(level: torch_cave.Level, light: int) -> str:
    """The colour of `light` units left: RAMP from 0 to the start's light (and beyond, its last colour). O(1)."""
    full = max(1, level.start_light)
    return RAMP[min(len(RAMP) - 1, max(0, light) * (len(RAMP) - 1) // full)]


def _base(level: torch_cave.Level) -> list[str]:
    """The cave as tile codes: walls x, floor ., and H, T, t as they are. O(cells)."""
    table = {ord(ch): WALL_CODE for ch in torch_cave.WALLS}
    kept = frozenset((WALL_CODE, torch_cave.START, torch_cave.TREASURE, torch_cave.TORCH))
    return ["".join(ch if ch in kept else FLOOR_CODE for ch in row.translate(table)) for row in level.rows]


def _flame(board: Board, r: int, c: int) -> list[Shape]:
    """A torch: a stick with a flame on top."""
    x, y = board.corner(r, c)
    s = board.cell
    stick = Polygon(((x + 0.44 * s, y + 0.55 * s), (x + 0.56 * s, y + 0.55 * s), (x + 0.53 * s, y + 0.9 * s),
                     (x + 0.47 * s, y + 0.9 * s)), STICK, None, 1.0, "torch")  # fmt: skip
    flame = Polygon(((x + 0.5 * s, y + 0.1 * s), (x + 0.7 * s, y + 0.42 * s), (x + 0.5 * s, y + 0.6 * s),
                     (x + 0.3 * s, y + 0.42 * s)), FLAME, None, 1.0, "torch")  # fmt: skip
    core = Circle(x + 0.5 * s, y + 0.43 * s, 0.08 * s, FLAME_CORE, None, 1.0, "torch")
    return [stick, flame, core]


def _spent(board: Board, r: int, c: int) -> Shape:
    """A torch already taken: the bare stick."""
    x, y = board.corner(r, c)
    s = board.cell
    return Polygon(((x + 0.44 * s, y + 0.35 * s), (x + 0.56 * s, y + 0.35 * s), (x + 0.53 * s, y + 0.9 * s),
                    (x + 0.47 * s, y + 0.9 * s)), "#2a2420", None, 1.0, "torch spent")  # fmt: skip


def _treasure(board: Board, r: int, c: int) -> Shape:
    cx, cy = board.centre(r, c)
    h = board.cell * 0.36
    points = ((cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy))
    return Polygon(points, GOLD, GOLD_EDGE, max(1.0, board.cell / 16), "treasure")


@dataclass(frozen=True, slots=True)
class _Walked:
    """What every frame of one walk takes a prefix of, worked out once: `centres[i]` the middle of the hero's
    cell after step i (0: the start), `runs` the (first step, end step, colour) of each run of steps of one
    light colour, `torches` the (step, cell) of each torch taken."""

    run: torch_cave.Run
    centres: list[Point]
    runs: list[tuple[int, int, str]]
    torches: list[tuple[int, int]]

    @classmethod
    def of(cls, level: torch_cave.Level, board: Board, walk: torch_cave.Run) -> _Walked:
        """O(steps) for the first MAX_STEPS steps of `walk`."""
        steps = min(len(walk.cells), MAX_STEPS)
        width = level.width
        cells = walk.cells[:steps]
        centres = [board.centre(*divmod(cell, width)) for cell in (level.start, *cells)]
        runs: list[tuple[int, int, str]] = []
        for i, light in enumerate(walk.light_left[:steps]):
            colour = light_colour(level, light)
            if runs and runs[-1][2] == colour:
                runs[-1] = (runs[-1][0], i + 1, colour)
            else:
                runs.append((i, i + 1, colour))
        fresh = walk.fresh
        torches = [(i, cells[i]) for i in range(steps) if fresh[i]]
        return cls(walk, centres, runs, torches)


def _path(board: Board, walked: _Walked, k: int) -> list[Shape]:
    """The first k steps from H, each step's segment coloured by the light left after it: one polyline per run
    of steps of one colour. O(k)."""
    w = max(2.0, board.cell / 5)
    return [Line(tuple(walked.centres[first : min(end, k) + 1]), colour, w, "path")
            for first, end, colour in walked.runs if first < k]  # fmt: skip


def _picture(level: torch_cave.Level, board: Board, base: list[str], walked: _Walked | None, k: int) -> Scene:
    walk = walked.run if walked is not None else None
    taken = {cell for step, cell in walked.torches if step < k} if walked is not None else set()
    width = level.width
    grid = base
    if taken:
        grid = [list(row) for row in base]
        for cell in taken:
            r, c = divmod(cell, width)
            grid[r][c] = SPENT_CODE
        grid = ["".join(row) for row in grid]
    colours = {WALL_CODE: ROCK, FLOOR_CODE: FLOOR, torch_cave.START: START, torch_cave.TREASURE: TREASURE_TILE,
               torch_cave.TORCH: TORCH_TILE, SPENT_CODE: SPENT_TILE}  # fmt: skip
    shapes: list[Shape] = list(board.tiles(grid, colours))
    if board.cell >= ICON_MIN_CELL:
        for cell in level.torches:
            r, c = divmod(cell, width)
            shapes.extend([_spent(board, r, c)] if cell in taken else _flame(board, r, c))
        shapes.append(_treasure(board, *divmod(level.treasure, width)))
    if walked is not None:
        shapes.extend(_path(board, walked, k))
    light = walk.light_left[k - 1] if walk is not None and k else level.start_light
    here = divmod(walk.cells[k - 1] if walk is not None and k else level.start, width)
    caption = f"{level.name}: step {k}, {light} light left"
    if walk is not None and k == min(len(walk.cells), MAX_STEPS):  # the last picture: the verdict
        caption += f"; {walk.verdict}"
        if walk.verdict.reason == "wall" and walk.verdict.blocked is not None and k == len(walk.cells):
            line, column = walk.verdict.blocked
            if 1 <= line <= level.height and 1 <= column <= level.width:
                shapes.extend(_cross(board, line - 1, column - 1))
    cx, cy = board.centre(*here)
    radius = max(board.cell * 0.3, 5.0)  # on a big cave the hero spills over the cell, to be found at a glance
    shapes.append(Circle(cx, cy, radius, light_colour(level, light), "#ffffff", max(1.0, board.cell / 14), "robot"))
    return Scene(board.width, board.height, tuple(shapes), ROCK, board, caption)


def _cross(board: Board, r: int, c: int) -> list[Shape]:
    """An X over the wall cell (r, c) the path walked into."""
    x, y = board.corner(r, c)
    a, b = board.cell * 0.2, board.cell * 0.8
    w = max(1.0, board.cell / 8)
    return [Line(((x + a, y + a), (x + b, y + b)), BLOCKED, w, "blocked"),
            Line(((x + b, y + a), (x + a, y + b)), BLOCKED, w, "blocked")]  # fmt: skip


def draw(level: torch_cave.Level, program: torch_cave.Path | str | None, at: Sequence[int]) -> list[Scene]:
    """The cave after each step number in `at` (ascending; past the end of the walk: its end): torches taken
    turn to bare sticks, the path so far is coloured by the light left after each step (see light_colour), the
    hero is a disc of the colour of its light; at a wall that stopped the walk, a red X. One walk
    (torch_cave.run), then O(steps + len(at) x (cells + steps))."""
    board = Board(level.height, level.width)
    base = _base(level)
    if program is None:
        return [_picture(level, board, base, None, 0)]
    walked = _Walked.of(level, board, torch_cave.run(level, program))
    last = len(walked.centres) - 1
    return [_picture(level, board, base, walked, min(k, last)) for k in at]


def edit(level: torch_cave.Level, row: int, col: int) -> str:
    """The level's text with cell (row, col) turned to the next of PALETTE: floor `.` (any floor character
    counts as floor), wall `x` (also `|` and `-`), torch `t`. H and T stay. ValueError off the board. O(cells)."""
    if not (0 <= row < level.height and 0 <= col < level.width):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    rows = [list(r) for r in level.rows]
    here = rows[row][col]
    if here not in (torch_cave.START, torch_cave.TREASURE):
        kind = WALL_CODE if here in torch_cave.WALLS else here if here == torch_cave.TORCH else FLOOR_CODE
        rows[row][col] = PALETTE[(PALETTE.index(kind) + 1) % len(PALETTE)]
    # rows are written whole (padding included): a cave's width and its blank edges stay as they were
    return "\n".join("".join(r) for r in rows)


__all__ = ["PALETTE", "steps", "draw", "edit", "light_colour"]
