"""The `gridbot` command line: a thin layer over the API (gridbot.solve, gridbot.render, the game modules), one
module a command (solve, run, render, show, levels, web, pellet), the shared display and inputs beside them.

Commands (GAME is a name from gridbot.games.GAMES, e.g. `carrots`; a GAME:NAME level names its own, so GAME is
needed only before a level file, `-` or a bare name, or as --game GAME):

    gridbot [-q] solve [GAME] LEVEL... [--time-limit S] [--all] [--json] [--jobs N | --scheduler ADDRESS]
                  [--unordered] [--checkpoint FILE] [-q]
    gridbot analyze GAME [LEVEL...] [--time-limit S] [--cap N] [--json] [--jobs N] [-q]
    gridbot run [GAME] LEVEL [PROGRAM] [--program-file FILE] [--trace] [--limit N] [--json] [--check] [-q]
    gridbot run [GAME] --pairs FILE [--json] [-q]
    gridbot render [GAME] LEVEL [PROGRAM] [--program-file FILE] [--solve] [--time-limit S] [--step N]
                   [--frames N] -o FILE.svg|FILE.png|FILE.gif|- [-q]
    gridbot show [GAME] LEVEL [-q]
    gridbot levels [GAME] [--search TEXT] [--set NAME] [--json] [-q]
    gridbot web [--host H] [--port P] [--open] [-q]
    gridbot generate GAME [--par N] [--size WxH] [--unique] [--none] [--torches K] [--seed S] [-n COUNT] [-o DIR]
                     [--time-limit S] [--json] [-q]
    gridbot pellet serve [--host H] [--port P] [--rounds N] [--time-limit S] [--seed N]
    gridbot pellet play HOST:PORT

A LEVEL is a bundled level `GAME:NAME` (`carrots:7`), a bare bundled name
(`7`, when no file of that name exists), the path of a level file, or `-`
(standard input). A PROGRAM `-` (or `--program-file -`) is read from standard
input, `--program-file FILE` from a file, both capped (levels.read_program).
Under --json every error is one JSON object on stderr (display.fail); every JSON object carries the version.

Exit status:
    0   success: `solve` solved every level or proved it unsolvable; `run` ran
        the program (with --check or --pairs: it completed every level);
        `levels` listed the levels; `render` wrote its picture; `show` showed the board
    1   `solve` found no solution within the time limit for some level, or an
        answer failed the simulator's re-check (a bug; nothing is printed for it);
        `render --solve` found no program to draw; `run --check` or `--pairs`:
        some program did not complete its level
    2   bad input or usage: unknown game or level, unreadable or malformed level
        file, malformed program, bad option; one line on stderr, no traceback
    130 interrupted (Ctrl-C); `solve` first prints the best it found, as at a time limit (cli.interrupts)

Every answer `solve` prints has been re-run by the game's simulator first and
must complete its level.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import sys
import time
from typing import Any, NoReturn

import click

from gridbot import __version__
from gridbot.cli import analyze, display, generate, levels, manual, pellet, render, run, show, solve, warmup, web
from gridbot.errors import GridbotError, LevelError, ProgramError, WrongAnswer

EPILOG = (
    "Exit status: 0 success; 1 a solve found no solution in time or an answer failed its re-check; "
    "2 bad input or usage; 130 interrupted; 143 terminated."
)


class _Group(click.Group):
    """A command group that turns gridbot's own errors and usage errors into one line and status 2 (an answer that
    failed its re-check, a solver's bug: status 1); its help lists the games."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        display.format_games(formatter)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        as_json = display.wants_json(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            display.usage_error(exc, as_json)
        ctx.meta["json_errors"] = as_json
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        as_json = ctx.meta.get("json_errors", False)
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            display.usage_error(exc, as_json)
        except WrongAnswer as exc:  # a solver's answer the simulator rejects: a bug, not bad input
            display.fail("recheck", f"re-check failed: {exc}", display.EXIT_FAILED, as_json, exc)
        except GridbotError as exc:
            kind = "level" if isinstance(exc, LevelError) else "program" if isinstance(exc, ProgramError) else "input"
            display.fail(kind, display.one_line(str(exc)), display.EXIT_BAD_INPUT, as_json, exc)
        except KeyboardInterrupt:
            ctx.exit(display.EXIT_INTERRUPTED)
        except BrokenPipeError:
            _quiet_broken_pipe()
            ctx.exit(display.EXIT_FAILED)


def _quiet_broken_pipe() -> None:
    """Stop Python from complaining again about a closed stdout when it exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.version_option(__version__, prog_name="gridbot")
@click.option("-q", "--quiet", is_flag=True, help="Every command quiet: only its result's essential line(s).")
@click.pass_context
def cli(ctx: click.Context, quiet: bool) -> None:
    """Simulate and solve grid-robot puzzles, with proofs of optimality."""
    ctx.ensure_object(dict)["quiet"] = quiet


def _terminated(signum: int, frame: Any) -> NoReturn:
    """SIGTERM: leave through every `with` block (worker processes are stopped there), then exit 143."""
    raise SystemExit(display.EXIT_TERMINATED)


def _signal_status(error: SystemError) -> int | None:
    """The exit status a signal asked for, when `error` only wraps it; None for any other SystemError.

    SIGTERM's SystemExit (_terminated) or a second Ctrl-C's KeyboardInterrupt raised while a compiled kernel is
    called or returns comes out as a SystemError caused by it ("returned a result with an exception set"), after
    every `with` block was left; numba's unpickling wraps it once per level of its calls.
    """
    cause: BaseException | None = error
    while isinstance(cause, SystemError):
        cause = cause.__cause__ or cause.__context__
    if isinstance(cause, KeyboardInterrupt):
        return display.EXIT_INTERRUPTED
    if isinstance(cause, SystemExit) and cause.code == display.EXIT_TERMINATED:
        return display.EXIT_TERMINATED
    return None


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
        sys.exit(display.EXIT_INTERRUPTED)
    except SystemError as error:
        status = _signal_status(error)
        if status is None:
            raise
        sys.exit(status)
    raise AssertionError("click returns only through SystemExit")  # pragma: no cover


for command in (
    solve.solve,
    analyze.analyze,
    run.run,
    render.render,
    show.show,
    levels.list_levels,
    generate.generate,
    warmup.warmup,
    web.web,
    pellet.pellet,
):
    cli.add_command(command)
manual.point_help(cli)  # the help's docs/PAGE.md pointers name the pages where they are installed

__all__ = ["cli", "main"]
