"""A playground server on a free loopback port, in a thread of the test process, for the web tests."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

from gridbot.web.app import create_app


@contextlib.contextmanager
def serve(**caps: Any) -> Iterator[tuple[str, Any]]:
    """(base URL, app) of a running server with the given caps; stopped (and its solves killed) on leaving."""
    app = create_app(**caps)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="playground", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the playground server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)
