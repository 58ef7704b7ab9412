"""Random Bender maps, the booth moved where he goes by default (the rules: gridbot.games.bender)."""

from __future__ import annotations

import random

from gridbot.games.bender import (
    BEER,
    BOOTH,
    BREAKABLE,
    EMPTY,
    INVERTER,
    KNOWN,
    MAX_HEADER,
    START,
    TELEPORTER,
    WALL,
    Level,
    journey,
)

# the default mix of the inside of a random map: mostly empty, some walls and breakable walls, a few of each
# special tile (two teleporters are added apart from it)
TILES = {
    EMPTY: 0.70,
    WALL: 0.10,
    BREAKABLE: 0.06,
    "N": 0.02,
    "E": 0.02,
    "S": 0.02,
    "W": 0.02,
    INVERTER: 0.03,
    BEER: 0.03,
}


TRACE_FOR_BOOTH = 100_000  # moves followed to choose the booth of a map that must be reached


def random_level(
    width: int,
    height: int,
    seed: int,
    tiles: dict[str, float] | None = None,
    teleporters: bool = True,
    reach: bool = True,
    name: str = "",
) -> Level:
    """A random map of width x height cells with CodinGame's `L C` line: a border of `#`, inside a random mix of
    `tiles` (weights per character; default TILES), `@` on a random cell, `$` on another, and with
    `teleporters` two `T` when there is room.

    With `reach` (the default) the booth is then moved onto the last cell Bender first steps on (within his
    first TRACE_FOR_BOOTH moves) before he would loop, so that he reaches it; a cell he steps on is empty
    before, so his moves up to there do not change. (Walled in at the start, he cannot reach any booth.)
    The same arguments give the same map. Raises ValueError for sides outside 3..1000 or fewer than 2 cells
    inside. O(width x height) plus the journey followed.
    """
    if not (3 <= width <= MAX_HEADER and 3 <= height <= MAX_HEADER) or (width - 2) * (height - 2) < 2:
        raise ValueError(f"a map is 3..{MAX_HEADER} x 3..{MAX_HEADER} cells with 2 inside, not {width} x {height}")
    mix = TILES if tiles is None else tiles
    if not mix or any(ch not in KNOWN or ch in (START, BOOTH, TELEPORTER) for ch in mix) or sum(mix.values()) <= 0:
        raise ValueError(f"tiles must weigh characters of {''.join(sorted(KNOWN - {START, BOOTH, TELEPORTER}))!r}")
    rng = random.Random(f"bender {width} {height} {seed} {sorted(mix.items())} {teleporters} {reach}")
    inner_w, inner_h = width - 2, height - 2
    inside = rng.choices(list(mix), list(mix.values()), k=inner_w * inner_h)
    specials = START + BOOTH + (TELEPORTER * 2 if teleporters and len(inside) >= 4 else "")
    for cell, ch in zip(rng.sample(range(len(inside)), len(specials)), specials, strict=True):
        inside[cell] = ch

    def text() -> str:
        rows = ["".join(inside[r * inner_w : (r + 1) * inner_w]) for r in range(inner_h)]
        return "\n".join([f"{height} {width}", WALL * width, *(WALL + row + WALL for row in rows), WALL * width])

    level = Level.parse(text(), name or f"random {width}x{height} #{seed}")
    if reach:
        trip = journey(level, record=True, record_limit=TRACE_FOR_BOOTH)
        if trip.loops:
            firsts = {}  # first visit of each empty cell
            for step in trip.steps or ():
                r, c = step.position
                if inside[(r - 1) * inner_w + c - 1] == EMPTY:
                    firsts.setdefault((r, c), step.number)
            if firsts:
                r, c = max(firsts, key=firsts.__getitem__)
                inside[inside.index(BOOTH)] = EMPTY
                inside[(r - 1) * inner_w + c - 1] = BOOTH
                level = Level.parse(text(), level.name)
    return level
