"""The Pellet Eater server and client over loopback: the protocol, bad clients, many clients.

Every test runs its own server on 127.0.0.1 with a free port, small boards and
short limits, bounds every wait, and closes the server at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time

import pytest

from gridbot.games import pellet
from gridbot.net import client as net_client
from gridbot.net.server import PelletServer, ServerConfig, board_size, make_board
from gridbot.solve.pellet import solve, warm_up

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

SMALL = ServerConfig(port=0, rounds=3, time_limit=5.0, seed=11, min_size=(5, 4), max_size=(10, 8), flag="flag{t3st}")
BOUND = 30.0  # no test waits longer than this for anything


@pytest.fixture(scope="module", autouse=True)
def _kernels_loaded() -> None:
    warm_up()


def with_server(config: ServerConfig, body):
    """Run `body(server, log_lines)` against a fresh server; always close it; bounded in time."""

    async def main():
        lines: list[str] = []
        server = PelletServer(config, log=lines.append)
        await server.start()
        try:
            return await asyncio.wait_for(body(server, lines), BOUND)
        finally:
            await server.close()
            assert server.active == 0 and not server.tasks, "a session outlived the server"

    return asyncio.run(main())


async def read_board(reader: asyncio.StreamReader) -> tuple[list[str], pellet.Level]:
    """Read lines up to and including the next board; returns (messages before it, the board)."""
    messages = []
    while True:
        line = (await reader.readline()).decode()
        assert line, "server closed before a board"
        head = re.fullmatch(r"(\d+) (\d+)\n", line)
        if head:
            rows = [(await reader.readline()).decode().rstrip("\n") for _ in range(int(head.group(2)))]
            return messages, pellet.Level.parse(line + "\n".join(rows))
        messages.append(line.rstrip("\n"))


async def rest(reader: asyncio.StreamReader) -> str:
    """Everything the server sends until it closes."""
    return (await asyncio.wait_for(reader.read(), BOUND)).decode()


# ---------------------------------------------------------------- boards


def test_boards_grow_and_are_solvable_and_reproducible() -> None:
    config = ServerConfig(rounds=5, min_size=(6, 5), max_size=(30, 20))
    sizes = [board_size(config, k) for k in range(5)]
    assert sizes[0] == (6, 5) and sizes[-1] == (30, 20)
    assert all(a[0] * a[1] < b[0] * b[1] for a, b in zip(sizes, sizes[1:], strict=False))
    for k in range(5):
        level = make_board(config, 3, 1, k)
        assert (level.width, level.height) == sizes[k]
        assert str(level) == str(make_board(config, 3, 1, k))
        result = solve(level, time_limit=10)
        assert pellet.run(level, result.solution).verdict.won
    assert str(make_board(config, 3, 1, 4)) != str(make_board(config, 3, 2, 4))


# ---------------------------------------------------------------- the protocol end to end


def test_client_solves_every_board_and_gets_the_flag() -> None:
    async def body(server, log):
        result = await net_client.play("127.0.0.1", server.port, timeout=10)
        await asyncio.sleep(0.05)
        return result, log

    result, log = with_server(SMALL, body)
    assert result.flag == "flag{t3st}"
    assert result.error == ""
    assert [b.number for b in result.boards] == [1, 2, 3]
    assert result.messages[4] == "Ready?"
    assert [m for m in result.messages if m.startswith("Correct!")] == [
        "Correct! (1/3)",
        "Correct! (2/3)",
        "Correct! (3/3)",
    ]
    assert len(log) == 1 and "flag sent; 3/3 boards solved" in log[0]


def test_banner_ends_with_ready_and_boards_have_the_header() -> None:
    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        messages, level = await read_board(reader)
        writer.close()
        return messages, level

    messages, level = with_server(SMALL, body)
    assert messages[-1] == "Ready?"
    assert (level.width, level.height) == (5, 4)


@pytest.mark.parametrize(
    ("answer", "reply", "outcome"),
    [
        (lambda sol: sol + "\n", None, None),
        (lambda sol: sol[:-1] + "\n", "Wrong: ended after", "wrong answer"),
        (lambda sol: sol + sol[-1] + "\n", "Wrong: move", "wrong answer"),
        (lambda sol: "\n", "Wrong: ended after 0 moves", "wrong answer"),
        (lambda sol: "hello world\n", "Bad answer: column 1: unexpected 'h'", "malformed answer"),
        (lambda sol: "\xff\x00garbage\n", "Bad answer: column 1", "malformed answer"),
    ],
)
def test_answers_are_checked_exactly(answer, reply, outcome) -> None:
    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        _, level = await read_board(reader)
        solution = str(solve(level).solution)
        writer.write(answer(solution).encode("latin-1"))
        await writer.drain()
        line = (await reader.readline()).decode()
        tail = await rest(reader) if reply else ""
        writer.close()
        await asyncio.sleep(0.05)
        return line, tail, log

    line, tail, log = with_server(SMALL, body)
    if reply is None:
        assert line == "Correct! (1/3)\n"
    else:
        assert line.startswith(reply), line
        assert line.rstrip().endswith("Bye.")
        assert tail == "", "the server must close after a wrong answer"
        assert len(log) == 1 and outcome in log[0] and "0/3 boards solved" in log[0]


def test_raw_bytes_that_are_not_utf8_do_not_crash_the_server() -> None:
    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await read_board(reader)
        writer.write(bytes(range(130, 230)) + b"\x00\r\n")
        await writer.drain()
        line = (await reader.readline()).decode()
        writer.close()
        follow = await net_client.play("127.0.0.1", server.port, timeout=10)
        return line, follow

    line, follow = with_server(SMALL, body)
    assert line.startswith("Bad answer: column 1")
    assert follow.flag == "flag{t3st}"


@pytest.mark.parametrize("newline", [True, False])
def test_an_oversized_line_ends_only_that_session(newline: bool) -> None:
    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await read_board(reader)
        writer.write(b"u" * (SMALL.line_limit * 4) + (b"\n" if newline else b""))
        await writer.drain()
        line = (await asyncio.wait_for(reader.readline(), BOUND)).decode()
        tail = await rest(reader)
        writer.close()
        follow = await net_client.play("127.0.0.1", server.port, timeout=10)
        await asyncio.sleep(0.05)
        return line, tail, follow, log

    line, tail, follow, log = with_server(SMALL, body)
    assert line.startswith(f"Line too long: at most {SMALL.line_limit} bytes")
    assert tail == ""
    assert follow.flag == "flag{t3st}"
    assert any("line too long" in entry for entry in log)


def test_a_client_that_stalls_past_the_time_limit_is_told_and_dropped() -> None:
    config = ServerConfig(port=0, rounds=2, time_limit=0.3, seed=1, min_size=(5, 4), max_size=(6, 5))

    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await read_board(reader)
        t0 = time.monotonic()
        line = (await asyncio.wait_for(reader.readline(), BOUND)).decode()
        waited = time.monotonic() - t0
        tail = await rest(reader)
        writer.close()
        await asyncio.sleep(0.05)
        return line, tail, waited, log

    line, tail, waited, log = with_server(config, body)
    assert line == "Too slow: no answer within 0.3 s. Bye.\n"
    assert tail == ""
    assert 0.25 <= waited < 5
    assert len(log) == 1 and "too slow" in log[0]


def test_an_answer_after_the_limit_is_not_accepted() -> None:
    config = ServerConfig(port=0, rounds=2, time_limit=0.2, seed=1, min_size=(5, 4), max_size=(6, 5))

    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        _, level = await read_board(reader)
        await asyncio.sleep(0.4)
        writer.write(str(solve(level).solution).encode() + b"\n")
        line = (await asyncio.wait_for(reader.readline(), BOUND)).decode()
        writer.close()
        return line

    assert with_server(config, body).startswith("Too slow")


def test_vanishing_clients_leave_nothing_behind() -> None:
    async def body(server, log):
        # gone at once; gone after the banner; gone in the middle of a board; half an answer then gone
        for stage in range(4):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            if stage >= 1:
                await reader.readline()
            if stage >= 2:
                await read_board(reader)
            if stage == 3:
                writer.write(b"rrd")
                await writer.drain()
            writer.close()
            await writer.wait_closed()
        raw = socket.create_connection(("127.0.0.1", server.port))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # reset on close
        raw.close()
        follow = await net_client.play("127.0.0.1", server.port, timeout=10)
        for _ in range(100):
            if len(log) >= 6:
                break
            await asyncio.sleep(0.05)
        return follow, log, server.active

    follow, log, active = with_server(SMALL, body)
    assert follow.flag == "flag{t3st}"
    assert len(log) == 6
    assert active == 0
    left = [entry for entry in log if "client left" in entry or "connection lost" in entry or "wrong answer" in entry]
    assert len(left) == 5, log


def test_fifty_clients_at_once() -> None:
    async def body(server, log):
        results = await asyncio.gather(*(net_client.play("127.0.0.1", server.port, timeout=20) for _ in range(50)))
        for _ in range(100):
            if len(log) >= 50:
                break
            await asyncio.sleep(0.05)
        return results, log

    results, log = with_server(SMALL, body)
    assert [r.flag for r in results] == ["flag{t3st}"] * 50
    assert len(log) == 50 and all("flag sent" in entry for entry in log)
    assert len({entry.split()[1] for entry in log}) == 50  # fifty distinct sessions


def test_too_many_clients_are_refused_politely() -> None:
    config = ServerConfig(port=0, rounds=1, time_limit=2.0, seed=1, min_size=(5, 4), max_size=(5, 4), max_clients=1)

    async def body(server, log):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await reader.readline()  # the first session is running
        r2, w2 = await asyncio.open_connection("127.0.0.1", server.port)
        refused = await rest(r2)
        w2.close()
        writer.close()
        return refused

    assert with_server(config, body) == "Server busy, try again later.\n"


def test_server_stops_after_max_sessions() -> None:
    config = ServerConfig(port=0, rounds=1, time_limit=2.0, seed=1, min_size=(5, 4), max_size=(5, 4), max_sessions=2)

    async def main():
        lines: list[str] = []
        server = PelletServer(config, log=lines.append)
        await server.start()
        serving = asyncio.create_task(server.serve())
        for _ in range(2):
            result = await net_client.play("127.0.0.1", server.port, timeout=10)
            assert result.flag
        await asyncio.wait_for(serving, BOUND)
        return lines

    assert len(asyncio.run(main())) == 2


def test_client_reports_a_refused_connection() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    result = asyncio.run(net_client.play("127.0.0.1", port, timeout=5))
    assert result.flag is None and "cannot connect" in result.error


@pytest.mark.parametrize("text", ["localhost", "host:", ":80", "host:99999", "host:x"])
def test_bad_addresses(text: str) -> None:
    with pytest.raises(net_client.GridbotError):
        net_client.parse_address(text)


# ---------------------------------------------------------------- the command line


def test_cli_serve_and_play_end_to_end() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    serve = subprocess.Popen(
        [sys.executable, "-m", "gridbot.cli", "pellet", "serve", "--port", "0", "--rounds", "3", "--time-limit", "10",
         "--seed", "5", "--max-sessions", "1", "--min-size", "5x4", "--max-size", "12x9", "--flag", "flag{cli}"],
        stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        first = serve.stderr.readline()
        port = re.search(r"127\.0\.0\.1:(\d+)", first)
        assert port, first
        assert "3 boards, 10 s each, seed 5" in first
        play = subprocess.run(
            [sys.executable, "-m", "gridbot.cli", "pellet", "play", f"127.0.0.1:{port.group(1)}"],
            capture_output=True, text=True, timeout=BOUND, env=env,
        )  # fmt: skip
        assert play.returncode == 0, play.stderr
        lines = play.stdout.splitlines()
        assert lines[-1] == "flag{cli}"
        assert "server: Ready?" in lines
        assert sum(line.startswith("board ") for line in lines) == 3
        serve.wait(timeout=BOUND)  # --max-sessions 1: it stops by itself
        log = serve.stderr.read()
        assert serve.returncode == 0
        assert log.count("session ") == 1 and "flag sent" in log
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait(timeout=5)


def test_cli_play_without_a_server_exits_1() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    play = subprocess.run(
        [sys.executable, "-m", "gridbot.cli", "pellet", "play", f"127.0.0.1:{port}", "--timeout", "5"],
        capture_output=True, text=True, timeout=BOUND,
    )  # fmt: skip
    assert play.returncode == 1
    assert "cannot connect" in play.stderr and "Traceback" not in play.stderr


# ---------------------------------------------------------------- a hostile server: the client trusts nothing

OFFERED = 256 * 2**20  # the most a hostile test server sends: far more than the client may keep


def against(script, **options):
    """Run the client against a fake server that plays `script(reader, writer, send)`; `send(data)` writes and
    counts what the client's side accepted. Returns (PlayResult, bytes sent). The server stops when the client
    hangs up (its writes fail) or after OFFERED bytes; every wait is bounded."""

    async def main():
        sent = [0]
        done = asyncio.Event()

        async def handle(reader, writer):
            async def send(data: bytes) -> None:
                writer.write(data)
                await writer.drain()
                sent[0] += len(data)

            try:
                await script(reader, writer, send)
            except (ConnectionError, OSError):
                pass  # the client hung up: what the test wants to see
            finally:
                writer.close()
                done.set()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            options.setdefault("timeout", 5)
            result = await asyncio.wait_for(net_client.play("127.0.0.1", port, **options), BOUND)
            await asyncio.wait_for(done.wait(), BOUND)
        finally:
            server.close()
            await server.wait_closed()
        return result, sent[0]

    return asyncio.run(main())


def endless(piece: bytes):
    """A script that sends `piece` again and again (in writes of about 64 KiB), up to OFFERED bytes."""
    chunk = piece * max(1, 65536 // len(piece))

    async def script(reader, writer, send):
        for _ in range(OFFERED // len(chunk)):
            await send(chunk)

    return script


def after(head: bytes, script):
    async def both(reader, writer, send):
        await send(head)
        await script(reader, writer, send)

    return both


@pytest.mark.parametrize(
    ("script", "options", "error"),
    [
        # the reported attack: a huge board announced, then long rows
        (after(b"1 9999999\n", endless(b"." * 500_000 + b"\n")), {}, "announced a 1 x 9999999 board"),
        (after(b"0 5\n", endless(b"S\n")), {}, "announced a 0 x 5 board"),
        (after(b"1000 1000\n", endless(b"." * 60_000 + b"\n")), {}, "row 1 of a 1000 x 1000 board has 60,000"),
        (after(b"3 2\nS..\n", endless(b"....")), {}, "longer than 65,536 bytes"),  # a row without an end
        (endless(b"x" * 4096), {}, "longer than 65,536 bytes"),  # a message without an end
        (endless(b"Keep reading...\n"), {"max_bytes": 2**20}, "more than 1,048,576 bytes"),
        (endless(b"1 1\nS\n"), {"max_boards": 200}, "more than 200 boards"),
    ],
    ids=["huge-header", "zero-side", "rows-too-long", "endless-row", "endless-line", "endless-talk", "endless-boards"],
)
def test_a_hostile_server_ends_the_game_with_an_error_and_bounded_reading(script, options, error) -> None:
    result, sent = against(script, **options)
    assert error in result.error, result.error
    assert result.flag is None
    assert sent < 32 * 2**20, f"the client read on: {sent:,} bytes"  # kernel buffers hold a few MB at most
    assert len(result.messages) <= 2 * net_client.KEEP_MESSAGES


def test_a_silent_server_or_one_that_takes_no_answers_times_out() -> None:
    async def silent(reader, writer, send):
        await send(b"Welcome\n")
        await reader.read()  # until the client hangs up

    result, _ = against(silent, timeout=0.3)
    assert result.error == "the server said nothing for 0.3 s" and result.messages == ("Welcome",)

    board = pellet.Level.parse("S" + "." * 999 + "\n" + ("." * 1000 + "\n") * 999).text().encode()

    async def deaf(reader, writer, send):  # boards of a million cells whose answers it never reads
        for _ in range(100):
            await send(board)

    result, _ = against(deaf, timeout=0.5)
    assert result.error == "the server did not take our answer for 0.5 s", result.error
    assert 1 <= len(result.boards) < 100


def test_the_first_and_last_messages_are_kept_and_long_ones_cut() -> None:
    async def chatty(reader, writer, send):
        await send(b"".join(b"message %d\n" % k for k in range(1000)))
        await send(b"y" * 10_000 + b"\n")
        await send(b"here it is: flag{kept}\n")

    result, _ = against(chatty)
    k = net_client.KEEP_MESSAGES
    assert result.error == "" and result.flag == "flag{kept}"
    assert result.messages[:k] == tuple(f"message {i}" for i in range(k))
    assert result.messages[k:-2] == tuple(f"message {i}" for i in range(1000 - k + 2, 1000))
    assert result.messages[-2] == "y" * net_client.MAX_MESSAGE + " [...]"
    assert result.messages[-1] == "here it is: flag{kept}"
    assert result.messages_dropped == 1002 - 2 * k


HOSTILE_CHILD = """
import asyncio, json, resource
from gridbot.net import client
from gridbot.solve.pellet import warm_up

warm_up()  # loading numba code takes address space of its own: limit what comes after
used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (used + (256 << 20), used + (256 << 20)))


async def hostile(reader, writer):
    writer.write(b"1 9999999\\n")
    try:
        for _ in range(4096):  # rows of half a MiB, 2 GiB in all: far past the limit if kept
            writer.write(b"." * (1 << 19) + b"\\n")
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(hostile, "127.0.0.1", 0)
    try:
        return await client.play("127.0.0.1", server.sockets[0].getsockname()[1], timeout=10)
    finally:
        server.close()


print(json.dumps({"error": asyncio.run(main()).error}))
"""


def test_a_hostile_server_cannot_make_the_client_run_out_of_memory() -> None:
    """The reported attack, in a child whose address space is capped 256 MiB above what it uses after start-up."""
    child = subprocess.run([sys.executable, "-c", HOSTILE_CHILD], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0 and "Traceback" not in child.stderr, child.stderr[-2000:]
    assert "announced a 1 x 9999999 board" in json.loads(child.stdout)["error"]


# ---------------------------------------------------------------- the server with boards of the format's limit


def test_big_boards_are_made_and_judged_without_stalling_other_sessions() -> None:
    """1000 x 1000 boards: making one takes a second or more and checking a million-move answer some tens of ms;
    both run in threads, so the event loop (every other session's reads, writes and deadlines) keeps going."""
    config = ServerConfig(port=0, rounds=1, time_limit=20.0, seed=3, min_size=(1000, 1000), max_size=(1000, 1000))

    async def body(server, log):
        stall = [0.0]

        async def probe() -> None:  # how late a 10 ms sleep wakes up: the longest the loop was held
            while True:
                before = time.perf_counter()
                await asyncio.sleep(0.01)
                stall[0] = max(stall[0], time.perf_counter() - before - 0.01)

        async def player() -> str:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=2**21)
            while (await reader.readline()) != b"1000 1000\n":  # the banner
                pass
            for _ in range(1000):  # the rows, not parsed here: that would hold the loop this test watches
                await reader.readline()
            writer.write(b"r" * (1000 * 1000 - 1) + b"\n")  # a full-length answer, wrong
            await writer.drain()
            reply = (await reader.readline()).decode()
            writer.close()
            return reply

        watching = asyncio.create_task(probe())
        try:
            replies = await asyncio.gather(player(), player())
        finally:
            watching.cancel()
        return replies, stall[0]

    replies, stall = with_server(config, body)
    assert all(reply.startswith("Wrong: move ") and "leaves the board" in reply for reply in replies), replies
    assert stall < 0.5, f"the event loop was held for {stall:.2f} s"


@pytest.mark.parametrize(
    "options",
    [
        {"max_size": (1001, 10)},
        {"min_size": (0, 5)},
        {"fill": (0.5, 1.5)},
        {"fill": (float("nan"), 0.5)},
        {"rounds": 0},
        {"time_limit": float("nan")},
        {"time_limit": 0},
        {"write_timeout": -1},
        {"max_clients": 0},
    ],
)
def test_server_settings_it_cannot_keep_are_refused(options) -> None:
    with pytest.raises(ValueError):
        ServerConfig(**options)
