"""The RoboZZle annealer's kernel: simulated annealing over whole programs.

The annealer (`anneal`) runs whole programs on the exact search's machine (gridbot.kernels.robozzle.machine:
`_run`, every slot decided and every function closed), so it never re-implements the rules; its random numbers
come from a generator of its own (`_random`), so that compiled and plain runs draw the same ones.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel
from gridbot.kernels.robozzle.layout import (
    _WIN,
    COLOUR_BITS,
    MAX_FUNCTIONS,
    NO_COND,
    S_LEFT,
    S_POS,
    S_SEEN,
    S_STEPS,
    SEEN_WIDTH,
)
from gridbot.kernels.robozzle.machine import _copy, _lcg, _nearest, _registers_from_start, _run, _undo

# the annealer's registers, in `state`: its random generator, the steps it has taken (0: none, so its first step
# starts from a random program), the current score,
# what is known of the current program's run (1: what it saw at each slot, as _run's `seen`, is in the registers
# from A_SEEN on; 2: it won, so a change scores by its slots, not by its run; 0: nothing, the program is new or
# loaded from outside)
A_RNG, A_ITER, A_SCORE, A_KNOWN, A_SEEN = range(5)
N_ANNEAL = A_SEEN + MAX_FUNCTIONS * SEEN_WIDTH


WON = 1 << 40  # the score of a winning program
STAR_SCORE = 256  # a whole program's score: this per star collected, less the moves left to the nearest star
PERMILLE_COND = 300  # of the commands the annealer writes, this many per thousand get a colour condition
MOVES = 8  # kinds of change the annealer draws from (_mutate): 0-4 change or add or drop a slot, 5 swap, 6 move, 7 copy
PERMILLE_TWICE = 300  # of its steps, this many change two slots rather than one


@kernel
def _random(state, n) -> int:
    """A number in 0..n-1 (n < 2**24) from the annealer's generator: an LCG mod 2**31, which stays within int64, so
    that compiled and plain runs draw the same numbers."""
    x = _lcg(state[A_RNG])
    state[A_RNG] = x
    return ((x >> 7) * n) >> 24


@kernel
def whole_score(node, step, start, facing, stars, colour, star, op, cs, nd, closed, stack, trail,
                stamp, records, rpath, dropped, sc, spos, sdist, snear, seen=None) -> int:  # fmt: skip
    """Run the whole program in `op`, `cs` (one condition bit a slot), `nd` (every function closed) from the start,
    as node `node`: WON when it wins, else STAR_SCORE per star collected less the moves from where the run
    ended to the nearest star left (at most STAR_SCORE - 1); given `seen`, what the run saw at each slot in it
    (see _run). `colour` and `star` must hold the start's board, and hold it again after: the run's changes are
    undone from the trail (_undo), which costs what they changed, not a copy of the whole board every run (with the
    stack's entries not logged, see _run: 1.1 times the annealer's steps a second). The registers are left as
    the run ended. O(MAX_ACTIONS x slots)."""
    _registers_from_start(node, start, facing, stars, sc)
    if seen is not None:
        seen[:] = 0
    won = _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped, sc, seen) == _WIN
    score = WON
    if not won:
        near = min(_nearest(sc[S_POS], star, spos, sdist, snear), STAR_SCORE - 1)
        score = (stars - sc[S_LEFT]) * STAR_SCORE - near
    _undo(trail, sc, 0, colour, star, op, cs, nd, closed, stack)  # the board, and any stack entries logged
    return score


@kernel
def _random_command(state, alphabet, conds, op, cs, f, i) -> None:
    op[f, i] = alphabet[_random(state, alphabet.shape[0])]
    cs[f, i] = NO_COND
    if conds.shape[0] and _random(state, 1000) < PERMILLE_COND:
        cs[f, i] = conds[_random(state, conds.shape[0])]


@kernel
def _some_function(state, slots) -> int:
    """A function drawn at random, each as likely as its share of the slots."""
    r = _random(state, slots.sum())
    f = 0
    while r >= slots[f]:
        r -= slots[f]
        f += 1
    return f


@kernel
def _insert(op, cs, nd, f, p) -> None:
    """Make room for a slot at `p` of function `f` (its command is left as it was: the caller sets it)."""
    for i in range(nd[f], p, -1):
        op[f, i] = op[f, i - 1]
        cs[f, i] = cs[f, i - 1]
    nd[f] += 1


@kernel
def _insert_anywhere(state, op, cs, nd, g, o, c) -> None:
    """Put command `o` with condition `c` at a random place in function `g` (which has a slot free)."""
    q = _random(state, nd[g] + 1)
    _insert(op, cs, nd, g, q)
    op[g, q], cs[g, q] = o, c


@kernel
def _delete(op, cs, nd, f, p) -> None:
    """Remove slot `p` of function `f`, the slots after it moving up."""
    for i in range(p, nd[f] - 1):
        op[f, i] = op[f, i + 1]
        cs[f, i] = cs[f, i + 1]
    nd[f] -= 1


@kernel
def _seen_condition(state, conds, f, p) -> int:
    """A condition for slot `p` of function `f`: one of the colours the current program's run stood on there
    (A_SEEN), when it stood on two or more that a condition may name (only those split the slot's runs), else any
    colour a condition may name."""
    saw = 0
    if state[A_KNOWN] == 1 and p < SEEN_WIDTH:
        saw = state[A_SEEN + f * SEEN_WIDTH + p] & COLOUR_BITS
    k = 0
    for j in range(conds.shape[0]):
        if saw & conds[j]:
            k += 1
    if k < 2:
        return conds[_random(state, conds.shape[0])]
    r = _random(state, k)
    for j in range(conds.shape[0]):
        if saw & conds[j]:
            if r == 0:
                return conds[j]
            r -= 1
    return conds[0]


@kernel
def _mutate(state, most, slots, alphabet, conds, op, cs, nd) -> None:
    """One random change of the program: a slot's command and condition, its condition or its command alone, a
    command inserted (when a slot is free and the program has fewer than `most` slots) or one deleted, two slots
    swapped, one moved (anywhere in the program: a call can go from one function to another), or one copied
    elsewhere (a command with its condition that already serves the program once often serves it twice)."""
    f = _some_function(state, slots)
    n = nd[f]
    used = nd.sum()
    kind = _random(state, MOVES)
    if n == 0 or (kind == 2 and n < slots[f] and used < most):
        if used >= most:
            return
        p = _random(state, n + 1)
        _insert(op, cs, nd, f, p)
        _random_command(state, alphabet, conds, op, cs, f, p)
        return
    p = _random(state, n)
    if kind == 3:
        _delete(op, cs, nd, f, p)
    elif kind == 1 and conds.shape[0]:
        if cs[f, p] != NO_COND and _random(state, 10) < 4:
            cs[f, p] = NO_COND
        else:
            cs[f, p] = _seen_condition(state, conds, f, p)
    elif kind == 4:
        op[f, p] = alphabet[_random(state, alphabet.shape[0])]
    elif kind == 5:
        g = _some_function(state, slots)
        if nd[g]:
            q = _random(state, nd[g])
            op[f, p], op[g, q] = op[g, q], op[f, p]
            cs[f, p], cs[g, q] = cs[g, q], cs[f, p]
    elif kind == 6:
        g = _some_function(state, slots)
        if g == f or nd[g] < slots[g]:
            o, c = op[f, p], cs[f, p]
            _delete(op, cs, nd, f, p)
            _insert_anywhere(state, op, cs, nd, g, o, c)
    elif kind == 7:
        g = _some_function(state, slots)
        if nd[g] < slots[g] and used < most:
            _insert_anywhere(state, op, cs, nd, g, op[f, p], cs[f, p])
    else:
        _random_command(state, alphabet, conds, op, cs, f, p)


@kernel
def _runs_the_same(op, cs, nd, cur_op, cur_cs, cur_nd, state) -> bool:
    """Does the program in `op`, `cs`, `nd` do what the current one does at every slot the current program's run
    looked at, on every colour it saw there (A_SEEN, see _run)? A slot never looked at can hold anything, and one
    looked at only on colours where neither version runs, or where both run the same command, too; a function's
    end must stay where it was once looked at. Then the run is the same, action for action, and so is its score.
    O(slots)."""
    for f in range(nd.shape[0]):
        for i in range(SEEN_WIDTH):
            saw = state[A_SEEN + f * SEEN_WIDTH + i]
            if saw == 0:  # execution comes to a slot only from the one before it (or a call there): none further on
                break
            here, there = i < nd[f], i < cur_nd[f]
            if here != there:
                return False
            if here:
                runs = saw if cs[f, i] & NO_COND else cs[f, i] & saw
                ran = saw if cur_cs[f, i] & NO_COND else cur_cs[f, i] & saw
                if runs != ran or (ran != 0 and op[f, i] != cur_op[f, i]):
                    return False
    return True


@kernel
def _keep_seen(state, seen, won) -> None:
    """What the current program's run saw is the last run's; when that run won, it serves nothing (a win with
    more slots than wanted scores by its slots, not by its run)."""
    state[A_KNOWN] = 2 if won else 1
    _copy(state[A_SEEN : A_SEEN + MAX_FUNCTIONS * SEEN_WIDTH], seen)


@kernel
def anneal(count, work, temperature, most, slots, alphabet, conds, state, cur_op, cur_cs, cur_nd, node,
           step, start, facing, stars, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath,
           dropped, sc, spos, sdist, snear) -> tuple:  # fmt: skip
    """`count` steps of simulated annealing at a fixed `temperature` (fewer once their runs have done `work`: slots
    executed and stack frames looked at, S_STEPS) over whole programs of at most `most` slots (commands from
    `alphabet`, conditions from `conds` as condition bits, `slots` per function), going on from `state` and the
    current program in `cur_op`, `cur_cs`, `cur_nd` (a random program, each function half full, when state has
    taken no step yet: A_ITER 0). Each step changes one or two slots (_mutate) and scores the result
    (whole_score); a change is kept when it scores no worse, or with probability exp(loss / temperature). A change
    that does what the current program did wherever its run looked (_runs_the_same) is not run: it scores as the
    current program, and is kept. Returns (the last node number used, whether a program won: it is then in `op`,
    `cs`, `nd`). O(min(count x MAX_ACTIONS x stack cap, work))."""
    closed[:] = 1
    seen = sc[S_SEEN : S_SEEN + MAX_FUNCTIONS * SEEN_WIDTH]
    begin = sc[S_STEPS]
    # a change is made in `op`, `cs`, `nd`, which hold the current program at every step's start: kept or undone
    # over the slots a change can touch (_copy_program), not two copies of the whole arrays a step
    _copy(op, cur_op)
    _copy(cs, cur_cs)
    _copy(nd, cur_nd)
    for _ in range(count):
        if sc[S_STEPS] - begin >= work:  # a step can take a thousand actions, and calls many frames each
            break
        if state[A_ITER] == 0:
            cur_nd[:] = 0
            left = most
            for f in range(slots.shape[0]):
                cur_nd[f] = min((slots[f] + 1) // 2, left)
                left -= cur_nd[f]
                for i in range(cur_nd[f]):
                    _random_command(state, alphabet, conds, cur_op, cur_cs, f, i)
            state[A_KNOWN] = 0
        if state[A_KNOWN] == 0:  # a new round's program, or one loaded (Annealer.start_from): its score and run
            _copy(op, cur_op)
            _copy(cs, cur_cs)
            _copy(nd, cur_nd)
            node += 1
            state[A_SCORE] = whole_score(node, step, start, facing, stars, colour, star, op, cs, nd,
                                         closed, stack, trail, stamp, records, rpath, dropped, sc, spos, sdist,
                                         snear, seen)  # fmt: skip
            if state[A_SCORE] == WON:
                return node, True
            _keep_seen(state, seen, False)
        state[A_ITER] += 1
        _mutate(state, most, slots, alphabet, conds, op, cs, nd)
        if _random(state, 1000) < PERMILLE_TWICE:
            _mutate(state, most, slots, alphabet, conds, op, cs, nd)
        node += 1
        if state[A_KNOWN] == 1 and _runs_the_same(op, cs, nd, cur_op, cur_cs, cur_nd, state):
            _copy_program(op, cs, nd, cur_op, cur_cs, cur_nd)
            continue
        score = whole_score(node, step, start, facing, stars, colour, star, op, cs, nd, closed,
                            stack, trail, stamp, records, rpath, dropped, sc, spos, sdist, snear, seen)  # fmt: skip
        won = score == WON
        if won:
            used = nd.sum()
            if used <= most:
                return node, True
            # a win of more slots than wanted (the current program is from before the bound fell): above every
            # loss, less per slot too many, so that deletions lead on to a win that counts
            score = stars * STAR_SCORE - 1 - (used - most)
        loss = score - state[A_SCORE]
        if loss >= 0 or _random(state, 1 << 20) < np.exp(loss / temperature) * (1 << 20):
            _copy_program(op, cs, nd, cur_op, cur_cs, cur_nd)
            state[A_SCORE] = score
            _keep_seen(state, seen, won)
        else:
            _copy_program(cur_op, cur_cs, cur_nd, op, cs, nd)
    return node, False


@kernel
def _copy_program(op, cs, nd, to_op, to_cs, to_nd) -> None:
    """Make `to_op`, `to_cs`, `to_nd` equal to `op`, `cs`, `nd` (whole arrays), where they differ by at most two
    changes (_mutate) made to one of them: a change writes a function's slots only below the larger of its slot
    counts before and after it, and two changes below one more than the larger of the first and the last.
    O(slots)."""
    for f in range(nd.shape[0]):
        for i in range(min(op.shape[1], max(nd[f], to_nd[f]) + 1)):
            to_op[f, i] = op[f, i]
            to_cs[f, i] = cs[f, i]
        to_nd[f] = nd[f]
