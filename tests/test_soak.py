"""The fast slice of the soak suite (gridbot.soak): every game's solver, through the command, on random levels from
tiny to the format's size limit and on hostile shapes, each under a time limit and an address-space limit.

benchmarks/soak.py runs the long version (more seeds, longer limits) and prints the figures for BENCHMARKS.md.
"""

from __future__ import annotations

import importlib

import pytest

from gridbot import games, soak

# 2 s, as benchmarks/soak.py is run: at 1 s the largest Carrots board (1000 x 1000) spends 2.3-3.0 s of wall time in
# fixed costs no limit can cover (imports, loading the compiled kernels, reading a million squares, re-running a
# 343,000-token answer), against a bound of 2.5 s
TIME_LIMIT = 2.0
SLICE = [
    case
    for game in games.GAMES
    for case in soak.cases(game, seeds=[7], time_limit=TIME_LIMIT, shapes=soak.sizes(game, quick=True))
]


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    """Compile every solver's kernels before the clocks start: a fresh clone has no cache, and the children
    load what this process writes."""
    for game in games.GAMES:
        solver = importlib.import_module(f"gridbot.solve.{game}")
        if hasattr(solver, "warm_up"):
            solver.warm_up()


@pytest.mark.parametrize("case", SLICE, ids=[f"{case.game}: {case.name}" for case in SLICE])
def test_every_level_ends_in_time_with_a_clear_status(case: soak.Case, tmp_path) -> None:
    outcome = soak.run_case(case, folder=tmp_path)
    assert outcome.passed, outcome.problem


@pytest.mark.parametrize("game", games.GAMES)
def test_random_levels_print_as_text_that_parses_back(game: str) -> None:
    module = games.get(game)
    for seed in range(5):
        level = module.random_level(6, 5, seed)
        assert module.Level.parse(str(level), name=level.name) == level
        assert module.random_level(6, 5, seed) == level  # the same arguments give the same level


def test_a_case_over_its_bound_or_with_a_traceback_fails() -> None:
    case = soak.Case("carrots", "made up", "S#", 1.0)
    slow = soak._judge(case, 0, '{"status": "optimal", "length": 1}', "", soak.time_bound(1.0) + 1, 0, False)
    assert not slow.passed and "over the bound" in slow.problem
    crashed = soak._judge(case, 1, "", "Traceback (most recent call last):\nMemoryError", 0.5, 0, False)
    assert not crashed.passed and "traceback" in crashed.problem
    fine = soak._judge(case, 1, '{"status": "timeout", "length": null}', "", 1.5, 0, False)
    assert fine.passed
