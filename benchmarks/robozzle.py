"""Benchmark: the RoboZZle solver over the bundled puzzles: the site's first 982 and its 249 later ones, side by side.

    python benchmarks/robozzle.py [--time-limit S] [--jobs N | --scheduler ADDRESS] [--workers N] [--checkpoint FILE]
                                  [--csv FILE] [--proofs FILE] [--set NAME] [IDS ...]

First the machine's speed (`calibrate`: the exact search on a fixed puzzle, one process), then per puzzle: the
status (optimal = proven fewest slots; solved = a program, not proven; timeout; unsolvable), the length, the lower
bound (every shorter length excluded), seconds and search nodes. Then the totals of solved and proven optimal,
overall and by number of functions. Puzzles are tasks on the executor (gridbot.parallel.executors, as `gridbot
solve` runs them): `--jobs` local worker processes or the workers of a Dask cluster (`--scheduler tcp://HOST:PORT`
or `local:N`), each puzzle with its own time limit, the kernel loaded before the clock, as `gridbot solve` runs
them: on local processes the puzzles one after the other, each proof's long lengths split into shares over every
worker (the heuristics on threads beside); on a cluster one puzzle a worker. `--workers 1` runs one puzzle a
worker locally too (the first corpus run's mode, and the issue-50 figure of 66.7 %), and `--workers N` shares
each proof over N workers. `--checkpoint FILE` records each finished puzzle, so an interrupted run resumes. `--set`
picks the puzzles: `both` (the default: every bundled puzzle, the main set and `later`, reported side by side),
`main` (the 982 the solver's settings are chosen on), `later` (the site's later puzzles, which check that a change
carries over to puzzles it was not chosen on), `mirror` (the puzzles of both sets that are their own mirror image
across the robot's line of travel, where cut 14 of the exact search acts), or a list of main ids from
../shared/levels/robozzle/: `test` (published_solver_test_set.txt), `cached` (solved_by_published_solver.txt).
`--proofs FILE` writes the table of proof times that `gridbot levels` shows (the package's
data/robozzle/proofs.json). Every answer is re-run by the simulator before it counts. `--csv FILE` writes every
puzzle's row as the files of benchmarks/results/ hold them: COLUMNS, then the run's date, machine, cores, Python,
commit and command line (benchmarks/_results.py)."""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _results
import gridbot
from gridbot import levels
from gridbot.games import robozzle
from gridbot.parallel import executors, workers
from gridbot.result import SolveResult
from gridbot.solve import batch
from gridbot.solve.robozzle import warm_up
from gridbot.solve.robozzle.board import Board

PHASES = ("heuristic", "exact", "split", "unfinished", "annealer")  # Spent, as SolveResult.stats gives it
COLUMNS = ("id", "set", "functions", "slots", "status", "length", "lower_bound", "seconds", "nodes", "program", *PHASES)
LISTS = {"test": "published_solver_test_set.txt", "cached": "solved_by_published_solver.txt"}
SETS = ("both", *levels.level_sets("robozzle"), "mirror", *LISTS)
SHARED = Path(__file__).resolve().parents[2] / "shared" / "levels" / "robozzle"


def row_of(name: str, level: Any, result: SolveResult) -> dict:
    """Puzzle `name`'s row of the table, its answer re-run by the simulator first."""
    if result.solution is not None and not robozzle.run(level, result.solution).verdict.won:
        raise AssertionError(f"robozzle:{name}: {result.solution} does not win")
    return {
        "id": name,
        "set": next(s for s in levels.level_sets("robozzle") if name in levels.names("robozzle", s)),
        "functions": sum(1 for s in level.slots if s),
        "slots": sum(level.slots),
        "status": result.status,
        "length": result.length,
        "lower_bound": result.lower_bound,
        "seconds": round(result.seconds, 3),
        "nodes": int(result.stats.get("candidates", 0)),
        "program": "" if result.solution is None else str(result.solution),
        **{name: result.stats.get(f"seconds_{name}", 0.0) for name in PHASES},
    }


def corpus(
    run_on: executors.Executor, ids: list[str], time_limit: float, per_puzzle: int = 1, echo: bool = True
) -> list[dict]:
    """Solve the puzzles `ids` on the executor; their rows, in the order they finished. Puzzles are tasks (one
    process each), or with `per_puzzle` > 1 solved in turn here, their proofs' shares on the executor."""
    loaded = [gridbot.load(f"robozzle:{name}") for name in ids]
    rows = []
    if per_puzzle > 1:
        warm_up()
        answers = ((i, gridbot.solve(level, time_limit=time_limit, executor=run_on)) for i, level in enumerate(loaded))
    else:
        options = {"time_limit": time_limit, "all_solutions": False}
        answers = ((i, result) for i, result, _ in batch.solve_levels(run_on, robozzle.NAME, loaded, options,
                                                                           ordered=False, warm=True))  # fmt: skip
    for index, result in answers:
        row = row_of(ids[index], loaded[index], result)
        rows.append(row)
        if echo:
            print(f"{row['id']:>6} {row['status']:<10} {row['length'] if row['length'] is not None else '-':>3}"
                  f" >={row['lower_bound']:<3} {row['seconds']:>7.2f} s {row['nodes']:>12,}  {row['program']}",
                  flush=True)  # fmt: skip
    return rows


CALIBRATION = ("14", 7)  # a puzzle and the length its exact search excludes up to, as the machine's measure


def calibrate(repeat: int = 3) -> float:
    """The exact search's speed on this machine (where the benchmark runs, not a cluster's workers) now, in nodes a
    second (best of `repeat`): every length of CALIBRATION's puzzle up to its length excluded, one process, no
    heuristic (about a second each). A virtual machine's speed varies from day to day (docs/perf-log/), so runs
    are compared by this figure as well as by their counts."""
    warm_up()
    name, length = CALIBRATION
    level = gridbot.load(f"robozzle:{name}")
    best = 0.0
    for _ in range(repeat):
        result = gridbot.solve(level, max_length=length, beam=False, workers=1)
        if result.lower_bound != length + 1:  # pragma: no cover - the puzzle's optimum is above its length
            raise AssertionError(f"the calibration did not exclude every length up to {length}: {result}")
        best = max(best, result.stats["candidates"] / result.seconds)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="puzzle ids (default: those of --set)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default 10)")
    parser.add_argument("--jobs", type=int, default=None, help="local worker processes (default: all cores)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler, tcp://HOST:PORT, or local:N")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="workers a proof's shares go to (default: every local worker, puzzles in turn; on a cluster 1: one "
        "puzzle a worker)",
    )
    parser.add_argument("--checkpoint", default=None, help="record finished puzzles in this file (resume from it)")
    parser.add_argument("--csv", help="write every puzzle's row to this file")
    parser.add_argument("--proofs", help="write the seconds of each proof to this file (data/robozzle/proofs.json)")
    parser.add_argument("--set", choices=SETS, default="both", help="the puzzles to run (default both sets)")
    args = parser.parse_args()
    ids = args.ids or puzzles(args.set)
    started = time.monotonic()
    with executors.open_executor(args.jobs, args.scheduler, args.checkpoint) as run_on:
        if args.workers is None:
            args.workers = 1 if args.scheduler else run_on.workers
        where = args.scheduler or "local processes"
        mode = "puzzles in turn, shares on the workers" if args.workers > 1 else "one puzzle a worker"
        print(f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} on {platform.machine()}, "
              f"{workers.cores()} cores, {len(ids)} puzzles, {args.time_limit:g} s each, {run_on.workers} workers "
              f"({where}; {mode})")  # fmt: skip
        name, length = CALIBRATION
        print(f"# the exact search on robozzle:{name} to length {length}, one process: {calibrate():,.0f} nodes/s")
        rows = corpus(run_on, ids, args.time_limit, args.workers)
    rows.sort(key=lambda row: levels._natural(row["id"]))
    print(f"\n{len(rows)} puzzles in {time.monotonic() - started:.0f} s")
    print(summary(rows))
    if args.csv:
        _results.write(args.csv, COLUMNS, rows)
    _failures(rows)
    if args.proofs:
        command = " ".join(["benchmarks/robozzle.py", *sys.argv[1:]])
        Path(args.proofs).write_text(json.dumps(proof_table(rows, args.time_limit, command), indent=1) + "\n")
    return 0


def puzzles(chosen: str) -> list[str]:
    """The ids of the puzzles that `--set` names."""
    if chosen in LISTS:
        return (SHARED / LISTS[chosen]).read_text().split()
    sets = levels.level_sets("robozzle") if chosen in ("both", "mirror") else [chosen]
    names = [name for level_set in sets for name in levels.names("robozzle", level_set)]
    if chosen == "mirror":
        return [name for name in names if Board.of(gridbot.load(f"robozzle:{name}")).mirror]
    return names


def summary(rows: list[dict]) -> str:
    """Solved and proven optimal, overall and by the number of functions a puzzle gives, one column group per set
    of puzzles among `rows` (the main set and the later puzzles side by side)."""
    sets = [s for s in levels.level_sets("robozzle") if any(row["set"] == s for row in rows)]
    by = Counter()
    for row in rows:
        for key in ("all", f"{row['functions']} functions"):
            by[row["set"], key, "puzzles"] += 1
            by[row["set"], key, "solved"] += row["status"] in ("optimal", "solved")
            by[row["set"], key, "optimal"] += row["status"] == "optimal"

    def cells(level_set: str, key: str) -> str:
        count = by[level_set, key, "puzzles"]
        if not count:
            return f"{'':>7} {'':>14} {'':>14}"
        solved, proven = by[level_set, key, "solved"], by[level_set, key, "optimal"]
        return f"{count:>7} {f'{solved} {100 * solved / count:.1f}%':>14} {f'{proven} {100 * proven / count:.1f}%':>14}"

    width = 7 + 1 + 14 + 1 + 14
    lines = [f"{'':<12}" + "".join(f" | {level_set:^{width}}" for level_set in sets),
             f"{'':<12}" + "".join(f" | {'puzzles':>7} {'solved':>14} {'optimal':>14}" for _ in sets)]  # fmt: skip
    for key in ["all"] + [f"{n} functions" for n in range(1, 6)]:
        if any(by[level_set, key, "puzzles"] for level_set in sets):
            lines.append(f"{key:<12}" + "".join(f" | {cells(level_set, key)}" for level_set in sets))
    return "\n".join(lines)


def proof_table(rows: list[dict], time_limit: float, command: str) -> dict:
    """The proof times of `rows` as gridbot.levels reads them (data/GAME/proofs.json): where and how they were
    measured, the limit, the seconds of each proof, and the puzzles without one."""
    return {
        "about": f"{command} on {platform.machine()}, {workers.cores()} cores, {time.strftime('%Y-%m-%d')} "
        "(BENCHMARKS.md#robozzle): seconds of each proof (optimal or unsolvable); 'unproven': no proof within the "
        "limit "
        "(a winning program may have been found)",
        "limit": time_limit,
        "seconds": {row["id"]: row["seconds"] for row in rows if row["status"] in ("optimal", "unsolvable")},
        "unproven": [row["id"] for row in rows if row["status"] in ("solved", "timeout")],
    }


def _failures(rows: list[dict]) -> None:
    """Where the time goes on the puzzles without a proof: slots given, lengths excluded, search speed, and the
    seconds of each phase of the solve (Spent)."""
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
    print(
        "\nwhere their seconds went, mean a puzzle (heuristic turns, lengths in this process, lengths split over the"
        " workers;\nof those, the last, stopped by the clock; the annealer beside, at the same time as the first"
        " two)"
    )
    print(f"{'':<12} {'puzzles':>7} {'total':>6}" + "".join(f" {name:>10}" for name in PHASES))
    for status in ("timeout", "solved"):
        group = [row for row in open_rows if row["status"] == status]
        if group:
            means = [statistics.fmean(float(row[name]) for row in group) for name in ("seconds", *PHASES)]
            print(f"{status:<12} {len(group):>7}" + f" {means[0]:>6.2f}" + "".join(f" {m:>10.2f}" for m in means[1:]))


if __name__ == "__main__":
    sys.exit(main())
