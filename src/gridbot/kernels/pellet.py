"""Compiled hot loops of the Pellet Eater solver: the pruned depth-first search,
the block-chain test it applies at every node, the plain baseline search, and the
random Hamiltonian path generator of the game server.

Board layout shared by every kernel: the grid is padded with a ring of walls, so
cell r, c (0-based, of a W x H board) is index (r + 1) * (W + 2) + c + 1 and the
four neighbours of i are i + off[k] with off = (-(W + 2), 1, W + 2, -1), the moves
u, r, d, l in that order, and never fall off the array. `free[i]` is 1 for a
pellet not yet eaten (the set U), 0 otherwise (wall, eaten, or the head, which is
where the path is now). `col[i]` is the checkerboard colour (r + c) % 2.

`deg[i]`, for i in U, counts the neighbours of i in U plus the head: the edges a
Hamiltonian path of U + head could still use at i. It is kept up to date by the
search incrementally; a value is frozen while its cell is not in U and is
correct again whenever the cell returns to U (moves are undone in reverse order).

The search keeps all of its state in arrays passed in, so a call can stop after a
node budget and the next call resumes exactly where it stopped: the Python side
checks the clock between calls. Run as plain Python (NUMBA_DISABLE_JIT=1 or
`kernel.py_func`) the kernels give the same answers, only slower.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import EXHAUSTED, FOUND, PAUSED, kernel  # noqa: F401 - the codes, read from here by the solvers

# search results

# block_check reasons (0: no contradiction found)
OK, CUT_OFF, HEAD_CUT, THREE_PARTS, TWO_ENDS, PARITY, DEAD_ENDS = 0, 1, 2, 3, 4, 5, 6

# the scalars of a search, in `sc`
S_DEPTH, S_FREE, S_ONES, S_ZEROS, S_NODES, S_STAMP, S_FRESH, S_CHECKS, S_MASK, S_MEMO, S_FORCED = range(11)
N_SCALARS = 11

# probes of the table of failed positions before giving up on a lookup or an insertion
MEMO_PROBES = 8

# rows of the scratch array of block_check
R_SEEN, R_DISC, R_LOW, R_SIZE, R_BLACK, R_IT, R_PARENT, R_STACK, R_CUT = 0, 1, 2, 3, 4, 5, 6, 7, 8
# rows of forced_check (R_EFF..R_QUEUED; it also uses R_STACK)
R_EFF, R_USED, R_EDGES, R_QUEUED = 9, 10, 11, 12
N_SCRATCH = 13


@kernel
def _path_parity_ok(count, black, col_a, col_b):  # pragma: no cover - compiled
    """Can `count` cells, `black` of colour 1, be a path from a cell of colour col_a?

    col_b is the colour of the fixed last cell, or -1 if the end is free. Along a
    path the colours alternate, so the colour counts are fixed by the length and
    the first colour: a path of odd length has one more cell of the first (and
    last) colour, a path of even length has as many of each (and ends on the
    other colour). O(1).
    """
    same = black if col_a == 1 else count - black  # cells of the first cell's colour
    other = count - same
    if count % 2 == 1:
        return same == other + 1 and (col_b < 0 or col_b == col_a)
    return same == other and (col_b < 0 or col_b != col_a)


@kernel
def block_check(head, free, col, n_free, off, scratch, stamp, info):  # pragma: no cover - compiled
    """Test whether the unvisited cells U can still be covered by a path from `head`.

    Returns OK (0) or the first contradiction found; a non-zero answer is a proof
    that no Hamiltonian path of G = U + head starts at head:

    - CUT_OFF: some cell of U is not connected to the head (the path never gets
      there). info[0] is such a cell.
    - HEAD_CUT: removing the head splits G; the path leaves the head into one part
      and can never come back for the other. info[0], info[1]: a cell of each part.
    - THREE_PARTS: removing a cell v != head leaves three or more parts. The path
      passes v once, so it can be in at most two of them (the head's, then one
      more). info[0] = v.
    - TWO_ENDS: two cut vertices v, w each cut off a part that does not contain the
      other (nor the head). Once the path passes v it stays in v's far part, and
      likewise for w, so both far parts would have to hold the rest of the path.
      info[0] = v, info[1] = w.
    - PARITY: the cut vertices are on one chain head ... v1 ... v2 ... and the path
      must cover, in turn, each segment between consecutive ones, entering it at
      one and leaving at the next (the last segment has a free end). Along a path
      the checkerboard colours alternate, so each segment's colour counts must
      match its length and end colours (see _path_parity_ok). info[0], info[1]:
      the segment's first and last cut vertex (info[1] = -1: free end).

    One iterative Tarjan depth-first search from the head computes, per cell,
    discovery time, low point, subtree size and the number of colour-1 cells in
    the subtree; a child c of v with low[c] >= disc[v] is a part cut off by v.
    For a valid chain those parts are reported deepest first, each nested in the
    next, which is checked as they come. Time and memory O(|U|).

    `scratch` is an int32 array (N_SCRATCH, cells); rows R_SEEN and R_CUT hold
    stamps, so nothing is cleared between calls as long as `stamp` grows.
    """
    seen = scratch[R_SEEN]
    disc = scratch[R_DISC]
    low = scratch[R_LOW]
    size = scratch[R_SIZE]
    black = scratch[R_BLACK]
    it = scratch[R_IT]
    parent = scratch[R_PARENT]
    stk = scratch[R_STACK]
    cutmark = scratch[R_CUT]
    info[0] = -1
    info[1] = -1
    seen[head] = stamp
    disc[head] = 1
    low[head] = 1
    size[head] = 1
    black[head] = col[head]
    it[head] = 0
    parent[head] = -1
    sp = 0
    stk[0] = head
    t = 1
    root_child = -1
    last_p = -1  # the deepest cut vertex so far, and its separated child
    last_c = -1
    while sp >= 0:
        v = stk[sp]
        if it[v] < 4:
            w = v + off[it[v]]
            it[v] += 1
            if free[w] == 0 and w != head:
                continue
            if seen[w] != stamp:
                seen[w] = stamp
                t += 1
                disc[w] = t
                low[w] = t
                size[w] = 1
                black[w] = col[w]
                it[w] = 0
                parent[w] = v
                sp += 1
                stk[sp] = w
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
            continue
        sp -= 1
        if sp < 0:
            break
        p = stk[sp]
        if low[v] < low[p]:
            low[p] = low[v]
        size[p] += size[v]
        black[p] += black[v]
        if p == head:
            if root_child >= 0:
                info[0] = root_child
                info[1] = v
                return HEAD_CUT
            root_child = v
        elif low[v] >= disc[p]:
            # v's subtree is a part of G - p without the head
            if cutmark[p] == stamp:
                info[0] = p
                return THREE_PARTS
            cutmark[p] = stamp
            if last_p < 0:
                # the deepest part: the path ends in it, entered at p
                if not _path_parity_ok(size[v] + 1, black[v] + col[p], col[p], -1):
                    info[0] = p
                    return PARITY
            else:
                # the previous (deeper) cut vertex must lie inside this part
                if not (disc[v] <= disc[last_p] < disc[v] + size[v]):
                    info[0] = p
                    info[1] = last_p
                    return TWO_ENDS
                count = size[v] + 1 - size[last_c]
                nblack = black[v] + col[p] - black[last_c]
                if not _path_parity_ok(count, nblack, col[p], col[last_p]):
                    info[0] = p
                    info[1] = last_p
                    return PARITY
            last_p = p
            last_c = v
    if t != n_free + 1:
        # name one cell the search never reached (only worth a scan when asked)
        if info.shape[0] > 2 and info[2] == 1:
            for i in range(free.shape[0]):
                if free[i] == 1 and seen[i] != stamp:
                    info[0] = i
                    break
        return CUT_OFF
    if last_p < 0:
        if not _path_parity_ok(t, black[head], col[head], -1):
            info[0] = head
            return PARITY
    else:
        count = t - size[last_c]
        nblack = black[head] - black[last_c]
        if not _path_parity_ok(count, nblack, col[head], col[last_p]):
            info[0] = head
            info[1] = last_p
            return PARITY
    return OK


@kernel
def forced_check(head, free, deg, off, scratch, stamp):  # pragma: no cover - compiled
    """Forced-edge propagation once the path's end is known; True unless it proves a dead position.

    Applies when exactly one cell e of U has deg 1 (it can be entered but not
    left, so it is the last cell; with none or two or more this returns True,
    the dead-end counters decide those). A Hamiltonian path P of G = U + head
    from the head to e uses exactly cap(x) edges at each cell x: 1 at the head
    and at e, 2 at every other cell of U. Edges of G start "open" and become
    "forced" (in every such P) or "dead" (in none); the invariant is that this
    holds for every P. For a cell x with `eff` open-or-forced edges and `used`
    forced ones:

    - used > cap or eff < cap: no P exists (returns False);
    - eff == cap: P uses all of x's remaining edges, so each is forced;
    - used == cap: P uses no other edge at x, so every open edge of x is dead.

    Each rule keeps the invariant, so a contradiction is a proof. Every edge
    changes state at most once and a cell is re-examined only when one of its
    edges does, so the work is O(|U|) after an O(cells) scan. Rows R_EFF,
    R_USED, R_EDGES (bits 0-3: edge k dead, bits 4-7: edge k forced),
    R_QUEUED (stamps) and R_STACK of `scratch`.
    """
    eff = scratch[R_EFF]
    used = scratch[R_USED]
    edges = scratch[R_EDGES]
    queued = scratch[R_QUEUED]
    stk = scratch[R_STACK]
    end = -1
    n = free.shape[0]
    for x in range(n):
        if free[x] == 1 and deg[x] == 1:
            if end >= 0:
                return True
            end = x
    if end < 0:
        return True
    sp = 0
    for x in range(n):
        if free[x] == 1 or x == head:
            e = 0
            dead = 0
            for k in range(4):
                y = x + off[k]
                if free[y] == 1 or y == head:
                    e += 1
                else:
                    dead |= 1 << k
            eff[x] = e
            used[x] = 0
            edges[x] = dead
            queued[x] = stamp
            stk[sp] = x
            sp += 1
    while sp > 0:
        sp -= 1
        x = stk[sp]
        queued[x] = 0
        cap = 2 - (x == head) - (x == end)  # 1 at the head and at the end (never the same cell)
        if used[x] > cap or eff[x] < cap:
            return False
        if used[x] == cap and eff[x] > cap:
            for k in range(4):
                if edges[x] & (0x11 << k) == 0:  # open: kill it
                    y = x + off[k]
                    edges[x] |= 1 << k
                    edges[y] |= 1 << ((k + 2) & 3)
                    eff[x] -= 1
                    eff[y] -= 1
                    if queued[y] != stamp:
                        queued[y] = stamp
                        stk[sp] = y
                        sp += 1
        elif eff[x] == cap and used[x] < cap:
            for k in range(4):
                if edges[x] & (0x11 << k) == 0:  # open: force it
                    y = x + off[k]
                    edges[x] |= 16 << k
                    edges[y] |= 16 << ((k + 2) & 3)
                    used[x] += 1
                    used[y] += 1
                    if queued[y] != stamp:
                        queued[y] = stamp
                        stk[sp] = y
                        sp += 1
    return True


@kernel
def root_state(opened, start, off, pellets, free, deg, sc):  # pragma: no cover - compiled
    """Fill (free, deg, sc) of the search's root from the open cells; return the open cells' bounding-box area.

    free: every open cell but S; deg[i] for i in U: its open neighbours (U plus
    the head is every open cell at the root); sc: pellets, dead-end counters,
    FRESH. off[2] is the padded width. The area equals pellets + 1 exactly when
    the open cells fill a rectangle. One pass, O(cells).
    """
    pw = off[2]
    top, bottom, left, right = free.shape[0], -1, pw, -1
    ones = 0
    zeros = 0
    for i in range(free.shape[0]):
        if opened[i] == 1 and i != start:
            free[i] = 1
            d = 0
            for k in range(4):
                d += opened[i + off[k]]
            deg[i] = d
            if d <= 1:
                ones += 1
                if d == 0:
                    zeros += 1
        else:
            free[i] = 0
            deg[i] = 0
        if opened[i] == 1:
            r = i // pw
            c = i % pw
            top = min(top, r)
            bottom = max(bottom, r)
            left = min(left, c)
            right = max(right, c)
    for j in range(sc.shape[0]):
        sc[j] = 0
    sc[S_FREE] = pellets
    sc[S_ONES] = ones
    sc[S_ZEROS] = zeros
    sc[S_FRESH] = 1
    return (bottom - top + 1) * (right - left + 1)


@kernel
def _flood_ok(head, free, off, n_free, scratch, stamp):  # pragma: no cover - compiled
    """The baseline's test: every cell of U is reachable from the head. O(|U|)."""
    seen = scratch[R_SEEN]
    stk = scratch[R_STACK]
    seen[head] = stamp
    sp = 0
    stk[0] = head
    reached = 0
    while sp >= 0:
        v = stk[sp]
        sp -= 1
        for k in range(4):
            w = v + off[k]
            if free[w] == 1 and seen[w] != stamp:
                seen[w] = stamp
                reached += 1
                sp += 1
                stk[sp] = w
    return reached == n_free


@kernel
def _apply(h, n, free, deg, off, sc):  # pragma: no cover - compiled
    """Move the head from h to n: n leaves U, h stops counting for its neighbours. O(1)."""
    free[n] = 0
    sc[S_FREE] -= 1
    if deg[n] <= 1:
        sc[S_ONES] -= 1
    for k in range(4):
        x = h + off[k]
        if free[x] == 1:
            deg[x] -= 1
            if deg[x] == 1:
                sc[S_ONES] += 1
            elif deg[x] == 0:
                sc[S_ZEROS] += 1


@kernel
def _undo(h, n, free, deg, off, sc):  # pragma: no cover - compiled
    """Exactly reverse _apply(h, n). O(1)."""
    for k in range(4):
        x = h + off[k]
        if free[x] == 1:
            if deg[x] == 0:
                sc[S_ZEROS] -= 1
            elif deg[x] == 1:
                sc[S_ONES] -= 1
            deg[x] += 1
    free[n] = 1
    sc[S_FREE] += 1
    if deg[n] <= 1:
        sc[S_ONES] += 1


@kernel
def _memo_slot(mask, head, tkey, thead):  # pragma: no cover - compiled
    """The slot of position (mask, head) in the table: its own, else the first empty one, else -1.

    Open addressing with linear probing over at most MEMO_PROBES slots; the table
    size is a power of two; thead[s] = 0 marks an empty slot (heads are stored + 1).
    """
    size = tkey.shape[0]
    s = (mask ^ (mask >> 13) ^ (mask >> 27) ^ (mask >> 41) ^ (head * 40503)) & (size - 1)
    for _ in range(MEMO_PROBES):
        if thead[s] == 0 or (thead[s] == head + 1 and tkey[s] == mask):
            return s
        s = (s + 1) & (size - 1)
    return -1


@kernel
def search(
    off, free, deg, col, key, sc, path, cand, ncand, cidx, scratch, info, budget, mode, bit, tkey, thead
):  # pragma: no cover - compiled
    """Depth-first search for a Hamiltonian path of U from path[0]; resumable.

    Returns FOUND (path[0..depth] is the answer, depth = sc[S_DEPTH]), EXHAUSTED
    (every branch failed: no path exists) or PAUSED (sc[S_NODES] reached `budget`;
    call again to go on). `mode` 1 is gridbot's search, mode 2 the baseline.

    At every node, in both modes (each rule is a proof that the node has no
    completion, so the search stays complete):

    - dead ends: a cell of U whose deg is 0 can never be entered (sc[S_ZEROS]);
      a cell of U whose deg is 1 can be entered but not left, so it must be the
      path's last cell, and two such cells cannot both be last (sc[S_ONES] > 1).

    Then mode 1 runs block_check (connectivity, a head that cuts, a cut vertex
    with three parts, two parts that each need the end, colour parity of every
    segment) and, when sc[S_FORCED] is 1 and the end is known (one cell of deg
    1), forced_check (forced-edge propagation); mode 2 only checks that U is
    still reachable from the head.

    Move order (Warnsdorff): the neighbour with the fewest onward options (lowest
    deg) first, ties broken by `key` (the caller draws keys from the seed, so a
    restart with new keys explores the same tree in another order). A neighbour
    of deg 1 is entered only as the very last cell: from it there is no way on.

    Memo of failed positions (when the table `tkey`/`thead` is not empty; the
    caller enables it only for boards of at most 64 open cells): a position is
    (visited set, head), the visited set a bitmask sc[S_MASK] of `bit[i]` (one
    bit per open cell). Whether the pellets left can be covered by a path from
    the head depends on nothing else: the move order, the dead-end counters and
    block_check are all functions of that position. So once every child of a
    position has failed (its subtree exhausted), the position has no completion
    wherever it is met again, and it is stored; a position found in the table
    is rejected at once (sc[S_MEMO] counts these). The key is the exact position,
    not a hash, so a hit is never a false one; a full neighbourhood of slots
    only means a position is not stored. The search stays complete.

    Time per node: O(1) for the move and the dead-end counters, O(|U|) for the
    check; space O(cells).
    """
    memo = tkey.shape[0] > 0
    d = sc[S_DEPTH]
    while True:
        head = path[d]
        if sc[S_FRESH] == 1:
            sc[S_FRESH] = 0
            sc[S_NODES] += 1
            if sc[S_FREE] == 0:
                sc[S_DEPTH] = d
                return FOUND
            ok = sc[S_ZEROS] == 0 and sc[S_ONES] <= 1
            if ok and memo and d > 0:
                slot = _memo_slot(sc[S_MASK], head, tkey, thead)
                if slot >= 0 and thead[slot] != 0:
                    ok = False
                    sc[S_MEMO] += 1
            if ok:
                sc[S_STAMP] += 1
                sc[S_CHECKS] += 1
                if mode == 1:
                    ok = block_check(head, free, col, sc[S_FREE], off, scratch, sc[S_STAMP], info) == OK
                    if ok and sc[S_ONES] == 1 and sc[S_FORCED] == 1:
                        ok = forced_check(head, free, deg, off, scratch, sc[S_STAMP])
                else:
                    ok = _flood_ok(head, free, off, sc[S_FREE], scratch, sc[S_STAMP])
            k = 0
            if ok:
                base = 4 * d
                for j in range(4):
                    n = head + off[j]
                    if free[n] == 0:
                        continue
                    if deg[n] == 1 and sc[S_FREE] > 1:
                        continue
                    # insertion sort by (deg, key) on at most 4 entries
                    m = k
                    while m > 0:
                        q = cand[base + m - 1]
                        if deg[q] < deg[n] or (deg[q] == deg[n] and key[q] <= key[n]):
                            break
                        cand[base + m] = q
                        m -= 1
                    cand[base + m] = n
                    k += 1
            ncand[d] = k
            cidx[d] = 0
            if sc[S_NODES] >= budget:
                sc[S_DEPTH] = d
                return PAUSED
        if cidx[d] < ncand[d]:
            n = cand[4 * d + cidx[d]]
            cidx[d] += 1
            _apply(head, n, free, deg, off, sc)
            sc[S_MASK] ^= bit[n]
            d += 1
            path[d] = n
            sc[S_FRESH] = 1
        else:
            if d == 0:
                sc[S_DEPTH] = 0
                return EXHAUSTED
            if memo and ncand[d] > 0:
                slot = _memo_slot(sc[S_MASK], head, tkey, thead)
                if slot >= 0:
                    tkey[slot] = sc[S_MASK]
                    thead[slot] = head + 1
            sc[S_MASK] ^= bit[head]
            _undo(path[d - 1], head, free, deg, off, sc)
            d -= 1


@kernel(allocates=True)
def backbite(width, height, moves, seed, path):  # pragma: no cover - compiled
    """A random Hamiltonian path of the full width x height grid, into `path`.

    Starts from a row-by-row snake and applies `moves` backbite moves (Mansfield):
    pick an end a of the path and a random grid neighbour b of a; add the edge
    a-b and remove the path edge at b that makes the rest a path again, which
    reverses the piece between a and b. Every result is a Hamiltonian path of
    the grid (cells numbered r * width + c). Time O(moves x length).
    """
    n = width * height
    np.random.seed(seed)
    pos = np.empty(n, np.int64)
    i = 0
    for r in range(height):
        for c in range(width):
            cc = c if r % 2 == 0 else width - 1 - c
            path[i] = r * width + cc
            i += 1
    for i in range(n):
        pos[path[i]] = i
    if n < 3:
        return
    for _ in range(moves):
        front = np.random.randint(2) == 0
        a = path[0] if front else path[n - 1]
        r = a // width
        c = a % width
        d = np.random.randint(4)
        if d == 0:
            r -= 1
        elif d == 1:
            c += 1
        elif d == 2:
            r += 1
        else:
            c -= 1
        if r < 0 or r >= height or c < 0 or c >= width:
            continue
        j = pos[r * width + c]
        if front:
            if j == 1:
                continue
            lo = 0
            hi = j - 1
        else:
            if j == n - 2:
                continue
            lo = j + 1
            hi = n - 1
        while lo < hi:
            x = path[lo]
            y = path[hi]
            path[lo] = y
            path[hi] = x
            pos[y] = lo
            pos[x] = hi
            lo += 1
            hi -= 1


@kernel
def follow(nxt, start, order):  # pragma: no cover - compiled
    """Walk successor links from `start` into `order` (nxt[i] is the cell after i, -1 after the last).

    Fills order[0..k-1] with the k cells met and returns k; stops at the end of
    `order` so that a cycle in the links cannot run away. O(len(order)).
    """
    i = start
    k = 0
    while i >= 0 and k < order.shape[0]:
        order[k] = i
        k += 1
        i = nxt[i]
    return k
