"""The Pellet Eater client: connects, solves every board the server sends, and collects the flag.

The client follows the protocol loosely enough for a server that words things
differently: any line `W H` (two numbers) starts a board of H rows; every other
line is a server message (shown to the user); the flag is the first message
that looks like `name{...}`. It answers each board with the solver's path, or
with an empty line if the solver finds none (the server then says why).

It trusts nothing the server sends: lines, boards, messages and the whole
session are capped (see `play`), and whatever a server does ends the game
with PlayResult.error, never an exception or unbounded memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from gridbot.deadline import check_time_limit
from gridbot.errors import GridbotError
from gridbot.games import pellet
from gridbot.solve.pellet import solve, warm_up
from gridbot.text import is_digits

_BOARD_HEAD = re.compile(r"\s*([0-9]{1,7})\s+([0-9]{1,7})\s*")
FLAG = re.compile(r"[A-Za-z0-9_]*\{[^{}\s]+\}")
# The client trusts nothing a server sends; every amount it keeps is capped (issue 15: a header `1 9999999`
# followed by long rows once made it buffer 4.8 GB):
# the longest line read (a board row is at most MAX_SIDE characters; messages are short); the stream reader
# holds at most about twice this
MAX_LINE = 64 * 1024
# messages kept in PlayResult.messages: the first and the last this many (the ones between are counted)
KEEP_MESSAGES = 100
# characters of one message kept (and shown); the flag is looked for in the whole line
MAX_MESSAGE = 4096
# default caps of a whole session: bytes received and boards answered
MAX_SESSION_BYTES = 256 * 2**20
MAX_BOARDS = 10_000


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
    """A whole game: boards answered, the server's messages, and the flag if one came.

    `messages` holds the first and the last KEEP_MESSAGES messages in order (each cut to MAX_MESSAGE
    characters); `messages_dropped` counts the ones between that were not kept.
    """

    boards: tuple[BoardReport, ...]
    messages: tuple[str, ...]
    flag: str | None = None
    error: str = ""
    seconds: float = 0.0
    messages_dropped: int = 0


class ProtocolError(GridbotError):
    """The server sent something the client cannot read as the protocol, or more than the client accepts."""


class _Messages:
    """The first and the last `keep` messages, and a count of those in between: O(keep) memory."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.first: list[str] = []
        self.last: deque[str] = deque(maxlen=keep)
        self.dropped = 0

    def add(self, text: str) -> None:
        if len(self.first) < self.keep:
            self.first.append(text)
            return
        if len(self.last) == self.keep:
            self.dropped += 1
        self.last.append(text)

    def kept(self) -> tuple[str, ...]:
        return (*self.first, *self.last)


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` (IPv6 as `[::1]:PORT`) as (host, port); raises GridbotError when malformed."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not is_digits(port) or not 0 < int(port) < 65536:
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
    max_bytes: int = MAX_SESSION_BYTES,
    max_boards: int = MAX_BOARDS,
) -> PlayResult:
    """Play a whole game against the server at host:port.

    `timeout` bounds every wait for the server (connect, each line, each
    answer written); `time_limit` bounds each solve. Never raises for what the
    server does: problems end the game and are in PlayResult.error. What a
    server can make the client hold is bounded: a line of MAX_LINE bytes, a
    board of the format's size (sides announced beyond MAX_SIDE, or rows longer
    than the announced width, end the game before the rows are read), the
    first and last KEEP_MESSAGES messages, and at most `max_bytes` received and
    `max_boards` boards per session. Raises ValueError for a bad time limit.
    """
    check_time_limit(time_limit)
    warm_up()  # the first board's clock is already running when it arrives
    start = time.monotonic()
    boards: list[BoardReport] = []
    messages = _Messages(KEEP_MESSAGES)
    flag: str | None = None
    error = ""
    received = 0
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=MAX_LINE), timeout)
    except (OSError, TimeoutError) as exc:
        return PlayResult((), (), None, f"cannot connect to {host}:{port}: {exc or 'timed out'}")

    async def line() -> str | None:
        nonlocal received
        raw = await asyncio.wait_for(reader.readline(), timeout)
        if not raw:
            return None
        received += len(raw)
        if received > max_bytes:
            raise ProtocolError(f"the server sent more than {max_bytes:,} bytes in one session")
        return raw.decode("utf-8", errors="replace").rstrip("\r\n")

    async def board(width: int, height: int) -> pellet.Level:
        """The rows of a board whose header was read; each checked against the announced width as it comes."""
        if not (1 <= width <= pellet.MAX_SIDE and 1 <= height <= pellet.MAX_SIDE):
            raise ProtocolError(f"the server announced a {width} x {height} board (sides are 1 to {pellet.MAX_SIDE})")
        rows = []
        for r in range(height):
            row = await line()
            if row is None:
                raise ProtocolError(f"the server closed in the middle of a {width} x {height} board")
            if len(row) > width:
                raise ProtocolError(f"row {r + 1} of a {width} x {height} board has {len(row):,} characters")
            rows.append(row)
        return pellet.Level.parse(f"{width} {height}\n" + "\n".join(rows), name=f"board {len(boards) + 1}")

    try:
        while True:
            text = await line()
            if text is None:
                break
            head = _BOARD_HEAD.fullmatch(text)
            if head is None:
                found = FLAG.search(text)
                if found and flag is None:
                    flag = found.group(0)
                shown = text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + " [...]"
                messages.add(shown)
                if on_message is not None:
                    on_message(shown)
                continue
            if len(boards) >= max_boards:
                raise ProtocolError(f"the server sent more than {max_boards:,} boards")
            level = await board(int(head.group(1)), int(head.group(2)))
            result = solve(level, time_limit=time_limit, seed=seed)
            answer = str(result.solution) if result.solution is not None else ""
            writer.write(answer.encode() + b"\n")
            try:
                await asyncio.wait_for(writer.drain(), timeout)
            except TimeoutError:
                raise ProtocolError(f"the server did not take our answer for {timeout:g} s") from None
            report = BoardReport(
                len(boards) + 1,
                level.width,
                level.height,
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
    except ValueError:  # StreamReader.readline: the line is longer than the reader's limit
        error = f"the server sent a line longer than {MAX_LINE:,} bytes"
    except ProtocolError as exc:
        error = str(exc)
    except GridbotError as exc:
        error = f"unreadable board from the server: {exc}"
    finally:
        if error:  # drop what is still queued for a server that may never read it, and hang up at once
            writer.transport.abort()
        else:
            writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(writer.wait_closed(), 1)
    seconds = time.monotonic() - start
    return PlayResult(tuple(boards), messages.kept(), flag, error, seconds, messages.dropped)
