"""Bender drawn as his map: walls, breakable X (crossed bricks, gone once he breaks them), teleporters (rings),
inverters, beers, direction tiles (arrows), the suicide booth, and his route, blue when sober and red in breaker
mode, broken where a teleporter moves him.

>>> import gridbot
>>> from gridbot.render import bender
>>> level = gridbot.load("bender:01_simple_moves")
>>> scene = bender.draw(level, "", [bender.steps(level, "")])[0]
>>> scene.caption.endswith("reaches the suicide booth at move 4")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridbot.games import bender
from gridbot.grid import Direction

from . import MAX_STEPS
from .scene import PER_CELL, Board, Circle, Line, Point, Scene, Shape, Text

# what a click turns a cell into, in turn; @, $ and T stay (one start, one booth, zero or two teleporters)
PALETTE = bender.EMPTY + bender.WALL + bender.BREAKABLE + "NESW" + bender.INVERTER + bender.BEER
BROKEN = "x"  # a tile code of the drawing only: an X he has broken
WALL = "#37474f"
FLOOR = "#eceff1"
COLOURS = {
    bender.EMPTY: FLOOR,
    bender.START: "#cfd8dc",
    bender.WALL: WALL,
    bender.BREAKABLE: "#bf8f6f",
    BROKEN: "#e2d6cc",
    bender.BOOTH: "#81c784",
    bender.INVERTER: "#81d4fa",
    bender.BEER: "#ffca28",
    bender.TELEPORTER: "#b39ddb",
    **dict.fromkeys("NESW", "#fff59d"),
}
MORTAR = "#6d4c41"
PORTAL = "#5e35b1"
SIGN = "#455a64"
LABEL = "#263238"
ROUTE = "#1e88e5"  # his route, sober
BREAKER = "#e53935"  # his route in breaker mode
ROBOT = "#b0bec5"
ICON_MIN_CELL = 8  # pixels per cell from which tiles get icons (arrows, rings)
CROSS_MIN_CELL = 12  # pixels per cell from which an X is crossed (on smaller ones its brick colour says it)
ROBOT_MIN_PIXELS = 14
TEXT_MIN_CELL = 14  # pixels per cell from which $, I and B are written on their tiles


def steps(level: bender.Level, program: bender.Answer | str | None = None) -> int:
    """His moves to the booth or until a state repeats (at most render.MAX_STEPS). The answer does not change
    them (his moves are forced); it only gets a verdict. O(journey)."""
    return min(len(bender.journey(level).moves), MAX_STEPS)


def _icons(board: Board, grid: list[str]) -> list[Shape]:
    """Marks on the special tiles: a cross on X, arrows on N E S W, rings on teleporters, letters on $ I B."""
    shapes: list[Shape] = []
    s = board.cell
    words = s >= TEXT_MIN_CELL
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch in (bender.EMPTY, bender.WALL, BROKEN, bender.START):
                continue
            x, y = board.corner(r, c)
            cx, cy = board.centre(r, c)
            if ch == bender.BREAKABLE:
                if s >= CROSS_MIN_CELL:
                    a, b, w = 0.22 * s, 0.78 * s, max(1.0, s / 10)
                    shapes.append(Line(((x + a, y + a), (x + b, y + b)), MORTAR, w, "breakable"))
                    shapes.append(Line(((x + b, y + a), (x + a, y + b)), MORTAR, w, "breakable"))
            elif ch in bender.MODIFIERS:
                shapes.append(board.arrow(r, c, bender.MODIFIERS[ch], SIGN, 0.55, "modifier"))
            elif ch == bender.TELEPORTER:
                shapes.append(Circle(cx, cy, 0.34 * s, None, PORTAL, max(1.0, s / 10), "teleporter"))
                shapes.append(Circle(cx, cy, 0.14 * s, PORTAL, None, 1.0, "teleporter"))
            elif words and ch in (bender.BOOTH, bender.INVERTER, bender.BEER):
                shapes.append(Text(cx, cy, ch, round(0.55 * s, 1), LABEL, "middle", "label"))
    return shapes


@dataclass(frozen=True, slots=True)
class _Trip:
    """What every frame of one journey takes a prefix of, worked out once: `steps` his recorded moves,
    `landing[i]` the middle of the cell move i entered (a teleporter he stepped on, for a teleport), `pieces`
    the (first move, end move, colour, first point) of each polyline of his route (a new one at a teleport and
    where his breaker mode changes), `broken` the (move, cell) of each X he broke."""

    steps: tuple[bender.Step, ...]
    landing: list[Point]
    pieces: list[tuple[int, int, str, Point]]
    broken: list[tuple[int, tuple[int, int]]]

    @classmethod
    def of(cls, level: bender.Level, board: Board, trip: bender.Journey) -> _Trip:
        """O(moves recorded)."""
        steps = trip.steps or ()
        landing: list[Point] = []
        pieces: list[tuple[int, int, str, Point]] = []
        here = board.centre(*level.start)
        breaker = False  # the mode of the move being drawn: the one he had before it
        for i, step in enumerate(steps):
            colour = BREAKER if breaker else ROUTE
            if not pieces or pieces[-1][2] != colour or pieces[-1][1] != i:  # a new colour, or after a teleport
                pieces.append((i, i + 1, colour, here))
            else:
                pieces[-1] = (pieces[-1][0], i + 1, colour, pieces[-1][3])
            after = board.centre(*step.position)
            if step.event == "teleport":
                entered = level.teleporters[1] if step.position == level.teleporters[0] else level.teleporters[0]
                landing.append(board.centre(*entered))
                pieces.append((i + 1, i + 1, colour, after))  # the next move starts a line of its own here
            else:
                landing.append(after)
            here = after
            breaker = step.breaker
        pieces = [piece for piece in pieces if piece[1] > piece[0]]
        broken = [(i, step.position) for i, step in enumerate(steps) if step.event == "broke X"]
        return cls(steps, landing, pieces, broken)


def _route(board: Board, trip: _Trip, k: int) -> list[Shape]:
    """His first k moves as polylines through the cells he entered: a new one where his mode changes colour,
    and none across a teleport (the move ends on the teleporter entered, the next line starts on the other).
    O(k)."""
    w = max(2.0, board.cell / 6)
    return [Line((start, *trip.landing[first : min(end, k)]), colour, w, "route")
            for first, end, colour, start in trip.pieces if first < k]  # fmt: skip


def _picture(level: bender.Level, board: Board, trip: _Trip | None, verdict: str, k: int) -> Scene:
    broken = [cell for move, cell in trip.broken if move < k] if trip is not None else []
    grid = list(level.rows)
    if broken:
        cells = [list(row) for row in grid]
        for r, c in broken:
            cells[r][c] = BROKEN
        grid = ["".join(row) for row in cells]
    shapes: list[Shape] = list(board.tiles(grid, COLOURS))
    # the route under the icons: a tile he crosses stays readable, and the line runs on either side of it
    if trip is not None:
        shapes.extend(_route(board, trip, k))
    if board.cell >= ICON_MIN_CELL and level.height * level.width <= PER_CELL:
        shapes.extend(_icons(board, grid))
    last = trip.steps[k - 1] if trip is not None and k else None
    where, heading = (last.position, last.heading) if last else (level.start, Direction.SOUTH)
    modes = [m for m, on in (("inverted", last and last.inverted), ("breaker", last and last.breaker)) if on]
    caption = f"{level.name}: move {k}, heading {heading.name}" + (f" ({', '.join(modes)})" if modes else "")
    if trip is not None and k == len(trip.steps):  # the last picture: the verdict
        caption += f"; {verdict}"
    # on a big map he spills over his cell (at least ROBOT_MIN_PIXELS tall), to be found at a glance
    shapes.append(board.arrow(*where, heading, ROBOT, max(0.8, ROBOT_MIN_PIXELS / board.cell), "robot"))
    return Scene(board.width, board.height, tuple(shapes), WALL, board, caption)


def draw(level: bender.Level, program: bender.Answer | str | None, at: Sequence[int]) -> list[Scene]:
    """The map after each move number in `at` (ascending; past his last move: that move): X he broke shown as
    rubble, his route so far (blue, red in breaker mode), Bender as a grey arrow of his heading; the caption
    gives his modes and, at the end, the verdict (booth, LOOP, or what is wrong with `program`, the answer).
    `program` None: the map alone; "" or an empty Answer: his journey without an answer to check. One journey
    (bender.journey, recording at most render.MAX_STEPS moves), then O(moves + len(at) x (cells + moves))."""
    board = Board(level.height, level.width)
    if program is None:
        return [_picture(level, board, None, "", 0)]
    trip = _Trip.of(level, board, bender.journey(level, record=True, record_limit=MAX_STEPS))
    verdict = str(bender.run(level, program).verdict)
    last = len(trip.steps)
    return [_picture(level, board, trip, verdict, min(k, last)) for k in at]


def edit(level: bender.Level, row: int, col: int) -> str:
    """The level's text (with its `L C` line if it had one) with cell (row, col) turned to the next of PALETTE:
    space, #, X, N, E, S, W, I, B. The start @, the booth $ and teleporters T stay (the format wants one, one and
    zero or two). Should a map without the `L C` line end in a blank row, the line is written, so that the row
    is not dropped. ValueError off the board. O(cells)."""
    if not (0 <= row < level.height and 0 <= col < level.width):
        raise ValueError(f"no cell at row {row + 1}, column {col + 1}")
    rows = [list(r) for r in level.rows]
    here = rows[row][col]
    if here not in (bender.START, bender.BOOTH, bender.TELEPORTER):
        rows[row][col] = PALETTE[(PALETTE.index(here) + 1) % len(PALETTE)]
    text = "\n".join("".join(r) for r in rows)
    if level.header is not None or not rows[-1] or not "".join(rows[-1]).strip():
        text = f"{level.height} {level.width}\n" + text
    return text


__all__ = ["PALETTE", "steps", "draw", "edit"]
