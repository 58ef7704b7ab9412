"""The RoboZZle exact search: the options of a slot reached undecided, and the depth-first search over them.

A program is not enumerated as text: the robot runs the partial program (gridbot.kernels.robozzle.machine), and a
slot is decided when execution first reaches it. `_options` lists what may fill it (the canonical-form cuts that
gridbot.solve.robozzle explains keep equal programs from being searched twice); `search` applies them depth
first, saving the registers in a frame per decision and restoring them from the trail on backtracking, for at
most a node budget per call.
"""

from __future__ import annotations

from gridbot.kernels import kernel
from gridbot.kernels.robozzle.layout import (
    _DECIDE,
    _LOSE,
    _WIN,
    COLOUR_BITS,
    CONDS_OFF,
    EXHAUSTED,
    FOUND,
    FR_COUNT,
    FR_CURSOR,
    FR_OPTS,
    FR_TRAIL,
    K_END,
    K_RUN,
    K_SKIP,
    MAX_FUNCTIONS,
    MAX_SLOTS,
    N_OPS,
    N_SAVED,
    NO_COND,
    NOOPS,
    OP_CALL,
    OP_F,
    OP_L,
    OP_PAINT,
    OP_R,
    PAUSED,
    S_ACT,
    S_AFTER_WIN,
    S_CALLED,
    S_DEPTH,
    S_ENT,
    S_F,
    S_FACING,
    S_LEAST,
    S_LENGTH,
    S_MIRROR,
    S_NODES,
    S_PC,
    S_POS,
    S_SP,
    S_SPLIT_COUNT,
    S_SPLIT_DEPTH,
    S_STACK_CAP,
    S_STARTED,
    S_TTOP,
    S_UNDECIDED,
    S_USED,
    S_WORKER,
    S_WORKERS,
    SAVED,
    T_CLOSED,
    T_CS,
    T_ND,
    T_OP,
    UNKNOWN,
)
from gridbot.kernels.robozzle.machine import _call_lost, _log, _run, _undo


@kernel
def _option(kind: int, op: int, cs: int) -> int:
    return kind | ((op + 1) << 2) | (cs << 6)


@kernel
def _options(frame, sc, step, colour, stack, slots, paints, present, prev_same, op, cs, nd) -> int:
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
    falls = step[sc[S_POS] * 4 + sc[S_FACING]] < 0  # a move run here falls off the board: lost at once
    loops = _looping_calls(sc, stack)  # the calls that, run here, lose at once
    n = 0
    if pc == nd[f]:  # a new slot
        if pc >= 1 and not (f == 0 and sc[S_SP] == 0):
            first = _end_conds(f, pc, sc, slots, nd, cs)
            if first >= 0:
                frame[FR_OPTS + n] = _option(K_END, -1, first)
                n += 1
        if pc == slots[f] or used == length:
            return n
        # colours a condition may name: those present, less any a relaxed board leaves out (CONDS_OFF)
        named = present & COLOUR_BITS & ~(present >> CONDS_OFF)
        runs = NO_COND | here_bit if (present & COLOUR_BITS) != here_bit and named & here_bit else NO_COND
        n = _command_options(
            frame, n, runs, here, falls, loops, used + 1, length, slots, paints, prev_same, nd, f, pc, op, cs,
            sc[S_MIRROR],
        )  # fmt: skip
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
        n = _command_options(
            frame, n, runs, here, falls, loops, used, length, slots, paints, prev_same, nd, f, pc, op, cs, sc[S_MIRROR]
        )
    else:
        if o == OP_PAINT + here:
            runs &= NO_COND  # a paint on its own colour's condition does nothing
        if (o == OP_F and falls) or (o >= OP_CALL and o < OP_PAINT and (loops >> (o - OP_CALL)) & 1):
            runs = 0
        if runs:
            frame[FR_OPTS + n] = _option(K_RUN, o, runs)
            n += 1
    if skipped:
        frame[FR_OPTS + n] = _option(K_SKIP, o, skipped)
        n += 1
    return n


@kernel
def _looping_calls(sc, stack) -> int:
    """The functions whose call, run at the registers, loses the run at once (machine._call_lost), as bits."""
    bits = 0
    for g in range(MAX_FUNCTIONS):
        if _call_lost(g, sc[S_F], sc[S_ENT], sc[S_ACT], sc[S_SP], sc[S_STACK_CAP], stack)[0]:
            bits |= 1 << g
    return bits


@kernel
def _end_conds(f, size, sc, slots, nd, cs) -> int:
    """May function f end with `size` slots (not none: cut 1), and with what condition set for its one slot? -1
    when it may not: a function (not F1) of one unconditioned command can be written out at its call sites
    (shorter, cut 7), and one a function before it in the renaming order could hold is renamed (cut 2). Else the
    set a one-slot function's slot keeps, its colour conditions only (0: no change)."""
    if f == 0:
        return 0
    if (size == 1 and cs[f, 0] == NO_COND) or _renamed_first(f, size, slots, nd, sc):
        return -1
    return cs[f, 0] & ~NO_COND if size == 1 and cs[f, 0] & NO_COND else 0


@kernel
def _end(f, conds, sc, cs, closed, trail) -> None:
    """End function f, its one slot keeping the set `conds` when not 0 (_end_conds), logged on the trail."""
    _log(trail, sc, T_CLOSED, f, closed[f])
    closed[f] = 1
    if conds:
        _log(trail, sc, T_CS, f * MAX_SLOTS, cs[f, 0])
        cs[f, 0] = conds


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
def _command_options(
    frame, n, runs, here, falls, loops, used_after, length, slots, paints, prev_same, nd, f, pc, op, cs, mirror
) -> int:
    """Append an option per command that may run now with conditions `runs`; `used_after` counts this slot.

    Turns after unconditioned turns of the same function (slots pc - 1, pc - 2): `L R`, `R L` do nothing and
    `L L L` is `R` (shorter), `R R` equals `L L` (only `L L` is kept), so such a turn is not offered
    unconditioned. The same holds of turns all conditioned on the colour here (a turn stays on its tile, so
    they all run or all are skipped): after `cL` or `cR`, an `R`, and after `cL cL`, an `L`, is not offered
    conditioned on c. Neither `L` right after an `R` nor `R` right before an `L` is offered, whatever the
    conditions (adjacent turns commute).

    While `mirror` (the mirror cut holds: no turn decided yet on a puzzle that is its own mirror image across the
    robot's line of travel), a turn is an `L`: the first turn decides which of a mirrored pair is searched.

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
        if (o == OP_L and right_before) or (o == OP_R and (left_after or mirror)) or (o == OP_F and falls):
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
            if slots[g] == 0 or (loops >> g) & 1:
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
        _end(f, conds, sc, cs, closed, trail)
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
        sc[S_UNDECIDED] += o == UNKNOWN
    elif op[f, pc] == UNKNOWN:
        sc[S_UNDECIDED] -= o != UNKNOWN
    if op[f, pc] != o:
        _log(trail, sc, T_OP, slot, op[f, pc])
        op[f, pc] = o
        if OP_L <= o <= OP_R:
            sc[S_MIRROR] = 0  # the first turn is decided: the mirror cut has done its work on this path
    _log(trail, sc, T_CS, slot, cs[f, pc])
    cs[f, pc] = conds
    if conds == NO_COND and cs[NOOPS + f, pc]:  # a paint's no-op runs (machine._run) were actions after all
        sc[S_ACT] += cs[NOOPS + f, pc]
        _log(trail, sc, T_CS, NOOPS * MAX_SLOTS + slot, cs[NOOPS + f, pc])
        cs[NOOPS + f, pc] = 0


@kernel
def _short(sc, slots, nd, closed) -> bool:
    """Can the program no longer reach S_LEAST slots? The slots it can still gain: the room left in each function
    called and not yet ended, and, when a slot can still become a call (a new slot of such a function, or a slot
    whose command is not decided), every slot of the functions not yet called."""
    room = 0
    for f in range(MAX_FUNCTIONS):
        if nd[f] > 0 and not closed[f]:
            room += slots[f] - nd[f]
    if room > 0 or sc[S_UNDECIDED]:
        for g in range(MAX_FUNCTIONS):
            if nd[g] == 0:
                room += slots[g]
    return sc[S_USED] + room < sc[S_LEAST]


@kernel
def _inlined(slots, op, cs, nd) -> bool:
    """With no slot left to add: is some function g (not F1) called from exactly one slot, unconditioned, of
    another function with room for g's body, and no command left undecided (which could call g too)? Then
    writing g's body in place of that call runs the same, in one slot fewer. One pass over the slots: per
    function, 8 bits: the calls of it (up to 2), the caller's number and whether the call is unconditioned."""
    calls = 0
    for f in range(MAX_FUNCTIONS):
        for i in range(nd[f]):
            o = op[f, i]
            if o == UNKNOWN:
                return False
            if o >= OP_CALL and o < OP_PAINT:
                shift = 8 * (o - OP_CALL)
                seen = (calls >> shift) & 3
                if seen < 2:
                    plain = 1 if cs[f, i] == NO_COND else 0
                    calls = (calls & ~(255 << shift)) | ((seen + 1) << shift) | (f << (shift + 2))
                    calls |= plain << (shift + 5)
    for g in range(1, MAX_FUNCTIONS):
        entry = (calls >> (8 * g)) & 255
        at = (entry >> 2) & 7
        if entry & 3 == 1 and entry >> 5 & 1 and at != g and nd[at] - 1 + nd[g] <= slots[at]:
            return True
    return False


@kernel
def _cut(code, fresh, sc, slots, op, cs, nd, closed) -> bool:
    """After option `code` is applied to the slot at the registers (`fresh`: it was new, or its command undecided):
    is the run lost at once, as too short (_short) or inlinable (_inlined)? A function's end is the only decision
    that lowers the slots the program can still gain (a new slot is one gained and one fewer left); a function
    becomes inlinable only when a slot is added, a command decided, or a call's condition narrowed to none."""
    if code & 3 == K_END:
        return sc[S_USED] < sc[S_LEAST] and _short(sc, slots, nd, closed)
    if sc[S_USED] != sc[S_LENGTH] or sc[S_UNDECIDED]:
        return False
    f, pc = sc[S_F], sc[S_PC]
    if not fresh:  # a call's condition narrowed: only the function it calls can have become inlinable
        g = op[f, pc] - OP_CALL
        if g < 1 or g >= MAX_FUNCTIONS or cs[f, pc] != NO_COND or g == f or nd[f] - 1 + nd[g] > slots[f]:
            return False
    return _inlined(slots, op, cs, nd)


@kernel
def _close_all(sc, slots, cs, nd, closed, trail) -> bool:
    """With every slot of the length used, no function can gain a slot or first be called (a call of a function
    not called yet needs room for its first command), so the end of each open function is decided now, as the
    run would decide it on reaching it (_end_conds, _end); is the run lost at once? It is when one of them may
    not end as it stands, whether or not the run ever reaches that end: the shorter or renamed equivalent is
    searched. F1 closed ends the run at its end with nothing pushed, lost, as no option there did."""
    for f in range(MAX_FUNCTIONS):
        if nd[f] == 0 or closed[f]:
            continue
        conds = _end_conds(f, nd[f], sc, slots, nd, cs)
        if conds < 0:
            return True
        _end(f, conds, sc, cs, closed, trail)
    return False


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
    code, fresh = K_SKIP, False  # the option applied last, and whether its slot was new or its command undecided
    used = 0  # the slots used before it
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
            frame[FR_COUNT] = _options(frame, sc, step, colour, stack, slots, paints, present, prev_same, op, cs, nd)
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
                code = frame[FR_OPTS + cursor]
                fresh = sc[S_PC] == nd[sc[S_F]] or op[sc[S_F], sc[S_PC]] == UNKNOWN
                used = sc[S_USED]
                _apply(code, sc, op, cs, nd, closed, trail)
                sc[S_NODES] += 1
                break
            sc[S_DEPTH] = depth - 1
        lost = _cut(code, fresh, sc, slots, op, cs, nd, closed)
        if not lost and sc[S_USED] > used and sc[S_USED] == sc[S_LENGTH]:  # the last slot: every end decided now
            lost = _close_all(sc, slots, cs, nd, closed, trail)
        result = _LOSE if lost else _DECIDE - 1
        if result != _LOSE and sc[S_NODES] - start_nodes >= budget:
            return PAUSED
