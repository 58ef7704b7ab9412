"""Benchmark: torch caves of 100x100 with 20 torches, and Bender on 100x100 maps.

    python benchmarks/torch_bender.py                 # both games, default counts
    python benchmarks/torch_bender.py --caves 50 --maps 500 --seed 1
    python benchmarks/torch_bender.py --only torch    # or --only bender
    python benchmarks/torch_bender.py --caves 50 --maps 300 --csv benchmarks/results/torch_cave-bender-$(date +%F).csv

Torch caves come in three families of random caves (100x100, 20 torches,
fixed seeds):

- uniform: 25% walls; H, T and the torches anywhere;
- trek:    20% walls; H near the top-left corner, T near the bottom-right
           (about 195 steps, so 12 or more torches are needed), torches in a
           band along the diagonal;
- cluster: 10% walls; H in the middle of a 30x30 corner holding the 20
           torches, T at least 120 steps away: many orders of taking torches
           are nearly as good, the hard case for the exact search;
- wide cluster: the same with a 40x40 corner and T at least 150 steps away
           (about 10 torches needed; many caves have no path, which takes
           an exhaustive proof): the hardest family here.

Each cave is solved to a proof (optimal or no path); the answer is re-run by
the simulator. Times are the solver's wall time per cave, including its BFS.

Bender maps (100x100, border `#`) come in five families: random ones, sparse
(5% walls), busy (every kind of cell, 12% walls) and breaker (beer and 20% X),
where Bender soon loops; and two long ones, serpentine (a corridor winding
through the whole map, about 4,900 moves to the booth, breaking about 480 X on
the way, so as many epochs of loop detection) and serpentine loop (the same,
ending in a circuit: LOOP after about 5,000 moves). The time per map is
parse + solve. The start-up time is measured in a fresh interpreter:
importing the Bender modules and the first solve (not the start of Python).

`--csv FILE` also writes one row per cave and per map, both games in one file:
COLUMNS (game torch_cave or bender; the cave or map is the index-th drawn in
its family from the seed; labels for a cave, moves and broken X for a map),
then the run's date, machine, cores, Python, commit and command line
(benchmarks/_results.py). The start-up time is printed only.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time

import _results
from gridbot.games import bender, torch_cave
from gridbot.solve import bender as bender_solver
from gridbot.solve import torch_cave as cave_solver

SIDE = 100
TORCHES = 20
COLUMNS = ("game", "family", "seed", "index", "status", "length", "labels", "moves", "broken", "seconds")


# ---------------------------------------------------------------- torch caves


def _walls(rng: random.Random, density: float) -> list[list[str]]:
    return [["x" if rng.random() < density else " " for _ in range(SIDE)] for _ in range(SIDE)]


def _place(rng: random.Random, grid: list[list[str]], ch: str, rows: range, cols: range) -> None:
    while True:
        r, c = rng.choice(rows), rng.choice(cols)
        if grid[r][c] == " ":
            grid[r][c] = ch
            return


def cave_uniform(rng: random.Random) -> str:
    grid = _walls(rng, 0.25)
    for ch in "HT" + "t" * TORCHES:
        _place(rng, grid, ch, range(SIDE), range(SIDE))
    return "\n".join(map("".join, grid))


def cave_trek(rng: random.Random) -> str:
    grid = _walls(rng, 0.20)
    _place(rng, grid, "H", range(0, 6), range(0, 6))
    _place(rng, grid, "T", range(SIDE - 6, SIDE), range(SIDE - 6, SIDE))
    placed = 0
    while placed < TORCHES:
        s = rng.random() * (SIDE - 1)
        r, c = int(s) + rng.randint(-8, 8), int(s) + rng.randint(-8, 8)
        if 0 <= r < SIDE and 0 <= c < SIDE and grid[r][c] == " ":
            grid[r][c] = "t"
            placed += 1
    return "\n".join(map("".join, grid))


def cave_cluster(rng: random.Random, box: int = 30, far: int = 120) -> str:
    grid = _walls(rng, 0.10)
    middle = box // 2
    grid[middle][middle] = "H"
    for _ in range(TORCHES):
        _place(rng, grid, "t", range(box), range(box))
    while True:
        r, c = rng.randrange(SIDE), rng.randrange(SIDE)
        if abs(r - middle) + abs(c - middle) >= far and grid[r][c] == " ":
            grid[r][c] = "T"
            return "\n".join(map("".join, grid))


CAVES = {
    "uniform": cave_uniform,
    "trek": cave_trek,
    "cluster": cave_cluster,
    "wide cluster": lambda rng: cave_cluster(rng, box=40, far=150),
}


def bench_caves(count: int, seed: int, out: _results.Rows) -> None:
    print(f"## torch caves: {SIDE}x{SIDE}, {TORCHES} torches, {count} per family, seed {seed}")
    print()
    print("| family | optimal | no path | median s | p90 s | max s | under 1 s | mean steps | max labels |")
    print("|---|---|---|---|---|---|---|---|---|")
    for family, make in CAVES.items():
        rng = random.Random(f"{seed}-{family}")
        times, steps, labels = [], [], []
        statuses = {"optimal": 0, "unsolvable": 0}
        for index in range(count):
            level = torch_cave.Level.parse(make(rng))
            result = cave_solver.solve(level)
            times.append(result.seconds)
            statuses[result.status] += 1
            labels.append(result.stats.get("labels", 0))
            if result.status == "optimal":
                verdict = torch_cave.run(level, result.solution).verdict
                assert verdict.won and verdict.step == result.length
                steps.append(result.length)
            out.add({"game": "torch_cave", "family": family, "seed": seed, "index": index, "status": result.status,
                     "length": result.length, "labels": result.stats.get("labels", 0),
                     "seconds": round(result.seconds, 6)})  # fmt: skip
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        under = sum(t < 1.0 for t in times)
        mean_steps = f"{statistics.mean(steps):.0f}" if steps else "-"
        print(
            f"| {family} | {statuses['optimal']} | {statuses['unsolvable']} | {statistics.median(times):.3f}"
            f" | {p90:.3f} | {times[-1]:.3f} | {under}/{count} | {mean_steps} | {max(labels):,} |"
        )
    print()


# ---------------------------------------------------------------- Bender


def _bender_map(rng: random.Random, weights: dict[str, float]) -> str:
    inner = SIDE - 2
    kinds, probs = zip(*weights.items(), strict=True)
    grid = [list(rng.choices(kinds, probs, k=inner)) for _ in range(inner)]
    cells = rng.sample([(r, c) for r in range(inner) for c in range(inner)], 4)
    for (r, c), ch in zip(cells, "@$TT", strict=True):
        grid[r][c] = ch
    rows = ["#" * SIDE] + ["#" + "".join(row) + "#" for row in grid] + ["#" * SIDE]
    return f"{SIDE} {SIDE}\n" + "\n".join(rows)


MAPS = {
    "sparse": {" ": 0.93, "#": 0.05, "X": 0.01, "S": 0.0025, "E": 0.0025, "N": 0.0025, "W": 0.0025},
    "busy": {
        " ": 0.70,
        "#": 0.12,
        "X": 0.08,
        "S": 0.02,
        "E": 0.02,
        "N": 0.02,
        "W": 0.02,
        "I": 0.01,
        "B": 0.01,
    },
    "breaker": {" ": 0.62, "#": 0.04, "X": 0.20, "B": 0.06, "I": 0.02, "S": 0.015, "E": 0.015, "N": 0.015, "W": 0.015},
}


def serpentine(rng: random.Random, loop: bool) -> str:
    """A corridor winding through the whole map (about 4,900 moves), with 10% X broken in breaker mode.

    Corridors are the odd rows, joined by a gap at alternate ends of the wall
    rows; modifiers at the corners turn Bender round. With `loop`, the booth is
    sealed off and the end of the corridor turns into a circuit: LOOP.
    """
    inner = SIDE - 2
    grid = [[" "] * inner for _ in range(inner)]
    for r in range(1, inner - 1, 2):  # wall rows 1, 3, ... (0-based inside the border)
        gap = inner - 1 if (r // 2) % 2 == 0 else 0
        for c in range(inner):
            if c != gap:
                grid[r][c] = "#"
    for r in range(0, inner - 1, 2):  # corridors: X here and there, away from the corners
        for c in range(2, inner - 2):
            if rng.random() < 0.10:
                grid[r][c] = "X"
        if r > 0:
            grid[r][inner - 1 if (r // 2) % 2 == 1 else 0] = "W" if (r // 2) % 2 == 1 else "E"
    grid[0][0], grid[0][1] = "@", "B"
    last = inner - 2 if (inner - 2) % 2 == 0 else inner - 1
    if loop:
        grid[last][inner - 1] = " "
        grid[inner - 1][inner - 1] = "W"
        grid[inner - 1][0] = "N"
        grid[1][inner // 2] = "$"  # inside a wall row: never reached
    else:
        grid[last][inner - 1] = "$"
    rows = ["#" * SIDE] + ["#" + "".join(row) + "#" for row in grid] + ["#" * SIDE]
    return f"{SIDE} {SIDE}\n" + "\n".join(rows)


STARTUP = """
import time
t0 = time.perf_counter()
from gridbot.games import bender
from gridbot.solve.bender import solve
t1 = time.perf_counter()
level = bender.Level.parse(open({path!r}).read())
result = solve(level)
t2 = time.perf_counter()
print(f"{{t1 - t0:.4f}} {{t2 - t1:.4f}} {{t2 - t0:.4f}} {{result.stats['moves']}}")
"""


def bench_bender(count: int, seed: int, out: _results.Rows) -> None:
    print(f"## Bender: {SIDE}x{SIDE} maps, {count} per family, seed {seed}")
    print()
    print(
        "| family | reach $ | LOOP | median ms | p99 ms | max ms | < 50 ms | median moves | max moves | max X broken |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    slowest = ("", 0.0)
    families = {name: (lambda rng, w=w: _bender_map(rng, w)) for name, w in MAPS.items()}
    families["serpentine"] = lambda rng: serpentine(rng, loop=False)
    families["serpentine loop"] = lambda rng: serpentine(rng, loop=True)
    for family, make in families.items():
        rng = random.Random(f"{seed}-{family}")
        times, moves, broken = [], [], []
        booth = loops = 0
        for index in range(count):
            text = make(rng)
            start = time.perf_counter()
            level = bender.Level.parse(text)
            result = bender_solver.solve(level)
            seconds = time.perf_counter() - start
            out.add({"game": "bender", "family": family, "seed": seed, "index": index, "status": result.status,
                     "length": result.length, "moves": result.stats["moves"], "broken": result.stats["broken"],
                     "seconds": round(seconds, 6)})  # fmt: skip
            times.append(seconds)
            moves.append(result.stats["moves"])
            broken.append(result.stats["broken"])
            booth += result.status == "optimal"
            loops += result.status == "unsolvable"
            if seconds > slowest[1]:
                slowest = (text, seconds)
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        under = sum(t < 0.050 for t in times)
        print(
            f"| {family} | {booth} | {loops} | {1000 * statistics.median(times):.2f} | {1000 * p99:.2f}"
            f" | {1000 * times[-1]:.2f} | {under}/{count} | {statistics.median(moves):.0f} | {max(moves):,}"
            f" | {max(broken)} |"
        )
    print()
    # start-up: a fresh interpreter imports the modules and solves the slowest map once
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(slowest[0])
    try:
        runs = []
        for _ in range(5):
            out = subprocess.run(
                [sys.executable, "-c", STARTUP.format(path=f.name)], capture_output=True, text=True, check=True
            ).stdout.split()
            runs.append(tuple(map(float, out[:3])))
        imports, first, total = (statistics.median(x) for x in zip(*runs, strict=True))
        print(
            f"Start-up (fresh interpreter, slowest map above, median of 5): import {1000 * imports:.1f} ms,"
            f" first solve {1000 * first:.1f} ms, together {1000 * total:.1f} ms."
        )
    finally:
        os.unlink(f.name)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--caves", type=int, default=30, help="torch caves per family")
    parser.add_argument("--maps", type=int, default=300, help="Bender maps per family")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--only", choices=("torch", "bender"))
    parser.add_argument("--csv", default=None, help="also write one row per cave and per map to this CSV file")
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    print(f"# {time.strftime('%Y-%m-%d')}, {machine}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print()
    with _results.rows(args.csv, COLUMNS) as out:
        if args.only != "bender":
            bench_caves(args.caves, args.seed, out)
        if args.only != "torch":
            bench_bender(args.maps, args.seed, out)


if __name__ == "__main__":
    main()
