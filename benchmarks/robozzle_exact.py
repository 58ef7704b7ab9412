"""Benchmark: the RoboZZle exact search alone, in nodes, on puzzles it proves quickly.

    python benchmarks/robozzle_exact.py [--under S] [--shortest N] [--jobs N] [--rows CSV]
    python benchmarks/robozzle_exact.py --later DIR [--functions K] [--length N] [--jobs N]

Each puzzle a corpus run (`--rows`, default the bundled run of 2026-11-27) proved optimal in under `--under`
seconds at `--shortest` slots or more is solved again by the exact search only (`solve(level, beam=False,
workers=1)`, no heuristic, no time limit beyond 30 s), in `--jobs` processes side by side. With `--later`, the
puzzles are instead the site's JSON files in DIR that have at least `--functions` functions, each searched up to
`--length` slots (no time limit): the lengths a proof of the later puzzles spends its time on. Prints per puzzle
the status, length, nodes and seconds, then the totals, overall and on the puzzles that allow paints. Node counts
do not hang on the machine or the clock, so two versions of a cut compare exactly: same answers, fewer nodes."""

from __future__ import annotations

import argparse
import csv
import json
import time
from concurrent import futures
from pathlib import Path
from typing import Any

import gridbot
from gridbot.solve.robozzle import solve, warm_up

ROWS = Path(__file__).parent / "results" / "robozzle-2026-11-27.csv"


def one(name: str, length: int | None = None) -> tuple[str, str, int | None, int, float]:
    """(id, status, length, nodes, seconds) of the exact search on puzzle `name` (a bundled id or a JSON file),
    up to `length` slots if given (then with no time limit), else for 30 s at most."""
    level = _level(name)
    started = time.monotonic()
    limit = None if length is not None else 30
    result = solve(level, beam=False, workers=1, time_limit=limit, max_length=length)
    return name, result.status, result.length, int(result.stats["candidates"]), time.monotonic() - started


def _level(name: str) -> Any:
    return gridbot.load(name, "robozzle") if name.endswith(".json") else gridbot.load(f"robozzle:{name}")


def _later(folder: Path, functions: int) -> list[str]:
    """The JSON files in `folder` with at least `functions` functions, by id."""
    paths = sorted(folder.glob("*.json"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
    return [str(p) for p in paths if sum(int(n) > 0 for n in json.loads(p.read_text())["SubLengths"]) >= functions]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--under", type=float, default=3.0, help="proved in under this many seconds (default 3)")
    parser.add_argument("--shortest", type=int, default=5, help="at this many slots or more (default 5)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", type=Path, default=ROWS, help="a CSV of benchmarks/robozzle.py")
    parser.add_argument("--later", type=Path, help="a folder of the site's puzzles as JSON files, instead")
    parser.add_argument("--functions", type=int, default=3, help="with --later: at least this many (default 3)")
    parser.add_argument("--length", type=int, default=7, help="with --later: search up to this many slots (7)")
    args = parser.parse_args()
    if args.later is not None:
        ids, length = _later(args.later, args.functions), args.length
    else:
        with args.rows.open() as rows:
            ids = [row["id"] for row in csv.DictReader(rows) if row["status"] == "optimal"
                   and float(row["seconds"]) < args.under and int(row["length"]) >= args.shortest]  # fmt: skip
        length = None
    warm_up()
    totals = {"all": [0, 0, 0.0], "with paints": [0, 0, 0.0]}
    with futures.ProcessPoolExecutor(args.jobs, initializer=warm_up) as pool:
        for name, status, found, nodes, seconds in pool.map(one, ids, [length] * len(ids)):
            label = Path(name).stem if args.later is not None else name
            print(f"{label:>6} {status:8} {found if found is not None else '-':>3} {nodes:>13,} {seconds:7.3f} s")
            for key in ("all", "with paints") if _level(name).paints else ("all",):
                totals[key][0] += 1
                totals[key][1] += nodes
                totals[key][2] += seconds
    for key, (count, nodes, seconds) in totals.items():
        print(f"{key}: {count} puzzles, {nodes:,} nodes, {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
