"""An unpruned brute force for Carrots, the reference the solver is checked against.

It considers every program text up to a length: every arrangement of F, L, R
and loops, every count 1..N and the unbounded loop, with no canonical forms and
no merging of equal behaviours. Programs are evaluated as functions on all
(square, facing) states held in numpy arrays, so that sub-programs shared by
many programs are computed once; `evaluate` applies the same functions to one
program, and the tests check it against the simulator (`carrots.run`).
"""

from __future__ import annotations

import numpy as np

from gridbot.games.carrots import Level, Loop, Move, Program, step

# A function table: ends (k, S+1) int64 and vis (k, S+1) uint64 (bit i = square i).
# Row index S is "never returns" (after an unbounded loop): it maps to itself, marks nothing.


def primitives(level: Level) -> tuple[np.ndarray, np.ndarray]:
    S = 4 * level.size
    ends = np.empty((3, S + 1), np.int64)
    vis = np.zeros((3, S + 1), np.uint64)
    for k, op in enumerate("FLR"):
        for s in range(S):
            q, f = step(level, (s // 4, s % 4), op)
            ends[k, s] = 4 * q + f
            vis[k, s] = np.uint64(1 << q) if op == "F" else np.uint64(0)
        ends[k, S] = S
    return ends, vis


def identity(S: int) -> tuple[np.ndarray, np.ndarray]:
    return np.arange(S + 1, dtype=np.int64)[None, :], np.zeros((1, S + 1), np.uint64)


def then(first: tuple[np.ndarray, np.ndarray], rest: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Every `first` row followed by every `rest` row (|first| x |rest| rows)."""
    fe, fv = first
    re_, rv = rest
    ends = re_[:, fe].transpose(1, 0, 2).reshape(-1, fe.shape[1])
    vis = (fv[:, None, :] | rv[:, fe].transpose(1, 0, 2)).reshape(-1, fe.shape[1])
    return ends, vis


def loops(body: tuple[np.ndarray, np.ndarray], counts: int, only: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """LOOP(n){b} for n = 1..counts, then LOOP{b}, for every body row b.

    With `only`, just the column of that start state (shape (rows, 1)).
    """
    be, bv = body
    k, width = be.shape
    S = width - 1
    rows = np.arange(k)[:, None]
    cur_e = np.tile(np.arange(width), (k, 1)) if only is None else np.full((k, 1), only)
    cur_v = np.zeros(cur_e.shape, np.uint64)
    out_e, out_v = [], []
    for n in range(1, max(counts, S + 1) + 1):
        cur_v = cur_v | bv[rows, cur_e]
        cur_e = be[rows, cur_e]
        if n <= counts:
            out_e.append(cur_e.copy())
            out_v.append(cur_v.copy())
    # after S iterations every state's orbit has repeated: the marks are those of running forever
    out_e.append(np.full(cur_e.shape, S, np.int64))
    out_v.append(cur_v)
    return np.concatenate(out_e), np.concatenate(out_v)


def power(f: tuple[np.ndarray, np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """f run n times (one row), by repeated squaring: O(log n) compositions."""
    result = identity(f[0].shape[1] - 1)
    while n:
        if n & 1:
            result = then(result, f)
        f = then(f, f)
        n >>= 1
    return result


def evaluate(level: Level, program: Program) -> tuple[int, int]:
    """(end state or S for never, marks) of one program from the start, by the same functions."""
    S = 4 * level.size
    prim = primitives(level)

    def seq(stmts) -> tuple[np.ndarray, np.ndarray]:
        acc = identity(S)
        for st in reversed(stmts):
            acc = then(single(st), acc)
        return acc

    def single(st) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(st, Move):
            k = "FLR".index(st.op)
            return prim[0][k : k + 1], prim[1][k : k + 1]
        assert isinstance(st, Loop)
        if st.is_noop:
            return identity(S)
        body = seq(st.body)
        if st.count is None:  # 2^k >= S iterations reach every state's cycle: the marks of running forever
            e, v = power(body, 1 << S.bit_length())
            return np.full_like(e, S), v
        return power(body, st.count)

    e, v = seq(program.body)
    s0 = 4 * level.start + 1
    return int(e[0, s0]), int(v[0, s0])


def completes(level: Level, marks: int) -> bool:
    return (marks | level.initial_marks | 1 << level.start) == level.goal


def minimum(level: Level, max_length: int, counts: int) -> int | None:
    """The fewest tokens of a program that completes `level`, if at most `max_length`, else None."""
    S = 4 * level.size
    s0 = 4 * level.start + 1
    start_marks = np.uint64(level.initial_marks | 1 << level.start)
    goal = np.uint64(level.goal)
    if start_marks == goal:
        return 0
    seqs = {0: identity(S)}
    stmts = {1: primitives(level)}
    for length in range(1, max_length + 1):
        # a program of exactly `length` tokens: a first statement of cost c, then any rest
        for c in range(1, length):
            fe, fv = stmts[c]
            re_, rv = seqs[length - c]
            marks = fv[:, s0][:, None] | rv[:, fe[:, s0]].T | start_marks
            if (marks == goal).any():
                return length
        whole = stmts[1][1][:, s0] if length == 1 else loops(seqs[length - 1], counts, only=s0)[1][:, 0]
        if ((whole | start_marks) == goal).any():
            return length
        if length < max_length:
            if length >= 2:
                stmts[length] = loops(seqs[length - 1], counts)
            parts = [then(stmts[c], seqs[length - c]) for c in range(1, length + 1)]
            seqs[length] = (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
    return None
