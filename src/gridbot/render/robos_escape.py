"""Robo's Escape drawn: walls, floor, coins, blocks, the exit, the cells only a laser crosses, the robot and its
way, and a laser shot in the frame of the step that fires it.

>>> import gridbot
>>> from gridbot.render import robos_escape
>>> level = gridbot.load("robos_escape:2")
>>> scene = robos_escape.draw(level, None, [0])[0]
>>> sum(1 for s in scene.shapes if s.cls == "cell") == len(level.rows) * len(level.rows[0])
True
>>> robos_escape.edit(level, 1, 2).splitlines()[1]
'XS-COCOE X'
"""

from __future__ import annotations

from collections.abc import Sequence

from gridbot.errors import LevelError
from gridbot.games import robos_escape
from gridbot.grid import Direction

from .scene import Board, Circle, Line, Polygon, Rect, Scene, Shape, Trail, steps_between

# What a click on a cell turns it into, in turn (the start `S` stays where it is).
PALETTE = " XCO-.xE"
FLOOR = "#eef0e6"
COLOURS = {"X": "#37474f", " ": FLOOR, "C": FLOOR, "O": FLOOR, "S": FLOOR, "E": "#69db7c",
           "-": "#b9c4cc", ".": "#b9c4cc", "x": "#b9c4cc"}  # fmt: skip
BACKGROUND = "#37474f"  # outside the grid is wall
COIN, COIN_EDGE = "#fcc419", "#e67700"
BLOCK, BLOCK_EDGE = "#a47551", "#6f4a2f"
EXIT_DOOR = "#2b8a3e"
MARK = "#6c7a85"  # the sign on a laser-only cell
START = "#adb5bd"
ROBOT = "#1c7ed6"
PATH = "#1c7ed6"
LASER = "#f03e3e"


def steps(level: robos_escape.Level, program: robos_escape.Program) -> int:
    """The commands of the run that a picture follows (at most 10,000, the game's own limit). O(steps)."""
    from . import MAX_STEPS

    count = 0
    for count, _ in enumerate(robos_escape.steps(level, program), 1):
        if count == MAX_STEPS:
            break
    return count


def _things(board: Board, grid: Sequence[str], start: robos_escape.Position) -> list[Shape]:
    """Coins, blocks, the exit's door, the start's ring and the signs of laser-only cells, over the tiles."""
    cell = board.cell
    out: list[Shape] = []
    line = max(1.0, cell / 16)
    sr, sc = start
    x, y = board.centre(sr, sc)
    out.append(Circle(x, y, cell * 0.36, None, START, line, "start"))
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            x, y = board.centre(r, c)
            if ch == "C":
                out.append(Circle(x, y, cell * 0.26, COIN, COIN_EDGE, line, "coin"))
            elif ch == "O":
                h = cell * 0.36
                out.append(Rect(x - h, y - h, 2 * h, 2 * h, BLOCK, BLOCK_EDGE, line * 1.5, "block"))
                out.append(Line(((x - h, y - h), (x + h, y + h)), BLOCK_EDGE, line, "block"))
                out.append(Line(((x - h, y + h), (x + h, y - h)), BLOCK_EDGE, line, "block"))
            elif ch == "E":
                w, h = cell * 0.22, cell * 0.32
                out.append(Rect(x - w, y - h, 2 * w, 2 * h + cell * 0.1, EXIT_DOOR, None, 1.0, "exit"))
            elif ch in "-.x":
                # Three signs for the three kinds the format has; the robot treats them alike.
                d = cell * 0.18
                if ch == "-":
                    out.append(Line(((x - d, y), (x + d, y)), MARK, line * 1.5, "pit"))
                elif ch == ".":
                    out.append(Circle(x, y, cell * 0.06, MARK, None, 1.0, "pit"))
                else:
                    out.append(Line(((x - d, y - d), (x + d, y + d)), MARK, line * 1.5, "pit"))
                    out.append(Line(((x - d, y + d), (x + d, y - d)), MARK, line * 1.5, "pit"))
    return out


def _shot(board: Board, grid: Sequence[str], position: robos_escape.Position, facing: int) -> list[Shape]:
    """The laser fired from `position` facing `facing` over `grid` (the board as it was when fired): a red beam
    to the first cell that stops it (whose centre it reaches) or to the grid's edge, and a flash where it hits.
    The beam's reach is the game's rule (`robos_escape.laser_end`)."""
    dr, dc = Direction(facing).delta
    rows, cols = len(grid), len(grid[0])
    r, c = robos_escape.laser_end(grid, position, facing)
    start = board.centre(*position)
    inside = 0 <= r < rows and 0 <= c < cols
    end = board.centre(r, c) if inside else board.centre(r - dr * 0.5, c - dc * 0.5)
    out: list[Shape] = [Line((start, end), LASER, max(2.0, board.cell / 10), "laser")]
    if inside:
        x, y = end
        k = board.cell * 0.3
        spikes = []
        for i in range(8):
            reach = k if i % 2 == 0 else k * 0.45
            dx, dy = ((0, -1), (0.7, -0.7), (1, 0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7))[i]
            spikes.append((round(x + dx * reach, 2), round(y + dy * reach, 2)))
        out.append(Polygon(tuple(spikes), "#ffe066", LASER, 1.0, "laser"))
    return out


def _picture(level: robos_escape.Level, board: Board, grid: Sequence[str], position: robos_escape.Position,
             facing: int, trail: Trail | None, shot: list[Shape], number: int,
             coins: int) -> Scene:  # fmt: skip
    shapes: list[Shape] = list(board.tiles(list(grid), COLOURS))
    shapes += _things(board, grid, level.start)
    if trail is not None:
        shapes += trail.lines(board, PATH, max(1.0, board.cell / 10))
    shapes += shot
    shapes.append(board.arrow(position[0], position[1], facing, ROBOT, 0.7))
    escaped = grid[position[0]][position[1]] == "E"
    title = level.name or "Robo's Escape"
    caption = f"{title}: step {number}, {coins} coin{'' if coins == 1 else 's'} picked up"
    caption += ", escaped" if escaped else ""
    return Scene(board.width, board.height, tuple(shapes), BACKGROUND, board, caption)


def draw(level: robos_escape.Level, program: robos_escape.Program | None, at: Sequence[int]) -> list[Scene]:
    """The board after each step number in `at` (ascending): coins gold, blocks brown crates, the exit a green
    door, the robot a blue arrow and its way so far a blue line; a frame whose step fired the laser shows the
    beam. One pass of `robos_escape.steps`. O(len(at) x cells + steps x cells)."""
    board = Board(len(level.rows), len(level.rows[0]))
    grid: tuple[str, ...] = level.rows
    position, facing, coins = level.start, int(Direction.SOUTH), 0
    if program is None:
        return [_picture(level, board, grid, position, facing, None, [], 0, 0)]
    trail = Trail(position)
    out: list[Scene] = []
    number = 0
    shot: list[Shape] = []
    for taken in steps_between(robos_escape.steps(level, program), at):
        for step in taken:
            shot = _shot(board, grid, position, facing) if step.op == "X" else []
            number = step.number
            trail.go(step.position)
            position, facing, coins, grid = step.position, step.facing, step.coins, step.grid
        out.append(_picture(level, board, grid, position, facing, trail, shot, number, coins))
    return out


def edit(level: robos_escape.Level, row: int, col: int) -> str:
    """The level's text with cell (row, col) turned to the next character of PALETTE; the start stays as it is,
    and a character that would shrink the board (floor ending the last row or column, which the format drops) is
    passed over. Raises ValueError for a cell outside the board. O(cells x len(PALETTE))."""
    rows = [list(line) for line in level.rows]
    if not (0 <= row < len(rows) and 0 <= col < len(rows[0])):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    here = rows[row][col]
    if here == "S":
        return str(level)
    first = PALETTE.index(here) + 1 if here in PALETTE else 0
    for k in range(len(PALETTE)):
        rows[row][col] = PALETTE[(first + k) % len(PALETTE)]
        text = "\n".join("".join(line).rstrip() for line in rows)
        try:
            edited = robos_escape.Level.parse(text, level.name)
        except LevelError:
            continue
        if len(edited.rows) == len(level.rows) and len(edited.rows[0]) == len(level.rows[0]):
            return text
    return str(level)


__all__ = ["PALETTE", "steps", "draw", "edit"]
