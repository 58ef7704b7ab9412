"""Compiled hot loops of the Carrots uniqueness check (gridbot.solve.carrots.unique; each kernel's twin is
`kernel.py_func`).

Data layout. A fragment's *row*, for each of the S = 4 x squares states s (state = 4 x square + facing): `ends[s]`
(int32, the state after running it from s), `vis[s, w]` (uint64 words of the bitset of squares hopped on), `hi[s]`
(int32, the latest place in the known marking order B of a square hopped on; -1 for none) and `th[s]` (int32, the
*threshold*: run from s when the first i squares of B are marked, exactly those, the fragment marks new squares in
B's order, with B's facings, iff i >= th[s]). The store holds rows in `ends[r]`, `vis[r]`, `hi[r]`, `th[r]`, with
`prov[:, r]` = (kind, p1, p2): 0 a command (p1 its index in "FLR"), 1 LOOP(p2){row p1}, 2 row p1 (a statement)
then row p2. `marks_at[i]` is the bitset of the squares marked once the first i squares of B are (those marked at
the start included); `goal` all squares.

Two maps find rows by fingerprint (open addressing over `keys` (uint64) and `rows` (int64, -1 empty), a power of two
long and never more than half full): the *mark map* by (ends, vis), the *row map* by (ends, vis, th). A probe goes
on past equal fingerprints whose rows differ, so that no row is taken for another on a fingerprint alone.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel
from gridbot.kernels.carrots import _row_hash as _mark_hash  # the solver's hash of (ends, marks): one place

# what a search kernel's call returns first: it met a program with another order of marking, or it did not
NONE, WITNESS = 0, 1

# ------------------------------------------------------------------ rows


@kernel
def _row_hash(mh, t, r3):  # pragma: no cover - compiled
    h = mh
    for s in range(t.shape[0]):
        h += np.uint64(t[s] + 2) * r3[s]
    return h


@kernel
def _same_marks(e1, v1, e2, v2):  # pragma: no cover - compiled
    for s in range(e1.shape[0]):
        if e1[s] != e2[s]:
            return False
        for w in range(v1.shape[1]):
            if v1[s, w] != v2[s, w]:
                return False
    return True


@kernel
def _same_th(t1, t2):  # pragma: no cover - compiled
    for s in range(t1.shape[0]):  # noqa: SIM110 - numba compiles this loop, not all() over a generator
        if t1[s] != t2[s]:
            return False
    return True


@kernel
def _then(hi_f, th_f, th_g):  # pragma: no cover - compiled
    """The threshold of f then g from one state: f agrees from its threshold on and leaves B's first hi_f + 1 squares
    marked (or as many as there were), g agrees from th_g on. O(1)."""
    if hi_f + 1 >= th_g:
        return th_f
    return max(th_f, th_g)


# ------------------------------------------------------------------ the maps


@kernel
def _find_marks(keys, rows, h, e, v, ends, vis):  # pragma: no cover - compiled
    """The row of the mark map with the mark function (e, v), or -(the free slot) - 1 where it would go."""
    mask = keys.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while rows[i] >= 0:
        r = rows[i]
        if keys[i] == h and _same_marks(ends[r], vis[r], e, v):
            return r
        i = (i + 1) & mask
    return -i - 1


@kernel
def _find_row(keys, rows, h, e, v, t, ends, vis, th):  # pragma: no cover - compiled
    """The row of the row map equal to (e, v, t), or -(the free slot) - 1 where it would go."""
    mask = keys.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while rows[i] >= 0:
        r = rows[i]
        if keys[i] == h and _same_th(th[r], t) and _same_marks(ends[r], vis[r], e, v):
            return r
        i = (i + 1) & mask
    return -i - 1


@kernel
def rehash(old_keys, old_rows, keys, rows):  # pragma: no cover - compiled
    """Every entry of an old map into a new, empty, longer one. O(old length)."""
    mask = keys.shape[0] - 1
    for j in range(old_keys.shape[0]):
        if old_rows[j] >= 0:
            i = np.int64(old_keys[j] & np.uint64(mask))
            while rows[i] >= 0:
                i = (i + 1) & mask
            keys[i] = old_keys[j]
            rows[i] = old_rows[j]


@kernel
def admit(
    e, v, hh, t, cost, kind, p1, p2, ends, vis, hi, th, prov, costs, n_rows, mkeys, mrows, rkeys, rrows, r1, r2, r3
):  # pragma: no cover - compiled
    """Store the candidate row (e, v, hh, t) of `cost` tokens at n_rows, with its provenance (kind, p1, p2), unless a
    fragment of fewer tokens has its mark function (such a fragment is in no program of the par that wins: the
    cheaper one in its place would win sooner) or the store has the same row already. Returns the rows stored
    after it (n_rows or n_rows + 1). O(S x W) and the probes."""
    mh = _mark_hash(e, v, r1, r2)
    found = _find_marks(mkeys, mrows, mh, e, v, ends, vis)
    if found >= 0 and costs[found] < cost:
        return n_rows
    rh = _row_hash(mh, t, r3)
    slot = _find_row(rkeys, rrows, rh, e, v, t, ends, vis, th)
    if slot >= 0:
        return n_rows
    for s in range(e.shape[0]):
        ends[n_rows, s] = e[s]
        hi[n_rows, s] = hh[s]
        th[n_rows, s] = t[s]
        for w in range(v.shape[1]):
            vis[n_rows, s, w] = v[s, w]
    prov[0, n_rows] = kind
    prov[1, n_rows] = p1
    prov[2, n_rows] = p2
    costs[n_rows] = cost
    rkeys[-slot - 1] = rh
    rrows[-slot - 1] = n_rows
    if found < 0:
        mkeys[-found - 1] = mh
        mrows[-found - 1] = n_rows
    return n_rows + 1


# ------------------------------------------------------------------ building the tables


@kernel
def build_sequences(
    ends, vis, hi, th, prov, costs, n_rows, cost, first_lo, first_hi, rest_lo, rest_hi, i_from, i_to,
    mkeys, mrows, rkeys, rrows, r1, r2, r3, ce, cv, ch, ct,
):  # fmt: skip  # pragma: no cover - compiled
    """Admit the candidates i_from..i_to-1 of `x then g` (see admit), x = first_lo + i // m a statement, g = rest_lo
    + i % m a fragment, m = rest_hi - rest_lo; ce, cv, ch, ct are a scratch row. The caller leaves room for
    i_to - i_from rows. Returns the rows stored after. O((i_to - i_from) x S x W)."""
    m = rest_hi - rest_lo
    for i in range(i_from, i_to):
        x = first_lo + i // m
        g = rest_lo + i % m
        for s in range(ends.shape[1]):
            mid = ends[x, s]
            ce[s] = ends[g, mid]
            ch[s] = max(hi[x, s], hi[g, mid])
            ct[s] = _then(hi[x, s], th[x, s], th[g, mid])
            for w in range(vis.shape[2]):
                cv[s, w] = vis[x, s, w] | vis[g, mid, w]
        n_rows = admit(ce, cv, ch, ct, cost, 2, x, g, ends, vis, hi, th, prov, costs, n_rows, mkeys, mrows, rkeys,
                       rrows, r1, r2, r3)  # fmt: skip
    return n_rows


@kernel
def loop_powers(ends, vis, hi, th, body, r1, r2, r3, pe, pv, ph, pt, hashes):  # pragma: no cover - compiled
    """The rows of LOOP(n){body}, n = 1, 2, ..., into pe, pv, ph, pt until the n-th equals an earlier one (the
    powers cycle from there, so every count is one of them). Returns n, the number of distinct powers, or -1 when
    the buffers are too short. O(n x (S x W + n))."""
    limit = pe.shape[0]
    n = 0
    while n < limit:
        for s in range(ends.shape[1]):
            if n == 0:
                pe[0, s] = ends[body, s]
                ph[0, s] = hi[body, s]
                pt[0, s] = th[body, s]
                for w in range(vis.shape[2]):
                    pv[0, s, w] = vis[body, s, w]
            else:
                mid = pe[n - 1, s]
                pe[n, s] = ends[body, mid]
                ph[n, s] = max(ph[n - 1, s], hi[body, mid])
                pt[n, s] = _then(ph[n - 1, s], pt[n - 1, s], th[body, mid])
                for w in range(vis.shape[2]):
                    pv[n, s, w] = pv[n - 1, s, w] | vis[body, mid, w]
        h = _row_hash(_mark_hash(pe[n], pv[n], r1, r2), pt[n], r3)
        hashes[n] = h
        for j in range(n):
            if hashes[j] == h and _same_th(pt[j], pt[n]) and _same_marks(pe[j], pv[j], pe[n], pv[n]):
                return n
        n += 1
    return -1


@kernel
def build_loops(
    ends, vis, hi, th, prov, costs, n_rows, cost, b_from, b_to, mkeys, mrows, rkeys, rrows, r1, r2, r3,
    pe, pv, ph, pt, hashes,
):  # fmt: skip  # pragma: no cover - compiled
    """Admit LOOP(k){body} for the bodies b_from..b_to-1 and every count k up to the first repeat of its powers (see
    loop_powers and admit), while the store has room for all of a body's powers and the maps stay at most half
    full. Returns (next body, rows stored after, code): code 0 done, 1 the power buffers are too short for the
    next body, 2 the store or the maps need room first."""
    for b in range(b_from, b_to):
        n = loop_powers(ends, vis, hi, th, b, r1, r2, r3, pe, pv, ph, pt, hashes)
        if n < 0:
            return b, n_rows, 1
        if n_rows + n > ends.shape[0] or 2 * (n_rows + n) > rkeys.shape[0]:
            return b, n_rows, 2
        for k in range(n):
            n_rows = admit(pe[k], pv[k], ph[k], pt[k], cost, 1, b, k + 1, ends, vis, hi, th, prov, costs, n_rows,
                           mkeys, mrows, rkeys, rrows, r1, r2, r3)  # fmt: skip
    return b_to, n_rows, 0


# ------------------------------------------------------------------ the search

# A point of the top-level search: the state s and either `dev` 0 with `i` squares of B marked (exactly those: the
# run so far has marked them in B's order) or `dev` 1 with the marks `m` of a run that has left B's order.


@kernel
def _apply(ends, vis, hi, th, marks_at, r, s, dev, i, m):  # pragma: no cover - compiled
    """Row r run from the point (s, dev, i, m): m is updated in place; returns (state, dev, i) after. O(W)."""
    if dev == 0:
        if i < th[r, s]:
            for w in range(m.shape[0]):
                m[w] = marks_at[i, w] | vis[r, s, w]
            return ends[r, s], 1, i
        i = max(i, hi[r, s] + 1)
        for w in range(m.shape[0]):
            m[w] = marks_at[i, w]
        return ends[r, s], 0, i
    for w in range(m.shape[0]):
        m[w] |= vis[r, s, w]
    return ends[r, s], 1, i


@kernel
def _full(m, goal):  # pragma: no cover - compiled
    for w in range(m.shape[0]):  # noqa: SIM110 - numba compiles this loop
        if m[w] != goal[w]:
            return False
    return True


@kernel
def _finisher(vis, th, marks_at, goal, f_lo, f_hi, s, dev, i, m):  # pragma: no cover - compiled
    """The first row of f_lo..f_hi-1 that, run from the point, completes the board out of B's order (f_lo == f_hi:
    the point itself must be complete and out of order: returns f_lo then), or -1. O((f_hi - f_lo) x W)."""
    if f_lo == f_hi:
        return f_lo if dev == 1 and _full(m, goal) else -1
    for f in range(f_lo, f_hi):
        if dev == 0 and th[f, s] <= i:
            continue
        base = m if dev == 1 else marks_at[i]
        full = True
        for w in range(m.shape[0]):
            if base[w] | vis[f, s, w] != goal[w]:
                full = False
                break
        if full:
            return f
    return -1


@kernel
def statements_then(
    ends, vis, hi, th, marks_at, goal, x_lo, x_hi, f_lo, f_hi, s, dev, i, m, scratch, out
):  # pragma: no cover - compiled
    """Statements x_lo..x_hi-1 from the point (s, dev, i, m), each followed by a finisher of f_lo..f_hi-1 (see
    _finisher). On a witness writes (x, finisher) to out and returns WITNESS, else NONE. O((x_hi - x_lo) x
    (f_hi - f_lo + 1) x W)."""
    for x in range(x_lo, x_hi):
        for w in range(m.shape[0]):
            scratch[w] = m[w]
        s2, dev2, i2 = _apply(ends, vis, hi, th, marks_at, x, s, dev, i, scratch)
        f = _finisher(vis, th, marks_at, goal, f_lo, f_hi, s2, dev2, i2, scratch)
        if f >= 0:
            out[0] = x
            out[1] = f
            return WITNESS
    return NONE


@kernel
def loops_then(
    ends, vis, hi, th, marks_at, goal, b_lo, b_hi, f_lo, f_hi, s, dev, i, m, seen, visited, scratch, out
):  # pragma: no cover - compiled
    """LOOP(n){body} for the bodies b_lo..b_hi-1 and every count n, from the point (s, dev, i, m), each followed by
    a finisher of f_lo..f_hi-1 (see _finisher). From the point the iteration states s_0, s_1, ... first repeat at
    s_k = s_j; a pass round the cycle after that marks nothing new, so the counts 1..k + (k - j) - 1 give every
    point the loop can leave. `seen` (S entries of -1) and `visited` (S + 1 entries) are scratch, `seen` left as it
    was. On a witness writes (body, count, finisher) to out and returns WITNESS, else NONE."""
    for b in range(b_lo, b_hi):
        for w in range(m.shape[0]):
            scratch[w] = m[w]
        s2, dev2, i2 = s, dev, i
        n = 0
        kept = 0  # entries of `seen` set, states s_0 .. s_{kept-1}
        last = -1  # the last count to try, once the states repeat
        found = -1
        while True:
            if last < 0:
                if seen[s2] >= 0:
                    last = 2 * n - seen[s2] - 1
                else:
                    seen[s2] = n
                    visited[kept] = s2
                    kept += 1
            if 0 <= last <= n:
                break
            s2, dev2, i2 = _apply(ends, vis, hi, th, marks_at, b, s2, dev2, i2, scratch)
            n += 1
            found = _finisher(vis, th, marks_at, goal, f_lo, f_hi, s2, dev2, i2, scratch)
            if found >= 0:
                break
        for j in range(kept):
            seen[visited[j]] = -1
        if found >= 0:
            out[0] = b
            out[1] = n
            out[2] = found
            return WITNESS
    return NONE


@kernel
def pairs_then(
    ends, vis, hi, th, marks_at, goal, y_lo, y_hi, g_lo, g_hi, s, dev, i, m, seen, visited, scratch, out
):  # pragma: no cover - compiled
    """The programs LOOP(n){y g}, y a statement of y_lo..y_hi-1 and g a fragment of g_lo..g_hi-1, from the point
    (s, dev, i, m): does one complete the board out of B's order? The marks only grow with n, so the count at which
    the body's start states first repeat (k) is tried. On a witness writes (y, g, k) to out and returns WITNESS,
    else NONE. O(pairs x S x W) at most."""
    for y in range(y_lo, y_hi):
        for g in range(g_lo, g_hi):
            for w in range(m.shape[0]):
                scratch[w] = m[w]
            s2, dev2, i2 = s, dev, i
            n = 0
            while seen[s2] < 0:
                seen[s2] = n
                visited[n] = s2
                s2, dev2, i2 = _apply(ends, vis, hi, th, marks_at, y, s2, dev2, i2, scratch)
                s2, dev2, i2 = _apply(ends, vis, hi, th, marks_at, g, s2, dev2, i2, scratch)
                n += 1
            for j in range(n):
                seen[visited[j]] = -1
            if dev2 == 1 and _full(scratch, goal):
                out[0] = y
                out[1] = g
                out[2] = n
                return WITNESS
    return NONE
