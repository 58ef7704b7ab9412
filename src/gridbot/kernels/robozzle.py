"""Compiled hot loop of the RoboZZle solver: a lazy search over programs, decided as execution reaches them.

gridbot.solve.robozzle explains why the search is exact; this module is the
machine. A program is not enumerated as text: the robot runs the partial
program, and a slot is decided when execution first reaches it (a command, or
"the function ends here"). Programs that share an execution prefix share its
simulation, and slots never reached are never enumerated. A slot's colour
condition is decided lazily too: a slot holds a *set* of possible conditions
(bit 0 "none", bit 1 + c "on colour c"), narrowed each time it is reached to
the part that runs, or to the part that is skipped, on the colour there. A
slot that has only ever been skipped does not even have its command decided.

Layout shared with the Python side:

- tiles are r * width + c; `colour0[tile]` is 0, 1, 2 (red, green, blue) or
  -1 (a hole), `star0[tile]` 1 where a star is; `step[tile * 4 + facing]` is
  the tile ahead, or -1 off the board or over a hole; facing 0..3 is north,
  east, south, west (gridbot.grid.Direction);
- ops 0, 1, 2 are F, L, R; 3 + g calls function g (0-based); 8 + c paints
  colour c; -1 is "not decided" (a slot only ever skipped);
- program arrays: `op[f, i]`, `cs[f, i]` (condition sets), `nd[f]` slots
  decided in function f, `closed[f]` whether its end is decided;
- the search keeps its decision frames in `frames` and its registers in `sc`,
  so that a call can stop after a node budget and the next call resumes; the
  board, the program and the call stack are restored on backtracking from a
  trail of overwritten values.

The annealer (`anneal`) runs whole programs on the same machine (`_run`,
every slot decided and every function closed), so it never re-implements the
rules; its random numbers come from a generator of its own (`_random`), so
that compiled and plain runs draw the same ones.

Run as plain Python (`search.py_func`, `anneal.py_func`), the kernels give the
same answers, only slower; the tests compare the two.
"""

from __future__ import annotations

import numpy as np

from gridbot.kernels import kernel

EXHAUSTED, FOUND, PAUSED = 0, 1, 2
# what a run of the machine stopped at
_DECIDE, _WIN, _LOSE = 0, 1, 2

OP_F, OP_L, OP_R, OP_CALL, OP_PAINT = 0, 1, 2, 3, 8
N_OPS = 11
UNKNOWN = -1
NO_COND = 1  # bit of "no condition" in a condition set; colour c is bit 2 << c
COLOUR_BITS = 14  # the colours' bits of a condition set
# `present` (the colours that can occur, as condition bits) also holds, this many bits up, the colours a
# relaxed board's conditions may not name (a heuristic's narrower search; the exact search has none)
CONDS_OFF = 4

MAX_FUNCTIONS, MAX_SLOTS = 5, 10
MAX_OPTIONS = 16
MAX_ACTIONS = 1000

# registers, in `sc`
S_NODES, S_DEPTH, S_USED, S_POS, S_FACING, S_F, S_PC, S_ENT, S_ACT, S_SP, S_LEFT, S_TTOP = range(12)
S_STARTED, S_AFTER_WIN, S_LENGTH, S_STACK_CAP, S_SPLIT_DEPTH, S_SPLIT_COUNT, S_WORKER, S_WORKERS = range(12, 20)
S_PAINTS, S_LOOPS = 20, 21  # paints that changed a tile so far on this path; runs cut as endless loops
S_STEPS = 22  # slots executed by every run so far, and stack frames looked at (the work, beside the nodes)
# per function, how many functions had been called when it was first called (its rank in the order of first calls;
# read only while it has a slot, so never restored: a function called again on another path writes it again)
S_CALLED = 23
# a hash of the board's colours (tiles painted away from the start's colours, see _tile_hash): loop records
# match on it (_repeats)
S_BOARD = S_CALLED + MAX_FUNCTIONS
# 1 while a run plays a partial program out as it stands (a beam's roll-out, beam_step): an end not decided ends
# the function, a slot whose command is not decided is skipped, one whose condition is not is run
S_ROLLOUT = S_BOARD + 1
# per slot of each function (SEEN_WIDTH a function: its slots and its end), what the annealer's last run saw there
# (_run's `seen`, anneal's view of these registers)
SEEN_WIDTH = MAX_SLOTS + 1
S_SEEN = S_ROLLOUT + 1
N_SCALARS = S_SEEN + MAX_FUNCTIONS * SEEN_WIDTH
# the registers a decision frame saves, in this order
SAVED = (S_USED, S_POS, S_FACING, S_F, S_PC, S_ENT, S_ACT, S_SP, S_LEFT, S_PAINTS, S_BOARD)
N_SAVED = len(SAVED)

# columns of `frames`: the saved registers, the trail's top, the option tried, the number of options,
# then the options (each coded by _option)
FR_TRAIL, FR_CURSOR, FR_COUNT, FR_OPTS = N_SAVED, N_SAVED + 1, N_SAVED + 2, N_SAVED + 3
N_FRAME = FR_OPTS + MAX_OPTIONS
# frames on one path: per slot, one when it is new, at most three when its conditions narrow (a set of
# four shrinks each time) and one when its command is decided; per function one for its end; plus one
MAX_FRAMES = MAX_FUNCTIONS * MAX_SLOTS * 5 + MAX_FUNCTIONS + 1

# the loop records (see _repeats): a table of RECORDS rows, each a key and where it was seen, the board's hash
# and paints then, and (R_SNAP: 1) the board's colours then, two bits a tile, on boards of up to SNAP_TILES tiles
RECORDS = 1 << 14
R_KEY, R_NODE, R_DEPTH, R_SP, R_DROPPED, R_HASH, R_PAINTS, R_SNAP, R_BOARD = range(9)
SNAP_TILES = 16 * 12  # the site's boards
N_RECORD = R_BOARD + SNAP_TILES * 2 // 64

# what a trail entry restores
T_COLOUR, T_STAR, T_OP, T_CS, T_ND, T_CLOSED, T_STACK = range(7)
# an option: kind (end, run now, skipped now), op (+ 1, 0 for not decided), condition set, the slot
K_END, K_RUN, K_SKIP = 0, 1, 2


@kernel
def _copy(to, source) -> None:
    """`to[:] = source` for arrays of one or two dimensions, as a loop (a slice copy may allocate: gridbot.kernels)."""
    flat, whole = to.reshape(-1), source.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = whole[i]


@kernel
def _option(kind: int, op: int, cs: int) -> int:
    return kind | ((op + 1) << 2) | (cs << 6)


@kernel
def _log(trail: np.ndarray, sc: np.ndarray, kind: int, index: int, old: int) -> None:
    top = sc[S_TTOP]
    trail[top, 0] = kind
    trail[top, 1] = index
    trail[top, 2] = old
    sc[S_TTOP] = top + 1


def trail_rows(cells: int, stack_cap: int) -> int:
    """Rows the trail can need: per node on a path, each stack entry (3 values), tile colour and star logged
    at most once (see `stamp`), and a few program values."""
    return MAX_FRAMES * (3 * stack_cap + 2 * cells + 8) + 8


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
    while True:
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
            if not as_it_stands:
                result = _DECIDE
                break
            if o == UNKNOWN:
                pc += 1
                continue
        pc += 1
        if o >= OP_CALL and o < OP_PAINT:
            g = o - OP_CALL
            # no action since g was entered at a frame still open: the same state again, for ever
            if g == f and ent == act:
                break
            loops = False
            d = sp - 1
            while d >= 0 and stack[d, 2] == act:
                if stack[d, 0] == g:
                    loops = True
                    break
                d -= 1
            steps += sp - 1 - d  # the frames looked at count as work too (up to the stack cap per call)
            if loops or sp == cap:
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
        if act == MAX_ACTIONS:
            break
    sc[S_POS], sc[S_FACING], sc[S_F], sc[S_PC] = pos, facing, f, pc
    sc[S_ENT], sc[S_ACT], sc[S_SP], sc[S_LEFT], sc[S_PAINTS] = ent, act, sp, left, paints
    sc[S_BOARD] = board
    sc[S_STEPS] += steps
    return result


@kernel
def _options(frame, sc, colour, slots, paints, present, prev_same, op, cs, nd) -> int:
    """Fill `frame`'s options for the slot at the registers; returns how many there are.

    A new slot: the function ends here (not F1 with nothing pushed, not an
    empty function, not a function a smaller one not called before it could
    hold: _renamed_first), or a command that runs now (conditions "none" or the
    colour here; a paint of the colour here only unconditioned), or a command
    skipped now (a condition on another colour that can occur; the command is
    decided when it first runs). Conditions name only colours the board lets
    them name (a relaxed board's mask, CONDS_OFF; every colour in the exact
    search). A decided slot whose conditions split on the
    colour here: the part that runs (with its command, if not yet decided) or
    the part that is skipped.
    """
    f, pc = sc[S_F], sc[S_PC]
    here = colour[sc[S_POS]]
    here_bit = 2 << here
    used, length = sc[S_USED], sc[S_LENGTH]
    n = 0
    if pc == nd[f]:  # a new slot
        if pc >= 1 and not (f == 0 and sc[S_SP] == 0):
            # a function of one unconditioned command can be written out at its call sites (shorter): a function
            # ending after one slot keeps only that slot's colour conditions (the set to write, 0: no change)
            first = cs[f, 0] & ~NO_COND if f > 0 and pc == 1 and cs[f, 0] & NO_COND else 0
            if not (f > 0 and pc == 1 and cs[f, 0] == NO_COND) and not _renamed_first(f, pc, slots, nd, sc):
                frame[FR_OPTS + n] = _option(K_END, -1, first)
                n += 1
        if pc == slots[f] or used == length:
            return n
        # colours a condition may name: those present, less any a relaxed board leaves out (CONDS_OFF)
        named = present & COLOUR_BITS & ~(present >> CONDS_OFF)
        runs = NO_COND | here_bit if (present & COLOUR_BITS) != here_bit and named & here_bit else NO_COND
        n = _command_options(frame, n, runs, here, used + 1, length, slots, paints, prev_same, nd, f, pc, op, cs)
        skipped = named & ~here_bit
        if skipped:
            frame[FR_OPTS + n] = _option(K_SKIP, -1, skipped)
            n += 1
        return n
    conds = cs[f, pc]
    runs = conds & (NO_COND | here_bit)
    skipped = conds & ~(NO_COND | here_bit)
    o = op[f, pc]
    if o == UNKNOWN:
        n = _command_options(frame, n, runs, here, used, length, slots, paints, prev_same, nd, f, pc, op, cs)
    else:
        if o == OP_PAINT + here:
            runs &= NO_COND  # a paint on its own colour's condition does nothing
        if runs:
            frame[FR_OPTS + n] = _option(K_RUN, o, runs)
            n += 1
    if skipped:
        frame[FR_OPTS + n] = _option(K_SKIP, o, skipped)
        n += 1
    return n


@kernel
def _renamed_first(f, size, slots, nd, sc) -> bool:
    """Would function f (not F1), ending with `size` slots, fit a function h that comes before it in the renaming
    order (fewer slots, or as many and a lower number) and was not called before f was first called? Then renaming
    f and h gives the same runs (h's body fits f, which has at least as many slots), with h called first: of the
    programs that differ only by such renamings, only the one whose functions are first called in that order is
    searched."""
    if f == 0:
        return False
    for h in range(1, MAX_FUNCTIONS):
        if h == f or slots[h] == 0 or size > slots[h]:
            continue
        if slots[h] > slots[f] or (slots[h] == slots[f] and h > f):
            continue
        if nd[h] == 0 or sc[S_CALLED + h] > sc[S_CALLED + f]:
            return True
    return False


@kernel
def _turns_before(f, pc, cond, op, cs) -> tuple:
    """The turn right before slot pc of function f when its condition set is exactly `cond` (else OP_F), and
    whether the two slots before are both `L` with that set."""
    before = OP_F
    if pc >= 1 and cs[f, pc - 1] == cond and (op[f, pc - 1] == OP_L or op[f, pc - 1] == OP_R):
        before = op[f, pc - 1]
    two_lefts = before == OP_L and pc >= 2 and cs[f, pc - 2] == cond and op[f, pc - 2] == OP_L
    return before, two_lefts


@kernel
def _command_options(frame, n, runs, here, used_after, length, slots, paints, prev_same, nd, f, pc, op, cs) -> int:
    """Append an option per command that may run now with conditions `runs`; `used_after` counts this slot.

    Turns after unconditioned turns of the same function (slots pc - 1, pc - 2): `L R`, `R L` do nothing and
    `L L L` is `R` (shorter), `R R` equals `L L` (only `L L` is kept), so such a turn is not offered
    unconditioned. The same holds of turns all conditioned on the colour here (a turn stays on its tile, so
    they all run or all are skipped): after `cL` or `cR`, an `R`, and after `cL cL`, an `L`, is not offered
    conditioned on c. Neither `L` right after an `R` nor `R` right before an `L` is offered, whatever the
    conditions (adjacent turns commute).

    Paints: a paint right after an unconditioned turn is not offered (they commute: the turn reads no colour and
    the paint no heading, so only "paint first" is searched), and after a paint, an unconditioned paint is not
    offered (it paints over the first, which could go).
    """
    turn_before, two_lefts = _turns_before(f, pc, NO_COND, op, cs)
    here_bit = 2 << here
    same_before, same_two_lefts = _turns_before(f, pc, here_bit, op, cs)
    paint_before = pc >= 1 and op[f, pc - 1] >= OP_PAINT
    # adjacent turns commute whatever their conditions (a turn leaves the tile, so the colour, as it is), so
    # only the order "lefts before rights" is searched
    right_before = pc >= 1 and op[f, pc - 1] == OP_R
    left_after = pc + 1 < nd[f] and op[f, pc + 1] == OP_L
    for o in range(N_OPS):
        if (o == OP_L and right_before) or (o == OP_R and left_after):
            continue
        conds = runs
        if turn_before != OP_F and (o == OP_R or (o == OP_L and (turn_before == OP_R or two_lefts))):
            conds = runs & ~NO_COND
            if conds == 0:
                continue
        if same_before != OP_F and (o == OP_R or (o == OP_L and same_two_lefts)):
            conds &= ~here_bit
            if conds == 0:
                continue
        if o >= OP_PAINT:
            paint = o - OP_PAINT
            if not (paints >> paint) & 1 or turn_before != OP_F:
                continue
            if paint == here:
                conds = runs & NO_COND
            if paint_before:
                conds &= ~NO_COND
            if conds == 0:
                continue
        elif o >= OP_CALL:
            g = o - OP_CALL
            if slots[g] == 0:
                continue
            if nd[g] == 0:  # a function not called yet: its first slot needs room, and the lowest of equals first
                if used_after + 1 > length:
                    continue
                # (a function being entered has no slot yet while its first is decided: it counts as called)
                if prev_same[g] >= 0 and nd[prev_same[g]] == 0 and prev_same[g] != f:
                    continue
        frame[FR_OPTS + n] = _option(K_RUN, o, conds)
        n += 1
    return n


@kernel
def _apply(code, sc, op, cs, nd, closed, trail) -> None:
    """Decide the slot at the registers as option `code` says (logged on the trail)."""
    f, pc = sc[S_F], sc[S_PC]
    kind, o, conds = code & 3, ((code >> 2) & 15) - 1, code >> 6
    if kind == K_END:
        _log(trail, sc, T_CLOSED, f, closed[f])
        closed[f] = 1
        if conds:  # the one slot of a one-slot function keeps only its colour conditions
            _log(trail, sc, T_CS, f * MAX_SLOTS, cs[f, 0])
            cs[f, 0] = conds
        return
    slot = f * MAX_SLOTS + pc
    if pc == 0 and nd[f] == 0:  # its first call (a called function's first slot is decided at once)
        called = 0
        for g in range(MAX_FUNCTIONS):
            called += nd[g] > 0
        sc[S_CALLED + f] = called
    if pc == nd[f]:
        _log(trail, sc, T_ND, f, nd[f])
        nd[f] = pc + 1
        sc[S_USED] += 1
    if op[f, pc] != o:
        _log(trail, sc, T_OP, slot, op[f, pc])
        op[f, pc] = o
    _log(trail, sc, T_CS, slot, cs[f, pc])
    cs[f, pc] = conds


@kernel
def _save(frame, sc) -> None:
    """Keep the registers (and the trail's top) in `frame`, for _restore."""
    for k in range(N_SAVED):
        frame[k] = sc[SAVED[k]]
    frame[FR_TRAIL] = sc[S_TTOP]


@kernel
def _restore(frame, sc, trail, colour, star, op, cs, nd, closed, stack) -> None:
    _undo(trail, sc, frame[FR_TRAIL], colour, star, op, cs, nd, closed, stack)
    for k in range(N_SAVED):
        sc[SAVED[k]] = frame[k]


@kernel
def _mine(sc, depth) -> bool:
    """In a share of the tree: is the option about to be applied at `depth` this worker's?"""
    if sc[S_WORKERS] <= 1 or depth != sc[S_SPLIT_DEPTH]:
        return True
    k = sc[S_SPLIT_COUNT]
    sc[S_SPLIT_COUNT] = k + 1
    return k % sc[S_WORKERS] == sc[S_WORKER]


@kernel
def search(
    step,
    colour,
    star,
    slots,
    paints,
    present,
    prev_same,
    op,
    cs,
    nd,
    closed,
    stack,
    trail,
    stamp,
    records,
    path,
    dropped,
    frames,
    sc,
    budget,
) -> int:
    """Search on for at most `budget` nodes: FOUND (the program arrays hold a winning program of at most
    S_LENGTH slots), EXHAUSTED (no more) or PAUSED (call again to go on). The first call starts at the
    registers the caller set (start tile, facing, stars left, F1, nothing pushed)."""
    start_nodes = sc[S_NODES]
    if sc[S_STARTED] == 0:
        sc[S_STARTED] = 1
        result = _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, path, dropped, sc)
    elif sc[S_AFTER_WIN]:
        sc[S_AFTER_WIN] = 0
        result = _LOSE  # go on past the program found
    else:
        result = _DECIDE - 1  # resume: the option at the top frame was applied, run it
    while True:
        if result == _DECIDE - 1:
            result = _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, path, dropped, sc)
        if result == _WIN:
            sc[S_AFTER_WIN] = 1
            return FOUND
        if result == _DECIDE:
            depth = sc[S_DEPTH]
            frame = frames[depth]
            _save(frame, sc)
            frame[FR_COUNT] = _options(frame, sc, colour, slots, paints, present, prev_same, op, cs, nd)
            frame[FR_CURSOR] = -1
            sc[S_DEPTH] = depth + 1
        # take the next option of the deepest frame that has one (backtracking over spent frames)
        while True:
            depth = sc[S_DEPTH]
            if depth == 0:
                return EXHAUSTED
            frame = frames[depth - 1]
            _restore(frame, sc, trail, colour, star, op, cs, nd, closed, stack)
            cursor = frame[FR_CURSOR] + 1
            while cursor < frame[FR_COUNT] and not _mine(sc, depth - 1):
                cursor += 1
            frame[FR_CURSOR] = cursor
            if cursor < frame[FR_COUNT]:
                _apply(frame[FR_OPTS + cursor], sc, op, cs, nd, closed, trail)
                sc[S_NODES] += 1
                break
            sc[S_DEPTH] = depth - 1
        result = _DECIDE - 1
        if sc[S_NODES] - start_nodes >= budget:
            return PAUSED


# ---------------------------------------------------------------- the heuristic: a beam over decisions


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
    sc[S_NODES], sc[S_BOARD] = node - 1, 0


@kernel
def _replay(path, n, node, step, colour0, star0, start, facing, stars, colour, star, op, cs, nd, closed, stack, trail,
            stamp, records, rpath, dropped, sc) -> int:  # fmt: skip
    """Run the program that the first `n` decisions of `path` (option codes) make, from the start: _WIN, _LOSE, or
    _DECIDE with the registers at the next slot to decide. `node` must be new at every call (it keeps the
    stamps and loop records of earlier calls from counting)."""
    op[:] = UNKNOWN
    cs[:] = 0
    nd[:] = 0
    closed[:] = 0
    _from_start(node, colour0, star0, start, facing, stars, colour, star, sc)
    k = 0
    while True:
        result = _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped, sc)
        if result != _DECIDE or k == n:
            return result
        _apply(path[k], sc, op, cs, nd, closed, trail)
        k += 1


@kernel
def _run_level(level, node, step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped,
               sc) -> int:  # fmt: skip
    """Run on from the registers as node `node` at depth `level` of the path (so that loop records and logged
    tiles are this run's own, as in the exact search)."""
    sc[S_DEPTH], sc[S_NODES] = level, node - 1
    return _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped, sc)


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


@kernel
def beam_step(parents, d, count, child_parent, child_option, scores, won, step, colour0, star0, start, facing,
              stars, slots, paints, present, prev_same, colour, star, op, cs, nd, closed, stack, trail, stamp,
              records, rpath, dropped, frames, frame, sc, node, spos, sdist, snear, weights,
              places, rollout) -> tuple:  # fmt: skip
    """Expand the first `count` beam nodes (rows of `parents`, each a path of `d` decisions, paused at a slot to
    decide): every child that is still running is listed (its parent's row in `child_parent`, its
    last decision in `child_option`) with its score (stars collected
    first, then the distance to the nearest star left (`sdist[k, tile]` from star k at tile spos[k], the stars
    looked at in the order `snear[tile]`: nearest first), then
    fewer slots, weighed by `weights`) and its place (`places`: tile, facing and stars left, one number); a child
    that wins is written to `won` (its path, and the slots it uses in
    won[-1]) when it uses fewer slots than the one there. Parents are run as the exact search runs a path:
    the registers at each decision are saved in `frames`, and a parent that shares its first c decisions with
    the one before goes back to that one's c-th decision (undoing the trail) instead of starting again; each
    option is then applied, run, scored and undone. With parents in lexicographic order, siblings cost one
    decision's run each: O(parents x options x actions to the next decision), plus the prefixes not shared.
    With `rollout`, a child is scored instead by where its run ends played out as it stands (S_ROLLOUT): the
    stars it has then, the moves from there to the nearest star left; that costs up to MAX_ACTIONS more per child.
    Where a roll-out caught in an endless loop ends depends on which loop records earlier runs left (a record
    another run overwrote is caught a round later): so those scores, unlike the rest, hang on the order of the
    parents and on how they are split over threads (runs that collect no more stars have no one right place to
    end at; measured on puzzles, the place where the loop is caught guided the beam better than running out
    the actions, which also costs up to a thousand of them per roll-out).
    Returns (children, nodes used up)."""
    m = 0
    alive = False  # the registers are at the last parent's last decision
    for i in range(count):
        shared = 0
        if alive:
            while shared < d and parents[i, shared] == parents[i - 1, shared]:
                shared += 1
        if alive and shared > 0:
            _restore(frames[shared], sc, trail, colour, star, op, cs, nd, closed, stack)
        else:
            node += 1
            alive = False  # until this parent's start is run
            if _replay(parents[i], 0, node, step, colour0, star0, start, facing, stars, colour, star, op, cs, nd,
                       closed, stack, trail, stamp, records, rpath, dropped, sc) != _DECIDE:  # fmt: skip
                continue
            _save(frames[0], sc)
        alive = True
        for j in range(shared, d):
            _apply(parents[i, j], sc, op, cs, nd, closed, trail)
            node += 1
            if _run_level(j + 1, node, step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath,
                          dropped, sc) != _DECIDE:  # fmt: skip
                alive = False
                break
            _save(frames[j + 1], sc)
        if not alive:
            continue
        n_opts = _options(frame, sc, colour, slots, paints, present, prev_same, op, cs, nd)
        for k in range(n_opts):
            if k:
                _restore(frames[d], sc, trail, colour, star, op, cs, nd, closed, stack)
            parents[i, d] = frame[FR_OPTS + k]
            _apply(frame[FR_OPTS + k], sc, op, cs, nd, closed, trail)
            node += 1
            result = _run_level(d + 1, node, step, colour, star, op, cs, nd, closed, stack, trail, stamp, records,
                                rpath, dropped, sc)  # fmt: skip
            if result == _WIN:
                if sc[S_USED] < won[-1]:
                    _copy(won[: d + 1], parents[i, : d + 1])
                    won[-2] = d + 1
                    won[-1] = sc[S_USED]
                continue
            if result == _LOSE or m == child_parent.shape[0]:
                continue
            child_parent[m] = i
            child_option[m] = parents[i, d]
            here = sc[S_POS]
            places[m] = (here * 4 + sc[S_FACING]) * (stars + 1) + sc[S_LEFT]
            if rollout:
                # scored by where it ends played out with nothing more decided. The same node goes on: what it
                # overwrites is logged as the run's own, and the next option's _restore undoes it all
                sc[S_ROLLOUT] = 1
                if _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped,
                        sc) == _WIN:  # fmt: skip
                    here = -1
                else:
                    here = sc[S_POS]
                sc[S_ROLLOUT] = 0
            near = 0 if here < 0 else _nearest(here, star, spos, sdist, snear)
            scores[m] = (stars - sc[S_LEFT]) * weights[0] - near * weights[1] - sc[S_USED] * weights[2]
            m += 1
    return m, node


# ---------------------------------------------------------------- the annealer over whole programs

# the annealer's registers, in `state`: its random generator, the steps it has taken (0: none, so its first step
# starts from a random program), the current score,
# what is known of the current program's run (1: what it saw at each slot, as _run's `seen`, is in the registers
# from A_SEEN on; 2: it won, so a change scores by its slots, not by its run; 0: nothing, the program is new or
# loaded from outside)
A_RNG, A_ITER, A_SCORE, A_KNOWN, A_SEEN = range(5)
N_ANNEAL = A_SEEN + MAX_FUNCTIONS * SEEN_WIDTH
RNG_MOD = 1 << 31
WON = 1 << 40  # the score of a winning program
STAR_SCORE = 256  # a whole program's score: this per star collected, less the moves left to the nearest star
PERMILLE_COND = 300  # of the commands the annealer writes, this many per thousand get a colour condition
MOVES = 8  # kinds of change the annealer draws from (_mutate): 0-4 change or add or drop a slot, 5 swap, 6 move, 7 copy
PERMILLE_TWICE = 300  # of its steps, this many change two slots rather than one


@kernel
def _lcg(x) -> int:
    """The next number of a linear congruential generator mod 2**31 (x below it: stays within int64)."""
    return (x * 1103515245 + 12345) % RNG_MOD


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
