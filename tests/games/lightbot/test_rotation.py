"""Cut 13 of the Light-Bot solver (a loop that main enters through a copy of its last command): the shorter
equivalent it relies on, and the cut itself. The search with it is checked against unpruned enumeration of every
program by test_solver.py and test_loops.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.kernels import lightbot as kern
from gridbot.kernels.lightbot import cuts

from .test_loops import _bodies
from .test_solver import small_levels


def _tile_after(level: Level, main: str) -> tuple[int, int]:
    """Where the robot stands after main's walk `main` (moves and turns only)."""
    return [level.start, *(position for position, _, _ in lightbot.states(level, Program(main)))][-1]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text("FJLR", max_size=2), st.sampled_from("FJLR"), st.text("FJLR", max_size=3),
    st.lists(st.booleans(), min_size=5, max_size=5), small_levels(),
)  # fmt: skip
def test_a_loop_entered_through_its_last_command_wins_as_the_rotated_one(
    head: str, x: str, body: str, xs: list[bool], level: Level
) -> None:
    """main = M x 1 and f1 = B x 1, with an X or not in each gap that differs, against main = M 1 and f1 = x B 1,
    where the tile after main's x has no light: one command shorter at least, and the same verdict."""
    if _tile_after(level, head + x) in level.lights:
        return
    a, b, start, before, after = ("X" * flag for flag in xs)
    original = Program(head + a + x + b + "1", start + body + before + x + after + "1", "")
    # f1's start and the gap after its x fire one after the other at every seam, on the tile after x: an X in
    # either is an X after x, and one in each is two there (the win is looked for between the two)
    seam = start + after
    rotated = Program(head + a + "1", x + seam + body + before + "1", "")
    assert rotated.tokens < original.tokens
    assert lightbot.run(level, rotated).verdict.won == lightbot.run(level, original).verdict.won


@pytest.mark.parametrize(
    ("main", "f1", "light", "cut"),
    [
        ("F1", "RF", False, True),  # main F 1, f1 = R F 1: main 1, f1 = F R 1
        ("FF1", "F", False, True),  # f1 = F 1: main F 1 does as well
        ("R1", "FR", False, True),  # a turn too
        ("F1", "RF", True, False),  # a light after main's F: an X there fires once, which f1 cannot do
        ("F1", "FR", False, False),  # f1 ends in another command
        ("1", "F", False, False),  # main has no command before its call
        ("1F1", "F", False, False),  # main calls f1 twice: f1 = x B 1 would run there too
        ("F2", "RF", False, False),  # main's last command calls the other procedure
    ],
)
def test_a_loop_entered_through_a_copy_of_its_last_command_is_cut(main: str, f1: str, light: bool, cut: bool) -> None:
    wb, wlen, cs = _bodies(main, f1, "F" if "2" in main else "")
    vec = np.zeros(kern.N_GAPS, np.int64)
    vec[len(main) - 1] = light  # main's gap after x, before its call
    assert bool(cuts._rotated_loop.py_func(1, wb, wlen, cs, vec)) is cut
