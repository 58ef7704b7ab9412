"""Random Pellet Eater boards with a planted path (the rules: gridbot.games.pellet)."""

from __future__ import annotations

import operator
import random
from typing import Any

import numpy as np

from gridbot.errors import Stopped
from gridbot.games.pellet import MAX_SIDE, PELLET, START, WALL, Level
from gridbot.kernels.pellet import backbite
from gridbot.result import Status


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


_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
_NAMES = {step: name for name, step in _MOVES.items()}


def walk_level(
    width: int, height: int, seed: int, touch: float = 0.4, cells: int | None = None, name: str = ""
) -> Level | None:
    """A board whose open cells are one random walk from S, which is a Hamiltonian path of them by construction.

    The walk goes from a random cell to a random free neighbour until it is stuck or has `cells` cells. A
    neighbour that touches no cell of the walk but the current one is always a choice; one that touches one more
    is a choice with probability `touch`, so that the corridor now and then runs along itself (where other paths
    may appear: 0 gives a corridor with one path, higher values boards where the path must be found). None when
    `cells` is given and the walk is stuck before it. The same arguments give the same board (Python's `random`).
    ValueError for sides outside 1..MAX_SIDE. O(width x height).
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"board sides must be from 1 to {MAX_SIDE}, not {width} x {height}")
    rng = random.Random(f"pellet walk {width} {height} {seed} {touch} {cells}")
    here = (rng.randrange(height), rng.randrange(width))
    walk = [here]
    seen = {here}
    while cells is None or len(walk) < cells:
        choices = []
        for dr, dc in _STEPS:
            there = (here[0] + dr, here[1] + dc)
            if not (0 <= there[0] < height and 0 <= there[1] < width) or there in seen:
                continue
            touching = sum((there[0] + a, there[1] + b) in seen for a, b in _STEPS) - 1
            if touching == 0 or (touching == 1 and rng.random() < touch):
                choices.append(there)
        if not choices:
            break
        here = rng.choice(choices)
        walk.append(here)
        seen.add(here)
    if cells is not None and len(walk) < cells:
        return None
    grid = [[WALL] * width for _ in range(height)]
    for r, c in walk:
        grid[r][c] = PELLET
    grid[walk[0][0]][walk[0][1]] = START
    return Level(tuple("".join(row) for row in grid), walk[0], name)


def other_path(level: Level, moves: str, stop: Any = None) -> str | None:
    """A Hamiltonian path of `level` from S other than `moves` (one of its paths), or None when `moves` is the only
    one: exact, by the solver (gridbot.solve), never by a count of its own.

    Any other path follows `moves` for some first i cells and then steps to another free neighbour q of the i-th
    cell; from q on it is a Hamiltonian path of the cells not yet eaten, starting at q. So each such (i, q) is one
    board (the first i cells made walls, S on q) for the solver, which proves most of them unsolvable by its
    certificates at once; the first it solves gives the other path (the prefix and its moves). `stop` (anything
    with `is_set()`) ends the solves early: Stopped is raised then. O(cells) boards of at most the level's size.
    """
    from gridbot import solve as front

    rows = [list(row) for row in level.rows]
    path = [level.start]
    for move in moves:
        dr, dc = _MOVES[move]
        path.append((path[-1][0] + dr, path[-1][1] + dc))
    rows[level.start[0]][level.start[1]] = PELLET
    for i in range(1, len(path)):
        r, c = path[i - 1]
        rows[r][c] = WALL
        for dr, dc in _STEPS:
            q = (r + dr, c + dc)
            if q == path[i] or not (0 <= q[0] < level.height and 0 <= q[1] < level.width) or rows[q[0]][q[1]] == WALL:
                continue
            board = [row[:] for row in rows]
            board[q[0]][q[1]] = START
            sub = Level(tuple("".join(row) for row in board), q, level.name)
            result = front.solve(sub, stop=stop)
            if result.status is Status.OPTIMAL:
                return moves[: i - 1] + _NAMES[(dr, dc)] + str(result.solution)
            if result.status is not Status.UNSOLVABLE:  # only a stop leaves a board undecided
                raise Stopped(f"stopped while looking for a second path of {level.name or 'the board'}")
    return None
