"""The Pellet Eater game server: boards with a guaranteed solution, exact checking, time limits.

>>> config = ServerConfig(port=0, rounds=3, time_limit=5.0, seed=1)
>>> board_size(config, 0), board_size(config, 2)
((8, 6), (40, 30))

A session: the banner (ending with `Ready?`), then for each round a board
`W H` + H rows; the client answers with one line of moves; the server replies
with one line: `Correct! (k/N)`, or why the answer is wrong, late or malformed,
and then closes. After the last board it sends the flag line.

Robustness, per connection: lines are read with a length limit (an oversized
line ends the session; the reader never buffers more than about twice the
limit), every read and every write has a deadline (a client that stops reading
or writing is dropped), and any error ends only that session. At most
`max_clients` sessions run at once; more are told the server is busy. One log
line per session says who, how far, how it ended and how long it took.

Time and memory with big boards (up to the format's 1000 x 1000): a session
holds its board, the reader's buffer and one answer, about 4 bytes per cell
of the largest board; making a board (about 1.3 s at 1000 x 1000) and checking
an answer (about 0.1 s) run in threads, one per processor at a time, so they
never stall the other sessions and their working memory does not grow with
the number of clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from gridbot.deadline import check_time_limit
from gridbot.errors import ProgramError
from gridbot.games import pellet
from gridbot.generate.pellet import random_level
from gridbot.parallel.workers import cores

logger = logging.getLogger("gridbot.pellet.server")

DEFAULT_FLAG = "flag{every_pellet_once_no_more_no_less}"
# extra bytes allowed on an answer line beyond one move per cell (line ending, stray spaces)
LINE_SLACK = 64
WRITE_BUFFER = 64 * 1024
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How a server runs. `seed` None draws one at start-up (it is logged, so a session can be replayed).

    Board k of N (0-based) has a size interpolated linearly from `min_size` to
    `max_size` (width, height) and a random fill in `fill` (the fraction of the
    grid's cells on the planted path; the rest are walls). `max_sessions` stops
    the server after that many sessions (for scripts and tests); None serves
    until interrupted.
    """

    host: str = "127.0.0.1"
    port: int = 5555
    rounds: int = 10
    time_limit: float = 10.0
    seed: int | None = None
    flag: str = DEFAULT_FLAG
    min_size: tuple[int, int] = (8, 6)
    max_size: tuple[int, int] = (40, 30)
    fill: tuple[float, float] = (0.5, 0.95)
    max_clients: int = 256
    max_sessions: int | None = None
    write_timeout: float = 10.0

    def __post_init__(self) -> None:
        """Refuse settings the server cannot keep (ValueError): board sides beyond the format's 1..MAX_SIDE, fills
        outside [0, 1], counts below 1, limits that are not positive numbers."""
        for label, (w, h) in (("min_size", self.min_size), ("max_size", self.max_size)):
            if not (1 <= w <= pellet.MAX_SIDE and 1 <= h <= pellet.MAX_SIDE):
                raise ValueError(f"{label} {w}x{h}: board sides are 1 to {pellet.MAX_SIDE}")
        lo, hi = self.fill
        if not 0.0 <= lo <= hi <= 1.0:
            raise ValueError(f"fill {self.fill}: expected 0 <= low <= high <= 1")
        if self.rounds < 1 or self.max_clients < 1 or (self.max_sessions is not None and self.max_sessions < 1):
            raise ValueError("rounds, max_clients and max_sessions must be at least 1")
        check_time_limit(self.time_limit)
        check_time_limit(self.write_timeout)

    @property
    def line_limit(self) -> int:
        """The longest answer line accepted, in bytes: one move per cell of the largest board, plus slack."""
        w, h = self.max_size
        return w * h + LINE_SLACK


def board_size(config: ServerConfig, k: int) -> tuple[int, int]:
    """(width, height) of board k (0-based): growing linearly from min_size to max_size."""
    if config.rounds <= 1:
        return config.max_size
    (w0, h0), (w1, h1) = config.min_size, config.max_size
    t = k / (config.rounds - 1)
    return round(w0 + (w1 - w0) * t), round(h0 + (h1 - h0) * t)


def make_board(config: ServerConfig, seed: int, session: int, k: int) -> pellet.Level:
    """Board k of a session: reproducible from (seed, session, k); always solvable (a planted path)."""
    state = np.random.SeedSequence([seed, session, k]).generate_state(2)
    lo, hi = config.fill
    fill = lo + (hi - lo) * (int(state[1]) / 2**32)
    w, h = board_size(config, k)
    return random_level(w, h, int(state[0]), fill=fill)


def banner(config: ServerConfig) -> str:
    seconds = f"{config.time_limit:g} second" + ("" if config.time_limit == 1 else "s")
    return (
        "Welcome to Pellet Eater!\n"
        "Eat every pellet: answer each board with one line of moves (u d l r) that starts on S,\n"
        "enters every '.' exactly once, and never enters a '#' or a cell already visited.\n"
        f"{config.rounds} boards, {seconds} each. A wrong or late answer ends the game.\n"
        "Ready?\n"
    )


class _SessionEnd(Exception):
    """Ends a session with a reason for the log (and, when `reply` is set, a last line to the client)."""

    def __init__(self, outcome: str, reply: str = "") -> None:
        super().__init__(outcome)
        self.outcome = outcome
        self.reply = reply


class PelletServer:
    """An asyncio TCP server of the game. Use `await start()`, then `await serve()` or `await close()`.

    `log` receives the one line per session (default: the `gridbot.pellet.server`
    logger at INFO). `port` is the bound port (useful with port 0).
    """

    def __init__(self, config: ServerConfig, log: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.seed = config.seed if config.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
        self.log = log or logger.info
        self.active = 0
        self.sessions = 0
        self.finished = 0
        self.tasks: set[asyncio.Task] = set()
        self._server: asyncio.base_events.Server | None = None
        self._done = asyncio.Event()
        self._heavy = asyncio.Semaphore(cores())  # board making and answer checking at once: one per processor

    async def _in_thread(self, work: Callable[..., T], *args: Any) -> T:
        """Run `work(*args)` in a thread, at most one per processor at a time: making a board of a million
        cells takes about a second and checking its answer tens of milliseconds, which must not stall the other
        sessions, and the memory such work takes (tens of MB at 1000 x 1000) is bounded by the processors,
        not by the number of clients. The compiled board generator releases the GIL."""
        async with self._heavy:
            return await asyncio.to_thread(work, *args)

    @property
    def port(self) -> int:
        assert self._server is not None and self._server.sockets
        return self._server.sockets[0].getsockname()[1]

    async def start(self) -> None:
        # load the compiled board generator now, on a tiny board, not while the first client waits
        random_level(2, 2, 0)
        # the reader's limit bounds the memory one client can make us hold
        self._server = await asyncio.start_server(
            self._accept, self.config.host, self.config.port, limit=self.config.line_limit
        )

    async def serve(self) -> None:
        """Serve until `max_sessions` sessions have ended (forever when None), then close."""
        assert self._server is not None
        try:
            await self._done.wait()
        finally:
            await self.close()

    async def close(self) -> None:
        """Stop accepting, end running sessions, and wait for them (bounded)."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=5)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        self.sessions += 1
        number = self.sessions
        try:
            if self.active >= self.config.max_clients:
                await self._refuse(writer, number)
                return
            self.active += 1
            try:
                await self._session(reader, writer, number)
            finally:
                self.active -= 1
        finally:
            if task is not None:
                self.tasks.discard(task)
            self.finished += 1
            limit = self.config.max_sessions
            if limit is not None and self.finished >= limit:
                self._done.set()

    async def _refuse(self, writer: asyncio.StreamWriter, number: int) -> None:
        peer = _peer(writer)
        with contextlib.suppress(OSError, TimeoutError):
            writer.write(b"Server busy, try again later.\n")
            await asyncio.wait_for(writer.drain(), 1)
        await _close(writer)
        self.log(f"session {number} {peer}: refused (server busy, {self.active} sessions running)")

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, number: int) -> None:
        config = self.config
        peer = _peer(writer)
        start = time.monotonic()
        solved = 0
        outcome = "ended"
        with contextlib.suppress(OSError, AttributeError):
            writer.transport.set_write_buffer_limits(high=WRITE_BUFFER)
        try:
            await self._send(writer, banner(config))
            for k in range(config.rounds):
                level = await self._in_thread(make_board, config, self.seed, number, k)
                await self._send(writer, level.text())
                answer = await self._answer(reader)
                reply = await self._in_thread(self._judge, level, answer)
                solved += 1
                await self._send(writer, f"Correct! ({solved}/{config.rounds}) {reply}".rstrip() + "\n")
            await self._send(writer, f"Well done! Here is your flag: {config.flag}\n")
            outcome = "flag sent"
        except _SessionEnd as end:
            outcome = end.outcome
            if end.reply:
                with contextlib.suppress(OSError, TimeoutError, _SessionEnd):
                    await self._send(writer, end.reply + "\n")
        except asyncio.CancelledError:
            outcome = "cancelled (server closing)"
            raise
        except (ConnectionError, OSError) as exc:
            outcome = f"connection lost ({type(exc).__name__})"
        except Exception as exc:  # a bug must end one session, never the server
            outcome = f"internal error ({type(exc).__name__}: {exc})"
        finally:
            await _close(writer)
            seconds = time.monotonic() - start
            self.log(
                f"session {number} {peer}: {outcome}; {solved}/{config.rounds} boards solved in {seconds:.2f} s"
                f" (seed {self.seed})"
            )

    async def _send(self, writer: asyncio.StreamWriter, text: str) -> None:
        """Write and wait until the client has taken it, within the write timeout."""
        writer.write(text.encode())
        try:
            await asyncio.wait_for(writer.drain(), self.config.write_timeout)
        except TimeoutError:
            raise _SessionEnd("client stopped reading") from None

    async def _answer(self, reader: asyncio.StreamReader) -> str:
        """The client's next line, within the time limit; raises _SessionEnd otherwise."""
        limit = self.config.time_limit
        try:
            raw = await asyncio.wait_for(reader.readline(), limit)
        except TimeoutError:
            raise _SessionEnd("too slow", f"Too slow: no answer within {limit:g} s. Bye.") from None
        except ValueError:  # the line is longer than the reader's limit
            raise _SessionEnd(
                "line too long", f"Line too long: at most {self.config.line_limit} bytes per answer. Bye."
            ) from None
        if not raw:
            raise _SessionEnd("client left")
        return raw.decode("utf-8", errors="replace")

    def _judge(self, level: pellet.Level, answer: str) -> str:
        """Check an answer exactly; returns '' when it is right, raises _SessionEnd when not."""
        try:
            moves = pellet.parse_program(answer.strip())
        except ProgramError as exc:
            raise _SessionEnd("malformed answer", f"Bad answer: column {exc.column}: {exc.message}. Bye.") from None
        verdict = pellet.run(level, moves).verdict
        if not verdict.won:
            raise _SessionEnd(f"wrong answer ({verdict})", f"Wrong: {verdict}. Bye.")
        return ""


def _peer(writer: asyncio.StreamWriter) -> str:
    try:
        host, port = writer.get_extra_info("peername")[:2]
    except (TypeError, ValueError):
        return "?"
    return f"{host}:{port}"


async def _close(writer: asyncio.StreamWriter) -> None:
    """Close a connection without waiting long for a peer that does not answer."""
    writer.close()
    with contextlib.suppress(OSError, TimeoutError):
        await asyncio.wait_for(writer.wait_closed(), 1)


async def serve(config: ServerConfig, log: Callable[[str], None] | None = None, ready=None) -> PelletServer:
    """Run a server until it stops (max_sessions) or is cancelled; `ready(server)` is called once listening."""
    server = PelletServer(config, log)
    await server.start()
    if ready is not None:
        ready(server)
    await server.serve()
    return server
