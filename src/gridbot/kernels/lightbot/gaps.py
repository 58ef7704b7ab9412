"""The Light-Bot win check: could X commands in the walk's gaps light every light now?

Toggling is addition mod 2, so the question is linear algebra over GF(2): is the all-lights vector a sum of at
most `b` of the gaps' vectors (which lights each gap has passed an odd number of times), each body within its
limit? `win_with` asks it only of the sets that hold a gap whose vector has just changed; `win_blink` asks
whether `X X` in the gap control is at, with single X commands elsewhere, wins between its two X commands.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel
from gridbot.kernels.lightbot.layout import GAPS_PER_BODY


@kernel
def _popcount(x):  # pragma: no cover - compiled
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@kernel
def _fits(chosen, gidx, wlen, lim, b, forced, extra):  # pragma: no cover - compiled
    """Do X commands at the chosen gaps (bits over gidx) fit: at most b of them, each body within its limit?

    `forced` is the body of `extra` more X commands that are chosen already (counted in neither), or -1.
    """
    if _popcount(chosen) > b:
        return False
    per0 = extra if forced == 0 else 0
    per1 = extra if forced == 1 else 0
    per2 = extra if forced == 2 else 0
    i = 0
    while chosen:
        if chosen & 1:
            body = gidx[i] // GAPS_PER_BODY
            if body == 0:
                per0 += 1
            elif body == 1:
                per1 += 1
            else:
                per2 += 1
        chosen >>= 1
        i += 1
    return wlen[0] + per0 <= lim[0] and wlen[1] + per1 <= lim[1] and wlen[2] + per2 <= lim[2]


@kernel
def win_gaps(vec, wlen, lim, b, full, work):  # pragma: no cover - compiled
    """Gaps whose X commands light every light now: a mask over gap numbers, or -1 if there is none.

    A set S of gaps works when the XOR of their vectors is `full`, |S| <= b and
    each body keeps within its limit. See _solve_gaps.
    """
    return _solve_gaps(vec, wlen, lim, b, full, -1, 0, work)


@kernel
def win_with(g, vec, wlen, lim, b, full, work):  # pragma: no cover - compiled
    """Like win_gaps, but only the sets that contain gap g: the new wins when g's vector has just changed.

    Every other gap's vector is as it was at the last moment checked (with as
    large a budget and as loose limits), so a set without g would have won
    then. With one X left this is one comparison, with two a scan of the
    gaps; only larger budgets need the elimination. O(1), O(gaps) or O(gaps^2).
    """
    p = g // GAPS_PER_BODY
    if b < 1 or wlen[p] + 1 > lim[p]:
        return np.int64(-1)
    target = full ^ vec[g]
    if target == 0:
        return np.int64(1) << g
    if b == 1:
        return np.int64(-1)
    if b == 2:
        for q in range(3):
            if wlen[q] + 1 + (1 if q == p else 0) > lim[q]:
                continue
            for k in range(wlen[q] + 1):
                h = q * GAPS_PER_BODY + k
                if h != g and vec[h] == target:
                    return (np.int64(1) << g) | (np.int64(1) << h)
        return np.int64(-1)
    rest = _solve_gaps(vec, wlen, lim, b - 1, target, g, 1, work)
    if rest < 0:
        return np.int64(-1)
    return rest | (np.int64(1) << g)


@kernel
def win_blink(g, li, vec, wlen, lim, b, full, work):  # pragma: no cover - compiled
    """Gaps whose single X commands, with `X X` in gap g (a blink), light every light between g's two X now,
    the robot on light li: a mask over gap numbers (g not among them), or -1 if there is none.

    The blink toggles light li and back at every pass, so it adds nothing to
    the lights except for the look between its two X commands: the other
    gaps must light every light but li, and leave li off. An X alone in g
    does that too when g's vector is li alone (then win_with has answered);
    otherwise this is the full system, with b - 2 X commands. O(1) for b <= 2, else O(gaps^2).
    """
    p = g // GAPS_PER_BODY
    here = np.int64(1) << li
    if b < 2 or wlen[p] + 2 > lim[p] or vec[g] == here:
        return np.int64(-1)
    target = full ^ here
    if target == 0:
        return np.int64(0)
    if b == 2:  # no X left for the other lights
        return np.int64(-1)
    return _solve_gaps(vec, wlen, lim, b - 2, target, g, 2, work)


@kernel
def _solve_gaps(vec, wlen, lim, b, target, forced, extra, work):  # pragma: no cover - compiled
    """A set of at most b gaps, not `forced`, whose vectors XOR to `target`, fitting the limits with `extra`
    more X commands in the forced gap's body: a mask over gap numbers, or -1.

    Gaussian elimination finds one solution x0 and the null space; the
    solutions are x0 plus the null space's span, enumerated in Gray-code order
    when the null space has at most 20 dimensions, else all sets of at most b
    gaps are tried. O(n^2) for the elimination (n <= 39 gaps that passed a
    light), plus the enumeration.
    """
    gv, gidx, piv, bv, bc, null = work[0], work[1], work[2], work[3], work[4], work[5]
    fbody = forced // GAPS_PER_BODY if forced >= 0 else -1
    n = 0
    union = np.int64(0)
    for p in range(3):
        for k in range(wlen[p] + 1):
            g = p * GAPS_PER_BODY + k
            v = vec[g]
            if v != 0 and g != forced:
                gv[n] = v
                gidx[n] = g
                n += 1
                union |= v
    if union & target != target:
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
    t = target
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
            if _fits(cur, gidx, wlen, lim, b, fbody, extra):
                chosen = cur
                break
    else:  # every set of at most b of the n gaps, smallest first
        idx = work[6]
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
                if acc == target and _fits(mask, gidx, wlen, lim, b, fbody, extra):
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
