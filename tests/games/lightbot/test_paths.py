"""Programs from pieces of winning walks: the walks, the exact shortest main, and programs that win."""

from __future__ import annotations

import itertools
import math
import time

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

from . import brute as brute_lightbot
from .test_solver import small_levels

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_walks_of_level_10_are_its_shortest() -> None:
    level = gridbot.load("lightbot:10")
    walks = winning_walks(level, slack=0)
    assert walks and {len(w) for w in walks} == {31}
    for walk in walks:
        assert lightbot.run(level, Program(walk)).verdict.won


def test_walks_are_not_begun_when_their_distances_cannot_end_by_the_deadline() -> None:
    """The distances are one compiled call that cannot look at the clock (1.7 s on a 100 x 100 board): with
    less time than they take at `seconds_per_state`, no walk is listed, rather than a deadline overrun."""
    level = gridbot.load("lightbot:10")
    later = time.monotonic() + 60
    assert winning_walks(level, slack=0, deadline=later)
    assert winning_walks(level, slack=0, deadline=later, seconds_per_state=1.0) == []  # as if a state took 1 s
    assert winning_walks(level, slack=0)  # no deadline: no estimate


def test_a_bundled_level_of_few_lights_gets_a_program_from_paths() -> None:
    """How fast is for the benchmark; here the search has no deadline (it tries every pair of functions, some
    seconds), so that what it finds does not hang on the machine's speed (that it keeps a deadline:
    test_solver.py's test_pieces_of_winning_walks_keep_their_time). Level 6 (three lights, optimum 14) takes
    seconds; level 10, the benchmark's, half a minute."""
    level = gridbot.load("lightbot:6")
    program = from_paths(level, seconds=math.inf)
    assert program is not None and program.tokens >= 14
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


def _plain_winning_walks(level: Level, slack: int, limit: int) -> list[str]:
    """The walks as first listed: a breadth-first search from the start in plain Python, then every walk within
    `slack` of its distances, without knowing which branches can still end in a walk."""
    index = {tile: i for i, tile in enumerate(level.lights)}
    full = (1 << len(index)) - 1

    def step(state: tuple, op: str) -> tuple | None:
        tile, facing, lit = state
        if op in "FJ":
            to = level.move(tile, facing, op)
            return None if to == tile else (to, facing, lit)
        if op == "L":
            return tile, (facing - 1) % 4, lit
        if op == "R":
            return tile, (facing + 1) % 4, lit
        return (tile, facing, lit ^ (1 << index[tile])) if tile in index else None

    start = (level.start, int(level.facing), 0)
    dist = {start: 0}
    todo = [start]
    for state in todo:
        for op in "FJLRX":
            nxt = step(state, op)
            if nxt is not None and nxt not in dist:
                dist[nxt] = dist[state] + 1
                todo.append(nxt)
    ends = [d for (_, _, lit), d in dist.items() if lit == full]
    if not ends:
        return []
    budget = min(ends) + slack
    walks: list[str] = []

    def extend(state: tuple, walk: str) -> None:
        if len(walks) >= limit:
            return
        if state[2] == full:
            walks.append(walk)
            return
        for op in "FJLRX":
            nxt = step(state, op)
            if nxt is not None and dist[nxt] <= len(walk) + 1 <= budget and len(walk) + 1 - dist[nxt] <= slack:
                extend(nxt, walk + op)

    extend(start, "")
    return walks


@SLOW
@given(small_levels(), st.integers(0, 2))
def test_walks_listed_only_along_branches_that_end_are_the_same_walks(level: Level, slack: int) -> None:
    """Pruned by the distance still to go (computed backwards), the listing gives the same walks in the same
    order as the plain one."""
    assert winning_walks(level, slack, limit=200) == _plain_winning_walks(level, slack, 200)
