"""The solvers, one module per game, and the front that runs any of them: `gridbot.solve(level, ...)`.

`SOLVERS` is the registry: for each game, the module of its solver (imported only when a level of that game is
solved: importing this package loads neither numba nor any solver), the options its `solve` takes beyond the
common four, whether it has a `warm_up` that loads its compiled kernels, and whether loading it counts against a
time limit. The faces ask it rather than a solver's signature (tests/structure/test_solve_front.py checks the table
against each solver).

`solve(level, time_limit=None, all_solutions=False, progress=None, on_solution=None, stop=None, **options)` finds
the level's game from its type, runs that game's solver and re-checks every answer with the game's simulator before
returning it (gridbot.solve.check), and before handing it to `on_solution`. This package is callable as that
front, so that `gridbot.solve(level)` reads as it does:

>>> import gridbot
>>> result = gridbot.solve(gridbot.load("carrots:2"))
>>> result.status, str(result.solution), result.length
('optimal', 'LOOP{F F R}', 4)
>>> solver("robozzle").takes("workers"), solver("carrots").takes("workers")
(True, False)
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from gridbot import games
from gridbot.deadline import Progress, check_time_limit, hearing, reading
from gridbot.result import SolveResult, Status
from gridbot.solve import first_use
from gridbot.solve.check import completes, recheck

COMMON = ("time_limit", "all_solutions", "progress")  # what every solver's `solve(level, ...)` takes


@dataclass(frozen=True, slots=True)
class Solver:
    """One game's solver as the registry knows it, without importing it: `module` holds `solve(level,
    time_limit=None, all_solutions=False, progress=None, **options)` taking exactly `options` beyond the common
    ones, and, when `warms_up`, `warm_up()`, which loads (or compiles) its kernels before any clock starts. With
    `counts_loading`, the front takes the time that loading the module took out of the solve's time limit."""

    game: str
    module: str
    options: tuple[str, ...] = ()
    warms_up: bool = False
    counts_loading: bool = False

    def load(self) -> types.ModuleType:
        """The solver's module (its first import loads numba and the compiled kernels)."""
        return importlib.import_module(self.module)

    def takes(self, option: str) -> bool:
        """Does the solver's `solve` take `option` (the common ones, or one of its own)?"""
        return option in COMMON or option in self.options

    def warm_up(self) -> None:
        """Load the solver's kernels now, where it has a warm-up (a benchmark's or a worker's choice)."""
        if self.warms_up:
            self.load().warm_up()


# `workers` and `executor`: a long proof split into shares over processes or a Dask cluster (gridbot.parallel);
# `max_length`: stop after that length; `jit=False`: the pure-Python twins of the kernels; `memory_budget`: bytes
# of the search's tables; `seed`: a randomised search's seed. The rest is the solver's own (see its docstring).
# `counts_loading`: Carrots and Light-Bot count loading their kernels against a time limit; the other solvers get
# their whole limit once loaded, as their answers under a limit in a fresh process (the benchmarks, the docs) are
# measured. One rule for all is a change of behaviour, to make on its own.
SOLVERS: dict[str, Solver] = {
    entry.game: entry
    for entry in (
        Solver(
            "carrots",
            "gridbot.solve.carrots",
            ("max_length", "memory_budget", "settings"),
            warms_up=True,
            counts_loading=True,
        ),
        Solver("pellet", "gridbot.solve.pellet", ("seed", "restarts", "construct", "settings"), warms_up=True),
        Solver("torch_cave", "gridbot.solve.torch_cave", ("memory_budget", "shortcuts", "jit", "settings")),
        Solver("bender", "gridbot.solve.bender", ("memory_budget", "settings")),
        Solver(
            "lightbot",
            "gridbot.solve.lightbot",
            ("max_length", "jit", "workers", "executor", "settings"),
            warms_up=True,
            counts_loading=True,
        ),
        Solver(
            "robos_escape",
            "gridbot.solve.robos_escape",
            ("max_length", "jit", "workers", "executor", "settings"),
            warms_up=True,
        ),
        Solver(
            "robozzle",
            "gridbot.solve.robozzle",
            ("max_length", "stack_cap", "jit", "beam", "workers", "executor", "settings"),
            warms_up=True,
        ),
    )
}


def solver(of: Any) -> Solver:
    """The registry's entry for a game: given by its name, its module or one of its levels; GridbotError for what
    is none of these."""
    if isinstance(of, str):
        game = games.get(of)
    elif isinstance(of, types.ModuleType):
        game = games.get(of.NAME)
    else:
        game = games.of(of)
    return SOLVERS[game.NAME]


class StopEvent(Protocol):
    """What `stop` may be: a threading.Event, a multiprocessing one, or anything with `is_set()`."""

    def is_set(self) -> bool: ...


class _Listener:
    """`on_solution` behind the solver's announcements (gridbot.deadline.announce): each program re-run by the
    simulator first (WrongAnswer if it fails: a bug in the solver), and one program never heard twice in a row."""

    def __init__(self, level: Any, on_solution: Callable[[Any], object]) -> None:
        self.level = level
        self.game = games.of(level)
        self.on_solution = on_solution
        self.told: Any = None

    def __call__(self, program: Any, checked: bool = False) -> None:
        if program is None or program == self.told:
            return
        if not checked:
            completes(self.game, self.level, getattr(self.level, "name", "") or "the level", program)
        self.told = program
        self.on_solution(program)


def solve(
    level: Any,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    on_solution: Callable[[Any], object] | None = None,
    stop: StopEvent | None = None,
    **options: Any,
) -> SolveResult:
    """Solve `level` with its game's solver and re-check the answer: a gridbot.result.SolveResult.

    `time_limit` (seconds, None: until proven) is the solver's; where the registry says `counts_loading` it
    counts from this call: loading the solver (numba and the compiled kernels, about a second the first time)
    comes out of it, and the solver gets what is left, at least a twentieth of the limit, to answer with what it
    has. `all_solutions` lists every optimal solution in
    `result.solutions` (capped; a game whose solver returns one answer, LISTS_ALL False, ignores it); `progress`
    is called a few times a second during long searches with a dict such as {"length": 7, "candidates": 123456}.
    `options` are the solver's own (SOLVERS says which: `workers`, `executor`, `max_length`, `seed`, ...).

    `on_solution(program)` is called in this thread with each better program as the solver finds it, each re-run
    by the simulator first; the last call is always with the result's solution (a solver that finds one answer
    only calls it once, at the end). The deepening solvers (Light-Bot, RoboZZle, Robo's Escape) tell of their
    heuristics' programs too, a few times a second at most; "better" is the game's order (shorter, or for Robo's
    Escape a higher score). An exception it raises ends the solve and propagates.

    `stop` (a threading.Event, or anything with `is_set()`) ends the search early when set, exactly as the time
    limit does (gridbot.deadline.reading, the stop request the command line's Ctrl-C makes): the result has the
    best program found ('solved', or 'timeout' without one) and the lengths excluded. It is read in this thread
    and by worker processes the solver starts through its own pool.

    Raises ValueError for a limit that is not a positive number, TypeError for an option the solver does not
    take, GridbotError for what is not a level, and gridbot.errors.WrongAnswer for an answer the simulator
    rejects (a bug in the solver).
    """
    started = time.monotonic()
    limit = check_time_limit(time_limit)
    entry = SOLVERS[games.of(level).NAME]
    unknown = [name for name in options if not entry.takes(name)]
    if unknown:
        takes = ", ".join(entry.options) or "none"
        raise TypeError(f"the {entry.game} solver takes no option {unknown[0]!r} (its own: {takes})")
    compiling = entry.warms_up and options.get("jit", True) and not first_use.is_compiled(entry.game)
    listener = None if on_solution is None else _Listener(level, on_solution)
    with contextlib.ExitStack() as scope:
        if stop is not None:  # read by the first use's compile as by the search
            scope.enter_context(reading(stop))
        if compiling and not _compiled_in_time(entry.game, limit, started, progress):
            reason = (f"the {entry.game} kernels are compiling for this machine (first use): not done before the "
                      "time limit or a stop; the compile goes on in the background, and the next solve starts "
                      "with them")  # fmt: skip
            stats = {"candidates": 0, "reason": reason}
            seconds = time.monotonic() - started
            return SolveResult(entry.game, level.name, Status.TIMEOUT, None, None, seconds, 1, stats, board=level)
        module = entry.load()
        if limit is not None and (entry.counts_loading or compiling):
            limit = max(limit - (time.monotonic() - started), limit / 20)
        loaded_at = time.monotonic()
        if listener is not None:
            scope.enter_context(hearing(listener))
        result = module.solve(level, time_limit=limit, all_solutions=all_solutions, progress=progress, **options)
    if compiling:  # the answer's seconds are the caller's: the compile it waited for (and the load) among them
        stats = {**result.stats, "seconds_compiling": round(loaded_at - started, 3)}
        result = dataclasses.replace(result, seconds=time.monotonic() - started, stats=stats)
    recheck(level, result)
    if listener is not None:
        listener(result.solution, checked=True)
    return dataclasses.replace(result, board=level)  # the level, for the result's picture (Pictured)


def _compiled_in_time(game: str, limit: float | None, started: float, progress: Progress | None) -> bool:
    """Compile `game`'s kernels in a child process (gridbot.solve.first_use) within what is left of `limit`,
    telling `progress` what happens (its `phase` and `notice`); whether they are compiled."""

    def notice(text: str) -> None:
        if progress is not None:
            seconds = first_use.expected_seconds(game)
            progress({"phase": f"first use: compiling the kernels, about {seconds:.0f} s", "notice": text})

    left = None if limit is None else max(0.0, limit - (time.monotonic() - started))
    return first_use.compile_within(game, left, notice)


class _Front(types.ModuleType):
    """This package, callable as its front: `gridbot.solve(level, ...)` is `gridbot.solve.solve(level, ...)`. (The
    package and the front share the name `gridbot.solve`; a module's class may be changed so (Python's data
    model, "Customizing module attribute access"), and the submodules stay reachable as before.)"""

    def __call__(
        self,
        level: Any,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[Any], object] | None = None,
        stop: StopEvent | None = None,
        **options: Any,
    ) -> SolveResult:
        return solve(level, time_limit, all_solutions, progress, on_solution, stop, **options)


sys.modules[__name__].__class__ = _Front

__all__ = ["COMMON", "SOLVERS", "Solver", "StopEvent", "solve", "solver"]
