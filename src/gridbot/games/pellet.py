"""Pellet Eater (a CTF programming challenge): eat every pellet exactly once.

Levels use `.` (a pellet), `#` (a wall) and `S` (the start), optionally preceded
by a line `W H` as the game server sends it. A solution is a string of moves
`u`, `d`, `l`, `r` (up, down, left, right on the page) that starts on `S`,
enters every `.` exactly once and never a `#`, a cell already visited or the
outside: a Hamiltonian path of the open cells, starting at `S`, ending anywhere.

>>> from gridbot.games import pellet
>>> level = pellet.Level.parse("S..\\n#..")
>>> pellet.run(level, "rrdl").verdict.status
'completed'
>>> pellet.run(level, "rd").verdict.status
'incomplete'
>>> str(pellet.run(level, "dr").verdict)
"move 1 'd' at line 2, column 1 enters a wall"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.grid import Positions, grid_rows
from gridbot.result import Outcome, Pictured, PicturedRun, Verdict

NAME = "pellet"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "moves u d l r: eat every pellet exactly once; moves"
UNIT = "moves"
SOLUTION = "path"
LISTS_ALL = False  # one path is returned; counting every Hamiltonian path is another problem
PELLET, WALL, START = ".", "#", "S"
MAX_SIDE = 1000
# the largest level text read (gridbot.levels caps files, pipes and stdin at this): MAX_SIDE rows of MAX_SIDE
# cells with `\r\n` endings, and a header line and trailing blank lines to spare
MAX_LEVEL_BYTES = (MAX_SIDE + 2) * (MAX_SIDE + 1) + 4096
MOVES = "udlr"
# (row, column) change of each move letter
DELTA = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
ARROW = {"u": "^", "d": "v", "l": "<", "r": ">"}
_HEADER = re.compile(r"[ ]*([0-9]{1,7})[ ]+([0-9]{1,7})[ ]*\r?")
# ASCII only: str.lower() of some non-ASCII letters is an ASCII letter ('K' Kelvin sign -> 'k')
_LOWER = str.maketrans("UDLR", "udlr")
_SPACE = frozenset(" \t\r\n")
# translate tables: lower-case the moves and drop the spaces; then drop the moves (what is left is not a move)
_CANONICAL = str.maketrans("UDLR", "udlr", " \t\r\n")
_NOT_A_MOVE = str.maketrans("", "", "udlr")
_NOT_A_CELL = str.maketrans("", "", PELLET + WALL + START)


# ---------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class Level(Pictured):
    """An immutable board: `rows` padded with walls to a rectangle, `start` = (row, column), 0-based.

    `first_line` is the text line of row 0 (2 when a `W H` header came first), so
    that messages name the lines of the text that was read; it is where the board
    was read from, not part of the board, so equal boards compare equal whether
    or not their text had a header.
    """

    rows: tuple[str, ...]
    start: tuple[int, int]
    name: str = ""
    first_line: int = field(default=1, compare=False)

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read a board; raises LevelError naming the line and column of the first problem.

        An optional first line `W H` (two decimal numbers) gives the size: then
        exactly H rows must follow, none longer than W (shorter rows are padded
        with walls, as ragged rows always are). O(size of the text).
        """
        lines = text.split("\n")
        header = _HEADER.fullmatch(lines[0]) if lines else None
        offset = 0
        width = height = 0
        if header is not None:
            width, height = int(header.group(1)), int(header.group(2))
            if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
                raise LevelError(f"board size {width} x {height} out of range (1..{MAX_SIDE})", 1, 1, name)
            text = text.split("\n", 1)[1] if "\n" in text else ""
            offset = 1
            for r, line in enumerate(text.split("\n")):
                if len(line.removesuffix("\r")) > width:
                    raise LevelError(f"row longer than the header's width {width}", r + 2, width + 1, name)
        try:
            rows = grid_rows(text, WALL, source=name, max_side=MAX_SIDE)
        except LevelError as exc:
            raise LevelError(exc.message, exc.line + offset if exc.line else 0, exc.column, name) from None
        if header is not None:
            if len(rows) != height:
                line = offset + min(len(rows), height) + 1
                raise LevelError(f"the header says {height} rows, found {len(rows)}", line, 1, name)
            rows = tuple(row.ljust(width, WALL) for row in rows)
        for r, row in enumerate(rows):  # a whole row at a time in C; the scan for the culprit only on failure
            if row.translate(_NOT_A_CELL):
                c, ch = next((c, ch) for c, ch in enumerate(row) if ch not in (PELLET, WALL, START))
                raise LevelError(f"unknown character {ch!r} (expected ., # or S)", r + 1 + offset, c + 1, name)
        starts = [(r, c) for r, row in enumerate(rows) if START in row for c, ch in enumerate(row) if ch == START]
        if not starts:
            raise LevelError("no start S", 1 + offset, 1, name)
        if len(starts) > 1:
            r, c = starts[1]
            raise LevelError("a second start S", r + 1 + offset, c + 1, name)
        return cls(rows, starts[0], name, 1 + offset)

    def __str__(self) -> str:
        return "\n".join(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> int:
        """Number of pellets: the length of every solution."""
        return sum(row.count(PELLET) for row in self.rows)

    def is_open(self, r: int, c: int) -> bool:
        """True for a pellet or the start; False for a wall or outside the board."""
        return 0 <= r < len(self.rows) and 0 <= c < len(self.rows[0]) and self.rows[r][c] != WALL

    def where(self, r: int, c: int) -> str:
        """`line L, column C` of cell (r, c) in the text the level was read from."""
        return f"line {r + self.first_line}, column {c + 1}"

    def text(self, header: bool = True) -> str:
        """The board as the server sends it: `W H` then the rows, newline-terminated."""
        head = f"{self.width} {self.height}\n" if header else ""
        return head + "".join(row + "\n" for row in self.rows)


# ---------------------------------------------------------------- solutions


@dataclass(frozen=True, slots=True)
class Moves:
    """A move string over `udlr`; `str()` is the canonical (lower-case) text."""

    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def tokens(self) -> int:
        """The number of moves."""
        return len(self.text)

    @classmethod
    def parse(cls, text: str) -> Moves:
        return parse_program(text)


def parse_program(text: str) -> Moves:
    """Read a move string: `u d l r` in either case; spaces, tabs and line breaks are ignored.

    Raises ProgramError with the 1-based column of the first other character.
    O(len(text)).
    """
    if isinstance(text, Moves):
        return text
    canonical = text.translate(_CANONICAL)
    if not canonical.translate(_NOT_A_MOVE):  # the common case, in a few C passes over the text
        return Moves(canonical)
    out = []
    for i, ch in enumerate(text):
        if ch in _SPACE:
            continue
        low = ch.translate(_LOWER)
        if low not in DELTA:
            raise ProgramError(f"unexpected {ch!r} (expected u, d, l or r)", i + 1, text)
        out.append(low)
    return Moves("".join(out))


# ---------------------------------------------------------------- checking a path


@dataclass(frozen=True, slots=True)
class PathVerdict(Verdict):
    """A Verdict with the reason a path is wrong.

    status: 'completed' (every pellet eaten once, `step` = the number of moves),
    'incomplete' (the moves ran out after `step` moves with `remaining` pellets
    left) or 'illegal' (move number `step` enters a wall, leaves the board or
    enters a visited cell; `reason` says which and where; `remaining` is the
    number of pellets left before that move).
    """

    reason: str = ""

    def __str__(self) -> str:
        if self.status == Outcome.COMPLETED:
            return f"completed at move {self.step} (every pellet eaten once)"
        if self.status == Outcome.INCOMPLETE:
            pellets = "pellet" if self.remaining == 1 else "pellets"
            moves = "move" if self.step == 1 else "moves"
            return f"ended after {self.step} {moves} with {self.remaining} {pellets} left"
        return self.reason


@dataclass(frozen=True, slots=True)
class Walk(PicturedRun):
    """A move string checked on a level: the cells entered in order (start first) and the verdict."""

    level: Level
    moves: Moves
    cells: Positions
    verdict: PathVerdict


# (row, column) change of each move letter, indexed by its ASCII code
_ROW_STEP = np.zeros(128, np.int64)
_COL_STEP = np.zeros(128, np.int64)
for _letter, (_dr, _dc) in DELTA.items():
    _ROW_STEP[ord(_letter)], _COL_STEP[ord(_letter)] = _dr, _dc


def _first(mask: np.ndarray) -> int:
    """The index of the first True in `mask`, or its length when there is none. O(len(mask))."""
    return int(mask.argmax()) if mask.any() else len(mask)


def run(level: Level, moves: Moves | str) -> Walk:
    """Check a move string exactly: it must enter every pellet once and nothing else.

    Stops at the first illegal move (a wall, the outside or a visited cell; the
    start counts as visited). Moves after the last pellet are illegal too, since
    every neighbour is then a wall or visited. Returns a Walk.

    Vectorised: the positions are the running sums of the moves, and the first
    illegal move is the first one that leaves the board, enters a wall or enters
    a cell met earlier (found with one "first visit" array over the board).
    Every move before that one is legal, so each test on the whole prefix gives
    the same first failure as walking move by move. O(len(moves) + size of the
    board) time; memory at the peak about 52 bytes per move (tracemalloc, on a
    1000 x 1000 board), of which the 16 per legal move of Walk.cells are kept.
    """
    if isinstance(moves, str):
        moves = parse_program(moves)
    text = moves.text
    height, width = level.height, level.width
    r0, c0 = level.start
    codes = np.frombuffer(text.encode("ascii"), np.uint8)
    rows = np.empty(len(text) + 1, np.int64)
    cols = np.empty(len(text) + 1, np.int64)
    rows[0], cols[0] = r0, c0
    np.cumsum(_ROW_STEP[codes], out=rows[1:])
    np.cumsum(_COL_STEP[codes], out=cols[1:])
    rows[1:] += r0
    cols[1:] += c0
    inside = (rows[1:] >= 0) & (rows[1:] < height) & (cols[1:] >= 0) & (cols[1:] < width)
    out = _first(~inside)  # moves before this one stay on the board
    flat = rows[1 : out + 1] * width + cols[1 : out + 1]
    walls = np.frombuffer("".join(level.rows).encode("ascii", "replace"), np.uint8) == ord(WALL)
    wall = _first(walls[flat])
    seen = np.full(height * width, len(text), np.int64)  # the first move entering each cell
    np.minimum.at(seen, flat, np.arange(len(flat)))
    seen[r0 * width + c0] = -1  # the start is visited before any move
    again = _first(seen[flat] < np.arange(len(flat)))
    stop = min(out, wall, again)  # the number of legal moves
    cells = Positions(rows[: stop + 1], cols[: stop + 1])
    left = level.size - stop
    if stop < len(text):
        i, m = stop + 1, text[stop]
        if stop == out:
            problem = f"move {i} {m!r} at {level.where(int(rows[stop]), int(cols[stop]))} leaves the board"
        else:
            where = level.where(int(rows[i]), int(cols[i]))
            problem = f"move {i} {m!r} at {where} " + (
                "enters a wall" if stop == wall else "enters a cell already visited"
            )
        return Walk(level, moves, cells, PathVerdict("illegal", i, left, reason=problem))
    if left == 0:
        return Walk(level, moves, cells, PathVerdict(Outcome.COMPLETED, len(text)))
    return Walk(level, moves, cells, PathVerdict(Outcome.INCOMPLETE, len(text), left))


def moves_of(cells_in_order: list[tuple[int, int]]) -> str:
    """The move string of a path given as cells (each next to the one before). O(length)."""
    letters = {(-1, 0): "u", (1, 0): "d", (0, -1): "l", (0, 1): "r"}
    return "".join(
        letters[(b[0] - a[0], b[1] - a[1])] for a, b in zip(cells_in_order, cells_in_order[1:], strict=False)
    )


def moves_of_indices(path: np.ndarray, row_length: int) -> str:
    """The move string of a path given as flat cell indices `r * row_length + c` (each cell next to the one
    before; `row_length` more than the board's width, e.g. a padded width, so that steps are unambiguous).
    Vectorised, O(length)."""
    steps = np.diff(np.asarray(path, np.int64))
    letters = np.full(len(steps), ord("?"), np.uint8)
    for letter, (dr, dc) in DELTA.items():
        letters[steps == dr * row_length + dc] = ord(letter)
    if (letters == ord("?")).any():
        raise ValueError("consecutive cells of the path are not neighbours")
    return letters.tobytes().decode("ascii")


def picture(level: Level, walk: Walk, moves: int | None = None) -> str:
    """The board with the first `moves` moves of the walk drawn (all when None).

    Each cell left shows the arrow of the move out of it (`^ > v <`), the cell
    the path is on shows `@`, the target of an illegal move `X`; uneaten pellets
    stay `.`, walls `#`. O(size of the board).
    """
    grid = [list(row) for row in level.rows]
    k = len(walk.cells) - 1 if moves is None else min(moves, len(walk.cells) - 1)
    for i in range(k):
        r, c = walk.cells[i]
        grid[r][c] = ARROW[walk.moves.text[i]]
    r, c = walk.cells[k]
    grid[r][c] = "@"
    if walk.verdict.status == "illegal" and k == len(walk.cells) - 1:
        dr, dc = DELTA[walk.moves.text[walk.verdict.step - 1]]
        tr, tc = r + dr, c + dc
        if 0 <= tr < level.height and 0 <= tc < level.width:
            grid[tr][tc] = "X"
    return "\n".join("".join(row) for row in grid)


def format_trace(level: Level, walk: Walk, limit: int = 200) -> str:
    """The moves one per line (at most `limit`), the board with the path drawn, and the verdict.

    The board shows the path as far as the listed moves go. O(limit + board).
    """
    parts = [f"move 0: start at {level.where(*level.start)}"]
    shown = min(limit, len(walk.cells) - 1)
    for i in range(shown):
        r, c = walk.cells[i + 1]
        parts.append(f"move {i + 1}: {walk.moves.text[i]} to {level.where(r, c)}")
    failed = walk.verdict.status == "illegal" and shown == len(walk.cells) - 1
    if failed:
        parts.append(f"move {walk.verdict.step}: {walk.moves.text[walk.verdict.step - 1]} is illegal")
    if shown < len(walk.cells) - 1:
        parts.append(f"... (trace cut after {shown} moves)")
    return "\n".join(parts) + "\n\n" + picture(level, walk, shown) + "\n\n" + str(walk.verdict)


# ---------------------------------------------------------------- solving


__all__ = [
    "GridbotError",
    "Level",
    "Moves",
    "PathVerdict",
    "Walk",
    "format_trace",
    "moves_of",
    "parse_program",
    "run",
]
