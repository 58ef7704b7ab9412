"""Benchmark: the speed of the RoboZZle heuristic's beam, on one thread and on several.

    python benchmarks/robozzle_beam.py [--seconds S] [--threads N ...] IDS ...

Per puzzle and thread count: the beam (gridbot.solve.robozzle.Beam.run, no repair) for S seconds (default 2),
the children it scored per second, and whether it found a program. Then the children per second over all the
puzzles, per thread count, and their ratio to the first thread count given. The kernel is loaded before the
clock. Run it on a quiet machine: the threads share its cores with nothing else.
"""

from __future__ import annotations

import argparse
import platform
import time

import gridbot
from gridbot.deadline import Clock
from gridbot.solve import robozzle as solver


def beam_rate(name: str, threads: int, seconds: float) -> tuple[int, float, bool]:
    """The beam on puzzle `name` for `seconds` on `threads` threads: (children scored, seconds taken, found)."""
    level = gridbot.load(f"robozzle:{name}")
    beam = solver.Beam(solver.Board.of(level), 1024, threads=threads)
    started = time.monotonic()
    found = beam.run(sum(level.slots), Clock(None), seconds)
    return beam.nodes, time.monotonic() - started, found is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of beam per puzzle (default 2)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="thread counts (default 1 2)")
    parser.add_argument("ids", nargs="+", help="puzzle ids")
    args = parser.parse_args()
    solver.warm_up()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} on {platform.machine()}, "
          f"{len(args.ids)} puzzles, {args.seconds:g} s each")  # fmt: skip
    print("| puzzle | " + " | ".join(f"{n} thread(s): children/s" for n in args.threads) + " |")
    print("|---|" + "---:|" * len(args.threads))
    totals = {n: [0, 0.0] for n in args.threads}
    for name in args.ids:
        cells = []
        for n in args.threads:
            children, took, found = beam_rate(name, n, args.seconds)
            totals[n][0] += children
            totals[n][1] += took
            cells.append(f"{children / took:,.0f}{' (found)' if found else ''}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    first = totals[args.threads[0]][0] / totals[args.threads[0]][1]
    for n, (children, took) in totals.items():
        rate = children / took
        print(f"{n} thread(s): {rate:,.0f} children/s over all, {rate / first:.2f}x")


if __name__ == "__main__":
    main()
