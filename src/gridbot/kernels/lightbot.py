"""Compiled hot loop of the Light-Bot solver: a lazy search over X-free walks.

The search (gridbot.solve.lightbot explains why it is exact) decides a program
*without its X commands*, the walk, slot by slot as execution reaches each slot,
and asks at every moment the robot stands on a light: could X commands put in
the walk's gaps have lit every light by now? A gap is a place between two
commands of a body (or at its start or end); an X there fires every time
control passes it. Toggling is addition mod 2, so the question is linear
algebra over GF(2): is the all-lights vector a sum of at most `b` of the gaps'
vectors (which lights each gap has passed an odd number of times)?

Layout shared with the Python side:

- positions are r * width + c; `mv[pos, facing, 0 or 1]` is where F or J ends
  (gridbot.games.lightbot.Level.move, tabulated), `light[pos]` the light's
  index or -1, `full` the mask of every light;
- walk ops 0..5 are F, J, L, R, call f1, call f2; bodies are rows of `wb`
  (main, f1, f2), `wlen` their lengths, `closed` whether a procedure has ended;
- gap k of body p (before its k-th command) is number p * 13 + k;
- the depth-first search keeps its frames in `frames` and its scalars in `sc`,
  so a call can stop after a node budget and the next call resumes it.

Run as plain Python (NUMBA_DISABLE_JIT=1 or `search.py_func`), the kernel gives
the same answers, only slower; the tests compare the two.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# results of search and _simulate
EXHAUSTED, FOUND, PAUSED, BRANCH, FAIL, OVERFLOW = 0, 1, 2, 3, 4, 5

GAPS_PER_BODY = 13  # a body has at most 12 commands, so 13 gaps
N_GAPS = 3 * GAPS_PER_BODY
N_OPTIONS = 7  # close the body, or one of the six walk ops

# the scalars of a search, in `sc`
S_DEPTH, S_NODES, S_STARTED, S_GEN, S_B_PROC, S_B_STEP, S_B_POS, S_B_FACING, S_FOUND_S = range(9)
# a share of the tree for one of several workers: options applied at depth S_SPLIT_DEPTH are dealt
# round-robin (counted in S_SPLIT_COUNT), worker S_WORKER of S_WORKERS keeps its own
S_SPLIT_DEPTH, S_SPLIT_COUNT, S_WORKER, S_WORKERS = range(9, 13)
N_SCALARS = 13

# columns of `frames`: the body branched on, the option tried now (and whether applied), the branch point
F_PROC, F_OPT, F_STEP, F_POS, F_FACING, F_APPLIED = range(6)
N_FRAME = 6


@njit(cache=True)
def _popcount(x):  # pragma: no cover - compiled
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _fits(chosen, gidx, wlen, lim, b):  # pragma: no cover - compiled
    """Do X commands at the chosen gaps (bits over gidx) fit: at most b of them, each body within its limit?"""
    if _popcount(chosen) > b:
        return False
    per = np.zeros(3, np.int64)
    i = 0
    while chosen:
        if chosen & 1:
            per[gidx[i] // GAPS_PER_BODY] += 1
        chosen >>= 1
        i += 1
    for p in range(3):  # noqa: SIM110 - compiled
        if wlen[p] + per[p] > lim[p]:
            return False
    return True


@njit(cache=True)
def win_gaps(vec, wlen, lim, b, full, work):  # pragma: no cover - compiled
    """Gaps whose X commands light every light now: a mask over gap numbers, or -1 if there is none.

    A set S of gaps works when the XOR of their vectors is `full`, |S| <= b and
    each body keeps within its limit. Gaussian elimination finds one solution
    x0 and the null space; the solutions are x0 plus the null space's span,
    enumerated in Gray-code order when the null space has at most 20
    dimensions, else all sets of at most b gaps are tried. O(n^2) for the
    elimination (n <= 39 gaps that passed a light), plus the enumeration.
    """
    gv, gidx, piv, bv, bc, null = work[0], work[1], work[2], work[3], work[4], work[5]
    n = 0
    union = np.int64(0)
    for p in range(3):
        for k in range(wlen[p] + 1):
            g = p * GAPS_PER_BODY + k
            v = vec[g]
            if v != 0:
                gv[n] = v
                gidx[n] = g
                n += 1
                union |= v
    if union != full:
        return np.int64(-1)
    nb = 0
    nnull = 0
    for i in range(n):
        v = gv[i]
        c = np.int64(1) << i
        for j in range(nb):
            if v & piv[j]:
                v ^= bv[j]
                c ^= bc[j]
        if v != 0:
            piv[nb] = v & -v
            bv[nb] = v
            bc[nb] = c
            nb += 1
        else:
            null[nnull] = c
            nnull += 1
    t = full
    x = np.int64(0)
    for j in range(nb):
        if t & piv[j]:
            t ^= bv[j]
            x ^= bc[j]
    if t != 0:
        return np.int64(-1)
    chosen = np.int64(-1)
    if nnull <= 20:
        cur = x
        for it in range(1 << nnull):
            if it > 0:
                bit = 0
                while not (it >> bit) & 1:
                    bit += 1
                cur ^= null[bit]
            if _fits(cur, gidx, wlen, lim, b):
                chosen = cur
                break
    else:  # every set of at most b of the n gaps, smallest first
        idx = np.zeros(64, np.int64)
        for size in range(1, b + 1):
            if size > n or chosen >= 0:
                break
            for i in range(size):
                idx[i] = i
            while True:
                acc = np.int64(0)
                mask = np.int64(0)
                for i in range(size):
                    acc ^= gv[idx[i]]
                    mask |= np.int64(1) << idx[i]
                if acc == full and _fits(mask, gidx, wlen, lim, b):
                    chosen = mask
                    break
                i = size - 1
                while i >= 0 and idx[i] == n - size + i:
                    i -= 1
                if i < 0:
                    break
                idx[i] += 1
                for j in range(i + 1, size):
                    idx[j] = idx[j - 1] + 1
    if chosen < 0:
        return np.int64(-1)
    out = np.int64(0)
    i = 0
    while chosen:
        if chosen & 1:
            out |= np.int64(1) << gidx[i]
        chosen >>= 1
        i += 1
    return out


@njit(cache=True)
def _simulate(
    mv,
    light,
    reach,
    full,
    start_pos,
    start_facing,
    L,
    lim,
    wb,
    wlen,
    closed,
    check_from,
    sc,
    vec,
    seen,
    recs,
    stack,
    work,
):  # pragma: no cover - compiled
    """Run the walk from the start until a win is possible, a dead end, or an undecided slot.

    Returns FOUND (sc[S_FOUND_S] holds the gaps of the X commands), FAIL (main
    ended, or a proven endless run showed no win over two of its periods),
    BRANCH (sc[S_B_*] say where) or OVERFLOW; also FAIL at a branch point when a
    light the robot has never stood on cannot be reached from where it stands
    (`reach[pos]`, the lights reachable by any moves: no future walk gets there,
    and every earlier moment was checked). Win checks run only for moments
    from step `check_from` on: earlier ones were checked by the caller's parent
    with a budget at least as large. O(steps x gaps) plus the win checks.
    """
    gen = sc[S_GEN] + 1
    sc[S_GEN] = gen
    vec[:] = 0
    w = wlen[0] + wlen[1] + wlen[2]
    b = L - w
    pos = start_pos
    facing = start_facing
    proc = 0
    pc = 0
    h = 0
    nrec = 0
    step = 0
    stop_at = -1
    visited = np.int64(0)
    cap = stack.shape[1]
    while True:
        li = light[pos]
        if li >= 0:
            visited |= np.int64(1) << li
            g = proc * GAPS_PER_BODY + pc
            vec[g] ^= np.int64(1) << li
            if step >= check_from:
                s = win_gaps(vec, wlen, lim, b, full, work)
                if s >= 0:
                    sc[S_FOUND_S] = s
                    return FOUND
        if stop_at >= 0:
            if step >= stop_at:
                return FAIL
        else:
            c = ((pos * 4 + facing) * 3 + proc) * GAPS_PER_BODY + pc
            if seen[0, c] == gen:
                # a repeat: from here the walk repeats with this period for ever; lights toggle
                # linearly, so the states of two periods are all the states there will be
                stop_at = step + (step - seen[2, c])
            else:
                seen[0, c] = gen
                seen[1, c] = h
                seen[2, c] = step
                recs[0, nrec] = c
                recs[1, nrec] = h
                nrec += 1
        if pc == wlen[proc]:
            if proc != 0 and closed[proc]:
                h -= 1
                proc = stack[0, h]
                pc = stack[1, h]
                while nrec > 0 and recs[1, nrec - 1] > h:  # the stack went below them: they prove nothing now
                    nrec -= 1
                    seen[0, recs[0, nrec]] = 0
                continue
            if (full & ~visited) & ~reach[pos]:
                return FAIL
            sc[S_B_PROC] = proc
            sc[S_B_STEP] = step
            sc[S_B_POS] = pos
            sc[S_B_FACING] = facing
            return BRANCH
        op = wb[proc, pc]
        pc += 1
        step += 1
        if op <= 1:
            pos = mv[pos, facing, op]
        elif op == 2:
            facing = (facing + 3) % 4
        elif op == 3:
            facing = (facing + 1) % 4
        else:
            if h >= cap:
                return OVERFLOW
            stack[0, h] = proc
            stack[1, h] = pc
            h += 1
            proc = op - 3
            pc = 0


@njit(cache=True)
def _allowed(opt, p, pos, facing, mv, L, lim, wb, wlen):  # pragma: no cover - compiled
    """May option `opt` (0 close, 1 + op) fill the slot at the end of body p? The canonical-form cuts."""
    n = wlen[p]
    if opt == 0:
        return p != 0 and n >= 1  # a called procedure has a walk command (else it is X alone: inline it)
    op = opt - 1
    if n >= lim[p] or wlen[0] + wlen[1] + wlen[2] + 2 > L:  # the walk leaves room for one X at least
        return False
    if op == 2 or op == 3:
        last = wb[p, n - 1] if n >= 1 else -1
        if last == 2 or last == 3:
            if op != last or op == 2:  # LR, RL: nothing; LL: as RR
                return False
            if n >= 2 and wb[p, n - 2] == 3:  # RRR: as L
                return False
    if p == 0 and op <= 1 and mv[pos, facing, op] == pos:  # main runs once: a move that cannot move
        return False
    if op == 5:  # f1 is the first procedure called
        for q in range(3):
            for i in range(wlen[q]):
                if wb[q, i] == 4:
                    return True
        return False
    return True


@njit(cache=True)
def search(
    mv,
    light,
    reach,
    full,
    start_pos,
    start_facing,
    L,
    lim,
    wb,
    wlen,
    closed,
    frames,
    sc,
    vec,
    seen,
    recs,
    stack,
    work,
    budget,
):  # pragma: no cover - compiled
    """Depth-first search for a walk plus X commands of at most L commands that wins.

    Returns FOUND (the program is wb/wlen/closed plus X at the gaps in
    sc[S_FOUND_S]; calling again continues past it), EXHAUSTED (none exists
    under the cuts, which proves none exists), PAUSED (after `budget` more
    nodes; call again to resume) or OVERFLOW. Options are tried in
    the order close, F, J, L, R, call f1, call f2. O(nodes x steps per node).
    """
    stop = sc[S_NODES] + budget
    while True:
        if sc[S_STARTED] == 0:  # the root: nothing to choose yet
            sc[S_STARTED] = 1
            f = -1
            check_from = 0
        else:
            if sc[S_DEPTH] == 0:
                return EXHAUSTED
            if sc[S_NODES] >= stop:
                return PAUSED
            f = sc[S_DEPTH] - 1
            p = frames[f, F_PROC]
            opt = frames[f, F_OPT]  # the option tried now: 0 close, 1 + op
            if opt >= 0 and frames[f, F_APPLIED]:
                if opt == 0:
                    closed[p] = 0
                else:
                    wlen[p] -= 1
            opt += 1
            while opt < N_OPTIONS and not _allowed(opt, p, frames[f, F_POS], frames[f, F_FACING], mv, L, lim, wb, wlen):
                opt += 1
            if opt >= N_OPTIONS:
                frames[f, F_OPT] = -1
                sc[S_DEPTH] = f
                continue
            frames[f, F_OPT] = opt
            if f == sc[S_SPLIT_DEPTH] and sc[S_WORKERS] > 1:
                sc[S_SPLIT_COUNT] += 1
                if sc[S_SPLIT_COUNT] % sc[S_WORKERS] != sc[S_WORKER]:
                    frames[f, F_APPLIED] = 0  # another worker's subtree: skipped, nothing to undo
                    continue
            frames[f, F_APPLIED] = 1
            if opt == 0:
                closed[p] = 1
            else:
                wb[p, wlen[p]] = opt - 1
                wlen[p] += 1
            check_from = frames[f, F_STEP]
        sc[S_NODES] += 1
        r = _simulate(
            mv, light, reach, full, start_pos, start_facing, L, lim, wb, wlen, closed, check_from, sc, vec, seen,
            recs, stack, work,
        )  # fmt: skip
        if r == FOUND or r == OVERFLOW:  # noqa: SIM109 - numba compiles plain comparisons
            return r
        if r == BRANCH:
            d = f + 1
            frames[d, F_PROC] = sc[S_B_PROC]
            frames[d, F_OPT] = -1
            frames[d, F_STEP] = sc[S_B_STEP]
            frames[d, F_POS] = sc[S_B_POS]
            frames[d, F_FACING] = sc[S_B_FACING]
            sc[S_DEPTH] = d + 1
