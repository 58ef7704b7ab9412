"""Reference implementations of the Carrots kernels (gridbot.kernels.carrots), written apart from them.

Each is a different program for what a kernel computes (numpy over whole rows, Python sets and lists where the
kernel walks arrays by hand), so that a test comparing the two checks the kernel's meaning, not only that its
compiled and plain runs agree (tests/structure/test_kernels.py checks that).
"""

from __future__ import annotations

import numpy as np


def fingerprints(ends, vis, r1, r2):
    """fingerprints: the hash of each fragment's row, as numpy sums (wrapping as the kernel's uint64 does)."""
    with np.errstate(over="ignore"):
        return ((ends.astype(np.uint64) + np.uint64(1)) * r1).sum(axis=1, dtype=np.uint64) + (vis * r2).sum(
            axis=(1, 2), dtype=np.uint64
        )


def loop_powers(ends, vis, k):
    """loop_powers: the list of distinct (ends, vis) rows of LOOP(n){k}, n = 1, 2, ..."""
    rows: list[tuple[np.ndarray, np.ndarray]] = []
    e, v = ends[k].copy(), vis[k].copy()
    while not any(np.array_equal(e, e2) and np.array_equal(v, v2) for e2, v2 in rows):
        rows.append((e, v))
        e, v = ends[k][e], v | vis[k][e]
    return rows


def trajectory(ends, vis, k, s0):
    """trajectory: (states, cumulative marks as uint64 rows, mu, lam), by a dict of the states met."""
    states, marks, where = [s0], [np.zeros(vis.shape[2], np.uint64)], {}
    s = s0
    while s not in where:
        where[s] = len(states) - 1
        marks.append(marks[-1] | vis[k, s])
        s = int(ends[k, s])
        states.append(s)
    mu = where[s]
    return states, marks, mu, len(states) - 1 - mu


def pair_covers(ye, yv, yks, ge, gv, gks, s0, base, goal):
    """pair_covers: each pair's loop iterated, with a set of the states met, until a state repeats."""
    out = np.zeros(len(yks), np.int8)
    for i, (y, g) in enumerate(zip(yks, gks, strict=True)):
        acc, s, seen = base.copy(), s0, set()
        while s not in seen:
            seen.add(s)
            mid = int(ye[y, s])
            acc |= yv[y, s]
            if g >= 0:
                acc |= gv[g, mid]
                mid = int(ge[g, mid])
            s = mid
        out[i] = int(np.array_equal(acc, goal))
    return out


def first_cover(vis, states, marks, goal):
    """first_cover: every fragment compared at once, numpy over the rows."""
    out = np.full(len(states), -1, np.int64)
    for i, s in enumerate(states):
        hits = np.nonzero(((vis[:, s, :] | marks[i]) == goal).all(axis=1))[0]
        if len(hits):
            out[i] = hits[0]
    return out


def loop_children(ends, vis, s0, base):
    """loop_children, as a list of (body, count, state, marks)."""
    out = []
    for k in range(ends.shape[0]):
        states, marks, mu, lam = trajectory(ends, vis, k, s0)
        for n in range(2, mu):
            out.append((k, n, states[n], base | marks[n]))
        for n in range(max(2, mu + lam), mu + 2 * lam):
            out.append((k, n, states[mu + (n - mu) % lam], base | marks[mu + lam]))
    return out


def map_entries(fp_keys, fp_rows) -> dict[int, int]:
    """The entries of the kernels' fingerprint map (map_put, map_move) as a dict {fingerprint: row}."""
    return {int(k): int(r) for k, r in zip(fp_keys, fp_rows, strict=True) if r >= 0}
