"""Soak run (issue 15) for Torch cave, Bender and Robo's Escape: random and hostile levels, each solved in a
fresh child process under a memory limit and a time limit.

    python benchmarks/limits_cave_bender_robos.py                 # all three games, default counts
    python benchmarks/limits_cave_bender_robos.py --per-game 40 --only torch_cave --address-space 3

Each level is made by the game's `random_level` (sizes from tiny to the format's limit, plus hostile
shapes: 1 x N, N x 1, all walls, all torches or coins or blocks, huge open caves); a child process builds
it, solves it with `time_limit`, re-runs any answer with the simulator and prints one JSON line. The
table gives, per game, the statuses, the largest overrun of the time limit measured inside the child
(solve's own wall time minus the limit; numba's start counts when the child loads it), the largest child
wall time and peak memory, and any failure (a traceback, a wrong answer, a killed child).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")

CHILD = """
import json, resource, sys, time
from gridbot.games import {game} as game
level = game.random_level({width}, {height}, {seed}, **{options!r})
start = time.perf_counter()
result = game.solve(level, time_limit={limit})
seconds = time.perf_counter() - start
ok = True
if result.solution is not None:
    ok = game.run(level, result.solution).verdict.won
print(json.dumps({{"status": result.status, "seconds": seconds, "ok": ok,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "reason": (result.stats or {{}}).get("reason", "")}}))
"""


def cases(game: str, rng: random.Random, count: int) -> list[tuple[int, int, dict, float]]:
    """(width, height, random_level options, time limit) for `count` levels of `game`: half random sizes, half
    drawn from the hostile shapes."""
    limits = (0.5, 1.0, 2.0)
    if game == "torch_cave":
        hostile = [
            (1, 1000, {}),
            (1000, 1, {"solvable": False, "torches": 60}),
            (1000, 1000, {"walls": 1.0}),
            (1000, 1000, {"walls": 1.0, "solvable": False}),
            (1000, 1000, {"walls": 0.0, "torches": 999_998}),
            (1000, 1000, {"walls": 0.0, "torches": 0, "solvable": False}),
            (1000, 1000, {"walls": 0.0, "torches": 5000, "solvable": False}),
            (300, 300, {"walls": 0.1, "torches": 3000}),
            (1000, 1000, {}),
        ]
        side = 1000
    elif game == "bender":
        hostile = [
            (3, 1000, {}),
            (1000, 3, {}),
            (1000, 1000, {"tiles": {"#": 1.0}}),
            (1000, 1000, {"tiles": {"X": 0.9, "B": 0.1}}),
            (1000, 1000, {"tiles": {"I": 1.0}}),
            (1000, 1000, {"tiles": {"N": 1.0, "E": 1.0, "S": 1.0, "W": 1.0, " ": 2.0}}),
            (1000, 1000, {"reach": False}),
        ]
        side = 1000
    else:
        hostile = [
            (1, 10, {}),
            (10, 1, {"coins": 4}),
            (10, 10, {"walls": 0.0, "lasers": 0.0, "coins": 0, "blocks": 0}),
            (10, 10, {"walls": 1.0}),
            (10, 10, {"coins": 98, "blocks": 0}),
            (10, 10, {"coins": 0, "blocks": 98}),
            (10, 10, {"walls": 0.0, "lasers": 1.0, "coins": 3}),
            (10, 10, {"solvable": False, "walls": 0.5}),
            (10, 10, {}),
        ]
        side = 10
    low = 3 if game == "bender" else 1
    out = []
    for i in range(count):
        if i % 2:
            width, height, options = rng.choice(hostile)
        else:
            width = rng.choice([low, low + 1, 5, max(2, side // 10), side // 3, side])
            height = rng.choice([low + 1, 5, max(2, side // 10), side // 3, side])
            options = {}
        out.append((max(width, low), max(height, low), options, rng.choice(limits)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-game", type=int, default=60, help="levels per game")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--address-space", type=float, default=3.0, help="RLIMIT_AS of each child, GiB")
    parser.add_argument("--only", choices=("torch_cave", "bender", "robos_escape"))
    args = parser.parse_args()
    limit = int(args.address_space * 2**30)

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    machine = platform.processor() or platform.machine()
    print(f"# {time.strftime('%Y-%m-%d')}, {machine}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"# {args.per_game} levels per game, seed {args.seed}, RLIMIT_AS {args.address_space} GiB per child\n")
    print("| game | levels | optimal | solved | unsolvable | timeout | max overrun s | max child s | max MB | failed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for game in ("torch_cave", "bender", "robos_escape"):
        if args.only and game != args.only:
            continue
        rng = random.Random(f"{args.seed}-{game}")
        counts = dict.fromkeys(("optimal", "solved", "unsolvable", "timeout"), 0)
        overrun = wall = peak = 0.0
        failures = []
        for seed, (width, height, options, time_limit) in enumerate(cases(game, rng, args.per_game)):
            code = CHILD.format(game=game, width=width, height=height, seed=seed, options=options, limit=time_limit)
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, env=env, preexec_fn=cap, timeout=600
            )
            wall = max(wall, time.perf_counter() - start)
            what = f"{width}x{height} {options} limit {time_limit}"
            if done.returncode != 0 or "Traceback" in done.stderr:
                failures.append(f"{what}: exit {done.returncode} {done.stderr.strip()[-200:]}")
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            counts[row["status"]] += 1
            overrun = max(overrun, row["seconds"] - time_limit)
            peak = max(peak, row["rss"] / 1024)
            if not row["ok"]:
                failures.append(f"{what}: the answer does not check")
            if row["seconds"] > time_limit + max(1.0, time_limit / 10):
                failures.append(f"{what}: {row['seconds']:.2f} s")
        print(
            f"| {game} | {args.per_game} | {counts['optimal']} | {counts['solved']} | {counts['unsolvable']}"
            f" | {counts['timeout']} | {overrun:.2f} | {wall:.1f} | {peak:.0f} | {'; '.join(failures) or 'none'} |"
        )


if __name__ == "__main__":
    main()
