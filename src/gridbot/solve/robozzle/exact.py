"""RoboZZle's exact search: programs of at most L slots, every one met (_Search), a length searched whole
(_search_length) or in shares over worker processes (_share, split_depth); and why it is exact.

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
   offered on c. A paint
   and an unconditioned turn commute too (the turn reads no colour, the
   paint no heading): no paint is offered right after an unconditioned
   turn. An unconditioned paint right after a paint paints over it (the
   first could go): not offered. (What each cut saves, in nodes, is what
   benchmarks/robozzle_exact.py measures.) Each of these
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
9. *Too few slots.* A length L is searched only once every shorter length
   is excluded (no program of fewer slots wins), so a partial program that
   cannot reach L slots cannot win. When a function ends (the only decision
   that lowers what the program can still gain), the slots it can gain are
   counted: the room left in each function called and not yet ended and,
   if any slot can still become a call (such room, or a slot whose command
   is not decided), every slot of the functions not yet called; with fewer
   than L in all, the run is lost at once. (_search_length and subtrees set
   this; the beam's repairs, which search programs of at most L slots, do not.)
10. *Inlining.* With every slot of the length decided and no command left
    undecided (so no slot can become a call), a function g (not F1) called
    from exactly one slot, unconditioned, of another function f with room
    for g's body: writing g's body in place of that call runs the same
    commands on the same colours in the same order (only the stack is
    shallower, so no overflow is added), in one slot fewer. The run is lost
    at once.
11. *Paints that change nothing.* A paint reached on its own colour while its
    condition set holds both "none" and a colour does nothing whether it runs
    or is skipped, so the set is not split there: the search goes on past it
    and counts the times. They are actions (RoboZZle's limit of 1000) only if
    the set ends as "none": then they are added to the actions, and a count
    past the limit loses the run at once (it ran out of actions earlier, with
    no win before, or the search would have stopped there). A set that keeps
    a colour reads as that colour (program_of), which skipped every such
    time, so the actions counted are those of the program reported.
12. *The last slot.* With every slot of the length used, no function can
    gain a slot or be called for the first time (that call needs room for
    the function's first command), so every open function's end is decided
    at once, by cuts 1, 2 and 7 as the run would decide it on reaching it.
    Those cuts then apply whether or not the run ever reaches that end: the
    shorter or renamed equivalents they name win the same way, and are
    searched.
13. *Commands that lose at once.* A command chosen at a slot runs at once,
    and so does a decided one when its condition set is split so that it
    runs. A move facing off the board there loses the run, and so does a
    call that cut 4 ends (a function entered at a frame still open with no
    action since) or any call on a full stack: such options are not offered.

14. *Mirror images.* On a puzzle that is its own mirror image across the
    line the robot travels at the start (tiles, colours and stars; off the
    board counts as a hole: Board.mirror), swapping every `L` and `R` of a
    program mirrors its whole run, so the two win or lose together, with
    as many slots. Until the first turn runs, the robot moves along that
    line, paints only tiles on it and collects only stars on it, so the
    board stays its own mirror image and the program so far has no turn:
    the first turn decided (a slot's command is decided when it first runs)
    is an `L` or an `R` of the same place in a mirrored pair, and only `L`
    is offered. The cuts by an equal equivalent agree: a shortest winning
    program the other cuts keep whose first turn is `R` has a mirror image
    whose first turn is `L`; the rewrites of cut 6 that keep its length
    (`R R` to `L L`, lefts moved before rights) make no `L` that runs first
    into an `R`, and every other cut reads turns only as turns. Not applied
    when every optimal program is asked for (all_solutions), which lists
    both of each pair.

Before any search, a star that no walk over tiles from the robot reaches
makes the puzzle unsolvable (holes never become tiles).

Every program the kernel reports is re-run by the game's simulator.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from gridbot.deadline import Clock
from gridbot.errors import WrongAnswer
from gridbot.games import robozzle
from gridbot.games.robozzle import COLOURS, FUNCTIONS, Level, Program
from gridbot.kernels import robozzle as kern
from gridbot.parallel.shares import Share
from gridbot.solve.deepening import run_share
from gridbot.solve.robozzle.board import Board, _op_code, program_of
from gridbot.solve.robozzle.settings import Settings

MAX_ALL = 100  # the most programs an answer lists (all_solutions)


class _Search:
    """The arrays of one kernel search for programs of at most L slots; `step` runs it on."""

    def __init__(
        self, board: Board, L: int, stack_cap: int, jit: bool = True, least: int = 0, mirror: bool = False
    ) -> None:
        self.board = board
        self.colour = board.colour.copy()
        self.star = board.star.copy()
        self.op = np.full((FUNCTIONS, kern.MAX_SLOTS), kern.UNKNOWN, np.int64)
        self.cs = np.zeros((FUNCTIONS + kern.NOOPS, kern.MAX_SLOTS), np.int64)  # sets, then no-op counts
        self.nd = np.zeros(FUNCTIONS, np.int64)
        self.closed = np.zeros(FUNCTIONS, np.int64)
        self.stack = np.zeros((stack_cap, 3), np.int64)
        # a log read only below its top, so never cleared: zeroing its worst-case size costs milliseconds per search
        self.trail = np.empty((kern.trail_rows(board.cells, stack_cap), 3), np.int64)
        self.stamp = np.zeros((3, max(stack_cap, board.cells, FUNCTIONS * kern.MAX_SLOTS)), np.int64)
        self.records = np.zeros((kern.RECORDS, kern.N_RECORD), np.int64)
        self.records[:, kern.R_NODE] = -1
        self.path = np.zeros(kern.MAX_FRAMES + 1, np.int64)
        self.dropped = np.zeros(stack_cap + 1, np.int64)
        self.frames = np.zeros((kern.MAX_FRAMES, kern.N_FRAME), np.int64)
        self.sc = np.zeros(kern.N_SCALARS, np.int64)
        sc = self.sc
        sc[kern.S_POS], sc[kern.S_FACING], sc[kern.S_LEFT] = board.start, board.facing, board.stars
        sc[kern.S_LENGTH], sc[kern.S_STACK_CAP], sc[kern.S_LEAST] = L, stack_cap, least
        sc[kern.S_MIRROR] = mirror and board.mirror  # cut 14, asked for and possible
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


def _search_length(
    board: Board, L: int, stack_cap: int, all_solutions: bool, deadline: float | None, settings: Settings,
    jit: bool = True, worker: int = 0, workers: int = 1, check: Any = None, depth: int | None = None,
) -> Share:  # fmt: skip
    """Search programs of at most L slots, every shorter length excluded (cut 9 drops programs that cannot reach
    L slots), share `worker` of `workers` (subtrees dealt at decision `depth`, by default the shallowest split), to
    its end, the deadline (time.monotonic() seconds), a stop request from the
    parent process, or `check()` raising. Programs are returned as found; the caller re-checks them with the
    simulator."""
    search = _Search(board, L, stack_cap, jit, least=L, mirror=_mirror_cut(settings, all_solutions))
    depth = settings.shallowest_split if depth is None else depth
    search.sc[kern.S_SPLIT_DEPTH], search.sc[kern.S_WORKER], search.sc[kern.S_WORKERS] = depth, worker, workers
    return run_share(search, lambda: search.step(settings.chunk), all_solutions, MAX_ALL, deadline, check)


def of_length(
    level: Level, length: int, most: int, clock: Clock, settings: Settings, stack_cap: int = robozzle.STACK_CAP,
    jit: bool = True,
) -> tuple[tuple[Program, ...], bool, int]:  # fmt: skip
    """The winning programs of exactly `length` slots as the exact search of that length lists them, each once, at
    most `most` (more: capped), each re-run by the simulator; whether capped, and the nodes searched.

    That search (the one that excludes the length) meets programs of at most `length` slots, each in the canonical
    form its cuts keep (one of those with an equivalent of no more slots: cuts 2, 6, 10), with the slots its runs
    never reach left empty; those of fewer slots are left out here. Its cut 9 assumes every shorter length
    excluded, which drops only programs of fewer slots. The clock is looked at between kernel calls (Timeout).
    Exponential in `length`.
    """
    search = _Search(Board.of(level), length, stack_cap, jit, least=length)
    search.sc[kern.S_SPLIT_DEPTH], search.sc[kern.S_WORKERS] = settings.shallowest_split, 1
    found: list[Program] = []
    while len(found) <= most:
        status = search.step(settings.chunk)
        if status == kern.EXHAUSTED:
            break
        if status == kern.FOUND:
            program = search.program()
            if program.tokens == length and program not in found:
                if not robozzle.run(level, program, stack_cap).verdict.won:
                    raise WrongAnswer(f"the RoboZZle search met a losing program: {program}")
                found.append(program)
        clock.check(length=length, candidates=search.nodes)
    return tuple(found[:most]), len(found) > most, search.nodes


def _share(
    board: Board, L: int, stack_cap: int, all_solutions: bool, seconds: float | None, depth: int,
    settings: Settings, k: int, n: int,
) -> Share:  # fmt: skip
    """Share k of n of length L, dealt at decision `depth`, on a worker: `seconds` from its start at most (clocks
    differ between machines)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    return _search_length(board, L, stack_cap, all_solutions, deadline, settings, True, k, n, depth=depth)


def _mirror_cut(settings: Settings, all_solutions: bool) -> bool:
    """Is cut 14 asked for? Not when every optimal program is: those list both programs of each mirrored pair."""
    return settings.mirror_cut and not all_solutions


def subtrees(
    board: Board, L: int, stack_cap: int, depth: int, most_nodes: int, settings: Settings,
    deadline: float | None = None, all_solutions: bool = False,
) -> int | None:  # fmt: skip
    """How many subtrees the search of length L (as _search_length searches it) has at decision `depth` (the
    options applied there), found by walking the tree above that depth without entering them; None when the walk
    takes more than `most_nodes` nodes or goes past the deadline (time.monotonic() seconds). O(nodes above
    `depth`)."""
    search = _Search(board, L, stack_cap, least=L, mirror=_mirror_cut(settings, all_solutions))
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
    deadline: float | None = None, all_solutions: bool = False,
) -> int:  # fmt: skip
    """The decision depth at which `shares` shares of length L deal out subtrees: from the settings'
    `shallowest_split` on, the shallowest with at least `subtrees_per_share` subtrees a share (with fewer, a few
    large subtrees bound the speed-up), to `deepest_split` at most. Every share walks the tree above that depth
    again, so a depth whose walk takes more than `most_nodes` nodes (or ends past the deadline) is not taken.
    O(nodes above the depth chosen), a few times."""
    depth = settings.shallowest_split
    count = subtrees(board, L, stack_cap, depth, most_nodes, settings, deadline, all_solutions)
    while count is not None and count < settings.subtrees_per_share * shares and depth < settings.deepest_split:
        deeper = subtrees(board, L, stack_cap, depth + 1, most_nodes, settings, deadline, all_solutions)
        if deeper is None:
            break
        depth, count = depth + 1, deeper
    return depth
