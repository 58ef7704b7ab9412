"""Shared ground for every game: errors, directions and reading grids from text.

>>> from gridbot.grid import Direction, grid_rows
>>> Direction.EAST.right()
<Direction.SOUTH: 2>
>>> grid_rows("S#\\r\\n#\\n\\n", fill=" ")
('S#', '# ')
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from typing import Any


class GridbotError(Exception):
    """Base of every error gridbot raises on purpose (bad levels, bad programs)."""


class LevelError(GridbotError):
    """A level text that cannot be read; knows the source, line and column (1-based)."""

    def __init__(self, message: str, line: int = 0, column: int = 0, source: str = "<level>") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        return f"{where}: {self.message}"

    def with_source(self, source: str) -> LevelError:
        """The same error, naming `source` (a file path or `game:name`)."""
        return LevelError(self.message, self.line, self.column, source)


class ProgramError(GridbotError):
    """A program (or path) text that cannot be read; `column` is 1-based, 0 if unknown."""

    def __init__(self, message: str, column: int = 0, text: str = "") -> None:
        self.message = message
        self.column = column
        self.text = text
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"program:1:{self.column}" if self.column else "program"
        return f"{where}: {self.message}"


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


def cells(rows: tuple[str, ...]) -> Iterator[tuple[int, int, str]]:
    """Every (row, column, character) of a grid, row by row."""
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            yield r, c, ch


def plural(n: int, word: str) -> str:
    """`1 step`, `2 steps`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def trace_parts(start: str, steps: Iterable[Any], limit: int, show: Callable[[Any], str], ending: str) -> Iterator[str]:
    """A run as text, piece by piece: the start picture, `show(step)` for at most `limit` steps, a cut mark, then
    `ending`. `steps` is consumed lazily (at most limit + 1 of it), so a long trace is printed as it is made, in
    memory of one step. O(limit) pieces."""
    yield f"step 0: start\n{start}"
    for number, step in enumerate(steps):
        if number == limit:
            yield f"... (trace cut after {plural(limit, 'step')})"
            break
        yield show(step)
    yield ending


def trace_text(start: str, steps: Iterable[Any], limit: int, show: Callable[[Any], str], ending: str) -> str:
    """`trace_parts` joined by blank lines."""
    return "\n\n".join(trace_parts(start, steps, limit, show, ending))
