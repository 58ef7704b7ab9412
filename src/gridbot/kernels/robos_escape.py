"""Compiled hot loop of the Robo's Escape solver: the lazy search over program slots.

gridbot.solve.robos_escape explains the search and why each cut is safe; this
module is the same depth-first search with all its state in arrays, so that
numba can compile it and a call can stop after a node budget (the Python
driver then checks the clock, or takes an escape found) and the next call
resumes it.

Layout shared with the Python side:

- the board is flat with a border of walls: cell index r * width + c, `cells`
  holds the codes FLOOR, COIN, BLOCK, WALL, EXIT, LASER (a cell only a laser
  crosses), `deltas` the index change of one step facing N, E, S, W, `reach`
  1 on cells the robot could ever stand on;
- token codes as in the solver: F, L, R, G, X, `.`, then call n, label `'n`
  and call-label `''n` for n = 1..5; `slots` holds them (UNDECIDED = -1) and
  `label_at[n]` the slot of label n, UNKNOWN or ABSENT;
- the machine's registers (pc, call stack, robot, coins, counters of the undo
  logs) are `sc[0:N_REGS]`; each frame of the depth-first search keeps a copy
  of them as they were at its branch point, so backtracking restores them and
  unwinds the logs to the frame's marks;
- the call stack is a persistent linked list in `pool` (value, parent): a push
  appends, a pop follows the parent, and backtracking truncates the pool;
- rule 4 (endless runs) keeps records (key, stack height, previous record) in
  `recs`, a chain whose top is the newest live record; `seen[key]` has bit 1
  while a live record at height 0 has that key and bit 2 while one above 0
  has. A stack lower than a record's height kills it (popped from the chain).
  Every write to `seen` and to `cells` is logged with the old value (`slog`,
  `clog`), so backtracking restores both exactly.

Run as plain Python (`search.py_func`), the kernel gives the same answers and
node counts, only slower; the tests compare the two.
"""

from __future__ import annotations

from gridbot.kernels import EXHAUSTED, FOUND, PAUSED, kernel  # noqa: F401 - the codes, read from here by the solvers

# results of search
# results of one stretch of execution (inside search)
_ESCAPE, _DEAD, _SLOT, _LABEL = 0, 1, 2, 3

# cell codes
FLOOR, COIN, BLOCK, WALL, EXIT, LASER = range(6)

NAMES = 5
F, TL, TR, G, X, RET = range(6)
CALL, LABEL, CALLABEL = 6, 6 + NAMES, 6 + 2 * NAMES
UNDECIDED = -1
UNKNOWN, ABSENT = -1, -2
SLOT_OPTIONS = 6 + 3 * NAMES  # six commands, then call, label, call-label of each name

# registers of the machine, sc[0:N_REGS], copied into every frame
R_PC, R_TOP, R_H, R_POS, R_FACING, R_COINS, R_LEFT, R_CHANGES, R_STEPS = range(9)
R_POOL, R_RECN, R_RECTOP, R_CLOG, R_SLOG = range(9, 14)
N_REGS = 14
# further scalars of a search
S_DEPTH, S_NODES, S_STARTED, S_CMIN, S_NAMES, S_UNDECIDED, S_FOUND_COINS, S_BNAME, S_NO_LASER = range(14, 23)
# how often each cut fired, in the order of gridbot.solve.robos_escape.CUTS
C_PAIRS, C_LABELS, C_NAMES, C_ENDLESS, C_LIMIT, C_COINS, C_DEAD, C_LASER = range(23, 31)
S_WORK = 31  # commands executed, over all calls: a call also pauses after a budget of them
# a share of the tree for one of several workers: an option applied at decision depth S_SPLIT_DEPTH is kept
# by worker S_WORKER of S_WORKERS only when the hash of the options on its path (split_owner) says so
S_SPLIT_DEPTH, S_WORKER, S_WORKERS = 32, 33, 34
# how many function names a program may use (NAMES: every one; fewer: a smaller language, e.g. 0 for none)
S_MAX_NAMES = 35
N_SCALARS = 36
SPLIT_MOD = 1_000_000_007  # the path hash is kept below this, so the compiled kernel and its twin agree

# frame columns beyond the registers
F_KIND, F_P, F_OPT, F_NAMES, F_CALLPC = range(N_REGS, N_REGS + 5)
N_FRAME = N_REGS + 5
KIND_SLOT, KIND_LABEL = 0, 1

# the game's limit on executed commands (gridbot.games.robos_escape.MAX_COMMANDS, kept here because a kernel imports
# nothing of the game: gridbot.solve.robos_escape checks that the two are equal)
MAX_COMMANDS = 10_000
# capacity of the pool, the records and the logs: one path executes at most MAX_COMMANDS commands,
# each pushing at most once, recording once, changing at most one cell; a record dies at most once
CAPACITY = MAX_COMMANDS + 8


@kernel
def _forbidden(left, right):  # pragma: no cover - compiled
    """Rules 1 and 2 on two adjacent tokens: `LR RL LL GG LG RG XG` and `n'n`. O(1)."""
    if right == G:
        return left == G or left == TL or left == TR or left == X  # noqa: SIM109 - numba compiles plain comparisons
    if left == TL:
        return right == TR or right == TL  # noqa: SIM109
    if left == TR:
        return right == TL
    return CALL <= left < LABEL and right == left + NAMES


@kernel
def allowed(slots, L, p, token, sc):  # pragma: no cover - compiled
    """May slot p hold `token`, given its decided neighbours (rules 1, 2, `RRR`) and rule 6? Counts the cut. O(1)."""
    if token == X and sc[S_NO_LASER]:
        sc[C_LASER] += 1
        return False
    left = slots[p - 1] if p > 0 else UNDECIDED
    right = slots[p + 1] if p + 1 < L else UNDECIDED
    if (left != UNDECIDED and _forbidden(left, token)) or (right != UNDECIDED and _forbidden(token, right)):
        if token >= LABEL:
            sc[C_LABELS] += 1
        else:
            sc[C_PAIRS] += 1
        return False
    if token == TR:  # RRR is L
        far_left = slots[p - 2] if p > 1 else UNDECIDED
        far_right = slots[p + 2] if p + 2 < L else UNDECIDED
        if (left == TR and (far_left == TR or right == TR)) or (right == TR and far_right == TR):
            sc[C_PAIRS] += 1
            return False
    return True


@kernel
def split_owner(frames, f, workers):  # pragma: no cover - compiled
    """The worker whose share holds the subtree of the options applied at frames 0..f: a hash of the path itself,
    not a count of the subtrees met before it, because a share that has found an escape raises its coin bound
    and cuts (rule 5) subtrees the others still enter. O(f)."""
    h = 0
    for d in range(f + 1):
        h = (h * 31 + frames[d, F_OPT] + 1) % SPLIT_MOD
    return h % workers


@kernel
def search(
    cells,
    deltas,
    reach,
    start,
    coins_total,
    L,
    size,
    slots,
    label_at,
    sc,
    frames,
    pool,
    recs,
    seen,
    slog,
    clog,
    budget,
    work,
):  # pragma: no cover - compiled
    """Depth-first search for programs of exactly L tokens that escape with at least sc[S_CMIN] coins.

    Returns FOUND (the program is `slots`, its coins sc[S_FOUND_COINS]; the
    caller may raise sc[S_CMIN] and call again to continue past it),
    EXHAUSTED (every program of L tokens has been searched, up to the cuts) or
    PAUSED (after `budget` more nodes or `work` more executed commands, so that
    a call takes a bounded time; call again to resume). A node is a branch
    point: a slot reached while undecided, or a call whose label is undecided.
    Exponential in L; each node costs the commands executed since its parent's
    branch point (the state is restored from the frame, not re-run).
    """
    stop = sc[S_NODES] + budget
    work_stop = sc[S_WORK] + work
    while True:
        if sc[S_STARTED] == 0:  # the root: run from the start
            sc[S_STARTED] = 1
            sc[R_PC] = 0
            sc[R_TOP] = -1
            sc[R_H] = 0
            sc[R_POS] = start
            sc[R_FACING] = 2  # south
            sc[R_COINS] = 0
            sc[R_LEFT] = coins_total
            sc[R_CHANGES] = 0
            sc[R_STEPS] = 0
            sc[R_POOL] = 0
            sc[R_RECN] = 0
            sc[R_RECTOP] = -1
            sc[R_CLOG] = 0
            sc[R_SLOG] = 0
        else:
            if sc[S_DEPTH] == 0:
                return EXHAUSTED
            if sc[S_NODES] >= stop or sc[S_WORK] >= work_stop:
                return PAUSED
            f = sc[S_DEPTH] - 1
            kind = frames[f, F_KIND]
            p = frames[f, F_P]
            k = frames[f, F_OPT]
            # take back the option applied now
            if k >= 0:
                if kind == KIND_SLOT:
                    token = slots[p]
                    if token >= LABEL:
                        label_at[(token - CALL) % NAMES + 1] = UNKNOWN
                    slots[p] = UNDECIDED
                    sc[S_UNDECIDED] += 1
                    sc[S_NAMES] = frames[f, F_NAMES]
                else:
                    if k >= 1:
                        slots[(k - 1) // 2] = UNDECIDED
                        sc[S_UNDECIDED] += 1
                    label_at[p] = UNKNOWN
            # unwind the logs to the frame's marks, then restore its registers
            i = sc[R_CLOG]
            while i > frames[f, R_CLOG]:
                i -= 1
                cells[clog[0, i]] = clog[1, i]
            i = sc[R_SLOG]
            while i > frames[f, R_SLOG]:
                i -= 1
                seen[slog[0, i]] = slog[1, i]
            for r in range(N_REGS):
                sc[r] = frames[f, r]
            # the next option allowed here
            names = frames[f, F_NAMES]
            k += 1
            token = UNDECIDED
            if kind == KIND_SLOT:
                while k < SLOT_OPTIONS:
                    if k < 6:
                        if allowed(slots, L, p, k, sc):
                            token = k
                            break
                    else:
                        name = (k - 6) // 3 + 1
                        what = (k - 6) % 3
                        if name > min(names + 1, sc[S_MAX_NAMES]):  # rule 3: a new name is the next number
                            k = SLOT_OPTIONS
                            break
                        if what == 0:
                            if allowed(slots, L, p, CALL + name - 1, sc):
                                token = CALL + name - 1
                                break
                        elif label_at[name] == UNKNOWN and p + 1 < L:  # rule 2: one label per name
                            t = (LABEL if what == 1 else CALLABEL) + name - 1
                            if allowed(slots, L, p, t, sc):
                                token = t
                                break
                        elif what == 1 and label_at[name] != UNKNOWN:
                            sc[C_LABELS] += 1
                    k += 1
                if k >= SLOT_OPTIONS:
                    frames[f, F_OPT] = -1
                    sc[S_DEPTH] = f
                    continue
                frames[f, F_OPT] = k
                slots[p] = token
                sc[S_UNDECIDED] -= 1
                if token >= CALL:
                    name = (token - CALL) % NAMES + 1
                    if name > names:
                        sc[S_NAMES] = name
                    if token >= LABEL:
                        label_at[name] = p
                sc[R_PC] = p
            else:
                # k = 0: no label p; k = 1 + 2 q + j: label (j = 0) or call-label (j = 1) at slot q
                while k < 1 + 2 * (L - 1):  # a label in the last slot would jump off the end
                    if k == 0:
                        break
                    q = (k - 1) // 2
                    t = (LABEL if (k - 1) % 2 == 0 else CALLABEL) + p - 1
                    if slots[q] == UNDECIDED and allowed(slots, L, q, t, sc):
                        token = t
                        break
                    k += 1
                if k >= 1 + 2 * (L - 1):
                    frames[f, F_OPT] = -1
                    sc[S_DEPTH] = f
                    continue
                frames[f, F_OPT] = k
                if k == 0:
                    label_at[p] = ABSENT
                    sc[R_PC] = frames[f, F_CALLPC] + 1
                else:
                    q = (k - 1) // 2
                    slots[q] = token
                    sc[S_UNDECIDED] -= 1
                    label_at[p] = q
                    sc[R_PC] = q + 1
            if f == sc[S_SPLIT_DEPTH] and sc[S_WORKERS] > 1 and split_owner(frames, f, sc[S_WORKERS]) != sc[S_WORKER]:
                continue  # another share's subtree: taken back at once, as a dead end is

        # -- execute decided slots until an escape, a dead end or a decision
        pc = sc[R_PC]
        top = sc[R_TOP]
        h = sc[R_H]
        pos = sc[R_POS]
        facing = sc[R_FACING]
        coins = sc[R_COINS]
        left = sc[R_LEFT]
        changes = sc[R_CHANGES]
        steps = sc[R_STEPS]
        npool = sc[R_POOL]
        recn = sc[R_RECN]
        rectop = sc[R_RECTOP]
        nclog = sc[R_CLOG]
        nslog = sc[R_SLOG]
        cmin = sc[S_CMIN]
        result = _DEAD
        while True:
            if pc >= L:
                break  # ran off the end
            token = slots[pc]
            if token == UNDECIDED:
                if steps < MAX_COMMANDS:
                    result = _SLOT
                else:
                    sc[C_LIMIT] += 1
                break
            if LABEL <= token < CALLABEL:
                pc += 1  # a label is skipped, not executed
                continue
            if steps >= MAX_COMMANDS:
                sc[C_LIMIT] += 1
                break
            # rule 4: records above this stack height are dead; a live record of this state is a loop, unless
            # it was made at height 0 and the stack is higher now: in between a `.` may have restarted the
            # string at height 0, where at this height it returns. seen[key]: bit 1 for a live record at
            # height 0, bit 2 for one above (at most one of each: a second would have been a loop)
            while rectop >= 0 and recs[1, rectop] > h:
                key = recs[0, rectop]
                slog[0, nslog] = key
                slog[1, nslog] = seen[key]
                nslog += 1
                seen[key] = seen[key] & 1
                rectop = recs[2, rectop]
            key = pc + L * (pos + size * (facing + 4 * changes))
            mark = seen[key]
            if mark & 2 or (mark & 1 and h == 0):
                sc[C_ENDLESS] += 1
                break
            slog[0, nslog] = key
            slog[1, nslog] = mark
            nslog += 1
            seen[key] = mark | (1 if h == 0 else 2)
            recs[0, recn] = key
            recs[1, recn] = h
            recs[2, recn] = rectop
            rectop = recn
            recn += 1
            steps += 1
            if token == F:
                there = pos + deltas[facing]
                cell = cells[there]
                if cell == EXIT:
                    result = _ESCAPE
                    break
                if cell == FLOOR or cell == COIN:  # noqa: SIM109
                    pos = there
            elif token == TL:
                facing = (facing + 3) % 4
            elif token == TR:
                facing = (facing + 1) % 4
            elif token == G:
                if cells[pos] == COIN:
                    clog[0, nclog] = pos
                    clog[1, nclog] = COIN
                    nclog += 1
                    cells[pos] = FLOOR
                    coins += 1
                    left -= 1
                    changes += 1
            elif token == X:
                d = deltas[facing]
                there = pos + d
                while cells[there] != COIN and cells[there] != BLOCK and cells[there] != WALL:
                    there += d
                cell = cells[there]
                if cell != WALL:
                    clog[0, nclog] = there
                    clog[1, nclog] = cell
                    nclog += 1
                    cells[there] = FLOOR
                    changes += 1
                    if cell == COIN and reach[there] != 0:
                        left -= 1
                        if coins + left < cmin:
                            sc[C_COINS] += 1
                            break  # rule 5
            elif token == RET:
                if h > 0:
                    pc = pool[0, top]
                    top = pool[1, top]
                    h -= 1
                else:
                    pc = 0
                continue
            elif token < LABEL:  # a call
                pool[0, npool] = pc + 1
                pool[1, npool] = top
                top = npool
                npool += 1
                h += 1
                name = token - CALL + 1
                target = label_at[name]
                if target >= 0:
                    pc = target + 1
                elif target == ABSENT:
                    pc += 1
                else:
                    result = _LABEL
                    sc[S_BNAME] = name
                    break
                continue
            else:  # a call-label, the only label of its name: the call lands right after it
                pool[0, npool] = pc + 1
                pool[1, npool] = top
                top = npool
                npool += 1
                h += 1
            pc += 1
        sc[R_PC] = pc
        sc[R_TOP] = top
        sc[R_H] = h
        sc[R_POS] = pos
        sc[R_FACING] = facing
        sc[R_COINS] = coins
        sc[R_LEFT] = left
        sc[R_CHANGES] = changes
        sc[S_WORK] += steps - sc[R_STEPS]
        sc[R_STEPS] = steps
        sc[R_POOL] = npool
        sc[R_RECN] = recn
        sc[R_RECTOP] = rectop
        sc[R_CLOG] = nclog
        sc[R_SLOG] = nslog

        if result == _ESCAPE:
            if sc[S_UNDECIDED] > 0:
                sc[C_DEAD] += 1  # undecided slots never ran: the program without them is shorter
            elif coins >= cmin:
                sc[S_FOUND_COINS] = coins
                return FOUND
        elif result == _SLOT or result == _LABEL:  # noqa: SIM109 - numba compiles plain comparisons
            sc[S_NODES] += 1
            if result == _SLOT:
                if coins + left < cmin:
                    sc[C_COINS] += 1  # rule 5
                    continue
                sc[C_NAMES] += max(0, NAMES - sc[S_NAMES] - 1)
            d = sc[S_DEPTH]
            for r in range(N_REGS):
                frames[d, r] = sc[r]
            frames[d, F_OPT] = -1
            frames[d, F_NAMES] = sc[S_NAMES]
            if result == _SLOT:
                frames[d, F_KIND] = KIND_SLOT
                frames[d, F_P] = pc
            else:
                frames[d, F_KIND] = KIND_LABEL
                frames[d, F_P] = sc[S_BNAME]
                frames[d, F_CALLPC] = pc
            sc[S_DEPTH] = d + 1
