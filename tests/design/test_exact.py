"""The exact count of Carrots behaviours (gridbot.solve.carrots.every) against every program of the par, run by
the simulator: the counts are equal, on boards where the solver's listing counts fewer, too."""

from __future__ import annotations

import pytest

import gridbot
from gridbot.deadline import Clock
from gridbot.games import carrots
from gridbot.generate.carrots import random_level
from gridbot.solve.analyze import analyze, behaviour
from gridbot.solve.carrots.every import behaviours

from . import brute


def small_boards(count: int, most_par: int) -> list[tuple[carrots.Level, int]]:
    """Random boards of 3 to 7 squares whose par is at most `most_par`, with their par."""
    found = []
    for seed in range(400):
        level = random_level(3, 3 if seed % 2 else 2, seed, fill=0.75, marked=0.15)
        result = gridbot.solve(level, max_length=most_par)
        if result.status == "optimal" and result.length and result.length <= most_par:
            found.append((level, result.length))
        if len(found) == count:
            break
    return found


def every_behaviour(level: carrots.Level, par: int) -> set[tuple[int, ...]]:
    """The marking orders of every winning program of `par` tokens whose counts are at most twice the board's
    states (more than any count the board can tell apart: the powers of a body repeat within that many on these
    boards), by the plain enumeration."""
    counts = 2 * 4 * level.size
    return {carrots.marks_in_order(level, p) for p in brute.carrots_winners(level, par, counts)}


BOARDS = small_boards(16, 4)


@pytest.mark.parametrize(("level", "par"), BOARDS, ids=[str(b[0].name) for b in BOARDS])
def test_exact_count_equals_every_program(level: carrots.Level, par: int) -> None:
    every = behaviours(level, par, 1000, Clock(None))
    assert every.complete
    assert set(every.keys) == every_behaviour(level, par)
    for key, program in zip(every.keys, every.programs, strict=True):
        assert program.tokens == par and carrots.run(level, program).verdict.won
        assert carrots.marks_in_order(level, program) == key
    a = analyze(level, cap=1000)
    assert (a.behaviours, a.behaviours_capped) == (len(every.keys), False)


def test_the_old_count_fails_where_the_exact_one_passes() -> None:
    """The old count (the solver's listed programs told apart by their states) is not the number of behaviours:
    on several of these boards it differs from the exact count, which the test above shows equal to the brute
    force's on every one of them (so the old one differs from the brute force's there)."""
    wrong = 0
    for level, par in BOARDS:
        listed = gridbot.solve(level, all_solutions=True)
        old = {tuple(carrots.states(level, p)) for p in listed.solutions}
        every = behaviours(level, par, 1000, Clock(None))
        assert every.complete
        wrong += len(old) != len(every.keys)
    assert wrong >= 3


def test_a_bundled_board_where_the_listing_undercounts() -> None:
    """carrots:5: the listed programs show fewer orders of marking than the programs of the par have; each one
    counted is a program the simulator runs to a win (analyze re-runs them), so the listing's is too few."""
    level = gridbot.load("carrots:5")
    a = analyze(level, longer=False, needed=False)
    listed = gridbot.solve(level, all_solutions=True)
    old = {behaviour(carrots, level, p) for p in listed.solutions}
    assert a.exact and a.behaviours > len(old)


def test_loop_counts_that_only_add_blocked_hops_are_one_behaviour() -> None:
    level = gridbot.load("carrots:2")
    runs = {tuple(carrots.states(level, carrots.parse_program(f"LOOP{{R LOOP({n}){{F}}}}"))) for n in range(2, 9)}
    assert len(runs) == 7  # seven runs as states: the count is free, so states would count without end
    a = analyze(level)
    assert (a.behaviours, a.behaviours_capped) == (1, False)  # one order of marking


def test_work_bound_gives_a_lower_bound() -> None:
    level = gridbot.load("carrots:9")
    every = behaviours(level, 6, 100, Clock(None), work=10_000)
    assert not every.complete


def test_most_stops_the_count() -> None:
    every = behaviours(gridbot.load("carrots:5"), 5, 3, Clock(None))
    assert len(every.keys) == 3 and not every.complete
