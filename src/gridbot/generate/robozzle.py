"""Random RoboZZle puzzles, every star on a tile joined to the robot's (the rules: gridbot.games.robozzle)."""

from __future__ import annotations

import random

from gridbot.games.robozzle import COLOURS, FUNCTIONS, HOLE, MAX_SIDE, MAX_SLOTS, Level
from gridbot.grid import Direction


def random_level(
    width: int, height: int, seed: int, stars: int | None = None, holes: float = 0.3, name: str = ""
) -> Level:
    """A random puzzle: tiles of random colours with a `holes` share of holes, the robot on a tile, `stars` stars
    (default: from 1 to 8) on tiles joined to the robot's (so each can be reached by moving), 1 to 5 functions
    of 2 to 10 slots, and a random set of paints. The same arguments give the same puzzle. O(width x height).
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height < 2:
        raise ValueError(f"a puzzle needs 2 to {MAX_SIDE} x {MAX_SIDE} tiles, not {width} x {height}")
    if not 0 <= holes < 1:
        raise ValueError(f"holes must be a share from 0 to below 1, not {holes}")
    rng = random.Random(seed)
    grid = [[rng.choice(COLOURS) if rng.random() >= holes else HOLE for _ in range(width)] for _ in range(height)]
    start = (rng.randrange(height), rng.randrange(width))
    grid[start[0]][start[1]] = rng.choice(COLOURS)
    joined, todo = {start}, [start]
    while todo:  # the tiles a walk from the start can reach
        r, c = todo.pop()
        for there in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            inside = 0 <= there[0] < height and 0 <= there[1] < width
            if inside and grid[there[0]][there[1]] != HOLE and there not in joined:
                joined.add(there)
                todo.append(there)
    if len(joined) == 1:  # a lone tile: give it a neighbour
        r, c = start
        neighbour = (
            (r, c + 1) if c + 1 < width else (r, c - 1) if c > 0 else (r + 1, c) if r + 1 < height else (r - 1, c)
        )
        grid[neighbour[0]][neighbour[1]] = rng.choice(COLOURS)
        joined.add(neighbour)
    places = sorted(joined - {start})
    count = min(len(places), rng.randint(1, 8) if stars is None else max(1, stars))
    chosen = tuple(sorted(rng.sample(places, count)))
    functions = rng.randint(1, FUNCTIONS)
    slots = tuple(rng.randint(2, MAX_SLOTS) if f < functions else 0 for f in range(FUNCTIONS))
    paints = "".join(ch for ch in COLOURS if rng.random() < 0.25)
    facing = Direction(rng.randrange(4))
    return Level(tuple("".join(row) for row in grid), chosen, start, facing, slots, paints, name)
