"""Unpruned enumeration of every RoboZZle program, for checking the solver's cuts (tests only).

Every program of n occupied slots is tried: each slot any command the puzzle allows, with any condition (none or
one of the three colours), each split of n over the functions. The interpreter here is written afresh from the
rules (GAMES.md section 7), plainly, without the solver's laziness or the simulator's shortcuts, and compiled so
that every program up to 4 or 5 slots can be tried: (commands x 4) ** n programs per split.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
from numba import njit

from gridbot.games import robozzle
from gridbot.games.robozzle import COLOURS, FUNCTIONS, Command, Level, Program

ACTIONS, STACK = 1000, 1024


def slot_choices(level: Level) -> list[Command]:
    """Every command a slot of `level` can hold, with every condition (none and the three colours)."""
    ops = ["F", "L", "R"] + [str(g + 1) for g in range(FUNCTIONS) if level.slots[g]] + ["P" + c for c in level.paints]
    return [Command(op, cond) for op in ops for cond in ("", *COLOURS)]


def splits(level: Level, n: int) -> Iterator[tuple[int, ...]]:
    """Every way to share n slots among the functions within their slot counts."""
    for counts in itertools.product(*(range(s + 1) for s in level.slots)):
        if sum(counts) == n:
            yield counts


def programs(level: Level, n: int) -> Iterator[Program]:
    """Every program of n occupied slots (as values, for small n)."""
    choices = slot_choices(level)
    for counts in splits(level, n):
        for filled in itertools.product(choices, repeat=n):
            bodies, k = [], 0
            for count in counts:
                bodies.append(tuple(filled[k : k + count]))
                k += count
            yield Program(tuple(bodies))


def _board(level: Level) -> tuple[np.ndarray, np.ndarray, int, int, int, int]:
    colour = np.full((level.height, level.width), -1, np.int64)
    star = np.zeros((level.height, level.width), np.int64)
    for r, row in enumerate(level.colours):
        for c, ch in enumerate(row):
            if ch in COLOURS:
                colour[r, c] = COLOURS.index(ch)
    for r, c in level.stars:
        star[r, c] = 1
    return colour, star, level.start[0], level.start[1], int(level.facing), len(level.stars)


@njit(cache=True)
def _wins(colour0, star0, r0, c0, facing0, stars, ops, conds, lengths) -> bool:
    """Run one program by the rules: ops 0 F, 1 L, 2 R, 3+g call g, 8+c paint c; conds -1 none or a colour."""
    colour = colour0.copy()
    star = star0.copy()
    h, w = colour.shape
    r, c, facing, left = r0, c0, facing0, stars
    stack_f = np.zeros(STACK, np.int64)
    stack_pc = np.zeros(STACK, np.int64)
    sp, f, pc, actions = 0, 0, 0, 0
    while True:
        if pc >= lengths[f]:
            if sp == 0:
                return False
            sp -= 1
            f, pc = stack_f[sp], stack_pc[sp]
            continue
        o, cond = ops[f, pc], conds[f, pc]
        pc += 1
        if cond >= 0 and colour[r, c] != cond:
            continue
        if 3 <= o < 8:
            if sp == STACK:
                return False
            stack_f[sp], stack_pc[sp] = f, pc
            sp += 1
            f, pc = o - 3, 0
            continue
        actions += 1
        if o == 0:
            dr = -1 if facing == 0 else (1 if facing == 2 else 0)
            dc = 1 if facing == 1 else (-1 if facing == 3 else 0)
            r, c = r + dr, c + dc
            if r < 0 or r >= h or c < 0 or c >= w or colour[r, c] < 0:
                return False
            if star[r, c]:
                star[r, c] = 0
                left -= 1
                if left == 0:
                    return True
        elif o == 1:
            facing = (facing + 3) % 4
        elif o == 2:
            facing = (facing + 1) % 4
        else:
            colour[r, c] = o - 8
        if actions == ACTIONS:
            return False


@njit(cache=True)
def fill(digits, choice_ops, choice_conds, counts, ops, conds):  # pragma: no cover - compiled
    """The program whose slots, function by function, hold the choices numbered `digits`, into ops and conds."""
    j = 0
    for f in range(5):
        for i in range(counts[f]):
            ops[f, i] = choice_ops[digits[j]]
            conds[f, i] = choice_conds[digits[j]]
            j += 1


@njit(cache=True)
def advance(digits, n, k) -> bool:  # pragma: no cover - compiled
    """The next filling (digits counted up in base k, first digit lowest); False after the last one."""
    j = 0
    while j < n and digits[j] == k - 1:
        digits[j] = 0
        j += 1
    if j >= n:
        return False
    digits[j] += 1
    return True


@njit(cache=True)
def _any_wins(colour, star, r0, c0, facing0, stars, choice_ops, choice_conds, counts) -> bool:
    """Does any program with `counts` commands per function win? Tries every filling of the slots."""
    n = counts.sum()
    k = len(choice_ops)
    ops = np.zeros((5, 10), np.int64)
    conds = np.zeros((5, 10), np.int64)
    digits = np.zeros(max(n, 1), np.int64)
    while True:
        fill(digits, choice_ops, choice_conds, counts, ops, conds)
        if _wins(colour, star, r0, c0, facing0, stars, ops, conds, counts):
            return True
        if not advance(digits, n, k):
            return False


def minimum(level: Level, max_size: int, conds: str = COLOURS) -> int | None:
    """The fewest occupied slots of a winning program with at most `max_size` whose conditions name only colours
    in `conds` (default: any), or None."""
    board = _board(level)
    # a condition on a colour on no tile and in no paint never holds, so its command never runs: the program
    # without that slot runs the same with one slot fewer, and leaving such choices out keeps the fewest slots
    seen = {ch for row in level.colours for ch in row} | set(level.paints)
    choices = [ch for ch in slot_choices(level) if not ch.cond or (ch.cond in conds and ch.cond in seen)]
    op_code = {"F": 0, "L": 1, "R": 2, **{str(g + 1): 3 + g for g in range(5)}, "PR": 8, "PG": 9, "PB": 10}
    choice_ops = np.array([op_code[ch.op] for ch in choices], np.int64)
    choice_conds = np.array([COLOURS.index(ch.cond) if ch.cond else -1 for ch in choices], np.int64)
    for n in range(1, max_size + 1):
        for counts in splits(level, n):
            if _any_wins(*board, choice_ops, choice_conds, np.array(counts, np.int64)):
                return n
    return None


def wins(level: Level, program: Program) -> bool:
    """This interpreter's verdict on one program (to check it against the game's simulator)."""
    op_code = {"F": 0, "L": 1, "R": 2, **{str(g + 1): 3 + g for g in range(5)}, "PR": 8, "PG": 9, "PB": 10}
    ops = np.zeros((5, 10), np.int64)
    conds = np.zeros((5, 10), np.int64)
    for f, body in enumerate(program.functions):
        for i, command in enumerate(body):
            ops[f, i] = op_code[command.op]
            conds[f, i] = COLOURS.index(command.cond) if command.cond else -1
    lengths = np.array([len(body) for body in program.functions], np.int64)
    return bool(_wins(*_board(level), ops, conds, lengths))


__all__ = ["minimum", "programs", "robozzle", "wins"]
