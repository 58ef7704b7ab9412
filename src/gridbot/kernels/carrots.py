"""Compiled hot loops of the Carrots solver (gridbot.kernels.kernel: each one's twin is `kernel.py_func`).

Data layout shared by every kernel: a *fragment table* holds, for k fragments and
S = 4 x squares states (state = 4 x square + facing), `ends[k, s]` (int32, the
state after running fragment k from s) and `vis[k, s, w]` (uint64 words of the
bitset of squares landed on meanwhile). tests/games/carrots/reference.py computes the
same things another way; the tests compare the two on random tables.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel

# ------------------------------------------------------------------ fingerprints


@kernel(allocates=True)
def fingerprints(ends, vis, r1, r2):  # pragma: no cover - compiled
    """A 64-bit hash per fragment (row); equal fragments hash equally. O(k x S x W)."""
    k, s_count = ends.shape
    w_count = vis.shape[2]
    out = np.zeros(k, np.uint64)
    for i in range(k):
        h = np.uint64(0)
        for s in range(s_count):
            h += np.uint64(ends[i, s] + 1) * r1[s]
            for w in range(w_count):
                h += vis[i, s, w] * r2[s, w]
        out[i] = h
    return out


# ------------------------------------------------------------------ loop powers


@kernel
def power_rows(ends, vis, k, r1, r2, out_e, out_v, out_h, n, budget):  # pragma: no cover - compiled
    """Continue listing the distinct behaviours of LOOP(n){fragment k}, n = 1, 2, ..., for at most `budget` rows.

    On entry out_e[:n], out_v[:n] hold the first n powers, known distinct (n
    may be 0), and out_h[:n] their fingerprints. Each step writes power n + 1
    to row n and compares it with the earlier rows (fingerprint first, then
    exactly). Returns (n, status, rows written): status 0 finished (row n
    repeats an earlier power, so the powers cycle from there and the n rows
    cover every count), 1 budget spent (call again with this n), -1 buffers
    full (n == their length: grow them, keeping the rows, and call again).
    O(budget x (S x W + n)).
    """
    s_count = ends.shape[1]
    w_count = vis.shape[2]
    limit = out_e.shape[0]
    used = 0
    while True:
        if used >= budget:
            return n, 1, used
        if n == 0:
            for s in range(s_count):
                out_e[0, s] = ends[k, s]
                for w in range(w_count):
                    out_v[0, s, w] = vis[k, s, w]
        else:
            for s in range(s_count):
                mid = out_e[n - 1, s]
                out_e[n, s] = ends[k, mid]
                for w in range(w_count):
                    out_v[n, s, w] = out_v[n - 1, s, w] | vis[k, mid, w]
        used += 1
        h = np.uint64(0)
        for s in range(s_count):
            h += np.uint64(out_e[n, s] + 1) * r1[s]
            for w in range(w_count):
                h += out_v[n, s, w] * r2[s, w]
        out_h[n] = h
        for j in range(n):
            if out_h[j] == h and _same_row(out_e[j], out_e[n]) and _same_marks(out_v[j], out_v[n]):
                return n, 0, used
        n += 1
        if n == limit:
            return n, -1, used


@kernel
def loop_powers(ends, vis, k, r1, r2, out_e, out_v, out_h):  # pragma: no cover - compiled
    """All distinct behaviours of LOOP(n){fragment k}, n = 1, 2, ..., in one go (see power_rows).

    Writes the n-th power's table row to out_e[n-1], out_v[n-1] and returns the
    number of distinct powers: the iteration stops at the first n whose whole
    behaviour (every state's end and marks) equals an earlier power's, after
    which the powers repeat periodically, so every count is covered. Returns
    -1 if the buffers are too short.
    """
    n, status, _ = power_rows(ends, vis, k, r1, r2, out_e, out_v, out_h, 0, out_e.shape[0] + 1)
    return n if status == 0 else -1


# ------------------------------------------------------------------ orbits


@kernel
def trajectory(ends, vis, k, s0, seen, out_s, out_v):  # pragma: no cover - compiled
    """Iterate fragment k from state s0 until a state repeats.

    out_s[i] is the state after i iterations and out_v[i] the squares marked by
    them; returns (mu, lam): out_s[mu + lam] == out_s[mu], all earlier distinct.
    `seen` is a scratch array of -1 of length S (left as it was found).
    O(mu + lam) <= O(S).
    """
    w_count = vis.shape[2]
    s = s0
    n = 0
    out_s[0] = s0
    for w in range(w_count):
        out_v[0, w] = 0
    while seen[s] < 0:
        seen[s] = n
        for w in range(w_count):
            out_v[n + 1, w] = out_v[n, w] | vis[k, s, w]
        s = ends[k, s]
        n += 1
        out_s[n] = s
    mu = seen[s]
    for i in range(n):
        seen[out_s[i]] = -1
    return mu, n - mu


@kernel(allocates=True)
def pair_covers(ye, yv, yks, ge, gv, gks, s0, base, goal, seen, scratch):  # pragma: no cover - compiled
    """For each pair i, does LOOP{y[yks[i]] g[gks[i]]} started at s0 mark every square?

    `base` is the marks before the loop, `goal` the full board. A negative gks[i]
    means the body is y alone. Returns an int8 array (1 = covers). Each pair costs
    O(S) at most: its iteration states repeat within S steps, after which no new
    square is marked.
    """
    w_count = yv.shape[2]
    n_pairs = yks.shape[0]
    out = np.zeros(n_pairs, np.int8)
    acc = np.zeros(w_count, np.uint64)
    for i in range(n_pairs):
        y = yks[i]
        g = gks[i]
        for w in range(w_count):
            acc[w] = base[w]
        s = s0
        n = 0
        hit = False
        while seen[s] < 0:
            seen[s] = 1
            scratch[n] = s
            n += 1
            mid = ye[y, s]
            if g >= 0:
                nxt = ge[g, mid]
                for w in range(w_count):
                    acc[w] |= yv[y, s, w] | gv[g, mid, w]
            else:
                nxt = mid
                for w in range(w_count):
                    acc[w] |= yv[y, s, w]
            full = True
            for w in range(w_count):
                if acc[w] != goal[w]:
                    full = False
                    break
            if full:
                hit = True
                break
            s = nxt
        for j in range(n):
            seen[scratch[j]] = -1
        if hit:
            out[i] = 1
    return out


@kernel(allocates=True)
def first_cover(vis, states, marks, goal):  # pragma: no cover - compiled
    """For each (states[i], marks[i]): the first fragment k with vis[k, s] | marks == goal, or -1.

    O(len(states) x k x W) in the worst case.
    """
    w_count = vis.shape[2]
    out = np.full(states.shape[0], -1, np.int64)
    for i in range(states.shape[0]):
        s = states[i]
        for k in range(vis.shape[0]):
            full = True
            for w in range(w_count):
                if vis[k, s, w] | marks[i, w] != goal[w]:
                    full = False
                    break
            if full:
                out[i] = k
                break
    return out


@kernel
def _count_children(mu, lam):  # pragma: no cover - compiled
    return max(0, mu - 2) + (mu + 2 * lam - max(2, mu + lam))


@kernel(allocates=True)
def loop_children(ends, vis, s0, base, seen, traj_s, traj_v, max_total):  # pragma: no cover - compiled
    """Every non-dominated outcome of LOOP(n){k}, n >= 2, run once from s0, for the first fragments k.

    Returns (fragments done, body, count, state, marks): fragments 0, 1, ...
    are taken while their outcomes number at most `max_total` in all (always
    at least one fragment), so that the output's size stays bounded. From s0
    the iteration states are s_0 .. s_{mu+lam-1} then repeat; for n >= mu + lam
    the marks are complete, so n in [mu, mu+lam) is dominated by n + lam (same
    end state, superset of marks). Kept: n in [2, mu) and n in
    [max(2, mu+lam), mu+2*lam).
    """
    nb = ends.shape[0]
    w_count = vis.shape[2]
    total = 0
    done = 0
    for k in range(nb):
        mu, lam = trajectory(ends, vis, k, s0, seen, traj_s, traj_v)
        more = _count_children(mu, lam)
        if k > 0 and total + more > max_total:
            break
        total += more
        done = k + 1
    body = np.empty(total, np.int64)
    count = np.empty(total, np.int64)
    state = np.empty(total, np.int64)
    marks = np.empty((total, w_count), np.uint64)
    i = 0
    for k in range(done):
        mu, lam = trajectory(ends, vis, k, s0, seen, traj_s, traj_v)
        for n in range(2, mu):
            body[i] = k
            count[i] = n
            state[i] = traj_s[n]
            for w in range(w_count):
                marks[i, w] = base[w] | traj_v[n, w]
            i += 1
        for n in range(max(2, mu + lam), mu + 2 * lam):
            body[i] = k
            count[i] = n
            state[i] = traj_s[mu + (n - mu) % lam]
            for w in range(w_count):
                marks[i, w] = base[w] | traj_v[mu + lam, w]
            i += 1
    return done, body, count, state, marks


# ------------------------------------------------------------------ the fingerprint map

# The store's rows are found by fingerprint through an open-addressing hash map held in two arrays: `fp_keys`
# (uint64 fingerprints) and `fp_rows` (int64 row numbers, -1 for an empty slot), their length a power of two at
# least twice the store's capacity, so that probes stay short and a free slot always exists. Plain arrays (not a
# numba typed dict): they load with the cached kernels instead of compiling in every process, and their size is
# known for the memory budget.


def map_slots(capacity: int) -> int:
    """The map length for a store of `capacity` rows: the least power of two >= 2 x capacity. O(1)."""
    return 1 << max(4, (2 * capacity - 1).bit_length())


@kernel
def map_slot(fp_keys, fp_rows, h):  # pragma: no cover - compiled
    """The slot holding fingerprint h, or the empty slot where it would go (linear probing). O(probe length)."""
    mask = fp_keys.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while fp_rows[i] >= 0 and fp_keys[i] != h:
        i = (i + 1) & mask
    return i


@kernel
def map_get(fp_keys, fp_rows, h):  # pragma: no cover - compiled
    """The row stored under fingerprint h, or -1."""
    return fp_rows[map_slot(fp_keys, fp_rows, h)]


@kernel
def map_put(fp_keys, fp_rows, h, row):  # pragma: no cover - compiled
    """Store `row` under fingerprint h (replacing what was there)."""
    i = map_slot(fp_keys, fp_rows, h)
    fp_keys[i] = h
    fp_rows[i] = row


@kernel
def map_move(old_keys, old_rows, fp_keys, fp_rows):  # pragma: no cover - compiled
    """Put every entry of the old map into the new (empty) one. O(old length)."""
    for i in range(old_keys.shape[0]):
        if old_rows[i] >= 0:
            map_put(fp_keys, fp_rows, old_keys[i], old_rows[i])


# ------------------------------------------------------------------ admission into the store


@kernel
def _admit_row(cand_e, cand_v, h, store_e, store_v, n_rows, fp_keys, fp_rows):  # pragma: no cover - compiled
    """0: equal to the stored row with fingerprint h; 1: new, stored at n_rows; 2: same fingerprint, other row."""
    i = map_slot(fp_keys, fp_rows, h)
    row = fp_rows[i]
    if row < 0:
        for s in range(cand_e.shape[0]):  # loops, not slice copies: a slice copy may allocate (see gridbot.kernels)
            store_e[n_rows, s] = cand_e[s]
            for w in range(cand_v.shape[1]):
                store_v[n_rows, s, w] = cand_v[s, w]
        fp_keys[i] = h
        fp_rows[i] = n_rows
        return 1
    if _same_row(store_e[row], cand_e) and _same_marks(store_v[row], cand_v):
        return 0
    return 2


@kernel
def _row_hash(cand_e, cand_v, r1, r2):  # pragma: no cover - compiled
    h = np.uint64(0)
    for s in range(cand_e.shape[0]):
        h += np.uint64(cand_e[s] + 1) * r1[s]
        for w in range(cand_v.shape[1]):
            h += cand_v[s, w] * r2[s, w]
    return h


@kernel
def admit_rows(
    rows_e, rows_v, lo, hi, store_e, store_v, n_rows, fp_keys, fp_rows, r1, r2, status, hashes
):  # pragma: no cover - compiled
    """Admit rows lo..hi-1 of a buffer into the store (status as _admit_row); returns (next row, n_rows)."""
    for i in range(lo, hi):
        if n_rows >= store_e.shape[0]:
            return i, n_rows
        h = _row_hash(rows_e[i], rows_v[i], r1, r2)
        hashes[i] = h
        st = _admit_row(rows_e[i], rows_v[i], h, store_e, store_v, n_rows, fp_keys, fp_rows)
        status[i] = st
        if st == 1:
            n_rows += 1
    return hi, n_rows


@kernel
def _same_row(a, b):  # pragma: no cover - compiled
    for s in range(a.shape[0]):  # noqa: SIM110 - numba compiles this loop, not all() over a generator
        if a[s] != b[s]:
            return False
    return True


@kernel
def _same_marks(a, b):  # pragma: no cover - compiled
    for s in range(a.shape[0]):
        for w in range(a.shape[1]):
            if a[s, w] != b[s, w]:
                return False
    return True


@kernel
def _ends_hash(e, r1):  # pragma: no cover - compiled
    h = np.uint64(0)
    for s in range(e.shape[0]):
        h += np.uint64(e[s] + 1) * r1[s]
    return h


@kernel
def _collide(coll, coll_h, n_coll, kind, p1, p2, p3, h):  # pragma: no cover - compiled
    coll[n_coll, 0] = kind
    coll[n_coll, 1] = p1
    coll[n_coll, 2] = p2
    coll[n_coll, 3] = p3
    coll_h[n_coll] = h
    return n_coll + 1


@kernel
def build_loops(
    store_e,
    store_v,
    prov,
    body_lo,
    k_from,
    n_from,
    a_from,
    body_hi,
    n_rows,
    fp_keys,
    fp_rows,
    r1,
    r2,
    buf_e,
    buf_v,
    buf_h,
    buf_eh,
    keep,
    coll,
    coll_h,
    n_coll,
    max_rows,
):  # pragma: no cover - compiled
    """Admit LOOP(n){k} for bodies k in k_from..body_hi-1 of the store, every undominated count n >= 2.

    For each body: its distinct powers (power_rows); among counts with the
    same end function only the largest is kept (it marks a superset: see
    FragmentTables._build); each kept power is admitted exactly as in
    admit_rows, smallest count first, its provenance (1, body - body_lo,
    count, 0) written to prov. Fingerprint clashes with a different row go to
    `coll` as (kind, p1, p2, p3, hash) for the caller to settle.

    A call handles at most about `max_rows` table rows (power rows computed
    plus rows admitted), so that its time is bounded on any board; it resumes
    where the last one stopped: body k_from, of which n_from powers are in the
    buffers and a_from kept powers are admitted. Returns (body, powers,
    admitted, n_rows, n_coll, code, powers examined) to resume from: code 0
    done, 1 store full, 2 power buffers too short, 3 clash buffer full, 4
    `max_rows` spent.
    """
    cap = store_e.shape[0]
    examined = 0
    budget = max_rows
    n = n_from
    admitted = a_from
    k = k_from
    while k < body_hi:
        if budget <= 0:
            return k, n, admitted, n_rows, n_coll, 4, examined
        # finish the powers (when they are already known, this re-derives one row and sees it repeat)
        n, status, used = power_rows(store_e, store_v, k, r1, r2, buf_e, buf_v, buf_h, n, budget)
        budget -= used
        if status == 1:
            return k, n, admitted, n_rows, n_coll, 4, examined
        if status == -1:
            return k, n, admitted, n_rows, n_coll, 2, examined
        if n_rows + n > cap:
            return k, n, admitted, n_rows, n_coll, 1, examined
        if n_coll + n > coll.shape[0]:
            return k, n, admitted, n_rows, n_coll, 3, examined
        for i in range(n):
            buf_eh[i] = _ends_hash(buf_e[i], r1)
        kept = 0
        for i in range(n - 1, 0, -1):  # count i + 1, largest first
            dominated = False
            for jj in range(kept):
                if buf_eh[keep[jj]] == buf_eh[i] and _same_row(buf_e[keep[jj]], buf_e[i]):
                    dominated = True
                    break
            if not dominated:
                keep[kept] = i
                kept += 1
        first = admitted
        while admitted < kept:  # smallest count first; at least one per call, so that resuming always progresses
            if budget <= 0 and admitted > first:
                return k, n, admitted, n_rows, n_coll, 4, examined
            i = keep[kept - 1 - admitted]
            st = _admit_row(buf_e[i], buf_v[i], buf_h[i], store_e, store_v, n_rows, fp_keys, fp_rows)
            if st == 1:
                prov[0, n_rows] = 1
                prov[1, n_rows] = k - body_lo
                prov[2, n_rows] = i + 1
                prov[3, n_rows] = 0
                n_rows += 1
            elif st == 2:
                n_coll = _collide(coll, coll_h, n_coll, 1, k - body_lo, i + 1, 0, buf_h[i])
            admitted += 1
            budget -= 1
        examined += n - 1
        n = 0
        admitted = 0
        k += 1
    return body_hi, 0, 0, n_rows, n_coll, 0, examined


@kernel
def build_sequences(
    store_e,
    store_v,
    prov,
    a,
    first_lo,
    rest_lo,
    rest_hi,
    i_from,
    i_to,
    n_rows,
    fp_keys,
    fp_rows,
    r1,
    r2,
    cand_e,
    cand_v,
    coll,
    coll_h,
    n_coll,
):  # pragma: no cover - compiled
    """Admit the candidates i_from..i_to-1 of `x then g`: candidate i is statement x = first_lo + i // m followed by
    fragment g = rest_lo + i % m of the store, m = rest_hi - rest_lo (x-major order).

    Each candidate is built in the scratch rows, fingerprinted and compared
    exactly with the stored row of equal fingerprint (see _admit_row); new rows
    get provenance (2, a, x - first_lo, g - rest_lo). Returns (next candidate,
    n_rows, n_coll, code): code 0 done, 1 store full, 3 clash buffer full.
    O((i_to - i_from) x S x W).
    """
    s_count = store_e.shape[1]
    w_count = store_v.shape[2]
    m = rest_hi - rest_lo
    for i in range(i_from, i_to):
        if n_rows >= store_e.shape[0]:
            return i, n_rows, n_coll, 1
        if n_coll >= coll.shape[0]:
            return i, n_rows, n_coll, 3
        x = first_lo + i // m
        g = rest_lo + i % m
        for s in range(s_count):
            mid = store_e[x, s]
            cand_e[s] = store_e[g, mid]
            for w in range(w_count):
                cand_v[s, w] = store_v[x, s, w] | store_v[g, mid, w]
        h = _row_hash(cand_e, cand_v, r1, r2)
        st = _admit_row(cand_e, cand_v, h, store_e, store_v, n_rows, fp_keys, fp_rows)
        if st == 1:
            prov[0, n_rows] = 2
            prov[1, n_rows] = a
            prov[2, n_rows] = x - first_lo
            prov[3, n_rows] = g - rest_lo
            n_rows += 1
        elif st == 2:
            n_coll = _collide(coll, coll_h, n_coll, 2, a, x - first_lo, g - rest_lo, h)
    return i_to, n_rows, n_coll, 0


# ------------------------------------------------------------------ the fallback tour


@kernel
def tour(hops, start, facing, marked, left, seen, out, stack_sq, stack_next, stack_came):  # pragma: no cover - compiled
    """A depth-first tour of the squares joined to `start`, as move codes (0 F, 1 L, 2 R) in `out`.

    `hops[4 x square + heading]` is the square F reaches (the same square when
    blocked); `marked[square]` is 1 for squares marked before the start, and
    `left` counts the squares it leaves at 0; `seen` (zeros, one per square)
    gets 1 for each square the tour reaches. From each square the headings are
    tried in order 0..3 and the tour comes back the way it went, iteratively
    (the stacks, one entry per square each: no recursion, so any board size).
    It stops as soon as every square not marked before is reached. Returns
    (length, unreached): out[:length] ends with the F onto the last such
    square, `unreached` counts those it could not reach (not 0: the level has
    no solution). `out` needs 6 x squares entries. O(squares).

    Plain Python on lists and bytearrays too: the solver runs the twin
    (`tour.py_func`) on them until the kernels are loaded, which is why the
    caller counts `left` (bytearray.count) and the turns are written out.
    """
    top = 0
    stack_sq[0] = start
    stack_next[0] = 0
    stack_came[0] = -1
    seen[start] = 1
    if marked[start] == 0:
        left -= 1
    length = 0
    cut = 0
    while left > 0:
        sq = stack_sq[top]
        heading = stack_next[top]
        nxt = -1
        while heading < 4:
            ahead = hops[4 * sq + heading]
            heading += 1
            if seen[ahead] == 0:
                nxt = ahead
                break
        stack_next[top] = heading
        if nxt >= 0:
            seen[nxt] = 1
            to = heading - 1
        else:
            to = (stack_came[top] + 2) & 3  # back the way it came
            top -= 1
            if top < 0:
                break
        turns = (to - facing) & 3  # the turns to that heading (none, R, R R or L), then F
        if turns:
            if turns == 3:
                out[length] = 1
                length += 1
            else:
                out[length] = 2
                length += 1
                if turns == 2:
                    out[length] = 2
                    length += 1
        out[length] = 0
        length += 1
        facing = to
        if nxt >= 0:
            if marked[nxt] == 0:
                left -= 1
                cut = length
            top += 1
            stack_sq[top] = nxt
            stack_next[top] = 0
            stack_came[top] = to
    return cut, left
