"""Random Pellet Eater boards with a planted path (the rules: gridbot.games.pellet)."""

from __future__ import annotations

import operator

import numpy as np

from gridbot.games.pellet import MAX_SIDE, PELLET, START, WALL, Level
from gridbot.kernels.pellet import backbite


def random_level(width: int, height: int, seed: int, fill: float = 0.8, name: str = "") -> Level:
    """A width x height board with a guaranteed solution (solvable by construction).

    A random Hamiltonian path of the grid (backbite moves from a snake) of
    which the first `fill` fraction of cells stay open (S at the path's
    start, at least S) and the rest are walls: `fill` 1.0 opens the whole
    grid, the default 0.8 leaves a fifth of it as walls that the path must
    wind around. The same arguments give the same board. Sides from 1 to
    MAX_SIDE (1000); ValueError for other sides or a fill outside [0, 1].
    Time O(width x height + moves x reversal): at most 200,100 backbite moves,
    each reversing a stretch of the path (about the width on big boards); about
    1.5 s for 1000 x 1000. Memory O(width x height).
    """
    try:
        width, height = operator.index(width), operator.index(height)
    except TypeError:
        raise ValueError(f"board sides must be whole numbers, not {width!r} x {height!r}") from None
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"board sides must be from 1 to {MAX_SIDE}, not {width} x {height}")
    if not 0.0 <= fill <= 1.0:  # also refuses NaN
        raise ValueError(f"fill must be a fraction from 0 to 1, not {fill!r}")
    n = width * height
    path = np.empty(n, np.int64)
    # enough moves to forget the snake on small boards; capped so that big boards stay quick
    moves = min(20 * n, 200_000) + 100
    backbite(width, height, moves, seed & 0x7FFFFFFF, path)
    keep = max(1, min(n, round(n * fill)))
    grid = np.full(n, ord(WALL), np.uint8)
    grid[path[:keep]] = ord(PELLET)
    grid[path[0]] = ord(START)
    text = grid.tobytes().decode("ascii")
    rows = tuple(text[i : i + width] for i in range(0, n, width))
    return Level(rows, divmod(int(path[0]), width), name)
