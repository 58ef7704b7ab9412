"""Every winning Light-Bot and RoboZZle program of one length, by plain enumeration (no cuts), for the tests of the
exact behaviour counts (tests/design/test_behaviours.py).

The programs are enumerated and run by the tests' own interpreters, compiled (tests/games/lightbot/brute.py and
tests/games/robozzle/brute.py: written from the rules, independently of the solvers and of the simulators); the
winners are handed back as program values, so that their behaviours are read by the game's simulator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridbot.games import lightbot, robozzle
from tests.games.lightbot import brute as lb
from tests.games.robozzle import brute as rz

LB_OPS = "FJLRX12"
MOST = 200_000  # winners one enumeration hands back at most (more: the test asks a smaller length)


@njit(cache=True)
def _lightbot_winners(mv, light, full, start, facing, n, a, b, memo, out):  # pragma: no cover - compiled
    """The codes (base 7, first command lowest) of every program of n commands, main a and f1 b of them, that
    wins; returns how many (out holds them, up to its size; -1 when there are more)."""
    body = np.zeros((3, lb.SLOTS), np.int64)
    blen = np.zeros(3, np.int64)
    blen[0], blen[1], blen[2] = a, b, n - a - b
    found = 0
    for code in range(7**n):
        lb.decode(code, n, a, b, body)
        if lb.wins(mv, light, full, start, facing, body, blen, memo, code + 1):  # a fresh run id each
            if found == out.shape[0]:
                return -1
            out[found] = code
            found += 1
    return found


def lightbot_winners(level: lightbot.Level, n: int) -> list[lightbot.Program]:
    """Every program of exactly n commands (main, f1 and f2 within their limits) that wins `level`."""
    mv, light, full, start, facing = lb.board_arrays(level)
    memo = lb.memo_for(level)
    out = np.zeros(MOST, np.int64)
    limits = lightbot.LIMITS
    found: list[lightbot.Program] = []
    for a in range(min(n, limits["main"]) + 1):
        for b in range(min(n - a, limits["f1"]) + 1):
            if n - a - b > limits["f2"]:
                continue
            count = _lightbot_winners(mv, light, full, start, facing, n, a, b, memo, out)
            if count < 0:
                raise AssertionError(f"more than {MOST} winners of {n} commands")
            for code in out[:count]:
                rest, word = int(code), []
                for _ in range(n):
                    word.append(LB_OPS[rest % 7])
                    rest //= 7
                text = "".join(word)
                found.append(lightbot.Program(text[:a], text[a : a + b], text[a + b :]))
    return found


@njit(cache=True)
def _robozzle_winners(colour, star, r0, c0, facing0, stars, choice_ops, choice_conds, counts, out):  # pragma: no cover
    """Every filling of the slots (`counts` per function) that wins, as rows of choice numbers in `out`; returns
    how many (-1 when `out` is too small)."""
    n = counts.sum()
    k = len(choice_ops)
    ops = np.zeros((5, 10), np.int64)
    conds = np.zeros((5, 10), np.int64)
    digits = np.zeros(max(n, 1), np.int64)
    found = 0
    while True:
        rz.fill(digits, choice_ops, choice_conds, counts, ops, conds)
        if rz._wins(colour, star, r0, c0, facing0, stars, ops, conds, counts):
            if found == out.shape[0]:
                return -1
            out[found, :n] = digits[:n]
            found += 1
        if not rz.advance(digits, n, k):
            return found


def robozzle_winners(level: robozzle.Level, n: int) -> list[robozzle.Program]:
    """Every program of exactly n occupied slots (every command the puzzle allows, every condition) that wins."""
    board = rz._board(level)
    choices = rz.slot_choices(level)
    op_code = {"F": 0, "L": 1, "R": 2, **{str(g + 1): 3 + g for g in range(5)}, "PR": 8, "PG": 9, "PB": 10}
    choice_ops = np.array([op_code[ch.op] for ch in choices], np.int64)
    choice_conds = np.array([robozzle.COLOURS.index(ch.cond) if ch.cond else -1 for ch in choices], np.int64)
    out = np.zeros((MOST, max(n, 1)), np.int64)
    found: list[robozzle.Program] = []
    for counts in rz.splits(level, n):
        count = _robozzle_winners(*board, choice_ops, choice_conds, np.array(counts, np.int64), out)
        if count < 0:
            raise AssertionError(f"more than {MOST} winners of {n} slots")
        for row in out[:count]:
            bodies, k = [], 0
            for size in counts:
                bodies.append(tuple(choices[int(d)] for d in row[k : k + size]))
                k += size
            found.append(robozzle.Program(tuple(bodies)))
    return found
