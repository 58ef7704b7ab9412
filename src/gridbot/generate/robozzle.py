"""Random RoboZZle puzzles, every star on a tile joined to the robot's (the rules: gridbot.games.robozzle)."""

from __future__ import annotations

import random

from gridbot.games.robozzle import (
    COLOURS,
    FUNCTIONS,
    HOLE,
    MAX_SIDE,
    MAX_SLOTS,
    MAX_TOTAL_SLOTS,
    Command,
    Level,
    Position,
    Program,
    steps,
)
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


def random_program(size: int, seed: int, paints: bool = True) -> Program:
    """A random program of exactly `size` slots (1..MAX_TOTAL_SLOTS) in one to three functions, each called from an
    earlier one, the last slot of F1 (or of the last function) calling back so that the run goes on; a command is
    conditioned on a colour one time in three, and with `paints` a paint one time in ten. The same arguments give
    the same program. O(size)."""
    if not 1 <= size <= MAX_TOTAL_SLOTS:
        raise ValueError(f"a program has 1 to {MAX_TOTAL_SLOTS} slots, not {size}")
    rng = random.Random(f"robozzle program {size} {seed} {paints}")
    count = 1 if size < 4 else rng.choice((1, 2, 2, 3)) if size < 7 else rng.choice((2, 2, 3))
    lengths = [1] * count
    for _ in range(size - count):
        open_ = [f for f in range(count) if lengths[f] < MAX_SLOTS]
        lengths[rng.choice(open_)] += 1
    bodies: list[list[Command]] = []
    for length in lengths:
        body = []
        for _ in range(length):
            draw = rng.random()
            op = "F" if draw < 0.5 else rng.choice("LR") if draw < 0.9 else "P" + rng.choice(COLOURS) if paints else "F"
            body.append(Command(op, rng.choice(COLOURS) if rng.random() < 0.34 else ""))
        bodies.append(body)
    for f in range(1, count):  # F(f+1) is called from an earlier function, at a random slot
        caller = rng.randrange(f)
        slot = rng.randrange(len(bodies[caller]))
        bodies[caller][slot] = Command(str(f + 1), bodies[caller][slot].cond)
    last = count - 1
    if len(bodies[last]) > 1 or count == 1:  # the run goes on: the last function's last slot calls back
        target = rng.choice((1, count))
        bodies[last][-1] = Command(str(target), "" if rng.random() < 0.7 else rng.choice(COLOURS))
    return Program(tuple(tuple(body) for body in bodies) + ((),) * (FUNCTIONS - count))


def trail_level(width: int, height: int, seed: int, program: Program, name: str = "") -> Level | None:
    """A puzzle of width x height that `program` wins by construction, or None when its run enters no tile or
    stays on one line.

    The program is run on a board of random colours three times as wide and high, from its middle with a random
    facing, until it falls off, stops, or would leave a width x height window around the tiles it stood on. The
    puzzle keeps only the tiles the robot stood on until a random first entry (after at least half of them), placed
    at a random offset in the window (the rest are holes), with a star on each tile it first entered. Its run
    there is the same action for action (it never reads a tile it did not stand on), so it wins; the functions
    get the program's slots, the paints only those it uses. The same arguments give the same puzzle.
    O(width x height + MAX_ACTIONS x size)."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height < 2:
        raise ValueError(f"a puzzle needs 2 to {MAX_SIDE} x {MAX_SIDE} tiles, not {width} x {height}")
    rng = random.Random(f"robozzle trail {width} {height} {seed} {program}")
    wide, high = 3 * width, 3 * height
    colours = [[rng.choice(COLOURS) for _ in range(wide)] for _ in range(high)]
    start = (high // 2, wide // 2)
    facing = Direction(rng.randrange(4))
    # framed by holes, with one star out of reach in the frame's corner: the run never wins, it ends
    framed = [HOLE * (wide + 2)] + [HOLE + "".join(row) + HOLE for row in colours] + [HOLE * (wide + 2)]
    framed[0] = COLOURS[0] + framed[0][1:]
    used = tuple(len(body) for body in program.functions)
    slots = tuple(max(n, 1 if f == 0 else 0) for f, n in enumerate(used))
    ops = {command.op for body in program.functions for command in body}
    paints = "".join(ch for ch in COLOURS if "P" + ch in ops)
    board = Level(tuple(framed), ((0, 0),), (start[0] + 1, start[1] + 1), facing, slots, paints)
    entered: list[Position] = []  # every tile entered, in order
    firsts: list[int] = []  # the indices in `entered` of first entries
    seen = {start}
    top, left, bottom, right = start[0], start[1], start[0], start[1]
    for step in steps(board, program):
        r, c = step.position[0] - 1, step.position[1] - 1
        if not (0 <= r < high and 0 <= c < wide):
            break  # fell off
        top, left, bottom, right = min(top, r), min(left, c), max(bottom, r), max(right, c)
        if bottom - top >= height or right - left >= width:
            break  # out of the window
        entered.append((r, c))
        if (r, c) not in seen:
            seen.add((r, c))
            firsts.append(len(entered) - 1)
    if not firsts:
        return None
    cut = rng.randint(len(firsts) // 2 + 1, len(firsts))
    kept = {start, *entered[: firsts[cut - 1] + 1]}
    if len({r for r, _ in kept}) == 1 or len({c for _, c in kept}) == 1:
        return None  # a straight line: any program that goes forward wins it
    top, left = min(r for r, _ in kept), min(c for _, c in kept)
    bottom, right = max(r for r, _ in kept), max(c for _, c in kept)
    dr = rng.randint(0, height - 1 - (bottom - top)) - top
    dc = rng.randint(0, width - 1 - (right - left)) - left
    rows = tuple(
        "".join(colours[r - dr][c - dc] if (r - dr, c - dc) in kept else HOLE for c in range(width))
        for r in range(height)
    )
    stars = tuple(sorted((r + dr, c + dc) for r, c in (entered[i] for i in firsts[:cut])))
    return Level(rows, stars, (start[0] + dr, start[1] + dc), facing, slots, paints, name)
