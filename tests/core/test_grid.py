"""Shared grid pieces (gridbot.grid) used by several games: positions, and the rows of a board's text."""

from __future__ import annotations

import array

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridbot.errors import LevelError
from gridbot.grid import Positions, grid_rows

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_positions_read_as_row_column_pairs_from_any_int64_buffer() -> None:
    grid = np.arange(12, dtype=np.int64).reshape(3, 4)
    rows, cols = np.nonzero(grid % 5 == 0)  # strided views of one array
    pairs = ((0, 0), (1, 1), (2, 2))
    positions = Positions(rows, cols)
    assert positions == pairs and positions == list(pairs) and tuple(positions) == pairs
    assert positions[1] == (1, 1) and positions[-1] == (2, 2) and positions[:2] == pairs[:2]
    assert type(positions[0][0]) is int  # plain ints, not numpy scalars
    same = Positions(array.array("q", [0, 1, 2]), array.array("q", [0, 1, 2]))
    assert same == positions and hash(same) == hash(positions)
    assert positions != pairs[:2] and positions != Positions(cols[:2], rows[:2])


def test_positions_refuse_other_integers_and_unequal_lengths() -> None:
    with pytest.raises(TypeError):
        Positions(np.zeros(3, np.int32), np.zeros(3, np.int32))
    with pytest.raises(ValueError):
        Positions(np.zeros(3, np.int64), np.zeros(2, np.int64))


def test_grid_rows_pads_ragged_rows():
    assert grid_rows("S##\n#\n##", fill=" ") == ("S##", "#  ", "## ")
    assert grid_rows("ab\ncdef", fill=".") == ("ab..", "cdef")


def test_grid_rows_ignores_trailing_cr_and_blank_lines():
    assert grid_rows("S#\r\n#\r\n\r\n\n\n", fill=" ") == ("S#", "# ")
    assert grid_rows("S#\r", fill=" ") == ("S#",)
    assert grid_rows("\nS", fill=" ") == (" ", "S")  # leading blank lines are rows


def test_grid_rows_empty():
    for text in ("", "\n", "\r\n\r\n", "   \n"):
        with pytest.raises(LevelError, match="empty"):
            grid_rows(text, fill=" ", source="x")


@FAST
@given(st.lists(st.text(alphabet="S#O ", max_size=8), min_size=1, max_size=8), st.booleans())
def test_grid_rows_is_rectangular(lines, crlf):
    text = ("\r\n" if crlf else "\n").join(lines)
    if not any(line.strip() for line in lines):
        with pytest.raises(LevelError):
            grid_rows(text, fill=" ")
        return
    rows = grid_rows(text, fill=" ")
    assert len({len(r) for r in rows}) == 1
    assert [r.rstrip() for r in rows] == [line.rstrip() for line in lines][: len(rows)]
    assert all(not line.strip() for line in lines[len(rows) :])
