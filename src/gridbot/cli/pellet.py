"""`gridbot pellet serve | play`: the Pellet Eater game server, and a client that solves every board it sends."""

from __future__ import annotations

import sys
from typing import Any

import click

from gridbot.cli import display, inputs
from gridbot.errors import GridbotError
from gridbot.text import is_digits

PLAY_EPILOG = "Exit status: 0 a flag came; 1 no flag (the reason is on stderr); 2 bad usage; 130 interrupted."


SERVE_EPILOG = "Exit status: 0 stopped after --max-sessions; 2 bad usage or the address cannot be used; 130 stopped."


def _size_option(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if (
        not sep
        or not is_digits(width)
        or not is_digits(height)
        or not (1 <= int(width) <= 1000 and 1 <= int(height) <= 1000)
    ):
        raise click.BadParameter(f"expected WxH such as 40x30, got {text!r}")
    return int(width), int(height)


@click.group()
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
    type=inputs.SECONDS,
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
    type=inputs.SECONDS,
    default=None,
    metavar="S",
    help="Seconds the solver may spend per board (default: no limit).",
)
@click.option("--seed", type=int, default=0, show_default=True, metavar="N", help="Seed of the solver.")
@click.option(
    "--timeout",
    type=inputs.SECONDS,
    default=60.0,
    show_default=True,
    metavar="S",
    help="Give up when the server says nothing for S seconds.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the flag.")
@click.pass_context
def play(ctx: click.Context, address: str, time_limit: float | None, seed: int, timeout: float, quiet: bool) -> None:
    """Connect to a Pellet Eater server, solve every board it sends, and print the flag.

    Exit status 0 when a flag came, 1 otherwise (the reason is on stderr).
    """
    import asyncio

    from gridbot.net.client import parse_address
    from gridbot.net.client import play as run_client

    quiet = display.quiet(ctx, quiet)  # `gridbot -q pellet play` too

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
        raise click.exceptions.Exit(display.EXIT_FAILED)
    if not quiet:
        click.echo(f"{len(outcome.boards)} boards solved in {outcome.seconds:.2f} s")
    click.echo(outcome.flag)
