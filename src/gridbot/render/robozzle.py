"""RoboZZle drawn as the site shows it: red, green and blue tiles on a dark ground, stars, the robot and its
way, and below the board the program's functions F1..F5 as rows of slots, each slot coloured by its condition
and marked with its command; in a run, the slot whose action made the frame is outlined.

The Scene is the board (its `Board`, which a click maps to a tile) and the functions under it, so it may be
wider or taller than the board.

>>> import gridbot
>>> from gridbot.render import robozzle
>>> level = gridbot.games.robozzle.Level.parse("functions: 3 0 0 0 0\\npaint: none\\nstart: 1 1 east\\nrrrR")
>>> frames = robozzle.draw(level, gridbot.games.robozzle.parse_program("F1: F F F"), [0, 3])
>>> [sum(1 for s in f.shapes if s.cls == "star") for f in frames], sum(1 for s in frames[1].shapes if s.cls == "slot")
([1, 0], 3)
>>> robozzle.edit(level, 0, 1).splitlines()[-1]
'rgrR'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gridbot.errors import LevelError, ProgramError
from gridbot.games import robozzle

from .scene import Board, Circle, Line, Polygon, Rect, Scene, Shape, Text, Trail, beacon, steps_between

# What a click on a tile turns it into, in turn (the text form's letters: lower case a tile, upper case a tile
# with a star, `.` a hole); the robot's tile stays, and a change that leaves no star is passed over.
PALETTE = "rgbRGB."
TILES = {"R": "#e5484d", "G": "#46a758", "B": "#3e63dd", robozzle.HOLE: "#232a2f"}
BACKGROUND = "#2f383e"
STAR, STAR_EDGE = "#ffd43b", "#7a5a00"
ROBOT = "#ffffff"
PATH = "#15191c"
FELL = "#ff6b6b"
SLOT_PLAIN = "#5c6770"  # an occupied slot without a condition
SLOT_EMPTY = "#1f2529"
SLOT_EDGE = "#8d99a3"
INK = "#ffffff"
LABEL = "#dee2e6"
RUNNING = "#ffd43b"


def steps(level: robozzle.Level, program: robozzle.Program) -> int:
    """The actions of the run that a picture follows (at most robozzle.MAX_ACTIONS, the game's own limit).
    Raises ProgramError when the program does not fit the puzzle. O(actions x slots)."""
    _fits(level, program)
    return sum(1 for _ in robozzle.steps(level, program))


def _fits(level: robozzle.Level, program: robozzle.Program) -> None:
    problem = program.problems(level)
    if problem:
        raise ProgramError(problem, 0, str(program))


# A five-pointed star of radius 1 around (0, 0), point up.
_STAR = tuple(
    (
        (1.0 if i % 2 == 0 else 0.45) * math.sin(math.pi * i / 5),
        -(1.0 if i % 2 == 0 else 0.45) * math.cos(math.pi * i / 5),
    )
    for i in range(10)
)


def _star(x: float, y: float, radius: float) -> tuple[tuple[float, float], ...]:
    return tuple((round(x + radius * dx, 2), round(y + radius * dy, 2)) for dx, dy in _STAR)


class _Panel:
    """Where the functions' slots lie: one row per function the puzzle has, under the board."""

    def __init__(self, level: robozzle.Level, board: Board) -> None:
        self.size = max(20, min(36, board.cell))
        self.gap = max(3, self.size // 6)
        self.label = round(self.size * 1.5)
        self.x0 = board.x0
        self.y0 = board.height
        self.functions = [f for f in range(robozzle.FUNCTIONS) if level.slots[f]]
        self.level = level
        self.width = self.x0 + self.label + max(level.slots) * (self.size + self.gap) + board.margin
        self.height = len(self.functions) * (self.size + self.gap) + board.margin

    def slot(self, f: int, k: int) -> tuple[float, float]:
        """The top-left corner of slot k (0-based) of function f (0-based)."""
        row = self.functions.index(f)
        return (self.x0 + self.label + k * (self.size + self.gap), self.y0 + row * (self.size + self.gap))

    def shapes(self, program: robozzle.Program | None, running: tuple[int, int] | None) -> list[Shape]:
        s = self.size
        out: list[Shape] = []
        for f in self.functions:
            x, y = self.slot(f, 0)
            out.append(Text(self.x0, y + s / 2, f"F{f + 1}", round(s * 0.5, 1), LABEL, "start", "label"))
            body = program.functions[f] if program is not None else ()
            for k in range(self.level.slots[f]):
                x, y = self.slot(f, k)
                command = body[k] if k < len(body) else None
                fill = SLOT_EMPTY if command is None else TILES[command.cond] if command.cond else SLOT_PLAIN
                out.append(Rect(x, y, s, s, fill, SLOT_EDGE, 1.0, "slot"))
                if command is not None:
                    out += _command(command, x + s / 2, y + s / 2, s)
        if running is not None:
            x, y = self.slot(*running)
            out.append(Rect(x - 2, y - 2, s + 4, s + 4, None, RUNNING, 3.0, "running"))
        return out


def _command(command: robozzle.Command, x: float, y: float, s: float) -> list[Shape]:
    """The sign of a command in a slot centred at (x, y): an arrow up (forward), a turning arrow (left,
    right), F2 (a call), a dot of the paint's colour (paint)."""
    op, w = command.op, max(2.0, s / 9)
    if op == "F":
        return [Line(((x, y + s * 0.3), (x, y - s * 0.05)), INK, w, "command"),
                Polygon(((x, y - s * 0.32), (x + s * 0.2, y - s * 0.05), (x - s * 0.2, y - s * 0.05)), INK,
                        cls="command")]  # fmt: skip
    if op in ("L", "R"):
        side = -1 if op == "L" else 1
        bend = (x - side * s * 0.12, y - s * 0.08)
        shaft = Line(((x - side * s * 0.12, y + s * 0.3), bend, (x + side * s * 0.08, y - s * 0.08)), INK, w,
                     "command")  # fmt: skip
        tip = x + side * s * 0.34
        head = Polygon(((tip, y - s * 0.08), (x + side * s * 0.08, y - s * 0.28), (x + side * s * 0.08, y + s * 0.12)),
                       INK, cls="command")  # fmt: skip
        return [shaft, head]
    if op in robozzle.CALLS:
        return [Text(x, y, f"F{op}", round(s * 0.42, 1), INK, cls="command")]
    return [Circle(x, y, s * 0.24, TILES[op[1]], INK, max(1.5, s / 14), "command")]


def _picture(level: robozzle.Level, board: Board, panel: _Panel, program: robozzle.Program | None,
             colours: tuple[str, ...], stars: tuple[robozzle.Position, ...], position: robozzle.Position,
             facing: int, trail: Trail | None, running: tuple[int, int] | None,
             number: int) -> Scene:  # fmt: skip
    # A hole is no tile: drawn without an outline (still one "cell" each, for the page's clicks), so the tiles
    # stand out on the dark ground as the site shows them.
    shapes: list[Shape] = list(board.tiles(colours, {**TILES, robozzle.HOLE: None}))
    hole = TILES[robozzle.HOLE]
    shapes += [board.cell_rect(r, c, hole) for r, row in enumerate(colours) for c, ch in enumerate(row)
               if ch == robozzle.HOLE]  # fmt: skip
    for r, c in stars:
        x, y = board.centre(r, c)
        shapes.append(
            Polygon(
                _star(x, y, board.cell * (0.34 if board.cell >= 16 else 0.5)),
                STAR,
                STAR_EDGE,
                max(1.0, board.cell / 24),
                "star",
            )
        )
    if trail is not None:
        shapes += trail.lines(board, PATH, max(1.0, board.cell / 10))
    r = min(max(position[0], 0), board.rows - 1)  # a robot that fell off the board is shown at its edge
    c = min(max(position[1], 0), board.cols - 1)
    fell = not level.tile(position)
    ring = beacon(board, r, c, FELL if fell else ROBOT)
    if ring is not None:
        shapes.append(ring)
    shapes.append(board.arrow(r, c, facing, "#868e96" if fell else ROBOT, 0.7 if board.cell >= 16 else 1.0))
    if fell:
        x, y = board.centre(r, c)
        d = board.cell * 0.3
        shapes.append(Line(((x - d, y - d), (x + d, y + d)), FELL, max(2.0, board.cell / 10), "fell"))
        shapes.append(Line(((x - d, y + d), (x + d, y - d)), FELL, max(2.0, board.cell / 10), "fell"))
    shapes += panel.shapes(program, running)
    got = level.size - len(stars)
    caption = f"{level.title or level.name}: action {number}, {got} of {level.size} stars collected"
    width, height = max(board.width, panel.width), board.height + panel.height
    return Scene(width, height, tuple(shapes), BACKGROUND, board, caption)


def draw(level: robozzle.Level, program: robozzle.Program | None, at: Sequence[int]) -> list[Scene]:
    """The board after each action number in `at` (ascending): tiles in their colours (painted ones changed),
    the stars left, the robot a white arrow and its way a dark line, the functions below with the slot of the
    latest action outlined in yellow. One pass of `robozzle.steps`; raises ProgramError when the program does
    not fit the puzzle. O(len(at) x (cells + slots) + actions x slots)."""
    board = Board(level.height, level.width)
    panel = _Panel(level, board)
    colours, stars = level.colours, level.stars
    position, facing = level.start, int(level.facing)
    if program is None:
        return [_picture(level, board, panel, None, colours, stars, position, facing, None, None, 0)]
    _fits(level, program)
    trail = Trail(position)
    running: tuple[int, int] | None = None
    out: list[Scene] = []
    number = 0
    for taken in steps_between(robozzle.steps(level, program), at):
        for step in taken:
            number = step.number
            if 0 <= step.position[0] < level.height and 0 <= step.position[1] < level.width:
                trail.go(step.position)  # not off the board's edge: the robot is shown at the edge
            colours, stars, position, facing = step.colours, step.stars, step.position, step.facing
            running = (step.function - 1, step.slot)
        out.append(_picture(level, board, panel, program, colours, stars, position, facing, trail, running, number))
    return out


def edit(level: robozzle.Level, row: int, col: int) -> str:
    """The puzzle's text form with tile (row, col) turned to the next letter of PALETTE; the robot's tile stays,
    and a letter that would leave the puzzle without a star is passed over. Raises ValueError for a cell outside
    the board. O(cells x len(PALETTE))."""
    if not (0 <= row < level.height and 0 <= col < level.width):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    lines = str(level).split("\n")
    header, rows = lines[: -level.height], [list(line) for line in lines[-level.height :]]
    if (row, col) == level.start:
        return str(level)
    here = rows[row][col]
    first = PALETTE.index(here) + 1 if here in PALETTE else 0
    for k in range(len(PALETTE)):
        rows[row][col] = PALETTE[(first + k) % len(PALETTE)]
        text = "\n".join(header + ["".join(line) for line in rows])
        try:
            robozzle.Level.parse(text, level.name)
        except LevelError:
            continue
        return text
    return str(level)


__all__ = ["PALETTE", "steps", "draw", "edit"]
