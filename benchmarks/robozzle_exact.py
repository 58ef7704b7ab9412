"""Benchmark: the RoboZZle exact search alone, in nodes, on puzzles it proves quickly.

    python benchmarks/robozzle_exact.py [--under S] [--shortest N] [--jobs N] [--rows CSV]

Each puzzle a corpus run (`--rows`, default the bundled run of 2026-11-27) proved optimal in under `--under`
seconds at `--shortest` slots or more is solved again by the exact search only (`solve(level, beam=False,
workers=1)`, no heuristic, no time limit beyond 30 s), in `--jobs` processes side by side. Prints per puzzle the
status, length, nodes and seconds, then the totals, overall and on the puzzles that allow paints. Node counts do
not hang on the machine or the clock, so two versions of a cut compare exactly: same answers, fewer nodes."""

from __future__ import annotations

import argparse
import csv
import time
from concurrent import futures
from pathlib import Path

import gridbot
from gridbot.solve.robozzle import solve, warm_up

ROWS = Path(__file__).parent / "results" / "robozzle-2026-11-27.csv"


def one(name: str) -> tuple[str, str, int | None, int, float]:
    """(id, status, length, nodes, seconds) of the exact search on puzzle `name`."""
    level = gridbot.load(f"robozzle:{name}")
    started = time.monotonic()
    result = solve(level, beam=False, workers=1, time_limit=30)
    return name, result.status, result.length, int(result.stats["candidates"]), time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--under", type=float, default=3.0, help="proved in under this many seconds (default 3)")
    parser.add_argument("--shortest", type=int, default=5, help="at this many slots or more (default 5)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", type=Path, default=ROWS, help="a CSV of benchmarks/robozzle.py")
    args = parser.parse_args()
    with args.rows.open() as rows:
        ids = [row["id"] for row in csv.DictReader(rows) if row["status"] == "optimal"
               and float(row["seconds"]) < args.under and int(row["length"]) >= args.shortest]  # fmt: skip
    warm_up()
    totals = {"all": [0, 0, 0.0], "with paints": [0, 0, 0.0]}
    with futures.ProcessPoolExecutor(args.jobs, initializer=warm_up) as pool:
        for name, status, length, nodes, seconds in pool.map(one, ids):
            print(f"{name:>6} {status:8} {length if length is not None else '-':>3} {nodes:>13,} {seconds:7.3f} s")
            for key in ("all", "with paints") if gridbot.load(f"robozzle:{name}").paints else ("all",):
                totals[key][0] += 1
                totals[key][1] += nodes
                totals[key][2] += seconds
    for key, (count, nodes, seconds) in totals.items():
        print(f"{key}: {count} puzzles, {nodes:,} nodes, {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
