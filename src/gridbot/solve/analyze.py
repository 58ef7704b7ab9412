"""What a level designer asks of a level: its proven par, how many optimal solutions it has (as programs and as
behaviours), how many one longer, what the proof cost, and which parts of the language it needs.

>>> import gridbot
>>> a = gridbot.analyze(gridbot.load("carrots:2"))
>>> a.status, a.par, a.programs, a.behaviours, a.examples[0]
('optimal', 4, 4, 1, 'LOOP{F F R}')

`analyze(level)` runs the game's solver through the front (`gridbot.solve`, listing every optimal solution), then,
where the game has them, the counts below; every solution it counts is re-run by the game's simulator first.

- *programs*: the optimal solutions as the solver's exact search lists them (`all_solutions`), each once, up to
  `cap` (at most the solver's own cap, 100). A search lists one program of each class it treats as one: Carrots
  keeps one fragment of each function (`L L` and `R R` are one), Light-Bot and RoboZZle one program of each
  canonical form (their pages say which); so this is the number of distinct canonical programs, not of spellings.
  Not every spelling: the number of program texts is often infinite (a count that changes nothing, as n in
  `LOOP(n){F}` on `S##` for every n >= 2), so the programs are the canonical ones, loop counts lowered to the
  smallest that works and a final loop unbounded where that works.
- *behaviours*: distinct runs on the board. Carrots: distinct orders of marking the board
  (`carrots.marks_in_order`; whole state sequences would be infinitely many, see gridbot.solve.carrots.every),
  counted over EVERY program of par tokens by gridbot.solve.carrots.every, not only the listed ones (so it may
  exceed `programs`); when that count runs out of work or time it is a lower bound, marked capped. Light-Bot:
  the tiles the robot moves onto and the lights its X commands toggle, in order; RoboZZle: the squares entered
  and the paints that change a tile's colour, in order (turns show nothing on the board: gridbot.solve.behaviours
  defines both and goes through every cut of the two searches to show that each program a cut drops at the par
  behaves as one kept). Light-Bot's count is over every program of the par (each listed walk, its continuations
  and every placement of its X commands, so it may exceed `programs`), RoboZZle's over the listed programs,
  which are then all the behaviours there are; either is exact when the listing is not capped (and, Light-Bot,
  the count fits its work bound), else a lower bound, marked capped. Other games: the listed programs told apart
  by the sequence of states the simulator goes through (`states` of the game module,
  gridbot.games.protocol.Extras), to the end of the run. `behaviours == 1` with `behaviours_capped` False is a
  proof of one optimal behaviour, and nothing else is.
- *longer*: the solutions of exactly par + 1 as the same exact search lists them at that length, each once,
  capped as the programs are, each re-run by the simulator (a game whose search has no such listing: None).
  Light-Bot's and RoboZZle's search of a length meets the programs of at most that length (one per walk for
  Light-Bot, slots never reached left empty for RoboZZle), and skips those with an equivalent of no more tokens;
  the ones of exactly par + 1 are counted (gridbot.solve.lightbot_listing, gridbot.solve.robozzle.exact
  `of_length`). That search runs in this process: it takes about as long as one more length of the proof.
- *needed*: for a program game, each function, procedure or loop and whether the par needs it (without it, the
  par is longer or there is no solution at all); see `NEEDED` for what each game takes away. Light-Bot (f1,
  f2) and RoboZZle (each of F2..F5 the puzzle has; F1 always is) ask the game's own solver on the smaller
  language, lengths up to the par (Light-Bot's `limits` with that procedure's 0; the puzzle with that
  function's slots 0): every length up to the par excluded proves it needed, a program of the par proves it
  not. Light-Bot's f1 and f2 are interchangeable (their limits are equal), so both are needed or neither: True
  when the par needs two procedures.
- Bender's answer is determined by the level (his moves, or LOOP): one solution, exactly.
- Pellet: the Hamiltonian paths from S; the torch cave: the shortest walks (move sequences) from H to T; each
  path is its own behaviour, and none is one longer (gridbot.solve.paths: how they are listed, and why exactly).
- Robo's Escape's solver proves the best score (40 - tokens + 10 x coins), not a length: `par` is the fewest
  tokens of a program of the best score, `programs` the programs of the best score its search lists (of any
  length, up to its cuts' equivalences), `excluded` the lengths with no program of that score. `longer` is None
  (the search lists no programs one longer: they score less, or need more coins). `needed` is
  ("functions", ...): whether the best score needs a call or label, asked of the solver without function names
  (its setting `names` 0), lengths up to the par: needed when no program without them reaches the best score
  in par tokens.
- *candidates* and *seconds*: the effort of every search analyze ran, summed.

The counts are exact (the programs of that class, all of them) only when the status is 'optimal' and nothing is
capped. A time limit covers the whole analysis: the solve gets it, the later counts what is left; a count the
time did not allow is None (`longer`, `needed`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from gridbot import games
from gridbot.deadline import Clock, Progress, Timeout, check_time_limit, reading
from gridbot.errors import WrongAnswer
from gridbot.result import SolveResult, Status
from gridbot.solve import StopEvent, memory, solver
from gridbot.solve import solve as solve_level
from gridbot.solve.behaviours import KEYS
from gridbot.solve.check import completes

EXAMPLES = 5  # the most optimal solutions an analysis shows


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of one level (see the module docstring for what each count counts).

    `status`: 'optimal' (par proven), 'unsolvable' (proven: no solution), 'solved' (a solution, its length not
    proven best) or 'timeout' (none found in time). `par` is the proven optimum, or the best length found when not
    proven; `excluded` the largest length proven to have no solution (None: none excluded). `examples` holds a few
    optimal solutions in text form (parsing one gives the solution back).
    """

    level: str
    game: str
    status: Status
    par: int | None
    excluded: int | None
    programs: int
    programs_capped: bool
    behaviours: int
    behaviours_capped: bool
    examples: tuple[str, ...]
    longer: int | None
    longer_capped: bool
    needed: tuple[tuple[str, bool], ...] | None
    candidates: int
    seconds: float

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):  # read back from JSON
            object.__setattr__(self, "status", Status(self.status))

    @property
    def exact(self) -> bool:
        """Are the counts of optimal solutions exact (par proven, nothing capped)?"""
        return self.status == Status.OPTIMAL and not self.programs_capped and not self.behaviours_capped

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain JSON types (the status as its word, `needed` as [name, bool] pairs);
        `from_json` reads it back to an equal Analysis."""
        return {
            "level": self.level,
            "game": self.game,
            "status": str(self.status),
            "par": self.par,
            "excluded": self.excluded,
            "programs": self.programs,
            "programs_capped": self.programs_capped,
            "behaviours": self.behaviours,
            "behaviours_capped": self.behaviours_capped,
            "examples": list(self.examples),
            "longer": self.longer,
            "longer_capped": self.longer_capped,
            "needed": None if self.needed is None else [[name, flag] for name, flag in self.needed],
            "candidates": self.candidates,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        """The Analysis of `to_json`'s dict."""
        needed = data["needed"]
        fields = {**data, "examples": tuple(data["examples"])}
        fields["needed"] = None if needed is None else tuple((str(n), bool(f)) for n, f in needed)
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class Listing:
    """Solutions of one length as a search lists them: each once, `capped` when the search stopped at its cap."""

    solutions: tuple[Any, ...]
    capped: bool
    candidates: int


def behaviour(game: Any, level: Any, solution: Any) -> Hashable:
    """The key of a winning solution's run: for Carrots the order in which it marks the board
    (`carrots.marks_in_order`: its states would make infinitely many runs of one program whose loop counts grow,
    see gridbot.solve.carrots.every); else the states the simulator goes through (the game's `states`, which end
    at the win); the solution itself for a game without `states` (a path is its behaviour). O(the run)."""
    if game.NAME == "carrots":
        return game.marks_in_order(level, solution)
    if game.NAME in KEYS:
        return KEYS[game.NAME](level, solution)
    states = games.optional(game, "states")
    if states is None:
        return str(solution)
    return tuple(states(level, solution))


# ---------------------------------------------------------------- the counts of each game


def _carrots_listing(level: Any, length: int, most: int, clock: Clock) -> Listing:
    """Carrots: the programs of exactly `length` tokens as the proof's search lists them (gridbot.solve.carrots
    `of_length`: one fragment of each function, each program read back once)."""
    from gridbot.solve import carrots

    if length == 0:
        return Listing((carrots.Program(()),), False, 0)
    programs, capped, candidates = carrots.of_length(level, length, most, clock)
    return Listing(programs, capped, candidates)


def _carrots_needed(level: Any, par: int, clock: Clock) -> tuple[tuple[str, bool], ...]:
    """Carrots has one construct beyond its commands, LOOP (counted or not): is it needed? Without loops a program
    is a plain walk of F, L and R, and each F marks at most one square, so a par below the number of unmarked
    squares needs a loop; otherwise the loop-free programs of at most `par` commands are tried, by the game's own
    `step` (a breadth-first search over the bunny's state and marks)."""
    from gridbot.games import carrots

    unmarked = carrots.marked_at_start(level).count(0)
    if par < unmarked:
        return (("LOOP", True),)
    full = level.goal
    start = (level.start_state, level.initial_marks | 1 << level.start)
    frontier = {start}
    seen = {start}
    for _ in range(par):
        clock.check(phase="without loops")
        after = set()
        for state, marks in frontier:
            for op in "FLR":
                nxt = carrots.step(level, state, op)
                key = (nxt, marks | 1 << nxt[0])
                if key[1] == full:
                    return (("LOOP", False),)
                if key not in seen:
                    seen.add(key)
                    after.add(key)
        frontier = after
    return (("LOOP", True),)


def _pellet_listing(level: Any, length: int, most: int, clock: Clock) -> Listing:
    """Pellet: the Hamiltonian paths from S, each once (gridbot.solve.paths.pellet_paths); every path has one move
    per pellet, so there is none of another length (`longer` is 0). A listing the clock stops keeps the paths it
    found, capped: a lower bound."""
    from gridbot.games.pellet import Moves
    from gridbot.solve.paths import pellet_paths

    if length != level.size:
        return Listing((), False, 0)
    found = pellet_paths(level, most, clock)
    return Listing(tuple(Moves(m) for m in found.moves), found.capped, found.nodes)


def _torch_listing(level: Any, length: int, most: int, clock: Clock) -> Listing:
    """Torch cave: the walks of `length` steps from H that end on T, each once, counted over the layers of the
    hero's states (gridbot.solve.paths.torch_paths); none of par + 1 steps (the grid is bipartite). Layers too
    big for the memory budget count nothing, as a timeout does."""
    from gridbot.games.torch_cave import Path
    from gridbot.solve.paths import TooManyStates, torch_paths

    try:
        found = torch_paths(level, length, most, clock)
    except TooManyStates:
        raise Timeout from None
    return Listing(tuple(Path(m) for m in found.moves), found.capped, found.nodes)


def _lightbot_longer(level: Any, length: int, most: int, clock: Clock) -> Listing:
    """Light-Bot: the programs of exactly `length` commands that the exact search of that length lists
    (gridbot.solve.lightbot_listing: it meets those of at most `length`, one per walk, and skips those with an
    equivalent of no more commands)."""
    from gridbot.solve.lightbot_listing import of_length

    programs, capped, nodes = of_length(level, length, most, clock)
    return Listing(programs, capped, nodes)


def _robozzle_longer(level: Any, length: int, most: int, clock: Clock) -> Listing:
    """RoboZZle: the programs of exactly `length` slots that the exact search of that length lists, in the
    canonical forms its cuts keep (gridbot.solve.robozzle.exact.of_length)."""
    from gridbot.solve.robozzle import DEFAULT
    from gridbot.solve.robozzle.exact import of_length

    programs, capped, nodes = of_length(level, length, most, clock, DEFAULT)
    return Listing(programs, capped, nodes)


@dataclass(frozen=True, slots=True)
class Needs:
    """What a game's `needed` found: each part and whether the par needs it, and the candidates it searched."""

    parts: tuple[tuple[str, bool], ...]
    candidates: int


def _without(level: Any, par: int, clock: Clock, front: dict[str, Any], **options: Any) -> tuple[SolveResult, bool]:
    """The game's solver (through the front, `front` its stop and workers) on a smaller language (`level` made
    smaller, or the solver's `options`), searching the lengths up to `par` with what is left of the clock: the
    result, and whether it decides that the par needs what was taken away (False: a program of at most `par`
    wins without it). Timeout when the time runs out before either is proven."""
    left = clock.left()
    if left is not None and left <= 0:
        raise Timeout
    result = solve_level(level, left, max_length=par, progress=clock.progress, **front, **options)
    if result.solution is not None and result.length is not None and result.length <= par:
        return result, False
    if result.status == Status.UNSOLVABLE or result.proven_impossible >= par:
        return result, True
    raise Timeout


def _lightbot_needed(level: Any, result: SolveResult, clock: Clock, front: dict[str, Any]) -> Needs:
    """Light-Bot: is f1, is f2 needed? The solver with that procedure's limit 0 (its setting `limits`: not
    callable then), lengths up to the par. Without f1, a program's f2 renamed f1 is one without f2 when their
    limits are equal (as the game's are), so one search answers both then: the two are needed together, when
    the par needs both procedures."""
    import dataclasses

    from gridbot.games.lightbot import LIMITS
    from gridbot.solve.lightbot import DEFAULT

    par = result.length or 0
    known: dict[tuple[int, ...], bool] = {}
    parts, spent = [], 0
    for k, name in ((1, "f1"), (2, "f2")):
        limits = [LIMITS["main"], LIMITS["f1"], LIMITS["f2"]]
        limits[k] = 0
        key = (limits[0], *sorted(limits[1:]))
        if key not in known:
            if par == 0:
                known[key] = False
            else:
                settings = dataclasses.replace(DEFAULT, limits=tuple(limits))
                found, known[key] = _without(level, par, clock, front, settings=settings)
                spent += int(found.stats.get("candidates", 0) or 0)
        parts.append((name, known[key]))
    return Needs(tuple(parts), spent)


def _robozzle_needed(level: Any, result: SolveResult, clock: Clock, front: dict[str, Any]) -> Needs:
    """RoboZZle: is each of F2..F5 that the puzzle has needed? The same puzzle with that function's slots 0
    (then no call of it is offered), lengths up to the par; F1, where the run starts, always is (not listed).
    Functions of as many slots are interchangeable (the search's cut 2), so puzzles without one or the other are
    one question, asked once."""
    import dataclasses

    par = result.length or 0
    known: dict[tuple[int, ...], bool] = {}
    parts, spent = [], 0
    for g in range(1, len(level.slots)):
        if not level.slots[g]:
            continue
        slots = tuple(0 if f == g else n for f, n in enumerate(level.slots))
        key = (slots[0], *sorted(slots[1:]))
        if key not in known:
            found, known[key] = _without(dataclasses.replace(level, slots=slots), par, clock, front)
            spent += int(found.stats.get("candidates", 0) or 0)
        parts.append((f"F{g + 1}", known[key]))
    return Needs(tuple(parts), spent)


def _robos_needed(level: Any, result: SolveResult, clock: Clock, front: dict[str, Any]) -> Needs:
    """Robo's Escape: does the best score need a function (a call or a label)? The solver with no function names
    (its setting `names` 0: F L R G X and `.` alone), lengths up to the par: needed when no such program of at
    most par tokens reaches the best score (without one, the best score is lower, or takes more tokens)."""
    import dataclasses

    from gridbot.solve.robos_escape import DEFAULT

    score = result.stats["score"]
    left = clock.left()
    if left is not None and left <= 0:
        raise Timeout
    settings = dataclasses.replace(DEFAULT, names=0)
    par = result.length or 0
    found = solve_level(level, left, max_length=par, progress=clock.progress, settings=settings, **front)
    spent = int(found.stats.get("candidates", 0) or 0)
    if found.solution is not None and found.stats.get("score") == score:
        return Needs((("functions", False),), spent)
    if found.status in (Status.OPTIMAL, Status.UNSOLVABLE) or found.stats.get("searched_up_to", 0) >= par:
        return Needs((("functions", True),), spent)
    raise Timeout


def _carrots_needs(level: Any, result: SolveResult, clock: Clock, front: dict[str, Any]) -> Needs:
    """Carrots: is LOOP needed (_carrots_needed, no search of the solver's)?"""
    return Needs(_carrots_needed(level, result.length or 0, clock), 0)


# a game's listing of the solutions of one length, at most `most` (its programs and its `longer` count); a game
# without one lists the optimal solutions through the front (`all_solutions`); LONGER: a game whose optimal
# solutions the front lists, and whose solutions one longer its search lists
Lister = Callable[[Any, int, int, Clock], Listing]
# a game's answer to "does the par need this function, procedure or loop?", given the level, the proven
# solve, the clock for what is left, and the front's options for the solves it runs (stop, workers)
Needed = Callable[[Any, SolveResult, Clock, dict[str, Any]], Needs]
LISTINGS: dict[str, Lister] = {
    "carrots": _carrots_listing,
    "pellet": _pellet_listing,
    "torch_cave": _torch_listing,
}
LONGER: dict[str, Lister] = {"lightbot": _lightbot_longer, "robozzle": _robozzle_longer}
# games whose answer is determined, so that the one found is the only one: Bender's journey
UNIQUE = frozenset({"bender"})
NEEDED: dict[str, Needed] = {
    "carrots": _carrots_needs,
    "lightbot": _lightbot_needed,
    "robozzle": _robozzle_needed,
    "robos_escape": _robos_needed,
}


def _carrots_every(level: Any, par: int, most: int, clock: Clock, listed: tuple, listed_capped: bool) -> Any:
    """Carrots: every behaviour of the programs of `par` tokens (gridbot.solve.carrots.every), at most `most`; when
    the listed programs all mark in one order, one of them is first checked for being the only order
    (gridbot.solve.carrots.unique)."""
    from gridbot.games import carrots
    from gridbot.solve.carrots.every import behaviours

    known = listed[0] if listed and len({carrots.marks_in_order(level, p) for p in listed}) == 1 else None
    return behaviours(level, par, most, clock, known=known)


def _lightbot_every(level: Any, par: int, most: int, clock: Clock, listed: tuple, listed_capped: bool) -> Any:
    """Light-Bot: every behaviour of the programs of `par` commands, from the listed walks, their continuations
    and every placement of X commands on them (gridbot.solve.behaviours), at most `most`."""
    from gridbot.solve.behaviours import lightbot_every

    return lightbot_every(level, par, listed, listed_capped, most, clock)


# games whose listing alone keeps one program of several that run differently (Light-Bot: one placement of the X
# commands per walk, and no continuation of a walk that wins): their listing's behaviours are a lower bound
MERGED = frozenset({"lightbot"})
# games whose behaviours at the par are counted exactly, beside their listing (gridbot.solve.carrots.every,
# gridbot.solve.behaviours): a listing keeps one program of each class its search treats as one, and programs of
# one class may run apart. Each takes (level, par, most, clock, the listed solutions, whether the listing capped).
EXACT: dict[str, Callable[[Any, int, int, Clock, tuple, bool], Any]] = {
    "carrots": _carrots_every,
    "lightbot": _lightbot_every,
}


# ---------------------------------------------------------------- the analysis


@memory.ARENA.reusing()  # its solves of one board reuse each other's tables' memory
def analyze(
    level: Any,
    *,
    time_limit: float | None = None,
    cap: int = 100,
    longer: bool = True,
    needed: bool = True,
    exact: bool = True,
    progress: Progress | None = None,
    stop: StopEvent | None = None,
    workers: int | None = None,
) -> Analysis:
    """The Analysis of `level` (see the module docstring for what each field counts).

    `time_limit` (seconds, None: until done) covers the whole analysis; `cap` bounds each count (at most the
    solver's own cap of listed solutions, 100; a count that reaches it says so); `longer` and `needed` ask for
    those counts (False: they are None); `exact` (default) counts the behaviours over every program of the par
    where the game has such a count (Carrots: gridbot.solve.carrots.every, seconds at a par of 7 or 8; Light-Bot:
    gridbot.solve.behaviours, every X placement of the listed walks; skipped when the listed programs already
    show more than `cap`); False: among the listed programs only, a lower bound (`behaviours_capped`), as levels
    made to order without `unique` ask; `progress` hears the solver's reports;
    `stop` ends every search early as the time limit does; `workers` is handed to a solver that takes it. Raises
    ValueError for a bad limit or cap, GridbotError for what is not a level, WrongAnswer when a counted solution
    fails the simulator (a bug).
    """
    started = time.monotonic()
    limit = check_time_limit(time_limit)
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        raise ValueError(f"cap must be a positive whole number, not {cap!r}")
    game = games.of(level)
    entry = solver(game)
    options: dict[str, Any] = {}
    if workers is not None and entry.takes("workers"):
        options["workers"] = workers
    listing = LISTINGS.get(game.NAME)
    lists = listing is None and games.optional(game, "LISTS_ALL")
    result = solve_level(level, limit, all_solutions=lists, progress=progress, stop=stop, **options)
    candidates = int(result.stats.get("candidates", result.stats.get("nodes", 0)) or 0)
    name = getattr(level, "name", "") or result.level
    par = result.length
    excluded = result.proven_impossible or None
    proven = result.status == Status.OPTIMAL and par is not None
    solutions = [result.solution] if result.solution is not None else []
    capped = False
    if proven and lists:
        solutions += [s for s in result.solutions if s != result.solution]
        capped = result.solutions_capped
    more: int | None = None
    more_capped = False
    need: tuple[tuple[str, bool], ...] | None = None
    every: Any = None  # the exact count of behaviours, where the game has one and it ran
    if proven and par is not None:
        left = None if limit is None else max(0.0, limit - (time.monotonic() - started))
        clock = Clock(left or None, progress) if left != 0 else None
        with reading(stop) if stop is not None else contextlib.nullcontext():
            if listing is not None:
                capped = True  # until the listing ends: the one solution known, and perhaps more
                if clock is not None:
                    with contextlib.suppress(Timeout):
                        found = listing(level, par, cap, clock)
                        candidates += found.candidates
                        solutions = list(found.solutions) or solutions
                        capped = found.capped
            listed = {behaviour(game, level, s) for s in solutions} if exact and game.NAME in EXACT else set()
            if exact and game.NAME in EXACT and clock is not None and len(listed) <= cap:
                with contextlib.suppress(Timeout):
                    every = EXACT[game.NAME](level, par, cap, clock, tuple(solutions), capped)
                    candidates += every.work
            if needed and game.NAME in NEEDED and clock is not None:  # first: cheaper than par + 1, as a rule
                with contextlib.suppress(Timeout):
                    needs = NEEDED[game.NAME](level, result, clock, {"stop": stop, **options})
                    need = needs.parts
                    candidates += needs.candidates
            lister = listing or LONGER.get(game.NAME)
            if longer and lister is not None and clock is not None:
                with contextlib.suppress(Timeout):
                    found = lister(level, par + 1, cap, clock)
                    candidates += found.candidates
                    for solution in found.solutions:
                        completes(game, level, name, solution)
                    more, more_capped = len(found.solutions), found.capped
    if proven and not lists and listing is None and game.NAME not in UNIQUE:
        capped = True  # one path returned, none counted: there may be more (a lower bound)
    capped = capped or len(solutions) > cap
    solutions = solutions[:cap]
    for solution in solutions:
        completes(game, level, name, solution)
    keys = {behaviour(game, level, s) for s in solutions}
    behaviours_capped = capped
    if every is not None:
        for program, key in zip(every.programs, every.keys, strict=True):
            completes(game, level, name, program)
            if behaviour(game, level, program) != key:
                raise WrongAnswer(f"{name}: {program} does not behave as the exact count says")
        if every.complete and not keys <= set(every.keys):
            raise WrongAnswer(f"{name}: the exact count of behaviours misses one of the listed programs")
        keys |= set(every.keys)
        behaviours_capped = not every.complete or len(keys) > cap
    elif game.NAME in EXACT or game.NAME in MERGED:
        behaviours_capped = True  # the listing's count, a lower bound (no time left for the exact count, or merged)
    keys_count = min(len(keys), cap)
    return Analysis(
        level=name,
        game=game.NAME,
        status=result.status,
        par=par,
        excluded=excluded,
        programs=len(solutions),
        programs_capped=capped,
        behaviours=keys_count,
        behaviours_capped=behaviours_capped,
        examples=tuple(str(s) for s in solutions[:EXAMPLES]),
        longer=more,
        longer_capped=more_capped,
        needed=need,
        candidates=candidates,
        seconds=time.monotonic() - started,
    )


__all__ = [
    "EXACT",
    "EXAMPLES",
    "LISTINGS",
    "LONGER",
    "NEEDED",
    "UNIQUE",
    "Analysis",
    "Listing",
    "Needs",
    "analyze",
    "behaviour",
]
