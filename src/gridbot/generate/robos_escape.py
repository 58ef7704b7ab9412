"""Random Robo's Escape levels, with a way out by default (the rules: gridbot.games.robos_escape)."""

from __future__ import annotations

import random

from gridbot.games.robos_escape import SIDE, Level


def random_level(
    width: int,
    height: int,
    seed: int,
    coins: int | None = None,
    blocks: int | None = None,
    walls: float = 0.2,
    lasers: float = 0.04,
    solvable: bool = True,
    name: str = "",
) -> Level:
    """A random level of width x height cells (at most 10 x 10, as the game's): each cell a wall `X` with
    probability `walls`, else a laser-only cell (`-`, `.` or `x`) with probability `lasers`, else floor; `S`
    and `E` on two random cells, then `coins` coins `C` and `blocks` blocks `O` on other random cells (default:
    one cell in 12 and one in 20).

    With `solvable` (the default) a random shortest lattice path from S to E is cleared of walls and
    laser-only cells first (blocks on it stay: a laser clears them), so some program escapes. A last row of
    plain floor gets a coin on a random cell (trailing blank lines are not part of a level). The same
    arguments give the same level. Raises ValueError for sides outside 1..10, fewer than 2 cells or more
    coins and blocks than free cells. O(width x height).
    """
    if not (1 <= width <= SIDE and 1 <= height <= SIDE) or width * height < 2:
        raise ValueError(f"a level is 1..{SIDE} x 1..{SIDE} cells with at least 2 cells, not {width} x {height}")
    cells = width * height
    coins = min(max(1, cells // 12), cells - 2) if coins is None else coins
    blocks = min(cells // 20, cells - 2 - coins) if blocks is None else blocks
    if coins < 0 or blocks < 0 or coins + blocks > cells - 2:
        raise ValueError(f"{coins} coins and {blocks} blocks do not fit in {cells - 2} free cells")
    rng = random.Random(f"robos_escape {width} {height} {seed} {coins} {blocks} {walls} {lasers} {solvable}")
    grid = []
    for _ in range(cells):
        draw = rng.random()
        grid.append("X" if draw < walls else rng.choice("-.x") if draw < walls + lasers else " ")
    start, exit_, *others = rng.sample(range(cells), coins + blocks + 2)
    if solvable:
        (r, c), (er, ec) = divmod(start, width), divmod(exit_, width)
        steps = [(1 if er > r else -1) * width] * abs(er - r) + [1 if ec > c else -1] * abs(ec - c)
        rng.shuffle(steps)
        cell = start
        for step in steps:
            cell += step
            grid[cell] = " "
    for cell, ch in zip(others, "C" * coins + "O" * blocks, strict=True):
        grid[cell] = ch
    grid[start], grid[exit_] = "S", "E"
    last = range((height - 1) * width, height * width)
    if all(grid[cell] == " " for cell in last):  # trailing blank lines are dropped: the level would shrink
        grid[rng.choice(last)] = "C"
    text = "\n".join("".join(grid[r * width : (r + 1) * width]) for r in range(height))
    return Level.parse(text, name or f"random {width}x{height} #{seed}")
