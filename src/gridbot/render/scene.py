"""What a picture is made of: a `Scene` of a few shapes on a pixel canvas, drawn by every back end alike.

A game's drawing (`gridbot.render.<game>`) builds Scenes; `gridbot.render.svg_text` writes one as SVG
and `gridbot.render.raster` paints it with Pillow, so files, GIF frames and the web page show one drawing.

>>> board = Board(rows=2, cols=3)
>>> scene = Scene(board.width, board.height, (board.cell_rect(0, 1, fill="#ffcc00"),), board=board)
>>> scene.shapes[0].x == board.margin + board.cell
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    cls: str = ""  # an SVG class name, for the page and for tests that count cells


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline through `points` (two points: a segment)."""

    points: tuple[Point, ...]
    stroke: str = "#000000"
    width: float = 1.0
    cls: str = ""


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    cls: str = ""


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    cls: str = ""


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; `anchor` is 'start', 'middle' or 'end' of the line at x, `y` its middle."""

    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = "#000000"
    anchor: str = "middle"
    cls: str = ""


Shape = Rect | Line | Polygon | Circle | Text

PER_CELL = 10_000  # boards of up to this many cells get one rectangle per cell
GRID_LINE = "#7f7f7f"  # the thin outline of a cell (no alpha: PNG and GIF are drawn without it)
MAX_BOARD_PIXELS = 800  # the board's longer side is drawn in at most this many pixels
MIN_CELL = 4
MAX_CELL = 48


def cell_size(rows: int, cols: int) -> int:
    """Pixels per cell: as large as fits MAX_BOARD_PIXELS, within MIN_CELL..MAX_CELL (a 100 x 100 board: 8)."""
    return max(MIN_CELL, min(MAX_CELL, MAX_BOARD_PIXELS // max(1, rows, cols)))


@dataclass(frozen=True, slots=True)
class Board:
    """Where a grid of rows x cols cells lies on the canvas: cell (r, c) covers
    [x0 + c * cell, x0 + (c + 1) * cell) x [y0 + r * cell, ...). The web page maps clicks back with it."""

    rows: int
    cols: int
    cell: int = 0  # 0: cell_size(rows, cols)
    margin: int = 0  # 0: a quarter cell, at least 2 pixels
    top: int = 0  # room above the board (a caption)

    def __post_init__(self) -> None:
        if not self.cell:
            object.__setattr__(self, "cell", cell_size(self.rows, self.cols))
        if not self.margin:
            object.__setattr__(self, "margin", max(2, self.cell // 4))

    @property
    def x0(self) -> int:
        return self.margin

    @property
    def y0(self) -> int:
        return self.margin + self.top

    @property
    def width(self) -> int:
        return 2 * self.margin + self.cols * self.cell

    @property
    def height(self) -> int:
        return 2 * self.margin + self.top + self.rows * self.cell

    def corner(self, r: float, c: float) -> Point:
        return (self.x0 + c * self.cell, self.y0 + r * self.cell)

    def centre(self, r: float, c: float) -> Point:
        return (self.x0 + (c + 0.5) * self.cell, self.y0 + (r + 0.5) * self.cell)

    def cell_rect(self, r: int, c: int, fill: str | None = None, stroke: str | None = None, inset: float = 0.0,
                  width: float = 1.0, cls: str = "cell") -> Rect:  # fmt: skip
        x, y = self.corner(r, c)
        return Rect(x + inset, y + inset, self.cell - 2 * inset, self.cell - 2 * inset, fill, stroke, width, cls)

    def arrow(self, r: int, c: int, facing: int, fill: str, scale: float = 0.8, cls: str = "robot") -> Polygon:
        """A triangle in cell (r, c) pointing `facing` (0 north, 1 east, 2 south, 3 west): the robot."""
        cx, cy = self.centre(r, c)
        h = self.cell * scale / 2
        tip, left, right = (0.0, -h), (-h * 0.8, h * 0.8), (h * 0.8, h * 0.8)
        turns = facing % 4

        def rotate(p: Point) -> Point:
            x, y = p
            for _ in range(turns):
                x, y = -y, x
            return (round(cx + x, 2), round(cy + y, 2))

        return Polygon((rotate(tip), rotate(right), rotate(left)), fill, "#000000", max(1.0, self.cell / 16), cls)

    def tiles(self, grid: list[str] | tuple[str, ...], colours: dict[str, str | None], cls: str = "cell") -> list[Rect]:
        """Rectangles colouring every cell of `grid` (rows of characters) by `colours` (None or absent: not drawn).

        One rectangle per cell, each with a thin outline, up to PER_CELL cells; beyond, a board too big to tell
        cells apart: one rectangle per run of equal cells in a row, without outlines (O(runs) shapes)."""
        out: list[Rect] = []
        if self.rows * self.cols <= PER_CELL:
            line = GRID_LINE if self.cell >= 8 else None
            for r, row in enumerate(grid):
                for c, ch in enumerate(row):
                    fill = colours.get(ch)
                    if fill:
                        out.append(self.cell_rect(r, c, fill, line, width=1.0, cls=cls))
            return out
        for r, row in enumerate(grid):
            c = 0
            while c < len(row):
                end = c + 1
                while end < len(row) and row[end] == row[c]:
                    end += 1
                fill = colours.get(row[c])
                if fill:
                    x, y = self.corner(r, c)
                    out.append(Rect(x, y, (end - c) * self.cell, self.cell, fill, None, 1.0, cls + "s"))
                c = end
        return out

    def path(self, cells: list[tuple[int, int]], stroke: str, width: float | None = None, cls: str = "path") -> Line:
        """A line through the centres of `cells`, in order."""
        w = width if width is not None else max(1.0, self.cell / 6)
        return Line(tuple(self.centre(r, c) for r, c in cells), stroke, w, cls)


@dataclass(frozen=True, slots=True)
class Scene:
    """A picture: `shapes` drawn in order on a width x height canvas of `background`.
    `board` says where the grid lies (None for a picture without one); `caption` is its alt text."""

    width: int
    height: int
    shapes: tuple[Shape, ...]
    background: str = "#ffffff"
    board: Board | None = None
    caption: str = ""


def beacon(board: Board, r: float, c: float, stroke: str, cls: str = "beacon") -> Circle | None:
    """A ring around cell (r, c) that finds the robot on a board of small cells (None when cells are large
    enough, at least 16 pixels, to show it plainly)."""
    if board.cell >= 16:
        return None
    x, y = board.centre(r, c)
    return Circle(x, y, board.cell * 0.5 + 5, None, stroke, 2.0, cls)


class Trail:
    """The way a robot went, for drawing: each move between two cells is kept once, so a run that goes round a
    loop for ever is a few lines, not one point per step (O(cells) points, whatever the run's length).

    >>> trail = Trail((0, 0))
    >>> for cell in [(0, 1), (1, 1), (1, 0), (0, 0), (0, 1), (1, 1), (2, 1)]:
    ...     trail.go(cell)
    >>> trail.pieces
    [[(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)], [(1, 1), (2, 1)]]
    """

    __slots__ = ("pieces", "_at", "_edges", "_broken")

    def __init__(self, start: tuple[int, int]) -> None:
        self.pieces: list[list[tuple[int, int]]] = []
        self._at = start
        self._edges: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        self._broken = True

    def go(self, cell: tuple[int, int]) -> None:
        """Move to `cell` (staying put is no move). O(1)."""
        here = self._at
        if cell == here:
            return
        self._at = cell
        edge = (here, cell) if here <= cell else (cell, here)
        if edge in self._edges:
            self._broken = True  # drawn already: the next new move starts a new piece where the robot is
            return
        self._edges.add(edge)
        if self._broken:
            self.pieces.append([here, cell])
            self._broken = False
        else:
            self.pieces[-1].append(cell)

    def lines(self, board: Board, stroke: str, width: float | None = None, cls: str = "path") -> list[Line]:
        """The pieces as lines through the centres of their cells."""
        return [board.path(piece, stroke, width, cls) for piece in self.pieces]


def steps_between(steps: Iterator[Any], at: Iterable[int]) -> Iterator[list[Any]]:
    """For each step number k of `at` (ascending), the steps of the run taken since the previous one, up to the
    step numbered k (fewer when the run ends first). Steps are a game's trace items, each with a `number`; a
    drawing applies them in order and draws the frame. O(steps up to max(at))."""
    number = 0
    for k in at:
        taken = []
        while number < k:
            step = next(steps, None)
            if step is None:
                break
            number = step.number
            taken.append(step)
        yield taken
