"""`gridbot generate GAME --par N`: levels made to order through gridbot.generate (gridbot.generate.order), each
written as a level file (or printed) once its par is proven on the level read back from its text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gridbot import generate as front
from gridbot.cli import display, inputs, interrupts
from gridbot.errors import GridbotError
from gridbot.grid import plural
from gridbot.text import is_digits

GENERATE_EPILOG = (
    "Exit status: 0 levels made (all of them, or some when the time limit came first); 1 none made in time; "
    "2 bad input or usage (a par or size no level can have); 130 interrupted."
)


class Size(click.ParamType):
    """`WxH`: two whole numbers of 1 or more."""

    name = "size"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        width, x, height = str(value).lower().partition("x")
        if not (x and is_digits(width) and is_digits(height) and int(width) >= 1 and int(height) >= 1):
            self.fail(f"{value!r} is not a size WxH such as 8x8", param, ctx)
        return int(width), int(height)


@click.command(name="generate", cls=display.GameCommand, epilog=GENERATE_EPILOG)
@click.argument("game", shell_complete=inputs.complete_game)
@click.option("--par", type=int, default=None, metavar="N", help="The proven optimum of every level (pellet: moves).")
@click.option("--size", type=Size(), default=None, metavar="WxH", help="The board's width and height.")
@click.option("--unique", is_flag=True, help="Exactly one optimal solution by behaviour (pellet: one path).")
@click.option("--none", "no_path", is_flag=True, help="Pellet: boards with no path at all.")
@click.option("--torches", type=int, default=None, metavar="K", help="Torch cave: every path needs K torches or more.")
@click.option("--seed", type=int, default=0, show_default=True, metavar="S", help="The same seed, the same levels.")
@click.option("-n", "count", type=click.IntRange(min=1), default=1, show_default=True, metavar="COUNT",
              help="How many levels.")  # fmt: skip
@click.option("-o", "directory", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write each level to DIR/NAME.txt (default: print them).")  # fmt: skip
@click.option("--time-limit", type=inputs.SECONDS, default=None, metavar="S",
              help="Stop after S seconds with the levels made so far.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per level.")
@display.QUIET_OPTION
@click.pass_context
def generate(
    ctx: click.Context,
    game: str,
    par: int | None,
    size: tuple[int, int] | None,
    unique: bool,
    no_path: bool,
    torches: int | None,
    seed: int,
    count: int,
    directory: str | None,
    time_limit: float | None,
    as_json: bool,
    quiet: bool = False,
) -> None:
    """Make COUNT levels of GAME whose proven optimum is exactly --par N.

    Carrots, Light-Bot and RoboZZle are made to a par (tokens, commands, slots); Pellet to a size, with --unique
    (exactly one Hamiltonian path from S) or --none (no path), and --par for the path's moves; the torch cave to
    --par (steps) or --torches K (every path to the treasure needs K torches or more). Each level is checked by
    reading its text back and solving it again before it is written; the same options and --seed give the same
    levels. Files are named GAME-par8-seed0-1.txt and so on, written as they are made.

    --quiet prints only the files written (or, without -o, the levels).
    """
    quiet = display.quiet(ctx, quiet)
    display.no_quiet_json(quiet, as_json)
    since = inputs.command_started(ctx)
    from gridbot.generate import order as orders

    order = orders.make_order(game, par, size=size, unique=unique, none=no_path, torches=torches, seed=seed)
    folder = None if directory is None else Path(directory)
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GridbotError(f"cannot make the folder {directory}: {exc.strerror or exc}") from None
    label = f"generating {order.game}" + ("" if order.par is None else f" par {order.par}")
    show = not as_json and not quiet and display.stdout_is_terminal()
    output = "json" if as_json else "quiet" if quiet else "text"

    with interrupts.stop_on_interrupt() as stop, display.generate_display(show, label) as (progress, echo):

        def made(level: Any) -> None:
            path = None if folder is None else _write(folder, level)
            _print(level, path, output, echo)

        limit = inputs.time_left(time_limit, since)
        made_levels = front(
            order.game, order.par, size=(order.width, order.height), unique=unique, none=no_path, torches=torches,
            seed=seed, count=count, time_limit=limit, progress=progress, on_level=made, stop=stop.event,
        )  # fmt: skip
    if stop.requested:
        if not as_json and not quiet:
            click.echo(f"gridbot: interrupted: {plural(len(made_levels), 'level')} of {count} made", err=True)
        raise click.exceptions.Exit(display.EXIT_INTERRUPTED)
    if len(made_levels) < count:
        if not as_json and not quiet:
            click.echo(f"gridbot: time limit: {plural(len(made_levels), 'level')} of {count} made", err=True)
        if not made_levels:
            raise click.exceptions.Exit(display.EXIT_FAILED)


def _write(folder: Path, made: Any) -> Path:
    """Write a made level to FOLDER/NAME.txt (its text, with a final newline); GridbotError if it cannot."""
    path = folder / f"{made.level.name}.txt"
    try:
        path.write_text(str(made.level) + "\n", encoding="utf-8")
    except OSError as exc:
        raise GridbotError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def _print(made: Any, path: Path | None, output: str, echo: Any = click.echo) -> None:
    """One made level as `output` asks, by `echo`: "json" (one object), "quiet" (its file, or its text) or
    "text"."""
    analysis = made.analysis
    if output == "json":
        data = {"game": analysis.game, "name": made.level.name, "file": None if path is None else str(path),
                "level": str(made.level), "tried": made.tried, "analysis": analysis.to_json()}  # fmt: skip
        echo(display.dumps(data))
        return
    if output == "quiet":
        echo(str(path) if path is not None else f"{made.level}\n")
        return
    facts = f"{analysis.status} (proven)" if analysis.par is None else f"par {analysis.par} (proven)"
    if analysis.par is not None and analysis.examples:
        facts += f", e.g. {analysis.examples[0]}"
    head = f"{path if path is not None else made.level.name}: {facts}; candidate {made.tried}"
    echo(head if path is not None else f"{head}\n{made.level}\n")
