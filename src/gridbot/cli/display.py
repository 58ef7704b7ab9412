"""What every command shows, in one place: exit statuses, one-line errors, the games in help, JSON, and the
live status line and bar of a long solve (rich, on a terminal only).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from gridbot import __version__, games
from gridbot.cli import manual
from gridbot.errors import LevelError, ProgramError
from gridbot.grid import plural
from gridbot.result import Status

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM


def one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip()) or text


def wants_json(args: list[str]) -> bool:
    """Does a command line ask for JSON (`--json` before any `--`)? Its errors are then JSON too, even those found
    before its options are read."""
    return "--json" in (args[: args.index("--")] if "--" in args else args)


def report_error(kind: str, message: str, as_json: bool, exc: Exception | None = None) -> None:
    """Report an error on stderr: the line `gridbot: MESSAGE`, or under --json one object
    `{"error": {"kind", "message"[, "source", "line", "column"]}, "version"}` (docs/cli.md, "JSON output")."""
    if not as_json:
        click.echo(f"gridbot: {message}", err=True)
        return
    error: dict[str, Any] = {"kind": kind, "message": message}
    if isinstance(exc, LevelError):
        error.update(source=exc.source, line=exc.line or None, column=exc.column or None)
    elif isinstance(exc, ProgramError):
        error.update(line=1 if exc.column else None, column=exc.column or None)
    click.echo(dumps({"error": error}), err=True)


def fail(kind: str, message: str, status: int, as_json: bool, exc: Exception | None = None) -> NoReturn:
    """Report an error (see report_error) and exit with `status`."""
    report_error(kind, message, as_json, exc)
    raise click.exceptions.Exit(status)


def usage_error(exc: click.UsageError, as_json: bool = False) -> NoReturn:
    """Report a usage error in one line, as every other bad input is reported, and exit with status 2."""
    where = exc.ctx.command_path if exc.ctx is not None else "gridbot"
    message = one_line(exc.format_message()).rstrip(".")
    fail("usage", f"{message[:1].lower()}{message[1:]} (see '{where} --help')", EXIT_BAD_INPUT, as_json)


QUIET_OPTION = click.option(
    "-q", "--quiet", is_flag=True, help='Print only the result\'s essential line(s); see docs/cli.md, "Quiet".'
)


def quiet(ctx: click.Context, flag: bool) -> bool:
    """Is the command quiet: its own -q, or the group's (`gridbot -q solve ...`)?"""
    return flag or bool((ctx.find_root().obj or {}).get("quiet"))


def no_quiet_json(quiet: bool, as_json: bool) -> None:
    if quiet and as_json:
        raise click.UsageError("--quiet and --json cannot be combined (JSON is for programs, --quiet for people)")


def format_games(formatter: click.HelpFormatter) -> None:
    """The Games section of help: each game's name and its one line (the game module's SUMMARY)."""
    rows = [(name, games.get(name).SUMMARY) for name in games.GAMES]
    with formatter.section("Games (a solution: what it must do; what its length counts)"):
        formatter.write_dl(rows)
        formatter.write_paragraph()
        formatter.write_text(manual.pointers("Rules, notation and examples: docs/GAME.md, e.g. docs/carrots.md."))


class GameCommand(click.Command):
    """A command about one GAME: its help lists the games."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        format_games(formatter)


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


def dumps(data: dict[str, Any]) -> str:
    """One JSON object on one line, with gridbot's version (every object the command line prints carries it)."""
    return json.dumps({**data, "version": __version__}, default=_json_default)


class SolveStatus:
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
            searching = f"length {self.length} for {clock_text(now - self.length_since)}"
            if self.previous is not None:
                searching += f" ({self.previous[0]} took {self.previous[1]:.1f} s)"
            parts.append(searching)
        else:
            parts.append(str(self.info.get("phase") or "starting"))
        if "candidates" in self.info:
            count = int(self.info["candidates"])
            parts.append(f"{short_count(count)} candidate{'' if count == 1 else 's'}")
        parts.append(clock_text(now - self.start))
        return f"{self.label}: " + ", ".join(parts)

    def __rich__(self) -> Any:
        from rich.text import Text

        self.spinner.update(text=Text(self.line(), no_wrap=True, overflow="ellipsis"))
        return self.spinner


def short_count(n: int) -> str:
    """`9,999`, `631 k`, `2.6 M`, `7.5 G`: a count read at a glance."""
    if n < 10_000:
        return f"{n:,}"
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= size:
            value = n / size
            return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{n:,}"  # pragma: no cover (n >= 10,000 always has a unit)


def clock_text(seconds: float) -> str:
    """`7 s`, `3:05`, `1:02:09`: a time a person reads at a glance."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


@contextmanager
def progress_display(enabled: bool, label: str, stderr: bool = False) -> Iterator[Callable[[dict], None] | None]:
    """A rich live line fed by the solver's progress callback and refreshed every quarter second on its own (see
    SolveStatus), or nothing."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.live import Live

    status = SolveStatus(label)
    with Live(status, console=Console(stderr=stderr), refresh_per_second=4, transient=True):
        yield status.update


def notices(info: dict[str, Any]) -> None:
    """A progress callback for output that is not a terminal: only a solver's notices (what a first solve waits
    for: gridbot.solve.first_use), one line each on stderr."""
    if "notice" in info:
        click.echo(f"gridbot: {info['notice']}", err=True)


@contextmanager
def levels_bar(enabled: bool, total: int) -> Iterator[Callable[[Any], None]]:
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


def size_info(level: Any, noun: str | None = None) -> tuple[str, str]:
    """("WIDTHxHEIGHT", "size N" or "N nouns") of a level, each empty when the level does not say."""
    rows = getattr(level, "rows", None)
    dims = f"{max(len(r) for r in rows)}x{len(rows)}" if rows else ""
    size = getattr(level, "size", None)
    if not isinstance(size, int):
        return dims, ""
    return dims, plural(size, noun) if noun else f"size {size}"


def about(level: Any) -> str:
    """A level's title and author, `"Title" by author`, or '' when it has neither."""
    title, author = getattr(level, "title", ""), getattr(level, "author", "")
    return (f'"{title}"' if title else "") + (f" by {author}" if author else "")


class GenerateStatus:
    """The line of `gridbot generate` at work: `generating carrots par 8: 3 of 10 made, 57 tried, 1.4 a second,
    0:41`, from the generator's progress reports (keys `made`, `count`, `tried`), its clock ticking on its own."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        from rich.spinner import Spinner

        self.label = label
        self.clock = clock
        self.start = clock()
        self.info: dict[str, Any] = {}
        self.spinner = Spinner("dots")

    def update(self, info: dict[str, Any]) -> None:
        """Take a report of the generator's progress callback."""
        self.info = dict(info)

    def line(self) -> str:
        seconds = self.clock() - self.start
        made, count, tried = (int(self.info.get(key, 0)) for key in ("made", "count", "tried"))
        parts = [f"{made} of {count} made" if count else "starting", f"{short_count(tried)} tried"]
        if tried and seconds > 0:
            parts.append(f"{tried / seconds:.1f} a second")
        parts.append(clock_text(seconds))
        return f"{self.label}: " + ", ".join(parts)

    def __rich__(self) -> Any:
        from rich.text import Text

        self.spinner.update(text=Text(self.line(), no_wrap=True, overflow="ellipsis"))
        return self.spinner


@contextmanager
def generate_display(enabled: bool, label: str) -> Iterator[Callable[[dict], None] | None]:
    """A rich live line on stderr fed by the generator's progress callback (see GenerateStatus), or nothing."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.live import Live

    status = GenerateStatus(label)
    with Live(status, console=Console(stderr=True), refresh_per_second=4, transient=True):
        yield status.update
