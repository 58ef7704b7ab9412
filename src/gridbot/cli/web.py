"""`gridbot web`: serve the playground (gridbot.web; needs the `web` extra)."""

from __future__ import annotations

import time

import click

from gridbot.cli import display
from gridbot.errors import GridbotError

WEB_EPILOG = (
    "Exit status: 1 the address cannot be used; 2 bad usage or FastAPI missing; 130 stopped by Ctrl-C; "
    "143 terminated (running solves are killed first in both cases)."
)


@click.command(epilog=WEB_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (others can reach it!).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser once it is served.")
@display.QUIET_OPTION
@click.pass_context
def web(ctx: click.Context, host: str, port: int, open_browser: bool, quiet: bool) -> None:
    """Serve the playground: a page to run, edit and solve levels, and its JSON API (see docs/playground.md).

    --quiet logs only warnings and errors, not every request.
    """
    try:
        import uvicorn

        from gridbot.web.app import create_app
    except ImportError as exc:
        raise GridbotError(f"the playground needs FastAPI and uvicorn ({exc}): pip install 'gridbot[web]'") from None
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host=host, port=port, log_level="warning" if display.quiet(ctx, quiet) else "info")
    )
    if open_browser:
        import threading
        import webbrowser

        def open_when_served() -> None:
            while not server.started and not server.should_exit:
                time.sleep(0.1)
            if server.started:
                webbrowser.open(f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/")

        threading.Thread(target=open_when_served, daemon=True).start()
    server.run()
    if not server.started:
        raise click.exceptions.Exit(display.EXIT_FAILED)
