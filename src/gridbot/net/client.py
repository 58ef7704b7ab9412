"""The Pellet Eater client: connects, solves every board the server sends, and collects the flag.

The client follows the protocol loosely enough for a server that words things
differently: any line `W H` (two numbers) starts a board of H rows; every other
line is a server message (shown to the user); the flag is the first message
that looks like `name{...}`. It answers each board with the solver's path, or
with an empty line if the solver finds none (the server then says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from gridbot.games import pellet
from gridbot.grid import GridbotError
from gridbot.solve.pellet import solve, warm_up

_BOARD_HEAD = re.compile(r"\s*([0-9]{1,7})\s+([0-9]{1,7})\s*")
FLAG = re.compile(r"[A-Za-z0-9_]*\{[^{}\s]+\}")
# the longest line the client accepts from a server
MAX_LINE = 1 << 20


@dataclass(frozen=True, slots=True)
class BoardReport:
    """One board: its number (1-based), size, pellets, what the solver said and how long it took."""

    number: int
    width: int
    height: int
    pellets: int
    status: str
    method: str
    seconds: float


@dataclass(frozen=True, slots=True)
class PlayResult:
    """A whole game: boards answered, the server's messages in order, and the flag if one came."""

    boards: tuple[BoardReport, ...]
    messages: tuple[str, ...]
    flag: str | None = None
    error: str = ""
    seconds: float = 0.0


class ProtocolError(GridbotError):
    """The server sent something the client cannot read as the protocol."""


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` (IPv6 as `[::1]:PORT`) as (host, port); raises GridbotError when malformed."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise GridbotError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)


async def play(
    host: str,
    port: int,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    timeout: float = 60.0,
    on_board: Callable[[BoardReport], None] | None = None,
    on_message: Callable[[str], None] | None = None,
) -> PlayResult:
    """Play a whole game against the server at host:port.

    `timeout` bounds every wait for the server (connect and each line);
    `time_limit` bounds each solve. Never raises for what the server does:
    problems end the game and are in PlayResult.error.
    """
    warm_up()  # the first board's clock is already running when it arrives
    start = time.monotonic()
    boards: list[BoardReport] = []
    messages: list[str] = []
    flag: str | None = None
    error = ""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=MAX_LINE), timeout)
    except (OSError, TimeoutError) as exc:
        return PlayResult((), (), None, f"cannot connect to {host}:{port}: {exc or 'timed out'}")

    async def line() -> str | None:
        raw = await asyncio.wait_for(reader.readline(), timeout)
        if not raw:
            return None
        return raw.decode("utf-8", errors="replace").rstrip("\r\n")

    try:
        while True:
            text = await line()
            if text is None:
                break
            head = _BOARD_HEAD.fullmatch(text)
            if head is None:
                messages.append(text)
                if on_message is not None:
                    on_message(text)
                found = FLAG.search(text)
                if found and flag is None:
                    flag = found.group(0)
                continue
            width, height = int(head.group(1)), int(head.group(2))
            rows = []
            for _ in range(height):
                row = await line()
                if row is None:
                    raise ProtocolError(f"the server closed in the middle of a {width} x {height} board")
                rows.append(row)
            level = pellet.Level.parse(f"{width} {height}\n" + "\n".join(rows), name=f"board {len(boards) + 1}")
            result = solve(level, time_limit=time_limit, seed=seed)
            answer = str(result.solution) if result.solution is not None else ""
            writer.write(answer.encode() + b"\n")
            await asyncio.wait_for(writer.drain(), timeout)
            report = BoardReport(
                len(boards) + 1,
                width,
                height,
                level.size,
                result.status,
                str(result.stats.get("method", "")),
                result.seconds,
            )
            boards.append(report)
            if on_board is not None:
                on_board(report)
    except TimeoutError:
        error = f"the server said nothing for {timeout:g} s"
    except (ConnectionError, OSError) as exc:
        error = f"connection lost: {exc}"
    except ValueError:
        error = f"the server sent a line longer than {MAX_LINE} bytes"
    except GridbotError as exc:
        error = f"unreadable board from the server: {exc}"
    finally:
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(writer.wait_closed(), 1)
    return PlayResult(tuple(boards), tuple(messages), flag, error, time.monotonic() - start)
