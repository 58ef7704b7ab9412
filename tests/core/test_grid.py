"""Shared grid pieces (gridbot.grid) used by several games."""

from __future__ import annotations

import array

import numpy as np
import pytest

from gridbot.grid import Positions


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
