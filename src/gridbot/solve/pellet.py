"""The Pellet Eater solver: a Hamiltonian path of the open cells from S, or a proof that none exists.

Order of work (each step is exact; a path is always re-checked by the game's `run`):

1. Certificates at the root (`certificate`): cells cut off from S, two or more
   dead ends (cells with one open neighbour, each of which would have to be the
   path's end), and the block-chain test of gridbot.kernels.pellet.block_check
   (S separating the board, a cell separating three parts, two parts that each
   need the path's end, checkerboard colour parity of the whole board or of a
   segment between cut cells). Any of these proves Status.UNSOLVABLE and names why.
2. A construction in linear time when the open cells fill a rectangle
   (`rectangle_path`): a Hamiltonian cycle for an even number of cells, strips
   of two rows or columns spliced onto a smaller rectangle for an odd one.
3. Otherwise the complete depth-first search of the kernel (dead-end counters
   and block_check at every node, Warnsdorff move order; on boards of at most
   64 open cells also forced-edge propagation once the end is known and a table
   of failed positions, see gridbot.kernels.pellet.search), run with restarts:
   run i explores the same tree in an order drawn from (seed, i) and stops after
   a node budget that doubles each time. A run that finishes proves its answer
   (a path, or "no path" when the whole tree failed), so the answer is exact;
   with the same seed the same path comes out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.errors import WrongAnswer
from gridbot.games.pellet import WALL, Level, Moves, moves_of_indices, run
from gridbot.kernels import pellet as kern
from gridbot.result import SolveResult, Status
from gridbot.solve.memory import memory_budget

# the most memory a solve allocates per padded cell, for the budget check: a solve's peak is about 80 bytes a cell
# (rectangle) and 120 (search: scratch rows 52, path and candidates 28, keys 16, states 10; tracemalloc on
# 1000 x 1000 boards, docs/perf-log/2026-11-23-pellet-format-limits-issue-15.md); twice that leaves room for the
# interpreter and the caller
BYTES_PER_CELL = 256


@dataclass(frozen=True, slots=True)
class Settings:
    """How the search spends its work and looks at the clock. None of them changes whether a path is found or
    proven impossible (every run that finishes is exact); they change how fast, and which path a seed gives."""

    # the first run's node budget (plus two nodes per pellet, so that a run can at least reach the end); each
    # restart doubles it: a run stuck below a bad early move is given up after little work, and the doubling
    # keeps the total work within about twice that of the run that finishes
    first_budget: int = 4_000
    # node work per kernel call between two looks at the clock: a node costs O(cells) (about 18 ns a cell on
    # 100 x 100 boards, 67 ns on 1000 x 1000, which miss the cache), so chunk_cells / cells nodes (at least one)
    # take about 10-35 ms on any board size, well inside the time bound's slack
    chunk_cells: int = 500_000
    # slots of the table of failed positions of small boards (kernels.pellet.search), a power of two (the kernel
    # masks with it): the table is a cache of failures, a position that finds no free slot is only not
    # remembered, so its size trades pruning against memory, never an answer
    memo_slots: int = 1 << 12
    # forced-edge propagation (kernels.pellet.forced_check) at every node of boards with at most this many open
    # cells: it cuts small searches by 10 to 100 times, while on large boards its two O(cells) scans per node cost
    # more than it prunes (docs/perf-log/2026-11-22-pellet-against-cp-sat-and-dfs-issue-3.md)
    forced_max_cells: int = 64
    # boards of up to this many padded cells keep their shape arrays and tie-break keys cached between calls:
    # on such boards making them costs more than the search; a big board's would hold megabytes for no gain
    cache_max_padded: int = 4096


_SHAPES: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


class Board:
    """A level as the kernels see it: a wall-padded grid of (H + 2) x (W + 2) cells.

    Holds the search arrays (see gridbot.kernels.pellet for their meaning) and
    converts between padded indices and (row, column). Building it is O(cells);
    `settings` (default `Settings()`) says whether its shape arrays are cached.
    """

    def __init__(self, level: Level, settings: Settings | None = None) -> None:
        self.level = level
        h, w = level.height, level.width
        self.pw = w + 2
        n = (h + 2) * (w + 2)
        self.n = n
        grid = np.zeros((h + 2, w + 2), np.uint8)
        if all(len(row) == w for row in level.rows):  # every character is one of ". # S" (ASCII)
            chars = np.frombuffer("".join(level.rows).encode("ascii"), np.uint8).reshape(h, w)
            grid[1 : h + 1, 1 : w + 1] = chars != ord(WALL)
        else:
            for r, row in enumerate(level.rows):
                for c, ch in enumerate(row):
                    grid[r + 1, c + 1] = ch != WALL
        opened = grid.reshape(n)
        shape = _SHAPES.get((h, w))
        if shape is None:
            rr, cc = np.indices((h + 2, w + 2))
            col = ((rr + cc) & 1).astype(np.int32).reshape(n)  # padded r + c has the parity of the unpadded
            shape = (col, np.array([-self.pw, 1, self.pw, -1], np.int64))
            cache_max = (Settings() if settings is None else settings).cache_max_padded
            if n <= cache_max and len(_SHAPES) < 256:
                _SHAPES[(h, w)] = shape  # read-only everywhere: shared by boards of one size
        self.opened = opened
        self.col, self.off = shape
        self.start = self.index(*level.start)
        self.pellets = int(opened.sum()) - 1
        self._root: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.area = 0

    def fills_rectangle(self) -> bool:
        """Whether the open cells fill their bounding rectangle (the case of rectangle_path). O(cells)."""
        self.fresh_state()  # sets self.area, the bounding box's
        return self.area == self.pellets + 1

    def index(self, r: int, c: int) -> int:
        return (r + 1) * self.pw + c + 1

    def cell(self, i: int) -> tuple[int, int]:
        return i // self.pw - 1, i % self.pw - 1

    def where(self, i: int) -> str:
        return self.level.where(*self.cell(int(i)))

    def fresh_state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(free, deg, sc) of the root: every pellet free, the head on S. O(cells).

        Computed once per board (kernels.pellet.root_state, which also measures the
        open cells' bounding box) and handed out as fresh copies.
        """
        if self._root is None:
            free = np.empty(self.n, np.uint8)
            deg = np.empty(self.n, np.int32)
            sc = np.empty(kern.N_SCALARS, np.int64)
            self.area = kern.root_state(self.opened, self.start, self.off, self.pellets, free, deg, sc)
            self._root = (free, deg, sc)
        free, deg, sc = self._root
        return free.copy(), deg.copy(), sc.copy()

    def scratch(self) -> np.ndarray:
        scratch = np.zeros((kern.N_SCRATCH, self.n), np.int32)
        return scratch


# ---------------------------------------------------------------- certificates


def certificate(board: Board) -> str | None:
    """Why no path exists, when a simple reason shows it at the root; None otherwise.

    Checks, in order: cells not connected to S; dead ends (a pellet with one open
    neighbour can only be the last cell, so two of them, or one with none, make
    the board unsolvable); then block_check at the root (S separating the rest,
    a cell splitting the rest into three parts, two parts that both need the
    path's end, colour parity). Each reason is a proof. O(cells).
    """
    free, deg, sc = board.fresh_state()
    if board.pellets == 0:
        return None
    info = np.array([-1, -1, 1], np.int64)
    code = kern.block_check(board.start, free, board.col, board.pellets, board.off, board.scratch(), 1, info)
    if code == kern.CUT_OFF:
        return f"the pellet at {board.where(info[0])} cannot be reached from S"
    if sc[kern.S_ONES] >= 2:
        ends = [int(i) for i in np.flatnonzero((free == 1) & (deg <= 1))]
        return (
            f"dead ends at {board.where(ends[0])} and {board.where(ends[1])}: a pellet with one open"
            " neighbour can only be the path's last cell, and there are two"
        )
    if code == kern.OK:
        return None
    a, b = int(info[0]), int(info[1])
    if code == kern.HEAD_CUT:
        return (
            f"S separates the board: the pellets at {board.where(a)} and {board.where(b)} lie on two sides"
            " of S, and a path leaving S into one side never comes back"
        )
    if code == kern.THREE_PARTS:
        return f"the cell at {board.where(a)} splits the board into three parts; a path passes it only once"
    if code == kern.TWO_ENDS:
        return (
            f"the cells at {board.where(a)} and {board.where(b)} each cut off a part that only the path's"
            " end could cover, and the path has one end"
        )
    # PARITY
    total_black = int(board.col[board.opened == 1].sum())
    cells = board.pellets + 1
    if a == board.start and b < 0:
        s_colour = int(board.col[board.start])
        same = total_black if s_colour == 1 else cells - total_black
        return (
            f"checkerboard colour parity: colouring the board like a chessboard, {same} open cells share"
            f" S's colour and {cells - same} do not; a path from S alternates colours, so it needs"
            f" {(cells + 1) // 2} of S's colour and {cells // 2} of the other"
        )
    if b < 0:
        return (
            f"checkerboard colour parity: the part beyond the cut cell at {board.where(a)} cannot be"
            " covered by a path entering it there (its colours do not alternate evenly)"
        )
    first = "S" if a == board.start else f"the cut cell at {board.where(a)}"
    return (
        f"checkerboard colour parity: the cells from {first} to the cut cell at {board.where(b)}"
        " cannot be covered by a path from one to the other (their colours do not alternate evenly)"
    )


# ---------------------------------------------------------------- rectangles


def _rect_cycle(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """A Hamiltonian cycle of the h x w grid (h * w even, h, w >= 2) as (rows, columns) arrays in cycle order.

    Row 0 left to right, then the other rows in a snake over columns 1..w-1, back up column 0 (the
    transposed cycle when h is odd). Vectorised, O(h w).
    """
    if h % 2 == 1:  # then w is even: build the transposed cycle
        cols, rows = _rect_cycle(w, h)
        return rows, cols
    body_rows = np.repeat(np.arange(1, h), w - 1)
    body_cols = np.tile(np.arange(1, w), h - 1)
    body_cols = np.where(body_rows % 2 == 1, w - body_cols, body_cols)  # odd rows right to left
    rows = np.concatenate([np.zeros(w, np.int64), body_rows, np.arange(h - 1, 0, -1)])
    cols = np.concatenate([np.arange(w), body_cols, np.zeros(h - 1, np.int64)])
    return rows, cols


def _rect_order(h: int, w: int, s: tuple[int, int]) -> np.ndarray | None:
    """A Hamiltonian path of the h x w grid from s as flat indices r * w + c, or None when none exists.

    Exists iff: a line (h or w = 1) starting at one of its ends; else h * w even
    (any start: open the Hamiltonian cycle at s); else s of the corner colour
    ((r + c) even, the majority). For h * w odd, strips of two rows (or columns)
    that do not hold s are cut off until a 3 x 3 core remains, the core is solved
    by search, and each strip's cycle is spliced back in, innermost first, on a
    path edge along the cut: the path a -> b along the line next to the strip
    becomes a, a', (the strip's cycle the long way round), b', b, where a', b'
    are the strip cells beside a and b. Such an edge exists: a cell of the line
    (the window's edge, >= 3 cells) with no path edge along the line has only
    its edge into the window left, so it is an end of the path, and a path has
    two ends. And a', b' are consecutive on the strip's cycle, since every two
    cells side by side along a two-wide strip are (see _rect_cycle). The same
    start gives the same path.
    The path is kept as successor links so that a splice costs
    O(strip); the whole construction is O(h w) time and memory (about 0.1 s
    for 999 x 999).
    """
    r0, c0 = s
    start = r0 * w + c0
    if h == 1 or w == 1:
        if start == 0:
            return np.arange(h * w)
        if start == h * w - 1:
            return np.arange(h * w)[::-1].copy()
        return None
    if (h * w) % 2 == 0:
        rows, cols = _rect_cycle(h, w)
        cyc = rows * w + cols
        i = int(np.flatnonzero(cyc == start)[0])
        return np.concatenate([cyc[i:], cyc[:i]])
    if (r0 + c0) % 2 == 1:
        return None
    # cut strips off the window (top, left, hh, ww), outermost first
    top, left, hh, ww = 0, 0, h, w
    strips: list[tuple[np.ndarray, np.ndarray, int]] = []  # (strip cycle, cells of the line along the cut, offset)
    while hh >= 5 or ww >= 5:
        rr, cc = r0 - top, c0 - left
        if hh >= 5:
            below = rr < 2  # s is in the two top rows of the window: cut the two bottom rows
            first, line, offset = (top + hh - 2, top + hh - 3, w) if below else (top, top + 2, -w)
            rows, cols = _rect_cycle(2, ww)
            strip = (rows + first) * w + cols + left
            along = line * w + left + np.arange(ww)
            top, hh = (top, hh - 2) if below else (top + 2, hh - 2)
        else:
            right = cc < 2
            first, line, offset = (left + ww - 2, left + ww - 3, 1) if right else (left, left + 2, -1)
            rows, cols = _rect_cycle(hh, 2)
            strip = (rows + top) * w + cols + first
            along = (top + np.arange(hh)) * w + line
            left, ww = (left, ww - 2) if right else (left + 2, ww - 2)
        strips.append((strip, along, offset))
    core = _small_path(3, 3, (r0 - top, c0 - left))
    assert core is not None, "a 3 x 3 grid has a path from a corner-coloured cell"
    nxt = np.full(h * w, -1, np.int64)  # successor links of the path
    where = np.zeros(h * w, np.int64)  # each strip cell's place on its strip's cycle (strips do not overlap)
    cells = [(r + top) * w + c + left for r, c in core]
    nxt[cells[:-1]] = cells[1:]
    for strip, along, offset in reversed(strips):
        m = len(strip)
        where[strip] = np.arange(m)
        succ = nxt[along]
        step = along[1] - along[0]
        on_line = (succ - along == step) | (succ - along == -step)  # a -> b runs along the line
        ia = where[along + offset]
        ib = where[np.where(on_line, succ, along) + offset]
        backward = on_line & ((ia + 1) % m == ib)
        forward = on_line & ((ib + 1) % m == ia)
        j = int(np.flatnonzero(backward | forward)[0])  # exists, see above
        a, b = int(along[j]), int(succ[j])
        turn = -1 if backward[j] else 1
        loop = strip[(ia[j] + turn * np.arange(m)) % m]  # from a' round the cycle to b'
        nxt[a] = loop[0]
        nxt[loop[:-1]] = loop[1:]
        nxt[loop[-1]] = b
    order = np.empty(h * w, np.int64)
    if kern.follow(nxt, start, order) != h * w:  # pragma: no cover - a bug in the splicing
        raise AssertionError("the spliced rectangle path does not cover the rectangle")
    return order


def _small_path(h: int, w: int, s: tuple[int, int]) -> list[tuple[int, int]] | None:
    """Plain backtracking for a Hamiltonian path of a tiny (3 x 3) grid from s."""
    total = h * w
    path = [s]
    seen = {s}

    def extend() -> bool:
        if len(path) == total:
            return True
        r, c = path[-1]
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < h and 0 <= nxt[1] < w and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                if extend():
                    return True
                path.pop()
                seen.discard(nxt)
        return False

    return path if extend() else None


def _rectangle(level: Level) -> tuple[int, int, int, np.ndarray | None]:
    """(top, left, width, order) of the open cells' bounding rectangle, `order` its path from S (flat indices
    r * width + c inside the rectangle) or None when the open cells do not fill it or it has no path from S.
    O(cells)."""
    grid = np.frombuffer("".join(level.rows).encode("ascii", "replace"), np.uint8).reshape(level.height, -1)
    opened = grid != ord(WALL)
    rows, cols = np.flatnonzero(opened.any(axis=1)), np.flatnonzero(opened.any(axis=0))
    top, left = int(rows[0]), int(cols[0])
    h, w = int(rows[-1]) - top + 1, int(cols[-1]) - left + 1
    if not opened[top : top + h, left : left + w].all():
        return top, left, w, None
    return top, left, w, _rect_order(h, w, (level.start[0] - top, level.start[1] - left))


def rectangle_path(level: Level) -> list[tuple[int, int]] | None:
    """A path through every open cell when those cells fill a rectangle; None otherwise.

    None also when the rectangle has no path from S (then the search proves it).
    O(h w) for an h x w rectangle.
    """
    top, left, w, order = _rectangle(level)
    if order is None:
        return None
    return [(int(i) // w + top, int(i) % w + left) for i in order]


# ---------------------------------------------------------------- search


_KEY_CACHE: dict[tuple[int, int, int], np.ndarray] = {}


def _keys(board: Board, seed: int, attempt: int, cache_max_padded: int = 0) -> np.ndarray:
    """Tie-break keys of run `attempt`: a random permutation drawn from (seed, attempt).

    Cached per (cells, seed, attempt) for boards of at most `cache_max_padded`
    padded cells (drawing them costs more than searching a tiny board); the
    kernel only reads them.
    """
    ck = (board.n, seed & 0xFFFFFFFF, attempt)
    cached = _KEY_CACHE.get(ck)
    if cached is not None:
        return cached
    rng = np.random.default_rng([seed & 0xFFFFFFFF, attempt])
    keys = rng.permutation(board.n).astype(np.int64)
    if board.n <= cache_max_padded and len(_KEY_CACHE) < 256:
        _KEY_CACHE[ck] = keys
    return keys


def _memo_arrays(board: Board, mode: int, slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bit, tkey, thead) of the kernel's table of failed positions, of `slots` slots; an empty table turns it off.

    On only for gridbot's search (mode 1) on boards of at most 64 open cells, where
    a visited set fits one int64 bitmask: bit[i] is the bit of open cell i.
    """
    if mode != 1 or board.pellets + 1 > 64:
        return np.zeros(board.n, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32)
    cells = np.flatnonzero(board.opened)
    bit = np.zeros(board.n, np.uint64)
    bit[cells] = np.left_shift(np.uint64(1), np.arange(cells.size, dtype=np.uint64))
    return bit.view(np.int64), np.zeros(slots, np.int64), np.zeros(slots, np.int32)


def search(
    board: Board,
    clock: Clock,
    seed: int = 0,
    mode: int = 1,
    restarts: bool = True,
    settings: Settings | None = None,
) -> tuple[np.ndarray | None, bool, dict[str, int]]:
    """Run the kernel's search with restarts until it finishes or the clock runs out.

    Returns (path as an array of padded indices or None, finished, stats). finished=True with
    no path proves that none exists. Raises nothing on timeout: finished is False.
    Work is at most about twice that of the last run (budgets double). `settings`: see Settings.
    """
    settings = Settings() if settings is None else settings
    n = board.n
    scratch = board.scratch()
    m = board.pellets + 1
    work = np.zeros(7 * m, np.int32)  # one allocation: path, cand (4 per depth), ncand, cidx
    path, cand, ncand, cidx = work[:m], work[m : 5 * m], work[5 * m : 6 * m], work[6 * m :]
    info = np.zeros(2, np.int64)
    bit, tkey, thead = _memo_arrays(board, mode, settings.memo_slots)
    stats = {"nodes": 0, "checks": 0, "runs": 0, "memo_hits": 0}
    budget = settings.first_budget + 2 * board.pellets if restarts else -1
    chunk = max(1, settings.chunk_cells // (board.pellets + 1))
    attempt = 0
    while True:
        free, deg, sc = board.fresh_state()
        key = _keys(board, seed, attempt, settings.cache_max_padded) if n else np.zeros(0, np.int64)
        path[0] = board.start
        sc[kern.S_MASK] = bit[board.start]
        sc[kern.S_FORCED] = int(mode == 1 and board.pellets + 1 <= settings.forced_max_cells)
        stats["runs"] += 1
        run_nodes = 0
        while True:
            limit = chunk if budget < 0 else min(chunk, budget - run_nodes)
            before = int(sc[kern.S_NODES])
            target = before + limit
            status = kern.search(
                board.off,
                free,
                deg,
                board.col,
                key,
                sc,
                path,
                cand,
                ncand,
                cidx,
                scratch,
                info,
                target,
                mode,
                bit,
                tkey,
                thead,
            )
            done_nodes = int(sc[kern.S_NODES]) - before
            run_nodes += done_nodes
            stats["nodes"] += done_nodes
            stats["memo_hits"] += int(sc[kern.S_MEMO])
            sc[kern.S_MEMO] = 0
            if status == kern.FOUND:
                stats["checks"] += int(sc[kern.S_CHECKS])
                depth = int(sc[kern.S_DEPTH])
                return path[: depth + 1].copy(), True, stats
            if status == kern.EXHAUSTED:
                stats["checks"] += int(sc[kern.S_CHECKS])
                return None, True, stats
            try:
                clock.check(candidates=stats["nodes"], runs=stats["runs"])
            except Timeout:
                stats["checks"] += int(sc[kern.S_CHECKS])
                return None, False, stats
            if budget >= 0 and run_nodes >= budget:
                break
        stats["checks"] += int(sc[kern.S_CHECKS])
        attempt += 1
        budget *= 2


def bytes_needed(level: Level) -> int:
    """About the most memory `solve` allocates for `level`, in bytes: BYTES_PER_CELL per padded cell. O(1)."""
    return (level.height + 2) * (level.width + 2) * BYTES_PER_CELL


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    seed: int = 0,
    restarts: bool = True,
    construct: bool = True,
    *,
    settings: Settings | None = None,
) -> SolveResult:
    """A path from S through every pellet, or a proof that there is none.

    status 'optimal' with the move string (every path has the same length, the
    number of pellets, so any path is a shortest one), 'unsolvable' with
    stats['reason'] when a certificate exists (else the reason is the exhausted
    search), or 'timeout' (the time limit ran out, or the board would need more
    than `memory_budget()`: then stats['reason'] says so). `all_solutions` is
    accepted for the common interface and ignored: one path is returned.
    Deterministic for a given `seed` and `settings` (default `Settings()`: how the
    search spends its work). Raises ValueError for a time limit that is not a
    positive number.

    Every phase keeps the time limit: the clock starts first (loading the
    compiled kernels, about 0.4 s the first time in a process, counts); the
    certificates, the rectangle construction and the re-check are O(cells)
    vectorised or compiled work, at most about 0.3 s together on a 1000 x 1000
    board, so they run to the end (within the slack the limit allows, and an
    answer they reach is kept); the search looks at the clock between chunks
    of at most about 70 ms (one node of a 1000 x 1000 board).

    Time: O(cells) for certificates and rectangles; the search is exponential
    in the worst case (the problem is NP-complete on grid graphs), with
    O(cells) work per node. Memory: O(cells), at most bytes_needed(level).
    """
    # First: the clock refuses a bad limit before any work, and counts everything after it, loading the
    # compiled kernels too (each loads at its first call, in the phase that needs it; warm_up() loads them all
    # ahead for a caller with time to spare, such as the game client before it connects)
    clock = Clock(time_limit, progress)
    name = level.name
    n = level.size
    stats: dict = {"nodes": 0}

    def stopped(method: str, reason: str = "") -> SolveResult:
        stats.setdefault("method", method)  # the phase the clock stopped, when one had started
        stats["candidates"] = stats["nodes"]
        if reason:
            stats["reason"] = reason
        return SolveResult("pellet", name, Status.TIMEOUT, None, None, clock.seconds, n, stats)

    need, budget = bytes_needed(level), memory_budget()
    if need > budget:
        reason = f"out of memory: the board needs about {need >> 20} MiB, the budget is {budget >> 20} MiB"
        return stopped("none", reason)
    try:
        return _solve(level, clock, stats, seed, restarts, construct, Settings() if settings is None else settings)
    except Timeout:
        return stopped("none")
    except MemoryError:  # the budget is an estimate: memory can still run out (other processes, fragmentation)
        return stopped("none", f"out of memory: the board needs about {need >> 20} MiB and could not get it")


def _solve(
    level: Level, clock: Clock, stats: dict, seed: int, restarts: bool, construct: bool, settings: Settings
) -> SolveResult:
    """The phases of `solve` (certificates, rectangle, search, re-check); raises Timeout past the deadline."""
    name = level.name
    n = level.size

    def found(moves: str, method: str) -> SolveResult:
        # no look at the clock here: the re-check is O(moves) vectorised work, and a path in hand is kept
        verdict = run(level, Moves(moves)).verdict
        if not verdict.won:  # a bug in a construction or the kernel
            raise WrongAnswer(f"the solver's {method} path does not eat every pellet: {verdict}")
        stats["method"] = method
        stats["candidates"] = stats.get("nodes", 0)
        return SolveResult("pellet", name, Status.OPTIMAL, Moves(moves), n, clock.seconds, n, stats)

    if n == 0:
        return found("", "trivial")
    stats["method"] = "certificate"  # the phase running, should the clock stop it
    board = Board(level, settings)
    reason = certificate(board)
    if reason is not None:
        stats.update(reason=reason, candidates=0)
        return SolveResult("pellet", name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)
    if construct and board.fills_rectangle():
        stats["method"] = "rectangle"
        top, left, w, order = _rectangle(level)
        if order is not None:
            padded = (order // w + top + 1) * board.pw + order % w + left + 1
            return found(moves_of_indices(padded, board.pw), "rectangle")
    stats["method"] = "search"
    path, finished, search_stats = search(board, clock, seed=seed, restarts=restarts, settings=settings)
    stats.update(search_stats)
    stats["candidates"] = stats["nodes"]
    if path is not None:
        return found(moves_of_indices(path, board.pw), "search")
    if not finished:
        raise Timeout
    stats["reason"] = f"exhaustive search: every one of {stats['nodes']:,} branches fails"
    return SolveResult("pellet", name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)


_LOADED: list[bool] = []


def _load_kernels() -> None:
    """Run every kernel once on a tiny board, which makes numba load (or compile) them. Once per process."""
    if _LOADED:
        return
    _LOADED.append(True)
    board = Board(Level.parse("S..\n.#.\n..."))
    search(board, Clock(None), mode=1)
    search(board, Clock(None), mode=2)
    certificate(board)
    board.fills_rectangle()
    _rect_order(3, 5, (0, 0))  # the odd case: a strip spliced with the compiled link walk


def warm_up() -> None:
    """Load (or compile) the kernels now, so that the first real board does not pay for it (`solve` loads what
    it needs at first use, under its clock)."""
    _load_kernels()


def baseline(level: Level, time_limit: float | None = None) -> SolveResult:
    """The baseline of the benchmark: plain backtracking with the write-up's two heuristics.

    (1) Warnsdorff: try first the move with the fewest onward options; (2) reject
    a move that leaves an unvisited cell unreachable (a flood fill from the head)
    or dead (no way in: deg 0; or a second cell with only one way in). No restarts,
    no parity, no cut vertices, no constructions. Same result format as `solve`.
    """
    clock = Clock(time_limit)
    board = Board(level)
    n = board.pellets
    if n == 0:
        return SolveResult("pellet", level.name, Status.OPTIMAL, Moves(""), 0, clock.seconds, 0, {"nodes": 0})
    path, finished, stats = search(board, clock, seed=0, mode=2, restarts=False)
    stats["candidates"] = stats["nodes"]
    if path is not None:
        moves = Moves(moves_of_indices(path, board.pw))
        return SolveResult("pellet", level.name, Status.OPTIMAL, moves, n, clock.seconds, n, stats)
    status = Status.UNSOLVABLE if finished else Status.TIMEOUT
    return SolveResult("pellet", level.name, status, None, None, clock.seconds, 0, stats)
