"""The fast slice of the soak suite (soak.py, beside): every game's solver, through the command, on random levels from
tiny to the format's size limit and on hostile shapes, each under a time limit and an address-space limit.

benchmarks/soak.py runs the long version (more seeds, longer limits) and prints the figures of BENCHMARKS.md
(#every-game-through-the-command).
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gridbot import games, generate
from tests.soak import soak

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

TIME_LIMIT = 1.0
# levels at the format's size limit (a million squares for Carrots and Torch cave) get 5 s: there the command's
# fixed costs (imports, loading the compiled kernels, reading the board, re-running a long answer) alone take
# 1.5-3 s, more than a 1 s limit and its bound leave
LARGEST_TIME_LIMIT = 5.0


def limited(case: soak.Case) -> soak.Case:
    lines, side = case.text.split("\n"), soak.max_side(case.game)
    largest = max(len(lines), *map(len, lines)) >= side or len(case.text) >= side * side // 4
    return dataclasses.replace(case, time_limit=LARGEST_TIME_LIMIT) if largest else case


# named now, made when each test runs: every pytest process collects this file, the parallel run's too
SLICE = [
    case
    for game in games.GAMES
    for case in soak.planned(game, seeds=[7], time_limit=TIME_LIMIT, shapes=soak.sizes(game, quick=True))
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
def test_every_level_ends_in_time_with_a_clear_status(case: soak.Planned, tmp_path) -> None:
    outcome = soak.run_case(limited(case.make()), folder=tmp_path)
    assert outcome.passed, outcome.problem


@pytest.mark.parametrize("game", games.GAMES)
def test_random_levels_print_as_text_that_parses_back(game: str) -> None:
    module = games.get(game)
    for seed in range(5):
        level = generate.random_level(game, 6, 5, seed)
        assert module.Level.parse(str(level), name=level.name) == level
        assert generate.of(game).random_level(6, 5, seed) == level  # the same arguments give the same level


def test_a_case_over_its_bound_or_with_a_traceback_fails() -> None:
    case = soak.Case("carrots", "made up", "S#", 1.0)
    slow = soak._judge(case, 0, '{"status": "optimal", "length": 1}', "", soak.time_bound(1.0) + 1, 0, False)
    assert not slow.passed and "over the bound" in slow.problem
    crashed = soak._judge(case, 1, "", "Traceback (most recent call last):\nMemoryError", 0.5, 0, False)
    assert not crashed.passed and "traceback" in crashed.problem
    fine = soak._judge(case, 1, '{"status": "timeout", "length": null}', "", 1.5, 0, False)
    assert fine.passed
