"""The Light-Bot depth-first search over walks, resumable after a node budget (see gridbot.kernels.lightbot)."""

from __future__ import annotations

from gridbot.kernels import kernel
from gridbot.kernels.lightbot.cuts import _allowed, _main_stuck, _return_fails
from gridbot.kernels.lightbot.layout import (
    BRANCH,
    EXHAUSTED,
    F_APPLIED,
    F_FACING,
    F_OPT,
    F_POS,
    F_PROC,
    F_STATE,
    F_TRAIL,
    FAIL,
    FOUND,
    N_GAPS,
    N_OPTIONS,
    N_STATE,
    NEED_ROOM,
    OVERFLOW,
    PAUSED,
    S_DEPTH,
    S_FACING,
    S_GEN,
    S_GUESS,
    S_H,
    S_MIRROR,
    S_NODES,
    S_NREC,
    S_PC,
    S_POS,
    S_PROC,
    S_SPLIT_COUNT,
    S_SPLIT_DEPTH,
    S_STARTED,
    S_STEP,
    S_TTOP,
    S_VISITED,
    S_WORKER,
    S_WORKERS,
    UNDECIDED,
)
from gridbot.kernels.lightbot.machine import _leaf, _run, _undo


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
    sc[S_FOUND_S] and X X at sc[S_BLINK] if not -1; calling again
    continues past it), EXHAUSTED (none exists under the cuts, which proves
    none exists), PAUSED (after `budget` more nodes; call again to resume),
    NEED_ROOM (grow the trail, keeping its rows, and call again) or
    OVERFLOW. Options are tried in the order
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
            pos = frames[f, F_POS]
            facing = frames[f, F_FACING]
            while opt < N_OPTIONS:
                if _allowed(
                    opt, p, pos, facing, mv, full, L, lim, wb, wlen, sc[S_GUESS], sc[S_MIRROR], closed, cs, vec
                ) and (
                    opt > 0 or not _return_fails(
                        p, pos, facing, frames[f, F_STATE + S_H - S_POS], frames[f, F_STATE + S_VISITED - S_POS],
                        stack, after, light, reach, full, L, lim, wb, wlen, closed, mac, sc,
                    )
                ):  # fmt: skip
                    break
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
        complete = wlen[0] + wlen[1] + wlen[2] == L - 1
        # a complete walk, or a procedure that has just called itself at its end (a loop: a run of it reaches
        # no undecided slot, and _leaf hands over at any it meets): most never stand on every light
        if not fresh and (complete or (sc[S_PROC] > 0 and frames[sc[S_DEPTH] - 1, F_OPT] == sc[S_PROC] + 4)):
            r = _leaf(after, light, full, wb, wlen, closed, complete, sc, idx, recs, stack, leaf)
        if r == UNDECIDED:
            r = _run(
                after, light, reach, full, L, lim, wb, wlen, closed, fresh,
                sc, vec, idx, recs, stack, trail, stamp, work,
            )  # fmt: skip
        if r == FOUND or r == OVERFLOW:  # noqa: SIM109 - numba compiles plain comparisons
            return r
        if r == BRANCH and sc[S_PROC] == 0 and wlen[1] > 0:
            state = sc[S_POS] * 4 + sc[S_FACING]
            if _main_stuck(state, sc[S_VISITED], L, after, light, full, wb, wlen, closed, mac, sc):
                r = FAIL  # main's commands over fixed procedures can no longer stand on every light
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
