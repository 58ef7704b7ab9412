"""Benchmark: RoboZZle's heuristics alone (no proof), a fixed time per puzzle.

    python benchmarks/robozzle_heuristics.py [--seconds S] [--jobs N] [--kind KIND] [--seed K]
                                             [--unproven [--sample N] [--sample-seed K]] [IDS ...]

Each puzzle gets one heuristic (`--kind`: `beam`, the plain beam with its repair, scoring every other pair of passes
by roll-outs; `beam-plain`, the same without roll-outs (the beam up to 2026-11-26); `beam-R`, `beam-G`, `beam-B`,
the same on the puzzle's relaxation with conditions on that colour only, gridbot.solve.robozzle.relaxed, not
part of `solve`; `lookahead`; `anneal`; `anneal-relaxed`, the annealer for half the time and those beams for the
rest; `pair`, on two threads as `solve`'s heuristic turns on two cores were before 1e039e4: the beam and the
annealer beside it; `pair-seeded`, as `solve` spends them now: the same with every other round of the annealer
started from the beam's lead; run these with `--jobs 1`) on one thread for `--seconds`, looking for a program within
the puzzle's slots (no bound from a proof), in `--jobs` processes side by side, the kernels compiled before the
clock. A puzzle a kind does not apply to (a relaxation of a colour its conditions cannot name, or of a puzzle of one
colour) is left out. Prints, per puzzle, whether it found a program, its slots and the seconds it took; then how
many were found. `--unproven` takes the puzzles the bundled corpus run left without a proof
(gridbot/data/robozzle/proofs.json), `--sample N` N of them drawn with `--seed` (or `--sample-seed`). Every program
found is re-run by the simulator before it counts. Used to compare versions of a heuristic on the same puzzles; the
corpus figures come from benchmarks/robozzle.py."""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from concurrent import futures

import gridbot
from gridbot import levels
from gridbot.deadline import Clock
from gridbot.games import robozzle
from gridbot.solve import robozzle as rz
from gridbot.solve.robozzle.relaxed import relaxations

SETTINGS = rz.Settings()
KINDS = {"beam": 0, "anneal": 1, "lookahead": 2}  # member_of's seeds, modulo the settings' `team`
TEAM = SETTINGS.team
RELAXED = {"beam-R": 0, "beam-G": 1, "beam-B": 2}  # the colour a relaxed beam's conditions name


def unproven() -> list[str]:
    """The ids the bundled corpus run left without a proof (the proof times `gridbot levels` shows)."""
    names = levels.names(robozzle.NAME)
    return [name for name in names if levels.proof_time(robozzle.NAME, name).seconds is None]


class AnnealThenRelaxed:
    """One thread as the annealer beside the proof might spend it: the annealer for half the time, then a beam on
    each relaxation in turn for an equal part of the rest (the annealer all the time on a puzzle without any)."""

    def __init__(self, board: rz.Board, seed: int) -> None:
        self.annealer = rz.Annealer(board, robozzle.STACK_CAP, seed=TEAM * seed + KINDS["anneal"])
        self.beams = [rz.Beam(narrow, robozzle.STACK_CAP, seed=TEAM * seed) for narrow in relaxations(board)]

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> robozzle.Program | None:
        stop = clock.seconds + seconds
        found = self.annealer.guess(most_slots, clock, seconds / 2 if self.beams else seconds)
        for k, beam in enumerate(self.beams):
            if found is not None:
                break
            found = beam.guess(most_slots, clock, max(0.0, stop - clock.seconds) / (len(self.beams) - k))
        return found


class Pair:
    """Both cores as `solve` spends them in a heuristic turn: the team's beam on one thread and the annealer
    beside it on another (with `seeded`, every other round of the annealer starts from the beam's lead)."""

    def __init__(self, board: rz.Board, seed: int, seeded: bool) -> None:
        self.board, self.seed, self.seeded = board, seed, seeded
        self.team = rz.Team(board, robozzle.STACK_CAP, threads=1, annealer=False)

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> robozzle.Program | None:
        lead = self.team.lead_program if self.seeded else None
        beside = rz.Beside(self.board, robozzle.STACK_CAP, most_slots, seed=1 + TEAM * self.seed,
                           tell=self.team.found, lead=lead).start()  # fmt: skip
        try:
            self.team.guess(most_slots, clock, seconds)
        finally:
            beside.stop()
        found = [p for p in (self.team.best, beside.best) if p is not None]
        return min(found, key=lambda p: p.tokens, default=None)


def heuristic(board: rz.Board, kind: str, seed: int) -> rz.Beam | rz.Annealer | AnnealThenRelaxed | Pair | None:
    """The heuristic `kind` on `board`, or None when it does not apply."""
    if kind in KINDS:
        return rz.member_of(board, robozzle.STACK_CAP, TEAM * seed + KINDS[kind], SETTINGS)
    if kind == "anneal-relaxed":
        return AnnealThenRelaxed(board, seed)
    if kind in ("pair", "pair-seeded"):
        return Pair(board, seed, kind == "pair-seeded")
    if kind == "beam-plain":
        return rz.Beam(board, robozzle.STACK_CAP, seed=TEAM * seed, rollout=False)
    narrow = next((b for b in relaxations(board) if b.named == 2 << RELAXED[kind]), None)
    return None if narrow is None else rz.Beam(narrow, robozzle.STACK_CAP, seed=TEAM * seed)


def one(name: str, kind: str, seconds: float, seed: int) -> tuple[str, int | None, float, str] | None:
    """Puzzle `name`: the slots of the program found (None: none), the seconds to it, the program; None when the
    heuristic does not apply to it."""
    rz.warm_up()
    level = gridbot.load(f"robozzle:{name}")
    member = heuristic(rz.Board.of(level), kind, seed)
    if member is None:
        return None
    clock = Clock(None)
    found = member.guess(sum(level.slots), clock, seconds)
    took = clock.seconds
    if found is None:
        return name, None, took, ""
    if not robozzle.run(level, found).verdict.won:
        raise AssertionError(f"robozzle:{name}: {found} does not win")
    return name, found.tokens, took, str(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="puzzle ids")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per puzzle (default 4)")
    parser.add_argument("--jobs", type=int, default=2, help="processes side by side (default 2)")
    kinds = sorted([*KINDS, *RELAXED, "anneal-relaxed", "beam-plain", "pair", "pair-seeded"])
    parser.add_argument("--kind", choices=kinds, default="anneal")
    parser.add_argument("--seed", type=int, default=0, help="the heuristic's seed, and the sample's")
    parser.add_argument("--sample-seed", type=int, default=None, help="the sample's seed, when not --seed")
    parser.add_argument("--unproven", action="store_true", help="the puzzles the corpus run left without a proof")
    parser.add_argument("--sample", type=int, default=None, help="N of those, drawn with --seed")
    args = parser.parse_args()
    ids = list(args.ids)
    if args.unproven:
        left = unproven()
        drawn = args.seed if args.sample_seed is None else args.sample_seed
        ids += random.Random(drawn).sample(left, args.sample) if args.sample else left
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} Python {platform.python_version()} on {platform.machine()}, "
          f"{len(ids)} puzzles, {args.kind}, {args.seconds:g} s each, {args.jobs} jobs, seed {args.seed}")  # fmt: skip
    found, tried = [], 0
    with futures.ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(one, name, args.kind, args.seconds, args.seed) for name in ids]
        for job in jobs:
            if (row := job.result()) is None:
                continue
            tried += 1
            name, tokens, took, program = row
            print(f"{name:>6} {'-' if tokens is None else tokens:>3} {took:7.2f} s  {program}", flush=True)
            if tokens is not None:
                found.append(name)
    print(f"\nfound {len(found)} of {tried}: {' '.join(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
