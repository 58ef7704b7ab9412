"""Fewest-command Light-Bot programs, proven by exhaustive search over X-free walks.

>>> from gridbot.games import lightbot
>>> from gridbot.solve.lightbot import solve
>>> result = solve(lightbot.Level.parse("000\\n\\n>.*"))
>>> result.status, result.length, str(result.program)
('optimal', 3, 'main: FFX')

*Walks.* Light-Bot has no conditions: where the robot goes never depends on
the lights, and `X` neither moves nor turns it. So a program is a *walk* (the
program without its X commands) plus X commands in the walk's *gaps*, and the
walk alone fixes the trajectory. An X in gap g fires each time control passes
g, toggling the light under the robot; toggles add mod 2, so the lights after
any moment are the XOR of the chosen gaps' vectors (per gap, the lights it has
passed an odd number of times). "Can X commands win by now, with at most b of
them?" is a small linear system over GF(2), solved at every moment the robot
stands on a light (gridbot.kernels.lightbot.win_gaps). The search branches only
over walk commands (six, not seven), and every X placement of a walk is
decided at once by algebra instead of by branching: the search space shrinks
by about 7^x for a program with x X commands.

*Blinks.* Three X commands in a row act as one (the check after the second
sees a state already checked), but two, `X X`, do not: at every pass they
toggle the light under the robot and back, and win when that light is the
only one off. So a gap holds no X, one X, or `X X` (a *blink*). A blink
adds nothing to the lights, so it wins only between its own two X, at a
moment its gap is passed, and only if the other gaps light every light but
the one under the robot: a linear system like the one above, looked at
beside it (gridbot.kernels.lightbot.win_blink). Main never needs a blink:
its gaps fire once, and one X wins where the blink would. A shortest
program holds at most one blink: any other does nothing before the win,
and dropping it is shorter. With blinks searched, the proofs need no
assumption about them; tests/games/lightbot/test_blinks.py checks the search
against every program text, `X X` included.

*Lazy walks.* The walk is decided slot by slot as execution reaches each slot
(the technique of the strongest RoboZZle solvers), so walks that share an
execution prefix share its simulation, and a slot that is never executed is
never decided. Iterative deepening on the total length L (walk plus X) makes
the first L that wins the optimum.

Cuts, each safe because it only skips programs that have an equal-or-shorter
equivalent that is still searched, or runs that can never win:

1. *Turns.* Two walk-adjacent turns of a body (X commands may stand between:
   X does not depend on the facing, and no call returns between them) `L R`
   or `R L` do nothing (drop both: shorter); `R R R` is `L` (shorter); `L L`
   equals `R R` (same length; only `R R` is kept).
2. *Main runs once* (nothing calls it): an F or J of main that cannot move
   changes nothing; X commands around it fire in a row at the same tile and
   merge, so dropping it gives a shorter equivalent.
3. *Procedures.* Swapping the names f1 and f2 changes nothing, so f1 is the
   first procedure called. A called procedure has a walk command: a body of X
   commands alone acts as one X or none, and one X can replace each call.
4. *Endless walks.* A repeated control state (position, facing, procedure,
   pc; not the lights) at a stack height not below its first, with the stack
   never lower in between, repeats for ever with the same period (see
   gridbot.games.lightbot.run). The lights then change linearly, so every
   state the lights will ever take appears within two periods of the repeat:
   the walk is followed that far, then dropped.
5. *Budget.* A walk command is added only if one command is left for an X;
   where none fits, a procedure's end is closed at once, without a node.
6. *Main's last command.* When only one X is left after it, main's last walk
   command ends the run after one new moment, in which only the new gap
   (after the command: one light at most) is new. A turn there is never
   needed (the gap before it, at the same tile, was checked with a larger
   budget); a move can win only on a level of one light. So it is a call.

Cuts 7, 8 and 13 skip programs that have a *shorter* equivalent. The search of
length L looks for a winning program of *at most* L commands, and still finds
one when there is one: the shortest winning programs (the one the cuts by an
equal-length equivalent keep, among them) have no shorter equivalent, so no cut
skips them, whatever lengths were searched before:

7. *Inlining.* A procedure with one call site, outside its own body, can be
   written out at that site: the commands run are the same (the call itself
   runs nothing), one command shorter, and X commands meeting at the seams
   merge. This holds for a recursive procedure too (f1 = A 2, f2 = B 1 with one
   call of 2 is f1 = A B 1). So every such procedure whose inlined body fits
   the slot limit whatever the X placement (walk lengths plus every X still
   possible) needs a second call among the walk commands still to come, and
   each new call gives a second site to one procedure at most.
8. *One-command procedures.* A procedure whose body is a single command and
   no X can be replaced by that command at every call site: one shorter. So
   each procedure whose walk is one command for good (closed, or no walk
   command fits any more) needs an X of its own, from the X budget.
9. *Lights out of reach.* When main branches with every procedure it called
   returned and no procedure left to write (f2 written, or too few commands
   left to write and call one), the rest of the run is main's new commands
   over fixed procedures: F, J, L, R and calls, each a macro step from state
   to state. If no path of at most k such steps (k: the walk commands still
   allowed; with two lights or more the last of them a call, cut 6) stands on
   some light not yet stood on, no completion can win. A breadth-first search
   over states answers this, with each procedure's effect from a state
   memoised while its body stays the same. Closing a procedure that returns
   straight to main's end (called from main, no other call under way) leads
   to such a branch point at the same tile with nothing new stood on, so the
   close is decided there, as its node would decide it, without a node.
10. *Endless runs stand on nothing new.* When the control state repeats (cut
   4), everything from its first occurrence on repeats for ever: the robot
   will stand only on tiles it has stood on. If a light is still missing, the
   run is dropped at once instead of after two periods.
11. *Turns at the seams of a loop.* Turns stand on nothing new, so X commands
   between turns fire at the same tile whichever gap holds them. When a
   procedure p with one call site outside its body calls itself at the end of
   its body now, every run of p reaches that call (no conditions: control flow
   is fixed, and this run got there), so p never returns and runs T1 A T2 T1 A
   T2 ... (T1 its first turns, T2 the turns before the call). If T2 then T1
   turn as fewer turns than T2 has, the caller doing T1 before its call and p
   = A (those fewer turns) 1 is shorter (if the caller has room for T1 and every
   X); if the turns just before the call site in the caller, then T1, turn as
   fewer turns than the caller has there, those fewer turns and p = A T2 T1 1
   are. X commands of the seams move to the gap of the same moments.
12. *Mirror images.* On a level that is its own mirror image across the line
   the robot travels at the start (heights and lights; the grid's edge too),
   swapping every L and R mirrors the whole run: the two programs win
   together, with as many commands. Until the first turn runs the robot
   stays on that line, and no turn is decided (slots are decided as they
   first run), so the first turn decided is where a mirrored pair parts:
   only R is offered there. Cut 1 agrees: a program it keeps turns in
   runs of L, R and R R, its mirror image in R, L and L L, and L L
   written R R keeps it as long and its first turn an R; the other cuts
   read turns only as turns. Off when every optimal program is asked for.
13. *A loop entered through a copy of its last command.* When main's last
   command calls procedure p, p has no other call site, and p ends with the
   command x that main runs before that call and then calls itself (main =
   M x p, p = B x p), then main = M p, p = x B p walks the same, M x B x B
   x ..., one command shorter. X commands keep their moments: main's gap
   before x becomes its gap before the call, p's gap before x its gap
   before its call, and p's start and its gap after x, which fire one after
   the other at every seam, become the gap after x (an X from each: X X
   there, the win looked for between them as before). The gap after main's
   x fires once, on the tile after x, which that gap alone can light: so
   the cut asks for no light there (that gap's vector is zero when p calls
   itself). A cut by a shorter equivalent, as 7 and 8 are (that one may
   hold X X after x: a blink, which the search looks for).

*One walk.* Before any search: moves are one-way between the strongly
connected components of the tiles (a jump down cannot be undone), so a run
meets the components along one path of their graph. If the lights are not on
one such path, no walk stands on them all and no program of any length wins:
'unsolvable' at once (one_walk_can_light_all).

*Win check.* No win is possible before the robot has stood on every light
(an X lights only the light under it), so moments before that are not
checked. At each later moment the robot stands on a light, only the gap
control is at gains a light in its vector; every other vector is as it was
at the last moment it stood on a light (checked, since a win then would have
needed every light stood on too), with at least the budget and slot room of
now. So a new win must use that gap: with one X left the check is one
comparison, with two a scan of the gaps, and only larger budgets solve the
linear system. A blink's win needs its own gap to be the one passed now, so
the blink check is made at the same moments (in procedures only), with the
full system.

*Looking ahead.* For a length that is expected to take a while, on a
level of few lights, a program is built from pieces of the shortest winning
walks (gridbot.solve.lightbot_paths); then a narrowed search (moves of main
and f1 that stand still the first time they run are skipped, and programs
must have the shape the known optimal ones have: main of moves ending in a
call of f1, f1 a loop, f2 without calls) looks ahead for shorter ones, for
half the time the exact length is expected to take: before it when the
length runs in this process, at its head start when the length is split into
shares over worker processes (the look-ahead has a core of its own while the
other cores take shares one by one; so no core waits, and a length the
look-ahead makes needless is left after a few shares). It grows about 3x per
length where the exact search grows 4.6x, so it reaches several lengths
further, and it never searches one of its lengths twice.
Neither proves anything, but a program found becomes the answer when time
runs out ('solved'), and is proven optimal, without the most expensive
search, once every shorter length is excluded. When the best program known
has n commands and n - 1 is the length after next, the exact search skips to
n - 1 (leaving the length it has started, when this is learnt at its head
start): it searches every program of *at most* that many commands, so
excluding it excludes every shorter length too (a program it meets there is
the new best, and the search goes on below it). It skips one length at most,
because a best program far above the optimum would make the skipped length's
search many times dearer than the lengths skipped.

*Limits.* Every phase looks at the clock: loading the kernel, the tables
(linear in the board), the pieces of winning walks (a deadline of their own
and the solver's clock between steps), the narrowed search and the exact one
(kernel calls paced to about PACE seconds), and the re-check. The look-ahead
gets at most GUESS_OF_LEFT of the time left, so the exact search keeps most of
it. The kernel's arrays are sized by the board (gridbot.kernels.lightbot:
record_keys, stack_size, trail_rows) and checked against the memory budget
before they are made; the trail starts small on big boards and grows when the
kernel asks. Past the budget the answer says so (stats["reason"]).

The win check is exact (all X placements within the budget and the slot
limits). Every cut is checked against unpruned enumeration of all programs on
small random levels in tests/games/lightbot/test_solver.py, and the kernel against
its pure-Python twin.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gridbot.deadline import Clock, Deadline, Progress, Timeout
from gridbot.errors import GridbotError, WrongAnswer
from gridbot.games import lightbot
from gridbot.games.lightbot import LIMITS, Level, Program
from gridbot.grid import mirror_symmetric
from gridbot.kernels import lightbot as kern
from gridbot.parallel import executors
from gridbot.parallel import workers as workers_mod
from gridbot.parallel.checkpoint import level_digest
from gridbot.parallel.shares import Ledger, Share, collect_in_time, submit_share
from gridbot.result import SolveResult, Status
from gridbot.solve import deepening, lightbot_paths
from gridbot.solve.deepening import Schedule, run_share
from gridbot.solve.lightbot_reach import lights_in_reach
from gridbot.solve.memory import OutOfBudget, memory_budget

MAX_ALL = 100
MAX_TOTAL = sum(LIMITS.values())
WALK_OPS = "FJLR12"
MAX_LIGHTS = 62  # the light vectors are int64 bit masks
GUESS = kern.GUESS_MOVES | kern.GUESS_LOOP | kern.GUESS_F2_STILL  # the narrowed search that looks ahead for a program
NAME = "lightbot"


@dataclass(frozen=True, slots=True)
class Settings:
    """How the Light-Bot solver spends its time and memory; `schedule` is the deepening's (gridbot.solve.deepening)."""

    # lengths grow about 6x each; splitting pays once a length takes seconds; loading the kernel from numba's
    # cache takes about 0.4 s on 2 cores, so a first solve with less time left answers at once
    schedule: Schedule = Schedule(parallel_after=3.0, growth=6.0, max_growth=6.0, warm_up_seconds=0.4)
    first_chunk: int = 2_000  # nodes of a search's first kernel call; then paced (_Search.step)
    max_chunk: int = 1_000_000  # nodes per kernel call at most
    pace: float = 0.05  # seconds a kernel call should take: the clock and the stop event are read between calls
    trail_start: int = 1 << 17  # trail rows a search starts with at least (6 MiB), unless it can never need them
    trail_nodes: int = 2  # ...and room for this many nodes' rows, growing on demand beyond (kern.NEED_ROOM)
    slice: float = 0.2  # seconds between looks at the workers during a length's head start
    split_depth: int = 6  # shares deal out the subtrees at this depth: thousands of them on hard levels
    guess_after: float = 0.5  # seconds a length is expected to take before looking ahead pays
    guess_share: float = 0.5  # the look-ahead's time for a length (before it or at its head start), per expected second
    guess_of_left: float = 0.25  # ...and never more than this share of the time left: the exact search keeps the rest
    # lengths the exact search may skip to reach one below the best program known: a best program far above the
    # optimum would make the skipped length's search many times dearer than the lengths skipped
    jump: int = 1
    paths_share: float = 0.5  # of the look-ahead's first turn: pieces of winning walks (gridbot.solve.lightbot_paths)
    paths_max: float = 30.0  # ...and seconds at most
    # the most commands of main, f1 and f2 (None: the game's LIMITS); a procedure of 0 is not called. A smaller
    # language for analyze's question "does the par need f2?" (gridbot.solve.analyze). f1 and f2 must take as many
    # commands, or one of them none: cut 3 names the procedures in the order of their first call
    limits: tuple[int, int, int] | None = None
    # on a level that is its own mirror image, search one program of each mirrored pair (cut 12): about half the
    # nodes, the same answers; off, the search is the one without the cut
    mirror_cut: bool = True


DEFAULT = Settings()


@dataclass(frozen=True, slots=True)
class Tables:
    """The level as the kernel reads it (see gridbot.kernels.lightbot)."""

    mv: np.ndarray
    after: np.ndarray
    light: np.ndarray
    reach: np.ndarray
    full: int
    start: int
    facing: int
    lim: np.ndarray
    # the level is its own mirror image across the robot's line of travel (gridbot.grid.mirror_symmetric)
    mirror: bool = False


def tables(level: Level, limits: tuple[int, int, int] | None = None) -> Tables:
    """The level as the kernel reads it (kern.board_arrays) plus the lights reachable from each tile, with the
    slot `limits` of main, f1 and f2 (None: LIMITS). O(cells)."""
    if len(level.lights) > MAX_LIGHTS:
        raise GridbotError(
            f"the Light-Bot solver handles at most {MAX_LIGHTS} lights; this level has {len(level.lights)}"
        )
    mv, light, full, start, facing = kern.board_arrays(level)
    lim = np.array([LIMITS["main"], LIMITS["f1"], LIMITS["f2"]] if limits is None else limits, np.int64)
    lights = set(level.lights)
    height, width = len(level.heights), len(level.heights[0])

    def square(p: tuple[int, int]) -> tuple[int, bool] | None:  # off the grid: an edge, unlike any tile
        inside = 0 <= p[0] < height and 0 <= p[1] < width
        return (level.heights[p[0]][p[1]], p in lights) if inside else None

    mirror = mirror_symmetric(height, width, level.start, level.facing, square)
    return Tables(mv, kern.state_table(mv), light, lights_in_reach(mv, light), full, start, facing, lim, mirror)


def search_bytes(cells: int, trail_rows: int) -> int:
    """Bytes the arrays of one kernel search take on a level of `cells` tiles with a trail of `trail_rows` rows
    (see _Search). O(1)."""
    keys = kern.record_keys(cells)
    stack = kern.stack_size(cells)
    words = (
        3 * 12 + 3 + 3 + kern.MAX_DEPTH * kern.N_FRAME + kern.N_SCALARS + kern.N_GAPS  # walk, frames, scalars
        + keys + 3 * (keys + 1) + 2 * stack + 5 * max(keys + 1, stack, kern.N_GAPS)  # idx, recs, stack, stamp
        + 7 * 64 + 6 + kern.M_ROWS * cells * 4 + kern.L_ROWS * max(keys + 1, stack)  # work, cs, mac, leaf
        + 6 * trail_rows
    )  # fmt: skip
    return 8 * words


def first_trail_rows(cells: int, settings: Settings = DEFAULT) -> int:
    """The trail a search starts with: all it can ever need on small boards, room for a few nodes on big ones
    (it grows on demand, see kern.NEED_ROOM)."""
    return min(kern.trail_rows(cells), max(settings.trail_start, settings.trail_nodes * kern.node_rows(cells)))


def one_walk_can_light_all(t: Tables) -> bool:
    """Can one walk stand on every light? If not, no program wins, whatever its length: an X lights only the
    light under the robot, and a run is one walk.

    Moves are one-way between the strongly connected components of the tiles
    (a jump down cannot be undone), so a walk meets components along one path
    of their graph: it stands on every light only if the lights, ordered by
    how many lights each reaches, each reach the next (and the start reaches
    them all). Light tiles in one component reach the same lights; in two,
    they reach as many only if neither reaches the other. O(lights log lights).
    """
    if int(t.reach[t.start]) != t.full:
        return False
    lights = {int(pos): int(t.light[pos]) for pos in np.flatnonzero(t.light >= 0)}  # tile -> light
    order = sorted(lights, key=lambda pos: -int(t.reach[pos]).bit_count())
    return all(int(t.reach[a]) >> lights[b] & 1 for a, b in zip(order, order[1:], strict=False))


class _Search:
    """All arrays of one kernel search for programs of at most L commands; `step` runs it on.

    The arrays are sized by the board (gridbot.kernels.lightbot: record_keys, stack_size, trail_rows); their
    total is checked against `budget` bytes (None: the whole memory budget) before they are allocated, and
    again whenever the trail grows: past it, OutOfBudget.
    """

    def __init__(
        self, t: Tables, L: int, jit: bool = True, budget: int | None = None, settings: Settings = DEFAULT
    ) -> None:
        self.t = t
        self.L = L
        self.settings = settings
        self.budget_bytes = memory_budget() if budget is None else budget
        cells = t.mv.shape[0]
        self.cells = cells
        rows = first_trail_rows(cells, settings)
        _check_budget(search_bytes(cells, rows), self.budget_bytes)
        keys = kern.record_keys(cells)
        stack = kern.stack_size(cells)
        self.wb = np.zeros((3, 12), np.int64)
        self.wlen = np.zeros(3, np.int64)
        self.closed = np.zeros(3, np.int64)
        self.frames = np.zeros((kern.MAX_DEPTH, kern.N_FRAME), np.int64)
        self.sc = np.zeros(kern.N_SCALARS, np.int64)
        self.vec = np.zeros(kern.N_GAPS, np.int64)
        self.idx = np.zeros(keys, np.int64)
        self.recs = np.zeros((3, keys + 1), np.int64)  # live loop records have distinct keys
        self.stack = np.zeros((2, stack), np.int64)
        self.trail = np.empty((rows, 6), np.int64)  # a log read only below its top: never cleared
        self.stamp = np.zeros((5, max(keys + 1, stack, kern.N_GAPS)), np.int64)
        self.work = np.zeros(kern.WORK_SHAPE, np.int64)
        self.cs = np.zeros((2, 3), np.int64)  # per procedure: call sites, and the sum of their bodies
        self.mac = np.zeros((kern.M_ROWS, cells * 4), np.int64)
        self.leaf = np.zeros((kern.L_ROWS, max(keys + 1, stack)), np.int64)
        self.kernel = kern.search if jit else kern.search.py_func
        self.budget = settings.first_chunk  # nodes per kernel call, paced to about settings.pace seconds (see step)

    def step(self, budget: int | None = None) -> int:
        """Run on for `budget` nodes (None: as many as take about settings.pace seconds): FOUND, EXHAUSTED or
        PAUSED.

        The paced budget doubles while a call takes less than half the pace and halves when it takes more, so
        that the caller looks at its clock often on any board (a node on a 100 x 100 board can run thousands
        of commands). Grows the trail when the kernel asks (OutOfBudget past the memory budget).
        """
        t = self.t
        started = time.monotonic()
        while True:
            status = self.kernel(
                t.mv, t.after, t.light, t.reach, t.full, t.start, t.facing, self.L, t.lim, self.wb, self.wlen,
                self.closed, self.frames, self.sc, self.vec, self.idx, self.recs,
                self.stack, self.trail, self.stamp, self.work, self.cs, self.mac, self.leaf,
                self.budget if budget is None else budget,
            )  # fmt: skip
            if status != kern.NEED_ROOM:
                break
            self._grow_trail()
        if status == kern.OVERFLOW:  # pragma: no cover - the stack bound is proven in the kernel's docstring
            raise AssertionError("call stack overflow in the Light-Bot search")
        if budget is None and status == kern.PAUSED:
            took = time.monotonic() - started
            pace = self.settings.pace
            if took < pace / 2:
                self.budget = min(2 * self.budget, self.settings.max_chunk)
            elif took > pace:
                self.budget = max(self.budget // 2, 1)
        return status

    def _grow_trail(self) -> None:
        rows = self.trail.shape[0]
        grown = min(2 * rows, kern.trail_rows(self.cells))
        if grown <= rows:  # pragma: no cover - trail_rows is the most a path of nodes can log
            raise AssertionError("the Light-Bot search's trail is at its bound and asks for more")
        _check_budget(search_bytes(self.cells, grown) + 48 * rows, self.budget_bytes)  # the old trail until copied
        trail = np.empty((grown, 6), np.int64)
        trail[:rows] = self.trail
        self.trail = trail

    @property
    def nodes(self) -> int:
        return int(self.sc[kern.S_NODES])

    def program(self) -> Program:
        """The program found: the walk with an X at each gap of sc[S_FOUND_S], and X X at sc[S_BLINK]."""
        gaps, blink = int(self.sc[kern.S_FOUND_S]), int(self.sc[kern.S_BLINK])
        bodies = []
        for p in range(3):
            text = []
            for k in range(int(self.wlen[p]) + 1):
                g = p * kern.GAPS_PER_BODY + k
                if gaps >> g & 1:
                    text.append("X")
                if g == blink:
                    text.append("XX")
                if k < self.wlen[p]:
                    text.append(WALK_OPS[int(self.wb[p, k])])
            bodies.append("".join(text))
        return Program(*bodies)


def _search_length(
    t: Tables,
    L: int,
    all_solutions: bool,
    deadline: float | None,
    jit: bool = True,
    worker: int = 0,
    workers: int = 1,
    report: Any = None,
    guess: int = 0,
    budget: int | None = None,
    settings: Settings = DEFAULT,
) -> Share:
    """Run the search for programs of at most L commands (this worker's share) to its end or the deadline.

    `deadline` is in time.monotonic() seconds; `report(nodes)` is called between
    kernel calls (it may raise Timeout); in a worker process, the pool's stop
    event ends the search as the deadline does (gridbot.parallel.workers). `guess`
    (bits kern.GUESS_*) narrows the search to likely programs: it may then miss
    programs, so it proves nothing. Each program is returned as found; the
    caller re-checks it with the simulator. Raises OutOfBudget when the
    search's arrays would pass `budget` bytes (None: the memory budget).
    """
    search = _Search(t, L, jit, budget, settings)
    search.sc[kern.S_GUESS] = guess
    search.sc[kern.S_MIRROR] = settings.mirror_cut and t.mirror and not all_solutions  # cut 12
    search.sc[kern.S_SPLIT_DEPTH] = settings.split_depth
    search.sc[kern.S_WORKER] = worker
    search.sc[kern.S_WORKERS] = workers
    return run_share(search, search.step, all_solutions, MAX_ALL, deadline, report)


class _Guesser:
    """Upper bounds found ahead of the exact search: the best program is a length to aim at.

    First, on levels of few lights, a program built from pieces of the
    shortest winning walks (gridbot.solve.lightbot_paths, `paths`); then a
    narrowed search (kern.GUESS_*) for programs shorter than the best so far
    (`advance`). When the best program has n commands and the exact search has
    excluded every length below n, it is optimal and the most expensive length
    need not be searched; when time runs out first, it is the best program
    known. Neither narrowing proves anything itself.
    """

    def __init__(
        self, level: Level, t: Tables, jit: bool, budget: int | None = None, settings: Settings = DEFAULT
    ) -> None:
        self.level = level
        self.t = t
        self.jit = jit
        self.settings = settings
        self.budget = memory_budget() if budget is None else budget  # bytes for its search
        self.search: _Search | None = None  # the length being searched, paused between turns
        self.best: Program | None = None
        self.nodes = 0
        self.next = 1  # the narrowed search has ended every length below this one
        self.paths_tried = not jit  # from_paths is compiled only; it declines levels of many lights itself

    def done(self, first: int) -> bool:
        """Has the narrowed search ended every length from `first` below the best program known (or every
        length there is)?"""
        nxt = max(first, self.next)
        return nxt > int(self.t.lim.sum()) or (self.best is not None and nxt >= self.best.tokens)

    def paths(self, seconds: float, tick: Any = None) -> None:
        """Once per solve: the program from pieces of winning walks, in at most `seconds` (`tick()` is called
        between its steps of work and may raise Timeout)."""
        if self.paths_tried:
            return
        self.paths_tried = True
        found = lightbot_paths.from_paths(self.level, seconds=seconds, tick=tick, max_bytes=self.budget)
        if found is not None and not fits(found, self.t.lim):  # built for the game's limits, not smaller ones
            found = None
        if found is not None and (self.best is None or found.tokens < self.best.tokens):
            self.best = _checked(self.level, [found], tick)[0]

    def advance(self, seconds: float, first: int, report: Any) -> None:
        """Search on for about `seconds` (one kernel call at least), lengths from `first` up, for a shorter program.

        The narrowed search is the same at every call, so a length it has
        searched to the end is never searched again. `report(nodes)` is called
        between kernel calls (it may raise Timeout).
        """
        stop = time.monotonic() + seconds
        while not self.done(first):
            first = max(first, self.next)
            if self.search is None or first > self.search.L:
                self.search = None  # its arrays go before the next search's are made
                self.search = _Search(self.t, first, self.jit, self.budget, self.settings)
                self.search.sc[kern.S_GUESS] = GUESS
            before = self.search.nodes
            status = self.search.step()
            self.nodes += self.search.nodes - before
            if status == kern.FOUND:
                found = _checked(self.level, [self.search.program()], lambda: report(self.nodes))[0]
                if self.best is None or found.tokens < self.best.tokens:
                    self.best = found
            if status != kern.PAUSED:  # a shorter one would have been met before this length ended
                self.next = self.search.L + 1
                self.search = None
            report(self.nodes)
            if time.monotonic() >= stop:
                return


def fits(program: Program, lim: Any) -> bool:
    """Do the program's main, f1 and f2 keep within the limits `lim` (three numbers)? O(1)."""
    return all(len(program.body(p)) <= int(lim[p]) for p in range(3))


def _checked(level: Level, programs: Any, tick: Any = None) -> list[Program]:
    """The programs, shortest first, each re-run by the game's simulator (`tick()` now and then: the clock)."""
    for program in programs:
        if not lightbot.run(level, program, tick).verdict.won:
            raise WrongAnswer(f"the Light-Bot solver produced a losing program: {program}")
    return sorted(set(programs), key=lambda p: (p.tokens, str(p)))


def _check_budget(need: int, budget: int) -> None:
    """OutOfBudget when `need` bytes pass `budget`."""
    if need > budget:
        raise OutOfBudget(
            f"the search's tables need {need / 2**20:,.0f} MiB, more than its memory budget ({budget / 2**20:,.0f} MiB)"
        )


def _worker_share(
    t: Tables, L: int, all_solutions: bool, seconds: float | None, worker: int, workers: int, budget: int,
    settings: Settings = DEFAULT,
) -> Share:  # fmt: skip
    """One share of length L, in a worker process (stopped by the pool's stop event or after `seconds`)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    return _search_length(t, L, all_solutions, deadline, True, worker, workers, budget=budget, settings=settings)


def look_ahead_seconds(expected: float, left: float | None, settings: Settings = DEFAULT) -> float:
    """The look-ahead's time before (or at the head start of) a length expected to take `expected` seconds:
    `guess_share` of it once that is more than `guess_after`, and never more than `guess_of_left` of the time
    `left` (None: no limit), so that the exact search always keeps most of the time."""
    ahead = settings.guess_share * expected if expected > settings.guess_after else 0.0
    return ahead if left is None else min(ahead, settings.guess_of_left * left)


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    jit: bool = True,
    workers: int | None = None,
    executor: executors.Executor | None = None,
    settings: Settings | None = None,
) -> SolveResult:
    """The fewest commands of a winning program, proven; see the module docstring.

    Returns status 'optimal' (with the programs met at the optimal length when
    `all_solutions`, one per walk, capped at 100), 'unsolvable' when no program
    within the slot limits wins, or, when the time limit or `max_length` ends
    the search first, 'solved' with the best program known or 'timeout' when
    there is none, `lower_bound` being the first length not excluded. When the
    search's tables would pass the memory budget, 'solved' or 'timeout' with
    stats["reason"] saying so. The lengths are searched by the deepening driver
    (gridbot.solve.deepening): those expected to take more than a few seconds
    are split into shares over `executor`'s workers (a Dask cluster, say), or
    else over `workers` local processes (default: every core the process may
    use), share k of n taking every n-th subtree from the k-th at a fixed
    depth; a length is excluded only when every share came back finished,
    and with the executor's checkpoint each finished share is recorded (and
    not searched again by a run that resumes). A narrowed search (_Guesser)
    looks ahead for half the time each length is expected to take, at most a
    quarter of the time left (at the head start of the shares when there are
    some, on a core of its own): a program of the length the exact search has
    just reached is then optimal without searching that length, and one a
    length further lets the exact search skip a length. Every phase looks at
    the clock (loading the compiled kernel included): the answer comes within
    the time limit plus a fraction of a second. `settings` tunes the schedule
    and the search (default: DEFAULT). Exponential in the length; each answer is
    re-run by the game's simulator.
    """
    clock = Clock(time_limit, progress)  # first: it checks the limit, and loading the kernel counts
    settings = DEFAULT if settings is None else settings
    limits = check_limits(settings.limits)
    if limits[1] == 0 < limits[2]:  # f2 alone: searched as f1 (cut 3 calls f1 first), renamed back
        mirror = dataclasses.replace(settings, limits=(limits[0], limits[2], 0))
        result = solve(level, time_limit, all_solutions, progress, max_length, jit, workers, executor, mirror)
        return _renamed(result)
    if not level.lights:
        return SolveResult(NAME, level.name, Status.OPTIMAL, Program(""), 0, clock.seconds, 0, {"candidates": 0})
    if not deepening.can_load(clock, jit, NAME, settings.schedule):
        reason = "no time left to load the compiled search"
        return SolveResult(NAME, level.name, Status.TIMEOUT, None, None, clock.seconds, 1, {"reason": reason})
    if jit:
        warm_up()
    t = tables(level, limits)
    total = sum(limits)
    if not one_walk_can_light_all(t):
        stats = {"candidates": 0, "reason": "no walk stands on every light (they are not on one path of the moves)"}
        return SolveResult(NAME, level.name, Status.UNSOLVABLE, None, None, clock.seconds, total + 1, stats)
    limit = total if max_length is None else min(max_length, total)
    cores = workers_mod.cores() if workers is None else max(1, workers)
    # bytes per search, read once: one search per worker of a machine, and the look-ahead's
    budget = memory_budget(1 / (cores + 1) if executor is None else executor.memory_share)
    lengths = _Lengths(level, t, all_solutions, jit, budget, settings)
    return deepening.Deepening(lengths, clock, cores, executor, jit).run(limit)


def check_limits(limits: tuple[int, int, int] | None) -> tuple[int, int, int]:
    """The slot limits of main, f1 and f2 a search takes (None: LIMITS); ValueError for others: each 0 to 12
    (a body's room in the kernel), main at least 1, and f1 and f2 equal or one of them 0 (cut 3 renames them)."""
    if limits is None:
        return LIMITS["main"], LIMITS["f1"], LIMITS["f2"]
    main, f1, f2 = limits
    if not all(isinstance(n, int) and 0 <= n <= kern.GAPS_PER_BODY - 1 for n in limits) or main < 1:
        raise ValueError(f"Light-Bot's limits are 1..12 commands of main and 0..12 of f1 and f2, not {limits}")
    if f1 != f2 and 0 not in (f1, f2):
        raise ValueError(f"f1 and f2 must take as many commands, or one of them none (cut 3), not {limits}")
    return main, f1, f2


def _renamed(result: SolveResult) -> SolveResult:
    """A result of the search with f1 for f2 (limits f1 = 0 < f2, solved as their mirror), in the names asked:
    each program's f1 becomes f2 and its calls of 1 calls of 2."""

    def rename(program: Program | None) -> Program | None:
        if program is None:
            return None
        main, f1, f2 = (body.translate(_SWAP) for body in (program.main, program.f1, program.f2))
        return Program(main, f2, f1)

    solutions = tuple(rename(p) for p in result.solutions)
    return dataclasses.replace(result, solution=rename(result.solution), solutions=solutions)


_SWAP = str.maketrans("12", "21")


class _Lengths(deepening.Lengths):
    """Light-Bot's part of the deepening: the look-ahead before each length (or at the head start of its shares),
    the jump to one below the best program it met, and the answer."""

    def __init__(
        self, level: Level, t: Tables, all_solutions: bool, jit: bool, budget: int, settings: Settings
    ) -> None:
        super().__init__(level, all_solutions, jit, settings)
        self.t = t
        self.budget = budget
        self.guesser = _Guesser(level, t, jit, budget, settings)
        # "blinks": shares recorded before the search looked for X X in one gap proved less, and are not read
        options: dict[str, Any] = {"all": all_solutions, "blinks": True}
        if settings.limits is not None:  # a smaller language's shares are not the game's
            options["limits"] = list(settings.limits)
        self.ledger = {"game": NAME, "level": level_digest(NAME, level), "options": options}
        self.ahead = 0.0  # the look-ahead's time before (or at the head start of) the length about to be searched
        self.answer: tuple[Program, tuple[Program, ...], bool] | None = None  # proven: (program, listed, capped)

    def stats(self, d: deepening.Deepening) -> dict[str, Any]:
        out: dict[str, Any] = {"candidates": d.nodes + self.guesser.nodes, "guess_candidates": self.guesser.nodes}
        if d.reason:
            out["reason"] = d.reason
        return out

    def check(self, d: deepening.Deepening, L: int, guessed: int | None = None) -> None:
        """Look at the clock (Timeout past the deadline) and report progress."""
        done = d.nodes + (self.guesser.nodes if guessed is None else guessed)
        d.clock.check(length=L, candidates=done)

    def met_ahead(self, low: int) -> bool:
        """Has the look-ahead met a program of the first length not excluded? It is then optimal."""
        best = self.guesser.best
        return not self.all_solutions and best is not None and best.tokens == low

    def keep(self, found: list[Program]) -> None:
        """The first of `found` (shortest first) becomes the best program known when it is shorter."""
        if found and (self.guesser.best is None or found[0].tokens < self.guesser.best.tokens):
            self.guesser.best = found[0]

    def settled(self, d: deepening.Deepening) -> bool:
        return self.met_ahead(d.low)

    def before(self, d: deepening.Deepening, expected: float, parallel: bool) -> bool:
        settings = self.settings
        self.ahead = look_ahead_seconds(expected, d.clock.left(), settings)
        if self.ahead and not parallel:
            started = time.monotonic()
            self.guesser.paths(
                min(settings.paths_max, settings.paths_share * self.ahead), tick=lambda: self.check(d, d.low)
            )
            spent = time.monotonic() - started
            self.guesser.advance(max(0.0, self.ahead - spent), d.low, lambda n: self.check(d, d.low, n))
        return self.met_ahead(d.low)

    def target(self, d: deepening.Deepening, top: int) -> int:
        """`low`, or one below the best program known when that is at most `jump` lengths further (excluding it
        excludes every length up to it: the best is then optimal)."""
        best = self.guesser.best
        if (
            best is not None
            and not self.all_solutions
            and d.low < best.tokens - 1 <= min(d.low + self.settings.jump, top)
        ):
            return best.tokens - 1
        return d.low

    def here(self, d: deepening.Deepening, L: int, deadline: Deadline) -> Share:
        before = d.nodes

        def with_guesses(done: int) -> None:
            d.clock.check(length=L, candidates=before + self.guesser.nodes + done)

        return _search_length(
            self.t, L, self.all_solutions, deadline.at, self.jit, report=with_guesses, budget=self.budget,
            settings=self.settings,
        )  # fmt: skip

    def split(self, d: deepening.Deepening, run: executors.Executor, L: int, check: Any) -> Share:
        """Length L in shares over the worker processes, with the look-ahead's head start: this process looks
        ahead on a core of its own while the other cores take the length's shares one by one. A program met two
        lengths ahead lets this length be left (Abandon: the next round searches one below it) before every core
        has been spent on it; one of this very length is optimal outright. The shares are many and small, so
        that the cores end together although one of them starts late. When the clock stops it, in the head
        start or after, the shares are stopped and those back count (shares.collect_in_time)."""
        settings = self.settings
        stop = run.stop  # set: the shares stop (the length is needed no more, or time is up)
        stop.clear()
        ledger = Ledger({**self.ledger, "length": L}, str, lightbot.parse_program)
        count = self.schedule.shares_per_worker * run.workers
        jobs: list[Any] = []
        shares_left = list(range(count))
        guesser = self.guesser

        def submit(part: int) -> None:
            args = (self.t, L, self.all_solutions, d.clock.left(), part, count, self.budget, settings)
            jobs.append(submit_share(run, ledger, part, count, _worker_share, *args))

        def feed() -> None:
            """Keep the workers busy with shares (every core but this one, on this machine); look at the clock."""
            while shares_left and sum(not job.done() for job in jobs) < run.head_start:
                submit(shares_left.pop(0))
            self.check(d, L)

        head_until = time.monotonic() + self.ahead
        timed_out = False
        try:
            if self.ahead:
                feed()
                guesser.paths(min(settings.paths_max, settings.paths_share * self.ahead), tick=feed)
            while shares_left and time.monotonic() < head_until and not guesser.done(d.low):
                feed()
                guesser.advance(
                    min(settings.slice, head_until - time.monotonic()), d.low, lambda n: self.check(d, L, n)
                )
                if self.met_ahead(d.low) or self.target(d, int(self.t.lim.sum())) > L:
                    stop.set()  # this length's search is needed no more
                    break
        except Timeout:
            timed_out = True
            stop.set()  # the shares submitted stop at their next look; collect_in_time takes those back
        if not stop.is_set():
            for part in shares_left:
                submit(part)
        shares, in_time = collect_in_time(jobs, stop, lambda: self.check(d, L), self.all_solutions)
        finished = in_time and not timed_out and all(share.finished for share in shares)
        done = Share(
            tuple(p for share in shares for p in share.programs), sum(share.nodes for share in shares), finished,
            any(share.capped for share in shares),
        )  # fmt: skip
        if timed_out or not in_time:  # what the shares the clock stopped searched counts, and what they met
            raise deepening.Stopped(done)
        if stop.is_set() and not self.met_ahead(d.low) and not done.programs:
            raise deepening.Abandon(done.nodes)  # the next round searches one below the best program known
        return done

    def recheck(self, d: deepening.Deepening, programs: tuple[Any, ...]) -> list[Any]:
        return _checked(self.level, programs, lambda: self.check(d, d.low))

    def stopped(self, d: deepening.Deepening, share: Share) -> None:
        self.keep(_checked(self.level, share.programs))

    def after(self, d: deepening.Deepening, L: int, share: Share, found: list[Any]) -> deepening.Step:
        if self.met_ahead(d.low):
            return deepening.Step.DONE
        if found and found[0].tokens == d.low:  # every program met has at most L commands
            capped = share.capped or len(found) > MAX_ALL
            self.answer = (found[0], tuple(found[:MAX_ALL]) if self.all_solutions else (), capped)
            return deepening.Step.DONE
        if found:  # after a jump: shorter than the best known, not yet proven
            self.keep(found)
            step = deepening.Step.AGAIN
        elif not share.finished:
            raise Timeout
        else:
            step = deepening.Step.NEXT
        self.check(d, L + 1 if step is deepening.Step.NEXT else d.low)
        return step

    def finish(self, d: deepening.Deepening, end: deepening.End) -> SolveResult:
        if end in (deepening.End.SETTLED, deepening.End.FOUND):
            program, listed, capped = self.answer or (self.guesser.best, (), False)
            return self._result(d, Status.OPTIMAL, program, listed, capped)
        if d.low > int(self.t.lim.sum()):
            return self._result(d, Status.UNSOLVABLE)
        if self.guesser.best is not None:
            return self._result(d, Status.SOLVED, self.guesser.best)
        return self._result(d, Status.TIMEOUT)

    def _result(
        self, d: deepening.Deepening, status: Status, program: Program | None = None, solutions: tuple = (),
        capped: bool = False,
    ) -> SolveResult:  # fmt: skip
        length = None if program is None else program.tokens
        return SolveResult(
            NAME, self.level.name, status, program, length, d.clock.seconds, d.low, self.stats(d), solutions, capped
        )


def _load() -> None:
    search = _Search(tables(Level.parse("000\n\n>*.")), 4)
    while search.step(DEFAULT.max_chunk) not in (kern.EXHAUSTED,):
        pass


def warm_up() -> None:
    """Load (or compile) the kernels on a tiny level, once per process. O(1) once compiled."""
    deepening.warm(NAME, _load)
