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
  index or -1, `full` the mask of every light (all made by board_arrays);
  the interpreter keeps position and facing as one state pos * 4 + facing,
  and `after[state, op]` (state_table) is the state after F, J, L or R;
- walk ops 0..5 are F, J, L, R, call f1, call f2; bodies are rows of `wb`
  (main, f1, f2), `wlen` their lengths, `closed` whether a procedure has ended;
- gap k of body p (before its k-th command) is number p * 13 + k;
- the depth-first search keeps its frames in `frames` and its scalars in `sc`,
  so a call can stop after a node budget and the next call resumes it;
- a node does not run the walk from the start: it goes on from its parent's
  branch point. The interpreter's arrays (gap vectors, stack, loop records)
  are restored there from a trail of overwritten values. A node logs each
  value at most once (`stamp` holds the node that last wrote it), so a
  node fills at most `node_rows` rows and the trail never holds more than
  `trail_rows`; it may start smaller, as the search asks for room before
  each node (NEED_ROOM).

Run as plain Python (NUMBA_DISABLE_JIT=1 or `search.py_func`), the kernel gives
the same answers, only slower; the tests compare the two.

Speed: the kernel allocates nothing, so it is compiled without numba's
reference counts (gridbot.kernels), and the helpers of the node loop are
inlined (`kernel(inline=True)`): each array passed to a function call
otherwise costs atomic reference-count updates, at every node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from gridbot.kernels import kernel

if TYPE_CHECKING:
    from gridbot.games.lightbot import Level

# results of search and _simulate
EXHAUSTED, FOUND, PAUSED, BRANCH, FAIL, OVERFLOW = 0, 1, 2, 3, 4, 5
UNDECIDED = 6  # _leaf: the robot has stood on every light, so the exact run must decide
NEED_ROOM = 7  # search: the trail has less room than a node may fill; grow it (keeping its rows) and call again

GAPS_PER_BODY = 13  # a body has at most 12 commands, so 13 gaps
N_GAPS = 3 * GAPS_PER_BODY
N_OPTIONS = 7  # close the body, or one of the six walk ops
WORK_SHAPE = (
    7,
    64,
)  # win_gaps' scratch rows: gap vectors, gap numbers, pivots, basis, combinations, null space, subset
# frames on one path: an option per slot and per procedure's close, then the last branch point
MAX_DEPTH = 12 + 8 + 8 + 2 + 1

# the scalars of a search, in `sc`: S_GEN numbers the nodes (for `stamp`), S_TTOP is the trail's top
S_DEPTH, S_NODES, S_STARTED, S_GEN, S_FOUND_S, S_TTOP = range(6)
# a share of the tree for one of several workers: options applied at depth S_SPLIT_DEPTH are dealt
# round-robin (counted in S_SPLIT_COUNT), worker S_WORKER of S_WORKERS keeps its own
S_SPLIT_DEPTH, S_SPLIT_COUNT, S_WORKER, S_WORKERS = range(6, 10)
# the interpreter's state between a run and the next (a branch point): where the robot is, where
# control is, the stack height, the step, the lights stood on, the number of live loop records
S_POS, S_FACING, S_PROC, S_PC, S_H, S_STEP, S_VISITED, S_NREC = range(10, 18)
N_STATE = 8
# nonzero: a guessing search, bits GUESS_* (see _allowed), which may miss programs; 0: the exact search
S_GUESS = 18
# stamps the macro-step search's visits (see _reaches_all)
S_MARK = 19
N_SCALARS = 20

# rows of `mac`, the memo of procedure effects and the scratch of the macro-step search
M_KEY, M_END, M_LIT = 0, 2, 4  # + procedure - 1: the bodies' key, the end state, the lights passed
M_SEEN, M_QUEUE = 6, 7
M_ROWS = 8

# rows of `leaf`, the scratch of _leaf: its loop records (per control the node that wrote it and the
# record's index; per record its control and stack height) and its call stack
L_GEN, L_IDX, L_CTRL, L_HEIGHT, L_PROC, L_PC = range(6)
L_ROWS = 6

# the guesses: no move that stands still the first time it runs (with GUESS_F2_STILL: outside f2,
# where the optimal programs of levels 6 and 11 have such moves); programs of the shape the optimal
# programs have (main: moves then 1; f1: a loop ending in 1; f2: moves, no calls)
GUESS_MOVES, GUESS_LOOP, GUESS_F2_STILL = 1, 2, 4

# columns of `frames`: the body branched on, the option tried now (and whether applied), the
# branch point's position and facing (for the cuts), the trail's top there, then its whole state
F_PROC, F_OPT, F_POS, F_FACING, F_APPLIED, F_TRAIL, F_STATE = range(7)
N_FRAME = F_STATE + N_STATE

# what a trail entry restores (also the row of `stamp` saying which node last wrote each value)
T_VEC, T_STACK, T_RECS, T_IDX, T_CLOSED = range(5)


def board_arrays(level: Level) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """The level in this layout: `mv`, `light`, `full`, the start position and facing. Shared by every
    Light-Bot kernel. `mv` applies the game's rule (Level.move: F onto the same height, J onto one higher
    or any lower, nothing at the edge) to whole rows of tiles at once; the tests check it against
    Level.move. O(cells), in numpy."""
    heights = np.array(level.heights, np.int64)
    h, w = heights.shape
    here = np.arange(h * w, dtype=np.int64).reshape(h, w)
    mv = np.repeat(here.reshape(h * w, 1, 1), 4, axis=1).repeat(2, axis=2)
    for facing, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):  # Direction order: N, E, S, W
        rows = slice(max(0, -dr), h - max(0, dr))  # the tiles that have a neighbour this way
        cols = slice(max(0, -dc), w - max(0, dc))
        to_rows = slice(max(0, dr), h + min(0, dr))
        to_cols = slice(max(0, dc), w + min(0, dc))
        a, b = heights[rows, cols], heights[to_rows, to_cols]
        sources, targets = here[rows, cols], here[to_rows, to_cols]
        for k, allowed in enumerate((b == a, (b == a + 1) | (b < a))):
            mv[sources[allowed], facing, k] = targets[allowed]
    light = np.full(h * w, -1, np.int64)
    for i, (r, c) in enumerate(level.lights):
        light[r * w + c] = i
    return mv, light, (1 << len(level.lights)) - 1, level.start[0] * w + level.start[1], int(level.facing)


def state_table(mv: np.ndarray) -> np.ndarray:
    """`after[pos * 4 + facing, op]`: the state after walk op 0..3 (F, J, L, R), a position and facing as one
    number. O(cells), in numpy."""
    cells = mv.shape[0]
    pos = np.repeat(np.arange(cells, dtype=np.int64), 4)
    facing = np.tile(np.arange(4, dtype=np.int64), cells)
    after = np.empty((cells * 4, 4), np.int64)
    after[:, 0] = mv[pos, facing, 0] * 4 + facing
    after[:, 1] = mv[pos, facing, 1] * 4 + facing
    after[:, 2] = pos * 4 + (facing + 3) % 4
    after[:, 3] = pos * 4 + (facing + 1) % 4
    return after


@kernel
def _popcount(x):  # pragma: no cover - compiled
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@kernel
def _fits(chosen, gidx, wlen, lim, b, forced):  # pragma: no cover - compiled
    """Do X commands at the chosen gaps (bits over gidx) fit: at most b of them, each body within its limit?

    `forced` is the body of one more X that is chosen already (counted in neither), or -1.
    """
    if _popcount(chosen) > b:
        return False
    per0 = 1 if forced == 0 else 0
    per1 = 1 if forced == 1 else 0
    per2 = 1 if forced == 2 else 0
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
    return _solve_gaps(vec, wlen, lim, b, full, -1, work)


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
    rest = _solve_gaps(vec, wlen, lim, b - 1, target, g, work)
    if rest < 0:
        return np.int64(-1)
    return rest | (np.int64(1) << g)


@kernel
def _solve_gaps(vec, wlen, lim, b, target, forced, work):  # pragma: no cover - compiled
    """A set of at most b gaps, not `forced`, whose vectors XOR to `target`, fitting the limits with one
    more X in the forced gap's body: a mask over gap numbers, or -1.

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
            if _fits(cur, gidx, wlen, lim, b, fbody):
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
                if acc == target and _fits(mask, gidx, wlen, lim, b, fbody):
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


def record_keys(cells: int) -> int:
    """Loop records are keyed by state and procedure (state * 3 + procedure): the keys there are."""
    return cells * 4 * 3


def stack_size(cells: int) -> int:
    """Frames the call stack of a run can hold on a level of `cells` tiles: 2 x record_keys + 2.

    Live loop records have distinct keys (a key with a live record is a
    repeat, not recorded again), so there are at most record_keys of them.
    Until a run meets a repeat, every stack height has a live record (made
    when the procedure running there was entered; records above the stack are
    dropped), so the stack is at most record_keys high. After the repeat the
    run goes on for one period, which replays the period before it (static
    control flow) one level higher: at most record_keys more. _leaf stops at
    the repeat. So a run never overflows this stack: OVERFLOW is a bug.
    """
    return 2 * record_keys(cells) + 2


def node_rows(cells: int) -> int:
    """Trail rows one node can fill: it logs each value it overwrites once (gap vectors, stack frames, loop
    records, their index, the closed flags)."""
    return N_GAPS + stack_size(cells) + (record_keys(cells) + 1) + record_keys(cells) + 3


def trail_rows(cells: int) -> int:
    """Rows the trail can ever need: the nodes on one path of the search, each node_rows at most. The
    search asks for more room (NEED_ROOM) before a node when less than node_rows are left, so the trail
    can start smaller and grow."""
    return (MAX_DEPTH + 1) * node_rows(cells)


@kernel(inline=True)
def _log(trail, sc, kind, index, v0, v1, v2, old_stamp):  # pragma: no cover - compiled
    """Remember a value the running node is about to overwrite, so that backtracking can put it back."""
    t = sc[S_TTOP]
    trail[t, 0] = kind
    trail[t, 1] = index
    trail[t, 2] = v0
    trail[t, 3] = v1
    trail[t, 4] = v2
    trail[t, 5] = old_stamp
    sc[S_TTOP] = t + 1


@kernel(inline=True)
def _undo(mark, sc, trail, vec, stack, recs, idx, closed, stamp):  # pragma: no cover - compiled
    """Put back every value overwritten since the trail stood at `mark` (newest first)."""
    t = sc[S_TTOP]
    while t > mark:
        t -= 1
        kind = trail[t, 0]
        i = trail[t, 1]
        if kind == T_VEC:
            vec[i] = trail[t, 2]
        elif kind == T_STACK:
            stack[0, i] = trail[t, 2]
            stack[1, i] = trail[t, 3]
        elif kind == T_RECS:
            recs[0, i] = trail[t, 2]
            recs[1, i] = trail[t, 3]
            recs[2, i] = trail[t, 4]
        elif kind == T_IDX:
            idx[i] = trail[t, 2]
        else:
            closed[i] = trail[t, 2]
        stamp[kind, i] = trail[t, 5]
    sc[S_TTOP] = t


@kernel(inline=True)
def _closing_fails(proc, wlen, guess):  # pragma: no cover - compiled
    """Does closing procedure proc now end the search of this walk? An empty body (cut 3), or f1
    without its loop in the guessing search."""
    return wlen[proc] == 0 or (guess & GUESS_LOOP and proc == 1)


@kernel(inline=True)
def _run(
    after, light, reach, full, L, lim, wb, wlen, closed, fresh, sc, vec, idx, recs, stack, trail, stamp, work
):  # pragma: no cover - compiled
    """Run the walk on from the state in sc[S_POS..] until a win is possible, a dead end, or an undecided slot.

    `fresh`: the state is the start, and its first moment is still to be
    looked at; otherwise the state is a branch point whose moment was looked
    at by the node that reached it, and the run goes on with the slot just
    decided. Every value the run overwrites that an earlier node wrote is
    logged on the trail first (once per node: `stamp` says which node wrote
    it), so that `_undo` restores the branch point for the next option.

    Returns FOUND (sc[S_FOUND_S] holds the gaps of the X commands), FAIL (a
    proven endless run showed no win over two of its periods), BRANCH (the
    state is left in sc) or OVERFLOW; also FAIL at a branch point when a
    light the robot has never stood on cannot be reached from where it stands
    (`reach[pos]`, the lights reachable by any moves: no future walk gets
    there, and every earlier moment was checked). Every moment of the run is
    checked for a win. O(new steps x gaps) plus the win checks.
    """
    cur = sc[S_GEN]
    b = L - (wlen[0] + wlen[1] + wlen[2])
    state = sc[S_POS] * 4 + sc[S_FACING]  # position and facing in one number: a move or turn is one lookup
    proc = sc[S_PROC]
    pc = sc[S_PC]
    h = sc[S_H]
    step = sc[S_STEP]
    visited = sc[S_VISITED]
    nrec = sc[S_NREC]
    stop_at = -1
    cap = stack.shape[1]
    look = fresh
    while True:
        if look:
            li = light[state >> 2]
            if li >= 0:
                visited |= np.int64(1) << li
                g = proc * GAPS_PER_BODY + pc
                if stamp[T_VEC, g] != cur:
                    _log(trail, sc, T_VEC, g, vec[g], 0, 0, stamp[T_VEC, g])
                    stamp[T_VEC, g] = cur
                vec[g] ^= np.int64(1) << li
                # an X lights only the light under the robot, so no sum of vectors has a light never stood on
                if visited == full:
                    s = win_with(g, vec, wlen, lim, b, full, work)
                    if s >= 0:
                        sc[S_FOUND_S] = s
                        return FOUND
            if stop_at >= 0:
                if step >= stop_at:
                    return FAIL
            elif pc == 0 and proc != 0:  # a procedure entered: every endless run repeats one (see search)
                c = state * 3 + proc  # pc is 0: a small table (record_keys), kept in cache
                i = idx[c]
                if i < nrec and recs[0, i] == c:
                    # a repeat: from here the walk repeats with this period for ever, standing on no
                    # tile it has not stood on; lights toggle linearly, so the states of two periods
                    # are all the states there will be
                    if full & ~visited:
                        return FAIL
                    stop_at = step + (step - recs[2, i])
                else:
                    if stamp[T_RECS, nrec] != cur:
                        _log(trail, sc, T_RECS, nrec, recs[0, nrec], recs[1, nrec], recs[2, nrec], stamp[T_RECS, nrec])
                        stamp[T_RECS, nrec] = cur
                    if stamp[T_IDX, c] != cur:
                        _log(trail, sc, T_IDX, c, idx[c], 0, 0, stamp[T_IDX, c])
                        stamp[T_IDX, c] = cur
                    recs[0, nrec] = c
                    recs[1, nrec] = h
                    recs[2, nrec] = step
                    idx[c] = nrec
                    nrec += 1
        look = True
        if pc == wlen[proc]:
            if proc != 0 and not closed[proc] and (wlen[proc] >= lim[proc] or b < 2):
                # no walk command fits: closing is the only option, taken here instead of in a node
                if _closing_fails(proc, wlen, sc[S_GUESS]):
                    return FAIL
                if stamp[T_CLOSED, proc] != cur:
                    _log(trail, sc, T_CLOSED, proc, closed[proc], 0, 0, stamp[T_CLOSED, proc])
                    stamp[T_CLOSED, proc] = cur
                closed[proc] = 1
            if proc != 0 and closed[proc]:
                h -= 1
                proc = stack[0, h]
                pc = stack[1, h]
                while nrec > 0 and recs[1, nrec - 1] > h:  # the stack went below them: they prove nothing now
                    nrec -= 1
                continue
            if proc == 0 and (wlen[0] >= lim[0] or b < 2):  # main ends here: no walk command fits
                return FAIL
            if (full & ~visited) & ~reach[state >> 2]:
                return FAIL
            sc[S_POS] = state >> 2
            sc[S_FACING] = state & 3
            sc[S_PROC] = proc
            sc[S_PC] = pc
            sc[S_H] = h
            sc[S_STEP] = step
            sc[S_VISITED] = visited
            sc[S_NREC] = nrec
            return BRANCH
        op = wb[proc, pc]
        pc += 1
        step += 1
        if op < 4:  # one branch for F, J, L and R: the op is a column of the table
            state = after[state, op]
        else:
            if h >= cap:
                return OVERFLOW
            if stamp[T_STACK, h] != cur:
                _log(trail, sc, T_STACK, h, stack[0, h], stack[1, h], 0, stamp[T_STACK, h])
                stamp[T_STACK, h] = cur
            stack[0, h] = proc
            stack[1, h] = pc
            h += 1
            proc = op - 3
            pc = 0


@kernel(inline=True)
def _leaf(after, light, full, wb, wlen, closed, sc, idx, recs, stack, leaf):  # pragma: no cover - compiled
    """_run for a node whose walk is complete (one X left: no slot can be reached undecided), writing
    nothing the search keeps: FAIL, OVERFLOW or UNDECIDED once the robot has stood on every light.

    Most complete walks never stand on every light, and no win is possible before they do (see
    _run), so neither gap vectors nor the trail are kept here: loop records and the call stack live
    in `leaf` (records stamped with the node, so nothing is cleared), and the branch point's records
    are read, not written. On UNDECIDED the caller runs the node with _run from the same state, so
    every answer is _run's. O(steps).
    """
    cur = sc[S_GEN]
    state = sc[S_POS] * 4 + sc[S_FACING]
    proc = sc[S_PROC]
    pc = sc[S_PC]
    h = sc[S_H]
    visited = sc[S_VISITED]
    if visited == full:
        return UNDECIDED
    kept = sc[S_NREC]  # the branch point's records that still prove something
    own = 0  # this run's records
    for j in range(h):
        leaf[L_PROC, j] = stack[0, j]
        leaf[L_PC, j] = stack[1, j]
    done1 = closed[1]
    done2 = closed[2]
    cap = stack.shape[1]
    look = False  # the branch point's moment was looked at by the node that reached it
    while True:
        if look:
            li = light[state >> 2]
            if li >= 0:
                visited |= np.int64(1) << li
                if visited == full:
                    return UNDECIDED
            if pc == 0 and proc != 0:  # a procedure entered: a repeat fails, as in _run (cut 10)
                c = state * 3 + proc
                i = leaf[L_IDX, c]
                if leaf[L_GEN, c] == cur and i < own and leaf[L_CTRL, i] == c:
                    return FAIL
                i = idx[c]
                if i < kept and recs[0, i] == c:
                    return FAIL
                leaf[L_GEN, c] = cur
                leaf[L_IDX, c] = own
                leaf[L_CTRL, own] = c
                leaf[L_HEIGHT, own] = h
                own += 1
        look = True
        if pc == wlen[proc]:
            if proc == 0:  # main ends: no walk command fits
                return FAIL
            if (done1 if proc == 1 else done2) == 0:  # closing is the only option (see _run)
                if _closing_fails(proc, wlen, sc[S_GUESS]):
                    return FAIL
                if proc == 1:
                    done1 = 1
                else:
                    done2 = 1
            h -= 1
            proc = leaf[L_PROC, h]
            pc = leaf[L_PC, h]
            while own > 0 and leaf[L_HEIGHT, own - 1] > h:  # the stack went below them
                own -= 1
            if own == 0:
                while kept > 0 and recs[1, kept - 1] > h:
                    kept -= 1
            continue
        op = wb[proc, pc]
        pc += 1
        if op < 4:
            state = after[state, op]
        else:
            if h >= cap:
                return OVERFLOW
            leaf[L_PROC, h] = proc
            leaf[L_PC, h] = pc
            h += 1
            proc = op - 3
            pc = 0


@kernel(inline=True)
def _body_key(q, wb, wlen):  # pragma: no cover - compiled
    """What a call of procedure q runs, as one exact number: its body (4 bits of length, 3 bits per op)
    and, when it calls the other procedure, that one's body too; plus one, so that 0 means none."""
    key = np.int64(0)
    calls_other = False
    for i in range(wlen[q]):
        calls_other = calls_other or wb[q, i] == 6 - q
    for r in (q, 3 - q):
        if r != q and not calls_other:
            break
        key = key * 16 + wlen[r]
        for i in range(8):
            key = key * 8 + (wb[r, i] if i < wlen[r] else 0)
    return key * 2 + 1


@kernel
def _call(q, state, after, light, wb, wlen):  # pragma: no cover - compiled
    """Run procedure q (decided, closed, so without recursion: it returned) from `state`: the end state and
    the lights stood on during the call. O(commands run)."""
    lit = np.int64(0)
    proc = q
    pc = 0
    back_pc = 0
    while True:
        if pc == wlen[proc]:
            if proc == q:
                break
            proc = q  # back from the other procedure, which calls nothing (it returned too)
            pc = back_pc
            continue
        op = wb[proc, pc]
        pc += 1
        if op < 4:
            state = after[state, op]
            if op <= 1 and light[state >> 2] >= 0:
                lit |= np.int64(1) << light[state >> 2]
        else:
            back_pc = pc
            proc = op - 3
            pc = 0
    return state, lit


@kernel(inline=True)
def _macro(a, state, after, light, wb, wlen, closed, mac, key):  # pragma: no cover - compiled
    """Macro step a (F, J, L, R, call f1, call f2) from `state`: the state after it (-1: a call of a
    procedure not yet written) and the lights it stands on. A call's effect is memoised in `mac` per
    state while the bodies have the same `key` (_body_key); key 0: run it, no memo. O(1) or O(commands)."""
    if a < 4:
        nxt = after[state, a]
        li = light[nxt >> 2]
        return nxt, (np.int64(1) << li) if a <= 1 and li >= 0 else np.int64(0)
    q = a - 3
    if wlen[q] == 0 or closed[q] == 0:
        return np.int64(-1), np.int64(0)
    if key == 0:
        return _call(q, state, after, light, wb, wlen)
    row = q - 1
    if mac[M_KEY + row, state] != key:
        end, lit = _call(q, state, after, light, wb, wlen)
        mac[M_KEY + row, state] = key
        mac[M_END + row, state] = end
        mac[M_LIT + row, state] = lit
    return mac[M_END + row, state], mac[M_LIT + row, state]


@kernel
def _reaches_all(start, todo, k, after, light, many, wb, wlen, closed, mac, sc):  # pragma: no cover - compiled
    """Can k more commands of main stand the robot on every light of `todo`, from state `start`? A
    breadth-first search over states with the macro steps F, J, L, R and calls of the closed procedures
    (the union of the lights each path stands on, a relaxation: one path must stand on them all). Only
    for a main with no procedure under way and none to be written: see gridbot.solve.lightbot, cut 9.
    O(states x 6 x depth), procedure effects memoised per state and bodies when there are several steps.
    """
    memo = k > 1  # one step from one state: each call runs once, a memo would not pay its keys
    key1 = _body_key(1, wb, wlen) if memo else np.int64(0)
    key2 = _body_key(2, wb, wlen) if memo else np.int64(0)
    sc[S_MARK] += 1
    mark = sc[S_MARK]
    mac[M_SEEN, start] = mark
    mac[M_QUEUE, 0] = start
    head = 0
    tail = 1
    reached = np.int64(0)
    # with two lights or more, main's last walk command is a call (cut 6): the last step only calls
    last_first = 4 if many else 0
    for depth in range(k):
        level_end = tail
        last = depth == k - 1
        first = last_first if last else 0
        while head < level_end:
            state = mac[M_QUEUE, head]
            head += 1
            for a in range(first, 6):
                nxt, lit = _macro(a, state, after, light, wb, wlen, closed, mac, key2 if a == 5 else key1)
                if nxt < 0:
                    continue
                reached |= lit
                if reached & todo == todo:
                    return True
                if not last and mac[M_SEEN, nxt] != mark:
                    mac[M_SEEN, nxt] = mark
                    mac[M_QUEUE, tail] = nxt
                    tail += 1
    return False


@kernel(inline=True)
def _obligations(p, op, L, lim, wlen, cs):  # pragma: no cover - compiled
    """Procedures that, after appending walk op `op` to body p, would be inlined: one call site, outside
    their own body, with room for the inlined body however the X commands fall. Each needs a call of its
    own among the walk commands still to come (see gridbot.solve.lightbot, cut 7). O(1).
    """
    w = wlen[0] + wlen[1] + wlen[2] + 1
    b = L - w  # the most X commands the program can still have
    count = 0
    for q in range(1, 3):
        sites = cs[0, q] + (1 if op - 3 == q else 0)
        if sites != 1:
            continue
        r = cs[1, q] + (p if op - 3 == q else 0)  # the body holding the one call
        if r == q:
            continue
        wr = wlen[r] + (1 if r == p else 0)
        wq = wlen[q] + (1 if q == p else 0)
        if wr + wq - 1 + b <= lim[r]:
            count += 1
    return count


@kernel(inline=True)
def _single_commands(p, opt, L, wlen, closed):  # pragma: no cover - compiled
    """Procedures whose body is one walk command for good, after option `opt` at the end of body p: each
    needs an X command of its own (see gridbot.solve.lightbot, cut 8). O(1).
    """
    w = wlen[0] + wlen[1] + wlen[2] + (1 if opt > 0 else 0)
    final = w + 1 >= L  # no walk command fits after this: every body is as long as it will be
    count = 0
    for q in range(1, 3):
        n = wlen[q] + (1 if opt > 0 and q == p else 0)
        if n == 1 and (final or closed[q] == 1 or (opt == 0 and q == p)):
            count += 1
    return count


@kernel(inline=True)
def _allowed(opt, p, pos, facing, mv, full, L, lim, wb, wlen, guess, closed, cs):  # pragma: no cover - compiled
    """May option `opt` (0 close, 1 + op) fill the slot at the end of body p? The canonical-form cuts."""
    n = wlen[p]
    w = wlen[0] + wlen[1] + wlen[2]
    if opt == 0:
        if guess & GUESS_LOOP and p == 1:
            return False
        if p == 0 or n < 1:  # a called procedure has a walk command (else it is X alone: inline it)
            return False
        return w + max(1, _single_commands(p, opt, L, wlen, closed)) <= L
    op = opt - 1
    if n >= lim[p] or w + 2 > L:  # the walk leaves room for one X at least
        return False
    if _obligations(p, op, L, lim, wlen, cs) > L - 2 - w:
        return False
    if w + 1 + max(1, _single_commands(p, opt, L, wlen, closed)) > L:
        return False
    if w + 2 == L:  # the last walk command: one X is left after it
        if op >= 4 and wlen[op - 3] == 0:  # a procedure called for the first time would be empty
            return False
        # main's last command ends the run after one new moment, which can win with one X only
        # if its new gap (the one light under the robot) does it alone: never after a turn (the
        # gap before it, checked already, is as good) nor on a level of two lights or more
        if p == 0 and (op == 2 or op == 3 or (op <= 1 and (full & (full - 1)) != 0)):
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
    if guess & GUESS_MOVES and op <= 1 and mv[pos, facing, op] == pos and not (guess & GUESS_F2_STILL and p == 2):
        return False  # unsafe: a procedure may move the next time it runs
    if guess & GUESS_LOOP and ((p == 0 and op == 5) or (p == 2 and op >= 4)):
        return False
    if op == 5:  # f1 is the first procedure called
        return cs[0, 1] > 0
    return True


@kernel
def search(
    mv,
    after,
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
    idx,
    recs,
    stack,
    trail,
    stamp,
    work,
    cs,
    mac,
    leaf,
    budget,
):  # pragma: no cover - compiled
    """Depth-first search for a walk plus X commands of at most L commands that wins.

    Returns FOUND (the program is wb/wlen/closed plus X at the gaps in
    sc[S_FOUND_S]; calling again continues past it), EXHAUSTED (none exists
    under the cuts, which proves none exists), PAUSED (after `budget` more
    nodes; call again to resume), NEED_ROOM (grow the trail, keeping its
    rows, and call again) or OVERFLOW. Options are tried in the order
    close, F, J, L, R, call f1, call f2. Each node runs on from its parent's
    branch point (restored from the frame and the trail) instead of from the
    start. O(nodes x new steps per node).
    """
    stop = sc[S_NODES] + budget
    room = N_GAPS + stack.shape[1] + recs.shape[1] + idx.shape[0] + 3  # node_rows: what one node may log
    while True:
        if sc[S_STARTED] == 0:  # the root: nothing to choose yet
            if room > trail.shape[0]:
                return NEED_ROOM
            sc[S_STARTED] = 1
            sc[S_POS] = start_pos
            sc[S_FACING] = start_facing
            sc[S_PROC] = 0
            sc[S_PC] = 0
            sc[S_H] = 0
            sc[S_STEP] = 0
            sc[S_VISITED] = 0
            sc[S_NREC] = 0
            sc[S_TTOP] = 0
            fresh = True
        else:
            if sc[S_DEPTH] == 0:
                return EXHAUSTED
            if sc[S_NODES] >= stop:
                return PAUSED
            f = sc[S_DEPTH] - 1
            _undo(frames[f, F_TRAIL], sc, trail, vec, stack, recs, idx, closed, stamp)  # back to the branch point
            if sc[S_TTOP] + room > trail.shape[0]:  # nothing changed yet: the call after growing resumes here
                return NEED_ROOM
            p = frames[f, F_PROC]
            opt = frames[f, F_OPT]  # the option tried now: 0 close, 1 + op
            if opt >= 0 and frames[f, F_APPLIED]:
                if opt == 0:
                    closed[p] = 0
                else:
                    wlen[p] -= 1
                    if opt >= 5:  # a call: one call site fewer
                        cs[0, opt - 4] -= 1
                        cs[1, opt - 4] -= p
            opt += 1
            while opt < N_OPTIONS and not _allowed(
                opt, p, frames[f, F_POS], frames[f, F_FACING], mv, full, L, lim, wb, wlen, sc[S_GUESS], closed, cs
            ):
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
                if opt >= 5:
                    cs[0, opt - 4] += 1
                    cs[1, opt - 4] += p
            for k in range(N_STATE):
                sc[S_POS + k] = frames[f, F_STATE + k]
            fresh = False
        sc[S_NODES] += 1
        sc[S_GEN] += 1
        r = UNDECIDED
        if not fresh and wlen[0] + wlen[1] + wlen[2] == L - 1:  # a complete walk: most never stand on every light
            r = _leaf(after, light, full, wb, wlen, closed, sc, idx, recs, stack, leaf)
        if r == UNDECIDED:
            r = _run(
                after, light, reach, full, L, lim, wb, wlen, closed, fresh,
                sc, vec, idx, recs, stack, trail, stamp, work,
            )  # fmt: skip
        if r == FOUND or r == OVERFLOW:  # noqa: SIM109 - numba compiles plain comparisons
            return r
        if r == BRANCH and sc[S_PROC] == 0 and wlen[1] > 0:
            # main with every procedure it called returned: if none can be written any more, what is
            # left is main's commands over fixed procedures, which must still stand on every light
            k = L - 1 - (wlen[0] + wlen[1] + wlen[2])
            todo = full & ~sc[S_VISITED]
            if (wlen[2] > 0 or k <= 2) and not _reaches_all(
                sc[S_POS] * 4 + sc[S_FACING], todo, k, after, light, (full & (full - 1)) != 0, wb, wlen, closed, mac, sc
            ):
                r = FAIL
        if r == BRANCH:
            d = sc[S_DEPTH]
            frames[d, F_PROC] = sc[S_PROC]
            frames[d, F_OPT] = -1
            frames[d, F_POS] = sc[S_POS]
            frames[d, F_FACING] = sc[S_FACING]
            frames[d, F_TRAIL] = sc[S_TTOP]
            for k in range(N_STATE):
                frames[d, F_STATE + k] = sc[S_POS + k]
            sc[S_DEPTH] = d + 1
