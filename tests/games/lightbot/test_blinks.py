"""`X X` in one gap (a blink): the win check that looks between its two X commands, and the search with it against
every program text, where tight slot limits force programs to run their commands many times.

Why a blink can matter, and why main never needs one: gridbot.solve.lightbot, "Blinks".
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridbot.games import lightbot
from gridbot.games.lightbot import Level
from gridbot.generate.lightbot import random_level
from gridbot.kernels import lightbot as kern
from gridbot.solve.lightbot import Settings, solve

from . import brute as brute_lightbot
from .test_solver import draw_gap_vectors, winning_sets


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.lists(st.integers(0, 4), min_size=3, max_size=3), st.integers(0, 5), st.data())
def test_win_blink_equals_trying_every_set(lights: int, lens: list[int], b: int, data) -> None:
    """The blink check finds a set exactly when trying every small set does, except where one X in the blink's gap
    wins the same way (its vector is the light under the robot alone): there it leaves the answer to win_with."""
    full, wlen, lim, vec = draw_gap_vectors(data, lights, lens)
    p = data.draw(st.integers(1, 2))
    g = p * kern.GAPS_PER_BODY + data.draw(st.integers(0, lens[p]))
    li = data.draw(st.integers(0, lights - 1))
    work = np.zeros(kern.WORK_SHAPE, np.int64)
    chosen = kern.win_blink(g, li, vec, wlen, lim, b, full, work)
    # the blink's win: single X commands elsewhere light every light but li, with X X in g's body
    sets = winning_sets(vec, wlen, lim, b - 2, full ^ (1 << li), g, 2)
    if vec[g] == 1 << li:
        assert chosen == -1
        if sets:  # one X in g, with the same others, wins too
            assert kern.win_with(g, vec, wlen, lim, b, full, work) >= 0
        return
    assert (chosen >= 0) == bool(sets)
    if chosen >= 0:
        assert tuple(h for h in range(kern.N_GAPS) if chosen >> h & 1) in sets


@st.composite
def tight_levels(draw) -> tuple[Level, tuple[int, int, int]]:
    """A small random level with two to four lights, and slot limits so tight that a program runs its commands
    many times (one procedure, or two short ones)."""
    seed = draw(st.integers(0, 10**6))
    width, height = draw(st.integers(3, 4)), draw(st.integers(1, 3))
    lights = draw(st.integers(2, min(4, width * height - 1)))
    limits = draw(st.sampled_from([(1, 3, 3), (1, 4, 4), (2, 3, 3), (1, 3, 0), (1, 4, 0), (2, 2, 2), (1, 5, 0)]))
    level = random_level(width, height, seed, lights=lights, max_height=2)
    return level, limits


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tight_levels())
def test_tight_limits_minimum_equals_every_program_tried(case: tuple[Level, tuple[int, int, int]]) -> None:
    """Up to 7 commands under tight limits, the search's minimum (blinks looked for) equals the fewest commands
    of any winning program text, `X X` and every other text included; the answer wins and keeps the limits."""
    level, limits = case
    result = solve(level, max_length=7, workers=1, settings=Settings(limits=limits))
    reference = brute_lightbot.minimum(level, 7, limits)
    assert (result.length if result.status == "optimal" else None) == reference
    if result.program is not None:
        assert lightbot.run(level, result.program).verdict.won
        assert all(len(result.program.body(p)) <= most for p, most in enumerate(limits))


BLINKS_ONLY = """
import numpy as np
import gridbot.kernels.lightbot.machine as machine
machine.win_with = lambda *args: np.int64(-1)  # no win by single X commands: only a blink's can be found
from gridbot.games import lightbot
from gridbot.solve.lightbot import solve
for text in LEVELS:
    result = solve(lightbot.Level.parse(text), max_length=8, workers=1, jit=False)
    print(result.status, result.program)
"""


def test_a_win_only_a_blink_gives_is_found_and_written_as_x_x() -> None:
    """With the plain-Python kernels and the check for single X commands answering "none", the only wins left
    are between a blink's two X commands: the search finds one on each level, writes X X in the program, and the
    program wins (re-run by the game's simulator, in the solve and here)."""
    levels = ("0000\n\n>**.", "000\n000\n\n>*.\n.*.")
    script = f"LEVELS = {levels!r}\n" + BLINKS_ONLY
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(levels)
    for text, line in zip(levels, lines, strict=True):
        status, program = line.split(" ", 1)
        assert status == "optimal" and "XX" in program, line
        assert lightbot.run(Level.parse(text), program).verdict.won
