"""Shortest Carrots programs, with a proof that none is shorter.

>>> import gridbot
>>> from gridbot.solve.carrots import solve
>>> result = solve(gridbot.load("carrots:2"))
>>> result.status, result.length, str(result.program)
('optimal', 4, 'LOOP{F F R}')

How the search works, and why each cut is safe
----------------------------------------------
1. *Marks never steer the bunny.* `F`, `L`, `R` depend only on the board, so a
   program's path is fixed and the board is complete iff the squares it lands on
   (plus those marked at the start) are all of them. Stopping at completion
   changes nothing about *whether* a program completes.
2. *A fragment is a function.* Any piece of program, run from a state
   (square, facing), ends in a fixed state having marked a fixed set of squares.
   We store that function for all 4 x squares states as a row of a table
   (`FragmentTables`), and keep one fragment per distinct function, the first
   (cheapest) found. Two fragments with equal functions can replace each other
   anywhere (in sequence or as a loop body) without changing any run, so keeping
   one loses no program length. This single rule subsumes the syntactic ones
   (`L R` = nothing, `L L` = `R R`, `LOOP(1){X}` = `X`, loops of turns, a loop
   whose body is one loop).
3. *Loop counts are finite in effect.* For a body f, the powers f^1, f^2, ...
   (as whole functions, marks included) are eventually periodic because there
   are finitely many functions; `loop_powers` stops at the first repeat, so
   every count, however large, is represented. Of two counts i < j whose powers
   end alike from every state, j marks a superset from every state at the same
   cost, so i is dropped (dominance; see FragmentTables._build). `LOOP{...}`
   never ends, so only its marks matter, and those equal the marks of a large
   enough count: it is searched as such and printed as `LOOP{...}` when it is
   the last statement.
4. *Fragments of cost c* are: statements of cost c (loops over fragments of cost
   c-1 with every distinct count) and a statement of cost a followed by a
   fragment of cost c-a. With rules 2 and 3 applied at every cost, by
   induction every function reachable at cost <= c is in the tables, or one
   that dominates it (ends alike from every state, marks a superset, costs no
   more), and putting a dominating fragment in place of another, anywhere in a
   program, leaves every later state alike and marks at least as much.
5. *Top level.* A program is a sequence run once from the start, so only the
   state and marks reached after a prefix matter for what follows. Iterative
   deepening on the length K: tables up to m = K-2 are built; the search expands
   the first one or two top-level statements, then asks the tables whether any
   fragment of the remaining budget completes the board. A top-level loop runs
   once, from one state: its iteration states repeat after mu + lam iterations,
   so counts n in [mu, mu+lam) are dominated by n + lam (same end, more marks)
   and only n < mu and n in [mu+lam, mu+2 lam) are tried (`loop_children`).
   The only statement too big for the tables is a final loop of cost K whose
   body costs K-1 = m+1: its body is a statement followed by a table fragment,
   and only its coverage from the start matters (`pair_covers`).
   A length K is declared impossible only after all of this fails, so the first
   K that succeeds is optimal.
6. *A guess can end the proof.* Once K is excluded, the same search for K + 1
   with the tables already built (incomplete, but what it finds is a real
   program) often finds one: K + 1 is then optimal and the larger table is
   never built. Every printed program is re-run by the simulator.

Complexity: dominated by the table for cost K-2, which grows about 6-7x per
token; memory is about 4 x squares x (4 + 8 x words) bytes per fragment.

Limits (every board the format allows, up to 1000 x 1000)
---------------------------------------------------------
- *Memory.* The tables get a share of `gridbot.solve.memory.memory_budget()`
  (which respects RLIMIT_AS and cgroup limits): the store is allocated once at
  that size (pages never written cost nothing, rows never move); the search's
  memo and the loop outcomes it holds at once get shares too. A board whose
  first tables do not fit (or whose single function would exceed
  `Settings.max_state_bytes`) skips the tables; a table that outgrows the
  budget stops the deepening. Either way the answer is 'solved' with
  stats["reason"].
- *Time.* The clock starts first; loading the kernels, setting up the tables
  and every kernel call (bounded to `Settings.work_per_call` words) are
  followed by a look at it. The finishing work (smaller counts, the greedy
  program) stops a little past the deadline (`Settings.grace_*`), well inside
  the slack of max(1 s, 10 %) that the time bound allows.
- *Fallback.* A depth-first tour (iterative, cut after the last square it
  must mark, runs of F written as loops) answers whenever the proof does not.
  It marks every square by construction; the greedy program, shorter when it
  works, is re-run by the simulator before it is returned.

Layout
------
`solve` here runs the deepening (rules 5 and 6) and chooses the answer;
`tables` builds the fragment tables (rules 2 to 4); `search` is one deepening
step's top-level search and reads its programs back; `fallback` holds the
tour and the greedy program; `settings` says how time and memory are spent.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.errors import WrongAnswer
from gridbot.games import carrots
from gridbot.games.carrots import Level, Program
from gridbot.kernels import carrots as kern
from gridbot.result import SolveResult, Status
from gridbot.solve import memory
from gridbot.solve.carrots.fallback import _kernel_tour, _program_of_moves, _py_tour, greedy
from gridbot.solve.carrots.search import _Search, smallest_counts
from gridbot.solve.carrots.settings import Settings
from gridbot.solve.carrots.tables import FragmentTables, MemoryBudget, TablesStopped, _bitset, _Sizes

__all__ = [
    "FragmentTables",
    "MemoryBudget",
    "Settings",
    "TablesStopped",
    "greedy",
    "of_length",
    "reachable",
    "smallest_counts",
    "solve",
    "walk",
    "warm_up",
]


def _tour(level: Level, marked: bytearray, settings: Settings) -> tuple[bytes, int, bytearray]:
    """(move codes, unreached, seen) of the depth-first tour from the start: kern.tour once the kernels are loaded
    or on a board of `settings.kernel_tour_squares` squares or more, else its plain-Python twin `_py_tour`.
    `marked` has one byte per square marked before the first step. O(squares)."""
    warm = warm_up.cache_info().currsize or level.size >= settings.kernel_tour_squares
    return _kernel_tour(level, marked) if warm else _py_tour(level, marked)


def reachable(level: Level, settings: Settings | None = None) -> set[int]:
    """Squares the bunny can ever stand on: those joined to the start through neighbouring squares. O(squares)."""
    _, _, seen = _tour(level, bytearray(level.size), Settings() if settings is None else settings)
    return {sq for sq, reached in enumerate(seen) if reached}


def walk(level: Level, settings: Settings | None = None) -> Program:
    """A plain (long) program marking every reachable square: a depth-first tour, cut after the last square it
    needs to mark, runs of F written as loops. Iterative, O(squares)."""
    marked = carrots.marked_at_start(level)
    return _program_of_moves(_tour(level, marked, Settings() if settings is None else settings)[0])


@functools.cache
def warm_up() -> float:
    """Load (or compile) every kernel once per process, by solving a tiny board; returns the seconds it took.

    `solve` calls it under the level's clock (after the checks that need no
    kernel), so the time limit holds even for the first level of a process.
    """
    start = time.monotonic()
    # a board whose proof (5 tokens) goes through every kernel, so that none compiles inside a level's clock
    tiny = carrots.Level.parse("###\n# #\n##S##\n  # #\n  ###")
    _solve(tiny, Clock(None), False, None, settings=Settings())
    _kernel_tour(tiny, carrots.marked_at_start(tiny))
    keys, rows = np.zeros(16, np.uint64), np.full(16, -1, np.int64)  # the map helpers the tiny board may not need
    kern.map_put(keys, rows, np.uint64(7), 0)
    kern.map_move(keys, rows, np.zeros(32, np.uint64), np.full(32, -1, np.int64))
    kern.map_get(keys, rows, np.uint64(7))
    return time.monotonic() - start


def _finish_by(clock: Clock, settings: Settings) -> float | None:
    """When the finishing work (lowering counts, the greedy program) must stop, as a time.monotonic() value: the
    deadline plus a grace of `settings.grace_share` of the limit, at least `grace_min` and at most `grace_max`
    seconds, well inside the time bound's slack of max(1 s, 10 %); from now if the deadline has passed. None
    without a limit."""
    if clock.deadline.at is None or clock.time_limit is None:
        return None
    grace = min(settings.grace_max, max(settings.grace_min, settings.grace_share * clock.time_limit))
    return max(clock.deadline.at, time.monotonic()) + grace


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    memory_budget: int | None = None,
    *,
    settings: Settings | None = None,
) -> SolveResult:
    """A shortest program for `level` and the proof that it is shortest.

    Returns a SolveResult: status 'optimal' (with `solutions` when
    `all_solutions`), 'unsolvable' (a square cannot be reached; stats name it),
    or, when `time_limit` seconds, `max_length` or `memory_budget` bytes (see
    FragmentTables) run out first, 'solved' with the best program found (greedy
    from the tables, or a plain tour) and `lower_bound` = the first length not
    excluded; stats["reason"] says when the memory budget stopped it. The time
    limit covers everything, loading the kernels included: the answer comes
    within it plus a fraction of a second. Raises ValueError for a time limit
    that is not a positive number. `settings` (default `Settings()`) says how
    the time and the memory are spent. Exponential in the optimal length (see
    the module docstring).
    """
    clock = Clock(time_limit, progress)  # first: it rejects a bad limit before any work
    settings = Settings() if settings is None else settings
    return _solve(level, clock, all_solutions, max_length, memory_budget, warm=True, settings=settings)


def of_length(
    level: Level, K: int, most: int, clock: Clock, memory_budget: int | None = None, *, settings: Settings | None = None
) -> tuple[tuple[Program, ...], bool, int]:
    """The programs of exactly `K` tokens that complete `level`, as the exact search of length K lists them, at most
    `most`: (programs, capped, candidates). `capped`: the search stopped at `most` solutions (there may be more).

    The search is the proof's (rule 5 of the module docstring), listing rather than stopping at the first: it
    keeps one fragment of each function and skips a command that changes nothing where it stands, so it lists one
    program of each such class, not every spelling; the programs are read back with loop counts lowered, re-run
    by the simulator and listed once each. Raises Timeout at the clock's deadline or a stop request, and
    TablesStopped when the tables of cost K - 2 do not fit the memory budget. Exponential in K.
    """
    settings = Settings() if settings is None else settings
    warm_up()
    tables = FragmentTables(level, memory_budget=memory_budget, clock=clock, settings=settings)
    tables.ensure(max(1, K - 2), clock)
    search = _Search(tables, K, clock, True, most=most, exact=True, distinct=True)
    marks = _bitset(level.initial_marks | 1 << level.start, tables.W)
    search.run(4 * level.start + level.start_state[1], marks)
    programs = [program for program in search.programs if program.tokens == K]
    return tuple(programs), search.capped, tables.candidates + search.children


def _solve(
    level: Level,
    clock: Clock,
    all_solutions: bool,
    max_length: int | None,
    memory_budget: int | None = None,
    warm: bool = False,
    *,
    settings: Settings,
) -> SolveResult:
    name = level.name
    marked = carrots.marked_at_start(level)
    if marked.count(0) == 0:
        return SolveResult("carrots", name, Status.OPTIMAL, Program(()), 0, clock.seconds, 0, {"candidates": 0})
    codes, unreached, seen = _tour(level, marked, settings)
    if unreached:
        missing = next(sq for sq in range(level.size) if not seen[sq] and not marked[sq])
        r, c = level.squares[missing]
        stats = {"candidates": 0, "reason": f"square at line {r + 1}, column {c + 1} cannot be reached"}
        return SolveResult("carrots", name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)
    tables: FragmentTables | None = None
    s0 = 4 * level.start + level.start_state[1]
    K = 1
    children = 0
    dropped = 0  # fragments of tables given up after a failed allocation
    stopped = ""  # why the deepening stopped short of a proof, when not the clock

    def result(status: str, program: Program, lower_bound: int, found: tuple[Program, ...] = (), capped=False):
        stats: dict[str, Any] = {
            "candidates": (tables.candidates if tables else 0) + children,
            "fragments": tables.rows - 1 if tables else dropped,
        }
        if stopped:
            stats["reason"] = stopped
        return SolveResult(
            "carrots", name, status, program, program.tokens, clock.seconds, lower_bound, stats, found, capped
        )

    def first_verified(proof: _Search, found: list[tuple[Any, ...]]) -> list[Program]:
        programs: list[Program] = []
        finish_by = _finish_by(clock, settings)
        for items in found:
            p = proof.program(items, finish_by)
            if carrots.run(level, p).verdict.won and p not in programs:
                programs.append(p)
        return programs

    try:
        # known before loading any kernel: a board too big for even the first tables goes straight to the tour
        _Sizes.of(level, settings).check(memory.memory_budget() if memory_budget is None else memory_budget)
        if warm and not warm_up.cache_info().currsize:
            left = clock.left()
            if left is not None and left < settings.warm_up_min_left:
                raise TablesStopped("too little time left to load the compiled kernels (about a second)")
            warm_up()
            clock.check(phase="loading the kernels")
        # the budget is read again: after loading the kernels
        tables = FragmentTables(level, memory_budget=memory_budget, clock=clock, settings=settings)
        marks = _bitset(level.initial_marks | 1 << level.start, tables.W)
        while max_length is None or max_length >= K:
            tables.ensure(max(1, K - 2), clock)
            proof = _Search(tables, K, clock, all_solutions)
            found = proof.run(s0, marks)
            children += proof.children
            if found:
                programs = first_verified(proof, found)
                if not programs:
                    raise WrongAnswer(f"no program of {K} tokens the search found completes {name or 'the board'}")
                listed = tuple(programs) if all_solutions else ()
                return result(Status.OPTIMAL, programs[0], K, listed, proof.capped)
            # every program of K tokens or fewer is now excluded; try K + 1 with the tables at hand (a guess:
            # finding one proves it optimal and spares the larger table the proof would build)
            if not all_solutions:
                guess = _Search(tables, K + 1, clock, False, m=max(K - 2, 0))
                found = guess.run(s0, marks)
                children += guess.children
                if found and (programs := first_verified(guess, found)):
                    return result(Status.OPTIMAL, programs[0], K + 1)
                del guess
            del proof  # its memo goes before the next tables are built
            K += 1
    except Timeout:
        pass
    except TablesStopped as exc:
        stopped = str(exc)
    except MemoryError:  # the system refused memory within the budget (another process took it): drop the tables
        stopped = "the system refused memory the tables needed; they were dropped"
        if tables is not None:
            children += tables.candidates
            dropped = tables.rows - 1
            tables = None
    # no proof: the greedy program from the tables (in the grace time) or the tour, whichever is shorter and works
    finish_by = _finish_by(clock, settings)
    quick = None
    if tables is not None:
        deadline = time.monotonic() + settings.greedy_untimed if finish_by is None else finish_by
        quick = greedy(tables, s0, _bitset(level.initial_marks | 1 << level.start, tables.W), deadline=deadline)
    tour = _program_of_moves(codes)
    if quick is None or quick.tokens >= tour.tokens:
        # the tour marks every square by construction (and the front, gridbot.solve.check, re-checks every
        # answer): on a big board a second run of it here would take the time the limit leaves for that check
        return result(Status.SOLVED, tour, K)
    return result(Status.SOLVED, quick if carrots.run(level, quick).verdict.won else tour, K)
