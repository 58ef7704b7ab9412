"""Benchmark: the executors on this machine, and what shares of a long proof promise on a cluster.

    python benchmarks/cluster.py [--lightbot LEVEL] [--robozzle-ids N] [--time-limit S]
                                 [--skip-runs | --proof-only | --no-shares] [--skip-one]

1. One long proof: Light-Bot LEVEL (default 6; level 10 takes ~11 minutes on 2 cores) solved with 1 worker (in
   this process: one worker never splits a length), 2 local worker processes, and a Dask LocalCluster of 2
   worker processes: seconds, speed-up over 1 worker, Dask's overhead against the local pool, and that the
   three answers agree (status, length, lengths excluded).
2. A corpus slice: the first N bundled RoboZZle puzzles (default 40) at S seconds each (default 5), each a
   task, on 1 local worker, 2 local workers and a 2-worker LocalCluster: wall seconds, speed-up, overhead,
   and that the statuses agree (a puzzle at the edge of its time limit may differ; they are listed).
3. Share sizes: the longest length of the Light-Bot proof and of RoboZZle puzzle 14 (its length 8) searched
   share by share in this process, for 16, 64, 512 and 4096 shares (8 a worker, as the solvers split, for 2,
   8, 64 and 512 workers): the seconds of the largest share against the whole length, and the speed-up that
   list scheduling of those shares on that many workers gives (shares taken in order by the first free
   worker, no overhead): the bound the largest share puts on a cluster. Then 4096 shares dealt one and two
   levels deeper in the search tree (the split depth + 1, + 2): finer subtrees, a smaller largest share; and the
   depth RoboZZle's solver chooses for each count (split_depth).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gridbot  # noqa: E402
import robozzle as corpus_bench  # noqa: E402 - benchmarks/robozzle.py, beside this file
from gridbot import levels  # noqa: E402
from gridbot.parallel import executors  # noqa: E402
from gridbot.solve import lightbot as lightbot_solver  # noqa: E402
from gridbot.solve import robozzle as robozzle_solver  # noqa: E402
from gridbot.solve.robozzle import exact as robozzle_exact  # noqa: E402

SHARE_COUNTS = (16, 64, 512, 4096)


def timed(work: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    out = work()
    return time.perf_counter() - started, out


def answer(result: object) -> tuple:
    return result.status, result.length, result.lower_bound  # type: ignore[attr-defined]


def proof(level_name: str, skip_one: bool = False) -> None:
    level = gridbot.load(f"lightbot:{level_name}")
    lightbot_solver.warm_up()
    print(f"\n## One proof: Light-Bot level {level_name}")
    one, alone = (None, None) if skip_one else timed(lambda: lightbot_solver.solve(level, workers=1))
    with executors.local(2) as run_on:
        two, pooled = timed(lambda: lightbot_solver.solve(level, executor=run_on))
    with executors.dask("local:2") as run_on:
        run_on.client.run(lightbot_solver.warm_up)  # loading the kernels in every worker is not solving
        dask_two, clustered = timed(lambda: lightbot_solver.solve(level, executor=run_on))
    print("| run | seconds | speed-up | answer |")
    print("|---|---:|---:|---|")
    for name, seconds, result in (("1 worker", one, alone), ("2 local processes", two, pooled),
                                  ("Dask LocalCluster, 2 workers", dask_two, clustered)):  # fmt: skip
        if seconds is None:
            print(f"| {name} | not run (--skip-one) | | |")
            continue
        speed_up = "" if one is None else f"{one / seconds:.2f}x"
        print(f"| {name} | {seconds:.1f} | {speed_up} | {answer(result)} |")
    agree = answer(pooled) == answer(clustered) and (alone is None or answer(alone) == answer(pooled))
    print(f"Dask overhead against the local pool: {100 * (dask_two / two - 1):+.1f} %; answers agree: {agree}")


def corpus_slice(count: int, time_limit: float) -> None:
    ids = levels.names("robozzle")[:count]
    print(f"\n## A corpus slice: RoboZZle puzzles {ids[0]}..{ids[-1]} ({count}), {time_limit:g} s each")
    runs = {}
    for name, opener in (
        ("1 local worker", lambda: executors.local(1)),
        ("2 local workers", lambda: executors.local(2)),
        ("Dask LocalCluster, 2 workers", lambda: executors.dask("local:2")),
    ):
        with opener() as run_on:
            seconds, rows = timed(lambda run_on=run_on: corpus_bench.corpus(run_on, ids, time_limit, echo=False))
        runs[name] = (seconds, {row["id"]: row for row in rows})
    one = runs["1 local worker"][0]
    local_two = runs["2 local workers"][0]
    print("| run | wall seconds | speed-up | solved | proven |")
    print("|---|---:|---:|---:|---:|")
    for name, (seconds, rows) in runs.items():
        solved = sum(row["status"] in ("optimal", "solved") for row in rows.values())
        proven = sum(row["status"] in ("optimal", "unsolvable") for row in rows.values())
        print(f"| {name} | {seconds:.1f} | {one / seconds:.2f}x | {solved} | {proven} |")
    overhead = runs["Dask LocalCluster, 2 workers"][0] / local_two - 1
    print(f"Dask overhead against the local pool: {100 * overhead:+.1f} %")
    base = runs["1 local worker"][1]
    for name, (_, rows) in runs.items():
        differ = [i for i in ids if (rows[i]["status"], rows[i]["length"]) != (base[i]["status"], base[i]["length"])]
        if differ:
            print(f"{name}: other status or length than 1 worker on {', '.join(differ)} (at the time limit's edge)")


def schedule(sizes: list[float], workers: int) -> float:
    """Makespan of list scheduling: each share, in order, to the first worker free. O(shares x workers)."""
    free = [0.0] * workers
    for size in sizes:
        k = min(range(workers), key=free.__getitem__)
        free[k] += size
    return max(free)


def share_sizes(title: str, depth: int, run_share: Callable[[int, int, int], object]) -> None:
    """The table of one length's share sizes (`run_share(k, n, depth)`: share k of n dealt at `depth`): for each
    count of SHARE_COUNTS at the solver's split depth `depth`, then for the most shares at two depths further
    (finer subtrees: what to do where the largest share limits)."""
    print(f"\n## Share sizes: {title}")
    print("| shares | split depth | workers (8 shares each) | whole length s | largest share s | median share s | "
          "empty shares | expected speed-up |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    runs = [(count, depth) for count in SHARE_COUNTS] + [(SHARE_COUNTS[-1], depth + d) for d in (1, 2)]
    for count, split in runs:
        sizes = []
        for k in range(count):
            seconds, _ = timed(lambda k=k, count=count, split=split: run_share(k, count, split))
            sizes.append(seconds)
        whole = sum(sizes)
        workers = count // 8
        empty = sum(size < 0.001 for size in sizes)
        median = statistics.median(sizes)
        print(f"| {count} | {split} | {workers} | {whole:.2f} | {max(sizes):.3f} | {median:.4f} | {empty} | "
              f"{whole / schedule(sizes, workers):.1f}x |")  # fmt: skip


def lightbot_share(t: object, length: int, budget: int, k: int, n: int, depth: int) -> object:
    """Share k of n of a Light-Bot length dealt at `depth`."""
    settings = dataclasses.replace(lightbot_solver.DEFAULT, split_depth=depth)
    return lightbot_solver._worker_share(t, length, False, None, k, n, budget, settings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lightbot", default="6", help="the Light-Bot level of the long proof (default 6)")
    parser.add_argument("--robozzle-ids", type=int, default=40, help="puzzles in the corpus slice (default 40)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per puzzle of the slice (default 5)")
    parser.add_argument("--skip-runs", action="store_true", help="only the share sizes")
    parser.add_argument("--proof-only", action="store_true", help="only the one proof")
    parser.add_argument("--no-shares", action="store_true", help="the proof and the corpus slice, not the share sizes")
    parser.add_argument("--skip-one", action="store_true", help="the proof on the two executors only (no 1 worker)")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")  # fmt: skip
    if not args.skip_runs:
        proof(args.lightbot, args.skip_one)
        if args.proof_only:
            return 0
        corpus_slice(args.robozzle_ids, args.time_limit)
        if args.no_shares:
            return 0
    level = gridbot.load(f"lightbot:{args.lightbot}")
    t = lightbot_solver.tables(level)
    longest = lightbot_solver.solve(level, workers=1).length - 1  # the last length excluded: the dearest one
    budget = lightbot_solver.memory_budget(0.5)
    share_sizes(
        f"Light-Bot level {args.lightbot}, length {longest} (excluded)",
        lightbot_solver.DEFAULT.split_depth,
        lambda k, n, depth: lightbot_share(t, longest, budget, k, n, depth),
    )
    board = robozzle_solver.Board.of(gridbot.load("robozzle:14"))
    cap = gridbot.games.robozzle.STACK_CAP
    rz = robozzle_solver.Settings()
    share_sizes(
        "RoboZZle puzzle 14, length 8 (excluded)",
        rz.shallowest_split,
        lambda k, n, depth: robozzle_exact._share(board, 8, cap, False, None, depth, rz, k, n),
    )
    whole = robozzle_exact._search_length(board, 8, cap, False, None, rz)
    chosen = [(n, robozzle_solver.split_depth(board, 8, cap, n, whole.nodes // n, rz)) for n in SHARE_COUNTS]
    print(
        f"\nThe depth split_depth chooses for length 8 ({whole.nodes:,} nodes; each share's walk above the depth "
        f"at most that over the shares): " + ", ".join(f"{n} shares: {d}" for n, d in chosen)
    )
    print(f"\nload at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
