"""`gridbot render GAME LEVEL [PROGRAM] -o FILE`: the level, or a run on it, as SVG, PNG or an animated GIF."""

from __future__ import annotations

import os
import sys

import click

from gridbot import games
from gridbot import solve as front
from gridbot.cli import display, inputs
from gridbot.errors import GridbotError
from gridbot.grid import plural
from gridbot.result import Status

RENDER_EPILOG = (
    "Exit status: 0 the picture was written; 1 --solve found no program in time, or the level has none; "
    "2 bad input or usage (an unknown extension, a game not drawn yet); 130 interrupted."
)


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


@click.command(cls=display.GameCommand, epilog=RENDER_EPILOG)
@click.argument("words", metavar="[GAME] LEVEL [PROGRAM]", nargs=-1, shell_complete=inputs.level_completer(1))
@inputs.GAME_OPTION
@click.option("-o", "--output", required=True, metavar="FILE", help="FILE.svg, .png or .gif; - : SVG on stdout.")
@click.option("--program-file", metavar="FILE", help="Read the program from FILE (- for standard input).")
@click.option("--solve", "solve_it", is_flag=True, help="Draw the solver's answer instead of a given program.")
@click.option("--time-limit", type=inputs.SECONDS, default=None, metavar="S", help="With --solve: seconds allowed.")
@click.option("--step", type=click.IntRange(min=0), default=None, metavar="N", help="The state after N steps.")
@click.option(
    "--frames",
    type=click.IntRange(1, MAX_GIF_FRAMES),
    default=None,
    metavar="N",
    help="GIF: at most N frames (a longer run is sampled evenly; default 150).",
)
@display.QUIET_OPTION
@click.pass_context
def render(
    ctx: click.Context,
    words: tuple[str, ...],
    game_option: str | None,
    output: str,
    program_file: str | None,
    solve_it: bool,
    time_limit: float | None,
    step: int | None,
    frames: int | None,
    quiet: bool = False,
) -> None:
    """Draw LEVEL, or the run of PROGRAM on it, as an SVG, PNG or animated GIF.

    Without a program: the level. With PROGRAM (or --program-file, or --solve):
    the path it takes and the state it ends in, or with --step N the state after
    N steps. A GIF animates the whole run, its last frame held. The file's
    extension chooses the kind: gridbot render carrots:12 'LOOP{F R}' -o run.gif

    LEVEL is GAME:NAME (carrots:7); a bundled NAME (7), a level file or - (standard
    input) with GAME before it or --game. --quiet: no line to say what was written. More: docs/pictures.md.
    """
    from gridbot import render as pictures

    since = inputs.command_started(ctx)
    game, (level_spec, *rest) = inputs.split_game(words, game_option, leading=1)
    program_words = tuple(rest)
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
    module = games.get(game)
    pictures.drawing(module)  # GridbotError for a game not drawn yet, before anything is read
    text = (
        inputs.program_text(module, program_words, program_file, level_spec) if has_program and not solve_it else None
    )
    level = inputs.load(level_spec, module.NAME)
    name = inputs.level_name(level, level_spec)
    program = None if text is None else module.parse_program(text)
    if solve_it:
        progress_on = display.stdout_is_terminal() or (output == "-" and sys.stderr.isatty())
        with display.progress_display(progress_on, f"solving {name}", stderr=output == "-") as progress:
            result = front.solve(level, time_limit=inputs.time_left(time_limit, since), progress=progress)
        if result.solution is None:
            why = "it is unsolvable" if result.status == Status.UNSOLVABLE else "none found in the time allowed"
            click.echo(f"gridbot: no program to draw for {name}: {why}", err=True)
            raise click.exceptions.Exit(display.EXIT_FAILED)
        program = result.solution
    if kind == "GIF":
        data: str | bytes = pictures.gif(level, program, frames or pictures.MAX_FRAMES)
    elif kind == "PNG":
        data = pictures.png(level, program, step)
    else:
        data = pictures.svg(level, program, step)
    _write_picture(output, data)
    if output != "-" and not display.quiet(ctx, quiet):
        what = "the level" if program is None else f"{program}"
        what = what if len(what) <= 60 else what[:57] + "..."
        after = "" if step is None else f", after {plural(step, 'step')}"
        click.echo(f"{output}: {kind} of {name}, {what}{after}")
