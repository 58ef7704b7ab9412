"""The machine the RoboZZle kernels run programs on: a run of a partial program from the registers, the trail
that undoes it, and the loop records that cut endless runs.

`_run` executes slots until one must be decided, the last star is collected or the run is lost; every value it
overwrites is logged on the trail first (once per node), so that backtracking (`_undo`) restores the board, the
program and the call stack exactly. The exact search, the beam and the annealer all run programs here, so none
re-implements the rules.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel
from gridbot.kernels.robozzle.layout import (
    _DECIDE,
    _LOSE,
    _WIN,
    MAX_ACTIONS,
    MAX_FRAMES,
    MAX_FUNCTIONS,
    MAX_SLOTS,
    N_RECORD,
    NO_COND,
    NOOPS,
    OP_CALL,
    OP_F,
    OP_L,
    OP_PAINT,
    OP_R,
    R_BOARD,
    R_DEPTH,
    R_DROPPED,
    R_HASH,
    R_KEY,
    R_NODE,
    R_PAINTS,
    R_SNAP,
    R_SP,
    RECORDS,
    S_ACT,
    S_BOARD,
    S_DEPTH,
    S_ENT,
    S_F,
    S_FACING,
    S_LEFT,
    S_LOOPS,
    S_NODES,
    S_PAINTS,
    S_PC,
    S_POS,
    S_ROLLOUT,
    S_SP,
    S_STACK_CAP,
    S_STEPS,
    S_TTOP,
    S_UNDECIDED,
    S_USED,
    SEEN_WIDTH,
    SNAP_TILES,
    T_CLOSED,
    T_COLOUR,
    T_CS,
    T_ND,
    T_OP,
    T_STACK,
    T_STAR,
    UNKNOWN,
)


@kernel
def _copy(to, source) -> None:
    """`to[:] = source` for arrays of one or two dimensions, as a loop (a slice copy may allocate: gridbot.kernels)."""
    flat, whole = to.reshape(-1), source.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = whole[i]


@kernel
def _log(trail: np.ndarray, sc: np.ndarray, kind: int, index: int, old: int) -> None:
    top = sc[S_TTOP]
    trail[top, 0] = kind
    trail[top, 1] = index
    trail[top, 2] = old
    sc[S_TTOP] = top + 1


def trail_rows(cells: int, stack_cap: int) -> int:
    """Rows the trail can need: per node on a path, each stack entry (3 values), tile colour and star logged
    at most once (see `stamp`), a few program values and each slot's count of no-op paints."""
    return MAX_FRAMES * (3 * stack_cap + 2 * cells + 8 + MAX_FUNCTIONS * MAX_SLOTS) + 8


@kernel
def _undo(trail, sc, mark, colour, star, op, cs, nd, closed, stack) -> None:
    top = sc[S_TTOP]
    while top > mark:
        top -= 1
        kind, index, old = trail[top, 0], trail[top, 1], trail[top, 2]
        if kind == T_COLOUR:
            colour[index] = old
        elif kind == T_STAR:
            star[index] = old
        elif kind == T_OP:
            op[index // MAX_SLOTS, index % MAX_SLOTS] = old
        elif kind == T_CS:
            cs[index // MAX_SLOTS, index % MAX_SLOTS] = old
        elif kind == T_ND:
            nd[index] = old
        elif kind == T_CLOSED:
            closed[index] = old
        else:  # a stack entry: function, pc and entry action packed
            stack[index // 3, index % 3] = old
    sc[S_TTOP] = top


@kernel
def _repeats(records, path, dropped, sc, f, pos, facing, left, paints, board, colour, sp, node) -> bool:
    """At the entry of function f: has this state (tile, facing, stars left and the board's colours) been seen at
    a frame entry that is still open below, on this path? Then everything from there repeats for ever and the
    run never wins. Records the state either way (a record a collision overwrites only cuts less).

    The board is known to be the same when nothing was painted since (`paints`, the count of paints that
    changed a tile, is the same). Paints that only undo each other (a tile painted red, then back) leave the
    board's hash (`board`) as it was: on such a match the record takes a copy of the colours, and the next
    match is compared tile by tile; a loop that repaints as it goes is cut one round later, and a hash that
    matches by chance never cuts anything."""
    key = ((f * 4 + facing) * 16384 + pos) * 16384 + left
    mixed = key ^ board
    # a multiplicative hash of the key folded to 31 bits (the product stays below 2 ** 63: no overflow, so the
    # compiled and plain runs agree); a plain fold of shifted keys sent a quarter of the four-state cycles around
    # a square to only two or three rows, which then overwrote each other and never met their repeat
    folded = (mixed ^ (mixed >> 31)) & 0x7FFFFFFF
    row = ((folded * 0x9E3779B1) >> 29) & (RECORDS - 1)
    rec = records[row]
    d = rec[R_DEPTH]
    # a record is of this path when it was made by the node now running at its depth (deeper entries of `path`
    # are left over from paths backtracked)
    mine = d <= sc[S_DEPTH] and path[d] == rec[R_NODE]
    snap = 0
    if rec[R_KEY] == key and rec[R_HASH] == board and mine and rec[R_SP] <= sp and dropped[rec[R_SP]] == rec[R_DROPPED]:
        if rec[R_PAINTS] == paints:
            return True
        if colour.shape[0] <= SNAP_TILES:
            if rec[R_SNAP] and _same_colours(rec, colour):
                return True
            _keep_colours(rec, colour)
            snap = 1
    rec[R_KEY], rec[R_NODE], rec[R_DEPTH], rec[R_SP], rec[R_DROPPED] = key, node, sc[S_DEPTH], sp, dropped[sp]
    rec[R_HASH], rec[R_PAINTS], rec[R_SNAP] = board, paints, snap
    return False


@kernel
def _keep_colours(rec, colour) -> None:
    """Copy the tiles' colours into a record, two bits a tile (a hole as 3). O(tiles)."""
    for w in range(N_RECORD - R_BOARD):
        rec[R_BOARD + w] = 0
    for t in range(colour.shape[0]):
        rec[R_BOARD + t // 32] |= (colour[t] & 3) << (2 * (t % 32))


@kernel
def _same_colours(rec, colour) -> bool:
    """Are the tiles' colours those the record copied? O(tiles)."""
    for t in range(colour.shape[0]):  # noqa: SIM110 - numba compiles this loop, not all() over a generator
        if (rec[R_BOARD + t // 32] >> (2 * (t % 32))) & 3 != colour[t] & 3:
            return False
    return True


RNG_MOD = 1 << 31  # of the generator below: the board's hash and the annealer's random numbers (_random)


@kernel
def _lcg(x) -> int:
    """The next number of a linear congruential generator mod 2**31 (x below it: stays within int64)."""
    return (x * 1103515245 + 12345) % RNG_MOD


@kernel
def _tile_hash(tile, c) -> int:
    """A 62-bit number for "tile has colour c": the board's hash is the exclusive or of these over the tiles
    painted away from the start's colours. Random-looking, from the annealer's 31-bit generator (no overflow)."""
    a = _lcg(_lcg(tile * 4 + c + 1))
    return (a << 31) | _lcg(a)


@kernel
def _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, path, dropped, sc, seen=None) -> int:
    """Run the machine from the registers in `sc` until a slot must be decided (_DECIDE, registers at that slot),
    the last star is collected (_WIN) or the run is lost (_LOSE). A stack entry or a tile's colour is logged on
    the trail the first time this node overwrites it (`stamp` holds the node that last logged it), so the
    trail stays bounded however long the run. Given `seen` (the annealer's runs), it notes what the run saw at
    each slot it looked at (seen[f * SEEN_WIDTH + pc]): the colours stood on, as a condition's bits, and bit 0 at a
    function's end; without it (the exact search), numba compiles the loop without those lines."""
    node = sc[S_NODES] + 1
    path[sc[S_DEPTH]] = node
    pos, facing, f, pc = sc[S_POS], sc[S_FACING], sc[S_F], sc[S_PC]
    ent, act, sp, left, paints = sc[S_ENT], sc[S_ACT], sc[S_SP], sc[S_LEFT], sc[S_PAINTS]
    board = sc[S_BOARD]
    cap = sc[S_STACK_CAP]
    as_it_stands = sc[S_ROLLOUT] == 1
    result = _LOSE
    steps = 0
    # (a paint's no-op runs, counted as actions late, exact._apply, can leave no action at all)
    while act < MAX_ACTIONS:
        steps += 1
        if pc == nd[f]:
            if seen is not None:
                seen[f * SEEN_WIDTH + pc] |= NO_COND
            if not closed[f] and not as_it_stands:
                result = _DECIDE
                break
            if sp == 0:  # F1 ended with nothing pushed
                break
            dropped[sp] += 1
            sp -= 1
            f, pc, ent = stack[sp, 0], stack[sp, 1], stack[sp, 2]
            continue
        here = colour[pos]
        if seen is not None:
            seen[f * SEEN_WIDTH + pc] |= 2 << here
        conds = cs[f, pc]
        runs = conds & (NO_COND | (2 << here))
        if runs == 0:
            pc += 1
            continue
        o = op[f, pc]
        if runs != conds or o == UNKNOWN:  # skipped on some conditions, or the command not decided
            if runs != conds and o - OP_PAINT == here and not as_it_stands:
                # a paint of the colour here whose set holds "none" and a colour: run ("none") or skipped, it
                # changes nothing, so it is not decided here; the times are counted, as actions if the set ends
                # as "none"
                slot = f * MAX_SLOTS + pc
                if stamp[2, slot] != node:
                    stamp[2, slot] = node
                    _log(trail, sc, T_CS, NOOPS * MAX_SLOTS + slot, cs[NOOPS + f, pc])
                cs[NOOPS + f, pc] += 1
                pc += 1
                continue
            if not as_it_stands:
                result = _DECIDE
                break
            if o == UNKNOWN:
                pc += 1
                continue
        pc += 1
        if o >= OP_CALL and o < OP_PAINT:
            g = o - OP_CALL
            lost, looked = _call_lost(g, f, ent, act, sp, cap, stack)
            steps += looked  # the frames looked at count as work too (up to the stack cap per call)
            if lost:
                break
            # a whole run (the annealer's, with `seen`) is never backtracked: its stack entries need no undo
            if seen is None and stamp[0, sp] != node:
                stamp[0, sp] = node
                _log(trail, sc, T_STACK, sp * 3, stack[sp, 0])
                _log(trail, sc, T_STACK, sp * 3 + 1, stack[sp, 1])
                _log(trail, sc, T_STACK, sp * 3 + 2, stack[sp, 2])
            stack[sp, 0] = f
            stack[sp, 1] = pc
            stack[sp, 2] = ent
            sp += 1
            f, pc, ent = g, 0, act
            if _repeats(records, path, dropped, sc, f, pos, facing, left, paints, board, colour, sp, node):
                sc[S_LOOPS] += 1
                break
            continue
        act += 1
        if o == OP_F:
            ahead = step[pos * 4 + facing]
            if ahead < 0:  # fell off: the registers keep the last tile stood on (the annealer measures from it)
                break
            pos = ahead
            if star[pos]:
                _log(trail, sc, T_STAR, pos, 1)
                star[pos] = 0
                left -= 1
                if left == 0:
                    result = _WIN
                    break
        elif o == OP_L:
            facing = (facing + 3) % 4
        elif o == OP_R:
            facing = (facing + 1) % 4
        else:
            paint = o - OP_PAINT
            if colour[pos] != paint:
                if stamp[1, pos] != node:
                    stamp[1, pos] = node
                    _log(trail, sc, T_COLOUR, pos, colour[pos])
                board ^= _tile_hash(pos, colour[pos]) ^ _tile_hash(pos, paint)
                colour[pos] = paint
                paints += 1
    sc[S_POS], sc[S_FACING], sc[S_F], sc[S_PC] = pos, facing, f, pc
    sc[S_ENT], sc[S_ACT], sc[S_SP], sc[S_LEFT], sc[S_PAINTS] = ent, act, sp, left, paints
    sc[S_BOARD] = board
    sc[S_STEPS] += steps
    return result


@kernel
def _call_lost(g, f, ent, act, sp, cap, stack) -> tuple:
    """Does a call of function g, run now from function f (entered at action `ent`, `sp` frames pushed), lose the
    run at once, and how many frames were looked at to know? It does when g was entered at a frame still open
    with no action since (f itself, or a frame pushed since the last action): the same state again, for ever
    (cut 4); or when the stack is full."""
    if g == f and ent == act:
        return True, 0
    d = sp - 1
    while d >= 0 and stack[d, 2] == act:
        if stack[d, 0] == g:
            return True, sp - 1 - d
        d -= 1
    return sp == cap, sp - 1 - d


@kernel
def _from_start(node, colour0, star0, start, facing, stars, colour, star, sc) -> None:
    """The board and the registers as at the start, for a run as node `node` (new at every call)."""
    _copy(colour, colour0)
    _copy(star, star0)
    _registers_from_start(node, start, facing, stars, sc)


@kernel
def _registers_from_start(node, start, facing, stars, sc) -> None:
    """The registers as at the start (an empty trail), for a run as node `node`; the board is left as it is."""
    sc[S_POS], sc[S_FACING], sc[S_F], sc[S_PC], sc[S_ENT], sc[S_ACT] = start, facing, 0, 0, 0, 0
    sc[S_SP], sc[S_LEFT], sc[S_PAINTS], sc[S_USED], sc[S_TTOP], sc[S_DEPTH] = 0, stars, 0, 0, 0, 0
    sc[S_NODES], sc[S_BOARD], sc[S_UNDECIDED] = node - 1, 0, 0


@kernel
def _nearest(here, star, spos, sdist, snear) -> int:
    """The moves from tile `here` to the nearest star left (1 << 20 when none is reachable): the stars from
    `here` in the order `snear[here]` (nearest first), the first left is it; with one row of `spos` at -1 (many
    stars), `sdist[0]` measures the way to the nearest star of the start."""
    for q in range(snear.shape[1]):
        j = snear[here, q]
        if j < 0:
            break
        if spos[j] < 0 or star[spos[j]]:
            return sdist[j, here]
    return 1 << 20
