"""`gridbot warmup [GAME...]`: compile the solvers' kernels for this machine ahead of the first solve."""

from __future__ import annotations

import click

from gridbot import games
from gridbot import solve as front
from gridbot.cli import display
from gridbot.solve import first_use

WARMUP_EPILOG = "Exit status: 0 the kernels are compiled; 2 unknown game or bad usage."


@click.command(name="warmup", epilog=WARMUP_EPILOG)
@click.argument("game_names", metavar="[GAME]...", nargs=-1)
@display.QUIET_OPTION
@click.pass_context
def warmup(ctx: click.Context, game_names: tuple[str, ...], quiet: bool = False) -> None:
    """Compile the solvers' kernels of each GAME (default: every game) for this machine, now.

    numba compiles a game's kernels the first time it is solved on a machine (3 to 15 s a game on 2 cores) and
    loads them from its cache after that. A first solve compiles them in a process of its own and waits no
    longer than its time limit; this command does it ahead, once after installing, so that no solve waits.
    Games whose solvers run no compiled kernel (Bender) have nothing to compile.
    """
    quiet = display.quiet(ctx, quiet)
    names = [games.get(name).NAME for name in game_names] or list(games.GAMES)
    for name in names:
        entry = front.solver(name)
        if not entry.warms_up:
            if not quiet:
                click.echo(f"{name}: nothing to compile")
            continue
        if first_use.is_compiled(name):
            if not quiet:
                click.echo(f"{name}: compiled already")
            continue
        if not quiet:
            click.echo(f"{name}: compiling (about {first_use.expected_seconds(name):.0f} s) ... ", nl=False)
        seconds = first_use.compile_here(name, entry.warm_up)
        if not quiet:
            click.echo(f"{seconds:.1f} s")
