"""An offline soak of the RoboZZle solver's cuts at lengths the unpruned enumeration cannot reach.

    python benchmarks/robozzle_invariance.py [--examples N] [--length L] [--time-limit S] [--seed K]

The same puzzle seen otherwise has the same fewest slots: F2..F5's sizes shuffled (the renaming cuts see the
functions in another order), the board turned, mirrored (L and R swap) and its colours renamed (conditions and
paints). Random puzzles of two to four rows and columns, up to five functions of up to five slots, are solved
both ways up to `--length` slots (exact search only, no heuristic) and the answers compared: an optimum on one
side must equal the other side's optimum and be no less than its lower bound, and "unsolvable" must agree. A cut
that drops a program with no searched twin shows as a disagreement; hypothesis then prints the smallest puzzle
it can find that shows it. The suite's tests (tests/games/robozzle/test_solver.py) run the same checks on fewer, smaller
puzzles up to 5 slots; this is the long run, for a change to a cut. Prints the number of pairs compared and how
many were proven on both sides.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from gridbot.result import SolveResult
from gridbot.solve.robozzle import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' puzzle strategy and board turner
from tests.games.robozzle.test_solver import puzzles, turned  # noqa: E402


def agree(a: SolveResult, b: SolveResult) -> bool:
    """Whether two answers for the same puzzle seen two ways are consistent: neither side's optimum is unsolvable
    or excluded on the other (an optimum's lower bound is its length, so two optima must be equal)."""
    return not any(
        x.status == "optimal" and (y.status == "unsolvable" or (y.lower_bound or 0) > x.length)
        for x, y in ((a, b), (b, a))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=300, help="random puzzles (default 300)")
    parser.add_argument("--length", type=int, default=8, help="most slots searched (default 8)")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per solve (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis's seed (default 0)")
    args = parser.parse_args()
    counts = {"pairs": 0, "both proven": 0}

    @seed(args.seed)
    @settings(max_examples=args.examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(
        puzzles(rows=(2, 4), cols=(2, 5), functions=5, max_slots=5),
        st.permutations(range(1, 5)),
        st.integers(0, 3),
        st.booleans(),
        st.permutations("RGB").map("".join),
    )
    def check(level, order, quarter_turns, mirror, colours) -> None:
        renamed = dataclasses.replace(level, slots=(level.slots[0], *(level.slots[k] for k in order)))
        other = turned(renamed, quarter_turns, mirror, colours)
        a = solve(level, max_length=args.length, time_limit=args.time_limit, beam=False)
        b = solve(other, max_length=args.length, time_limit=args.time_limit, beam=False)
        counts["pairs"] += 1
        counts["both proven"] += a.status == b.status == "optimal"
        assert agree(a, b), (level.rows, level.slots, order, quarter_turns, mirror, colours, a, b)

    start = time.monotonic()
    check()
    print(f"{counts['pairs']} pairs up to {args.length} slots, {counts['both proven']} proven on both sides, all "
          f"agree ({time.monotonic() - start:.0f} s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
