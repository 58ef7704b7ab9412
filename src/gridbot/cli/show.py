"""`gridbot show GAME LEVEL`: the board in the terminal, with its size, title and proof time."""

from __future__ import annotations

import click

from gridbot import games, levels
from gridbot.cli import display, inputs

SHOW_EPILOG = "Exit status: 0 the board was shown; 2 bad input or usage."


@click.command(cls=display.GameCommand, epilog=SHOW_EPILOG)
@click.argument("words", metavar="[GAME] LEVEL", nargs=-1, shell_complete=inputs.level_completer(1))
@inputs.GAME_OPTION
@display.QUIET_OPTION
@click.pass_context
def show(ctx: click.Context, words: tuple[str, ...], game_option: str | None, quiet: bool) -> None:
    """Print LEVEL's board: its name, size and title, then its text, coloured on a terminal.

    LEVEL is GAME:NAME (carrots:7); a bundled NAME (7), a level file or - (standard input) with GAME before it
    or --game. --quiet prints the board alone.
    """
    from rich.console import Console

    from gridbot.render.terminal import board_text

    game, (level_spec, *extra) = inputs.split_game(words, game_option)
    if extra:
        raise click.UsageError(f"one level at a time: got {' '.join(extra)!r} after {level_spec!r}")
    module = games.get(game)
    level = inputs.load(level_spec, module.NAME)
    name = inputs.level_name(level, level_spec)
    dims, size = display.size_info(level, games.optional(module, "SIZE"))
    stem = name.split(":", 1)[1] if name.startswith(f"{module.NAME}:") else None
    proof = levels.proof_time(module.NAME, stem) if stem is not None else None
    facts = [dims, size, f"proof {proof}" if proof is not None and proof.seconds is not None else str(proof or "")]
    if not display.quiet(ctx, quiet):
        click.echo(
            "  ".join([name, *(fact for fact in facts if fact)])
            + (f"  {display.about(level)}" if display.about(level) else "")
        )
    if not display.stdout_is_terminal():
        click.echo(str(level))
        return
    Console(highlight=False).print(board_text(level, module.NAME), soft_wrap=True)
