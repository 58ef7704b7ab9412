"""Levels made to order: `generate(game, par, ...)` returns levels whose optimum is proven to be exactly `par`.

Each game has a maker (`MAKERS`): what a request may ask of it (`check`), how it draws a candidate level shaped
to make the wanted par likely (`candidate`), and a knob the loop turns after each candidate (a fill, a number of
lights or stars), up when the candidate's par came out short, down when it came out long. Then every candidate
goes through the same steps:

1. *screen*: the game's solver (`gridbot.solve`) with `max_length=par` where it takes one, so a candidate
   whose par is longer is given up after the search up to `par`, never beyond;
2. *read back*: the level's text (`str(level)`) is parsed again and must give an equal level;
3. *prove*: the parsed level is analysed (`gridbot.solve.analyze`, which solves it again and counts its
   optimal solutions) and must be proven optimal at exactly `par`; with `unique`, it must have exactly one
   optimal behaviour (Pellet: one Hamiltonian path, by `gridbot.generate.pellet.other_path`).

A candidate that passes is returned as a `Made`. The candidates are drawn from `seed` and the try number alone, and
no step depends on the clock, so the same request gives the same levels; `time_limit` only stops the loop (the
levels made so far are returned, none whose proof was cut short).

>>> import gridbot
>>> made = gridbot.generate("carrots", 3, size=(4, 4), seed=1, count=2)
>>> [m.analysis.par for m in made], [str(m.analysis.status) for m in made]
([3, 3], ['optimal', 'optimal'])
>>> [m.level for m in made] == [m.level for m in gridbot.generate("carrots", 3, size=(4, 4), seed=1, count=2)]
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridbot import games
from gridbot.deadline import Progress, check_time_limit
from gridbot.errors import OrderError, Stopped
from gridbot.games.torch_cave import START_LIGHT, TORCH_LIGHT
from gridbot.result import Status
from gridbot.solve import memory
from gridbot.solve.analyze import Analysis, analyze

UNIQUE_CAP = 2  # optimal solutions counted when one is wanted: a second one is enough to reject
# games whose analysis proves one behaviour from a single listed solution (Carrots: gridbot.solve.carrots.unique
# checks that its order of marking is the only one); the listing stops at that one
UNIQUE_FROM_ONE = frozenset({"carrots"})
LISTED_CAP = 100  # the count again, with the solver's own cap, when two programs behave alike (rare)


@dataclass(frozen=True, slots=True)
class Order:
    """What is asked: `count` levels of `game`, `width` x `height`, with par `par` (None: any, where the game allows),
    `unique` (one optimal behaviour), `none` (Pellet: no path at all), `torches` (torch cave: every path needs that
    many torches), drawn from `seed`."""

    game: str
    par: int | None
    width: int
    height: int
    unique: bool = False
    none: bool = False
    torches: int | None = None
    seed: int = 0

    def stem(self, number: int) -> str:
        """The name of the `number`-th level made (1-based), also its file's name without `.txt`:
        `carrots-par8-unique-seed0-1`."""
        parts = [self.game]
        if self.par is not None:
            parts.append(f"par{self.par}")
        if self.torches is not None:
            parts.append(f"torches{self.torches}")
        parts += ["unique"] if self.unique else []
        parts += ["none"] if self.none else []
        return "-".join([*parts, f"seed{self.seed}", str(number)])


@dataclass(frozen=True, slots=True)
class Made:
    """A level made to order: the `level` (its name the file's stem), its `analysis` (par proven equal to the
    request's, on the level read back from its text) and `tried`, the candidates drawn before it was found (it
    included)."""

    level: Any
    analysis: Analysis
    tried: int


class _Halt:
    """The stop of a run: set when the deadline has passed or the caller's own stop is set (its `is_set`)."""

    def __init__(self, deadline: float | None, stop: Any) -> None:
        self.deadline = deadline
        self.stop = stop

    def is_set(self) -> bool:
        return (self.deadline is not None and time.monotonic() > self.deadline) or (
            self.stop is not None and bool(self.stop.is_set())
        )


@dataclass(slots=True)
class Knob:
    """A candidate's shape parameter turned by the outcomes: up by `step` after a short par, down after a long one,
    within [low, high]. Deterministic: it moves with the outcomes, which do not depend on the clock."""

    value: float
    low: float
    high: float
    step: float

    def turn(self, outcome: int) -> None:
        """`outcome` < 0: the par came out short (more is needed); > 0: long; 0: leave it."""
        if outcome:
            self.value = min(self.high, max(self.low, self.value - outcome * self.step))


@dataclass(frozen=True, slots=True)
class Maker:
    """How one game is made to order (see the module docstring): `check(order)` raises OrderError for what no
    level can be, `knob(order)` gives the first knob, `candidate(order, knob, seed)` a level (or None: draw
    again), `screen(order, level, halt)` -1/0/+1 for a par short/right/long (0 also for `none` and the other
    yes/no requests; None: the par is right but the level is not what was asked, the knob stays)."""

    check: Callable[[Order], None]
    knob: Callable[[Order], Knob]
    candidate: Callable[[Order, float, int], Any]
    screen: Callable[[Order, Any, _Halt], int | None]
    default_size: tuple[int, int]
    needs_par: bool = True
    max_length: bool = True  # the solver takes max_length (used by the screen)
    unique_by_paths: bool = False  # uniqueness by gridbot.generate.pellet.other_path


def _solve(level: Any, halt: _Halt, **options: Any) -> Any:
    """The front's solve of `level`, or Stopped when `halt` cut it short (its answer is then not the level's)."""
    from gridbot import solve as front

    result = front.solve(level, stop=halt, **options)
    if halt.is_set():
        raise Stopped("stopped")
    return result


def _screen_par(order: Order, level: Any, halt: _Halt) -> int:
    """-1, 0 or +1: the par of `level` against the order's, by a search up to the order's par (further is +1)."""
    assert order.par is not None
    result = _solve(level, halt, max_length=order.par)
    if result.status is Status.OPTIMAL:
        return (result.length > order.par) - (result.length < order.par)
    return 1  # nothing up to par: longer, or no solution at all


def _carrots_screen(order: Order, level: Any, halt: _Halt) -> int | None:
    """_screen_par, and with `unique` a board of the par whose solver's program is shown, by
    gridbot.solve.carrots.unique, to have another optimal order of marking: None (rejected before its analysis,
    which would find the same: the check's verdict does not depend on which optimal program it starts from)."""
    assert order.par is not None
    result = _solve(level, halt, max_length=order.par)
    if result.status is not Status.OPTIMAL:
        return 1
    outcome = (result.length > order.par) - (result.length < order.par)
    if outcome or not order.unique or result.solution is None:
        return outcome
    from gridbot.deadline import Clock, Timeout
    from gridbot.solve.carrots.unique import Verdict, other_behaviour

    try:
        check = other_behaviour(level, order.par, result.solution, Clock(None))
    except Timeout:  # a stop request
        raise Stopped("stopped") from None
    if halt.is_set():
        raise Stopped("stopped")
    return None if check.verdict is Verdict.OTHER else 0


# ---------------------------------------------------------------- the games


def _side_check(order: Order, low: int, high: int, cells: int = 1) -> None:
    if not (low <= order.width <= high and low <= order.height <= high):
        raise OrderError(f"{order.game} boards made to order are {low}..{high} cells a side, not "
                         f"{order.width}x{order.height}")  # fmt: skip
    if order.width * order.height < cells:
        raise OrderError(f"a {order.game} board needs at least {cells} cells, not {order.width}x{order.height}")


def _par_check(order: Order, most: int, why: str) -> None:
    if order.par is None:
        raise OrderError(f"{order.game} levels are made to a par: give --par N")
    if order.par < 1:
        raise OrderError(f"no {order.game} level has par {order.par}: a par is 1 or more")
    if order.par > most:
        raise OrderError(f"no {order.game} level has par {order.par}: {why}")


def _no_path_options(order: Order) -> None:
    if order.none:
        raise OrderError(f"--none is for pellet boards, not {order.game}")
    if order.torches is not None:
        raise OrderError(f"--torches is for torch caves, not {order.game}")


def _carrots_check(order: Order) -> None:
    _no_path_options(order)
    _side_check(order, 1, 100, 2)
    # a board of s squares is covered by a walk of a spanning tree: at most 2 (s - 1) hops and a turn or two
    # before each, 6 (s - 1) tokens; no board of width x height has a longer par
    most = 6 * (order.width * order.height - 1)
    _par_check(order, most, f"every board of {order.width}x{order.height} is covered by {most} tokens or fewer")


def _carrots_candidate(order: Order, fill: float, seed: int) -> Any:
    from gridbot.generate.carrots import random_level

    jitter = random.Random(f"carrots fill {seed}").uniform(-0.1, 0.1)
    return random_level(order.width, order.height, seed, fill=min(1.0, max(1e-6, fill + jitter)), marked=0.0)


def _lightbot_check(order: Order) -> None:
    from gridbot.games.lightbot import LIMITS, MAX_SIDE

    _no_path_options(order)
    _side_check(order, 1, MAX_SIDE, 2)
    most = sum(LIMITS.values())
    parts = ", ".join(f"{part} {slots}" for part, slots in LIMITS.items())
    _par_check(order, most, f"a program has at most {most} commands ({parts})")
    if order.par == 1:  # no light lies under the robot's start (its marker takes the cell): a move, then X
        raise OrderError("no lightbot level has par 1: a light is never under the robot, so it takes a move and X")


def _lightbot_candidate(order: Order, lights: float, seed: int) -> Any:
    from gridbot.generate.lightbot import random_level

    room = order.width * order.height - 1
    return random_level(order.width, order.height, seed, lights=min(room, round(lights)), max_height=2)


def _robozzle_check(order: Order) -> None:
    from gridbot.games.robozzle import MAX_SIDE, MAX_TOTAL_SLOTS

    _no_path_options(order)
    _side_check(order, 1, MAX_SIDE, 2)
    _par_check(order, MAX_TOTAL_SLOTS, f"a program has at most {MAX_TOTAL_SLOTS} slots")


def _robozzle_candidate(order: Order, extra: float, seed: int) -> Any:
    from gridbot.generate.robozzle import random_program, trail_level

    assert order.par is not None
    rng = random.Random(f"robozzle order {seed}")
    size = min(order.par + (rng.random() < extra), 50)
    return trail_level(order.width, order.height, seed, random_program(size, seed), lines=order.par <= 2)


def _pellet_check(order: Order) -> None:
    if order.torches is not None:
        raise OrderError("--torches is for torch caves, not pellet")
    _side_check(order, 1, 1000)
    cells = order.width * order.height
    if order.none and (order.unique or order.par is not None):
        raise OrderError("--none asks for boards without a path: it takes neither --unique nor --par")
    if order.none and cells < 3:
        raise OrderError(f"every board of {order.width}x{order.height} has a path (a board without one needs 3 cells)")
    if order.par is not None and not 0 <= order.par <= cells - 1:
        raise OrderError(f"no pellet board of {order.width}x{order.height} has a path of {order.par} moves "
                         f"(a path eats every pellet once: at most {cells - 1} moves)")  # fmt: skip


def _pellet_candidate(order: Order, touch: float, seed: int) -> Any:
    from gridbot.generate import pellet

    cells = None if order.par is None else order.par + 1
    if order.none:  # a board with a path, and a cell or two more beside it: often none is left
        rng = random.Random(f"pellet none {seed}")
        level = pellet.random_level(order.width, order.height, seed, fill=rng.uniform(0.3, 0.9))
        return _flip_cell(level, rng)
    if order.unique:  # a walk that runs along itself now and then; at least a third of the board when no par is set
        level = pellet.walk_level(order.width, order.height, seed, touch=touch, cells=cells)
        small = cells is None and level is not None and level.size + 1 < order.width * order.height // 3
        return None if small else level
    if cells is not None:
        return pellet.random_level(order.width, order.height, seed, fill=cells / (order.width * order.height))
    return pellet.random_level(order.width, order.height, seed, fill=random.Random(seed).uniform(0.3, 1.0))


def _flip_cell(level: Any, rng: random.Random) -> Any:
    """`level` (whose open cells are joined) with one or two walls next to its open cells opened at random, so
    that they stay joined: its path may no longer cover them (None: no wall to open)."""
    from gridbot.games.pellet import PELLET, WALL, Level

    rows = [list(row) for row in level.rows]
    for _ in range(rng.randint(1, 2)):
        walls = [
            (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == WALL
            and any(0 <= r + dr < len(rows) and 0 <= c + dc < len(row) and rows[r + dr][c + dc] != WALL
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        ]  # fmt: skip
        if not walls:
            return None
        r, c = rng.choice(walls)
        rows[r][c] = PELLET
    return Level(tuple("".join(row) for row in rows), level.start, level.name)


def _pellet_screen(order: Order, level: Any, halt: _Halt) -> int:
    result = _solve(level, halt)
    if order.none:
        return 0 if result.status is Status.UNSOLVABLE else 1
    if result.status is not Status.OPTIMAL:
        return 1
    if order.unique:
        from gridbot.generate.pellet import other_path

        return 1 if other_path(level, str(result.solution), halt) is not None else 0
    return 0


def _torch_check(order: Order) -> None:
    if order.none:
        raise OrderError("--none is for pellet boards, not torch_cave")
    _side_check(order, 1, 1000, 2)
    if order.par is None and order.torches is None:
        raise OrderError("torch caves are made to a par or a number of torches: give --par N or --torches K")
    longest = order.width * order.height - 1
    if order.par is not None and not 1 <= order.par <= longest:
        raise OrderError(f"no torch cave of {order.width}x{order.height} has a shortest path of {order.par} steps "
                         f"(it visits no cell twice: at most {longest})")  # fmt: skip
    if order.torches is not None:
        if order.torches < 1:
            raise OrderError(f"--torches must be 1 or more, not {order.torches}")
        needed = TORCH_LIGHT * order.torches + 1
        if order.par is not None and order.par < needed:
            raise OrderError(f"a path of {order.par} steps never needs {order.torches} torches: the light for "
                             f"{order.par} steps is {START_LIGHT} and {TORCH_LIGHT} a torch (par {needed} or more "
                             f"needs {order.torches})")  # fmt: skip
        if needed > longest:
            raise OrderError(f"no torch cave of {order.width}x{order.height} needs {order.torches} torches: that "
                             f"takes a shortest path of {needed} steps or more")  # fmt: skip


def _torch_steps(order: Order, seed: int) -> int:
    if order.par is not None:
        return order.par
    assert order.torches is not None
    return TORCH_LIGHT * order.torches + 1 + random.Random(f"torch steps {seed}").randrange(TORCH_LIGHT)


def _torch_candidate(order: Order, side: float, seed: int) -> Any:
    from gridbot.generate.torch_cave import corridor_level

    return corridor_level(order.width, order.height, seed, _torch_steps(order, seed), side=side)


def _torch_screen(order: Order, level: Any, halt: _Halt) -> int:
    result = _solve(level, halt)
    if result.status is not Status.OPTIMAL:
        return 1
    if order.par is not None:
        return (result.length > order.par) - (result.length < order.par)
    assert order.torches is not None
    return 0 if result.length > TORCH_LIGHT * order.torches else -1


def _unsupported(game: str, why: str) -> Callable[[Order], None]:
    def check(order: Order) -> None:
        raise OrderError(f"{game} levels are not made to order yet: {why}")

    return check


MAKERS: dict[str, Maker] = {
    # Carrots: the fill of the board; past about two thirds a board is mostly a rectangle again, with a short par
    "carrots": Maker(_carrots_check, lambda o: Knob(0.5, 0.0, 0.65, 0.03), _carrots_candidate, _carrots_screen, (8, 8)),
    "lightbot": Maker(
        _lightbot_check,
        lambda o: Knob(max(1.0, (o.par or 3) / 3), 1.0, 30.0, 0.5),
        _lightbot_candidate,
        _screen_par,
        (4, 4),
    ),  # fmt: skip
    "robozzle": Maker(_robozzle_check, lambda o: Knob(0.3, 0.0, 0.7, 0.02), _robozzle_candidate, _screen_par, (10, 10)),
    "pellet": Maker(
        _pellet_check,
        lambda o: Knob(0.4, 0.0, 0.9, 0.02),
        _pellet_candidate,
        _pellet_screen,
        (8, 8),
        needs_par=False,
        max_length=False,
        unique_by_paths=True,
    ),  # fmt: skip
    "torch_cave": Maker(
        _torch_check,
        lambda o: Knob(0.1, 0.0, 0.5, 0.02),
        _torch_candidate,
        _torch_screen,
        (20, 20),
        needs_par=False,
        max_length=False,
        unique_by_paths=False,
    ),  # fmt: skip
    "bender": Maker(
        _unsupported("bender", "Bender's moves are fixed by his map, there is no program to make a par of"),
        lambda o: Knob(0, 0, 0, 0),
        lambda o, k, s: None,
        _screen_par,
        (10, 10),
    ),  # fmt: skip
    "robos_escape": Maker(
        _unsupported("robos_escape", "its par is a score (coins and length), not yet searched for"),
        lambda o: Knob(0, 0, 0, 0),
        lambda o, k, s: None,
        _screen_par,
        (10, 10),
    ),  # fmt: skip
}


# ---------------------------------------------------------------- the loop


def make_order(
    game: str,
    par: int | None = None,
    *,
    size: tuple[int, int] | None = None,
    unique: bool = False,
    none: bool = False,
    torches: int | None = None,
    seed: int = 0,
) -> Order:
    """The Order these arguments ask for, checked: OrderError for a game not made to order, or a par, size or
    option no level of the game can have (the message says why, in one line)."""
    name = games.get(game).NAME
    maker = MAKERS[name]
    width, height = maker.default_size if size is None else size
    order = Order(name, par, width, height, unique, none, torches, seed)
    maker.check(order)
    return order


def candidate_seed(order: Order, tried: int) -> int:
    """The seed of the order's `tried`-th candidate (0-based): from the request and the try number alone."""
    text = f"{order.game} {order.par} {order.width} {order.height} {order.unique} {order.none} {order.torches}"
    return random.Random(f"{text} {order.seed} {tried}").getrandbits(48)


@memory.ARENA.reusing()  # the solves of its candidates reuse each other's tables' memory
def generate(
    game: str,
    par: int | None = None,
    *,
    size: tuple[int, int] | None = None,
    unique: bool = False,
    none: bool = False,
    torches: int | None = None,
    seed: int = 0,
    count: int = 1,
    time_limit: float | None = None,
    progress: Progress | None = None,
    on_level: Callable[[Made], object] | None = None,
    stop: Any = None,
) -> list[Made]:
    """`count` levels of `game` made to order (see the module docstring), in the order they were found: each a
    Made whose analysis proves the par equal to `par` (Pellet: the moves of its path, when given), on the level
    read back from its text.

    `size` is (width, height) (default: the game's MAKERS entry); Carrots boards are cropped to their squares,
    the others have exactly that size. `unique`: exactly one optimal solution by behaviour (Pellet: one
    Hamiltonian path from S). `none` (Pellet): boards with no path at all. `torches` (torch cave): every path to
    the treasure needs at least that many torches (its par is longer than the light of that many torches less
    one). The same arguments give the same levels.

    `time_limit` (seconds) and `stop` (anything with `is_set()`) end the search early: the levels made so far are
    returned (fewer than `count`). `progress` is called after each candidate with {"made", "count", "tried",
    "seconds", "knob"}; `on_level(made)` with each level as it is made. OrderError (a GridbotError) for a request
    no level can meet; ValueError for a count below 1 or a bad time limit.
    """
    limit = check_time_limit(time_limit)
    if count < 1:
        raise ValueError(f"count must be 1 or more, not {count}")
    order = make_order(game, par, size=size, unique=unique, none=none, torches=torches, seed=seed)
    maker = MAKERS[order.game]
    started = time.monotonic()
    halt = _Halt(None if limit is None else started + limit, stop)
    knob = maker.knob(order)
    made: list[Made] = []
    tried = 0
    while len(made) < count and not halt.is_set():
        level = maker.candidate(order, knob.value, candidate_seed(order, tried))
        tried += 1
        try:
            outcome = 1 if level is None else maker.screen(order, level, halt)
            knob.turn((outcome or 0) if level is not None else 0)
            if outcome == 0:
                found = _prove(order, maker, level, len(made) + 1, tried, halt)
                if found is not None:
                    made.append(found)
                    if on_level is not None:
                        on_level(found)
        except Stopped:
            break
        if progress is not None:
            progress({"made": len(made), "count": count, "tried": tried, "seconds": time.monotonic() - started,
                      "knob": knob.value})  # fmt: skip
    return made


def _prove(order: Order, maker: Maker, level: Any, number: int, tried: int, halt: _Halt) -> Made | None:
    """The Made of a candidate that passed the screen, or None: its text read back (an equal level, named), then
    analysed there, the par and (with `unique`) the one behaviour proven. Stopped when `halt` cuts it short."""
    game = games.get(order.game)
    name = order.stem(number)
    named = game.Level.parse(str(level), name=name)
    if game.Level.parse(str(named), name=name) != named:  # a generator's level that does not read back: a bug
        raise AssertionError(f"a {order.game} level made to order does not read back from its text:\n{named}")
    cap = UNIQUE_CAP if order.unique and not maker.unique_by_paths and order.game not in UNIQUE_FROM_ONE else 1
    analysis = _analyze(named, cap, halt, order.unique)
    if order.none:
        return Made(named, analysis, tried) if analysis.status is Status.UNSOLVABLE else None
    if analysis.status is not Status.OPTIMAL or analysis.par is None:
        return None
    if order.par is not None and analysis.par != order.par:
        return None
    if order.torches is not None and analysis.par <= TORCH_LIGHT * order.torches:
        return None
    if order.unique:
        if maker.unique_by_paths:
            from gridbot.generate.pellet import other_path

            if other_path(named, analysis.examples[0], halt) is not None:
                return None
        else:
            if order.game in UNIQUE_FROM_ONE and analysis.behaviours_capped:
                return None  # another behaviour found (or one behaviour not proven): no second analysis
            if analysis.programs_capped and analysis.behaviours == 1:  # more programs: do they all behave alike?
                analysis = _analyze(named, LISTED_CAP, halt, True)
            if analysis.programs_capped or analysis.behaviours_capped or analysis.behaviours != 1:
                return None
    return Made(named, analysis, tried)


def _analyze(level: Any, cap: int, halt: _Halt, exact: bool) -> Analysis:
    analysis = analyze(level, cap=cap, longer=False, needed=False, exact=exact, stop=halt)
    if halt.is_set():
        raise Stopped("stopped")
    return analysis


__all__ = ["MAKERS", "Made", "Order", "generate", "make_order"]
