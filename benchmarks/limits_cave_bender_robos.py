"""Soak run (issue 15) for Torch cave, Bender and Robo's Escape: random and hostile levels, each solved in a
fresh child process under a memory limit and a time limit.

    python benchmarks/limits_cave_bender_robos.py                 # all three games, default counts
    python benchmarks/limits_cave_bender_robos.py --per-game 40 --only torch_cave --address-space 3
    python benchmarks/limits_cave_bender_robos.py --named-caves 1 10   # built caves, time limits 1 s and 10 s

Each level is made by the game's `random_level` (gridbot.generate) (sizes from tiny to the format's limit, plus hostile
shapes: 1 x N, N x 1, all walls, all torches or coins or blocks, huge open caves); a child process builds
it, solves it with `time_limit`, re-runs any answer with the simulator and prints one JSON line. The
table gives, per game, the statuses, the largest overrun of the time limit measured inside the child
(solve's own wall time minus the limit; numba's start counts when the child loads it), the largest child
wall time and peak memory, and any failure (a traceback, a wrong answer, a killed child).

`--named-caves` solves instead a few 1000x1000 (and smaller) torch caves built to be hostile, one child
each: clustered torches round H with T far away, a serpentine corridor lit every 14 or 16 steps, and the
like (see NAMED), and prints one row per cave and time limit.
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
import gridbot
from gridbot.games import {game} as game
from gridbot.generate.{game} import random_level
level = random_level({width}, {height}, {seed}, **{options!r})
start = time.perf_counter()
result = gridbot.solve(level, time_limit={limit})
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


NAMED = {  # name: code that sets `level` (random, gridbot.games.torch_cave as t and its random_level imported)
    "random 1000x1000": "level = random_level(1000, 1000, 1)",
    "all torches": "level = random_level(1000, 1000, 3, torches=999_998, walls=0.0)",
    "walls, no path": "level = random_level(1000, 1000, 4, walls=1.0, solvable=False)",
    "open, dark": "level = random_level(1000, 1000, 5, torches=0, walls=0.0, solvable=False)",
    "open, 5000 torches": "level = random_level(1000, 1000, 7, torches=5000, walls=0.0, solvable=False)",
    "cluster 300x300, 200 torches": "level = cluster(300, 200, 40, 4)",
    "cluster 1000x1000, 5000 torches": "level = cluster(1000, 5000, 120, 2)",
    "cluster 1000x1000, 20000 torches": "level = cluster(1000, 20000, 300, 3)",
    "serpentine, torch every 14": "level = serpentine(1000, 14)",
    "serpentine, torch every 16": "level = serpentine(1000, 16)",
}

BUILDERS = """
import json, random, resource, time
import gridbot
from gridbot.games import torch_cave as t
from gridbot.generate.torch_cave import random_level

def cluster(side, n, box, seed):  # n torches in a box round H, T in the far corner
    rng = random.Random(seed)
    g = [["x" if rng.random() < 0.1 else "." for _ in range(side)] for _ in range(side)]
    g[box // 2][box // 2] = "H"
    placed = 0
    while placed < n:
        r, c = rng.randrange(box), rng.randrange(box)
        if g[r][c] == ".":
            g[r][c], placed = "t", placed + 1
    g[side - 1][side - 1] = "T"
    return t.Level.parse("\\n".join(map("".join, g)))

def serpentine(side, gap):  # one corridor through every other row, a torch every `gap` cells of it
    g = [["."] * side for _ in range(side)]
    for r in range(1, side - 1, 2):
        hole = side - 1 if (r // 2) % 2 == 0 else 0
        g[r] = ["x" if c != hole else "." for c in range(side)]
    g[0][0], n = "H", 0
    for r in range(0, side, 2):
        for c in range(side) if (r // 2) % 2 == 0 else range(side - 1, -1, -1):
            n += 1
            if n % gap == 0 and g[r][c] == ".":
                g[r][c] = "t"
    last = side - 1 if side % 2 else side - 2
    g[last][side - 1 if (last // 2) % 2 == 0 else 0] = "T"
    return t.Level.parse("\\n".join(map("".join, g)))

{make}
start = time.perf_counter()
result = gridbot.solve(level, time_limit={limit})
seconds = time.perf_counter() - start
ok = result.solution is None or t.run(level, result.solution).verdict.won
print(json.dumps({{"status": result.status, "length": result.length, "bound": result.lower_bound,
                  "seconds": seconds, "ok": ok, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""


def named_caves(limits: list[float], env: dict[str, str], cap) -> None:  # type: ignore[no-untyped-def]
    """One child per built cave and time limit: status, length, lower bound, solve seconds, peak memory."""
    print("| cave | limit s | status | length | lower bound | solve s | max MB | checked |")
    print("|---|---:|---|---:|---:|---:|---:|---|")
    for limit in limits:
        for name, make in NAMED.items():
            code = BUILDERS.format(make=make, limit=limit)
            done = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, env=env, preexec_fn=cap, timeout=600
            )
            if done.returncode != 0 or "Traceback" in done.stderr:
                print(f"| {name} | {limit} | failed: exit {done.returncode} {done.stderr.strip()[-120:]} |")
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            print(
                f"| {name} | {limit} | {row['status']} | {row['length'] or '-'} | {row['bound']}"
                f" | {row['seconds']:.2f} | {row['rss'] / 1024:.0f} | {'yes' if row['ok'] else 'NO'} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-game", type=int, default=60, help="levels per game")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--address-space", type=float, default=3.0, help="RLIMIT_AS of each child, GiB")
    parser.add_argument("--only", choices=("torch_cave", "bender", "robos_escape"))
    parser.add_argument("--named-caves", type=float, nargs="+", metavar="S", help="built caves at these limits")
    args = parser.parse_args()
    limit = int(args.address_space * 2**30)

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    machine = platform.processor() or platform.machine()
    print(f"# {time.strftime('%Y-%m-%d')}, {machine}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    if args.named_caves:
        print(f"# built torch caves, RLIMIT_AS {args.address_space} GiB per child\n")
        named_caves(args.named_caves, env, cap)
        return
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
