"""The `gridbot` command line: a thin layer over the game modules.

Commands (GAME is a name from gridbot.games.GAMES, e.g. `carrots`):

    gridbot solve GAME LEVEL... [--time-limit S] [--all] [--json] [--jobs N | --scheduler ADDRESS]
                  [--unordered] [--checkpoint FILE]
    gridbot run GAME LEVEL [PROGRAM] [--program-file FILE] [--trace] [--limit N] [--json]
    gridbot render GAME LEVEL [PROGRAM] [--program-file FILE] [--solve] [--time-limit S] [--step N]
                   [--frames N] -o FILE.svg|FILE.png|FILE.gif|-
    gridbot show GAME LEVEL
    gridbot levels [GAME] [--search TEXT]
    gridbot web [--host H] [--port P] [--open]
    gridbot pellet serve [--host H] [--port P] [--rounds N] [--time-limit S] [--seed N]
    gridbot pellet play HOST:PORT

A LEVEL is a bundled level `GAME:NAME` (`carrots:7`), a bare bundled name
(`7`, when no file of that name exists), the path of a level file, or `-`
(standard input). A PROGRAM `-` (or `--program-file -`) is read from standard
input, `--program-file FILE` from a file, both capped (levels.read_program).

Exit status:
    0   success: `solve` solved every level or proved it unsolvable; `run` ran
        the program (whatever its verdict); `levels` listed the levels; `render`
        wrote its picture; `show` showed the board
    1   `solve` found no solution within the time limit for some level, or an
        answer failed the simulator's re-check (a bug; nothing is printed for it);
        `render --solve` found no program to draw
    2   bad input or usage: unknown game or level, unreadable or malformed level
        file, malformed program, bad option; one line on stderr, no traceback
    130 interrupted (Ctrl-C)

Every answer `solve` prints has been re-run by the game's simulator first and
must complete its level.
"""

from __future__ import annotations

import atexit
import gc
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
from gridbot import solve as front
from gridbot.deadline import check_time_limit
from gridbot.errors import GridbotError, WrongAnswer
from gridbot.grid import plural
from gridbot.result import Status
from gridbot.solve import batch, report

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


def _format_games(formatter: click.HelpFormatter) -> None:
    """The Games section of help: each game's name and its one line (the game module's SUMMARY)."""
    rows = [(name, games.get(name).SUMMARY) for name in games.GAMES]
    with formatter.section("Games (a solution: what it must do; what its length counts)"):
        formatter.write_dl(rows)
        formatter.write_paragraph()
        formatter.write_text("Rules, notation and examples: docs/GAME.md, e.g. docs/carrots.md.")


class _GameCommand(click.Command):
    """A command about one GAME: its help lists the games."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        _format_games(formatter)


class _Group(click.Group):
    """A command group that turns gridbot's own errors and usage errors into one line and status 2; its help
    lists the games."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        _format_games(formatter)

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
        except WrongAnswer as exc:  # a solver's answer the simulator rejects: a bug, not bad input
            click.echo(f"gridbot: re-check failed: {exc}", err=True)
            ctx.exit(EXIT_FAILED)
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
    # at exit, the interpreter's last collections would walk every object numba made loading the kernels: most
    # of a second after every solve, past the time limit; frozen, they are left to the process's end
    atexit.register(gc.freeze)
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


def _program_text(module: ModuleType, words: tuple[str, ...], program_file: str | None, level_spec: str) -> str:
    """The program's text: PROGRAM's words joined with spaces, or read from `--program-file` or PROGRAM `-` (a
    file or standard input, capped like a level; see levels.read_program)."""
    if program_file is not None and words:
        raise click.UsageError("give PROGRAM or --program-file, not both")
    source = program_file if program_file is not None else (levels.STDIN if words == (levels.STDIN,) else None)
    if source is None:
        return " ".join(words)
    if source == levels.STDIN and level_spec == levels.STDIN:
        raise click.UsageError("the level and the program cannot both come from standard input")
    return levels.read_program(source, module.NAME)


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


class _SolveStatus:
    """The line a long solve shows: the length being searched and for how long, how long the one before took,
    the candidates so far and the time in all. It is recomputed at every refresh of the display, so the clock
    ticks on its own between the solver's reports (some solvers report only every few seconds)."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        from rich.spinner import Spinner

        self.label = label
        self.clock = clock
        self.start = clock()
        self.info: dict[str, Any] = {}
        self.length: Any = None
        self.length_since = self.start
        self.previous: tuple[Any, float] | None = None  # (length, seconds it was searched)
        self.spinner = Spinner("dots")

    def update(self, info: dict[str, Any]) -> None:
        """Take a report of the solver's progress callback (keys `length`, `candidates`, `phase`, `seconds`)."""
        now = self.clock()
        length = info.get("length")
        if length is not None and length != self.length:
            if self.length is not None:
                self.previous = (self.length, now - self.length_since)
            self.length, self.length_since = length, now
        self.info = dict(info)

    def line(self) -> str:
        """`solving lightbot:10: length 16 for 12 s (15 took 212.4 s), 4.2 M candidates, 3:40`: short enough for
        80 columns (the display cuts a longer one)."""
        now = self.clock()
        parts = []
        if self.length is not None:
            searching = f"length {self.length} for {_clock_text(now - self.length_since)}"
            if self.previous is not None:
                searching += f" ({self.previous[0]} took {self.previous[1]:.1f} s)"
            parts.append(searching)
        else:
            parts.append(str(self.info.get("phase") or "starting"))
        if "candidates" in self.info:
            count = int(self.info["candidates"])
            parts.append(f"{_short_count(count)} candidate{'' if count == 1 else 's'}")
        parts.append(_clock_text(now - self.start))
        return f"{self.label}: " + ", ".join(parts)

    def __rich__(self) -> Any:
        from rich.text import Text

        self.spinner.update(text=Text(self.line(), no_wrap=True, overflow="ellipsis"))
        return self.spinner


def _short_count(n: int) -> str:
    """`9,999`, `631 k`, `2.6 M`, `7.5 G`: a count read at a glance."""
    if n < 10_000:
        return f"{n:,}"
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= size:
            value = n / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{n:,}"  # pragma: no cover (n >= 10,000 always has a unit)


def _clock_text(seconds: float) -> str:
    """`7 s`, `3:05`, `1:02:09`: a time a person reads at a glance."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


@contextmanager
def _progress_display(enabled: bool, label: str, stderr: bool = False) -> Iterator[Callable[[dict], None] | None]:
    """A rich live line fed by the solver's progress callback and refreshed every quarter second on its own (see
    _SolveStatus), or nothing."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.live import Live

    status = _SolveStatus(label)
    with Live(status, console=Console(stderr=stderr), refresh_per_second=4, transient=True):
        yield status.update


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


# ---------------------------------------------------------------- commands


@cli.command(cls=_GameCommand, epilog=SOLVE_EPILOG)
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
    solver = front.solver(module.NAME)
    extra = {} if seed is None else {"seed": seed}
    if extra and not solver.takes("seed"):
        raise click.UsageError(f"--seed is not used by {module.NAME}")
    if all_solutions and not games.optional(module, "LISTS_ALL"):
        raise click.UsageError(f"--all is not offered by {module.NAME}: its solver returns one answer")
    if jobs is not None and scheduler is not None:
        raise click.UsageError("--jobs and --scheduler cannot be combined (the cluster's workers are the jobs)")
    loaded = [(spec, _load(spec, module.NAME)) for spec in level_specs]  # bad input fails before any search
    options = {"time_limit": time_limit, "all_solutions": all_solutions, **extra}
    from gridbot.parallel import executors

    shares = solver.takes("executor")
    if len(loaded) > 1 or (scheduler is not None and not shares):
        with executors.open_executor(jobs, scheduler, checkpoint) as run_on:
            failed = _solve_levels(run_on, module, loaded, options, as_json, not unordered)
    elif scheduler is None and checkpoint is None:  # one level, in this process (shares over local processes)
        if jobs is not None and solver.takes("workers"):
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

    name = _level_name(level, spec)
    checkpoint = None if run_on is None else run_on.checkpoint
    key = batch.level_key(module.NAME, level, options)
    record = None if checkpoint is None else checkpoint.get(key)
    if record is not None:
        result = batch.recorded_result(module.NAME, record)
    else:
        if run_on is not None and front.solver(module.NAME).takes("executor"):
            extra = {**extra, "executor": run_on}
        limit = _time_left(options["time_limit"], since)
        show_progress = not as_json and _stdout_is_terminal()
        with _progress_display(show_progress, f"solving {name}") as progress:
            result = front.solve(
                level, time_limit=limit, all_solutions=options["all_solutions"], progress=progress, **extra
            )
        if checkpoint is not None:
            checkpoint.put(key, batch.result_record(result))
    _print_result(module, level, name, result, options["all_solutions"], as_json)
    return result.status == Status.TIMEOUT


def _solve_levels(
    run_on: Any, module: ModuleType, loaded: list[tuple[str, Any]], options: dict[str, Any], as_json: bool,
    ordered: bool,
) -> bool:  # fmt: skip
    """Several levels as tasks on `run_on`, each printed as it comes back (in input order when `ordered`), with a
    progress bar of levels done, solved and proven on a terminal's stderr. Says whether any timed out."""

    failed = False
    with _levels_bar(_stderr_is_terminal(), len(loaded)) as advance:
        levels_only = [level for _, level in loaded]
        for index, result, _ in batch.solve_levels(run_on, module.NAME, levels_only, options, ordered):
            spec, level = loaded[index]  # re-checked by the front in its task (a recorded one when first found)
            name = _level_name(level, spec)
            advance(result)
            failed = failed or result.status == Status.TIMEOUT
            _print_result(module, level, name, result, options["all_solutions"], as_json)
    return failed


def _print_result(module: ModuleType, level: Any, name: str, result: Any, all_solutions: bool, as_json: bool) -> None:
    if as_json:
        click.echo(_dumps(result.to_json()))
    else:
        click.echo(report.describe(level, result, all_solutions, name))


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
            counts["solved"] += result.status in (Status.OPTIMAL, Status.SOLVED)
            counts["proven"] += result.status in (Status.OPTIMAL, Status.UNSOLVABLE)
            bar.update(task, advance=1, tally=f"solved {counts['solved']}, proven {counts['proven']}")

        yield advance


@cli.command(cls=_GameCommand, epilog=RUN_EPILOG)
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
@click.option("--program-file", metavar="FILE", help="Read the program from FILE (- for standard input).")
def run(
    game: str,
    level_spec: str,
    program_words: tuple[str, ...],
    trace: bool,
    limit: int,
    as_json: bool,
    program_file: str | None = None,
) -> None:
    """Run PROGRAM on LEVEL and print how it ends.

    Quote the program (gridbot run carrots 2 'LOOP{F F R}'); several words are
    joined with spaces; PROGRAM - reads it from standard input. For bender,
    PROGRAM is optional: an answer to check (moves or LOOP); without it,
    Bender's own journey is shown.
    """
    if trace and as_json:
        raise click.UsageError("--trace and --json cannot be combined")
    module = _game(game)
    optional = games.optional(module, "PROGRAM_OPTIONAL")
    if not program_words and program_file is None and not optional:
        raise click.UsageError("Missing argument 'PROGRAM...'.")
    given = bool(program_words) or program_file is not None
    text = _program_text(module, program_words, program_file, level_spec)
    level = _load(level_spec, module.NAME)
    program = module.parse_program(text)
    outcome = module.run(level, program)
    verdict = outcome.verdict
    name = _level_name(level, level_spec)
    tokens = getattr(program, "tokens", None)
    # a game's own facts about the run (Robo's Escape: score, coins, reason), by name
    fields = games.optional(module, "run_fields")
    extra = {} if fields is None else fields(outcome)
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
    size = f"  ({plural(tokens, games.optional(module, 'UNIT'), unit=True)})" if tokens is not None else ""
    click.echo(f"level    {name}")
    if given or not optional:
        click.echo(f"program  {program}{size}")
    if trace:
        click.echo()
        parts = games.optional(module, "trace_parts")
        if parts is not None:  # printed as it is made: a long trace is never held whole
            for number, part in enumerate(parts(level, outcome, limit)):
                click.echo(f"\n{part}" if number else part)
        else:
            click.echo(module.format_trace(level, outcome, limit))
        click.echo()
    click.echo(f"verdict  {verdict}")
    for key, value in extra.items():
        if value is not None:
            click.echo(f"{key:<8} {value}")


RENDER_EPILOG = (
    "Exit status: 0 the picture was written; 1 --solve found no program in time, or the level has none; "
    "2 bad input or usage (an unknown extension, a game not drawn yet); 130 interrupted."
)
SHOW_EPILOG = "Exit status: 0 the board was shown; 2 bad input or usage."
PICTURE_KINDS = {".svg": "SVG", ".png": "PNG", ".gif": "GIF"}
MAX_GIF_FRAMES = 1000  # --frames at most: every frame is a full picture held in memory while the GIF is written


def _picture_kind(output: str) -> str:
    """SVG, PNG or GIF, by the output's extension (`-`: SVG on standard output); UsageError for any other."""
    if output == "-":
        return "SVG"
    kind = PICTURE_KINDS.get(os.path.splitext(output)[1].lower())
    if kind is None:
        raise click.UsageError(f"cannot tell the picture's kind from {output!r}: name a .svg, .png or .gif file")
    return kind


def _write_picture(output: str, data: str | bytes) -> None:
    if output == "-":
        click.echo(data, nl=False)
        return
    try:
        with open(output, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
    except OSError as exc:
        raise GridbotError(f"cannot write {output!r}: {exc.strerror or exc}") from None


@cli.command(cls=_GameCommand, epilog=RENDER_EPILOG)
@click.argument("game")
@click.argument("level_spec", metavar="LEVEL")
@click.argument("program_words", metavar="[PROGRAM]", nargs=-1)
@click.option("-o", "--output", required=True, metavar="FILE", help="FILE.svg, .png or .gif; - : SVG on stdout.")
@click.option("--program-file", metavar="FILE", help="Read the program from FILE (- for standard input).")
@click.option("--solve", "solve_it", is_flag=True, help="Draw the solver's answer instead of a given program.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S", help="With --solve: seconds allowed.")
@click.option("--step", type=click.IntRange(min=0), default=None, metavar="N", help="The state after N steps.")
@click.option(
    "--frames",
    type=click.IntRange(1, MAX_GIF_FRAMES),
    default=None,
    metavar="N",
    help="GIF: at most N frames (a longer run is sampled evenly; default 150).",
)
@click.pass_context
def render(
    ctx: click.Context,
    game: str,
    level_spec: str,
    program_words: tuple[str, ...],
    output: str,
    program_file: str | None,
    solve_it: bool,
    time_limit: float | None,
    step: int | None,
    frames: int | None,
) -> None:
    """Draw LEVEL, or the run of PROGRAM on it, as an SVG, PNG or animated GIF.

    Without a program: the level. With PROGRAM (or --program-file, or --solve):
    the path it takes and the state it ends in, or with --step N the state after
    N steps. A GIF animates the whole run, its last frame held. The file's
    extension chooses the kind: gridbot render carrots 12 'LOOP{F R}' -o run.gif

    LEVEL is GAME:NAME (carrots:7), a bundled NAME (7), a level file or - (standard input).
    More: docs/pictures.md.
    """
    from gridbot import render as pictures

    since = _command_started(ctx)
    kind = _picture_kind(output)
    if solve_it and (program_words or program_file is not None):
        raise click.UsageError("give PROGRAM or --solve, not both")
    if time_limit is not None and not solve_it:
        raise click.UsageError("--time-limit goes with --solve")
    has_program = solve_it or bool(program_words) or program_file is not None
    if step is not None and not has_program:
        raise click.UsageError("--step needs a program (PROGRAM, --program-file or --solve)")
    if step is not None and kind == "GIF":
        raise click.UsageError("--step draws one state: write it to a .svg or .png file, not a GIF")
    if frames is not None and kind != "GIF":
        raise click.UsageError("--frames goes with a .gif file")
    module = _game(game)
    pictures.drawing(module)  # GridbotError for a game not drawn yet, before anything is read
    text = _program_text(module, program_words, program_file, level_spec) if has_program and not solve_it else None
    level = _load(level_spec, module.NAME)
    name = _level_name(level, level_spec)
    program = None if text is None else module.parse_program(text)
    if solve_it:
        progress_on = _stdout_is_terminal() or (output == "-" and sys.stderr.isatty())
        with _progress_display(progress_on, f"solving {name}", stderr=output == "-") as progress:
            result = front.solve(level, time_limit=_time_left(time_limit, since), progress=progress)
        if result.solution is None:
            why = "it is unsolvable" if result.status == Status.UNSOLVABLE else "none found in the time allowed"
            click.echo(f"gridbot: no program to draw for {name}: {why}", err=True)
            raise click.exceptions.Exit(EXIT_FAILED)
        program = result.solution
    if kind == "GIF":
        data: str | bytes = pictures.gif(level, program, frames or pictures.MAX_FRAMES)
    elif kind == "PNG":
        data = pictures.png(level, program, step)
    else:
        data = pictures.svg(level, program, step)
    _write_picture(output, data)
    if output != "-":
        what = "the level" if program is None else f"{program}"
        what = what if len(what) <= 60 else what[:57] + "..."
        after = "" if step is None else f", after {plural(step, 'step')}"
        click.echo(f"{output}: {kind} of {name}, {what}{after}")


@cli.command(cls=_GameCommand, epilog=SHOW_EPILOG)
@click.argument("game")
@click.argument("level_spec", metavar="LEVEL")
def show(game: str, level_spec: str) -> None:
    """Print LEVEL's board: its name, size and title, then its text, coloured on a terminal.

    LEVEL is GAME:NAME (carrots:7), a bundled NAME (7), a level file or - (standard input).
    """
    from rich.console import Console

    from gridbot.render.terminal import board_text

    module = _game(game)
    level = _load(level_spec, module.NAME)
    name = _level_name(level, level_spec)
    dims, size = _size_info(level, games.optional(module, "SIZE"))
    stem = name.split(":", 1)[1] if name.startswith(f"{module.NAME}:") else None
    proof = levels.proof_time(module.NAME, stem) if stem is not None else None
    facts = [dims, size, f"proof {proof}" if proof is not None and proof.seconds is not None else str(proof or "")]
    click.echo("  ".join([name, *(fact for fact in facts if fact)]) + (f"  {_about(level)}" if _about(level) else ""))
    if not _stdout_is_terminal():
        click.echo(str(level))
        return
    Console(highlight=False).print(board_text(level, module.NAME), soft_wrap=True)


@cli.command(name="levels", epilog=LEVELS_EPILOG)
@click.argument("game", required=False)
@click.option("--search", metavar="TEXT", help="Only levels whose name, title or author contains TEXT (any case).")
def list_levels(game: str | None, search: str | None) -> None:
    """List bundled levels as GAME:NAME, of GAME or of every game, with size, title and author where known.

    A level whose proof of optimality took 30 s or more when measured is marked with that time (`proof ~11 min`),
    one the solver did not prove in the time measured with `no proof in 10 s`; unmarked levels are
    proven in seconds. The measurements: data/GAME/proofs.json in the package (where, when and how).
    """
    names = [_game(game).NAME] if game else list(games.GAMES)
    rows = []
    for game_name in names:
        noun = games.optional(games.get(game_name), "SIZE")
        for stem in levels.names(game_name):
            spec = f"{game_name}:{stem}"
            level = levels.load(spec)
            about = _about(level)
            if search and search.lower() not in f"{spec} {about}".lower():
                continue
            proof = levels.proof_time(game_name, stem)
            mark = "" if proof is None or not proof.slow else str(proof) if proof.seconds is None else f"proof {proof}"
            rows.append((spec, *_size_info(level, noun), mark, about))
    columns = 4 if any(row[3] for row in rows) else 3  # the proof column only when some level has a mark
    widths = [max((len(row[k]) for row in rows), default=0) + 2 for k in range(columns)]
    for row in rows:
        cells = "".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False))
        click.echo((cells + row[-1]).rstrip())


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


# ---------------------------------------------------------------- the web playground

WEB_EPILOG = (
    "Exit status: 1 the address cannot be used; 2 bad usage or FastAPI missing; 130 stopped by Ctrl-C; "
    "143 terminated (running solves are killed first in both cases)."
)


@cli.command(epilog=WEB_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (others can reach it!).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser once it is served.")
def web(host: str, port: int, open_browser: bool) -> None:
    """Serve the playground: a page to run, edit and solve levels, and its JSON API (see docs/playground.md)."""
    try:
        import uvicorn

        from gridbot.web.app import create_app
    except ImportError as exc:
        raise GridbotError(f"the playground needs FastAPI and uvicorn ({exc}): pip install 'gridbot[web]'") from None
    server = uvicorn.Server(uvicorn.Config(create_app(), host=host, port=port, log_level="info"))
    if open_browser:
        import threading
        import webbrowser

        def open_when_served() -> None:
            while not server.started and not server.should_exit:
                time.sleep(0.1)
            if server.started:
                webbrowser.open(f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/")

        threading.Thread(target=open_when_served, daemon=True).start()
    server.run()
    if not server.started:
        raise click.exceptions.Exit(EXIT_FAILED)


if __name__ == "__main__":
    main()
