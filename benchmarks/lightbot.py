"""Benchmark: the 12 Light-Bot levels, each proven optimal or excluded up to some length.

    python benchmarks/lightbot.py                      # all 12, 300 s per level
    python benchmarks/lightbot.py 6 10 --time-limit 60 # some levels, another limit
    python benchmarks/lightbot.py --baseline-limit 20  # also the first solver, side by side
    python benchmarks/lightbot.py --csv benchmarks/results/lightbot-$(date +%F).csv

Prints per level the lights, status, length (or, for a level whose proof does
not finish, the length up to which every program is excluded), candidates
(search nodes), seconds and the program. With `--baseline-limit` it also runs
the first solver (tests/games/lightbot/lazy.py: lazy over whole programs, X
included, plain Python) on the same level and prints the length it excludes
or proves in that time. Kernel loading is measured apart, before the levels.
`--csv FILE` also writes one row per level (COLUMNS, the baseline's empty when
it is not run, then the run's date, machine, cores, Python, commit and command
line: benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import _results

COLUMNS = ("game", "level", "lights", "status", "length", "excluded", "candidates", "seconds", "program",
           "time_limit", "workers", "baseline_status", "baseline_length", "baseline_excluded", "baseline_seconds",
           "baseline_limit")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("levels", nargs="*", type=int, default=list(range(1, 13)))
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds per level")
    parser.add_argument("--workers", type=int, default=None, help="processes for long lengths (default: all cores)")
    parser.add_argument("--baseline-limit", type=float, default=0.0, help="seconds per level for the first solver")
    parser.add_argument("--csv", default=None, help="also write one row per level to this CSV file")
    args = parser.parse_args()

    t0 = time.perf_counter()
    import gridbot
    from gridbot.solve.lightbot import solve, warm_up

    warm_up()
    warm = time.perf_counter() - t0
    baseline = None
    if args.baseline_limit > 0:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.games.lightbot.lazy import solve as baseline

    print(f"# {time.strftime('%Y-%m-%d')}  {platform.processor() or platform.machine()}  {os.cpu_count()} cores")
    print(f"# kernel loaded in {warm:.2f} s; {args.time_limit:g} s per level; workers {args.workers or os.cpu_count()}")
    head = f"{'level':>5} {'lights':>6} {'status':>8} {'length':>6} {'excluded':>8} {'candidates':>14} {'seconds':>8}"
    print(head + ("  baseline (excluded / s)" if baseline else "") + "  program")
    wall = time.perf_counter()
    proven = 0
    with _results.rows(args.csv, COLUMNS) as out:
        for number in args.levels:
            level = gridbot.load(f"lightbot:{number}")
            r = solve(level, time_limit=args.time_limit, workers=args.workers)
            proven += r.status == "optimal"
            excluded = r.lower_bound - 1
            length = "-" if r.length is None else str(r.length)
            row = f"{number:>5} {level.size:>6} {r.status:>8} {length:>6} {excluded:>8} {r.stats['candidates']:>14,} "
            row += f"{r.seconds:>8.2f}"
            cells = {"game": "lightbot", "level": number, "lights": level.size, "status": r.status,
                     "length": r.length, "excluded": excluded, "candidates": r.stats["candidates"],
                     "seconds": round(r.seconds, 6), "program": "" if r.solution is None else str(r.solution),
                     "time_limit": args.time_limit, "workers": args.workers or os.cpu_count()}  # fmt: skip
            if baseline is not None:
                b = baseline(level, time_limit=args.baseline_limit)
                shown = f"optimal {b.length}" if b.status == "optimal" else f"{b.lower_bound - 1}"
                row += f"  {shown:>10} / {b.seconds:5.1f}"
                cells |= {"baseline_status": b.status, "baseline_length": b.length,
                          "baseline_excluded": b.lower_bound - 1, "baseline_seconds": round(b.seconds, 6),
                          "baseline_limit": args.baseline_limit}  # fmt: skip
            print(f"{row}  {r.solution if r.solution is not None else '(none found)'}", flush=True)
            out.add(cells)
    print(f"# {proven}/{len(args.levels)} proven optimal; {time.perf_counter() - wall:.1f} s wall in all")


if __name__ == "__main__":
    main()
