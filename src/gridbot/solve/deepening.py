"""One deepening driver for the solvers that search program lengths one by one, shortest first.

Light-Bot, RoboZZle and Robo's Escape prove an optimum the same way: search
every program of length 1, 2, 3, ... until a length holds a winner (or, for
Robo's Escape, until no longer program can score more), so that the first
winner met is the shortest. What they share is here, written once:

- the clock: one `Clock` from the call on; loading the compiled kernels counts
  against it, and a solve that cannot load them in time says so (`can_load`);
- the schedule: each length is expected to take `growth` times the one before
  (measured from the last two lengths' nodes where a game asks), and one
  expected to take more than `parallel_after` seconds is split into shares over
  the executor's workers, started when first needed; once split, every longer
  length is split too, since a length taken whole from a checkpoint says
  nothing of the next one's time;
- the shares: `shares_per_worker` per worker, each recorded in the executor's
  checkpoint (under the game's `Ledger`) as it finishes, so a rerun resumes;
- the accounting: nodes of every length, lengths searched in part included;
- the end: a length is excluded only when it was searched whole; a deadline
  (Timeout), a stop request or the memory budget (OutOfBudget) ends the search
  with what it has, and every program a length met is re-checked by the game's
  simulator before it counts;
- the news: when the caller listens (gridbot.deadline.hearing, the front's `on_solution`), each better program
  the game knows (`incumbent`) is announced at the driver's next look: between lengths and at each progress
  tick of the clock (about five times a second).

A game supplies only what differs (`Lengths`): how to search one length here
under a deadline (`here`) and in picklable shares (`split`), whether a
program is accepted and what a length's programs decide (`recheck`, `after`),
a heuristic's turn before a length (`before`: an upper bound the search then
aims at, `settled` once it is proven) and the answer it gives (`finish`).

>>> from gridbot.solve.deepening import Schedule
>>> Schedule(growth=6.0).growth_of(10, 500)
6.0
"""

from __future__ import annotations

import contextlib
import enum
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridbot.deadline import Clock, Deadline, Timeout, announce, listening, stop_requested
from gridbot.kernels import EXHAUSTED, FOUND
from gridbot.parallel import executors
from gridbot.parallel.shares import Share
from gridbot.result import SolveResult
from gridbot.solve.memory import OutOfBudget

_warm: set[str] = set()  # the solvers whose compiled kernels this process has loaded


def warm(name: str, load: Callable[[], None]) -> None:
    """Load solver `name`'s compiled kernels once per process (`load()` runs them on a tiny level). O(1) after."""
    if name not in _warm:
        _warm.add(name)
        load()


def is_warm(name: str) -> bool:
    return name in _warm


def forget_warm(name: str) -> None:
    """As if this process had not loaded solver `name`'s kernels (a test of the first solve's clock)."""
    _warm.discard(name)


@dataclass(frozen=True, slots=True)
class Schedule:
    """How the driver spends time over the lengths: a game's settings hold one."""

    # a length expected to take longer than this (seconds) is split over the workers: starting processes and
    # dealing shares costs a fraction of a second
    parallel_after: float = 2.0
    # a length split over the workers is searched in this many shares per worker, so that the cores end together
    # although shares differ in size
    shares_per_worker: int = 8
    # each length is expected to take this many times the one before, at least...
    growth: float = 4.0
    # ...and at most, when the last two lengths measure it (the ratio of their nodes)...
    max_growth: float = 4.0
    # ...once the length before the last took this many nodes (smaller counts say little); None: never measured
    growth_from: int | None = None
    # the first length split over n workers is expected to end this times n sooner than one process would take
    # (None: not projected; a game whose heuristic's time hangs on the expectation sets it)
    split_speedup: float | None = None
    # about what loading the compiled kernels from numba's cache takes; a first solve with less time than this
    # left (plus `load_late`) answers 'timeout' at once rather than overrun its limit
    warm_up_seconds: float = 0.0
    # seconds loading the kernels may end past the time limit
    load_late: float = 0.0

    def expected(self, last: float, growth: float, first_split: bool, cores: int) -> float:
        """Seconds the next length is expected to take: `last`, the seconds of the length before, times `growth`;
        over `split_speedup` times `cores` when it is the `first_split` over worker processes, the one before
        having run in one process (lengths after that are measured split). O(1)."""
        expected = last * growth
        if first_split and cores > 1 and self.split_speedup is not None:
            return expected / (self.split_speedup * cores)
        return expected

    def growth_of(self, before: int, now: int) -> float:
        """How many times longer than a length of `now` nodes the next is expected to take, when the one before
        took `before`: their ratio, from `growth` to `max_growth`, once `before` is at least `growth_from`;
        `growth` until then. O(1)."""
        if self.growth_from is None or before < self.growth_from:
            return float(self.growth)
        return min(float(self.max_growth), max(float(self.growth), now / before))


class Step(enum.Enum):
    """What one length's search decides (Lengths.after)."""

    NEXT = "next"  # the length is excluded: go on with the next one
    AGAIN = "again"  # look at the same first length again (a better program is known now, not yet proven)
    DONE = "done"  # the answer is proven: finish(End.FOUND)


class End(enum.Enum):
    """Why the driver stopped (Lengths.finish)."""

    SETTLED = "settled"  # the best program known is proven best before a length (Lengths.settled)
    FOUND = "found"  # a length's search proved its answer (Step.DONE)
    EXHAUSTED = "exhausted"  # every length up to the top was searched
    STOPPED = "stopped"  # the deadline, a stop request, or the memory budget (Deepening.reason)


class Abandon(Exception):  # noqa: N818 - a control-flow signal, like StopIteration
    """Raised by a game's search of a length that is needed no more (a better program arrived meanwhile): the
    driver counts `nodes` and looks at the same first length again."""

    def __init__(self, nodes: int = 0) -> None:
        super().__init__(nodes)
        self.nodes = nodes


class Stopped(Timeout):
    """Raised by a game's search of a length that the clock (or a stop request) cut short: the driver counts what
    `share` searched, hands what it met to the game (Lengths.stopped), and stops as on any Timeout."""

    def __init__(self, share: Share) -> None:
        super().__init__()
        self.share = share


class Lengths:
    """What a game gives the driver (see the module docstring); the defaults are those of a game with no
    heuristic and shares that need nothing more than `share`. `d` is the driver, whose state (low, nodes,
    clock, searching, reason, executor) the hooks read."""

    def __init__(self, level: Any, all_solutions: bool, jit: bool, settings: Any) -> None:
        """What every game's part holds: the level, whether every optimal program is listed, whether the kernels
        run compiled, and the game's settings, whose `schedule` the driver follows."""
        self.level = level
        self.all_solutions = all_solutions
        self.jit = jit
        self.settings = settings
        self.schedule: Schedule = settings.schedule

    def open(self, d: Deepening, resources: contextlib.ExitStack) -> None:
        """At the start: what must end with the search (a helper thread's stop) goes on `resources`, which closes
        before the answer of a search that ran out of lengths or time is made."""

    def settled(self, d: Deepening) -> bool:
        """Is the best program known proven best before length d.low is searched?"""
        return False

    def before(self, d: Deepening, expected: float, parallel: bool) -> bool:
        """A heuristic's turn before length d.low, expected to take `expected` seconds (split when `parallel`):
        True to look again (settled may now hold)."""
        return False

    def target(self, d: Deepening, top: int) -> int:
        """The length to search next (d.low, or beyond it when a heuristic's program makes that pay)."""
        return d.low

    def here(self, d: Deepening, L: int, deadline: Deadline) -> Share:
        """Length L searched in this process until `deadline`, looking at d.clock between kernel calls (it reports
        progress and raises Timeout); Stopped when the clock cuts it short with nodes to count."""
        raise NotImplementedError

    def split(self, d: Deepening, run: executors.Executor, L: int, check: Callable[[], None]) -> Share:
        """Length L in `schedule.shares_per_worker` shares per worker of `run` (gridbot.parallel.shares: picklable
        shares, each recorded in the executor's checkpoint under the game's Ledger as it finishes); `check()`
        between looks at them raises Timeout."""
        raise NotImplementedError

    def phase(self, d: Deepening, parallel: bool) -> contextlib.AbstractContextManager[Any]:
        """A context around one length's search (a game's own timing, a helper paused while shares run)."""
        return contextlib.nullcontext()

    def recheck(self, d: Deepening, programs: tuple[Any, ...]) -> list[Any]:
        """The programs met, each re-run by the game's simulator (WrongAnswer when one fails), in answer order."""
        raise NotImplementedError

    def stopped(self, d: Deepening, share: Share) -> None:
        """A length was cut short by the clock after searching `share` (Stopped): keep what it met."""

    def after(self, d: Deepening, L: int, share: Share, found: list[Any]) -> Step:
        """What length L's search (`share`, its re-checked programs `found`) decides; may raise Timeout."""
        raise NotImplementedError

    def finish(self, d: Deepening, end: End) -> SolveResult:
        """The answer."""
        raise NotImplementedError

    def incumbent(self, d: Deepening) -> Any | None:
        """The best program known so far (a heuristic's or a length's), or None: what the driver announces when it
        changes. By default the `best` of the game's `guesser`, where it keeps its look-ahead's best program there
        (Light-Bot), else none: the answer alone is heard, at the end."""
        return getattr(getattr(self, "guesser", None), "best", None)


class Deepening:
    """One solve's deepening: the lengths from 1 up to a top, each searched here or in shares (see the module
    docstring). `cores` is the number of local worker processes to start when a length is first split, unless an
    `executor` is given (its workers count then); `jit` False keeps every length in this process (the kernels'
    pure-Python twins)."""

    def __init__(
        self, game: Lengths, clock: Clock, cores: int, executor: executors.Executor | None = None, jit: bool = True
    ) -> None:
        self.game = game
        self.clock = clock
        self.jit = jit
        self.cores = cores if executor is None else executor.workers
        self.executor = executor  # started when first needed (local processes) unless given
        self.low = 1  # every length below is excluded
        self.nodes = 0  # nodes of the exact search, every length searched (in part too)
        self.split = False  # a length has been split into shares
        self.last = 0.0  # seconds the last length took
        self.last_nodes = 0  # and its nodes
        self.growth = float(game.schedule.growth)  # how many times longer the next length is expected to take
        self.searching: float | None = None  # clock seconds when the length being searched began
        self.reason = ""  # why the search stopped short, when not the clock
        self.told: Any | None = None  # the last program announced (see `tell`)
        if listening():  # the clock's progress ticks are the driver's looks at the game's best program
            forward = clock.progress

            def progress(report: dict[str, Any]) -> None:
                self.tell()
                if forward is not None:
                    forward(report)

            clock.progress = progress

    def tell(self) -> None:
        """Announce the game's best program when it is not the one announced last (gridbot.deadline.announce). O(1)
        without a listener."""
        best = self.game.incumbent(self) if listening() else None
        if best is not None and best != self.told:
            self.told = best
            announce(best)

    def run(self, top: int) -> SolveResult:
        """Search lengths from 1 up to `top`; the game's answer. Exponential in the length reached."""
        game = self.game
        schedule = game.schedule
        try:
            with contextlib.ExitStack() as resources:  # worker processes, when started, end with the search
                game.open(self, resources)
                while top >= self.low:
                    self.tell()
                    if game.settled(self):
                        return game.finish(self, End.SETTLED)
                    # once split, always: a length taken from a checkpoint says nothing of the next one's time
                    long = self.last * self.growth > schedule.parallel_after
                    parallel = self.jit and self.cores > 1 and (long or self.split)
                    expected = schedule.expected(self.last, self.growth, parallel and not self.split, self.cores)
                    if game.before(self, expected, parallel):
                        continue
                    L = game.target(self, top)
                    started = self.searching = self.clock.seconds
                    try:
                        with game.phase(self, parallel):
                            if parallel:
                                share = self._in_shares(L, resources)
                            else:
                                share = game.here(self, L, self.clock.deadline)
                    except Abandon as abandoned:
                        self.nodes += abandoned.nodes
                        self.searching = None
                        continue
                    except Stopped as stopped:  # what a length cut short searched counts, and what it met
                        self.nodes += stopped.share.nodes
                        game.stopped(self, stopped.share)
                        raise
                    self.nodes += share.nodes
                    self.growth = schedule.growth_of(self.last_nodes, share.nodes)
                    self.last, self.last_nodes = self.clock.seconds - started, share.nodes
                    step = game.after(self, L, share, game.recheck(self, share.programs))
                    if step is Step.DONE:
                        return game.finish(self, End.FOUND)
                    self.searching = None
                    if step is Step.NEXT:
                        self.low = L + 1
        except Timeout:
            pass  # leaving the `with` block has stopped the worker processes
        except OutOfBudget as error:
            self.reason = str(error)
        else:
            return game.finish(self, End.EXHAUSTED)
        return game.finish(self, End.STOPPED)

    def _in_shares(self, L: int, resources: contextlib.ExitStack) -> Share:
        self.split = True
        if self.executor is None:
            self.executor = resources.enter_context(executors.local(self.cores))
            self.executor.pool.submit(int).result()  # the workers forked now, while no helper thread holds a lock
        check = functools.partial(self.clock.check, length=L, candidates=self.nodes)
        return self.game.split(self, self.executor, L, check)


def can_load(clock: Clock, jit: bool, name: str, schedule: Schedule) -> bool:
    """Is there time to load solver `name`'s compiled kernels (or are they loaded, or not used)? A caller's
    start-up (importing numba) can eat a short limit: loading them then would only overrun it. O(1)."""
    left = clock.left()
    return not jit or is_warm(name) or left is None or left + schedule.load_late >= schedule.warm_up_seconds


def run_share(
    search: Any,
    step: Callable[[], int],
    all_solutions: bool,
    most: int,
    deadline: float | None,
    report: Callable[[int], None] | None = None,
    until_nodes: int | None = None,
) -> Share:
    """Run one kernel search (one share, or a whole length) by calls of `step()` to its end, the deadline
    (time.monotonic() seconds), `search.nodes` reaching `until_nodes`, or a stop request from the parent
    process (gridbot.deadline.stop_requested).

    `search` gives `program()` (the program just found) and `nodes`; `report(nodes)` is called between kernel
    calls and may raise (Timeout). The first program ends the search unless `all_solutions`, when at most
    `most` are collected (the Share is then `capped`). Programs are returned as found, each once; the caller
    re-checks them with the simulator. O(kernel calls).
    """
    found: list[Any] = []
    while True:
        status = step()
        if status == FOUND:
            program = search.program()
            if program not in found:
                found.append(program)
            if not all_solutions:
                return Share(tuple(found), search.nodes, True)
            if len(found) >= most:
                return Share(tuple(found), search.nodes, True, capped=True)
        elif status == EXHAUSTED:
            return Share(tuple(found), search.nodes, True)
        if (
            (deadline is not None and time.monotonic() > deadline)
            or (until_nodes is not None and search.nodes >= until_nodes)
            or stop_requested()
        ):
            return Share(tuple(found), search.nodes, False)
        if report is not None:
            report(search.nodes)
