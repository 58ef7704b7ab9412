"""Benchmark: the mirror cut (RoboZZle cut 14, Light-Bot cut 12) on puzzles that are their own mirror image, in nodes.

    python benchmarks/mirror.py [--game robozzle|lightbot] [--time-limit S] [--levels N] [--seed S] [--jobs N]

Each puzzle is solved by the exact search alone (no heuristic, no look-ahead, one process) twice, with the cut and
without (`Settings(mirror_cut=False)`), side by side in `--jobs` processes; it prints per puzzle both statuses,
lengths, lower bounds, nodes and seconds, then the totals over the puzzles both runs prove: the same answers, and
the ratio of nodes. RoboZZle: the bundled puzzles of both sets that are their own mirror image across the robot's
line of travel (88 of 1,231). Light-Bot: none of the 12 bundled levels is (level 12 comes closest: its top row
has no mirror image), so `--levels` random ones that are, from `--seed`: a top half of 7 x 7 heights (0 to 3),
its mirror image below, the robot in the middle of the left column facing east, 1 to 4 lights. Node counts do not
hang on the machine or the clock, so the two searches compare exactly."""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from concurrent import futures
from typing import Any

import gridbot
import robozzle as corpus  # benchmarks/robozzle.py: its `--set mirror`
from gridbot.games import lightbot
from gridbot.solve import lightbot as lightbot_solver
from gridbot.solve import robozzle as robozzle_solver

NO_GUESS = dataclasses.replace(lightbot_solver.DEFAULT, guess_after=float("inf"))  # the exact search alone


def mirrored_lightbot(rng: random.Random, side: int = 7) -> lightbot.Level:
    """A random Light-Bot level that is its own mirror image across the robot's row (the middle one)."""
    half = side // 2
    top = [[str(rng.choice("0000112233")) for _ in range(side)] for _ in range(half)]
    middle = [str(rng.choice("0000112")) for _ in range(side)]
    marks_top = [["." for _ in range(side)] for _ in range(half)]
    marks_middle = ["."] * side
    for _ in range(rng.randint(1, 2)):  # lights in mirrored pairs (above and below), or one on the middle row
        if rng.random() < 0.7:
            marks_top[rng.randrange(half)][rng.randrange(side)] = "*"
        else:
            marks_middle[rng.randrange(1, side)] = "*"
    marks_middle[0] = ">"
    middle[0] = "0"
    heights = top + [middle] + top[::-1]
    marks = marks_top + [marks_middle] + marks_top[::-1]
    return lightbot.Level.parse("\n".join(map("".join, heights)) + "\n\n" + "\n".join(map("".join, marks)))


def one(game: str, name: str, text: str, seconds: float, cut: bool) -> tuple[str, str, int | None, int, int, float]:
    """(name, status, length, lower bound, nodes, seconds) of the exact search, with the cut or without."""
    started = time.monotonic()
    if game == "robozzle":
        level: Any = gridbot.load(f"robozzle:{name}")
        settings: Any = dataclasses.replace(robozzle_solver.Settings(), mirror_cut=cut)
        result = robozzle_solver.solve(level, seconds, beam=False, workers=1, settings=settings)
    else:
        level = lightbot.Level.parse(text)
        settings = dataclasses.replace(NO_GUESS, mirror_cut=cut)
        result = lightbot_solver.solve(level, seconds, workers=1, settings=settings)
    nodes = int(result.stats["candidates"])
    return name, str(result.status), result.length, result.lower_bound, nodes, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("robozzle", "lightbot"), default="robozzle")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per puzzle and search (default 5)")
    parser.add_argument("--levels", type=int, default=30, help="Light-Bot: random levels (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="Light-Bot: the first level's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes side by side (default 2)")
    args = parser.parse_args()
    if args.game == "robozzle":
        cases = [(name, "") for name in corpus.puzzles("mirror")]
    else:
        made = [mirrored_lightbot(random.Random(args.seed + k)) for k in range(args.levels)]
        cases = [(f"seed {args.seed + k}", str(level)) for k, level in enumerate(made)]
    robozzle_solver.warm_up()
    lightbot_solver.warm_up()
    with futures.ProcessPoolExecutor(args.jobs) as pool:
        runs = {
            (name, cut): pool.submit(one, args.game, name, text, args.time_limit, cut)
            for name, text in cases
            for cut in (True, False)
        }
        both = [(runs[name, True].result(), runs[name, False].result()) for name, _ in cases]
    print(f"{'puzzle':>10}  {'with the cut':>34}  {'without':>34}")
    proven, nodes_cut, nodes_plain, seconds_cut, seconds_plain = 0, 0, 0, 0.0, 0.0
    for cut, plain in both:
        print(
            f"{cut[0]:>10}  "
            + "  ".join(f"{s:>9} {str(n):>3} >={b:<3} {k:>12,} {t:5.1f}s" for _, s, n, b, k, t in (cut, plain))
        )
        if cut[1] == plain[1] == "optimal":
            assert cut[2] == plain[2], f"{cut[0]}: {cut[2]} slots with the cut, {plain[2]} without"
            proven += 1
            nodes_cut, nodes_plain = nodes_cut + cut[4], nodes_plain + plain[4]
            seconds_cut, seconds_plain = seconds_cut + cut[5], seconds_plain + plain[5]
    gained = sum(1 for cut, plain in both if cut[1] == "optimal" and plain[1] != "optimal")
    lost = sum(1 for cut, plain in both if plain[1] == "optimal" and cut[1] != "optimal")
    higher = sum(1 for cut, plain in both if cut[3] > plain[3])
    print(f"\n{len(both)} puzzles; proven by both: {proven}, with the same lengths")
    if proven:
        print(f"  nodes {nodes_cut:,} with the cut against {nodes_plain:,} ({nodes_cut / nodes_plain:.3f});")
        print(f"  seconds {seconds_cut:.1f} against {seconds_plain:.1f}")
    print(f"proven with the cut only: {gained}; without it only: {lost}; a higher lower bound with the cut: {higher}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
