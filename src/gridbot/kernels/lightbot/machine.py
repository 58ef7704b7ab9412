"""The Light-Bot interpreter of a partial walk: `_run` goes on from a branch point until a win is possible, a
dead end, or an undecided slot, logging what it overwrites on the trail (`_log`, undone by `_undo`); `_leaf` is
the cheaper run of a complete walk, which writes nothing the search keeps.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel
from gridbot.kernels.lightbot.cuts import _closing_fails
from gridbot.kernels.lightbot.gaps import win_blink, win_with
from gridbot.kernels.lightbot.layout import (
    BRANCH,
    FAIL,
    FOUND,
    GAPS_PER_BODY,
    L_CTRL,
    L_GEN,
    L_HEIGHT,
    L_IDX,
    L_PC,
    L_PROC,
    OVERFLOW,
    S_BLINK,
    S_FACING,
    S_FOUND_S,
    S_GEN,
    S_GUESS,
    S_H,
    S_NREC,
    S_PC,
    S_POS,
    S_PROC,
    S_STEP,
    S_TTOP,
    S_VISITED,
    T_CLOSED,
    T_IDX,
    T_RECS,
    T_STACK,
    T_VEC,
    UNDECIDED,
)


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

    Returns FOUND (sc[S_FOUND_S] holds the gaps of the single X commands, sc[S_BLINK] the gap of X X or -1), FAIL (a
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
                        sc[S_BLINK] = -1
                        return FOUND
                    # X X in this gap can win between its two X only at a moment this gap is passed; main's
                    # gaps fire once, where one X wins as the blink would (gridbot.solve.lightbot, "Blinks")
                    if proc != 0:
                        s = win_blink(g, li, vec, wlen, lim, b, full, work)
                        if s >= 0:
                            sc[S_FOUND_S] = s
                            sc[S_BLINK] = g
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
def _leaf(after, light, full, wb, wlen, closed, complete, sc, idx, recs, stack, leaf):  # pragma: no cover - compiled
    """_run for a node whose walk is complete (`complete`: one X left, so no slot can be reached undecided)
    or likely to fail before it reaches an undecided slot, writing nothing the search keeps: FAIL, OVERFLOW
    or UNDECIDED once the robot has stood on every light or, when not `complete`, at a body's end where
    _run might branch (main's end, or a procedure not closed yet).

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
            if not complete and (proc == 0 or (done1 if proc == 1 else done2) == 0):
                return UNDECIDED  # a slot _run may branch at: its answer
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
