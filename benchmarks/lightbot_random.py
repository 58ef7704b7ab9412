"""Benchmark: Light-Bot on random levels, side by side with the plain lazy C++ search (a measuring instrument).

    python benchmarks/lightbot_random.py --ref /tmp/lbref/lightbot_ref             # seeds 0..99, 600 s caps
    python benchmarks/lightbot_random.py 0-29 --cap 120 --ref ... --csv out.csv    # a slice, shorter caps
    python benchmarks/lightbot_random.py 7 --no-command                             # gridbot only, in process

Level k is `gridbot.generate.lightbot.random_level(w, h, k, lights=n)` with w, h
in 3..8 and n in 3..7 drawn from random.Random(k) (heights 0 to 3). Per level:

- `ref`: the C++ baseline (/work/shared/baselines/lightbot_ref, built with
  `g++ -O2 -std=c++17 -pthread -o lightbot_ref lightbot_ref.cpp` outside the
  repository), run as `lightbot_ref solve LEVEL --threads 2`: its optimum, the
  time it reports and the process's wall time;
- `solver`: gridbot's `solve(level, time_limit=cap)` in this process, the
  kernel loaded before (warm): status, length and the solver's own seconds;
- `command`: the whole command `python -m gridbot.cli solve lightbot LEVEL
  --time-limit cap` in a new process: wall time (start-up included).

A level neither proves within the cap is reported as such. Proven optima of
the two must agree (a disagreement is printed and makes the exit status 1).
Ratios are the C++ time over gridbot's (above 1: gridbot faster); medians
over the levels both prove, with a level gridbot does not prove in the cap
counted at the cap.

`--csv FILE` also writes one row per level: the fields of Row, then the run's
date, machine, cores, Python, commit and command line (benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import _results

SRC = Path(__file__).resolve().parent.parent / "src"
RESULT = re.compile(r"RESULT min=(\d+) .* time=([\d.]+)")
RESOLUTION = 0.01  # seconds: the C++ reports its time to 10 ms; shorter times are ties


@dataclass(frozen=True, slots=True)
class Row:
    seed: int
    size: str
    lights: int
    ref_length: int | None  # None: not proven in the cap
    ref_seconds: float  # as the C++ reports it
    ref_wall: float
    status: str
    length: int | None
    proven: int  # lengths up to this excluded
    seconds: float  # gridbot's solver, warm
    command: float | None  # whole command wall time, None when not run


def level_of(seed: int):  # noqa: ANN201 - a gridbot Level (imported late, after the clock of the start-up)
    """The benchmark's level for `seed`: sides 3..8 and 3..7 lights drawn from the seed."""
    from gridbot.generate.lightbot import random_level

    rng = random.Random(seed)
    width, height, lights = rng.randint(3, 8), rng.randint(3, 8), rng.randint(3, 7)
    return random_level(width, height, seed, lights=lights, name=f"random-{seed}")


def run_ref(ref: str, path: Path, cap: float, threads: int) -> tuple[int | None, float, float]:
    """(optimum or None, seconds it reports, wall seconds) of the C++ baseline, stopped at the cap."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [ref, "solve", str(path), "--threads", str(threads)], capture_output=True, text=True, timeout=cap
        )
    except subprocess.TimeoutExpired:
        return None, cap, cap
    wall = time.perf_counter() - started
    found = RESULT.search(done.stdout)
    if found is None:
        return None, wall, wall
    return int(found.group(1)), float(found.group(2)), wall


def run_command(path: Path, cap: float) -> float:
    """Wall seconds of the whole gridbot command, from process start to exit."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gridbot.cli", "solve", "lightbot", str(path), "--time-limit", str(cap)],
        capture_output=True,
        env=env,
        timeout=cap + 60,
    )
    return time.perf_counter() - started


def seeds_of(specs: list[str]) -> list[int]:
    """`3`, `0-29` -> the seeds listed."""
    out: list[int] = []
    for spec in specs:
        first, _, last = spec.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def ratio(row: Row, cap: float, whole: bool = False) -> tuple[float | None, bool]:
    """(the C++ time over gridbot's, whether it is only a bound), both floored at RESOLUTION; a side that did
    not prove counts at the cap (the ratio is then a bound); None when neither proved."""
    ref_done, ours_done = row.ref_length is not None, row.status in ("optimal", "unsolvable")
    if not ref_done and not ours_done:
        return None, False
    ref = (row.ref_wall if whole else row.ref_seconds) if ref_done else cap
    ours = (row.command if whole else row.seconds) if ours_done else cap
    if ours is None:
        return None, False
    return max(ref, RESOLUTION) / max(ours, RESOLUTION), ref_done != ours_done


def shown(value: tuple[float | None, bool]) -> str:
    number, bound = value
    return "-" if number is None else f"{'>' if bound and number >= 1 else '<' if bound else ''}{number:.1f}x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seeds", nargs="*", default=["0-99"], help="seeds or ranges a-b (default 0-99)")
    parser.add_argument("--cap", type=float, default=600.0, help="seconds per level for each solver")
    parser.add_argument("--ref", default=None, help="the built lightbot_ref binary (omit: gridbot only)")
    parser.add_argument("--threads", type=int, default=2, help="threads of the C++ baseline")
    parser.add_argument("--workers", type=int, default=None, help="gridbot's processes (default: all cores)")
    parser.add_argument("--no-command", action="store_true", help="skip the whole-command runs")
    parser.add_argument("--csv", default=None, help="also write the rows to this CSV file")
    args = parser.parse_args()
    sys.path.insert(0, str(SRC))

    from gridbot.solve.lightbot import solve, warm_up

    started = time.perf_counter()
    warm_up()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}  {platform.machine()}  {os.cpu_count()} cores  cap {args.cap:g} s")
    print(f"# kernel loaded in {time.perf_counter() - started:.2f} s (before the clock of the warm runs)")
    head = f"{'seed':>4} {'size':>5} {'lights':>6} | {'ref':>4} {'ref s':>8} {'ref wall':>8} |"
    print(f"{head} {'status':>8} {'length':>6} {'solver s':>8} {'command':>8} | {'solver':>7} {'command':>7}")
    rows: list[Row] = []
    mismatches = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds_of(args.seeds):
            level = level_of(seed)
            path = Path(folder) / f"random-{seed}.txt"
            path.write_text(str(level) + "\n")
            if args.ref:
                ref_length, ref_seconds, ref_wall = run_ref(args.ref, path, args.cap, args.threads)
            else:
                ref_length, ref_seconds, ref_wall = None, float("nan"), float("nan")
            r = solve(level, time_limit=args.cap, workers=args.workers)
            command = None if args.no_command else run_command(path, args.cap)
            length = r.length if r.status in ("optimal", "solved") else None
            row = Row(
                seed,
                f"{len(level.heights[0])}x{len(level.heights)}",
                len(level.lights),
                ref_length,
                ref_seconds,
                ref_wall,
                r.status,
                length,
                r.lower_bound - 1,
                r.seconds,
                command,
            )
            rows.append(row)
            if ref_length is not None and r.status == "optimal" and ref_length != r.length:
                mismatches += 1
                print(f"# MISMATCH on seed {seed}: the C++ proves {ref_length}, gridbot {r.length}")
            if ref_length is not None and r.status == "unsolvable":
                mismatches += 1
                print(f"# MISMATCH on seed {seed}: the C++ proves {ref_length}, gridbot unsolvable")
            ref_text = "-" if ref_length is None else str(ref_length)
            length_text = "-" if length is None else str(length)
            cmd = "-" if command is None else f"{command:.2f}"
            line = f"{seed:>4} {row.size:>5} {row.lights:>6} | {ref_text:>4} {ref_seconds:>8.2f} {ref_wall:>8.2f} |"
            line += f" {r.status:>8} {length_text:>6} {r.seconds:>8.2f} {cmd:>8} |"
            line += f" {shown(ratio(row, args.cap)):>7} {shown(ratio(row, args.cap, whole=True)):>7}"
            print(line, flush=True)
    if args.csv:
        _results.write(args.csv, Row.__slots__, ({name: getattr(row, name) for name in Row.__slots__} for row in rows))
    summary(rows, args.cap)
    return 1 if mismatches else 0


def summary(rows: list[Row], cap: float) -> None:
    """Counts, medians of the ratios, and the levels where gridbot is slower."""
    ref = {r.seed for r in rows if r.ref_length is not None}
    ours = {r.seed for r in rows if r.status in ("optimal", "unsolvable")}
    print(f"# {len(rows)} levels; proven by the C++ {len(ref)}, by gridbot {len(ours)}, by both {len(ref & ours)};")
    print(f"#   by neither within {cap:g} s: {sorted({r.seed for r in rows} - ref - ours) or 'none'};")
    print(f"#   by gridbot only: {sorted(ours - ref) or 'none'}; by the C++ only: {sorted(ref - ours) or 'none'}")
    for whole, name in ((False, "solver (warm)"), (True, "whole command")):
        pairs = [(r, ratio(r, cap, whole)) for r in rows]
        known = [(r, value) for r, value in pairs if value[0] is not None]
        exact = [value for r, value in known if r.seed in ref and r.seed in ours]
        if not known:
            continue
        median = statistics.median(value for _, (value, _) in known)
        line = f"# {name}: median ratio {median:.1f}x over {len(known)} levels (unproven at the cap)"
        if exact:
            line += f", {statistics.median(v for v, _ in exact):.1f}x over the {len(exact)} both prove"
        print(line)
        slower = [r.seed for r, (value, bound) in known if value < 1 and not (bound and r.seed in ours)]
        print(f"#   slower than the C++ (beyond {RESOLUTION:g} s): {slower or 'none'}")
    times = [r for r in rows if r.seed in ref and r.seed in ours]
    if times:
        print(
            f"# medians over the levels both prove: C++ {statistics.median(r.ref_seconds for r in times):.2f} s "
            f"(wall {statistics.median(r.ref_wall for r in times):.2f} s), gridbot solver "
            f"{statistics.median(r.seconds for r in times):.2f} s"
            + (
                f", command {statistics.median(r.command for r in times if r.command is not None):.2f} s"
                if any(r.command is not None for r in times)
                else ""
            )
        )


if __name__ == "__main__":
    sys.exit(main())
