"""`gridbot levels [GAME]`: the bundled levels, with their sizes, titles and slow proofs."""

from __future__ import annotations

from typing import Any

import click

from gridbot import games, levels
from gridbot.cli import display, inputs

LEVELS_EPILOG = "Exit status: 0 the levels were listed; 2 unknown game or bad usage."


@click.command(name="levels", epilog=LEVELS_EPILOG)
@click.argument("game", required=False, shell_complete=inputs.complete_game)
@click.option("--search", metavar="TEXT", help="Only levels whose name, title or author contains TEXT (any case).")
@click.option(
    "--set",
    "level_set",
    metavar="NAME",
    default=levels.MAIN,
    show_default=True,
    help="The level set to list, for a game with more than one (RoboZZle: `later`, the site's later puzzles).",
)
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one object per level (docs/cli.md, JSON output).")
@display.QUIET_OPTION
@click.pass_context
def list_levels(
    ctx: click.Context, game: str | None, search: str | None, level_set: str, as_json: bool, quiet: bool
) -> None:
    """List bundled levels as GAME:NAME, of GAME or of every game, with size, title and author where known.

    A level whose proof of optimality took 30 s or more when measured is marked with that time (`proof ~11 min`),
    one the solver did not prove in the time measured with `no proof in 10 s`; unmarked levels are
    proven in seconds. The measurements: data/GAME/proofs.json in the package (where, when and how).

    A game may bundle more than one set: `--set` lists another (`gridbot levels robozzle --set later`); a level of
    any set is named GAME:NAME all the same. With --quiet, only the GAME:NAME of each level, one a line.
    """
    quiet = display.quiet(ctx, quiet)
    display.no_quiet_json(quiet, as_json)
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
            if as_json or quiet:
                click.echo(display.dumps(_level_json(game_name, stem, level_set, level, proof)) if as_json else spec)
                continue
            mark = "" if proof is None or not proof.slow else str(proof) if proof.seconds is None else f"proof {proof}"
            rows.append((spec, *display.size_info(level, noun), mark, about))
    columns = 4 if any(row[3] for row in rows) else 3  # the proof column only when some level has a mark
    widths = [max((len(row[k]) for row in rows), default=0) + 2 for k in range(columns)]
    for row in rows:
        cells = "".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False))
        click.echo((cells + row[-1]).rstrip())
    if game and not search and not quiet:  # one game listed whole: say where its other sets are
        for name in levels.level_sets(names[0]):
            if name != level_set:
                count = len(levels.names(names[0], name))
                where = f"gridbot levels {names[0]} --set {name}"
                click.echo(f"{names[0]} has {count} more levels in set {name!r}: {where}", err=True)


def _level_json(game: str, stem: str, level_set: str, level: Any, proof: levels.ProofTime | None) -> dict[str, Any]:
    """One level of `levels --json`: its spec, game, name, set, board size, size, title, author and the measured
    proof (None when none was recorded; seconds None when it was not proven within limit seconds)."""
    dims, _ = display.size_info(level)
    width, _, height = dims.partition("x")
    size = getattr(level, "size", None)
    return {
        "spec": f"{game}:{stem}",
        "game": game,
        "name": stem,
        "set": level_set,
        "width": int(width) if width else None,
        "height": int(height) if height else None,
        "size": size if isinstance(size, int) else None,
        "title": getattr(level, "title", "") or None,
        "author": getattr(level, "author", "") or None,
        "proof": None if proof is None else {"seconds": proof.seconds, "limit": proof.limit},
    }
