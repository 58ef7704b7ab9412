"""Benchmark: the RoboZZle solver over the bundled puzzles (the site's 982).

    python benchmarks/robozzle.py [--time-limit S] [--jobs N] [--csv FILE] [--set NAME] [IDS ...]

Per puzzle: the status (optimal = proven fewest slots; solved = a program, not proven; timeout; unsolvable),
the length, the lower bound (every shorter length excluded), seconds and search nodes. Then the totals of
solved and proven optimal, overall and by number of functions. Puzzles are solved in `--jobs` worker
processes, one puzzle each at a time (each with its own time limit). `--set` picks a list from
../shared/levels/robozzle/: `test` (published_solver_test_set.txt), `cached` (solved_by_published_solver.txt).
Every answer is re-run by the simulator before it counts.
"""

from __future__ import annotations

import argparse
import csv
import platform
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import as_completed
from pathlib import Path

import gridbot
from gridbot import levels
from gridbot.games import robozzle
from gridbot.solve import workers
from gridbot.solve.robozzle import warm_up

SETS = {"test": "published_solver_test_set.txt", "cached": "solved_by_published_solver.txt"}
SHARED = Path(__file__).resolve().parents[2] / "shared" / "levels" / "robozzle"


def one(name: str, time_limit: float, workers: int) -> dict:
    """Solve puzzle `name` with `workers` processes of its own; its row of the table (runs in a worker process)."""
    warm_up()  # once per worker: loading the compiled kernel is not solving
    level = gridbot.load(f"robozzle:{name}")
    result = robozzle.solve(level, time_limit=time_limit, workers=workers)
    if result.solution is not None and not robozzle.run(level, result.solution).verdict.won:
        raise AssertionError(f"robozzle:{name}: {result.solution} does not win")
    return {
        "id": name,
        "functions": sum(1 for s in level.slots if s),
        "slots": sum(level.slots),
        "status": result.status,
        "length": result.length,
        "lower_bound": result.lower_bound,
        "seconds": round(result.seconds, 3),
        "nodes": int(result.stats.get("candidates", 0)),
        "program": "" if result.solution is None else str(result.solution),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="puzzle ids (default: every bundled puzzle)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default 10)")
    parser.add_argument("--jobs", type=int, default=workers.cores(), help="worker processes (default: all cores)")
    parser.add_argument(
        "--workers", type=int, default=None, help="processes per puzzle (default: all cores with one job, else 1)"
    )
    parser.add_argument("--csv", help="write every puzzle's row to this file")
    parser.add_argument("--set", choices=sorted(SETS), help="a list of ids from ../shared/levels/robozzle/")
    args = parser.parse_args()
    ids = args.ids or levels.names("robozzle")
    if args.set:
        ids = (SHARED / SETS[args.set]).read_text().split()
    per_puzzle = args.workers if args.workers is not None else (workers.cores() if args.jobs == 1 else 1)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} on {platform.machine()}, "
          f"{workers.cores()} cores, {len(ids)} puzzles, {args.time_limit:g} s each, {args.jobs} jobs "
          f"of {per_puzzle} processes")  # fmt: skip
    rows = []
    started = time.monotonic()
    with workers.local_pool(args.jobs) as (pool, _):
        jobs = [pool.submit(one, name, args.time_limit, per_puzzle) for name in ids]
        for job in as_completed(jobs):
            row = job.result()
            rows.append(row)
            print(f"{row['id']:>6} {row['status']:<10} {row['length'] if row['length'] is not None else '-':>3}"
                  f" >={row['lower_bound']:<3} {row['seconds']:>7.2f} s {row['nodes']:>12,}  {row['program']}",
                  flush=True)  # fmt: skip
    rows.sort(key=lambda row: levels._natural(row["id"]))
    print(f"\n{len(rows)} puzzles in {time.monotonic() - started:.0f} s")
    by = Counter()
    for row in rows:
        for key in ("all", f"{row['functions']} functions"):
            by[key, "puzzles"] += 1
            by[key, "solved"] += row["status"] in ("optimal", "solved")
            by[key, "optimal"] += row["status"] == "optimal"
    print(f"{'':<12} {'puzzles':>7} {'solved':>7} {'optimal':>8}")
    for key in ["all"] + [f"{n} functions" for n in range(1, 6)]:
        if by[key, "puzzles"]:
            print(f"{key:<12} {by[key, 'puzzles']:>7} {by[key, 'solved']:>7} {by[key, 'optimal']:>8}")
    _failures(rows)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.DictWriter(f, fieldnames=list(rows[0]))
            out.writeheader()
            out.writerows(rows)
    return 0


def _failures(rows: list[dict]) -> None:
    """Where the time goes on the puzzles without a proof: slots given, lengths excluded, search speed."""
    open_rows = [row for row in rows if row["status"] in ("solved", "timeout")]
    if not open_rows:
        return
    print(f"\nwithout a proof: {len(open_rows)} ({sum(row['status'] == 'solved' for row in open_rows)} with a program)")
    print(f"{'slots given':<12} {'puzzles':>7} {'solved':>7} {'excluded up to (median)':>24}")
    bands = [(1, 10), (11, 15), (16, 20), (21, 30), (31, 50)]
    for low, high in bands:
        band = [row for row in open_rows if low <= row["slots"] <= high]
        if band:
            median = statistics.median(row["lower_bound"] - 1 for row in band)
            solved = sum(row["status"] == "solved" for row in band)
            print(f"{f'{low}-{high}':<12} {len(band):>7} {solved:>7} {median:>24g}")
    speeds = [row["nodes"] / row["seconds"] for row in open_rows if row["seconds"] > 0]
    print(f"search speed on them: median {statistics.median(speeds):,.0f} nodes/s")


if __name__ == "__main__":
    sys.exit(main())
