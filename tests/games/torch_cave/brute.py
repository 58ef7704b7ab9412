"""Reference searches for the torch cave, written for obviousness, not speed.

`fewest_steps` is a plain breadth-first search over (cell, torches taken, light)
with no pruning but exact duplicates: the first time it reaches T is the fewest
steps. `unsafe_fewest_steps` is the write-up's search, which also drops a state
when the same cell was reached before with at least as much light, whatever
torches were taken: it can be wrong, which the tests show.
"""

from __future__ import annotations

from collections import deque

from gridbot.games.torch_cave import MOVES, Level


def fewest_steps(level: Level) -> int | None:
    """The fewest steps from H to T, or None when there is no path. O(cells x 2^torches x light)."""
    start = (level.start, 0, level.start_light)
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (cell, taken, light), steps = queue.popleft()
        if cell == level.treasure:
            return steps
        if light < 1:
            continue
        for move in MOVES:
            target = level.move(cell, move)
            if target < 0:
                continue
            new_light, new_taken = level.enter(target, light - 1, taken)
            state = (target, new_taken, new_light)
            if state not in seen:
                seen.add(state)
                queue.append((state, steps + 1))
    return None


def unsafe_fewest_steps(level: Level) -> int | None:
    """The write-up's search: BFS that skips a state when its cell was seen with as much light or more.

    Ignores which torches were taken, so it may drop the only state that could
    still take a torch it needs.
    """
    best_light = {level.start: level.start_light}
    queue = deque([((level.start, 0, level.start_light), 0)])
    while queue:
        (cell, taken, light), steps = queue.popleft()
        if cell == level.treasure:
            return steps
        if light < 1:
            continue
        for move in MOVES:
            target = level.move(cell, move)
            if target < 0:
                continue
            new_light, new_taken = level.enter(target, light - 1, taken)
            if best_light.get(target, -1) >= new_light:
                continue
            best_light[target] = new_light
            queue.append(((target, new_taken, new_light), steps + 1))
    return None
