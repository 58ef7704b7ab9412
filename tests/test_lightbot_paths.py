"""Programs from pieces of winning walks: the walks, the exact shortest main, and programs that win."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.kernels import lightbot_paths as kern
from gridbot.kernels.lightbot import board_arrays
from gridbot.solve import lightbot_paths
from gridbot.solve.lightbot_paths import from_paths, winning_walks

from . import brute_lightbot
from .test_lightbot_solve import small_levels

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_walks_of_level_10_are_its_shortest() -> None:
    level = gridbot.load("lightbot:10")
    walks = winning_walks(level, slack=0)
    assert walks and {len(w) for w in walks} == {31}
    for walk in walks:
        assert lightbot.run(level, Program(walk)).verdict.won


def test_level_10_gets_a_program_quickly() -> None:
    level = gridbot.load("lightbot:10")
    program = from_paths(level, seconds=5)
    assert program is not None and program.tokens <= 23
    assert lightbot.run(level, program).verdict.won


def test_many_lights_are_left_to_the_exact_search() -> None:
    assert from_paths(gridbot.load("lightbot:12"), seconds=1) is None


@SLOW
@given(small_levels())
def test_programs_found_win_and_are_no_shorter_than_the_optimum(level: Level) -> None:
    program = from_paths(level, seconds=2)
    optimum = brute_lightbot.minimum(level, 6)
    if program is None:
        return
    assert lightbot.run(level, program).verdict.won
    if optimum is not None:
        assert program.tokens >= optimum


def _fewest_main(level: Level, f1: str, f2: str, longest: int) -> int | None:
    """Every main of up to `longest` commands, tried in order of length."""
    for n in range(1, longest + 1):
        for main in itertools.product("FJLRX12", repeat=n):
            if lightbot.run(level, Program("".join(main), f1, f2)).verdict.won:
                return n
    return None


@SLOW
@given(small_levels(), st.text("FJLRX2", max_size=3), st.text("FJLRX", max_size=3))
def test_shortest_main_is_exact(level: Level, f1: str, f2: str) -> None:
    """The breadth-first main against every main of up to 4 commands (calls that never return aside)."""
    if not f1 or len(level.lights) > lightbot_paths.MAX_LIGHTS:
        return
    if "2" in f1 and not f2:
        f2 = "F"
    mv, light, full, start, facing = board_arrays(level)
    states = mv.shape[0] * 4 * (full + 1)
    body = np.zeros((3, 9), np.int64)
    blen = np.array([0, len(f1), len(f2)], np.int64)
    for p, text in ((1, f1), (2, f2)):
        for i, ch in enumerate(text):
            body[p, i] = "FJLRX12".index(ch)
    scratch = [np.zeros(states, np.int64), np.zeros((states + 1, 2), np.int64), np.zeros(states, np.int64)]
    eff = np.zeros((mv.shape[0] * 4, 3, 5), np.int64)
    found = kern.shortest_main(mv, light, full, start, facing, body, blen, 4, eff, scratch[0], scratch[1], scratch[2])
    expected = _fewest_main(level, f1, f2, 4)
    assert (found if found > 0 else None) == expected
