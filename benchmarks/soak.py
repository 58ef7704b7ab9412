"""The long soak run: every game's solver, through the `gridbot` command, on many random levels from tiny to the
format's size limit and on hostile shapes, each under a time limit and an address-space limit (tests/soak/soak.py).

    python benchmarks/soak.py [--seeds N] [--time-limit S] [--memory GIB] [--csv FILE] [GAME ...]

Prints one line per failing case as it happens and a table per game: cases, passed, statuses, the slowest case
against its bound, and the largest resident set. Exit status 1 if any case failed. `--csv FILE` also writes every
case's outcome, one row each (COLUMNS, then the run's date, machine, cores, Python, commit and command line:
benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import _results
from gridbot import games

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the harness lives with the tests
from tests.soak import soak  # noqa: E402

COLUMNS = ("game", "case", "status", "length", "exit", "seconds", "peak_mb", "problem")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(games.GAMES))
    parser.add_argument("--seeds", type=int, default=5, help="random levels per size (default 5)")
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per level (default 2)")
    parser.add_argument("--memory", type=float, default=4.0, help="address space per level in GiB (default 4)")
    parser.add_argument("--csv", help="write every case's outcome to this file")
    args = parser.parse_args()
    rows = []
    print(f"{'game':<13} {'cases':>5} {'passed':>6}  {'slowest/bound':>13}  {'peak MB':>7}  statuses")
    for game in args.games:
        outcomes = []
        for outcome in soak.run_all(
            soak.cases(game, list(range(args.seeds)), args.time_limit), int(args.memory * 2**30)
        ):
            outcomes.append(outcome)
            if not outcome.passed:
                print(f"  FAILED {game}: {outcome.case.name}: {outcome.problem}", file=sys.stderr)
        rows += outcomes
        statuses = Counter(o.status for o in outcomes)
        slowest = max(outcomes, key=lambda o: o.seconds)
        ratio = slowest.seconds / (soak.time_bound(args.time_limit) + soak.START_UP)
        peak = max(o.peak_bytes for o in outcomes) / 2**20
        passed = sum(o.passed for o in outcomes)
        summary = ", ".join(f"{count} {status}" for status, count in statuses.most_common())
        print(f"{game:<13} {len(outcomes):>5} {passed:>6}  {ratio:>13.2f}  {peak:>7.0f}  {summary}", flush=True)
    if args.csv:
        _results.write(args.csv, COLUMNS, (row_of(o) for o in rows))
    return 0 if all(o.passed for o in rows) else 1


def row_of(o: soak.Outcome) -> dict:
    """A case's row of the CSV file (COLUMNS)."""
    return {"game": o.case.game, "case": o.case.name, "status": o.status, "length": o.length, "exit": o.exit_code,
            "seconds": f"{o.seconds:.3f}", "peak_mb": f"{o.peak_bytes / 2**20:.0f}", "problem": o.problem}  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
