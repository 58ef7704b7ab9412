"""`gridbot run GAME LEVEL PROGRAM`: run a program by the game's simulator and say how it ends (or trace it)."""

from __future__ import annotations

import click

from gridbot import games
from gridbot.cli import display, inputs
from gridbot.grid import plural

RUN_EPILOG = "Exit status: 0 the program ran, whatever its verdict; 2 bad input or usage; 130 interrupted."


@click.command(cls=display.GameCommand, epilog=RUN_EPILOG)
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
    module = games.get(game)
    optional = games.optional(module, "PROGRAM_OPTIONAL")
    if not program_words and program_file is None and not optional:
        raise click.UsageError("Missing argument 'PROGRAM...'.")
    given = bool(program_words) or program_file is not None
    text = inputs.program_text(module, program_words, program_file, level_spec)
    level = inputs.load(level_spec, module.NAME)
    program = module.parse_program(text)
    outcome = module.run(level, program)
    verdict = outcome.verdict
    name = inputs.level_name(level, level_spec)
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
        click.echo(display.dumps(data))
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
