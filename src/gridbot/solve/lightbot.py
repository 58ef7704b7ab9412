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

Cuts 7 and 8 skip programs that have a *shorter* equivalent. The search of
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
   memoised while its body stays the same.
10. *Endless runs stand on nothing new.* When the control state repeats (cut
   4), everything from its first occurrence on repeats for ever: the robot
   will stand only on tiles it has stood on. If a light is still missing, the
   run is dropped at once instead of after two periods.

*Win check.* No win is possible before the robot has stood on every light
(an X lights only the light under it), so moments before that are not
checked. At each later moment the robot stands on a light, only the gap
control is at gains a light in its vector; every other vector is as it was
at the last moment it stood on a light (checked, since a win then would have
needed every light stood on too), with at least the budget and slot room of
now. So a new win must use that gap: with one X left the check is one
comparison, with two a scan of the gaps, and only larger budgets solve the
linear system.

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

The win check is exact (all X placements within the budget and the slot
limits). Every cut is checked against unpruned enumeration of all programs on
small random levels in tests/test_lightbot_solve.py, and the kernel against
its pure-Python twin.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from gridbot.games import lightbot
from gridbot.games.lightbot import LIMITS, Level, Program
from gridbot.grid import GridbotError
from gridbot.kernels import lightbot as kern
from gridbot.result import SolveResult
from gridbot.solve import lightbot_paths
from gridbot.solve.search import Clock, Progress, Timeout

MAX_ALL = 100
MAX_TOTAL = sum(LIMITS.values())
WALK_OPS = "FJLR12"
CHUNK = 200_000  # nodes per kernel call, between clock checks
SLICE = 0.2  # seconds between looks at the workers
MAX_LIGHTS = 62  # the light vectors are int64 bit masks
SPLIT_DEPTH = 6  # shares deal out the subtrees at this depth (thousands of them on hard levels)
SHARES_PER_WORKER = 8  # a length split over the workers is searched in this many shares per worker
GROWTH = 6  # about how much longer each length takes than the one before
PARALLEL_AFTER = 3.0  # seconds a length is expected to take before it is worth starting processes
GUESS = kern.GUESS_MOVES | kern.GUESS_LOOP | kern.GUESS_F2_STILL  # the narrowed search that looks ahead for a program
GUESS_AFTER = 0.5  # seconds a length is expected to take before looking ahead pays
GUESS_SHARE = 0.5  # the narrowed search's time for a length (before it or at its head start), per expected second
JUMP = 1  # lengths the exact search may skip to reach one below the best program known
PATHS_MIN, PATHS_MAX = 2.0, 30.0  # seconds for the programs built from pieces of winning walks


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


def tables(level: Level) -> Tables:
    """The level as the kernel reads it (kern.board_arrays) plus the lights reachable from each tile. O(cells^2)."""
    if len(level.lights) > MAX_LIGHTS:
        raise GridbotError(
            f"the Light-Bot solver handles at most {MAX_LIGHTS} lights; this level has {len(level.lights)}"
        )
    mv, light, full, start, facing = kern.board_arrays(level)
    lim = np.array([LIMITS["main"], LIMITS["f1"], LIMITS["f2"]], np.int64)
    return Tables(mv, kern.state_table(mv), light, _reach(mv, light), full, start, facing, lim)


def _reach(mv: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Per position, the mask of lights on tiles reachable from it by moves (any facing). O(cells^2)."""
    cells = mv.shape[0]
    out = np.zeros(cells, np.int64)
    for source in range(cells):
        seen = {source}
        todo = [source]
        while todo:
            here = todo.pop()
            for target in {int(t) for t in mv[here].ravel()} - seen:
                seen.add(target)
                todo.append(target)
        out[source] = sum(1 << int(light[c]) for c in seen if light[c] >= 0)
    return out


class _Search:
    """All arrays of one kernel search for programs of at most L commands; `step` runs it on."""

    def __init__(self, t: Tables, L: int, jit: bool = True) -> None:
        self.t = t
        self.L = L
        controls = t.mv.shape[0] * 4 * kern.N_GAPS
        self.wb = np.zeros((3, 12), np.int64)
        self.wlen = np.zeros(3, np.int64)
        self.closed = np.zeros(3, np.int64)
        self.frames = np.zeros((kern.MAX_DEPTH, kern.N_FRAME), np.int64)
        self.sc = np.zeros(kern.N_SCALARS, np.int64)
        self.vec = np.zeros(kern.N_GAPS, np.int64)
        self.idx = np.zeros(kern.record_keys(t.mv.shape[0]), np.int64)
        self.recs = np.zeros((3, controls + 1), np.int64)
        self.stack = np.zeros((2, kern.stack_size(controls)), np.int64)
        self.trail = np.zeros((kern.trail_rows(controls), 6), np.int64)  # zero pages: only what is used is paid for
        self.stamp = np.zeros((5, max(controls + 1, kern.stack_size(controls), kern.N_GAPS)), np.int64)
        self.work = np.zeros(kern.WORK_SHAPE, np.int64)
        self.cs = np.zeros((2, 3), np.int64)  # per procedure: call sites, and the sum of their bodies
        self.mac = np.zeros((kern.M_ROWS, t.mv.shape[0] * 4), np.int64)
        self.leaf = np.zeros(
            (kern.L_ROWS, max(kern.record_keys(t.mv.shape[0]) + 1, kern.stack_size(controls))), np.int64
        )
        self.kernel = kern.search if jit else kern.search.py_func

    def step(self, budget: int) -> int:
        t = self.t
        status = self.kernel(
            t.mv, t.after, t.light, t.reach, t.full, t.start, t.facing, self.L, t.lim, self.wb, self.wlen, self.closed,
            self.frames, self.sc, self.vec, self.idx, self.recs,
            self.stack, self.trail, self.stamp, self.work, self.cs, self.mac, self.leaf, budget,
        )  # fmt: skip
        if status == kern.OVERFLOW:  # pragma: no cover - the stack bound is proven in the kernel's docstring
            raise AssertionError("call stack overflow in the Light-Bot search")
        return status

    @property
    def nodes(self) -> int:
        return int(self.sc[kern.S_NODES])

    def program(self) -> Program:
        """The program found: the walk with X commands at the gaps of sc[S_FOUND_S]."""
        gaps = int(self.sc[kern.S_FOUND_S])
        bodies = []
        for p in range(3):
            text = []
            for k in range(int(self.wlen[p]) + 1):
                if gaps >> (p * kern.GAPS_PER_BODY + k) & 1:
                    text.append("X")
                if k < self.wlen[p]:
                    text.append(WALK_OPS[int(self.wb[p, k])])
            bodies.append("".join(text))
        return Program(*bodies)


@dataclass(frozen=True, slots=True)
class _Share:
    """What one search of length L (or one worker's share of it) found."""

    programs: tuple[Program, ...]
    nodes: int
    finished: bool  # False: stopped by the deadline before the share was searched
    capped: bool = False


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
    stop: Any = None,
) -> _Share:
    """Run the search for programs of at most L commands (this worker's share) to its end or the deadline.

    `deadline` is in time.monotonic() seconds; `report(nodes)` is called between
    kernel calls (it may raise Timeout); `stop` (an Event) set ends the search as
    the deadline does. `guess` (bits kern.GUESS_*) narrows the
    search to likely programs: it may then miss programs, so it proves nothing. Each program is returned as found; the
    caller re-checks it with the simulator.
    """
    search = _Search(t, L, jit)
    search.sc[kern.S_GUESS] = guess
    search.sc[kern.S_SPLIT_DEPTH] = SPLIT_DEPTH
    search.sc[kern.S_WORKER] = worker
    search.sc[kern.S_WORKERS] = workers
    found: list[Program] = []
    while True:
        status = search.step(CHUNK)
        if status == kern.FOUND:
            program = search.program()
            if program not in found:
                found.append(program)
            if not all_solutions:
                return _Share(tuple(found), search.nodes, True)
            if len(found) >= MAX_ALL:
                return _Share(tuple(found), search.nodes, True, capped=True)
        elif status == kern.EXHAUSTED:
            return _Share(tuple(found), search.nodes, True)
        if (deadline is not None and time.monotonic() > deadline) or (stop is not None and stop.is_set()):
            return _Share(tuple(found), search.nodes, False)
        if report is not None:
            report(search.nodes)


class _Guesser:
    """Upper bounds found ahead of the exact search: the best program is a length to aim at.

    First, on levels of few lights, a program built from pieces of the
    shortest winning walks (gridbot.solve.lightbot_paths); then a narrowed
    search (kern.GUESS_*) for programs shorter than the best so far. When the
    best program has n commands and the exact search has excluded every
    length below n, it is optimal and the most expensive length need not be
    searched; when time runs out first, it is the best program known. Neither
    narrowing proves anything itself.
    """

    def __init__(self, level: Level, t: Tables, jit: bool) -> None:
        self.level = level
        self.t = t
        self.jit = jit
        self.search: _Search | None = None  # the length being searched, paused between turns
        self.best: Program | None = None
        self.nodes = 0
        self.next = 1  # the narrowed search has ended every length below this one
        self.paths_tried = not jit  # from_paths is compiled only; it declines levels of many lights itself

    def done(self, first: int) -> bool:
        """Has the narrowed search ended every length from `first` below the best program known (or every
        length there is)?"""
        nxt = max(first, self.next)
        return nxt > MAX_TOTAL or (self.best is not None and nxt >= self.best.tokens)

    def advance(self, seconds: float, first: int, report: Any) -> None:
        """Search on for about `seconds` (one kernel call at least), lengths from `first` up, for a shorter program.

        The narrowed search is the same at every call, so a length it has
        searched to the end is never searched again. `report(nodes)` is called
        between kernel calls (it may raise Timeout).
        """
        stop = time.monotonic() + seconds
        if not self.paths_tried:
            self.paths_tried = True
            found = lightbot_paths.from_paths(self.level, seconds=min(max(seconds, PATHS_MIN), PATHS_MAX))
            if found is not None:
                self.best = _checked(self.level, [found])[0]
        while not self.done(first):
            first = max(first, self.next)
            if self.search is None or first > self.search.L:
                self.search = _Search(self.t, first, self.jit)
                self.search.sc[kern.S_GUESS] = GUESS
            before = self.search.nodes
            status = self.search.step(CHUNK)
            self.nodes += self.search.nodes - before
            if status == kern.FOUND:
                found = _checked(self.level, [self.search.program()])[0]
                if self.best is None or found.tokens < self.best.tokens:
                    self.best = found
            if status != kern.PAUSED:  # a shorter one would have been met before this length ended
                self.next = self.search.L + 1
                self.search = None
            report(self.nodes)
            if time.monotonic() >= stop:
                return


def _checked(level: Level, programs: Any) -> list[Program]:
    """The programs, shortest first, each re-run by the game's simulator."""
    for program in programs:
        if not lightbot.run(level, program).verdict.won:  # pragma: no cover - a bug in the kernel
            raise AssertionError(f"the solver produced a losing program: {program}")
    return sorted(set(programs), key=lambda p: (p.tokens, str(p)))


def _worker_share(
    t: Tables, L: int, all_solutions: bool, seconds: float | None, worker: int, workers: int, stop: Any
) -> _Share:
    deadline = None if seconds is None else time.monotonic() + seconds
    return _search_length(t, L, all_solutions, deadline, True, worker, workers, stop=stop)


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    jit: bool = True,
    workers: int | None = None,
) -> SolveResult:
    """The fewest commands of a winning program, proven; see the module docstring.

    Returns status 'optimal' (with the programs met at the optimal length when
    `all_solutions`, one per walk, capped at 100), 'unsolvable' when no program
    within the slot limits wins, or, when the time limit or `max_length` ends
    the search first, 'solved' with the best program known or 'timeout' when
    there is none, `lower_bound` being the first length not excluded. Lengths
    whose search is expected to take more than a couple of seconds are split
    into shares over `workers` processes (default: every core), share k of n
    taking every n-th subtree from the k-th at a fixed depth. A narrowed search
    (_Guesser) looks ahead for half the time each length is expected to take
    (at the head start of the shares when there are some, on a core of its
    own): a program of the length the exact search has just reached is then
    optimal without searching that length, and one a length further lets the
    exact search skip a length. Exponential in the
    length; each answer is re-run by the game's simulator.
    """
    if jit:
        warm_up()  # loading compiled code is not solving: before the clock
    clock = Clock(time_limit, progress)
    if not level.lights:
        return SolveResult("lightbot", level.name, "optimal", Program(""), 0, clock.seconds, 0, {"candidates": 0})
    t = tables(level)
    limit = MAX_TOTAL if max_length is None else min(max_length, MAX_TOTAL)
    workers = (os.cpu_count() or 1) if workers is None else max(1, workers)
    guesser = _Guesser(level, t, jit)
    nodes = 0
    low = 1  # every length below is excluded
    last = 0.0

    def stats() -> dict[str, Any]:
        return {"candidates": nodes + guesser.nodes, "guess_candidates": guesser.nodes}

    def met_ahead() -> bool:
        """Has the look-ahead met a program of the first length not excluded? It is then optimal."""
        return not all_solutions and guesser.best is not None and guesser.best.tokens == low

    def left() -> float | None:
        return None if time_limit is None else time_limit - clock.seconds

    def jump_to() -> int:
        """The length to search next: `low`, or one below the best program known when that is at most JUMP
        lengths further (excluding it excludes every length up to it: the best is then optimal)."""
        best = guesser.best
        if best is not None and not all_solutions and low < best.tokens - 1 <= min(low + JUMP, limit):
            return best.tokens - 1
        return low

    def optimal_ahead() -> SolveResult:
        best = guesser.best
        return SolveResult("lightbot", level.name, "optimal", best, low, clock.seconds, low, stats())

    def submit(jobs: list[Any], L: int, share: int, count: int) -> None:
        """Hand share `share` of `count` of length L to the worker processes."""
        jobs.append(pool.submit(_worker_share, t, L, all_solutions, left(), share, count, stop))

    pool: Any = None
    stop: Any = None  # set: the shares stop (the length is needed no more, or time is up)

    with contextlib.ExitStack() as resources:
        try:
            while limit >= low:

                def report(done: int, L: int = low, before: int = nodes) -> None:
                    clock.check(length=L, candidates=before + guesser.nodes + done)

                def report_guess(guessed: int, L: int = low, before: int = nodes) -> None:
                    clock.check(length=L, candidates=before + guessed)

                expected = last * GROWTH
                parallel = jit and workers > 1 and expected > PARALLEL_AFTER
                ahead = GUESS_SHARE * expected if expected > GUESS_AFTER else 0.0
                if ahead and not parallel:
                    guesser.advance(ahead, low, report_guess)
                if met_ahead():
                    return optimal_ahead()
                L = jump_to()
                started = time.monotonic()
                if parallel:
                    if pool is None:
                        context = multiprocessing.get_context("fork")  # children inherit the compiled kernel
                        stop = resources.enter_context(context.Manager()).Event()  # a proxy: it can be sent
                        pool = resources.enter_context(ProcessPoolExecutor(workers, mp_context=context))
                    stop.clear()
                    count = SHARES_PER_WORKER * workers
                    jobs: list[Any] = []

                    # Head start: this process looks ahead on a core of its own while the other cores take
                    # the length's shares one by one. A program met two lengths ahead lets this length be
                    # skipped (the jump) before every core has been spent on it; one of this very length is
                    # optimal outright. The shares are many and small, so that the cores end together
                    # although one of them starts late.
                    shares_left = list(range(count))
                    head_until = started + ahead
                    while shares_left and time.monotonic() < head_until and not guesser.done(low):
                        while shares_left and sum(not job.done() for job in jobs) < workers - 1:
                            submit(jobs, L, shares_left.pop(0), count)
                        guesser.advance(min(SLICE, head_until - time.monotonic()), low, report_guess)
                        clock.check(length=L, candidates=nodes + guesser.nodes, workers=workers)
                        if met_ahead() or jump_to() > L:
                            stop.set()  # this length's search is needed no more
                            break
                    if not stop.is_set():
                        for share in shares_left:
                            submit(jobs, L, share, count)
                    while not all(job.done() for job in jobs):
                        wait(jobs, timeout=SLICE)
                        if not all_solutions and any(job.done() and job.result().programs for job in jobs):
                            stop.set()  # one program is all that is asked for
                        clock.check(length=L, candidates=nodes + guesser.nodes, workers=workers)
                    shares = [job.result() for job in jobs]
                    jumped = stop.is_set() and not met_ahead() and not any(share.programs for share in shares)
                else:
                    seconds = left()
                    deadline = None if seconds is None else time.monotonic() + seconds
                    shares = [_search_length(t, L, all_solutions, deadline, jit, report=report)]
                    jumped = False
                nodes += sum(share.nodes for share in shares)
                if jumped:
                    continue  # the next round searches one below the best program known
                last = time.monotonic() - started
                if met_ahead():
                    return optimal_ahead()
                found = _checked(level, [p for share in shares for p in share.programs])
                if found and found[0].tokens == low:  # every program met has at most L commands
                    capped = any(share.capped for share in shares) or len(found) > MAX_ALL
                    listed = tuple(found[:MAX_ALL]) if all_solutions else ()
                    return SolveResult(
                        "lightbot", level.name, "optimal", found[0], low, clock.seconds, low, stats(), listed, capped
                    )
                if found:  # after a jump: shorter than the best known, not yet proven
                    guesser.best = found[0]
                elif not all(share.finished for share in shares):
                    raise Timeout
                else:
                    low = L + 1
                clock.check(length=low, candidates=nodes + guesser.nodes)
        except Timeout:
            if stop is not None:
                stop.set()  # the workers need not wait for their own deadline
    if low > MAX_TOTAL:
        return SolveResult("lightbot", level.name, "unsolvable", None, None, clock.seconds, low, stats())
    if guesser.best is not None:
        best = guesser.best
        return SolveResult("lightbot", level.name, "solved", best, best.tokens, clock.seconds, low, stats())
    return SolveResult("lightbot", level.name, "timeout", None, None, clock.seconds, low, stats())


_WARM: list[bool] = []


def warm_up() -> None:
    """Load (or compile) the kernel on a tiny level, once per process, before any clock starts."""
    if _WARM:
        return
    _WARM.append(True)
    search = _Search(tables(Level.parse("000\n\n>*.")), 4)
    while search.step(CHUNK) not in (kern.EXHAUSTED,):
        pass
