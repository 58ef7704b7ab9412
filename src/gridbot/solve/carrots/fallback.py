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


def _py_tour(level: Level, marked: bytearray) -> tuple[bytes, int, bytearray]:
    """`_tour` by the kernel's plain-Python twin on lists (`kern.tour.py_func`): used until the kernels are loaded
    (loading them takes about a second). O(squares)."""
    seen, out = bytearray(level.size), bytearray(6 * level.size)
    stacks = ([0] * level.size for _ in range(3))
    length, unreached = kern.tour.py_func(
        level.hops, level.start, level.start_state[1], marked, marked.count(0), seen, out, *stacks
    )
    return bytes(out[:length]), unreached, seen


def _kernel_tour(level: Level, marked: bytearray) -> tuple[bytes, int, bytearray]:
    """`_tour` by the compiled kernel."""
    seen = np.zeros(level.size, np.uint8)
    out = np.empty(6 * level.size, np.uint8)
    stacks = np.empty((3, level.size), np.int64)
    length, unreached = kern.tour(
        _hops_array(level), level.start, level.start_state[1], np.frombuffer(marked, np.uint8), marked.count(0),
        seen, out, *stacks,
    )  # fmt: skip
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
