"""The Pellet Eater server and client over loopback: the protocol, bad clients, many clients.

Every test runs its own server on 127.0.0.1 with a free port, small boards and
short limits, bounds every wait, and closes the server at the end.
"""

from __future__ import annotations

import asyncio
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
