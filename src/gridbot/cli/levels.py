"""`gridbot levels [GAME]`: the bundled levels, with their sizes, titles and slow proofs."""

from __future__ import annotations

import click

from gridbot import games, levels
from gridbot.cli import display

LEVELS_EPILOG = "Exit status: 0 the levels were listed; 2 unknown game or bad usage."


@click.command(name="levels", epilog=LEVELS_EPILOG)
@click.argument("game", required=False)
@click.option("--search", metavar="TEXT", help="Only levels whose name, title or author contains TEXT (any case).")
@click.option(
    "--set",
    "level_set",
    metavar="NAME",
    default=levels.MAIN,
    show_default=True,
    help="The level set to list, for a game with more than one (RoboZZle: `later`, the site's later puzzles).",
)
def list_levels(game: str | None, search: str | None, level_set: str) -> None:
    """List bundled levels as GAME:NAME, of GAME or of every game, with size, title and author where known.

    A level whose proof of optimality took 30 s or more when measured is marked with that time (`proof ~11 min`),
    one the solver did not prove in the time measured with `no proof in 10 s`; unmarked levels are
    proven in seconds. The measurements: data/GAME/proofs.json in the package (where, when and how).

    A game may bundle more than one set: `--set` lists another (`gridbot levels robozzle --set later`); a level of
    any set is named GAME:NAME all the same.
    """
    names = [games.get(game).NAME] if game else list(games.GAMES)
    rows = []
    for game_name in names:
        noun = games.optional(games.get(game_name), "SIZE")
        if level_set != levels.MAIN and level_set not in levels.level_sets(game_name):
            if game:
                raise click.UsageError(f"{game_name} has no level set {level_set!r} "
                                       f"(its sets: {', '.join(levels.level_sets(game_name))})")  # fmt: skip
            continue
        for stem in levels.names(game_name, level_set):
            spec = f"{game_name}:{stem}"
            level = levels.load(spec)
            about = display.about(level)
            if search and search.lower() not in f"{spec} {about}".lower():
                continue
            proof = levels.proof_time(game_name, stem)
            mark = "" if proof is None or not proof.slow else str(proof) if proof.seconds is None else f"proof {proof}"
            rows.append((spec, *display.size_info(level, noun), mark, about))
    columns = 4 if any(row[3] for row in rows) else 3  # the proof column only when some level has a mark
    widths = [max((len(row[k]) for row in rows), default=0) + 2 for k in range(columns)]
    for row in rows:
        cells = "".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False))
        click.echo((cells + row[-1]).rstrip())
    for game_name in names:
        others = [name for name in levels.level_sets(game_name) if name != level_set]
        more = [(name, len(levels.names(game_name, name))) for name in others]
        for name, count in more if game and not search else ():
            click.echo(f"{game_name} has {count} more levels in set {name!r}: gridbot levels {game_name} --set {name}",
                       err=True)  # fmt: skip
