"""Benchmark: the RoboZZle annealer's steps a second (kern.anneal alone, no clock, no proof).

    python benchmarks/robozzle_anneal_steps.py [--steps N] [--seed K] IDS ...

Per puzzle: `--steps` steps of the annealer from seed `--seed` over programs of all the puzzle's slots, the
kernel compiled before the clock; prints the seconds, the steps a second and a digest of where the annealer ended
(each chain's generator, step, score and current program, and the node number). Two versions of the kernel that
take the same steps print the same digests, so running this from two checkouts (`PYTHONPATH=WT/src`) compares
their speed and shows that a change made the steps faster without changing them."""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import time

import gridbot
from gridbot.games import robozzle
from gridbot.kernels import robozzle as kern
from gridbot.solve import robozzle as rz


def anneal(puzzle: str, steps: int, seed: int) -> tuple[float, str, bool]:
    """(seconds, digest of the end state, whether a program won) of `steps` annealing steps on `puzzle`."""
    level = gridbot.load(f"robozzle:{puzzle}")
    annealer = rz.Annealer(rz.Board.of(level), robozzle.STACK_CAP, seed=seed)
    began = time.perf_counter()
    won = annealer.steps(steps, sum(level.slots), work=1 << 50)
    seconds = time.perf_counter() - began
    end = [annealer.lane.node, won]
    for chain in annealer.chains:
        end += [chain.state[: kern.A_SCORE + 1].tolist(), *(a.tolist() for a in chain.current)]
    return seconds, hashlib.sha256(json.dumps(end).encode()).hexdigest()[:12], won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("ids", nargs="+")
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} on {platform.machine()}, "
          f"{args.steps:,} steps from seed {args.seed}")  # fmt: skip
    anneal(args.ids[0], 1000, args.seed)  # compile before the clock
    total = 0.0
    for puzzle in args.ids:
        seconds, digest, won = anneal(puzzle, args.steps, args.seed)
        total += seconds
        print(f"{puzzle:>6} {seconds:7.2f} s {args.steps / seconds / 1e6:6.2f} M steps/s  {digest}"
              f"{'  won' if won else ''}", flush=True)  # fmt: skip
    print(f"total {total:.2f} s")


if __name__ == "__main__":
    main()
