"""Random Carrots boards, solvable by construction (the rules: gridbot.games.carrots)."""

from __future__ import annotations

import random

from gridbot.games.carrots import MARKED, SQUARE, START, VOID, Level
from gridbot.grid import MAX_GRID_SIDE


def random_level(width: int, height: int, seed: int, fill: float = 0.6, marked: float = 0.1, name: str = "") -> Level:
    """A random board, solvable by construction: one region of squares grown from `S`.

    Squares are added one at a time at a random free cell next to the region
    (so every square is joined to `S` through neighbours, and a tour marks them
    all) until `fill` of the width x height cells are squares; each square but
    `S` is `O` (already marked) with probability `marked`, and the rest of the
    grid is void; the board is then cropped to the squares' bounding box (so
    that it prints as text that parses back to it). The same arguments give
    the same board (Python's `random` with `seed`). Raises ValueError for sides
    outside 1..1000 or `fill`, `marked` outside their ranges.
    O(width x height).
    """
    if not (1 <= width <= MAX_GRID_SIDE and 1 <= height <= MAX_GRID_SIDE):
        raise ValueError(f"board sides must be 1 to {MAX_GRID_SIDE}, not {width} x {height}")
    if not 0 < fill <= 1:
        raise ValueError(f"fill must be in (0, 1], not {fill!r}")
    if not 0 <= marked <= 1:
        raise ValueError(f"marked must be in [0, 1], not {marked!r}")
    rng = random.Random(seed)
    cells = width * height
    wanted = max(1, round(fill * cells))
    grid = [VOID] * cells
    first = rng.randrange(cells)
    grid[first] = START
    frontier: list[int] = []  # free cells next to the region (may repeat; stale ones are skipped)
    placed = 1

    def grow(cell: int) -> None:
        r, c = divmod(cell, width)
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if 0 <= r + dr < height and 0 <= c + dc < width and grid[cell + dr * width + dc] == VOID:
                frontier.append(cell + dr * width + dc)

    grow(first)
    while placed < wanted and frontier:
        i = rng.randrange(len(frontier))
        frontier[i], frontier[-1] = frontier[-1], frontier[i]
        cell = frontier.pop()
        if grid[cell] != VOID:
            continue
        grid[cell] = MARKED if rng.random() < marked else SQUARE
        placed += 1
        grow(cell)
    rows = ["".join(grid[r * width : (r + 1) * width]) for r in range(height)]
    used = [r for r, row in enumerate(rows) if row.strip()]
    left = min(len(row) - len(row.lstrip()) for row in rows if row.strip())
    text = "\n".join(row[left:].rstrip() for row in rows[used[0] : used[-1] + 1])
    return Level.parse(text, name=name or f"random {width}x{height} seed {seed}")
