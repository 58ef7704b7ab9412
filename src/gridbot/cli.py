"""The `gridbot` command line: a thin layer over the game modules.

Commands (GAME is a name from gridbot.games.GAMES, e.g. `carrots`):

    gridbot solve GAME LEVEL... [--time-limit S] [--all] [--json] [--jobs N | --scheduler ADDRESS]
                  [--unordered] [--checkpoint FILE]
    gridbot run GAME LEVEL PROGRAM [--trace] [--limit N] [--json]
    gridbot levels [GAME]
    gridbot pellet serve [--host H] [--port P] [--rounds N] [--time-limit S] [--seed N]
    gridbot pellet play HOST:PORT

A LEVEL is a bundled level `GAME:NAME` (`carrots:7`), a bare bundled name
(`7`, when no file of that name exists) or the path of a level file.

Exit status:
    0   success: `solve` solved every level or proved it unsolvable; `run` ran
        the program (whatever its verdict); `levels` listed the levels
    1   `solve` found no solution within the time limit for some level, or an
        answer failed the simulator's re-check (a bug; nothing is printed for it)
    2   bad input or usage: unknown game or level, unreadable or malformed level
        file, malformed program, bad option; one line on stderr, no traceback
    130 interrupted (Ctrl-C)

Every answer `solve` prints has been re-run by the game's simulator first and
must complete its level.
"""

from __future__ import annotations

import inspect
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, NoReturn

import click

from gridbot import __version__, games, levels
from gridbot.grid import GridbotError, plural
from gridbot.solve.search import check_time_limit

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

EXIT_TERMINATED = 143  # 128 + SIGTERM

EPILOG = (
    "Exit status: 0 success; 1 a solve found no solution in time or an answer failed its re-check; "
    "2 bad input or usage; 130 interrupted; 143 terminated."
)
SOLVE_EPILOG = (
    "Exit status: 0 every level solved or proven unsolvable; 1 no solution in time for some level, or an answer "
    "failed its re-check; 2 bad input or usage; 130 interrupted; 143 terminated."
)
RUN_EPILOG = "Exit status: 0 the program ran, whatever its verdict; 2 bad input or usage; 130 interrupted."
LEVELS_EPILOG = "Exit status: 0 the levels were listed; 2 unknown game or bad usage."
PLAY_EPILOG = "Exit status: 0 a flag came; 1 no flag (the reason is on stderr); 2 bad usage; 130 interrupted."
SERVE_EPILOG = "Exit status: 0 stopped after --max-sessions; 2 bad usage or the address cannot be used; 130 stopped."


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip()) or text


def _usage_error(exc: click.UsageError) -> NoReturn:
    """Report a usage error in one line, as every other bad input is reported, and exit with status 2."""
    where = exc.ctx.command_path if exc.ctx is not None else "gridbot"
    message = _one_line(exc.format_message()).rstrip(".")
    click.echo(f"gridbot: {message[:1].lower()}{message[1:]} (see '{where} --help')", err=True)
    raise click.exceptions.Exit(EXIT_BAD_INPUT)


class _Group(click.Group):
    """A command group that turns gridbot's own errors and usage errors into one line and status 2."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            _usage_error(exc)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            _usage_error(exc)
        except GridbotError as exc:
            click.echo(f"gridbot: {_one_line(str(exc))}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            _quiet_broken_pipe()
            ctx.exit(EXIT_FAILED)


def _quiet_broken_pipe() -> None:
    """Stop Python from complaining again about a closed stdout when it exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.version_option(__version__, prog_name="gridbot")
def cli() -> None:
    """Simulate and solve grid-robot puzzles, with proofs of optimality."""


def _terminated(signum: int, frame: Any) -> NoReturn:
    """SIGTERM: leave through every `with` block (worker processes are stopped there), then exit 143."""
    raise SystemExit(EXIT_TERMINATED)


def main(argv: list[str] | None = None) -> NoReturn:
    """Console entry point (`gridbot`)."""
    started = time.monotonic()  # the command's clock: --time-limit counts from here
    signal.signal(signal.SIGTERM, _terminated)
    try:
        cli.main(args=argv, prog_name="gridbot", obj={"started": started})
    except KeyboardInterrupt:  # outside a command, e.g. while importing
        sys.exit(EXIT_INTERRUPTED)
    raise AssertionError("click returns only through SystemExit")  # pragma: no cover


# ---------------------------------------------------------------- helpers


def _game(name: str) -> ModuleType:
    return games.get(name)


def _resolve_spec(spec: str, game: str) -> str:
    """`GAME:NAME`, `-` and file paths pass through; a bare bundled name (`7`) becomes `game:7`."""
    if ":" in spec or spec == levels.STDIN or levels.is_file(spec) or levels.bundled(game, spec) is None:
        return spec
    return f"{game}:{spec}"


def _load(spec: str, game: str) -> Any:
    return levels.load(_resolve_spec(spec, game), game)


def _level_name(level: Any, spec: str) -> str:
    return getattr(level, "name", "") or spec


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, default=_json_default)


def _fail(message: str) -> NoReturn:
    """Report a failed re-check (a bug in a solver) and exit with status 1."""
    click.echo(f"gridbot: re-check failed: {message}", err=True)
    raise click.exceptions.Exit(EXIT_FAILED)


@contextmanager
def _progress_display(enabled: bool, label: str) -> Iterator[Callable[[dict], None] | None]:
    """A rich status line fed by the solver's progress callback, or nothing."""
    if not enabled:
        yield None
        return
    from rich.console import Console

    console = Console()
    start = time.monotonic()
    with console.status(f"{label}: starting") as status:

        def progress(info: dict) -> None:
            parts = [label]
            if "length" in info:
                parts.append(f"length {info['length']}")
            if "candidates" in info:
                parts.append(f"{int(info['candidates']):,} candidates")
            seconds = info.get("seconds", time.monotonic() - start)
            parts.append(f"{float(seconds):.1f} s")
            status.update(", ".join(parts))

        yield progress


class _Seconds(click.ParamType):
    """A positive number of seconds (no NaN, no zero or less)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | None:
        try:
            return check_time_limit(value)
        except ValueError:
            self.fail(f"{value!r} is not a positive number of seconds", param, ctx)


SECONDS = _Seconds()


def _command_started(ctx: click.Context) -> float:
    """When the command started (`main` records it; a test runner's call starts now)."""
    return (ctx.obj or {}).get("started", time.monotonic())


def _time_left(time_limit: float | None, since: float) -> float | None:
    """The time limit still left of one counted from `since`, never below a twentieth of it (the command's start-up
    may have eaten it: the solver still gets a moment to return what it has)."""
    if time_limit is None:
        return None
    return max(time_limit - (time.monotonic() - since), time_limit / 20)


def _count(n: int, unit: str) -> str:
    """`1 token`, `2 tokens`: `unit` is the plural."""
    return plural(n, unit[:-1] if unit.endswith("s") else unit)


def _recheck(game: ModuleType, level: Any, name: str, solution: Any) -> None:
    verdict = game.run(level, solution).verdict
    if not verdict.won:
        _fail(f"the solver's answer {solution} for {name} does not complete it ({verdict})")


# ---------------------------------------------------------------- commands


@cli.command(epilog=SOLVE_EPILOG)
@click.argument("game")
@click.argument("level_specs", metavar="LEVEL...", nargs=-1, required=True)
@click.option(
    "--time-limit",
    type=SECONDS,
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
@click.pass_context
def solve(
    ctx: click.Context,
    game: str,
    level_specs: tuple[str, ...],
    time_limit: float | None,
    all_solutions: bool,
    as_json: bool,
    seed: int | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    unordered: bool = False,
    checkpoint: str | None = None,
) -> None:
    """Find a shortest program for each LEVEL and prove it shortest.

    LEVEL is GAME:NAME (carrots:7), a bundled NAME (7), a level file or - (standard input).
    Several levels are solved at once, one a worker (--jobs local processes, or the
    workers of a Dask cluster with --scheduler), each with the whole time limit; one
    level's long proof is split into shares over the workers instead (Light-Bot,
    RoboZZle, Robo's Escape). See docs/cluster.md.
    """
    since = _command_started(ctx)  # the first level's time counts from the command's start
    module = _game(game)
    extra = {} if seed is None else {"seed": seed}
    if extra and "seed" not in inspect.signature(module.solve).parameters:
        raise click.UsageError(f"--seed is not used by {module.NAME}")
    if all_solutions and not getattr(module, "LISTS_ALL", True):
        raise click.UsageError(f"--all is not offered by {module.NAME}: its solver returns one answer")
    if jobs is not None and scheduler is not None:
        raise click.UsageError("--jobs and --scheduler cannot be combined (the cluster's workers are the jobs)")
    loaded = [(spec, _load(spec, module.NAME)) for spec in level_specs]  # bad input fails before any search
    options = {"time_limit": time_limit, "all_solutions": all_solutions, **extra}
    from gridbot.solve import executors

    shares = executors.solver_takes(module.NAME, "executor")
    if len(loaded) > 1 or (scheduler is not None and not shares):
        with executors.open_executor(jobs, scheduler, checkpoint) as run_on:
            failed = _solve_levels(run_on, module, loaded, options, as_json, not unordered)
    elif scheduler is None and checkpoint is None:  # one level, in this process (shares over local processes)
        if jobs is not None and executors.solver_takes(module.NAME, "workers"):
            extra["workers"] = jobs
        failed = _solve_one(module, *loaded[0], since, options, extra, as_json)
    else:
        with executors.open_executor(jobs, scheduler, checkpoint) as run_on:
            failed = _solve_one(module, *loaded[0], since, options, extra, as_json, run_on)
    if failed:
        raise click.exceptions.Exit(EXIT_FAILED)


def _solve_one(
    module: ModuleType, spec: str, level: Any, since: float, options: dict[str, Any], extra: dict[str, Any],
    as_json: bool, run_on: Any = None,
) -> bool:  # fmt: skip
    """One level in this process (its shares on `run_on` when the solver takes an executor); prints the result
    and says whether it timed out. With the executor's checkpoint, a finished level is recorded (and a recorded
    one is printed without solving it again)."""
    from gridbot.solve import executors

    name = _level_name(level, spec)
    checkpoint = None if run_on is None else run_on.checkpoint
    key = executors.level_key(module.NAME, level, options)
    record = None if checkpoint is None else checkpoint.get(key)
    if record is not None:
        result = executors.recorded_result(module.NAME, record)
    else:
        if run_on is not None and executors.solver_takes(module.NAME, "executor"):
            extra = {**extra, "executor": run_on}
        limit = _time_left(options["time_limit"], since)
        show_progress = not as_json and _stdout_is_terminal()
        with _progress_display(show_progress, f"solving {name}") as progress:
            result = module.solve(
                level, time_limit=limit, all_solutions=options["all_solutions"], progress=progress, **extra
            )
        _check_result(module, level, name, result)
        if checkpoint is not None:
            checkpoint.put(key, executors.result_record(result))
    _print_result(module, level, name, result, options["all_solutions"], as_json)
    return result.status == "timeout"


def _solve_levels(
    run_on: Any, module: ModuleType, loaded: list[tuple[str, Any]], options: dict[str, Any], as_json: bool,
    ordered: bool,
) -> bool:  # fmt: skip
    """Several levels as tasks on `run_on`, each printed as it comes back (in input order when `ordered`), with a
    progress bar of levels done, solved and proven on a terminal's stderr. Says whether any timed out."""
    from gridbot.solve import executors

    failed = False
    with _levels_bar(_stderr_is_terminal(), len(loaded)) as advance:
        levels_only = [level for _, level in loaded]
        for index, result, resumed in executors.solve_levels(run_on, module.NAME, levels_only, options, ordered):
            spec, level = loaded[index]
            name = _level_name(level, spec)
            if not resumed:  # a recorded result was re-checked when it was first found
                _check_result(module, level, name, result)
            advance(result)
            failed = failed or result.status == "timeout"
            _print_result(module, level, name, result, options["all_solutions"], as_json)
    return failed


def _check_result(module: ModuleType, level: Any, name: str, result: Any) -> None:
    """Re-run every program of a result by the game's simulator (exit 1 when one fails: a solver's bug)."""
    if result.status in ("optimal", "solved"):
        if result.solution is None:
            _fail(f"the solver reported {result.status} for {name} without a program")
        _recheck(module, level, name, result.solution)
        tokens = getattr(result.solution, "tokens", result.length)
        if tokens != result.length:
            _fail(f"{result.solution} has {tokens} tokens, not {result.length}, for {name}")
    for other in result.solutions:
        _recheck(module, level, name, other)


def _print_result(module: ModuleType, level: Any, name: str, result: Any, all_solutions: bool, as_json: bool) -> None:
    if as_json:
        click.echo(_dumps(result.to_json()))
    elif hasattr(module, "describe"):  # a game's own human output (Bender prints moves as CodinGame expects)
        click.echo(module.describe(level, result))
    else:
        unit, noun = getattr(module, "UNIT", "tokens"), getattr(module, "SOLUTION", "program")
        click.echo(_describe(result, name, all_solutions, unit, noun))


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def _levels_bar(enabled: bool, total: int) -> Iterator[Callable[[Any], None]]:
    """A progress bar on stderr of the levels done, solved and proven, advanced by each result; or nothing."""
    if not enabled:
        yield lambda result: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    counts = {"solved": 0, "proven": 0}
    columns = (
        TextColumn("levels"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[tally]}"),
        TimeElapsedColumn(),
    )  # fmt: skip
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("levels", total=total, tally="solved 0, proven 0")

        def advance(result: Any) -> None:
            counts["solved"] += result.status in ("optimal", "solved")
            counts["proven"] += result.status in ("optimal", "unsolvable")
            bar.update(task, advance=1, tally=f"solved {counts['solved']}, proven {counts['proven']}")

        yield advance


def _describe(result: Any, name: str, all_solutions: bool, unit: str = "tokens", noun: str = "program") -> str:
    """The human-readable report of one SolveResult; `noun` names a solution ("program", "path")."""
    stats = result.stats or {}
    lines = []
    proven = result.proven_impossible
    if result.status == "optimal":
        shortest = "proven shortest" if noun == "program" else f"every {noun} has this length"
        lines.append(f"{name}: optimal, {_count(result.length, unit)} ({shortest})")
    elif result.status == "solved":
        lines.append(f"{name}: solved, {_count(result.length, unit)} (not proven shortest)")
    elif result.status == "unsolvable":
        lines.append(f"{name}: unsolvable (proven: no {noun} completes this level)")
    else:
        lines.append(f"{name}: timeout, no solution found")
    if result.solution is not None:
        lines.append(f"  {noun:<11} {result.solution}")
    if result.status in ("solved", "timeout"):
        lines.append(f"  lengths up to {proven} proven impossible" if proven > 0 else "  no length proven impossible")
    if stats.get("reason"):
        lines.append(f"  reason      {stats['reason']}")
    if "candidates" in stats:
        lines.append(f"  candidates  {int(stats['candidates']):,}")
    lines.append(f"  seconds     {result.seconds:.3f}")
    if all_solutions and result.solutions:
        kind = "optimal" if result.status == "optimal" else "shortest found"
        more = " (capped: there are more)" if result.solutions_capped else ""
        count = len(result.solutions)
        lines.append(f"  {count} {kind} {noun}{'' if count == 1 else 's'}{more}:")
        lines.extend(f"    {s}" for s in result.solutions)
    return "\n".join(lines)


@cli.command(epilog=RUN_EPILOG)
@click.argument("game")
@click.argument("level_spec", metavar="LEVEL")
@click.argument("program_words", metavar="PROGRAM", nargs=-1)
@click.option("--trace", is_flag=True, help="Show the board after every step.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    metavar="N",
    help="With --trace: show at most N steps.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def run(game: str, level_spec: str, program_words: tuple[str, ...], trace: bool, limit: int, as_json: bool) -> None:
    """Run PROGRAM on LEVEL and print how it ends.

    Quote the program (gridbot run carrots 2 'LOOP{F F R}'); several words are
    joined with spaces. For bender, PROGRAM is optional: an answer to check
    (moves or LOOP); without it, Bender's own journey is shown.
    """
    if trace and as_json:
        raise click.UsageError("--trace and --json cannot be combined")
    module = _game(game)
    optional = getattr(module, "PROGRAM_OPTIONAL", False)
    if not program_words and not optional:
        raise click.UsageError("Missing argument 'PROGRAM...'.")
    level = _load(level_spec, module.NAME)
    program = module.parse_program(" ".join(program_words))
    outcome = module.run(level, program)
    verdict = outcome.verdict
    name = _level_name(level, level_spec)
    tokens = getattr(program, "tokens", None)
    # a game's own facts about the run (Robo's Escape: score, coins, reason), by name
    extra = module.run_fields(outcome) if hasattr(module, "run_fields") else {}
    if as_json:
        data = {
            "game": module.NAME,
            "level": name,
            "program": str(program),
            "status": verdict.status,
            "step": verdict.step,
            "remaining": verdict.remaining,
            "tokens": tokens,
        }
        if getattr(verdict, "reason", None):
            data["reason"] = verdict.reason
        data.update(extra)
        click.echo(_dumps(data))
        return
    size = f"  ({_count(tokens, getattr(module, 'UNIT', 'tokens'))})" if tokens is not None else ""
    click.echo(f"level    {name}")
    if program_words or not optional:
        click.echo(f"program  {program}{size}")
    if trace:
        click.echo()
        if hasattr(module, "trace_parts"):  # printed as it is made: a long trace is never held whole
            for number, part in enumerate(module.trace_parts(level, outcome, limit)):
                click.echo(f"\n{part}" if number else part)
        else:
            click.echo(module.format_trace(level, outcome, limit))
        click.echo()
    click.echo(f"verdict  {verdict}")
    for key, value in extra.items():
        if value is not None:
            click.echo(f"{key:<8} {value}")


@cli.command(name="levels", epilog=LEVELS_EPILOG)
@click.argument("game", required=False)
@click.option("--search", metavar="TEXT", help="Only levels whose name, title or author contains TEXT (any case).")
def list_levels(game: str | None, search: str | None) -> None:
    """List bundled levels as GAME:NAME, of GAME or of every game, with size, title and author where known."""
    names = [_game(game).NAME] if game else list(games.GAMES)
    rows = []
    for game_name in names:
        noun = getattr(games.get(game_name), "SIZE", None)
        for stem in levels.names(game_name):
            spec = f"{game_name}:{stem}"
            level = levels.load(spec)
            about = _about(level)
            if search and search.lower() not in f"{spec} {about}".lower():
                continue
            rows.append((spec, *_size_info(level, noun), about))
    widths = [max((len(row[k]) for row in rows), default=0) + 2 for k in range(3)]
    for row in rows:
        click.echo(("".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False)) + row[3]).rstrip())


def _size_info(level: Any, noun: str | None = None) -> tuple[str, str]:
    """("WIDTHxHEIGHT", "size N" or "N nouns") of a level, each empty when the level does not say."""
    rows = getattr(level, "rows", None)
    dims = f"{max(len(r) for r in rows)}x{len(rows)}" if rows else ""
    size = getattr(level, "size", None)
    if not isinstance(size, int):
        return dims, ""
    return dims, plural(size, noun) if noun else f"size {size}"


def _about(level: Any) -> str:
    """A level's title and author, `"Title" by author`, or '' when it has neither."""
    title, author = getattr(level, "title", ""), getattr(level, "author", "")
    return (f'"{title}"' if title else "") + (f" by {author}" if author else "")


# ---------------------------------------------------------------- pellet: the game server and its client


def _size_option(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if (
        not sep
        or not width.isdigit()
        or not height.isdigit()
        or not (1 <= int(width) <= 1000 and 1 <= int(height) <= 1000)
    ):
        raise click.BadParameter(f"expected WxH such as 40x30, got {text!r}")
    return int(width), int(height)


@cli.group()
def pellet() -> None:
    """Pellet Eater over TCP: the game server (`serve`) and a client that solves it (`play`)."""


@pellet.command(epilog=SERVE_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=5555, show_default=True, help="0: any free port.")
@click.option(
    "--rounds", type=click.IntRange(min=1), default=10, show_default=True, metavar="N", help="Boards per game."
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=10.0,
    show_default=True,
    metavar="S",
    help="Seconds allowed per board.",
)
@click.option("--seed", type=int, default=None, metavar="N", help="Seed of the boards (default: random, logged).")
@click.option("--flag", default=None, metavar="TEXT", help="The flag sent to a client that solves every board.")
@click.option("--min-size", default="8x6", show_default=True, metavar="WxH", help="Size of the first board.")
@click.option("--max-size", default="40x30", show_default=True, metavar="WxH", help="Size of the last board.")
@click.option("--max-clients", type=click.IntRange(min=1), default=256, show_default=True, help="Sessions at once.")
@click.option("--max-sessions", type=click.IntRange(min=1), default=None, metavar="N", help="Stop after N sessions.")
def serve(
    host: str,
    port: int,
    rounds: int,
    time_limit: float,
    seed: int | None,
    flag: str | None,
    min_size: str,
    max_size: str,
    max_clients: int,
    max_sessions: int | None,
) -> None:
    """Run the game server: boards growing round by round, each with a planted solution.

    Logs one line per session on stderr. Stops on Ctrl-C, or after --max-sessions.
    """
    import asyncio
    import logging

    from gridbot.net.server import DEFAULT_FLAG, ServerConfig
    from gridbot.net.server import serve as run_server

    config = ServerConfig(
        host=host,
        port=port,
        rounds=rounds,
        time_limit=time_limit,
        seed=seed,
        flag=flag or DEFAULT_FLAG,
        min_size=_size_option(min_size),
        max_size=_size_option(max_size),
        max_clients=max_clients,
        max_sessions=max_sessions,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)

    def ready(server: Any) -> None:
        click.echo(
            f"pellet server listening on {host}:{server.port} ({rounds} boards, {time_limit:g} s each,"
            f" seed {server.seed})",
            err=True,
        )

    try:
        asyncio.run(run_server(config, ready=ready))
    except OSError as exc:
        raise GridbotError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


@pellet.command(epilog=PLAY_EPILOG)
@click.argument("address", metavar="HOST:PORT")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="S",
    help="Seconds the solver may spend per board (default: no limit).",
)
@click.option("--seed", type=int, default=0, show_default=True, metavar="N", help="Seed of the solver.")
@click.option(
    "--timeout",
    type=SECONDS,
    default=60.0,
    show_default=True,
    metavar="S",
    help="Give up when the server says nothing for S seconds.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the flag.")
def play(address: str, time_limit: float | None, seed: int, timeout: float, quiet: bool) -> None:
    """Connect to a Pellet Eater server, solve every board it sends, and print the flag.

    Exit status 0 when a flag came, 1 otherwise (the reason is on stderr).
    """
    import asyncio

    from gridbot.net.client import parse_address
    from gridbot.net.client import play as run_client

    host, port = parse_address(address)

    def on_message(text: str) -> None:
        if not quiet:
            click.echo(f"server: {text}")

    def on_board(report: Any) -> None:
        if not quiet:
            click.echo(
                f"board {report.number}: {report.width}x{report.height}, {report.pellets} pellets,"
                f" {report.status} in {report.seconds:.3f} s ({report.method})"
            )

    outcome = asyncio.run(
        run_client(
            host, port, time_limit=time_limit, seed=seed, timeout=timeout, on_board=on_board, on_message=on_message
        )
    )
    if outcome.flag is None:
        why = outcome.error or (outcome.messages[-1] if outcome.messages else "the server closed")
        click.echo(f"gridbot: no flag after {len(outcome.boards)} boards: {why}", err=True)
        raise click.exceptions.Exit(EXIT_FAILED)
    if not quiet:
        click.echo(f"{len(outcome.boards)} boards solved in {outcome.seconds:.2f} s")
    click.echo(outcome.flag)


if __name__ == "__main__":
    main()
