"""The answers when the proof gives none: the depth-first tour (plain Python, and the compiled twin) and the greedy
program from the tables."""

from __future__ import annotations

import re
import time

import numpy as np

from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Program, Statement
from gridbot.kernels import carrots as kern
from gridbot.solve.carrots.tables import PRIMS, FragmentTables, _bitset, _hops_array

_TURN_THEN_F = (b"\x00", b"\x02\x00", b"\x02\x02\x00", b"\x01\x00")  # by (heading - facing) % 4: F, R F, R R F, L F


def _py_tour(level: Level, marked: bytearray) -> tuple[bytes, int, bytearray]:
    """A depth-first tour of the squares joined to the start, as move codes (0 F, 1 L, 2 R).

    From each square the headings are tried in order 0..3 and the tour comes
    back the way it went; iterative (an explicit stack), so any board size.
    It stops as soon as every square not in `marked` (one byte per square) is
    reached, and the codes end with the F onto the last of them. Returns
    (codes, unreached, seen): `unreached` counts the squares to mark that the
    tour could not reach (not 0: the level has no solution), `seen` has a 1 per
    square reached. Plain Python, the twin of kern.tour: used until the
    kernels are loaded (loading them takes about a second). O(squares).
    """
    hops = level.hops
    seen = bytearray(level.size)
    left = marked.count(0)
    seen[level.start] = 1
    facing = level.start_state[1]
    codes = bytearray()
    cut = 0
    # the square being left is known by `tried`, the hop index 4 x square + heading last tried from it; the stack
    # holds, per square on the way back, tried << 2 | the heading it was entered by (ints: cheaper than tuples)
    tried, came = 4 * level.start - 1, 0
    stop = tried + 5
    stack: list[int] = []
    while left:
        i = tried + 1
        while i < stop and seen[hops[i]]:
            i += 1
        if i < stop:
            nxt = hops[i]
            seen[nxt] = 1
            heading = i & 3
            codes += _TURN_THEN_F[(heading - facing) & 3]
            facing = heading
            if not marked[nxt]:
                left -= 1
                cut = len(codes)
            stack.append(i << 2 | came)
            tried, came = 4 * nxt - 1, heading
            stop = tried + 5
        elif stack:
            back = (came + 2) & 3
            codes += _TURN_THEN_F[(back - facing) & 3]
            facing = back
            top = stack.pop()
            tried, came = top >> 2, top & 3
            stop = (tried | 3) + 1
        else:
            break
    return bytes(codes[:cut]), left, seen


def _kernel_tour(level: Level, marked: bytearray) -> tuple[bytes, int, bytearray]:
    """`_tour` by the compiled kernel."""
    seen = np.zeros(level.size, np.uint8)
    out = np.empty(6 * level.size, np.uint8)
    length, unreached = kern.tour(
        _hops_array(level), level.start, level.start_state[1], np.frombuffer(marked, np.uint8), seen, out
    )
    return out[:length].tobytes(), int(unreached), bytearray(seen.tobytes())


def _program_of_moves(codes: bytes | bytearray) -> Program:
    """Move codes (0 F, 1 L, 2 R) as a program, each run of three or more F written LOOP(n){F}: the same moves, so
    the same run, in fewer tokens. O(len(codes))."""
    moves = [MOVES[op] for op in PRIMS]
    forward = (moves[0],)
    loops: dict[int, Loop] = {}  # one value per count: a big board's walk has tens of thousands of runs
    body: list[Statement] = []
    done = 0
    for run in re.finditer(rb"\x00{3,}", codes):
        body.extend(map(moves.__getitem__, codes[done : run.start()]))
        count = run.end() - run.start()
        if count not in loops:
            loops[count] = Loop(forward, count)
        body.append(loops[count])
        done = run.end()
    body.extend(map(moves.__getitem__, codes[done:]))
    return Program(tuple(body))


def greedy(
    tables: FragmentTables, s0: int, marks: np.ndarray, max_steps: int | None = None, deadline: float | None = None
) -> Program | None:
    """A program built by repeatedly appending the table fragment that marks most new squares per token.

    A quick upper bound for when the proof runs out of time; None if a step
    finds no fragment that marks anything new (or no tables are built), after
    `max_steps` steps (default: one per square), or once time.monotonic()
    passes `deadline`. O(steps x (fragments x words + squares)).
    """
    goal = _bitset(tables.level.goal, tables.W)
    body: list[Statement] = []
    s, marks = s0, marks.copy()
    for _ in range(tables.level.size + 1 if max_steps is None else max_steps):
        if np.array_equal(marks, goal):
            return Program(tuple(body))
        if deadline is not None and time.monotonic() > deadline:
            return None
        best: tuple[float, int, int] | None = None
        for cost, t in tables.tables.items():
            if not len(t):
                continue
            gain = np.bitwise_count(t.vis[:, s, :] & ~marks).sum(axis=1)
            k = int(np.argmax(gain))
            if gain[k] and (best is None or gain[k] / cost > best[0]):
                best = (gain[k] / cost, cost, k)
        if best is None:  # nothing near marks anything new: walk to the nearest unmarked square
            moves = _to_nearest_unmarked(tables.level, s, marks)
            if not moves:
                return None
            state = (s // 4, s % 4)
            for op in moves:
                body.append(MOVES[op])
                state = carrots.step(tables.level, state, op)
                marks[state[0] // 64] |= np.uint64(1) << np.uint64(state[0] % 64)
            s = 4 * state[0] + state[1]
            continue
        _, cost, k = best
        t = tables.tables[cost]
        body.extend(tables.fragment(cost, k))
        marks |= t.vis[k, s]
        s = int(t.ends[k, s])
    return None


def _to_nearest_unmarked(level: Level, s: int, marks: np.ndarray) -> str:
    """Moves (F, L, R) of a shortest hop path from state s to the nearest unmarked square; '' if none. O(squares)."""
    start = s // 4
    back: dict[int, tuple[int, int]] = {start: (start, -1)}
    todo = [start]
    for sq in todo:
        if not int(marks[sq // 64]) >> (sq % 64) & 1:
            headings = []
            while sq != start:
                sq, heading = back[sq]
                headings.append(heading)
            facing, moves = s % 4, ""
            for want in reversed(headings):
                moves += {0: "", 1: "R", 2: "RR", 3: "L"}[(want - facing) % 4] + "F"
                facing = want
            return moves
        for heading in range(4):
            nxt = level.hop(sq, heading)
            if nxt not in back:
                back[nxt] = (sq, heading)
                todo.append(nxt)
    return ""
