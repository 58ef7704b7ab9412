"""The layout of the Light-Bot kernels' arrays and the codes in them, shared with gridbot.solve.lightbot.

`board_arrays` turns a level into the arrays every Light-Bot kernel reads (gridbot.kernels.lightbot_paths too),
`state_table` the moves into one lookup per state; the sizes (`record_keys`, `stack_size`, `node_rows`,
`trail_rows`) bound what a run and the search can ever need, so that the solver allocates them once. The
constants are the search's results, the registers in `sc`, and the rows and columns of its work arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from gridbot.kernels import EXHAUSTED, FOUND, PAUSED  # noqa: F401 - the codes, read from here by the solvers


class Board(Protocol):
    """What board_arrays reads of a level (gridbot.games.lightbot.Level has it; a kernel imports no game)."""

    @property
    def heights(self) -> Sequence[Sequence[int]]: ...  # per row, per column
    @property
    def lights(self) -> Sequence[tuple[int, int]]: ...  # (row, column) of each light, in their order
    @property
    def start(self) -> tuple[int, int]: ...  # the robot's (row, column)
    @property
    def facing(self) -> int: ...  # 0..3: north, east, south, west


# results of search and _simulate
BRANCH, FAIL, OVERFLOW = 3, 4, 5
UNDECIDED = 6  # _leaf: the robot has stood on every light, so the exact run must decide
NEED_ROOM = 7  # search: the trail has less room than a node may fill; grow it (keeping its rows) and call again

GAPS_PER_BODY = 13  # a body has at most 12 commands, so 13 gaps
N_GAPS = 3 * GAPS_PER_BODY
N_OPTIONS = 7  # close the body, or one of the six walk ops
WORK_SHAPE = (
    7,
    64,
)  # win_gaps' scratch rows: gap vectors, gap numbers, pivots, basis, combinations, null space, subset
# frames on one path: an option per slot and per procedure's close, then the last branch point
MAX_DEPTH = 12 + 8 + 8 + 2 + 1

# the scalars of a search, in `sc`: S_GEN numbers the nodes (for `stamp`), S_TTOP is the trail's top
S_DEPTH, S_NODES, S_STARTED, S_GEN, S_FOUND_S, S_TTOP = range(6)
# a share of the tree for one of several workers: options applied at depth S_SPLIT_DEPTH are dealt
# round-robin (counted in S_SPLIT_COUNT), worker S_WORKER of S_WORKERS keeps its own
S_SPLIT_DEPTH, S_SPLIT_COUNT, S_WORKER, S_WORKERS = range(6, 10)
# the interpreter's state between a run and the next (a branch point): where the robot is, where
# control is, the stack height, the step, the lights stood on, the number of live loop records
S_POS, S_FACING, S_PROC, S_PC, S_H, S_STEP, S_VISITED, S_NREC = range(10, 18)
N_STATE = 8
# nonzero: a guessing search, bits GUESS_* (see _allowed), which may miss programs; 0: the exact search
S_GUESS = 18
# stamps the macro-step search's visits (see _reaches_all)
S_MARK = 19
# 1: the level is its own mirror image across the robot's line of travel, and the search keeps one program of
# each mirrored pair: while no turn is decided, a turn is an R (_allowed; gridbot.solve.lightbot, cut 12)
S_MIRROR = 20
# with FOUND: the gap that holds X X (the win looked for between the two), or -1 (see win_blink)
S_BLINK = 21
N_SCALARS = 22

# rows of `mac`, the memo of procedure effects and the scratch of the macro-step search
M_KEY, M_END, M_LIT = 0, 2, 4  # + procedure - 1: the bodies' key, the end state, the lights passed
M_SEEN, M_QUEUE = 6, 7
M_ROWS = 8

# rows of `leaf`, the scratch of _leaf: its loop records (per control the node that wrote it and the
# record's index; per record its control and stack height) and its call stack
L_GEN, L_IDX, L_CTRL, L_HEIGHT, L_PROC, L_PC = range(6)
L_ROWS = 6

# the guesses: no move that stands still the first time it runs (with GUESS_F2_STILL: outside f2,
# where the optimal programs of levels 6 and 11 have such moves); programs of the shape the optimal
# programs have (main: moves then 1; f1: a loop ending in 1; f2: moves, no calls)
GUESS_MOVES, GUESS_LOOP, GUESS_F2_STILL = 1, 2, 4

# columns of `frames`: the body branched on, the option tried now (and whether applied), the
# branch point's position and facing (for the cuts), the trail's top there, then its whole state
F_PROC, F_OPT, F_POS, F_FACING, F_APPLIED, F_TRAIL, F_STATE = range(7)
N_FRAME = F_STATE + N_STATE

# what a trail entry restores (also the row of `stamp` saying which node last wrote each value)
T_VEC, T_STACK, T_RECS, T_IDX, T_CLOSED = range(5)


def board_arrays(level: Board) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """The level in this layout: `mv`, `light`, `full`, the start position and facing. Shared by every
    Light-Bot kernel. `mv` applies the game's rule (Level.move: F onto the same height, J onto one higher
    or any lower, nothing at the edge) to whole rows of tiles at once; the tests check it against
    Level.move. O(cells), in numpy."""
    heights = np.array(level.heights, np.int64)
    h, w = heights.shape
    here = np.arange(h * w, dtype=np.int64).reshape(h, w)
    mv = np.repeat(here.reshape(h * w, 1, 1), 4, axis=1).repeat(2, axis=2)
    for facing, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):  # Direction order: N, E, S, W
        rows = slice(max(0, -dr), h - max(0, dr))  # the tiles that have a neighbour this way
        cols = slice(max(0, -dc), w - max(0, dc))
        to_rows = slice(max(0, dr), h + min(0, dr))
        to_cols = slice(max(0, dc), w + min(0, dc))
        a, b = heights[rows, cols], heights[to_rows, to_cols]
        sources, targets = here[rows, cols], here[to_rows, to_cols]
        for k, allowed in enumerate((b == a, (b == a + 1) | (b < a))):
            mv[sources[allowed], facing, k] = targets[allowed]
    light = np.full(h * w, -1, np.int64)
    for i, (r, c) in enumerate(level.lights):
        light[r * w + c] = i
    return mv, light, (1 << len(level.lights)) - 1, level.start[0] * w + level.start[1], int(level.facing)


def state_table(mv: np.ndarray) -> np.ndarray:
    """`after[pos * 4 + facing, op]`: the state after walk op 0..3 (F, J, L, R), a position and facing as one
    number. O(cells), in numpy."""
    cells = mv.shape[0]
    pos = np.repeat(np.arange(cells, dtype=np.int64), 4)
    facing = np.tile(np.arange(4, dtype=np.int64), cells)
    after = np.empty((cells * 4, 4), np.int64)
    after[:, 0] = mv[pos, facing, 0] * 4 + facing
    after[:, 1] = mv[pos, facing, 1] * 4 + facing
    after[:, 2] = pos * 4 + (facing + 3) % 4
    after[:, 3] = pos * 4 + (facing + 1) % 4
    return after


def record_keys(cells: int) -> int:
    """Loop records are keyed by state and procedure (state * 3 + procedure): the keys there are."""
    return cells * 4 * 3


def stack_size(cells: int) -> int:
    """Frames the call stack of a run can hold on a level of `cells` tiles: 2 x record_keys + 2.

    Live loop records have distinct keys (a key with a live record is a
    repeat, not recorded again), so there are at most record_keys of them.
    Until a run meets a repeat, every stack height has a live record (made
    when the procedure running there was entered; records above the stack are
    dropped), so the stack is at most record_keys high. After the repeat the
    run goes on for one period, which replays the period before it (static
    control flow) one level higher: at most record_keys more. _leaf stops at
    the repeat. So a run never overflows this stack: OVERFLOW is a bug.
    """
    return 2 * record_keys(cells) + 2


def node_rows(cells: int) -> int:
    """Trail rows one node can fill: it logs each value it overwrites once (gap vectors, stack frames, loop
    records, their index, the closed flags)."""
    return N_GAPS + stack_size(cells) + (record_keys(cells) + 1) + record_keys(cells) + 3


def trail_rows(cells: int) -> int:
    """Rows the trail can ever need: the nodes on one path of the search, each node_rows at most. The
    search asks for more room (NEED_ROOM) before a node when less than node_rows are left, so the trail
    can start smaller and grow."""
    return (MAX_DEPTH + 1) * node_rows(cells)
