"""Fewest-slot RoboZZle programs, proven by exhaustive lazy search.

>>> from gridbot.games import robozzle
>>> from gridbot.solve.robozzle import solve
>>> level = robozzle.Level.parse("functions: 3 0 0 0 0\\npaint: none\\nstart: 1 1 east\\nrrrrR")
>>> result = solve(level)
>>> result.status, result.length, str(result.program)
('optimal', 2, 'F1: F F1')

*Lazy programs.* The program is decided slot by slot as execution first
reaches each slot (gridbot.kernels.robozzle): programs that share an execution
prefix share its simulation, and slots never reached are never enumerated
(they stay empty). A slot's condition is decided lazily too: when a new slot
is reached on colour c, the search branches on "a command that runs now" (its
condition is none or c: both run now, and which one is decided only when the
slot is reached on another colour) and "a command skipped now" (a condition on
a colour other than c; the command itself is decided when it first runs).
Iterative deepening on the number of occupied slots L makes the first L at
which a program wins the optimum.

Cuts, each safe because it only skips programs that have an equivalent one of
no more slots that is still searched, or runs that can never win:

1. *Non-empty functions.* A call of a function whose slots are all empty does
   nothing, so deleting the call gives a shorter equivalent: the end of a
   function is never decided at its first slot. F1 never ends with nothing
   pushed (the run would be lost at once).
2. *Renaming.* Functions F2..F5 with the same number of slots can be renamed
   among themselves without changing anything; so, among those, a function is
   first called only after every lower-numbered one has been (a function being
   entered counts as called while its first slot is decided). More generally,
   order F2..F5 by size, then number: a function g that ends with no more
   slots than an h before it in that order, where h was not called before g
   was first called, is cut when it ends. Swapping g and h gives the same runs
   with as many slots (g's body fits h; h's, at most h's size, fits g), and
   moves h's first call ahead of g's; such swaps cannot go on for ever (each
   makes the sequence of first calls smaller in that order), so they end at a
   program that no such cut drops.
3. *Conditions that cannot matter.* A condition on a colour no tile has and no
   paint makes never runs: the slot could be emptied (shorter). When only one
   colour can occur, a condition on it equals none. A paint conditioned on the
   colour it paints does nothing: empty it (shorter).
4. *Endless recursion without actions.* A call of a function entered earlier,
   at a frame still open, with no action since: board, robot and control are
   as they were then, so the same calls repeat for ever and the stack
   overflows. The run is lost at once.
5. *Budget.* A new slot is offered only while slots are left; a call of a
   function not yet called needs room for its first command too.
6. *Turns and paints.* In a function, unconditioned `L R` and `R L` do nothing and
   `L L L` is `R` (shorter): not offered; `R R` equals `L L` (only `L L`
   is kept). Adjacent turns commute whatever their conditions (a turn
   leaves the robot on its tile, so every condition reads the same colour,
   and execution enters a run of slots only at its first), so of the
   orders of a run of turns only "lefts before rights" is searched: an `L`
   right after an `R` is not offered. The cuts combine: the shortest
   program sorted that way has no unconditioned `L` and `R` in one run (both
   could go), no three unconditioned `L` and at most two unconditioned `R`,
   which `L L` replaces. Turns that all have the condition of the colour
   here are as good as unconditioned (they all run, or all are skipped,
   together): after `cL` or `cR` an `R`, and after `cL cL` an `L`, is not
   offered on c (4 % fewer nodes over 429 proofs, BENCHMARKS.md). A paint
   and an unconditioned turn commute too (the turn reads no colour, the
   paint no heading): no paint is offered right after an unconditioned
   turn. An unconditioned paint right after a paint paints over it (the
   first could go): not offered (the two paint cuts: 10 % fewer nodes on
   the puzzles with paints; benchmarks/robozzle_exact.py). Each of these
   rewrites drops slots, or keeps them and moves a paint or an `L` earlier
   in its run, so rewriting ends at a program that none of them cuts.
7. *One-command functions.* A function (not F1) whose one command is
   unconditioned can be written out at its call sites (shorter), so a
   function ending after its first slot keeps that slot's colour conditions
   only.
8. *Repeated states.* A function entered on the same tile, facing the same
   way, with as many stars left and the board's colours as they were at the
   entry of a frame still open below it on this path: the frames below are
   untouched, so everything since repeats for ever without a star. The run
   is lost at once. The board is known to be the same when nothing was
   painted since; paints that undo each other are caught by a hash of the
   colours, confirmed tile by tile against a copy taken at a match (so such
   a loop is cut one round later). The states are kept in a hash table
   whose collisions can only miss a repeat, never invent one.

Before any search, a star that no walk over tiles from the robot reaches
makes the puzzle unsolvable (holes never become tiles).

Every program the kernel reports is re-run by the game's simulator.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from gridbot.deadline import Clock, Progress, Timeout, stop_requested
from gridbot.errors import WrongAnswer
from gridbot.games import robozzle
from gridbot.games.robozzle import COLOURS, FUNCTIONS, Command, Level, Program
from gridbot.kernels import robozzle as kern
from gridbot.parallel import executors
from gridbot.parallel import workers as _workers
from gridbot.parallel.checkpoint import level_digest
from gridbot.parallel.shares import Ledger, Share, run_share, search_shares
from gridbot.result import SolveResult, Status

MAX_ALL = 100  # the most programs an answer lists (all_solutions)
DEAD = -(1 << 62)  # the score of a partial program every next decision of which loses


@dataclass(frozen=True, slots=True)
class Settings:
    """Every tuning value of the RoboZZle solver: how `solve` divides its time between the exact search, the
    worker processes and the heuristics, and how the heuristics search. None of them changes what is proven,
    only how soon, and which programs the heuristics find on the way. Frozen and picklable: worker processes
    receive it with their shares. A caller that wants other values passes its own:

    >>> import dataclasses
    >>> dataclasses.replace(Settings(), beam_after=-1.0).beam_after
    -1.0
    """

    # --- the exact search

    # nodes per kernel call between two looks at the clock and at a stop request: a node runs up to about a
    # thousand actions, so a call takes milliseconds, short against any time limit and long against a call's cost
    chunk: int = 10_000
    # seconds a length is expected to take before it is split over worker processes: a split costs starting them
    # (once), choosing the split depth and walking the tree above it again in every share, small only against
    # a length of seconds
    parallel_after: float = 2.0
    # a length split over n worker processes ends about this times n sooner than in one: every share walks the
    # tree above the split depth again, and the last share to end sets the time (BENCHMARKS.md)
    split_speedup: float = 0.95
    # shares per worker of a split length: subtrees differ in size, and a worker that ends a small share takes
    # the next, so the workers end close together
    shares_per_worker: int = 8
    # the shallowest decision depth at which shares deal out subtrees (thousands of them on most puzzles)...
    shallowest_split: int = 4
    # ...or deeper, down to the shallowest depth with this many subtrees a share: with fewer, a few large
    # subtrees bound the speed-up (at depth 4, 4,096 shares of puzzle 14 leave half of them empty)...
    fine: int = 16
    # ...but no deeper than this: every share walks the tree above the split depth again
    deepest_split: int = 10

    # --- the beam (Beam)

    # the beam's first width: a narrower or a wider one finds as many programs (BENCHMARKS.md)
    beam_width: int = 256
    # the widest beam: a beam that dies out starts again twice as wide, and past this width as wide as at first
    # with other ties broken, which finds more programs than staying this wide (BENCHMARKS.md)
    max_beam: int = 1 << 13
    # the fewest partial programs of a depth worth a thread of their own: with fewer, handing them over costs
    # more than the thread saves
    min_parents: int = 32
    # the beam's score of a partial program: per star collected, less per move to the nearest star left, less
    # per slot used; a star outweighs any distance and any slots, a move any slots
    weights: tuple[int, int, int] = (1 << 30, 1024, 64)
    # ties are broken by adding up to this much at random: less than a slot's weight, so only equal scores change
    # places
    noise: int = 64
    # the share of a heuristic turn that goes to the repair of the beam's best line, the beam taking the rest:
    # the repair finds the near misses' wins, and the line it repairs is the beam's best, which needs the beam's
    # time (BENCHMARKS.md)
    repair_share: float = 0.6
    # the repair's node budget below the lead's last decision, doubled at each earlier ancestor: a near miss one
    # or two decisions from a win is searched in milliseconds, and the budgets before the last add up to less
    # than the last
    repair_nodes: int = 20_000
    # beyond this many stars, the beam and the annealer measure the way to the nearest star of the start rather
    # than to the nearest star left: tables of every star take stars x tiles entries and finding the nearest
    # one left up to a look per star, and on such boards they find no more programs (BENCHMARKS.md)
    many_stars: int = 64

    # --- the annealer (Annealer, Beside)

    # annealing steps between two looks at the clock and at a stop request (a step runs a whole program)...
    anneal_chunk: int = 20_000
    # ...or fewer, once their runs have executed this many slots (milliseconds' worth): long runs do not keep
    # the annealer from the clock
    anneal_work: int = 2_000_000
    # the annealer's chains, each at its own temperature (parallel tempering), from the coldest...
    chains: int = 6
    # ...at this temperature, where a star's score (kern.STAR_SCORE, 256) is almost never given up, so the chain
    # refines what it holds...
    anneal_cold: float = 5.0
    # ...to the hottest at this one, where it is given up about one try in four (e^(-256/200)), so the chain
    # crosses the ridges between programs; the others are evenly apart in ratio between them
    anneal_hot: float = 200.0
    # annealing steps between two starts of the annealer beside from the beam's lead (Beside): the beam cannot
    # go back on a line's early slots, and the annealer, given the line, can; between two starts it has time to
    # carry the line away from what the beam fixed
    lead_every: int = 400_000
    # seconds the annealer beside runs between two looks at a request to pause: forking the worker processes
    # waits for the pause at most this long
    beside_slice: float = 0.05

    # --- the team of heuristics (Team, a cluster's helpers)

    # the most members of a team, one of each kind member_of makes by seed: a plain beam, the annealer, a
    # look-ahead beam; each finds programs the others miss (BENCHMARKS.md); threads beyond go to the beams
    team: int = 3
    # the look-ahead member judges each child by its best child in every pair of passes (2: every other pair,
    # ...): the plain beam of the team already runs the passes without
    lookahead: int = 1
    # seconds of heuristic before a cluster's other workers guess as well: a helper there starts late (the board
    # travels, the kernels load) and comes back late (helper_grace), and adds little to a shorter turn
    helpers_after: float = 0.5
    # seconds a worker's heuristic may take to come back once asked to stop: it looks at the stop flag every few
    # milliseconds, and a cluster's messages take their own time
    helper_grace: float = 1.0

    # --- the schedule of a solve (solve, growth_of, projected, heuristic_share)

    # each length is expected to take at least this many times the one before (about the options at a slot)...
    growth: float = 10.0
    # ...and at most this many, when the last two lengths measure it (the ratio of their nodes)...
    max_growth: float = 100.0
    # ...once the length before the last took this many nodes: fewer say more of the walk near the root than of
    # the length's growth
    growth_from: int = 20_000
    # seconds a length is expected to take before the heuristics run: a puzzle the exact search ends sooner is
    # proven before a heuristic's program would help, and keeps the one answer the search gives
    beam_after: float = 0.3
    # the heuristics' time before a length, per second that length is expected to take: their program ends the
    # search early, but the time it takes is the proofs' (BENCHMARKS.md)...
    beam_share: float = 0.25
    # ...and this share of the time left before a length that may well not end in time (expected to take more
    # than half of it)...
    beam_last: float = 0.5
    # ...a length expected to take more than this many times the time left will not end in time...
    hopeless: float = 1.0
    # ...and the heuristics get this share of the time left before it: the estimate is often off by several
    # times, and the rest is the length's chance to end after all
    beam_hopeless: float = 0.85
    # about what loading the compiled kernels (from numba's cache) takes on a two-core machine...
    warm_up_seconds: float = 0.9
    # ...and how far past the time limit it may end: the command line allows one second past the limit (issue
    # 15), and the answer needs the rest
    load_late: float = 0.5


DEFAULTS = Settings()  # the settings of a solve that is given none


@dataclass(frozen=True, slots=True)
class Board:
    """The puzzle as the kernel reads it (layout in gridbot.kernels.robozzle)."""

    step: np.ndarray
    colour: np.ndarray
    star: np.ndarray
    slots: np.ndarray
    paints: int
    present: int
    prev_same: np.ndarray
    start: int
    facing: int
    stars: int
    cells: int

    @classmethod
    def of(cls, level: Level) -> Board:
        """Tabulate `level`. O(tiles)."""
        h, w = level.height, level.width
        step = np.full(h * w * 4, -1, np.int64)
        colour = np.full(h * w, -1, np.int64)
        star = np.zeros(h * w, np.int64)
        for r, row in enumerate(level.colours):
            for c, ch in enumerate(row):
                if not level.tile((r, c)):
                    continue
                colour[r * w + c] = COLOURS.index(ch)
                for facing in range(4):
                    dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[facing]
                    if level.tile((r + dr, c + dc)):
                        step[(r * w + c) * 4 + facing] = (r + dr) * w + c + dc
        for r, c in level.stars:
            star[r * w + c] = 1
        paints = sum(1 << COLOURS.index(ch) for ch in level.paints)
        present = 0
        for k in range(3):
            if (colour == k).any() or paints >> k & 1:
                present |= kern.NO_COND << (k + 1)
        prev_same = np.full(FUNCTIONS, -1, np.int64)
        for g in range(2, FUNCTIONS):
            for h_ in range(g - 1, 0, -1):
                if level.slots[h_] == level.slots[g]:
                    prev_same[g] = h_
                    break
        start = level.start[0] * w + level.start[1]
        return cls(
            step, colour, star, np.array(level.slots, np.int64), paints, present, prev_same, start,
            int(level.facing), len(level.stars), h * w,
        )  # fmt: skip

    @property
    def named(self) -> int:
        """The colours a condition may name (condition bits): those that can occur, less those a relaxed board
        leaves out."""
        return self.present & kern.COLOUR_BITS & ~(self.present >> kern.CONDS_OFF)

    @property
    def condition_bits(self) -> list[int]:
        """The condition bit of each colour a condition may name (`named`), red first."""
        return [2 << c for c in range(3) if self.named & (2 << c)]

    def relaxed(self, named: int) -> Board:
        """This board for a narrower search (a heuristic's): conditions name only colours in `named` (condition
        bits). Every program that wins here wins on the board itself. O(1)."""
        off = kern.COLOUR_BITS & ~named
        return replace(self, present=self.present & kern.COLOUR_BITS | off << kern.CONDS_OFF)


class _Search:
    """The arrays of one kernel search for programs of at most L slots; `step` runs it on."""

    def __init__(self, board: Board, L: int, stack_cap: int, jit: bool = True) -> None:
        self.board = board
        self.colour = board.colour.copy()
        self.star = board.star.copy()
        self.op = np.full((FUNCTIONS, kern.MAX_SLOTS), kern.UNKNOWN, np.int64)
        self.cs = np.zeros((FUNCTIONS, kern.MAX_SLOTS), np.int64)
        self.nd = np.zeros(FUNCTIONS, np.int64)
        self.closed = np.zeros(FUNCTIONS, np.int64)
        self.stack = np.zeros((stack_cap, 3), np.int64)
        self.trail = np.zeros((kern.trail_rows(board.cells, stack_cap), 3), np.int64)  # untouched pages cost nothing
        self.stamp = np.zeros((2, max(stack_cap, board.cells)), np.int64)
        self.records = np.zeros((kern.RECORDS, kern.N_RECORD), np.int64)
        self.records[:, kern.R_NODE] = -1
        self.path = np.zeros(kern.MAX_FRAMES + 1, np.int64)
        self.dropped = np.zeros(stack_cap + 1, np.int64)
        self.frames = np.zeros((kern.MAX_FRAMES, kern.N_FRAME), np.int64)
        self.sc = np.zeros(kern.N_SCALARS, np.int64)
        sc = self.sc
        sc[kern.S_POS], sc[kern.S_FACING], sc[kern.S_LEFT] = board.start, board.facing, board.stars
        sc[kern.S_LENGTH], sc[kern.S_STACK_CAP] = L, stack_cap
        self.kernel = kern.search if jit else kern.search.py_func

    def step(self, budget: int) -> int:
        b = self.board
        return self.kernel(
            b.step, self.colour, self.star, b.slots, b.paints, b.present, b.prev_same, self.op, self.cs, self.nd,
            self.closed, self.stack, self.trail, self.stamp, self.records, self.path, self.dropped, self.frames,
            self.sc, budget,
        )  # fmt: skip

    @property
    def nodes(self) -> int:
        return int(self.sc[kern.S_NODES])

    def program(self) -> Program:
        """The program the arrays hold (see program_of)."""
        return program_of(self.op, self.cs, self.nd)

    def load(self, program: Program) -> None:
        """Write a whole program into the arrays, every slot decided and every function closed (the inverse of
        `program`). O(slots)."""
        self.op[:], self.cs[:], self.nd[:] = kern.UNKNOWN, 0, 0
        for f, body in enumerate(program.functions):
            for i, command in enumerate(body):
                self.op[f, i] = _op_code(command.op)
                self.cs[f, i] = 2 << COLOURS.index(command.cond) if command.cond else kern.NO_COND
            self.nd[f] = len(body)
        self.closed[:] = 1


def program_of(op: np.ndarray, cs: np.ndarray, nd: np.ndarray) -> Program:
    """The program in the kernel's arrays: each slot's condition the first its set allows (none first), a command
    never decided (a slot only ever skipped) as F. O(slots)."""
    bodies = []
    for f in range(FUNCTIONS):
        body = []
        for i in range(int(nd[f])):
            o, conds = int(op[f, i]), int(cs[f, i])
            cond = "" if conds & kern.NO_COND else next(COLOURS[k] for k in range(3) if conds >> (k + 1) & 1)
            body.append(Command(_op_text(o), cond))
        bodies.append(tuple(body))
    return Program(tuple(bodies))


def _op_code(text: str) -> int:
    """The kernel's op of a command's op text (the inverse of _op_text). O(1)."""
    if text in ("F", "L", "R"):
        return "FLR".index(text)
    if text.startswith("P"):
        return kern.OP_PAINT + COLOURS.index(text[1])
    return kern.OP_CALL + int(text) - 1


def _op_text(o: int) -> str:
    if o < kern.OP_CALL:
        return "FLR"[max(o, 0)]
    if o < kern.OP_PAINT:
        return str(o - kern.OP_CALL + 1)
    return "P" + COLOURS[o - kern.OP_PAINT]


def _search_length(
    board: Board, L: int, stack_cap: int, all_solutions: bool, deadline: float | None, settings: Settings,
    jit: bool = True, worker: int = 0, workers: int = 1, check: Any = None, depth: int | None = None,
) -> Share:  # fmt: skip
    """Search programs of at most L slots (share `worker` of `workers`, subtrees dealt at decision `depth`, by
    default the shallowest split) to its end, the deadline (time.monotonic() seconds), a stop request from the
    parent process, or `check()` raising. Programs are returned as found; the caller re-checks them with the
    simulator."""
    search = _Search(board, L, stack_cap, jit)
    depth = settings.shallowest_split if depth is None else depth
    search.sc[kern.S_SPLIT_DEPTH], search.sc[kern.S_WORKER], search.sc[kern.S_WORKERS] = depth, worker, workers
    return run_share(search, lambda: search.step(settings.chunk), all_solutions, MAX_ALL, deadline, check)


def _share(
    board: Board, L: int, stack_cap: int, all_solutions: bool, seconds: float | None, depth: int,
    settings: Settings, k: int, n: int,
) -> Share:  # fmt: skip
    """Share k of n of length L, dealt at decision `depth`, on a worker: `seconds` from its start at most (clocks
    differ between machines)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    return _search_length(board, L, stack_cap, all_solutions, deadline, settings, True, k, n, depth=depth)


def subtrees(
    board: Board, L: int, stack_cap: int, depth: int, most_nodes: int, settings: Settings,
    deadline: float | None = None,
) -> int | None:  # fmt: skip
    """How many subtrees the search of length L has at decision `depth` (the options applied there), found by
    walking the tree above that depth without entering them; None when the walk takes more than `most_nodes`
    nodes or goes past the deadline (time.monotonic() seconds). O(nodes above `depth`)."""
    search = _Search(board, L, stack_cap)
    sc = search.sc
    sc[kern.S_SPLIT_DEPTH], sc[kern.S_WORKER], sc[kern.S_WORKERS] = depth, -1, 2  # no share's: none entered
    while True:
        status = search.step(min(settings.chunk, most_nodes + 1))
        if search.nodes > most_nodes or (deadline is not None and time.monotonic() > deadline):
            return None
        if status == kern.EXHAUSTED:  # a program above the depth (FOUND) is walked past
            return int(sc[kern.S_SPLIT_COUNT])


def split_depth(
    board: Board, L: int, stack_cap: int, shares: int, most_nodes: int, settings: Settings,
    deadline: float | None = None,
) -> int:  # fmt: skip
    """The decision depth at which `shares` shares of length L deal out subtrees: from the settings'
    shallowest_split on, the shallowest with at least `fine` subtrees a share (with fewer, a few large subtrees
    bound the speed-up), to deepest_split at most. Every share walks the tree above that depth again, so a depth
    whose walk takes more than `most_nodes` nodes (or ends past the deadline) is not taken. O(nodes above the
    depth chosen), a few times."""
    depth = settings.shallowest_split
    count = subtrees(board, L, stack_cap, depth, most_nodes, settings, deadline)
    while count is not None and count < settings.fine * shares and depth < settings.deepest_split:
        deeper = subtrees(board, L, stack_cap, depth + 1, most_nodes, settings, deadline)
        if deeper is None:
            break
        depth, count = depth + 1, deeper
    return depth


class _Heuristic:
    """What the heuristics (Beam, Annealer) share: the program of fewest slots found so far."""

    best: Program | None  # set by each heuristic's __init__

    def keep(self, found: Program) -> None:
        """`found` becomes `best` when it has fewer slots than the best so far."""
        if self.best is None or found.tokens < self.best.tokens:
            self.best = found


class Beam(_Heuristic):
    """The heuristic: a beam search over the same decisions as the exact search, keeping at each depth the
    `width` partial programs that have collected the most stars with the fewest slots (ties broken at random,
    seeded). Every other pass (`_spread`) keeps first the best of each place the robot stands at (tile,
    facing, stars left) and only then more of one place: a beam full of programs that all leave the robot
    at the same place explores one line of play many times over. It proves nothing; a program it finds is an
    upper bound for the exact search, and the answer when time runs out. The kernel (beam_step) runs the beam's
    partial programs in lexicographic order, each going on from the decisions it shares with the one before
    (as the exact search backtracks), so a depth costs about O(width x options x actions to the next decision)
    rather than a run from the start per child (on 12 puzzles the exact search cannot end: 13x in all).

    With `rollout`, every other pair of passes scores each child instead by playing its run out as it stands
    (kern.beam_step: ends not decided end their function, commands not decided are skipped): what the
    program's shape already does counts, not only the stars met before its next decision. On 240 puzzles the
    corpus run left without a proof (two samples of 120, 5 s each), it found 94 programs against 90 without,
    12 of them for puzzles the corpus run had none for, against 6 (BENCHMARKS.md).
    """

    def __init__(
        self,
        board: Board,
        stack_cap: int,
        width: int | None = None,
        seed: int = 0,
        stop: Callable[[], bool] | None = None,
        threads: int = 1,
        lookahead: int = 0,
        rollout: bool = False,
        *,
        settings: Settings = DEFAULTS,
    ) -> None:
        self.board = board
        self.settings = settings
        self.rollout = rollout  # children scored by their runs played out as they stand (kern.beam_step)...
        self.rolling = rollout  # ...in this pass
        self.stop_asked = stop  # asked between depths and repairs (a worker's stop flag), besides the clock
        self.width = settings.beam_width if width is None else width  # the first width of every pass
        self.rng = np.random.default_rng(seed)
        self.lookahead = lookahead
        self.threads = max(1, threads)
        # per thread, the arrays its runs go on in (the first thread's are also the replay's)
        self.lanes = [_Lane(board, stack_cap) for _ in range(self.threads)]
        self.search, self.rpath, self.frame = self.lanes[0].search, self.lanes[0].rpath, self.lanes[0].frame
        self.nodes = 0
        self.passes = 0
        self.best: Program | None = None
        self.lead: tuple[int, np.ndarray] | None = None  # the best-scored partial program met: score, decisions
        self.repaired: tuple[Any, int, int] = (None, 1, settings.repair_nodes)  # lead repaired, next cut, budget
        self.spos, self.sdist, self.snear = _star_distances(board, settings.many_stars)
        self.weights = np.array(settings.weights, np.int64)

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """The beam (`run`) for part of `seconds`, then the repair of its best line for the rest (the settings'
        repair_share): a program of at most `most_slots` slots, or None."""
        stop = clock.seconds + seconds
        found = self.run(most_slots, clock, (1 - self.settings.repair_share) * seconds)
        if found is None:
            found = self.repair(most_slots, clock, max(0.0, stop - clock.seconds))
        return found

    def run(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Look for a program of at most `most_slots` slots for about `seconds` (one depth at least); returns it
        (also kept as `best` when shorter than the best so far) or None. A beam that dies out (every partial
        program in it lost) starts again twice as wide, with other ties broken; past `max_beam`, as wide as at
        first again (on 60 puzzles, 5 s: 9 and 9 found against 7 and 6 stopping there)."""
        stop = clock.seconds + seconds
        width = self.width
        with futures.ThreadPoolExecutor(self.threads) as pool:
            while True:
                found = self._pass(pool, most_slots, clock, stop, width)
                if found is not None or self._time_up(clock, stop):
                    return found
                width = width * 2 if width < self.settings.max_beam else self.width

    def _pass(self, pool: futures.Executor, most_slots: int, clock: Clock, stop: float, width: int) -> Program | None:
        b, s = self.board, self.search
        for lane in self.lanes:
            lane.search.sc[kern.S_LENGTH] = most_slots
        spread = self.passes % 2 == 1  # every other pass keeps the best of each place first
        # with roll-outs, every other pair of passes (one spread, one not) scores its children played out
        self.rolling = self.rollout and (self.passes // 2) % 2 == 0
        # the look-ahead's passes are in pairs, one spread and one not; a depth of theirs runs about as many
        # grandchildren as one of the widest beam's runs children
        ahead = self.lookahead > 0 and (self.passes // 2) % self.lookahead == self.lookahead - 1
        if ahead:
            width = min(width, self.settings.max_beam // kern.MAX_OPTIONS)
        self.passes += 1
        depth_cap = kern.MAX_FRAMES
        parents = np.zeros((width, depth_cap), np.int64)
        children = [_Children(width * kern.MAX_OPTIONS) for _ in self.lanes]  # one list per thread
        out = children[0] if len(children) == 1 else _Children(width * kern.MAX_OPTIONS)
        won = np.zeros(depth_cap + 2, np.int64)
        won[-1] = most_slots + 1
        count, depth = 1, 0  # every parent is as deep as the others, so every child is one deeper
        while count and not self._time_up(clock, stop):
            m = self._expand(pool, parents, depth, count, children, out, won)
            self.nodes += m
            if won[-1] <= most_slots:
                break
            scores = out.scores
            self._note_lead(parents, depth, out, m)
            if ahead and m:
                scores = self._ahead(pool, parents, depth, m, out, won)
                if won[-1] <= most_slots:
                    break
            keep = np.argsort(-(scores[:m] + self.rng.random(m) * self.settings.noise), kind="stable")
            if ahead:
                keep = keep[scores[keep] > DEAD]
            keep = (_spread(keep, out.places[:m], width) if spread else keep)[:width]
            count = len(keep)
            if count:
                depth += 1
                lines = parents[out.parent[keep], :depth]
                lines[:, -1] = out.option[keep]
                # in lexicographic order, so that each parent goes on from the decisions it shares with the one
                # before
                parents[:count, :depth] = lines[np.lexsort(lines.T[::-1])]
        if won[-1] > most_slots:
            return None
        lane = self.lanes[0]
        lane.node += 1
        kern._replay(won, won[-2], lane.node, b.step, b.colour, b.star, b.start, b.facing, b.stars, s.colour,
                     s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records, self.rpath, s.dropped,
                     s.sc)  # fmt: skip
        found = program_of(s.op, s.cs, s.nd)
        self.keep(found)
        return found

    def _note_lead(self, parents: np.ndarray, depth: int, out: _Children, m: int) -> None:
        """The best-scored of the `m` children in `out` (of `parents`, `depth` decisions each) becomes the lead
        when it scores above it."""
        if m:
            top = int(np.argmax(out.scores[:m]))
            if self.lead is None or out.scores[top] > self.lead[0]:
                self.lead = (int(out.scores[top]), np.append(parents[out.parent[top], :depth], out.option[top]))

    def _ahead(self, pool: futures.Executor, parents: np.ndarray, depth: int, m: int, out: _Children,
               won: np.ndarray) -> np.ndarray:  # fmt: skip
        """The score of each of the `m` children in `out` (of `parents`, `depth` decisions each) as the best of its
        own children's, DEAD when it has none (every next decision loses); a win among them goes into `won`."""
        rows = np.zeros((m, depth + 2), np.int64)  # the last column: where the kernel writes each next decision
        rows[:, :depth] = parents[out.parent[:m], :depth]
        rows[:, depth] = out.option[:m]
        order = np.lexsort(rows[:, : depth + 1].T[::-1])
        rows = rows[order]
        grand = [_Children(m * kern.MAX_OPTIONS) for _ in self.lanes]
        into = grand[0] if len(grand) == 1 else _Children(m * kern.MAX_OPTIONS)
        g = self._expand(pool, rows, depth + 1, m, grand, into, won)
        self.nodes += g
        best = np.full(m, DEAD, np.int64)
        if g:
            self._note_lead(rows, depth + 1, into, g)
            # the children come in their parents' order: the best of each parent's run
            parent = into.parent[:g]
            starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
            best[parent[starts]] = np.maximum.reduceat(into.scores[:g], starts)
        value = np.empty(m, np.int64)
        value[order] = best
        return value

    def _expand(
        self,
        pool: futures.Executor,
        parents: np.ndarray,
        depth: int,
        count: int,
        children: list[_Children],
        out: _Children,
        won: np.ndarray,
    ) -> int:
        """Expand the first `count` rows of `parents` (beam_step), in as many runs of consecutive rows as there
        are threads (at least `min_parents` rows each), each on a thread of `pool` in its own arrays (the kernel
        lets go of the GIL); their children are put together in `out` in the rows' order, as one run over all
        the rows would list them. Returns how many children there are."""
        parts = max(1, min(len(self.lanes), count // self.settings.min_parents))
        bounds = [count * k // parts for k in range(parts + 1)]

        def part(k: int) -> int:
            children[k].won[:] = won
            rows = parents[bounds[k] : bounds[k + 1]]
            return self._step(self.lanes[k], rows, depth, bounds[k + 1] - bounds[k], children[k])

        # one part runs on this thread: no hand-over
        counts = [part(0)] if parts == 1 else [job.result() for job in [pool.submit(part, k) for k in range(parts)]]
        m = 0
        for k, n in enumerate(counts):
            _gather(out, children[k], m, n, bounds[k], won)
            m += n
        return m

    def _step(self, lane: _Lane, rows: np.ndarray, depth: int, count: int, out: _Children) -> int:
        """beam_step over `rows` in `lane`'s arrays, its children into `out`: how many there are."""
        b, s = self.board, lane.search
        m, lane.node = kern.beam_step(
            rows, depth, count, out.parent, out.option, out.scores, out.won, b.step, b.colour, b.star, b.start,
            b.facing, b.stars, b.slots, b.paints, b.present, b.prev_same, s.colour, s.star, s.op, s.cs, s.nd,
            s.closed, s.stack, s.trail, s.stamp, s.records, lane.rpath, s.dropped, s.frames, lane.frame, s.sc,
            lane.node, self.spos, self.sdist, self.snear, self.weights, out.places, self.rolling,
        )  # fmt: skip
        return int(m)

    def _time_up(self, clock: Clock, stop: float) -> bool:
        """Has the heuristic's time (to `stop` on `clock`) run out, or has it been asked to stop?"""
        return clock.seconds >= stop or (self.stop_asked is not None and self.stop_asked())

    def repair(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Search exhaustively, at most `most_slots` slots, below ever earlier ancestors of the best-scored
        partial program the beam met (its last decision undone, then its last two, ...), each with a node
        budget that doubles: the near misses the beam leaves are often a few wrong decisions from a win. With
        several threads, each searches below the next ancestor as soon as it is free; the first program found
        stops the others. Returns a winning program (kept as `best` when shorter) or None. Proves nothing."""
        if self.lead is None:
            return None
        stop = clock.seconds + seconds
        path = self.lead[1]
        if self.repaired[0] is not path:  # a new lead: from its last decision; else on where the last call stopped
            self.repaired = (path, 1, self.settings.repair_nodes)
        _, cut, budget = self.repaired
        halt = threading.Event()

        def halted() -> bool:  # a program found by another thread, or a stop asked for
            return halt.is_set() or (self.stop_asked is not None and self.stop_asked())

        running: dict[futures.Future[tuple[Program | None, int, bool]], tuple[int, int]] = {}  # its cut, budget
        cut_short: list[tuple[int, int]] = []  # cuts stopped or won: the next call starts again at the first
        found: Program | None = None
        with futures.ThreadPoolExecutor(self.threads) as pool:
            while True:
                while found is None and len(running) < self.threads and cut <= len(path):
                    if self._time_up(clock, stop):
                        break
                    search = self._below(path, cut, most_slots)
                    if search is not None:
                        deadline = time.monotonic() + max(0.0, stop - clock.seconds)
                        job = pool.submit(_repair_below, search, budget, most_slots, deadline, halted,
                                          self.settings.chunk)  # fmt: skip
                        running[job] = (cut, budget)
                        budget *= 2
                    cut += 1
                if not running:
                    self.repaired = (path, *min(cut_short, default=(cut, budget)))
                    return found
                done, _ = futures.wait(running, return_when=futures.FIRST_COMPLETED)
                for job in done:
                    program, nodes, whole = job.result()
                    self.nodes += nodes
                    if program is not None or (not whole and found is None):  # again, under the next bound
                        cut_short.append(running[job])
                    del running[job]
                    if program is not None:
                        self.keep(program)
                        if found is None or program.tokens < found.tokens:
                            found = program
                        halt.set()

    def lead_program(self) -> Program | None:
        """The best-scored partial program the beam has met (its lead) as a whole program: each slot as decided,
        a command never decided as F, each function ending after its last decided slot; None before a lead.
        O(slots + the lead's run)."""
        lead = self.lead
        if lead is None:
            return None
        s, _ = self._replayed(lead[1], len(lead[1]), sum(int(n) for n in self.board.slots))
        return program_of(s.op, s.cs, s.nd)

    def _replayed(self, path: np.ndarray, upto: int, most_slots: int) -> tuple[_Search, int]:
        """A fresh search of at most `most_slots` slots with the first `upto` decisions of `path` replayed into
        it, and what the replay stopped at (kern._DECIDE, ...)."""
        b = self.board
        s = _Search(b, most_slots, self.search.stack.shape[0])
        rpath = np.zeros(kern.MAX_FRAMES + 1, np.int64)  # the replay's own (the search's path starts empty)
        status = kern._replay(path, upto, 1, b.step, b.colour, b.star, b.start, b.facing, b.stars, s.colour, s.star,
                              s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records, rpath, s.dropped,
                              s.sc)  # fmt: skip
        return s, int(status)

    def _below(self, path: np.ndarray, cut: int, most_slots: int) -> _Search | None:
        """A search of at most `most_slots` slots from `path` with its last `cut` decisions undone, or None when
        that point wins or loses at once, or was met under a looser bound."""
        s, status = self._replayed(path, len(path) - cut, most_slots)
        if status != kern._DECIDE or s.sc[kern.S_USED] > most_slots:
            return None
        s.sc[kern.S_DEPTH], s.sc[kern.S_LENGTH], s.sc[kern.S_NODES] = 0, most_slots, 1
        return s


@dataclass(slots=True)
class Chain:
    """One chain of the annealer: its generator and what it knows of its current program (`state`, kern.N_ANNEAL
    values), its current program (`current`: op, cs, nd) and its temperature."""

    state: np.ndarray
    current: tuple[np.ndarray, np.ndarray, np.ndarray]
    temperature: float


class Annealer(_Heuristic):
    """The second heuristic: simulated annealing over whole programs (kern.anneal), each run from the start by the
    same machine as the exact search and scored by the stars it collects, then by how near it ends to a star
    left. Unlike the beam, which fixes each slot when execution first reaches it, the annealer changes any
    slot at any time (kern._mutate: rewrites, inserts and deletes a slot, swaps two, moves or copies one, also from one
    function to another), so a program that collects the first stars the wrong way can still turn into one
    that collects them all; on 80 puzzles the corpus run left without a program, 8 s each, it found 13, the beam 8
    (BENCHMARKS.md). A change that does what the current program did wherever its run looked (slots it never
    reached; at the others, on the colours seen there) is kept without being run (it would run the same): 1.5
    times the steps a second for the slots never reached, 1.1 to 1.2 times more for the colours, the same steps.

    Parallel tempering: `chains` chains, each from a random program at a fixed temperature from `anneal_cold`
    to `anneal_hot` (evenly apart in ratio), take their steps in turn; after each turn two neighbouring chains swap
    programs with probability min(1, exp((s_hot - s_cold) x (1/T_cold - 1/T_hot))) for scores s, so a program
    that a hot chain has carried over a ridge goes down to the cold chains, which refine it. On the 102 puzzles
    some corpus runs solve and others do not (5 s, seeds 0, 1, 2), with conditions drawn from the colours seen
    (kern._seen_condition), it found 31, 33 and 34 against 29, 30 and 28 for one chain cooled from a new random
    program every 200,000 steps (BENCHMARKS.md). A program found is trimmed (slots whose removal still wins go) and
    kept. Proves nothing.
    """

    def __init__(self, board: Board, stack_cap: int, seed: int = 0, stop: Callable[[], bool] | None = None, *,
                 settings: Settings = DEFAULTS) -> None:  # fmt: skip
        self.board = board
        self.settings = settings
        chains = settings.chains
        cold, hot = settings.anneal_cold, settings.anneal_hot
        self.stop_asked = stop
        self.lane = _Lane(board, stack_cap)
        op, cs, nd = self.lane.search.op, self.lane.search.cs, self.lane.search.nd
        self.chains = []
        for k in range(chains):
            state = np.zeros(kern.N_ANNEAL, np.int64)
            state[kern.A_RNG] = (seed * 7919 + 1 + 104_729 * k) % kern.RNG_MOD
            ratio = k / (chains - 1) if chains > 1 else 0.0
            temperature = cold * (hot / cold) ** ratio
            self.chains.append(Chain(state, (np.zeros_like(op), np.zeros_like(cs), np.zeros_like(nd)), temperature))
        self.rng = np.random.default_rng(seed)  # the swaps' draws
        self.alphabet = np.array(
            [kern.OP_F, kern.OP_L, kern.OP_R]
            + [kern.OP_CALL + g for g in range(FUNCTIONS) if board.slots[g]]
            + [kern.OP_PAINT + c for c in range(3) if board.paints >> c & 1],
            np.int64,
        )
        self.conds = np.array(board.condition_bits, np.int64)
        self.spos, self.sdist, self.snear = _star_distances(board, settings.many_stars)
        self.nodes = 0
        self.swaps = 0
        self.best: Program | None = None

    @property
    def taken(self) -> int:
        """The steps all chains have taken (each chain's A_ITER counts its own; a swap leaves them in place)."""
        return sum(int(chain.state[kern.A_ITER]) for chain in self.chains)

    @property
    def state(self) -> np.ndarray:
        """The coldest chain's state (see Chain)."""
        return self.chains[0].state

    @property
    def current(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The coldest chain's current program."""
        return self.chains[0].current

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Anneal for about `seconds` (anneal_chunk steps or anneal_work work between looks at the clock and the
        stop flag): a winning program of at most `most_slots` slots (kept as `best` when shorter), or None.
        O(steps x MAX_ACTIONS)."""
        stop = clock.seconds + seconds
        while True:
            if self.steps(self.settings.anneal_chunk, most_slots):
                found = self._trimmed()
                self.keep(found)
                return found
            if clock.seconds >= stop or (self.stop_asked is not None and self.stop_asked()):
                return None

    def steps(self, count: int, most_slots: int, work: int | None = None) -> bool:
        """About `count` steps in all: each chain's share of them (kern.anneal at its temperature; fewer once their
        runs have done its share of `work`, by default the settings' anneal_work), going on from where its last
        ones left off, then a swap tried between each pair of neighbours (swap). Whether a program of at most
        `most_slots` slots won (it is then in the lane's arrays). O(min(count x MAX_ACTIONS x stack cap, work))."""
        b, s, lane = self.board, self.lane.search, self.lane
        work = self.settings.anneal_work if work is None else work
        share, work_share = max(1, count // len(self.chains)), max(1, work // len(self.chains))
        for chain in self.chains:
            node, won = kern.anneal(
                share, work_share, chain.temperature, most_slots, b.slots, self.alphabet,
                self.conds, chain.state, *chain.current, lane.node, b.step, b.start, b.facing,
                b.stars, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records,
                lane.rpath, s.dropped, s.sc, self.spos, self.sdist, self.snear,
            )  # fmt: skip
            self.nodes += int(node) - lane.node
            lane.node = int(node)
            if won:
                return True
        for k in range(len(self.chains) - 1):
            self.swap(k)
        return False

    def swap(self, k: int) -> bool:
        """Try to swap the programs of chains k and k + 1 (with their scores and what their runs saw; each keeps
        its temperature and generator): always when the hotter one's scores at least as well, else with
        probability exp((s_hot - s_cold) x (1/T_cold - 1/T_hot)). Whether they swapped. O(slots)."""
        cold, hot = self.chains[k], self.chains[k + 1]
        if cold.state[kern.A_KNOWN] == 0 or hot.state[kern.A_KNOWN] == 0:  # a score not yet known
            return False
        gain = float(hot.state[kern.A_SCORE] - cold.state[kern.A_SCORE])
        rate = gain * (1 / cold.temperature - 1 / hot.temperature)
        if rate < 0 and self.rng.random() >= np.exp(rate):
            return False
        known = slice(kern.A_SCORE, kern.N_ANNEAL)
        cold.state[known], hot.state[known] = hot.state[known].copy(), cold.state[known].copy()
        cold.current, hot.current = hot.current, cold.current
        self.swaps += 1
        return True

    def start_from(self, program: Program) -> Program | None:
        """Go on from `program` in the middle chain (of the middle temperature: its next steps change it, and the
        swaps take it up or down). Returns it (trimmed, kept) when it wins. O(MAX_ACTIONS x slots)."""
        score = self.score(program)
        if score == kern.WON:
            found = self._trimmed()
            self.keep(found)
            return found
        s = self.lane.search
        chain = self.chains[len(self.chains) // 2]
        for mine, loaded in zip(chain.current, (s.op, s.cs, s.nd), strict=True):
            mine[:] = loaded
        chain.state[kern.A_SCORE] = score
        chain.state[kern.A_ITER] = max(1, int(chain.state[kern.A_ITER]))  # 0 would start from a random program
        chain.state[kern.A_KNOWN] = 0
        return None

    def score(self, program: Program) -> int:
        """kern.whole_score of `program` (of this puzzle): kern.WON when it wins, else kern.STAR_SCORE per star it
        collects less the moves from where it ends to the nearest star left. O(MAX_ACTIONS x slots)."""
        self.lane.search.load(program)
        return self._score()

    def _score(self) -> int:
        """kern.whole_score of the program in the lane's arrays, as a new node."""
        b, s, lane = self.board, self.lane.search, self.lane
        lane.node += 1
        return int(kern.whole_score(
            lane.node, b.step, b.start, b.facing, b.stars, s.colour, s.star, s.op, s.cs, s.nd,
            s.closed, s.stack, s.trail, s.stamp, s.records, lane.rpath, s.dropped, s.sc, self.spos, self.sdist,
            self.snear,
        ))  # fmt: skip

    def _trimmed(self) -> Program:
        """The winning program in the lane's arrays with every slot whose removal still wins removed (each tried
        once, last first). O(slots x MAX_ACTIONS x slots)."""
        s = self.lane.search
        for f in range(FUNCTIONS):
            for i in range(int(s.nd[f]) - 1, -1, -1):
                op, cs, nd = s.op.copy(), s.cs.copy(), s.nd.copy()
                s.op[f, i:-1], s.cs[f, i:-1] = op[f, i + 1 :], cs[f, i + 1 :]
                s.nd[f] -= 1
                if self._score() != kern.WON:
                    s.op[:], s.cs[:], s.nd[:] = op, cs, nd
        return program_of(s.op, s.cs, s.nd)


class Team:
    """The heuristics on several threads: up to `team` members (member_of: a plain beam, the annealer, a look-ahead
    beam, in that order), each on its own thread, the beams' ties broken by their own seeds; threads beyond `team`
    go to the beams, each splitting its partial programs among its share. They find different programs: on 80
    puzzles the corpus run left without one (held out from tuning), 8 s each, a plain beam found 4, a first
    version of the annealer 10, the two together 14, all three 17 (BENCHMARKS.md). The first program found stops
    the others; the shortest found counts.
    """

    def __init__(self, board: Board, stack_cap: int, threads: int = 1, annealer: bool = True, *,
                 settings: Settings = DEFAULTS) -> None:  # fmt: skip
        self.board, self.stack_cap, self.settings = board, stack_cap, settings
        self.found = threading.Event()
        self.outside_nodes = 0  # nodes of the helpers on a cluster's workers (_guess_beside)
        threads = max(1, threads)
        kinds = [k for k in range(settings.team) if annealer or not is_annealer(k, settings)][:threads]
        beams = [k for k in kinds if not is_annealer(k, settings)]
        extra = threads - len(kinds)  # more threads for the beams, dealt out in turn
        self.members = [
            member_of(board, stack_cap, k, settings, self.found.is_set,
                      1 + extra // len(beams) + (beams.index(k) < extra % len(beams)) if k in beams else 1)
            for k in kinds
        ]  # fmt: skip

    @property
    def best(self) -> Program | None:
        """The program of fewest slots any member found, or None."""
        return min((m.best for m in self.members if m.best is not None), key=lambda p: p.tokens, default=None)

    @property
    def nodes(self) -> int:
        return sum(m.nodes for m in self.members) + self.outside_nodes

    def lead_program(self) -> Program | None:
        """The first beam's lead as a whole program (Beam.lead_program), or None."""
        beam = next((m for m in self.members if isinstance(m, Beam)), None)
        return None if beam is None else beam.lead_program()

    def keep(self, found: Program) -> None:
        """`found` counts as found by the team (see Beam.keep)."""
        self.members[0].keep(found)

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Every member's guess for `seconds`, on threads of their own, until one finds a program of at most
        `most_slots` slots, or `found` is set from outside (Beside): the shortest found, or None."""
        self.found.clear()
        if len(self.members) == 1:
            return self.members[0].guess(most_slots, clock, seconds)

        def one(member: Beam | Annealer) -> Program | None:
            found = member.guess(most_slots, clock, seconds)
            if found is not None:
                self.found.set()
            return found

        with futures.ThreadPoolExecutor(len(self.members)) as pool:
            found = [p for p in pool.map(one, self.members) if p is not None]
        self.found.clear()
        return min(found, key=lambda p: p.tokens, default=None)


def is_annealer(seed: int, settings: Settings) -> bool:
    """Is the heuristic with this seed (member_of) the annealer? O(1)."""
    return seed % settings.team == 1


def member_of(
    board: Board, stack_cap: int, seed: int, settings: Settings, stop: Callable[[], bool] | None = None,
    threads: int = 1,
) -> Beam | Annealer:  # fmt: skip
    """The heuristic of a team's member or a cluster's helper with this seed, by seed modulo the settings' `team`:
    a plain beam on `threads` threads (with roll-outs), the annealer, or a beam that looks ahead (`lookahead`).
    O(board)."""
    if is_annealer(seed, settings):
        return Annealer(board, stack_cap, seed=seed, stop=stop, settings=settings)
    look = settings.lookahead if seed % settings.team == 2 else 0
    return Beam(board, stack_cap, seed=seed, stop=stop, threads=threads, lookahead=look, rollout=look == 0,
                settings=settings)  # fmt: skip


def relaxations(board: Board) -> list[Board]:
    """The board with conditions on one colour only, one board per colour its conditions may name, when they may
    name two or more (else none): narrower searches, each of whose programs wins on `board` too. O(1).

    Not part of `solve`: beams on them find programs for other puzzles than the plain beam, but sharing the
    plain beam's time with them, or the annealer's, lost as many programs as they found (BENCHMARKS.md); they
    stay for benchmarks/robozzle_heuristics.py (`--kind beam-R`, ...), where a heuristic of another kind is
    looked for."""
    colours = board.condition_bits
    return [board.relaxed(bit) for bit in colours] if len(colours) > 1 else []


class Beside:
    """The annealer on a thread of its own for the rest of a solve once started, beside the exact search and the
    beams' turns (paused while the exact search takes every core): it looks for a program of at most `most`
    slots, and after each one it finds, for a shorter one, and sets `tell`. `best` is the shortest found so far.
    Given `lead` (in `solve`: the team's beam's lead, Team.lead_program), the annealer's middle chain goes on from
    that program every `lead_every` steps (Annealer.start_from): the beam extends a line slot by slot and
    cannot go back on its early slots, which the annealer can. On 240 puzzles without a proof (5 s, both cores)
    the pair found programs for 7 puzzles no corpus run had solved, against none without (BENCHMARKS.md).
    Started by `start`, stopped by `stop`."""

    def __init__(
        self, board: Board, stack_cap: int, most: int, seed: int = 1, tell: threading.Event | None = None,
        lead: Callable[[], Program | None] | None = None, *, settings: Settings = DEFAULTS,
    ) -> None:  # fmt: skip
        self.settings = settings
        self.tell = tell  # set at each find (a team's turn then ends: what it was looking for is found)
        self.lead = lead  # the middle chain goes on from this program now and then, when there is one (a beam's lead)
        self.rounds = 0  # starts from the lead
        self.led = 0  # the annealer's steps at the last of them
        self.done = threading.Event()
        self.hold = threading.Event()  # asked to pause (paused)
        self.lock = threading.Lock()  # held by the annealer while it runs a slice
        self.annealer = Annealer(board, stack_cap, seed=seed, stop=self.done.is_set, settings=settings)
        self.most = most
        self.seconds = 0.0  # spent annealing (pauses left out)
        self.thread = threading.Thread(target=self._anneal, name="gridbot-annealer", daemon=True)

    @property
    def best(self) -> Program | None:
        return self.annealer.best

    @property
    def nodes(self) -> int:
        return self.annealer.nodes

    def start(self) -> Beside:
        self.thread.start()
        return self

    @property
    def started(self) -> bool:
        return self.thread.ident is not None

    def stop(self) -> None:
        """Stop the annealer and wait for it (it looks at the stop flag every anneal_chunk steps: milliseconds)."""
        self.done.set()
        if self.started:
            self.thread.join()

    def bound(self, most: int) -> None:
        """From now on, only programs of at most `most` slots are worth finding (one is known of `most` + 1)."""
        self.most = min(self.most, most)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The annealer paused between two slices for the block (forking worker processes while another thread
        runs is only safe when that thread holds no lock the children may need)."""
        self.hold.set()
        try:
            with self.lock:
                yield
        finally:
            self.hold.clear()

    def _anneal(self) -> None:
        while not self.done.is_set() and self.most >= 1:
            if self.hold.is_set():
                time.sleep(0.001)
                continue
            with self.lock, _timed(self, "seconds"):
                found = self.annealer.guess(self.most, Clock(None), self.settings.beside_slice)
                every = self.settings.lead_every
                if found is None and self.lead is not None and self.annealer.taken >= self.led + every:
                    self.led = self.annealer.taken
                    seed = self.lead()
                    if seed is not None:
                        self.rounds += 1
                        found = self.annealer.start_from(seed)
                if found is not None:
                    self.bound(found.tokens - 1)
                    if self.tell is not None:
                        self.tell.set()


@contextlib.contextmanager
def _timed(into: Any, name: str) -> Iterator[None]:
    """Add the seconds the block takes (also when it raises) to the attribute `name` of `into`."""
    began = time.monotonic()
    try:
        yield
    finally:
        setattr(into, name, getattr(into, name) + time.monotonic() - began)


@dataclass(slots=True)
class Spent:
    """Where a solve's seconds went: the heuristic's turns, lengths searched in this process and lengths split
    over the workers (of either, `unfinished`: the last one, stopped by the clock), and the annealer beside
    (at the same time as lengths in this process and the turns). The rest is loading the kernels and
    bookkeeping."""

    heuristic: float = 0.0
    exact: float = 0.0
    split: float = 0.0
    unfinished: float = 0.0
    annealer: float = 0.0

    def stats(self) -> dict[str, float]:
        """The seconds as SolveResult.stats entries (`seconds_heuristic`, ...), to the millisecond."""
        return {f"seconds_{name}": round(getattr(self, name), 3) for name in self.__slots__}


class _Met(Exception):
    """The heuristic beside the search has met the length being searched: every shorter one is excluded."""


class _Halted(Exception):
    """Another thread's repair found a program."""


def _repair_below(
    search: _Search, budget: int, most_slots: int, deadline: float, halted: Callable[[], bool], chunk: int
) -> tuple[Program | None, int, bool]:
    """Run `search` (Beam._below) for at most `budget` nodes (`chunk` nodes a kernel call), to `deadline` or until
    `halted()`: the first
    program it finds or None, the nodes it ran, and whether it ran whole (to a program, its end or its
    budget) rather than stopped by the deadline or `halted`."""

    def look(_: int) -> None:
        if halted():
            raise _Halted

    start = search.nodes
    try:
        done = run_share(search, lambda: search.step(chunk), False, 1, deadline, look, until_nodes=start + budget)
    except _Halted:
        return None, search.nodes - start, False
    if done.programs and done.programs[0].tokens > most_slots:  # pragma: no cover - the kernel keeps to S_LENGTH
        raise WrongAnswer(f"the repair went past {most_slots} slots: {done.programs[0]}")
    whole = done.finished or done.nodes - start >= budget
    return (done.programs[0] if done.programs else None), done.nodes - start, whole


def _gather(out: _Children, part: _Children, at: int, n: int, first_row: int, won: np.ndarray) -> None:
    """Put the `n` children of `part` (of parents from row `first_row` on) into `out` from index `at`; its win
    replaces `won` when it has fewer slots (a later part's win with as many would come second in one run)."""
    if part is not out:
        out.parent[at : at + n] = part.parent[:n] + first_row
        out.option[at : at + n] = part.option[:n]
        out.scores[at : at + n] = part.scores[:n]
        out.places[at : at + n] = part.places[:n]
    if part.won[-1] < won[-1]:
        won[:] = part.won


class _Lane:
    """The arrays one thread of the beam runs its partial programs in, and the node number it is at."""

    def __init__(self, board: Board, stack_cap: int) -> None:
        self.search = _Search(board, sum(int(s) for s in board.slots), stack_cap)
        self.rpath = np.zeros(kern.MAX_FRAMES + 1, np.int64)
        self.frame = np.zeros(kern.N_FRAME, np.int64)
        self.node = 0


class _Children:
    """One depth's children in the beam: each its parent's row and last decision, score and place, and the
    fewest-slot win met (its decisions, their number in won[-2] and its slots in won[-1])."""

    def __init__(self, size: int) -> None:
        self.parent = np.zeros(size, np.int64)
        self.option = np.zeros(size, np.int64)
        self.scores = np.zeros(size, np.int64)
        self.places = np.zeros(size, np.int64)
        self.won = np.zeros(kern.MAX_FRAMES + 2, np.int64)


def _guess_beside(
    run: executors.Executor, guesser: Team, seeds: range, most_slots: int, clock: Clock, seconds: float
) -> None:
    """`guesser.guess` here while the workers of `run` guess too, one per seed: the shortest program any of
    them finds becomes `guesser.best`. A program found here stops them (at their next look at the stop flag);
    a worker not back helper_grace seconds after its time is not waited for. O(len(seeds)) submissions."""
    board, stack_cap, settings = guesser.board, guesser.stack_cap, guesser.settings
    helpers = [run.pool.submit(_guess, board, stack_cap, seed, most_slots, seconds, settings) for seed in seeds]
    ends = clock.seconds + seconds
    if guesser.guess(most_slots, clock, seconds) is not None:
        run.stop.set()
    done, _ = futures.wait(helpers, timeout=max(0.0, ends - clock.seconds) + settings.helper_grace)
    run.stop.clear()
    for found, nodes in (helper.result() for helper in done):
        guesser.outside_nodes += nodes
        if found is not None:
            guesser.keep(found)


def _guess(
    board: Board, stack_cap: int, seed: int, most_slots: int, seconds: float, settings: Settings
) -> tuple[Program | None, int]:
    """A worker's heuristic (member_of `seed`: a beam or the annealer) for `seconds`: a program of at most
    `most_slots` slots or None, and the nodes it ran."""
    warm_up()
    helper = member_of(board, stack_cap, seed, settings, stop=stop_requested)
    found = helper.guess(most_slots, Clock(None), seconds)
    return found, helper.nodes


def _spread(order: np.ndarray, places: np.ndarray, width: int) -> np.ndarray:
    """`order` (best first) with the first of each place first, then the rest in order (to fill the beam's
    width). O(n log n) for n = len(order), in numpy: this runs at every other depth of the beam, over all its
    children (a loop in Python took a fifth of the beam's time)."""
    _, first = np.unique(places[order], return_index=True)
    first.sort()
    later = np.ones(len(order), np.bool_)
    later[first] = False
    return np.concatenate((order[first], order[later]))


def _stars_cut_off(level: Level) -> list[tuple[int, int]]:
    """The stars no walk over tiles from the robot's tile reaches (holes never become tiles, so no program
    collects them). O(tiles)."""
    seen, todo = {level.start}, [level.start]
    while todo:
        r, c = todo.pop()
        for there in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if level.tile(there) and there not in seen:
                seen.add(there)
                todo.append(there)
    return [star for star in level.stars if star not in seen]


def _star_distances(board: Board, many_stars: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stars' tiles; per star the number of moves from every tile to it over tiles (1 << 20 where it
    cannot be reached); and per tile the stars it reaches, nearest first (-1 after them), so that the beam
    finds the nearest star left in about one look rather than one per star. With more than `many_stars` stars,
    one star row instead: the moves to the nearest star of the start (and the tiles [-1], "any star left"), to
    keep the tables small. O(min(stars, many_stars) x tiles x log)."""
    spos = np.flatnonzero(board.star).astype(np.int64)
    sources = [[int(t)] for t in spos] if len(spos) <= many_stars else [[int(t) for t in spos]]
    sdist = np.full((len(sources), board.cells), 1 << 20, np.int64)
    for k, targets in enumerate(sources):
        sdist[k, targets] = 0
        frontier = targets
        while frontier:
            nxt = []
            for tile in frontier:
                for facing in range(4):
                    other = int(board.step[tile * 4 + facing])
                    if other >= 0 and sdist[k, other] > sdist[k, tile] + 1:
                        sdist[k, other] = sdist[k, tile] + 1
                        nxt.append(other)
            frontier = nxt
    near = np.argsort(sdist.T, axis=1, kind="stable")
    snear = np.where(np.take_along_axis(sdist.T, near, axis=1) < 1 << 20, near, -1)
    return (spos if len(spos) <= many_stars else np.array([-1], np.int64)), sdist, snear


def growth_of(before: int, now: int, settings: Settings) -> float:
    """How many times longer than a length of `now` nodes the next is expected to take, when the one before took
    `before`: their ratio, from the settings' `growth` to `max_growth`, once `before` is at least `growth_from`
    nodes (smaller counts say little); `growth` until then. O(1)."""
    if before < settings.growth_from:
        return float(settings.growth)
    return min(float(settings.max_growth), max(float(settings.growth), now / before))


def projected(last: float, growth: float, first_split: bool, cores: int, settings: Settings) -> float:
    """Seconds the next length is expected to take: `last`, the seconds of the length before, times `growth`; over
    the settings' split_speedup times `cores` when it is the `first_split` over the worker processes, the one
    before having run in one process (lengths after that are measured split). O(1)."""
    expected = last * growth
    return expected / (settings.split_speedup * cores) if first_split and cores > 1 else expected


def heuristic_share(expected: float, left: float | None, settings: Settings) -> float:
    """Seconds of heuristic before a length expected to take `expected` seconds, with `left` seconds left (None:
    no limit), by the settings: `beam_hopeless` of the time left when the length will not end in time (expected
    beyond `hopeless` times the time left), `beam_last` of it when it may well not (beyond half), else
    `beam_share` of the length's expected time. O(1)."""
    if left is not None and expected > settings.hopeless * left:
        return settings.beam_hopeless * left
    if left is not None and 2 * expected > left:
        return settings.beam_last * left
    return settings.beam_share * expected


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    stack_cap: int = robozzle.STACK_CAP,
    jit: bool = True,
    beam: bool = True,
    workers: int | None = None,
    executor: executors.Executor | None = None,
    *,
    settings: Settings | None = None,
) -> SolveResult:
    """The fewest occupied slots of a winning program, proven; see the module docstring. The names in backquotes
    below that are not parameters are fields of `settings` (by default Settings()).

    Returns 'optimal' (with the programs met at the optimal length when
    `all_solutions`, one per behaviour, capped at 100), 'unsolvable' when no
    program within the slot limits wins, or, when the time limit or
    `max_length` ends the search first, 'solved' with the best program the
    heuristic (Beam.guess: the beam, then the repair of its best line; or
    Annealer.guess) found or 'timeout' when there is none; `lower_bound` is the first length not
    excluded. The heuristic runs before each length expected to take more
    than `beam_after` seconds (each length as many times longer than the one
    before as the last two grew, growth_of), for `beam_share` of that length's
    expected time (`beam_last` of the time left when the length may well not end
    before the time limit, `beam_hopeless` of it when it is expected not to:
    heuristic_share): a program of n slots it
    finds is optimal as soon as every length below n is excluded, so the
    exact search stops there. A length split over the worker processes for the first time is expected to end
    `split_speedup` times the number of cores sooner than the growth alone says (projected). With two cores or
    more (`workers`, default: every core, or the local executor's workers), the annealer runs on a
    thread of its own from the heuristic's first turn to the end (Beside) whenever a core is
    free of the exact search: beside a length searched in this process (a
    program of n slots it finds while length n is searched ends that search
    at once: every shorter length is excluded) and beside the beams' turns;
    it waits while a length is split over the worker processes, which take
    every core. A length that decides (a program of one slot more is known)
    gets no heuristic turn: the only better program would have that length,
    which the search finds as well. The beams take their turns on the
    other threads as a Team (on one core the plain beam alone; on three, a
    look-ahead beam as well; beyond `team` cores, each beam splits its partial
    programs among its share of the threads at each depth, and each thread
    repairs below its own ancestor of the best line). Given a cluster's executor of more than one
    worker instead (and at least `helpers_after` seconds of heuristic), its
    other workers run the heuristic at the same time, each with its own seed
    (member_of: a plain beam, the annealer or a look-ahead beam by the seed,
    each with its own random choices); the shortest program any of them
    finds counts. Lengths
    expected to take more than `parallel_after` seconds are split into shares
    over `executor`'s workers (gridbot.parallel.executors: a Dask cluster,
    say), or else over `workers` local processes (default: every core),
    started when first needed; a length is excluded only when every share
    has come back finished, and with the executor's checkpoint each finished
    share is recorded (and not searched again by a run that resumes). The time limit counts from the call,
    loading the compiled kernels included: in a process that has not loaded them yet, when loading them
    (`warm_up_seconds`) would end more than `load_late` past the limit, the answer is 'timeout' at once, saying why.
    The stats say where the seconds went (Spent: `seconds_heuristic`, `seconds_exact`, `seconds_split`,
    `seconds_unfinished`, `seconds_annealer`). Exponential in the length; each answer is re-run by the game's
    simulator.
    """
    clock = Clock(time_limit, progress)  # first: loading the kernels counts
    settings = Settings() if settings is None else settings
    cut_off = _stars_cut_off(level)
    if cut_off:
        r, c = cut_off[0]
        stats = {
            "candidates": 0,
            "reason": f"the star at row {r + 1}, column {c + 1} is not joined to the robot's tile",
        }
        return SolveResult(robozzle.NAME, level.name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)
    left = clock.left()
    if jit and not _WARM and left is not None and left + settings.load_late < settings.warm_up_seconds:
        # the caller's start-up (importing numba) ate the time: loading the kernels would only overrun the limit
        stats = {"candidates": 0, "reason": "no time left to load the compiled search (about a second)"}
        return SolveResult(robozzle.NAME, level.name, Status.TIMEOUT, None, None, clock.seconds, 1, stats)
    if jit:
        warm_up()
    board = Board.of(level)
    top = sum(level.slots) if max_length is None else min(max_length, sum(level.slots))
    local_cores = _workers.cores() if workers is None else max(1, workers)
    cores = local_cores if executor is None else executor.workers
    # the heuristic runs on a thread per core of this machine (a team); a cluster's workers run helpers of their own
    here = executor is None or executor.kind == "local"
    threads = cores if here else 1
    heuristic = beam and jit and not all_solutions
    # on two cores or more, the annealer runs beside the search from the heuristic's first turn; the beams take turns
    apart = heuristic and threads > 1
    guesser = (
        Team(board, stack_cap, threads=threads - apart, annealer=not apart, settings=settings) if heuristic else None
    )
    beside = (
        Beside(board, stack_cap, top, tell=guesser.found, lead=guesser.lead_program, settings=settings)
        if guesser is not None and apart
        else None
    )
    nodes = 0
    L = 1
    last = 0.0  # seconds the last length took
    last_nodes = 0  # and its nodes
    growth = float(settings.growth)  # how much longer the next length is expected to take
    beamed = 0  # the heuristic has run before every length up to this one
    spent = Spent()
    searching = None  # when the length being searched began (clock seconds), None between lengths
    split = False  # a length has been split into shares
    seeds = 1  # the next seed for a helper's beam (this process's is 0)
    run = executor
    resources = contextlib.ExitStack()
    ledger = {"game": robozzle.NAME, "level": level_digest(robozzle.NAME, level),
              "options": {"all": all_solutions, "stack_cap": stack_cap}}  # fmt: skip

    def best() -> Program | None:
        found = [h.best for h in (guesser, beside) if h is not None and h.best is not None]
        return min(found, key=lambda p: p.tokens, default=None)

    def stats() -> dict[str, Any]:
        out: dict[str, Any] = {"candidates": nodes}
        if guesser is not None:
            out["beam_nodes"] = guesser.nodes + (0 if beside is None else beside.nodes)
        spent.annealer = 0.0 if beside is None else beside.seconds
        out.update(spent.stats())
        return out

    def met(L: int) -> None:  # the annealer beside has found a program of L slots while length L is searched here
        if beside is not None and beside.best is not None and beside.best.tokens <= L:
            raise _Met

    if beside is not None:
        resources.callback(beside.stop)
    with resources:  # worker processes, when a length is split, and the annealer end with the search
        try:
            while top >= L:
                known = best()
                if beside is not None and known is not None:
                    beside.bound(known.tokens - 1)
                if known is not None and known.tokens <= L:  # every shorter length is excluded
                    return SolveResult(robozzle.NAME, level.name, Status.OPTIMAL, known, known.tokens, clock.seconds,
                                       known.tokens, stats())  # fmt: skip
                # once split, always: a length taken from a checkpoint says nothing of the next one's time
                splits = jit and cores > 1 and (last * growth > settings.parallel_after or split)
                # the first length split over the workers ends about the cores' times sooner than one process would
                # take; projected as one process, it gave the heuristic half the time or more (puzzles 36, 236)
                expected = projected(last, growth, splits and not split, cores, settings)
                # started with the heuristic's first turn: a puzzle the search ends at once keeps its one answer
                if beside is not None and not beside.started and expected > settings.beam_after:
                    beside.start()
                # a program of L + 1 slots known, this length decides (a program: optimal; none: the known one is),
                # and a shorter program the heuristic could find would be of L slots, which the search finds too
                deciding = known is not None and known.tokens == L + 1
                if guesser is not None and beamed < L and expected > settings.beam_after and not deciding:
                    beamed = L
                    share = heuristic_share(expected, clock.left(), settings)
                    most = (known.tokens - 1) if known is not None else top
                    with _timed(spent, "heuristic"):
                        if executor is not None and not here and cores > 1 and share >= settings.helpers_after:
                            _guess_beside(executor, guesser, range(seeds, seeds + executor.head_start), most, clock,
                                          share)  # fmt: skip
                            seeds += run.head_start
                        else:
                            guesser.guess(most, clock, share)
                    continue  # look again: it may have met this very length
                started = searching = clock.seconds
                left = clock.left()
                deadline = None if left is None else time.monotonic() + left
                if splits:
                    split = True
                    # a length split over the workers has every core: the annealer waits (sharing the cores with it
                    # lost as many programs and proofs as it gained, on 346 puzzles), and so it holds no lock when
                    # the workers are forked
                    with contextlib.nullcontext() if beside is None else beside.paused(), _timed(spent, "split"):
                        if run is None:
                            run = resources.enter_context(executors.local(cores))
                            run.pool.submit(int).result()  # the workers forked now
                        count = settings.shares_per_worker * cores
                        # the walks above the split depth, repeated by every share, at most the length's own nodes:
                        # on many workers, finer shares are worth twice the work (puzzle 14 at 512: 243x against 118x)
                        depth = split_depth(board, L, stack_cap, count, int(last_nodes * growth) // count, settings,
                                            deadline)  # fmt: skip
                        part = functools.partial(_share, board, L, stack_cap, all_solutions, clock.left(), depth,
                                                 settings)  # fmt: skip
                        tick = functools.partial(clock.check, length=L, candidates=nodes)
                        length = Ledger({**ledger, "length": L, "split_depth": depth}, str, robozzle.parse_program)
                        done = search_shares(run, part, count, tick, all_solutions, length)
                else:

                    def check(seen: int, L: int = L, before: int = nodes) -> None:
                        met(L)
                        clock.check(length=L, candidates=before + seen)

                    try:
                        with _timed(spent, "exact"):
                            done = _search_length(board, L, stack_cap, all_solutions, deadline, settings, jit,
                                                  check=check)  # fmt: skip
                    except _Met:
                        searching = None
                        continue
                nodes += done.nodes
                growth = growth_of(last_nodes, done.nodes, settings)
                last, last_nodes = clock.seconds - started, done.nodes
                found = []
                for program in done.programs:
                    if not robozzle.run(level, program, stack_cap).verdict.won:  # pragma: no cover - a bug
                        raise WrongAnswer(f"the solver produced a losing program: {program}")
                    if program not in found:
                        found.append(program)
                if found:
                    listed = tuple(found[:MAX_ALL]) if all_solutions else ()
                    capped = done.capped or len(found) > MAX_ALL
                    return SolveResult(robozzle.NAME, level.name, Status.OPTIMAL, found[0], L, clock.seconds, L,
                                       stats(), listed, capped)  # fmt: skip
                if not done.finished:
                    raise Timeout
                searching = None
                L += 1
        except Timeout:
            if searching is not None:
                spent.unfinished = clock.seconds - searching
    if top >= sum(level.slots) and sum(level.slots) < L:
        out = stats()
        out["reason"] = "no program within the slots wins"
        return SolveResult(robozzle.NAME, level.name, Status.UNSOLVABLE, None, None, clock.seconds, L, out)
    known = best()
    if known is not None and known.tokens <= top:
        if not robozzle.run(level, known, stack_cap).verdict.won:  # pragma: no cover - a bug
            raise WrongAnswer(f"the heuristic produced a losing program: {known}")
        return SolveResult(robozzle.NAME, level.name, Status.SOLVED, known, known.tokens, clock.seconds, L, stats())
    return SolveResult(robozzle.NAME, level.name, Status.TIMEOUT, None, None, clock.seconds, L, stats())


_WARM: list[bool] = []


def warm_up() -> None:
    """Load (or compile) the kernel on a tiny puzzle, once per process."""
    if _WARM:
        return
    _WARM.append(True)
    level = Level.parse("functions: 2 1 0 0 0\npaint: R\nstart: 1 1 east\nrgrgR")
    search = _Search(Board.of(level), 3, 8)
    while search.step(DEFAULTS.chunk) != kern.EXHAUSTED:
        pass
    # the beam's kernels too: it must meet the win (F1: F F1), or its step and replay stay uncompiled and the
    # first solve that needs them pays seconds of compiling in its own time
    if Beam(Board.of(level), 8, width=2).run(3, Clock(None), 60.0) is None:  # pragma: no cover - a bug
        raise WrongAnswer("the beam found no program for the warm-up puzzle")
    # and the annealer's (on a fresh install, compiling it took seconds of the first solve's time limit)
    if Annealer(Board.of(level), 8).guess(3, Clock(None), 60.0) is None:  # pragma: no cover - a bug
        raise WrongAnswer("the annealer found no program for the warm-up puzzle")
