"""Many levels solved as tasks on an executor (gridbot.parallel.executors), each level one task in one process,
the results streamed back as they finish and recorded in the executor's checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, as_completed
from typing import TYPE_CHECKING, Any

from gridbot import games
from gridbot import solve as front
from gridbot.errors import GridbotError, WrongAnswer
from gridbot.parallel.checkpoint import level_digest
from gridbot.result import SolveResult

if TYPE_CHECKING:  # the executors load the process machinery: only a batch of levels needs them
    from gridbot.parallel.executors import Executor


def solve_level(game: str, level: Any, options: dict[str, Any], warm: bool = False) -> SolveResult:
    """One level as a task on a worker: the front (gridbot.solve: the game's solver, its answer re-checked) with
    `options` (time_limit, all_solutions, seed, ...) and one process (`workers=1`: the level is the unit of work,
    the other workers have levels of their own). With `warm`, the compiled kernels are loaded before the solver's
    clock starts (a benchmark's choice)."""
    solver = front.solver(game)
    kwargs = dict(options)
    if solver.takes("workers"):
        kwargs["workers"] = 1
    if warm:
        solver.warm_up()
    return front.solve(level, **kwargs)


def level_key(game: str, level: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What names a finished level in a checkpoint: the game, the level's digest and the solver options."""
    return {"kind": "level", "game": game, "level": level_digest(game, level), "options": options}


def result_record(result: SolveResult) -> dict[str, Any]:
    """A finished level as its checkpoint record holds it (read back by `recorded_result`)."""
    return {"result": result.to_json(), "lower_bound": result.lower_bound}


def recorded_result(game: str, record: dict[str, Any]) -> SolveResult:
    """The SolveResult of a checkpoint record; programs parsed back by the game (kept as text where they are not
    programs the game parses, e.g. Bender's moves). O(len(record))."""
    module = games.get(game)
    data = record["result"]

    def parsed(text: str | None) -> Any:
        if text is None:
            return None
        try:
            return module.parse_program(text)
        except (GridbotError, ValueError, TypeError):
            return text

    return SolveResult(
        data["game"], data["level"], data["status"], parsed(data["solution"]), data["length"], data["seconds"],
        int(record["lower_bound"]), data.get("stats") or {}, tuple(parsed(s) for s in data.get("solutions", ())),
        bool(data.get("solutions_capped", False)),
    )  # fmt: skip


def solve_levels(
    executor: Executor, game: str, levels: list[Any], options: dict[str, Any], ordered: bool = True,
    warm: bool = False,
) -> Iterator[tuple[int, SolveResult, bool]]:  # fmt: skip
    """Solve `levels` as tasks on the executor: yields (index, result, from_checkpoint) as they finish, in input
    order when `ordered` (a result waits for those before it), else as they come. A level recorded in the
    executor's checkpoint is not solved again; each level solved is recorded as it comes back. A worker lost
    with its level costs only that level (Dask runs it again). An answer that fails its re-check (WrongAnswer)
    is raised in its turn, after the results before it in input order. O(levels) submissions."""
    checkpoint = executor.checkpoint
    executor.stop.clear()  # a level's solver reads it too (Clock.check): a search before may have left it set
    jobs: dict[Future, int] = {}
    ready: dict[int, tuple[SolveResult | WrongAnswer, bool]] = {}
    keys = [level_key(game, level, options) for level in levels]
    for index, level in enumerate(levels):
        record = None if checkpoint is None else checkpoint.get(keys[index])
        if record is not None:
            ready[index] = (recorded_result(game, record), True)
        else:
            jobs[executor.pool.submit(solve_level, game, level, options, warm)] = index
    following = 0  # the next index to yield in input order

    def take(index: int) -> tuple[int, SolveResult, bool]:
        result, resumed = ready.pop(index)
        if isinstance(result, WrongAnswer):
            raise result
        return index, result, resumed

    def flush() -> Iterator[tuple[int, SolveResult, bool]]:
        nonlocal following
        if not ordered:
            for index in sorted(ready):
                yield take(index)
            return
        while following in ready:
            yield take(following)
            following += 1

    yield from flush()
    for job in as_completed(jobs):
        index = jobs[job]
        try:
            result: SolveResult | WrongAnswer = job.result()
        except WrongAnswer as exc:  # a solver's bug: reported in its turn, never recorded as finished
            result = exc
        if checkpoint is not None and not isinstance(result, WrongAnswer):
            checkpoint.put(keys[index], result_record(result))
        ready[index] = (result, False)
        yield from flush()
