"""Compiled part of gridbot.solve.lightbot_paths: the shortest main over two fixed procedures.

With f1 and f2 fixed (X commands included), main is a path in a small graph:
states (position, facing, lights on), steps F, J, L, R, X and the two calls,
each one command. A breadth-first search over that graph gives main's fewest
commands exactly. A call's effect from a tile and facing (where it ends, which
lights it toggles, and which lights-on patterns it passes through, for a win
in the middle of a call) does not depend on the lights, so it is computed once
per tile and facing. Levels of at most 6 lights only: the patterns a call
passes through are then a 64-bit set.

Layout as in gridbot.kernels.lightbot: `mv[pos, facing, 0 or 1]` where F or J
ends, `light[pos]` the light's index or -1; bodies are rows of `body` over
0..6 = F, J, L, R, X, call f1, call f2 with lengths `blen` (row 0 unused).
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel

MAX_CALL_STEPS = 4096  # a call that runs longer never returns (the procedures here are at most 16 commands)
E_END, E_MASK, E_SEEN, E_RETURNS, E_DONE = range(5)


@kernel
def _effect(mv, light, body, blen, p, pos, facing, out, stack_p, stack_c):  # pragma: no cover - compiled
    """Run a call of procedure p from (pos, facing) with every light off.

    out: end state pos * 4 + facing, the lights it toggles (XOR), the set of
    toggle patterns it passes through (bit m: pattern m), and whether it
    returns. `stack_p`, `stack_c`: scratch for the call stack, 64 entries.
    O(commands run), at most MAX_CALL_STEPS.
    """
    h = 0
    proc = p
    pc = 0
    mask = 0
    seen = np.int64(1)
    for _ in range(MAX_CALL_STEPS):
        if pc == blen[proc]:
            if h == 0:
                out[E_END] = pos * 4 + facing
                out[E_MASK] = mask
                out[E_SEEN] = seen
                out[E_RETURNS] = 1
                return
            h -= 1
            proc = stack_p[h]
            pc = stack_c[h]
            continue
        op = body[proc, pc]
        pc += 1
        if op <= 1:
            pos = mv[pos, facing, op]
        elif op == 2:
            facing = (facing + 3) % 4
        elif op == 3:
            facing = (facing + 1) % 4
        elif op == 4:
            if light[pos] >= 0:
                mask ^= 1 << light[pos]
                seen |= np.int64(1) << mask
        else:
            if h == 64:
                break
            stack_p[h] = proc
            stack_c[h] = pc
            h += 1
            proc = op - 4
            pc = 0
    out[E_SEEN] = seen  # no return: only the patterns passed so far count (a sound under-estimate)
    out[E_RETURNS] = 0


@kernel(allocates=True)
def shortest_main(
    mv, light, full, start, start_facing, body, blen, max_len, eff, dist, parent, queue
):  # pragma: no cover - compiled
    """Fewest main commands (at most max_len) that win with these procedures, or -1.

    `eff` (states x 3 x 5) holds call effects, E_DONE marking the ones
    computed; `dist`, `parent` (state, op) and `queue` are scratch over
    (pos, facing, lights). On success main can be read back from `parent`
    (see solve.lightbot_paths); the winning state is returned in parent[-1].
    O(states x 7) plus the call effects.
    """
    patterns = full + 1
    dist[:] = -1
    eff[:, :, E_DONE] = 0
    s0 = (start * 4 + start_facing) * patterns
    dist[s0] = 0
    queue[0] = s0
    head = 0
    tail = 1
    out = np.zeros(5, np.int64)
    stack_p = np.empty(64, np.int64)
    stack_c = np.empty(64, np.int64)
    while head < tail:
        s = queue[head]
        head += 1
        d = dist[s]
        if d >= max_len:
            continue
        lit = s % patterns
        pf = s // patterns
        facing = pf % 4
        pos = pf // 4
        for op in range(7):
            if op >= 5 and blen[op - 4] == 0:
                continue
            nlit = lit
            npos = pos
            nf = facing
            if op <= 1:
                npos = mv[pos, facing, op]
                if npos == pos:
                    continue  # main runs once: a move that cannot move is wasted
            elif op == 2:
                nf = (facing + 3) % 4
            elif op == 3:
                nf = (facing + 1) % 4
            elif op == 4:
                if light[pos] < 0:
                    continue
                nlit = lit ^ (1 << light[pos])
            else:
                p = op - 4
                if eff[pf, p, E_DONE] == 0:
                    _effect(mv, light, body, blen, p, pos, facing, out, stack_p, stack_c)
                    for j in range(4):
                        eff[pf, p, j] = out[j]
                    eff[pf, p, E_DONE] = 1
                if (eff[pf, p, E_SEEN] >> (full ^ lit)) & 1:  # some moment of the call lights them all
                    parent[-1, 0] = s
                    parent[-1, 1] = op
                    return d + 1
                if eff[pf, p, E_RETURNS] == 0:
                    continue
                npos = eff[pf, p, E_END] // 4
                nf = eff[pf, p, E_END] % 4
                nlit = lit ^ eff[pf, p, E_MASK]
            ns = (npos * 4 + nf) * patterns + nlit
            if nlit == full:
                parent[-1, 0] = s
                parent[-1, 1] = op
                return d + 1
            if dist[ns] < 0:
                dist[ns] = d + 1
                parent[ns, 0] = s
                parent[ns, 1] = op
                queue[tail] = ns
                tail += 1
    return -1


@kernel
def _neighbour(mv, light, width, patterns, s, op, backwards):  # pragma: no cover - compiled
    """The state one command `op` (F J L R X) leads to from state s, or (backwards) the state it leads to s from;
    -1 if none. A command that changes nothing (a move that cannot move, X off a light) is no step. Backwards no
    edge list is needed: the one tile a move can come from is the one behind (checked with `mv`), a turn is
    undone by the other turn and X by itself. O(1)."""
    lit = s % patterns
    facing = (s // patterns) % 4
    pos = s // patterns // 4
    if op <= 1:
        if not backwards:
            to = mv[pos, facing, op]
            return -1 if to == pos else (to * 4 + facing) * patterns + lit
        dr = -1 if facing == 0 else (1 if facing == 2 else 0)
        dc = 1 if facing == 1 else (-1 if facing == 3 else 0)
        behind = pos - (dr * width + dc)
        if behind < 0 or behind >= mv.shape[0] or (dc != 0 and behind // width != pos // width):
            return -1  # off the board
        return (behind * 4 + facing) * patterns + lit if mv[behind, facing, op] == pos else -1
    if op <= 3:
        turn = 3 if (op == 2) != backwards else 1  # L turns by 3, R by 1; backwards the other way
        return (pos * 4 + (facing + turn) % 4) * patterns + lit
    return -1 if light[pos] < 0 else s ^ (1 << light[pos])


@kernel
def _spread(mv, light, width, patterns, dist, queue, tail, backwards):  # pragma: no cover - compiled
    """Breadth-first from the `tail` states in `queue` (their `dist` set, every other -1): each state's fewest
    commands from them (backwards: to them). O(states x 5)."""
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        for op in range(5):
            n = _neighbour(mv, light, width, patterns, s, op, backwards)
            if n >= 0 and dist[n] < 0:
                dist[n] = dist[s] + 1
                queue[tail] = n
                tail += 1


@kernel
def distances(mv, light, full, start, start_facing, width, dist_from, dist_to, queue):  # pragma: no cover
    """Breadth-first distances over states (position, facing, lights on), single commands F J L R X.

    dist_from[s]: fewest commands from the start to s; dist_to[s]: fewest from
    s to a state with every light on (-1: none). States are numbered
    ((pos * 4 + facing) * (full + 1) + lights); `queue` is scratch of the same
    size. O(states x 5).
    """
    patterns = full + 1
    dist_from[:] = -1
    dist_to[:] = -1
    s0 = (start * 4 + start_facing) * patterns
    dist_from[s0] = 0
    queue[0] = s0
    _spread(mv, light, width, patterns, dist_from, queue, 1, False)
    tail = 0
    for s in range(full, dist_to.shape[0], patterns):  # every state with all lights on
        dist_to[s] = 0
        queue[tail] = s
        tail += 1
    _spread(mv, light, width, patterns, dist_to, queue, tail, True)
