"""RoboZZle's solver as callers meet it (solve): the exact search length by length, in this process or in
shares over worker processes, with the heuristics' programs as upper bounds; and the kernels' warm-up."""

from __future__ import annotations

import contextlib
import functools
from concurrent import futures
from typing import Any

from gridbot.deadline import Clock, Deadline, Progress, Timeout, stop_requested
from gridbot.errors import WrongAnswer
from gridbot.games import robozzle
from gridbot.games.robozzle import Level, Program
from gridbot.kernels import robozzle as kern
from gridbot.parallel import executors
from gridbot.parallel import workers as _workers
from gridbot.parallel.checkpoint import level_digest
from gridbot.parallel.shares import Ledger, Share, search_shares
from gridbot.result import SolveResult, Status
from gridbot.solve import deepening
from gridbot.solve.robozzle.anneal import Annealer
from gridbot.solve.robozzle.beam import Beam
from gridbot.solve.robozzle.board import Board, _stars_cut_off
from gridbot.solve.robozzle.exact import MAX_ALL, _mirror_cut, _Search, _search_length, _share, split_depth
from gridbot.solve.robozzle.schedule import Spent, _timed, heuristic_share
from gridbot.solve.robozzle.settings import DEFAULT, Settings
from gridbot.solve.robozzle.team import Beside, Team, member_of


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
    """The fewest occupied slots of a winning program, proven (gridbot.solve.robozzle.exact says why the search is
    exact). The names in backquotes below that are not parameters are fields of `settings` (DEFAULT unless given).

    Returns 'optimal' (with the programs met at the optimal length when `all_solutions`, one per behaviour, capped at
    MAX_ALL), 'unsolvable' when no program within the slot limits wins, or, when the time limit or `max_length` ends the
    search first, 'solved' with the best program the heuristic (Beam.guess: the beam, then the repair of its best line;
    or Annealer.guess) found or 'timeout' when there is none; `lower_bound` is the first length not excluded. The
    heuristic runs before each length expected to take more than `beam_after` seconds (each length as many times longer
    than the one before as the last two grew, Schedule.growth_of), for `beam_share` of that length's expected time
    (`beam_last` of the time left when the length may well not end before the time limit, `beam_hopeless` of it when it
    is expected not to: heuristic_share): a program of n slots it finds is optimal as soon as every length below n is
    excluded, so the exact search stops there. A length split over the worker processes for the first time is expected
    to end the schedule's `split_speedup` times the number of cores sooner than the growth alone says
    (Schedule.expected). With two cores or more (`workers`, default: every core, or the local executor's workers), the
    annealer runs on a thread of its own from the heuristic's first turn to the end (Beside) whenever a core is free of
    the exact search: beside a length searched in this process (a program of n slots it finds while length n is searched
    ends that search at once: every shorter length is excluded) and beside the beams' turns; it waits while a length is
    split over the worker processes, which take every core. A length that decides (a program of one slot more is known,
    or the length is the most slots allowed) gets no heuristic turn: the only better program would have that length,
    which the search finds as well. The beams take their turns on the other threads as a Team (on one core the plain
    beam alone; on three, a look-ahead beam as well; beyond `team` cores, each beam splits its partial programs among
    its share of the threads at each depth, and each thread repairs below its own ancestor of the best line). Given a
    cluster's executor of more than one worker instead (and at least `helpers_after` seconds of heuristic), its other
    workers run the heuristic at the same time, each with its own seed (member_of: a plain beam, the annealer or a
    look-ahead beam by the seed, each with its own random choices); the shortest program any of them finds counts.
    Lengths expected to take more than the schedule's `parallel_after` seconds are split into shares over `executor`'s
    workers (gridbot.parallel.executors: a Dask cluster, say), or else over `workers` local processes (default: every
    core), started when first needed; a length is excluded only when every share has come back finished, and with the
    executor's checkpoint each finished share is recorded (and not searched again by a run that resumes). The time limit
    counts from the call, loading the compiled kernels included: in a process that has not loaded them yet, when loading
    them (the schedule's `warm_up_seconds`) would end more than `load_late` past the limit, the answer is 'timeout' at
    once, saying why. The stats say where the seconds went (Spent: `seconds_heuristic`, `seconds_exact`,
    `seconds_split`, `seconds_unfinished`, `seconds_annealer`). Exponential in the length; each answer is re-run by the
    game's simulator.
    """
    clock = Clock(time_limit, progress)  # first: loading the kernels counts
    settings = DEFAULT if settings is None else settings
    cut_off = _stars_cut_off(level)
    if cut_off:
        r, c = cut_off[0]
        stats = {
            "candidates": 0,
            "reason": f"the star at row {r + 1}, column {c + 1} is not joined to the robot's tile",
        }
        return SolveResult(robozzle.NAME, level.name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)
    if not deepening.can_load(clock, jit, robozzle.NAME, settings.schedule):
        # the caller's start-up (importing numba) ate the time: loading the kernels would only overrun the limit
        stats = {"candidates": 0, "reason": "no time left to load the compiled search (about a second)"}
        return SolveResult(robozzle.NAME, level.name, Status.TIMEOUT, None, None, clock.seconds, 1, stats)
    if jit:
        warm_up()
    top = sum(level.slots) if max_length is None else min(max_length, sum(level.slots))
    cores = _workers.cores() if workers is None else max(1, workers)
    lengths = _Lengths(level, top, all_solutions, stack_cap, jit, beam, cores, executor, settings)
    return deepening.Deepening(lengths, clock, cores, executor, jit).run(top)


class _Lengths(deepening.Lengths):
    """RoboZZle's part of the deepening: the heuristics' turns before the lengths (a team of beams and the annealer,
    or a cluster's helpers), the annealer beside the search, and where the seconds went (Spent)."""

    def __init__(
        self, level: Level, top: int, all_solutions: bool, stack_cap: int, jit: bool, beam: bool, local_cores: int,
        executor: executors.Executor | None, settings: Settings,
    ) -> None:  # fmt: skip
        super().__init__(level, all_solutions, jit, settings)
        self.board = board = Board.of(level)
        self.top = top
        self.stack_cap = stack_cap
        self.executor = executor
        cores = local_cores if executor is None else executor.workers
        # the heuristic runs on a thread per core of this machine (a team); a cluster's workers run helpers of
        # their own
        self.on_this_machine = executor is None or executor.kind == "local"
        threads = cores if self.on_this_machine else 1
        heuristic = beam and jit and not all_solutions
        # on two cores or more, the annealer runs beside the search from the heuristic's first turn; the beams take
        # turns
        apart = heuristic and threads > 1
        self.guesser = (
            Team(board, stack_cap, threads=threads - apart, annealer=not apart, settings=settings)
            if heuristic
            else None
        )
        self.beside = (
            Beside(board, stack_cap, top, tell=self.guesser.found, lead=self.guesser.lead_program, settings=settings)
            if self.guesser is not None and apart
            else None
        )
        self.beamed = 0  # the heuristic has run before every length up to this one
        self.spent = Spent()
        self.seeds = 1  # the next seed for a helper's beam (this process's is 0)
        self.answer: tuple[Program, tuple[Program, ...], bool] | None = None  # proven: (program, listed, capped)
        # a share is a set of subtrees of the search's tree, which the mirror cut shapes: a share recorded with the
        # cut covers other subtrees than one without it, so it is not read by the other
        self.ledger = {"game": robozzle.NAME, "level": level_digest(robozzle.NAME, level),
                       "options": {"all": all_solutions, "stack_cap": stack_cap,
                                   "mirror_cut": _mirror_cut(settings, all_solutions)}}  # fmt: skip

    def best(self) -> Program | None:
        found = [h.best for h in (self.guesser, self.beside) if h is not None and h.best is not None]
        return min(found, key=lambda p: p.tokens, default=None)

    def incumbent(self, d: deepening.Deepening) -> Program | None:
        return self.best()

    def stats(self, d: deepening.Deepening) -> dict[str, Any]:
        out: dict[str, Any] = {"candidates": d.nodes}
        if self.guesser is not None:
            out["beam_nodes"] = self.guesser.nodes + (0 if self.beside is None else self.beside.nodes)
        self.spent.annealer = 0.0 if self.beside is None else self.beside.seconds
        out.update(self.spent.stats())
        return out

    def open(self, d: deepening.Deepening, resources: contextlib.ExitStack) -> None:
        if self.beside is not None:
            resources.callback(self.beside.stop)  # the annealer ends with the search

    def settled(self, d: deepening.Deepening) -> bool:
        known = self.best()
        if self.beside is not None and known is not None:
            self.beside.bound(known.tokens - 1)
        return known is not None and known.tokens <= d.low  # every shorter length is excluded

    def before(self, d: deepening.Deepening, expected: float, parallel: bool) -> bool:
        settings, guesser, beside = self.settings, self.guesser, self.beside
        known = self.best()
        # started with the heuristic's first turn: a puzzle the search ends at once keeps its one answer
        if beside is not None and not beside.started and expected > settings.beam_after:
            beside.start()
        # a program of L + 1 slots known, or L the most slots allowed: this length decides (a program: optimal;
        # none: the known one is, or none wins), and any program the heuristic could find would be of L slots, which
        # the search finds too
        deciding = (known is not None and known.tokens == d.low + 1) or d.low >= self.top
        if guesser is None or self.beamed >= d.low or expected <= settings.beam_after or deciding:
            return False
        self.beamed = d.low
        share = heuristic_share(expected, d.clock.left(), settings)
        most = (known.tokens - 1) if known is not None else self.top
        executor = self.executor
        with _timed(self.spent, "heuristic"):
            if executor is not None and not self.on_this_machine and d.cores > 1 and share >= settings.helpers_after:
                _guess_beside(executor, guesser, range(self.seeds, self.seeds + executor.head_start), most, d.clock,
                              share)  # fmt: skip
                self.seeds += executor.head_start
            else:
                guesser.guess(most, d.clock, share)
        return True  # look again: it may have met this very length

    def phase(self, d: deepening.Deepening, parallel: bool) -> contextlib.AbstractContextManager[Any]:
        if not parallel:
            return _timed(self.spent, "exact")
        phase = contextlib.ExitStack()
        # a length split over the workers has every core: the annealer waits (sharing the cores with it gains
        # nothing overall, docs/perf-log/), and so it holds no lock when the workers are forked
        if self.beside is not None:
            phase.enter_context(self.beside.paused())
        phase.enter_context(_timed(self.spent, "split"))
        return phase

    def here(self, d: deepening.Deepening, L: int, deadline: Deadline) -> Share:
        beside, before = self.beside, d.nodes

        def check(seen: int) -> None:
            if beside is not None and beside.best is not None and beside.best.tokens <= L:
                raise _Met  # the annealer beside has found a program of L slots while length L is searched here
            d.clock.check(length=L, candidates=before + seen)

        try:
            return _search_length(
                self.board, L, self.stack_cap, self.all_solutions, deadline.at, self.settings, self.jit, check=check
            )
        except _Met:
            raise deepening.Abandon() from None  # settled holds now: the next round answers

    def split(self, d: deepening.Deepening, run: executors.Executor, L: int, check: Any) -> Share:
        count = self.schedule.shares_per_worker * d.cores
        # the walks above the split depth, repeated by every share, at most the length's own nodes: on many
        # workers, finer shares are worth twice the work (they bound the speed-up less)
        nodes = int(d.last_nodes * d.growth) // count
        depth = split_depth(
            self.board, L, self.stack_cap, count, nodes, self.settings, Deadline.after(d.clock.left()).at,
            all_solutions=self.all_solutions,
        )  # fmt: skip
        part = functools.partial(
            _share, self.board, L, self.stack_cap, self.all_solutions, d.clock.left(), depth, self.settings
        )
        ledger = Ledger({**self.ledger, "length": L, "split_depth": depth}, str, robozzle.parse_program)
        return search_shares(run, part, count, check, self.all_solutions, ledger)

    def recheck(self, d: deepening.Deepening, programs: tuple[Any, ...]) -> list[Any]:
        found: list[Program] = []
        for program in programs:
            if not robozzle.run(self.level, program, self.stack_cap).verdict.won:
                raise WrongAnswer(f"the RoboZZle solver produced a losing program: {program}")
            if program not in found:
                found.append(program)
        return found

    def after(self, d: deepening.Deepening, L: int, share: Share, found: list[Any]) -> deepening.Step:
        if found:
            capped = share.capped or len(found) > MAX_ALL
            self.answer = (found[0], tuple(found[:MAX_ALL]) if self.all_solutions else (), capped)
            return deepening.Step.DONE
        if not share.finished:
            raise Timeout
        return deepening.Step.NEXT

    def finish(self, d: deepening.Deepening, end: deepening.End) -> SolveResult:
        name, seconds, L = self.level.name, d.clock.seconds, d.low
        if end is deepening.End.SETTLED:
            known = self.best()
            return SolveResult(robozzle.NAME, name, Status.OPTIMAL, known, known.tokens, seconds, known.tokens,
                               self.stats(d))  # fmt: skip
        if end is deepening.End.FOUND:
            program, listed, capped = self.answer
            return SolveResult(robozzle.NAME, name, Status.OPTIMAL, program, L, seconds, L, self.stats(d), listed,
                               capped)  # fmt: skip
        if end is deepening.End.STOPPED and d.searching is not None:
            self.spent.unfinished = seconds - d.searching
        slots = sum(self.level.slots)
        if self.top >= slots and slots < L:
            out = self.stats(d)
            out["reason"] = "no program within the slots wins"
            return SolveResult(robozzle.NAME, name, Status.UNSOLVABLE, None, None, seconds, L, out)
        known = self.best()
        if known is not None and known.tokens <= self.top:
            if not robozzle.run(self.level, known, self.stack_cap).verdict.won:
                raise WrongAnswer(f"the RoboZZle heuristic produced a losing program: {known}")
            return SolveResult(robozzle.NAME, name, Status.SOLVED, known, known.tokens, seconds, L, self.stats(d))
        return SolveResult(robozzle.NAME, name, Status.TIMEOUT, None, None, seconds, L, self.stats(d))


def warm_up() -> None:
    """Load (or compile) the kernels on a tiny puzzle, once per process (gridbot.solve.deepening.warm)."""
    deepening.warm(robozzle.NAME, _load)


def _load() -> None:
    level = Level.parse("functions: 2 1 0 0 0\npaint: R\nstart: 1 1 east\nrgrgR")
    search = _Search(Board.of(level), 3, 8)
    while search.step(DEFAULT.chunk) != kern.EXHAUSTED:
        pass
    # the beam's kernels too: it must meet the win (F1: F F1), or its step and replay stay uncompiled and the
    # first solve that needs them pays seconds of compiling in its own time
    if Beam(Board.of(level), 8, width=2).run(3, Clock(None), 60.0) is None:  # pragma: no cover - a bug
        raise WrongAnswer("the beam found no program for the warm-up puzzle")
    # and the annealer's (on a fresh install, compiling it takes seconds, which the first solve's time limit would pay)
    if Annealer(Board.of(level), 8).guess(3, Clock(None), 60.0) is None:  # pragma: no cover - a bug
        raise WrongAnswer("the annealer found no program for the warm-up puzzle")


class _Met(Exception):
    """The heuristic beside the search has met the length being searched: every shorter one is excluded."""


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
