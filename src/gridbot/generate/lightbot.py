"""Random Light-Bot levels with every light in reach (the rules: gridbot.games.lightbot)."""

from __future__ import annotations

import random

from gridbot.games.lightbot import MAX_SIDE, Level, reachable
from gridbot.grid import Direction


def random_level(
    width: int, height: int, seed: int, lights: int | None = None, max_height: int = 3, name: str = ""
) -> Level:
    """A random level: heights drawn from 0..max_height, the robot on a random tile facing a random way, and
    `lights` lights on tiles it can reach (`reachable`), never its own.

    Every light can be stood on, but a winning program within the slot limits
    is not guaranteed (Light-Bot's slots are few). `lights=None` draws 3 to 7
    from the seed (fewer on a board without room). When the drawn heights leave
    too few tiles in reach, heights are drawn again (up to 20 times), then the
    board is made flat, where every tile is in reach. The same arguments give
    the same level. Raises ValueError for sides outside 1..MAX_SIDE, max_height
    outside 0..9, or more lights than the tiles besides the robot's.
    O(cells) per draw, O(cells) expected.
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"board sides must be 1..{MAX_SIDE}, not {width} x {height}")
    if not 0 <= max_height <= 9:
        raise ValueError(f"max_height must be 0..9, not {max_height}")
    rng = random.Random(f"lightbot {width} {height} {seed} {max_height}")  # a str seed: the same on every run
    room = width * height - 1
    if lights is None:
        lights = min(room, rng.randint(3, 7))
    if not 0 <= lights <= room:
        raise ValueError(f"{lights} lights do not fit on a {width} x {height} board (at most {room})")
    start = (rng.randrange(height), rng.randrange(width))
    facing = Direction(rng.randrange(4))
    for attempt in range(21):
        top = max_height if attempt < 20 else 0
        heights = tuple(tuple(rng.randint(0, top) for _ in range(width)) for _ in range(height))
        level = Level(heights, (), start, facing, name)
        tiles = [tile for tile in reachable(level) if tile != start]
        if len(tiles) >= lights:
            return Level(heights, tuple(sorted(rng.sample(tiles, lights))), start, facing, name)
    raise AssertionError("a flat board has every tile in reach")  # pragma: no cover
