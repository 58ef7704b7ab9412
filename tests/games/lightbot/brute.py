"""Unpruned enumeration of Light-Bot programs, the reference for the solver's tests.

Every program text of up to n commands is run: every string over the seven
commands `F J L R X 1 2`, cut into main, f1 and f2 in every way the slot limits
allow. Nothing is skipped, not even programs that plainly equal others.

The interpreter here is a plain one, independent of the solver (its moves are
the game's own Level.move, tabulated here, not the solver's vectorised table):
X commands are executed (no algebra), and a run that can never win is recognised by a
repeated control state (position, facing, lights, procedure, pc) at a stack
height not below the earlier one, with the stack never lower in between (the
argument of gridbot.games.lightbot.run). It is compiled with numba because
there are millions of programs; tests/games/lightbot/test_solver.py checks it against
gridbot.games.lightbot.run on random programs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridbot.games.lightbot import LIMITS, Level

SLOTS = 13  # a body has at most 12 commands: pc is 0..12
F, J, L, R, X, CALL1, CALL2 = range(7)


@njit(cache=True)
def wins(mv, light, full, start, facing, body, blen, memo, run_id):  # pragma: no cover - compiled
    """Does the program (bodies as rows of command numbers) win? Exact: repeats prove it never will."""
    seen, at, order, heights, stack = memo[0], memo[1], memo[2], memo[3], memo[4]
    pos = start
    lit = 0
    proc = 0
    pc = 0
    h = 0
    nrec = 0
    lights = full + 1
    while True:
        if pc == blen[proc]:
            if h == 0:
                return False
            h -= 1
            proc = stack[2 * h]
            pc = stack[2 * h + 1]
            while nrec > 0 and heights[nrec - 1] > h:
                nrec -= 1
            continue
        c = (((pos * 4 + facing) * lights + lit) * 3 + proc) * SLOTS + pc
        if seen[c] == run_id and at[c] < nrec and order[at[c]] == c:
            return False  # everything since then repeats for ever, one level deeper each time
        seen[c] = run_id
        at[c] = nrec
        order[nrec] = c
        heights[nrec] = h
        nrec += 1
        op = body[proc, pc]
        pc += 1
        if op <= J:  # F or J
            pos = mv[pos, facing, op]
        elif op == L:
            facing = (facing + 3) % 4
        elif op == R:
            facing = (facing + 1) % 4
        elif op == X:
            if light[pos] >= 0:
                lit ^= 1 << light[pos]
                if lit == full:
                    return True
        else:
            stack[2 * h] = proc
            stack[2 * h + 1] = pc
            h += 1
            proc = op - 4
            pc = 0


@njit(cache=True)
def decode(code, n, a, b, body):  # pragma: no cover - compiled
    """Program number `code` of n commands (base 7 over FJLRX12, first command lowest) into `body`: main its first
    a commands, f1 the next b, f2 the rest."""
    rest = code
    for i in range(n):
        op = rest % 7
        rest //= 7
        if i < a:
            body[0, i] = op
        elif i < a + b:
            body[1, i - a] = op
        else:
            body[2, i - a - b] = op


@njit(cache=True)
def _first_winning_length(mv, light, full, start, facing, max_length, limits, memo):  # pragma: no cover - compiled
    body = np.zeros((3, SLOTS), np.int64)
    blen = np.zeros(3, np.int64)
    run_id = 0
    for total in range(max_length + 1):
        for a in range(min(total, limits[0]) + 1):
            for b in range(min(total - a, limits[1]) + 1):
                c = total - a - b
                if c > limits[2]:
                    continue
                blen[0] = a
                blen[1] = b
                blen[2] = c
                for code in range(7**total):
                    decode(code, total, a, b, body)
                    run_id += 1
                    if wins(mv, light, full, start, facing, body, blen, memo, run_id):
                        return total
    return -1


def board_arrays(level: Level) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """`mv[pos, facing, 0 or 1]` (where F or J ends, by Level.move), `light`, `full`, start and facing. O(cells)."""
    h, w = len(level.heights), len(level.heights[0])
    mv = np.zeros((h * w, 4, 2), np.int64)
    for r in range(h):
        for c in range(w):
            for f in range(4):
                for k, op in enumerate("FJ"):
                    tr, tc = level.move((r, c), f, op)
                    mv[r * w + c, f, k] = tr * w + tc
    light = np.full(h * w, -1, np.int64)
    for i, (r, c) in enumerate(level.lights):
        light[r * w + c] = i
    return mv, light, (1 << len(level.lights)) - 1, level.start[0] * w + level.start[1], int(level.facing)


def memo_for(level: Level) -> np.ndarray:
    """Scratch arrays for `wins`, sized for every control state of the level."""
    controls = len(level.heights) * len(level.heights[0]) * 4 * (1 << len(level.lights)) * 3 * SLOTS
    return np.zeros((5, 2 * controls + 2), np.int64)


def minimum(level: Level, max_length: int, limits: tuple[int, int, int] | None = None) -> int | None:
    """The fewest commands of a winning program with at most `max_length`, trying every program text, each body
    within `limits` (main, f1, f2; None: the game's LIMITS).

    O(7^n * n^2) runs for n = max_length.
    """
    if not level.lights:
        return 0
    mv, light, full, start, facing = board_arrays(level)
    most = (LIMITS["main"], LIMITS["f1"], LIMITS["f2"]) if limits is None else limits
    found = _first_winning_length(mv, light, full, start, facing, max_length, np.array(most, np.int64), memo_for(level))
    return None if found < 0 else int(found)


def program_wins(level: Level, text: str) -> bool:
    """Run one program with this interpreter (for the tests that check it against the game's own)."""
    from gridbot.games.lightbot import parse_program

    program = parse_program(text)
    mv, light, full, start, facing = board_arrays(level)
    body = np.zeros((3, SLOTS), np.int64)
    blen = np.zeros(3, np.int64)
    for p, part in enumerate((program.main, program.f1, program.f2)):
        blen[p] = len(part)
        for i, ch in enumerate(part):
            body[p, i] = "FJLRX12".index(ch)
    return bool(wins(mv, light, full, start, facing, body, blen, memo_for(level), 1))
