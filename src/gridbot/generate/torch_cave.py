"""Random torch caves, with a lit path laid first by default (the rules: gridbot.games.torch_cave)."""

from __future__ import annotations

import random

from gridbot.games.torch_cave import START, START_LIGHT, TORCH, TREASURE, Level


def random_level(
    width: int,
    height: int,
    seed: int,
    torches: int | None = None,
    walls: float = 0.25,
    solvable: bool = True,
    name: str = "",
) -> Level:
    """A random cave of width x height cells: each cell a wall with probability `walls`, H on a random cell, T on
    the farthest of 8 more, and `torches` torches on random cells other than H and T (default: one cell in 100).

    With `solvable` (the default) a path is laid first: from H by a random
    shortest lattice path to a random cell, and on by another to T, with its
    loops cut out (so it visits no cell twice), cleared of walls, with a torch
    every 14 steps along it, so that walking it never runs dark; the other
    torches and walls only add ways (and often a shorter path, with less
    light). Without it the cave is whatever the dice give (often no path).
    The same arguments give the same cave. Raises ValueError for sides
    outside 1..1000, fewer than 2 cells or too many torches. O(width x height).
    """
    if not (1 <= width <= 1000 and 1 <= height <= 1000) or width * height < 2:
        raise ValueError(f"a cave is 1..1000 x 1..1000 cells with at least 2 cells, not {width} x {height}")
    cells = width * height
    extra = min(cells - 2, max(1, cells // 100)) if torches is None else torches
    if not 0 <= extra <= cells - 2:
        raise ValueError(f"{extra} torches do not fit in {cells - 2} free cells")
    rng = random.Random(f"torch_cave {width} {height} {seed} {extra} {walls} {solvable}")
    # floor is "." (not " "): a last row of floor must not read as trailing blank lines, which are dropped
    grid = bytearray(120 if rng.random() < walls else 46 for _ in range(cells))  # "x" or "."
    start, *others = rng.sample(range(cells), min(cells, 9))
    # T the farthest of up to 8 draws from H: a long way, so that the light matters
    treasure = max(others, key=lambda cell: abs(cell // width - start // width) + abs(cell % width - start % width))
    if solvable:
        for number, cell in enumerate(_detour(rng, width, start, treasure, rng.randrange(cells))[1:-1], 1):
            grid[cell] = ord(TORCH) if number % 14 == 0 else ord(".")
    others = [cell for cell in rng.sample(range(cells), min(cells, extra + 2)) if cell not in (start, treasure)]
    for cell in others[:extra]:
        grid[cell] = ord(TORCH)
    grid[start], grid[treasure] = ord(START), ord(TREASURE)
    text = "\n".join(grid[r * width : (r + 1) * width].decode("ascii") for r in range(height))
    return Level.parse(text, name or f"random {width}x{height} #{seed}")


def _detour(rng: random.Random, width: int, start: int, treasure: int, via: int) -> list[int]:
    """The cells of a path start -> via -> treasure (random shortest lattice paths) with its loops cut out: it
    visits no cell twice. O(width + height)."""
    path: list[int] = [start]
    index = {start: 0}
    for goal in (via, treasure):
        (r, c), (gr, gc) = divmod(path[-1], width), divmod(goal, width)
        steps = [(1 if gr > r else -1) * width] * abs(gr - r) + [1 if gc > c else -1] * abs(gc - c)
        rng.shuffle(steps)
        for step in steps:
            cell = path[-1] + step
            seen = index.get(cell)
            if seen is not None:  # a loop: cut it out
                for gone in path[seen + 1 :]:
                    del index[gone]
                del path[seen + 1 :]
            else:
                index[cell] = len(path)
                path.append(cell)
    return path


def corridor_level(
    width: int, height: int, seed: int, steps: int, side: float = 0.1, decoys: int = 2, name: str = ""
) -> Level | None:
    """A cave whose treasure is `steps` steps from H along a winding corridor lit just enough, or None when the
    corridor cannot be laid (the walk got stuck).

    The corridor is a random walk that never runs beside itself (so, walls aside, it is the only way and its
    length is the par); a torch lies on it every 8 to 15 steps, never later than the light allows, so walking it
    never runs dark. Then each wall next to the corridor becomes floor with probability `side` (side pockets,
    and now and then a shortcut, which the solver finds: the par is proven, not assumed), and `decoys` torches
    go into such pockets, off the way. The same arguments give the same cave. ValueError for sides outside
    1..1000 or fewer than 1 step. O(width x height).
    """
    if not (1 <= width <= 1000 and 1 <= height <= 1000) or steps < 1:
        raise ValueError(f"a corridor needs a cave of 1..1000 x 1..1000 cells and 1 step or more, not {steps}")
    rng = random.Random(f"torch_cave corridor {width} {height} {seed} {steps} {side} {decoys}")
    here = (rng.randrange(height), rng.randrange(width))
    walk, seen = [here], {here}
    near = ((-1, 0), (1, 0), (0, -1), (0, 1))
    while len(walk) <= steps:
        choices = [
            there
            for dr, dc in near
            for there in [(here[0] + dr, here[1] + dc)]
            if 0 <= there[0] < height and 0 <= there[1] < width and there not in seen
            and sum((there[0] + a, there[1] + b) in seen for a, b in near) == 1
        ]  # fmt: skip
        if not choices:
            return None
        here = rng.choice(choices)
        walk.append(here)
        seen.add(here)
    grid = [["x"] * width for _ in range(height)]
    for r, c in walk:
        grid[r][c] = "."
    pockets = []
    for r, c in walk:
        for dr, dc in near:
            there = (r + dr, c + dc)
            inside = 0 <= there[0] < height and 0 <= there[1] < width
            if inside and grid[there[0]][there[1]] == "x" and rng.random() < side:
                grid[there[0]][there[1]] = "."
                pockets.append(there)
    lit = 0  # the index on the corridor of the last light taken (H's own light at 0)
    while steps - lit > START_LIGHT:
        lit += rng.randint(8, 15)
        if lit < steps:
            grid[walk[lit][0]][walk[lit][1]] = TORCH
        else:
            break
    for r, c in rng.sample(pockets, min(decoys, len(pockets))):
        grid[r][c] = TORCH
    grid[walk[0][0]][walk[0][1]] = START
    grid[walk[-1][0]][walk[-1][1]] = TREASURE
    text = "\n".join("".join(row) for row in grid)
    return Level.parse(text, name or f"corridor {width}x{height} #{seed}")
