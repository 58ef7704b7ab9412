"""The shortest single program that wins every level of a set, with a proof that none is shorter.

`solve_together(levels)` takes two or more levels of one game (Carrots, Light-Bot or RoboZZle) and returns a
gridbot.result.SolveResult whose `solution` wins every one of them (re-run by the simulator on each before it is
returned), for the level named by the levels' names joined with " + ":

>>> import gridbot
>>> result = solve_together([gridbot.load("carrots:1"), gridbot.load("carrots:2"), gridbot.load("carrots:3")])
>>> result.status, str(result.solution), result.level
('optimal', 'LOOP{F F R}', 'carrots:01 + carrots:02 + carrots:03')

Why the one-level solvers are not enough: their cuts read the board ("this move stands still here", "these two
programs do the same on this board"), so the winners of level 1 filtered on level 2 can miss the answer. Each
game's search here uses only cuts that hold for every level of the set at once:

- Carrots (gridbot.solve.together.union): the one-level solver's fragment tables, built over the disjoint
  union of the boards, so that "same function" means the same on every board.
- Light-Bot and RoboZZle (gridbot.solve.together.lazy): slots decided as the runs of the levels, one after
  another, reach them; a branch is dropped only when a level's run is lost whatever the undecided slots hold,
  and the other cuts are syntactic (valid on every board).

Before that, each level is solved alone (gridbot.solve): a program that wins them all wins each, so the
largest proven one-level optimum is a lower bound (the deepening starts there), and a level proven unsolvable
makes the set unsolvable. Carrots always has a common program when each board has one (run one board's program,
then the next board's from where the bunny stands: marks never go away), and that concatenation is the answer
when time runs out before the proof ('solved').
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gridbot import games
from gridbot.deadline import Clock, Progress, Timeout, check_time_limit, reading
from gridbot.errors import GridbotError
from gridbot.result import SolveResult, Status

GAMES = ("carrots", "lightbot", "robozzle")
MAX_ROWS = 2_000_000  # Carrots: table rows in all before the proof gives up (memory: rows x states x 12+ bytes)


class TogetherError(GridbotError):
    """Levels that cannot be solved together: fewer than two, mixed games, a game without a together search, or
    RoboZZle puzzles whose functions or paints differ."""


def check_levels(levels: Sequence[Any]) -> str:
    """The game of `levels`, or TogetherError saying why they cannot be solved together."""
    if len(levels) < 2:
        raise TogetherError("--together needs two levels or more")
    names = {games.of(level).NAME for level in levels}
    if len(names) > 1:
        raise TogetherError(f"levels of one game only, not {', '.join(sorted(names))}")
    game = names.pop()
    if game not in GAMES:
        raise TogetherError(f"no together search for {game} (only {', '.join(GAMES)})")
    if game == "robozzle":
        first = levels[0]
        for level in levels[1:]:
            if level.slots != first.slots:
                raise TogetherError(
                    f"RoboZZle levels together need the same function sizes: {first.name} has "
                    f"{' '.join(map(str, first.slots))}, {level.name} {' '.join(map(str, level.slots))}"
                )
            if set(level.paints) != set(first.paints):
                raise TogetherError(
                    f"RoboZZle levels together need the same paints: {first.name} allows "
                    f"{first.paints or 'none'}, {level.name} {level.paints or 'none'}"
                )
    return game


def solve_together(
    levels: Sequence[Any],
    time_limit: float | None = None,
    progress: Progress | None = None,
    stop: Any = None,
    *,
    max_length: int | None = None,
    per_level: bool = True,
    max_rows: int = MAX_ROWS,
) -> SolveResult:
    """The shortest program that wins every level of `levels` (two or more, one game), proven shortest.

    Returns a SolveResult: 'optimal' (no shorter program wins them all), 'unsolvable' (a level has no program
    at all), 'solved' (a common program, not proven shortest: time ran out, `stop` was set, or the Carrots
    tables passed `max_rows` rows; `lower_bound` is the first length not excluded) or 'timeout' (none found in
    time, or none of at most `max_length` commands). `per_level` solves each level alone first, for the lower
    bound and the unsolvable levels (False: the deepening starts at length 1). Raises TogetherError for levels
    that cannot be solved together and ValueError for a bad time limit; the answer is re-run by the simulator
    on every level (gridbot.errors.WrongAnswer if one fails: a bug). Exponential in the answer's length.
    """
    check_time_limit(time_limit)
    game = check_levels(levels)
    levels = list(levels)
    name = " + ".join(getattr(level, "name", "") or f"level {i + 1}" for i, level in enumerate(levels))
    if stop is None:
        return _solve(game, levels, name, time_limit, progress, stop, max_length, per_level, max_rows)
    with reading(stop):
        return _solve(game, levels, name, time_limit, progress, stop, max_length, per_level, max_rows)


def _solve(
    game: str, levels: list[Any], name: str, time_limit: float | None, progress: Progress | None, stop: Any,
    max_length: int | None, per_level: bool, max_rows: int,
) -> SolveResult:  # fmt: skip
    import gridbot.solve as front

    clock = Clock(time_limit, progress)
    module = games.get(game)
    lower, alone = 1, []
    stats: dict[str, Any] = {"candidates": 0, "levels": len(levels)}

    def done(status: Status, program: Any, lower_bound: int, reason: str = "") -> SolveResult:
        if reason:
            stats["reason"] = reason
        if program is not None:
            for level in levels:
                front.completes(module, level, level.name or name, program)
        length = None if program is None else program.tokens
        return SolveResult(game, name, status, program, length, clock.seconds, lower_bound, stats)

    if per_level:
        for level in levels:
            left = clock.left()
            if left is not None and left <= 0:
                break
            one = front.solve(level, time_limit=left, stop=stop)
            alone.append(one)
            if one.status == Status.UNSOLVABLE:
                return done(Status.UNSOLVABLE, None, 1, f"{level.name or 'a level'} alone has no solution")
            lower = max(lower, one.lower_bound)
        stats["alone"] = [one.length if one.status == Status.OPTIMAL else None for one in alone]
    if max_length is not None and lower > max_length:
        return done(Status.TIMEOUT, None, lower, f"every length up to {max_length} is excluded level by level")
    search: Any = None
    try:
        if game == "carrots":
            from gridbot.solve.together.union import Deepening, smallest_counts

            search = Deepening(levels, clock, max_rows)
            found = search.run(lower, max_length)
            stats["candidates"] = search.candidates
            if found is not None:
                return done(Status.OPTIMAL, smallest_counts(levels, found), found.tokens)
            return done(Status.TIMEOUT, None, search.lower, f"no program of at most {max_length} tokens")
        search = _Lazy(game, levels, clock)
        found = search.run(lower, max_length)
        stats["candidates"] = search.nodes
        if found is not None:
            return done(Status.OPTIMAL, found, found.tokens)
        return done(Status.TIMEOUT, None, search.lower, f"no program of at most {max_length} commands")
    except Timeout:
        pass
    except GridbotError as exc:  # the Carrots tables past their size (TablesStopped)
        stats["reason"] = str(exc)
    if search is not None:
        lower = max(lower, search.lower)
        stats["candidates"] = search.candidates if game == "carrots" else search.nodes
    if game == "carrots":
        program = _concatenation(levels, alone, clock)
        return done(Status.SOLVED, program, lower)
    return done(Status.TIMEOUT, None, lower)


class _Lazy:
    """The deepening over lengths of gridbot.solve.together.lazy, keeping the lengths excluded so far."""

    def __init__(self, game: str, levels: list[Any], clock: Clock) -> None:
        from gridbot.solve.together import lazy

        self.kind: Callable[..., Any] = lazy.LightbotSearch if game == "lightbot" else lazy.RobozzleSearch
        self.levels = levels
        self.clock = clock
        self.lower = 1
        self.nodes = 0

    def run(self, start: int, max_length: int | None) -> Any:
        K = max(1, start)
        self.lower = K
        while max_length is None or max_length >= K:
            search = self.kind(self.levels, K, self.clock)
            try:
                slots = search.run()
            finally:
                self.nodes += search.nodes
            if slots is not None:
                return search.program(slots)
            self.lower = K = K + 1
        return None


def _concatenation(levels: list[Any], alone: list[SolveResult], clock: Clock) -> Any:
    """Carrots: a program covering every board, the boards' programs one after another, each written for the
    state the bunny is in on its board after the programs before it (its board, with what they marked, solved
    from there; turns first to face east). Marks never go away, so each board stays complete."""
    import gridbot.solve as front
    from gridbot.games import carrots
    from gridbot.solve.carrots import walk

    body: list[Any] = []
    for i, level in enumerate(levels):
        prefix = carrots.Program(tuple(body))
        if body and carrots.run(level, prefix).verdict.won:
            continue
        if not body and i < len(alone) and alone[i].solution is not None:
            body.extend(_bounded(level, alone[i].solution).body)
            continue
        marks, (square, facing) = _after(level, prefix)
        rows = [list(row) for row in level.rows]
        for sq, (r, c) in enumerate(level.squares):
            rows[r][c] = "S" if sq == square else ("O" if marks >> sq & 1 else "#")
        there = carrots.Level.parse("\n".join("".join(row) for row in rows), level.name)
        turns = {0: "R", 1: "", 2: "L", 3: "LL"}[facing]  # facing EAST is 1 (Direction)
        left = clock.left()
        rest = None
        if left is None or left > 0.1:  # past the time limit: the plain tour at once
            rest = front.solve(there, time_limit=min(2.0, left or 2.0)).solution
        rest = walk(there) if rest is None else _bounded(there, rest)
        body.extend(carrots.MOVES[op] for op in turns)
        body.extend(rest.body)
    program = carrots.Program(tuple(body))
    return program


def _bounded(level: Any, program: Any) -> Any:
    """`program` with a final unbounded top-level loop given a count that covers `level` as well: its body is a
    function of (square, facing), so its iterations' states repeat within 4 x squares + 1 of them and the marks
    are all made by then. Any other unbounded loop: the plain tour instead (gridbot.solve.carrots.walk)."""
    from gridbot.games import carrots
    from gridbot.solve.carrots import walk

    body = list(program.body)
    if body and isinstance(body[-1], carrots.Loop) and body[-1].count is None:
        body[-1] = carrots.Loop(body[-1].body, 4 * level.size + 1)
    bounded = carrots.Program(tuple(body))
    if "LOOP{" in str(bounded) or not carrots.run(level, bounded).verdict.won:
        return walk(level)
    return bounded


def _after(level: Any, prefix: Any) -> tuple[int, tuple[int, int]]:
    """The marks and the state of the bunny on `level` after `prefix` has run to its end (the steps of the
    simulator)."""
    from gridbot.games import carrots

    marks = level.initial_marks | 1 << level.start
    state = level.start_state
    for step in carrots.steps(level, prefix):
        state = (step.square, step.facing)
        marks |= step.marks
    return marks, state


__all__ = ["GAMES", "TogetherError", "check_levels", "solve_together"]
