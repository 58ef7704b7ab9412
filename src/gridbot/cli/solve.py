"""`gridbot solve GAME LEVEL...`: the shortest solution of each level, through the front gridbot.solve (which
re-checks every answer), in this process or as tasks on local processes or a Dask cluster.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import click

from gridbot import games
from gridbot import solve as front
from gridbot.cli import display, inputs, interrupts
from gridbot.result import Status
from gridbot.solve import batch, report

SOLVE_EPILOG = (
    "Exit status: 0 every level solved or proven unsolvable; 1 no solution in time for some level, or an answer "
    "failed its re-check; 2 bad input or usage; 130 interrupted; 143 terminated."
)


@click.command(cls=display.GameCommand, epilog=SOLVE_EPILOG)
@click.argument("words", metavar="[GAME] LEVEL...", nargs=-1, shell_complete=inputs.level_completer(None))
@inputs.GAME_OPTION
@click.option(
    "--time-limit",
    type=inputs.SECONDS,
    default=None,
    metavar="S",
    help="Seconds allowed per level; without it, search until proven optimal.",
)
@click.option("--all", "all_solutions", is_flag=True, help="List every optimal program (capped).")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per level.")
@click.option("--seed", type=int, default=None, metavar="N", help="Seed of a randomised solver (pellet).")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Local worker processes for levels and long proofs (default: every core).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on a Dask cluster: tcp://HOST:PORT of its scheduler, or local:N to start N local workers "
    "(needs gridbot[dask]).",
)
@click.option("--unordered", is_flag=True, help="Several levels: print each result as it finishes.")
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Record finished levels and proof shares in FILE (JSON Lines); a rerun resumes from it.",
)
@click.option(
    "--together",
    is_flag=True,
    help="One shortest program that wins every LEVEL (carrots, lightbot, robozzle), proven shortest.",
)
@display.QUIET_OPTION
@click.pass_context
def solve(
    ctx: click.Context,
    words: tuple[str, ...],
    game_option: str | None,
    time_limit: float | None,
    all_solutions: bool,
    as_json: bool,
    seed: int | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    unordered: bool = False,
    checkpoint: str | None = None,
    together: bool = False,
    quiet: bool = False,
) -> None:
    """Find a shortest program for each LEVEL and prove it shortest.

    LEVEL is GAME:NAME (carrots:7), a bundled NAME (7), a level file or - (standard input);
    GAME (or --game) is needed for the last three only: gridbot solve carrots:12.
    Several levels are solved at once, one a worker (--jobs local processes, or the
    workers of a Dask cluster with --scheduler), each with the whole time limit. The
    games whose long proofs split into shares over the workers (Light-Bot, RoboZZle,
    Robo's Escape) solve one level at a time instead, on local processes, each proof's
    long lengths over all of them. See docs/cluster.md.

    Ctrl-C stops the search and prints what a time limit would (the best program
    found, the lengths excluded), then exits with status 130; a second Ctrl-C
    stops at once.

    --together looks for one program that wins every LEVEL (two or more, of one
    game: Carrots, Light-Bot or RoboZZle; RoboZZle puzzles with the same functions
    and paints), the shortest, proven; --time-limit is then the whole search's.

    --quiet prints each level's program alone, one a line (with --all, each of its
    programs), and nothing for a level without one: the exit status tells.
    """
    quiet = display.quiet(ctx, quiet)
    display.no_quiet_json(quiet, as_json)
    output = "json" if as_json else "quiet" if quiet else "text"
    since = inputs.command_started(ctx)  # the first level's time counts from the command's start
    game, level_specs = inputs.split_game(words, game_option)
    module = games.get(game)
    solver = front.solver(module.NAME)
    extra = {} if seed is None else {"seed": seed}
    if extra and not solver.takes("seed"):
        raise click.UsageError(f"--seed is not used by {module.NAME}")
    if all_solutions and not games.optional(module, "LISTS_ALL"):
        raise click.UsageError(f"--all is not offered by {module.NAME}: its solver returns one answer")
    if jobs is not None and scheduler is not None:
        raise click.UsageError("--jobs and --scheduler cannot be combined (the cluster's workers are the jobs)")
    loaded = [(spec, inputs.load(spec, module.NAME)) for spec in level_specs]  # bad input fails before any search
    if together:
        if all_solutions or jobs is not None or scheduler is not None or checkpoint is not None or extra:
            raise click.UsageError("--together takes none of --all, --seed, --jobs, --scheduler, --checkpoint")
        _solve_together(module, [level for _, level in loaded], time_limit, since, output)
        return
    options = {"time_limit": time_limit, "all_solutions": all_solutions, **extra}
    from gridbot.parallel import executors

    shares = solver.takes("executor")
    with interrupts.stop_on_interrupt() as stop:
        if len(loaded) > 1 and shares and scheduler is None:
            # One level at a time, its long lengths in shares over every worker: a long proof gets every core and
            # is not left to share one with a level that ends long before it (the corpus benchmarks run this way).
            with executors.open_executor(jobs, None, checkpoint) as run_on:
                stop.also(run_on.stop)
                failed = False
                for spec, level in loaded:
                    since = inputs.command_started(ctx) if spec == loaded[0][0] else time.monotonic()
                    failed = _solve_one(module, spec, level, since, options, extra, output, run_on) or failed
                    if stop.requested:  # Ctrl-C: this level's best is printed, the next ones are not started
                        break
        elif len(loaded) > 1 or (scheduler is not None and not shares):
            with executors.open_executor(jobs, scheduler, checkpoint) as run_on:
                stop.also(run_on.stop)
                failed = _solve_levels(run_on, module, loaded, options, output, not unordered)
        elif scheduler is None and checkpoint is None:  # one level, in this process (shares over local processes)
            if jobs is not None and solver.takes("workers"):
                extra["workers"] = jobs
            failed = _solve_one(module, *loaded[0], since, options, extra, output)
        else:
            with executors.open_executor(jobs, scheduler, checkpoint) as run_on:
                stop.also(run_on.stop)
                failed = _solve_one(module, *loaded[0], since, options, extra, output, run_on)
    if stop.requested:
        if output == "text":
            click.echo("gridbot: interrupted: the search stopped early; above, the best it had found", err=True)
        raise click.exceptions.Exit(display.EXIT_INTERRUPTED)
    if failed:
        raise click.exceptions.Exit(display.EXIT_FAILED)


def _solve_one(
    module: ModuleType, spec: str, level: Any, since: float, options: dict[str, Any], extra: dict[str, Any],
    output: str, run_on: Any = None,
) -> bool:  # fmt: skip
    """One level in this process (its shares on `run_on` when the solver takes an executor); prints the result
    and says whether it timed out. With the executor's checkpoint, a finished level is recorded (and a recorded
    one is printed without solving it again)."""

    name = inputs.level_name(level, spec)
    checkpoint = None if run_on is None else run_on.checkpoint
    key = batch.level_key(module.NAME, level, options)
    record = None if checkpoint is None else checkpoint.get(key)
    if record is not None:
        result = batch.recorded_result(module.NAME, record)
    else:
        if run_on is not None and front.solver(module.NAME).takes("executor"):
            extra = {**extra, "executor": run_on}
        limit = inputs.time_left(options["time_limit"], since)
        show_progress = output == "text" and display.stdout_is_terminal()
        with display.progress_display(show_progress, f"solving {name}") as progress:
            if progress is None and output == "text":  # a script's stderr hears the first use's compile alone
                progress = display.notices
            result = front.solve(
                level, time_limit=limit, all_solutions=options["all_solutions"], progress=progress, **extra
            )
        if checkpoint is not None:
            checkpoint.put(key, batch.result_record(result))
    _print_result(level, name, result, options["all_solutions"], output)
    return result.status == Status.TIMEOUT


def _solve_together(module: ModuleType, levels: list[Any], time_limit: float | None, since: float, output: str) -> None:
    """One program for every level (gridbot.solve.together), printed as a solve's result; exit status as solve's."""
    from gridbot.solve.together import check_levels, solve_together

    check_levels(levels)  # one-line error, exit 2, before any search
    limit = inputs.time_left(time_limit, since)
    with interrupts.stop_on_interrupt() as stop:
        show_progress = output == "text" and display.stdout_is_terminal()
        with display.progress_display(show_progress, "solving together") as progress:
            result = solve_together(levels, time_limit=limit, progress=progress, stop=stop.event)
    _print_result(levels[0], result.level, result, False, output)
    if stop.requested:
        raise click.exceptions.Exit(display.EXIT_INTERRUPTED)
    if result.status == Status.TIMEOUT:
        raise click.exceptions.Exit(display.EXIT_FAILED)


def _solve_levels(
    run_on: Any, module: ModuleType, loaded: list[tuple[str, Any]], options: dict[str, Any], output: str,
    ordered: bool,
) -> bool:  # fmt: skip
    """Several levels as tasks on `run_on`, each printed as it comes back (in input order when `ordered`), with a
    progress bar of levels done, solved and proven on a terminal's stderr. Says whether any timed out."""

    failed = False
    with display.levels_bar(output != "quiet" and display.stderr_is_terminal(), len(loaded)) as advance:
        levels_only = [level for _, level in loaded]
        for index, result, _ in batch.solve_levels(run_on, module.NAME, levels_only, options, ordered):
            spec, level = loaded[index]  # re-checked by the front in its task (a recorded one when first found)
            name = inputs.level_name(level, spec)
            advance(result)
            failed = failed or result.status == Status.TIMEOUT
            _print_result(level, name, result, options["all_solutions"], output)
    return failed


def _print_result(level: Any, name: str, result: Any, all_solutions: bool, output: str) -> None:
    """A result as `output` asks: "json" (one object), "quiet" (the program, or each with --all) or "text"."""
    if output == "json":
        click.echo(display.dumps(result.to_json()))
    elif output == "quiet":
        for program in (result.solutions or (result.solution,)) if all_solutions else (result.solution,):
            if program is not None:
                click.echo(str(program))
    else:
        click.echo(report.describe(level, result, all_solutions, name))
