"""Benchmark: the Robo's Escape solver on every bundled level.

    python benchmarks/robos_escape.py                    # every level, 120 s each at most
    python benchmarks/robos_escape.py --time-limit 30 2 3
    python benchmarks/robos_escape.py --time-limit 60 --csv benchmarks/results/robos_escape-$(date +%F).csv

Per level: the status (optimal = proven best; solved = best found within the
time limit), the best score, its coins and tokens, the program, the search
nodes, the seconds and the nodes per second. Every answer is re-run by the simulator first.
`--csv FILE` also writes one row per level (COLUMNS, then the run's date, machine,
cores, Python, commit and command line: benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import platform

import _results
import gridbot
from gridbot import levels
from gridbot.games import robos_escape
from gridbot.solve.robos_escape import solve

COLUMNS = ("game", "level", "status", "score", "coins", "length", "candidates", "seconds", "program", "time_limit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="level names (default: every bundled level)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per level")
    parser.add_argument("--csv", default=None, help="also write one row per level to this CSV file")
    args = parser.parse_args()
    names = args.names or levels.names("robos_escape")
    print(f"# Python {platform.python_version()} on {platform.machine()}, time limit {args.time_limit:g} s per level")
    header = f"{'level':<18} {'status':<8} {'score':>5} {'coins':>5} {'tokens':>6} {'nodes':>11} {'seconds':>8}"
    print(f"{header} {'nodes/s':>10}  program")
    with _results.rows(args.csv, COLUMNS) as out:
        for name in names:
            spec = name if ":" in name else f"robos_escape:{name}"
            level = gridbot.load(spec)
            result = solve(level, time_limit=args.time_limit)
            stats = result.stats
            cells = {"game": "robos_escape", "level": spec.partition(":")[2], "status": result.status,
                     "candidates": stats["candidates"], "seconds": round(result.seconds, 6),
                     "time_limit": args.time_limit}  # fmt: skip
            if result.solution is None:
                print(f"{spec:<18} {result.status:<8} {'-':>5} {'-':>5} {'-':>6} {stats['candidates']:>11,}")
                out.add(cells)
                continue
            outcome = robos_escape.run(level, result.solution)
            assert outcome.score == stats["score"], (spec, str(result.solution))
            print(
                f"{spec:<18} {result.status:<8} {stats['score']:>5} {stats['coins']:>5} {result.length:>6}"
                f" {stats['candidates']:>11,} {result.seconds:>8.2f} {stats['candidates'] / result.seconds:>10,.0f}"
                f"  {result.solution}",
                flush=True,
            )
            out.add(cells | {"score": stats["score"], "coins": stats["coins"], "length": result.length,
                             "program": str(result.solution)})  # fmt: skip


if __name__ == "__main__":
    main()
