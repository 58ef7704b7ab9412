"""`gridbot analyze GAME LEVEL...`: each level's proven par, its optimal solutions counted as programs and as
behaviours, the solutions one longer, what it needs and what the proof cost, through gridbot.solve.analyze.
"""

from __future__ import annotations

import time
from typing import Any

import click

from gridbot import games, levels
from gridbot.cli import display, inputs, interrupts
from gridbot.result import Status

ANALYZE_EPILOG = (
    "Exit status: 0 every level analysed (par proven, or proven unsolvable); 1 some level's par not proven in "
    "time, or a solution failed its re-check; 2 bad input or usage; 130 interrupted."
)
COLUMNS = ("level", "status", "par", "programs", "behaviours", "par+1", "needs", "candidates", "seconds")


@click.command(cls=display.GameCommand, epilog=ANALYZE_EPILOG)
@click.argument("words", metavar="GAME [LEVEL...]", nargs=-1, shell_complete=inputs.level_completer(None))
@inputs.GAME_OPTION
@click.option(
    "--time-limit",
    type=inputs.SECONDS,
    default=None,
    metavar="S",
    help="Seconds allowed per level; without it, until every count is done.",
)
@click.option(
    "--cap",
    type=click.IntRange(min=1, max=100),
    default=100,
    metavar="N",
    help="Count solutions up to N (at most 100, the solvers' cap); a count that reaches it shows N+.",
)
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per level.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes for a long proof (Light-Bot, RoboZZle, Robo's Escape; default: every core).",
)
@display.QUIET_OPTION
@click.pass_context
def analyze(
    ctx: click.Context,
    words: tuple[str, ...],
    game_option: str | None,
    time_limit: float | None,
    cap: int,
    as_json: bool,
    jobs: int | None = None,
    quiet: bool = False,
) -> None:
    """Analyse each LEVEL for its designer: proven par, optimal solutions, effort.

    For each level: the proven par (or, under --time-limit, the best found and
    the lengths excluded); how many optimal solutions it has, as distinct
    canonical programs (as the solver's exact search lists them) and as distinct
    behaviours (Carrots: orders of marking the squares, over every program;
    Light-Bot: tiles moved onto and lights toggled, over every program;
    RoboZZle: squares entered and paints made; the others: runs through
    different states), up to --cap; how many one longer than par; which
    functions, procedures or loops the par needs (the solver on the language
    without each); the candidates and seconds the searches took. A few optimal
    solutions are shown under the table. Robo's Escape's par is the fewest
    tokens of a program of the best score (40 - tokens + 10 x coins), its
    programs those of that score; par+1 is not counted there. GAME alone
    analyses every bundled level of the game's main
    set: gridbot analyze carrots. LEVEL is as for solve. See docs/cli.md.

    --quiet prints each level's name and par alone.
    """
    from gridbot.solve.analyze import analyze as analyze_level

    quiet = display.quiet(ctx, quiet)
    display.no_quiet_json(quiet, as_json)
    since = inputs.command_started(ctx)
    game, specs = inputs.split_game(words, game_option, need_level=False)
    if not game:
        raise click.UsageError("Missing argument 'GAME'.")
    module = games.get(game)
    if not specs:
        specs = tuple(f"{module.NAME}:{name}" for name in levels.names(module.NAME))
        if not specs:
            raise click.UsageError(f"{module.NAME} has no bundled levels: name a LEVEL")
    loaded = [(spec, inputs.load(spec, module.NAME)) for spec in specs]  # bad input fails before any search
    width = max(len(COLUMNS[0]), *(len(inputs.level_name(level, spec)) for spec, level in loaded))
    shown: list[tuple[str, tuple[str, ...]]] = []
    failed = False
    with interrupts.stop_on_interrupt() as stop:
        if not as_json and not quiet:
            click.echo(_row(COLUMNS, width))
        for spec, level in loaded:
            started = since if spec == loaded[0][0] else time.monotonic()
            limit = inputs.time_left(time_limit, started)
            show = not as_json and not quiet and display.stdout_is_terminal()
            name = inputs.level_name(level, spec)
            with display.progress_display(show, f"analysing {name}", stderr=True) as progress:
                found = analyze_level(
                    level, time_limit=limit, cap=cap, progress=progress, stop=stop.event, workers=jobs
                )
            failed = failed or not found.status.proven
            if as_json:
                click.echo(display.dumps(found.to_json()))
            elif quiet:
                click.echo(f"{name} {'-' if found.par is None else found.par}")
            else:
                click.echo(_row(cells(found, name), width))
                shown.append((name, found.examples))
            if stop.requested:
                break
    if shown and any(examples for _, examples in shown):
        click.echo("\noptimal solutions (a few)")
        for name, examples in shown:
            for k, example in enumerate(examples):
                click.echo(f"  {name if k == 0 else '':<{width}}  {example}")
    if stop.requested:
        if not as_json:
            click.echo("gridbot: interrupted: the analysis stopped early", err=True)
        raise click.exceptions.Exit(display.EXIT_INTERRUPTED)
    if failed:
        raise click.exceptions.Exit(display.EXIT_FAILED)


def count(n: int | None, capped: bool) -> str:
    """A count as the table shows it: `N+` when capped, `-` when not counted."""
    if n is None:
        return "-"
    return f"{n:,}+" if capped else f"{n:,}"


def cells(found: Any, name: str) -> tuple[str, ...]:
    """The table's cells of one Analysis: needs lists what the par needs (`none` when nothing is, `-` when not
    asked or not applicable, e.g. for a path game)."""
    needs = "-"
    if found.needed is not None:
        needs = " ".join(part for part, needed in found.needed if needed) or "none"
    has = found.status in (Status.OPTIMAL, Status.SOLVED)
    par = "-" if found.par is None else str(found.par)
    if found.status == Status.SOLVED and found.excluded is not None:
        par = f"{found.excluded + 1}..{found.par}"
    return (
        name,
        str(found.status),
        par,
        count(found.programs if has else None, found.programs_capped),
        count(found.behaviours if has else None, found.behaviours_capped),
        count(found.longer, found.longer_capped),
        needs,
        f"{found.candidates:,}",
        f"{found.seconds:.2f}",
    )


def _row(values: tuple[str, ...], width: int) -> str:
    """One line of the table: the level left-aligned, status and needs left, the numbers right."""
    level, status, par, programs, behaviours, longer, needs, candidates, seconds = values
    return (
        f"{level:<{width}}  {status:<10}  {par:>5}  {programs:>8}  {behaviours:>10}  {longer:>6}  {needs:<10}"
        f"  {candidates:>12}  {seconds:>7}"
    ).rstrip()
