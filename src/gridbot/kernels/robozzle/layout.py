"""The layout of the RoboZZle kernels' arrays and the codes in them, shared with gridbot.solve.robozzle.

Every name here is a number the solver and the kernels agree on: the search's results, the op and condition codes,
the registers in `sc`, the columns of a decision frame and of a loop record, the kinds of trail entry and option.
See gridbot.kernels.robozzle for what the arrays hold.
"""

from gridbot.kernels import EXHAUSTED, FOUND, PAUSED  # noqa: F401 - the codes, read from here by the solvers

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
# the condition sets `cs` have MAX_FUNCTIONS more rows: cs[NOOPS + f, i] counts the times a paint at slot i of
# function f was reached on its own colour while its set still held both "none" and a colour (a no-op either way,
# so not decided there: see machine._run); they are actions only if the set ends as "none" (exact._apply)
NOOPS = MAX_FUNCTIONS
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
# the fewest slots a winning program may have (0: any): a search of length L after every shorter length is excluded
# sets it to L, and a partial program that can no longer reach it is cut (_short)
S_LEAST = S_ROLLOUT + 1
# slots whose command is not decided (only ever skipped), on this path: while any is, no function is inlinable
S_UNDECIDED = S_LEAST + 1
# 1 while the mirror cut holds on this path: the puzzle is its own mirror image across the robot's line of travel,
# the search was asked to keep one program of each mirrored pair, and no turn is decided yet (exact, cut 14)
S_MIRROR = S_UNDECIDED + 1
S_SEEN = S_MIRROR + 1
N_SCALARS = S_SEEN + MAX_FUNCTIONS * SEEN_WIDTH
# the registers a decision frame saves, in this order
SAVED = (S_USED, S_POS, S_FACING, S_F, S_PC, S_ENT, S_ACT, S_SP, S_LEFT, S_PAINTS, S_BOARD, S_UNDECIDED, S_MIRROR)
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
