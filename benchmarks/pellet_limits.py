"""Pellet Eater at the format's limits (issue 15): time, memory and the first-solve cost on 1000 x 1000 boards,
the path checker on a million moves, the server's event loop while it makes big boards, and a hostile server.

    PYTHONPATH=src python benchmarks/pellet_limits.py [--limit 1.0]

Every figure is one run (timings on a shared 2-core machine are noisy: read them as upper bounds). Peak memory is
what tracemalloc sees (numpy reports its arrays to it) in a second run of the same call, timed apart. The script
only uses interfaces that older versions have too, so the same command on an older checkout gives the "before"
figures; a phase that fails there prints its exception instead of a number.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
import tracemalloc


def boards(n: int):
    """(name, level) of the big boards: open (even and odd sides), a few walls, lines, a random solvable one."""
    from gridbot.games import pellet
    from gridbot.generate.pellet import random_level

    def grid(rows: int, cols: int, start=(0, 0), walls=()):
        lines = ["." * cols] * rows
        for r, c in (*walls, start):
            lines[r] = lines[r][:c] + ("S" if (r, c) == start else "#") + lines[r][c + 1 :]
        return pellet.Level.parse("\n".join(lines))

    yield "open 1000x1000", grid(n, n)
    yield "open 999x999", grid(n - 1, n - 1, (500, 498))
    yield "1000x1000, one wall (parity)", grid(n, n, (0, 0), ((500, 500),))
    yield "1000x1000, two walls (search)", grid(n, n, (0, 0), ((500, 500), (500, 501)))
    yield "1 x 1000", grid(1, n, (0, n - 1))
    yield "random 1000x1000 fill 0.999", random_level(n, n, 7, fill=0.999)


def solver_figures(limit: float) -> None:
    from gridbot.games import pellet
    from gridbot.solve import pellet as solver

    solver.warm_up()
    print(f"## solve(level, time_limit={limit:g}), kernels loaded before\n")
    print("| board | status | method | seconds (wall) | peak MB |")
    print("|---|---|---|---:|---:|")
    for name, level in boards(pellet.MAX_SIDE):
        took, outcome = timed(lambda level=level: solver.solve(level, time_limit=limit))
        if not isinstance(outcome, str):
            outcome = f"{outcome.status} | {outcome.stats.get('method', '')}"
        peak = peak_mb(lambda level=level: solver.solve(level, time_limit=limit))
        print(f"| {name} | {outcome} | {took:.2f} | {peak} |")
    n = pellet.MAX_SIDE
    text = "S" + "." * (n - 1) + "\n" + ("." * n + "\n") * (n - 1)
    parse, level = timed(lambda: pellet.Level.parse(text))
    moves = pellet.Moves("d".join(("r" if r % 2 == 0 else "l") * (n - 1) for r in range(n)))
    check, walk = timed(lambda: pellet.run(level, moves))
    print(f"\nLevel.parse of the open 1000x1000 text: {parse:.2f} s")
    print(
        f"pellet.run of its {len(moves.text):,}-move path: {check:.2f} s,"
        f" peak {peak_mb(lambda: pellet.run(level, moves))} MB ({walk.verdict})"
    )


def timed(work):
    """(seconds, what `work()` returned or the name of what it raised): an older version's failure is a figure."""
    start = time.perf_counter()
    try:
        outcome = work()
    except Exception as exc:
        outcome = f"{type(exc).__name__} | -"
    return time.perf_counter() - start, outcome


def peak_mb(work) -> str:
    """The peak traced memory of a second run of `work` in MB (timed apart: tracing slows Python allocations)."""
    tracemalloc.start()
    try:
        timed(work)
        return f"{tracemalloc.get_traced_memory()[1] / 1e6:.0f}"
    finally:
        tracemalloc.stop()


FIRST = """
import time
from gridbot.games.pellet import Level
from gridbot.solve import pellet as solver
level = Level.parse("S.....\\n.##.#.\\n.##...\\n......")
start = time.perf_counter()
result = solver.solve(level, time_limit=30)
print(f"{time.perf_counter() - start:.2f} {result.seconds:.2f}")
"""


def first_solve() -> None:
    wall, seconds = subprocess.run([sys.executable, "-c", FIRST], capture_output=True, text=True).stdout.split()
    print(f"\nfirst solve in a fresh process (a 6x4 board): {wall} s wall, result.seconds {seconds}")


async def server_figures() -> None:
    from gridbot.net.server import PelletServer, ServerConfig

    config = ServerConfig(port=0, rounds=1, time_limit=30.0, seed=3, min_size=(1000, 1000), max_size=(1000, 1000))
    server = PelletServer(config, log=lambda line: None)
    await server.start()
    stall = [0.0]

    async def probe() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            stall[0] = max(stall[0], time.perf_counter() - before - 0.01)

    async def player() -> float:
        start = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, limit=2**21)
        while (await reader.readline()) != b"1000 1000\n":
            pass
        for _ in range(1000):
            await reader.readline()
        waited = time.perf_counter() - start
        writer.write(b"r" * 999_999 + b"\n")
        await writer.drain()
        await reader.readline()
        writer.close()
        return waited

    watching = asyncio.create_task(probe())
    start = time.perf_counter()
    waits = await asyncio.gather(*(player() for _ in range(4)))
    total = time.perf_counter() - start
    watching.cancel()
    await server.close()
    print(
        f"\nserver, 4 clients at once, one 1000x1000 board each: boards arrived after"
        f" {', '.join(f'{w:.1f}' for w in sorted(waits))} s, all judged in {total:.1f} s;"
        f" longest event-loop stall {stall[0]:.2f} s"
    )


async def hostile_figures() -> None:
    from gridbot.net import client

    sent = [0]

    async def hostile(reader, writer):
        writer.write(b"1 9999999\n")
        try:
            for _ in range(128):  # rows of half a MiB: 64 MiB offered
                writer.write(b"." * (1 << 19) + b"\n")
                await writer.drain()
                sent[0] += 1 << 19
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(hostile, "127.0.0.1", 0)
    start = time.perf_counter()
    result = await client.play("127.0.0.1", server.sockets[0].getsockname()[1], timeout=10)
    took = time.perf_counter() - start
    server.close()
    print(
        f"\nclient against a header `1 9999999` and half-MiB rows: ended in {took:.2f} s after the server"
        f" sent {sent[0] / 2**20:.0f} MiB: {result.error!r}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=float, default=1.0, help="time limit per board, seconds")
    args = parser.parse_args()
    solver_figures(args.limit)
    first_solve()
    asyncio.run(server_figures())
    asyncio.run(hostile_figures())


if __name__ == "__main__":
    main()
