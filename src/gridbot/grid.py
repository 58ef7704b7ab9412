"""Shared ground for every game: directions and reading grids from text.

>>> from gridbot.grid import Direction, grid_rows
>>> Direction.EAST.right()
<Direction.SOUTH: 2>
>>> grid_rows("S#\\r\\n#\\n\\n", fill=" ")
('S#', '# ')
"""

from __future__ import annotations

import array
import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, overload

from gridbot.errors import LevelError


class Direction(enum.IntEnum):
    """The four headings; NORTH is up the page. Turning right adds one."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def delta(self) -> tuple[int, int]:
        """(row, column) change of one step this way."""
        return _DELTAS[self]

    def left(self) -> Direction:
        return Direction((self - 1) % 4)

    def right(self) -> Direction:
        return Direction((self + 1) % 4)

    @property
    def arrow(self) -> str:
        return "^>v<"[self]


_DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))

MAX_GRID_SIDE = 1000


class Positions(Sequence[tuple[int, int]]):
    """(row, column) pairs, kept as two arrays of machine integers (16 bytes a pair instead of a tuple object each),
    so that a walk of a million moves or a board of a million squares stays light; indexing gives plain
    (int, int) tuples, and a Positions equals the tuple or list of the same pairs.

    `rows` and `columns` are buffers of 8-byte integers (int64 numpy arrays, array.array("q")); they are
    copied.
    """

    __slots__ = ("_rows", "_cols")

    def __init__(self, rows: Any, columns: Any) -> None:
        self._rows, self._cols = _int64s(rows), _int64s(columns)
        if len(self._rows) != len(self._cols):
            raise ValueError(f"{len(self._rows)} rows but {len(self._cols)} columns")

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[int, int], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | tuple[tuple[int, int], ...]:
        if isinstance(index, slice):
            return tuple(zip(self._rows[index], self._cols[index], strict=True))
        return self._rows[index], self._cols[index]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self._rows, self._cols, strict=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Positions):
            return self._rows == other._rows and self._cols == other._cols
        if isinstance(other, tuple | list):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._rows.tobytes(), self._cols.tobytes()))

    def __repr__(self) -> str:
        return f"Positions({list(self[:4])}{', ...' if len(self) > 4 else ''}; {len(self)} pairs)"


def _int64s(buffer: Any) -> array.array:
    """A copy of a buffer of 8-byte integers, as array.array("q"). O(len)."""
    view = memoryview(buffer)
    if view.format not in ("q", "l") or view.itemsize != 8:
        raise TypeError(f"expected 8-byte integers, not format {view.format!r}")
    out = array.array("q")
    out.frombytes(view.tobytes())  # tobytes: in index order, strided views too
    return out


def grid_rows(text: str, fill: str, source: str = "<level>", max_side: int = MAX_GRID_SIDE) -> tuple[str, ...]:
    """The rows of a grid text, right-padded with `fill` to a rectangle.

    Trailing `\\r` and trailing blank lines are dropped. Raises LevelError for an
    empty text, tabs or control characters, or a grid larger than `max_side`.
    """
    lines = text.split("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise LevelError("empty level", 1, 1, source)
    if len(lines) > max_side:
        raise LevelError(f"too many rows ({len(lines)} > {max_side})", max_side + 1, 1, source)
    for r, line in enumerate(lines):
        if len(line) > max_side:
            raise LevelError(f"row too long ({len(line)} > {max_side})", r + 1, max_side + 1, source)
        if not line.isprintable():  # the whole line in C; the column only when there is one to name
            c = next(c for c, ch in enumerate(line) if not ch.isprintable())
            raise LevelError(f"unexpected character {line[c]!r}", r + 1, c + 1, source)
    width = max(len(line) for line in lines)
    return tuple(line.ljust(width, fill) for line in lines)


def grid_text(rows: Sequence[str]) -> str:
    """The rows of a rectangular grid as text, without trailing blanks, that grid_rows reads back to the same rows:
    when blanks end every row, the first row keeps its own, so the width comes back with it.

    >>> grid_text(["@ ", "$ "])
    '@ \\n$'
    >>> grid_rows(grid_text(["@ ", "$ "]), " ")
    ('@ ', '$ ')
    """
    lines = [row.rstrip() for row in rows]
    if lines and max(map(len, lines)) < len(rows[0]):
        lines[0] = rows[0]
    return "\n".join(lines)


def cells(rows: tuple[str, ...]) -> Iterator[tuple[int, int, str]]:
    """Every (row, column, character) of a grid, row by row."""
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            yield r, c, ch


def mirror_symmetric(
    height: int, width: int, start: tuple[int, int], facing: Direction, cell: Callable[[tuple[int, int]], Any]
) -> bool:
    """Is a grid its own mirror image across the line the robot travels from `start` facing `facing`?

    `cell(position)` is what a square holds, for positions off the grid too (a hole, or an edge, as the game
    has it). Where that holds, swapping left and right turns in a program mirrors its whole run, from a start
    the mirror leaves as it is: a solver keeps one of each such pair (the mirror cut of Light-Bot and
    RoboZZle). O(height x width).

    >>> mirror_symmetric(3, 2, (1, 0), Direction.EAST, lambda p: p[0] in (0, 2) and 0 <= p[1] < 2)
    True
    >>> mirror_symmetric(3, 2, (1, 0), Direction.EAST, lambda p: p == (0, 0))
    False
    """
    r0, c0 = start
    along_rows = facing in (Direction.EAST, Direction.WEST)
    for r in range(height):
        for c in range(width):
            other = (2 * r0 - r, c) if along_rows else (r, 2 * c0 - c)
            if cell((r, c)) != cell(other):
                return False
    return True


def plural(n: int, word: str, *, unit: bool = False) -> str:
    """`1 step`, `2 steps`. With `unit`, `word` is a game's UNIT, which games name in the plural (`tokens`).

    >>> plural(1, "step"), plural(2, "step"), plural(1, "slots", unit=True), plural(0, "slots", unit=True)
    ('1 step', '2 steps', '1 slot', '0 slots')
    """
    if unit and word.endswith("s"):
        word = word[:-1]
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def trace_parts(
    start: str,
    steps: Iterable[Any],
    limit: int,
    show: Callable[[Any], str],
    ending: str,
    repeat: int | None = None,
) -> Iterator[str]:
    """A run as text, piece by piece: the start picture, `show(step)` for at most `limit` steps, a cut mark, then
    `ending`. `steps` is consumed lazily (at most limit + 1 of it), so a long trace is printed as it is made, in
    memory of one step. O(limit) pieces.

    `repeat` is the step at which the run's verdict saw a repeated state (Verdict.repeat_step): the trace ends
    there as the run did, since every later step only goes round states already shown."""
    yield f"step 0: start\n{start}"
    for number, step in enumerate(steps):
        if number == repeat:
            yield f"... (the state after step {repeat} repeats an earlier one: the run never ends, the trace stops)"
            break
        if number == limit:
            yield f"... (trace cut after {plural(limit, 'step')})"
            break
        yield show(step)
    yield ending


def trace_text(start: str, steps: Iterable[Any], limit: int, show: Callable[[Any], str], ending: str) -> str:
    """`trace_parts` joined by blank lines."""
    return "\n\n".join(trace_parts(start, steps, limit, show, ending))
