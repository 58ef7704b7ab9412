"""The Light-Bot search's cuts: which option may fill a slot (`_allowed`, the canonical forms of
gridbot.solve.lightbot), and whether main can still stand on every light (`_reaches_all`, over the closed
procedures' effects).
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel
from gridbot.kernels.lightbot.layout import (
    GUESS_F2_STILL,
    GUESS_LOOP,
    GUESS_MOVES,
    M_END,
    M_KEY,
    M_LIT,
    M_QUEUE,
    M_SEEN,
    S_MARK,
)


@kernel(inline=True)
def _closing_fails(proc, wlen, guess):  # pragma: no cover - compiled
    """Does closing procedure proc now end the search of this walk? An empty body (cut 3), or f1
    without its loop in the guessing search."""
    return wlen[proc] == 0 or (guess & GUESS_LOOP and proc == 1)


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
def _main_stuck(state, visited, L, after, light, full, wb, wlen, closed, mac, sc):  # pragma: no cover - compiled
    """At a branch point of main with every procedure it called returned: is no procedure left to write (f2
    written, or too few commands left to write and call one) and can main's commands still allowed not stand
    on every light not yet stood on? Then no completion wins (gridbot.solve.lightbot, cut 9)."""
    k = L - 1 - (wlen[0] + wlen[1] + wlen[2])
    many = (full & (full - 1)) != 0
    return (wlen[2] > 0 or k <= 2) and not _reaches_all(
        state, full & ~visited, k, after, light, many, wb, wlen, closed, mac, sc
    )


@kernel(inline=True)
def _return_fails(
    p, pos, facing, h, visited, stack, after, light, reach, full, L, lim, wb, wlen, closed, mac, sc
):  # pragma: no cover - compiled
    """Would closing procedure p at a branch point at its end (`pos`, `facing`, stack height `h`, lights stood
    on `visited`) end in a run that fails at once? Decided without a node when p returns straight to main's
    end, as _run would: the moment after the return stands on the same tile (no win check: a light is still
    missing), then main branches there and fails when no walk command fits, a light is out of reach, or cut
    9 holds with p closed. False when not decided so (the node decides). O(cut 9).
    """
    if h != 1 or stack[0, 0] != 0 or stack[1, 0] != wlen[0] or visited == full or wlen[1] == 0:
        return False
    if wlen[0] >= lim[0] or L - (wlen[0] + wlen[1] + wlen[2]) < 2 or (full & ~visited) & ~reach[pos]:
        return True
    closed[p] = 1  # for the bound only: the option itself closes it when applied
    stuck = _main_stuck(pos * 4 + facing, visited, L, after, light, full, wb, wlen, closed, mac, sc)
    closed[p] = 0
    return stuck


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
def _turns(wb, p, first, end, step):  # pragma: no cover - compiled
    """The run of turns in body p from slot `first` on, towards `end` (exclusive) by `step`: its length and the
    quarter turns it makes to the right (mod 4)."""
    n = 0
    right = 0
    i = first
    while i != end and (wb[p, i] == 2 or wb[p, i] == 3):
        right += 3 if wb[p, i] == 2 else 1
        n += 1
        i += step
    return n, right % 4


@kernel(inline=True)
def _shorter_loop(p, L, w, lim, wb, wlen, cs):  # pragma: no cover - compiled
    """Would calling procedure p at the end of its body now make a loop with a shorter equivalent? See
    gridbot.solve.lightbot, cut 11: p has one call site outside its body, and its turns at the seams of the
    loop reduce. O(body)."""
    n = wlen[p]
    k1, r1 = _turns(wb, p, 0, n, 1)  # T1, the turns p starts with
    if k1 == 0 or k1 == n:
        return False
    k2, r2 = _turns(wb, p, n - 1, k1 - 1, -1)  # T2, the turns just before the call
    r = cs[1, p]  # the body holding the one call site outside p
    # the fewest turns that turn as T2 then T1 do (R, RR, L): shorter than T2, and the caller has room for T1
    # however the X commands fall
    if k2 > (1 if (r1 + r2) % 4 == 3 else (r1 + r2) % 4) and wlen[r] + k1 + (L - w - 1) <= lim[r]:
        return True
    j = 0
    while wb[r, j] != p + 3:  # the one call site of p in body r
        j += 1
    kc, rc = _turns(wb, r, j - 1, -1, -1)  # the turns before it
    return kc > (1 if (rc + r1) % 4 == 3 else (rc + r1) % 4)


@kernel(inline=True)
def _turned(wb, wlen):  # pragma: no cover - compiled
    """Is a turn decided in some body? Slots are decided as they first run, so: has a turn run? O(slots)."""
    for q in range(3):
        for i in range(wlen[q]):
            if wb[q, i] == 2 or wb[q, i] == 3:
                return True
    return False


@kernel(inline=True)
def _rotated_loop(p, wb, wlen, cs, vec):  # pragma: no cover - compiled
    """Would calling procedure p at the end of its body now make a loop that main enters through a copy of the
    loop's last command, on a tile without a light? Main = M x p and p = B x p, p called from main alone, run
    as main = M p and p = x B p: one command shorter (gridbot.solve.lightbot, cut 13). O(1)."""
    m = wlen[0]
    n = wlen[p]
    if m < 2 or n < 1 or wb[0, m - 1] != p + 3 or cs[0, p] != 1 or cs[1, p] != 0:
        return False
    return wb[p, n - 1] == wb[0, m - 2] and vec[m - 1] == 0  # main's gap m - 1: after x, before the call


@kernel(inline=True)
def _allowed(opt, p, pos, facing, mv, full, L, lim, wb, wlen, guess, mirror, closed, cs, vec):  # pragma: no cover
    """May option `opt` (0 close, 1 + op) fill the slot at the end of body p? The canonical-form cuts; `mirror`:
    the mirror cut may apply (S_MIRROR); `vec`: the gaps' light vectors (cut 13)."""
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
    if op >= 4 and lim[op - 3] == 0:  # a procedure of no slots does not exist: it is not called
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
    if op == 2 and mirror and not _turned(wb, wlen):  # the first turn: an R (cut 12)
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
    if p > 0 and op == p + 3:  # p calls itself at its end: a loop, and the shorter loops of cuts 11 and 13
        if cs[0, p] == 1 and cs[1, p] != p and _shorter_loop(p, L, w, lim, wb, wlen, cs):
            return False
        if _rotated_loop(p, wb, wlen, cs, vec):
            return False
    if op == 5:  # f1 is the first procedure called
        return cs[0, 1] > 0
    return True
