"""Benchmark: latency of the playground's `POST /api/run` under concurrent clients.

    python benchmarks/web.py                          # starts `gridbot web` on a free port, 50 clients
    python benchmarks/web.py --url http://127.0.0.1:8000 --clients 50 --requests 20
    python benchmarks/web.py --level 1 --program 'F F'
    python benchmarks/web.py --csv benchmarks/results/web-$(date +%F).csv   # also the figures as CSV

Each of the clients sends its requests one after another (a new one as soon as the last is answered), all
clients at once; the run is carrots:12 with its 8-token program by default (369 steps, 200 SVG frames, ~1.9 MB
of JSON before gzip, which the client asks for as a browser does). Prints the median, 95th percentile and
worst latency, and the requests answered per second. Every answer is checked (200, the run completes). `--csv FILE`
also writes these figures as one row (COLUMNS, in seconds), then the run's date, machine, cores, Python, commit and
command line (benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import time

import httpx

import _results

CARROTS_12 = "R LOOP{R LOOP(4){LOOP(3){F} R} F}"
COLUMNS = ("game", "level", "program", "clients", "requests", "answered", "median_seconds", "p95_seconds",
           "worst_seconds", "requests_per_second", "wall_seconds")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gridbot.cli", "web", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return server, url
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gridbot web did not start")


async def client(http: httpx.AsyncClient, body: dict, requests: int, latencies: list[float]) -> None:
    for _ in range(requests):
        started = time.perf_counter()
        response = await http.post("/api/run", json=body)
        latencies.append(time.perf_counter() - started)
        assert response.status_code == 200, response.text
        assert response.json()["verdict"]["won"], response.json()["verdict"]


async def measure(url: str, body: dict, clients: int, requests: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as http:
        await client(http, body, 2, [])  # warm-up: imports and first drawings
        started = time.perf_counter()
        await asyncio.gather(*(client(http, body, requests, latencies) for _ in range(clients)))
        return latencies, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running playground (default: start one)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=10, help="requests per client")
    parser.add_argument("--level", default="12", help="bundled carrots level")
    parser.add_argument("--program", default=CARROTS_12)
    parser.add_argument("--csv", default=None, help="also write the figures to this CSV file")
    args = parser.parse_args()
    server = None
    url = args.url
    if url is None:
        server, url = start_server()
    try:
        body = {"game": "carrots", "level": args.level, "program": args.program}
        latencies, wall = asyncio.run(measure(url, body, args.clients, args.requests))
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, round(0.95 * len(latencies)) - 1)]
    print(f"# {time.strftime('%Y-%m-%d')}  {platform.processor() or platform.machine()}  {os.cpu_count()} cores")
    print(f"# POST /api/run carrots:{args.level} {args.program!r}: {args.clients} clients x {args.requests} requests")
    print(f"median {statistics.median(latencies) * 1000:.0f} ms  p95 {p95 * 1000:.0f} ms  "
          f"worst {latencies[-1] * 1000:.0f} ms  {len(latencies) / wall:.1f} requests/s")  # fmt: skip
    if args.csv:
        figures = {"game": "carrots", "level": args.level, "program": args.program, "clients": args.clients,
                   "requests": args.requests, "answered": len(latencies),
                   "median_seconds": round(statistics.median(latencies), 6), "p95_seconds": round(p95, 6),
                   "worst_seconds": round(latencies[-1], 6), "requests_per_second": round(len(latencies) / wall, 3),
                   "wall_seconds": round(wall, 6)}  # fmt: skip
        _results.write(args.csv, COLUMNS, [figures])


if __name__ == "__main__":
    main()
