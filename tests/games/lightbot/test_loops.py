"""Cut 11 of the Light-Bot solver (turns at the seams of a loop): the equivalents it relies on, the cut itself,
and the search with it against unpruned enumeration of every program."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.kernels.lightbot import cuts
from gridbot.solve.lightbot import WALK_OPS

from .test_solver import agrees_with_every_program, small_levels

FEWEST = {0: "", 1: "R", 2: "RR", 3: "L"}  # the fewest turns that turn right this many quarters


def _right(turns: str) -> int:
    return sum(1 if t == "R" else 3 for t in turns) % 4


turns = st.sampled_from(["L", "R", "RR"])


@settings(max_examples=300, deadline=None)
@given(
    st.text("FJLR", max_size=2), st.sampled_from(["", "L", "R", "RR"]), turns, turns,
    st.text("FJX", min_size=1, max_size=3).filter(lambda a: "F" in a or "J" in a), st.booleans(), st.booleans(),
    small_levels(),
)  # fmt: skip
def test_the_shorter_equivalents_of_a_loop_win_alike(
    head: str, tc: str, t1: str, t2: str, a: str, x_first: bool, x_seam: bool, level: Level
) -> None:
    """main = head Tc 1, f1 = T1 A T2 1 (an X at f1's start and before its call, or not) against the two
    shorter programs of cut 11, where they are shorter: the same verdict on random small levels."""
    xf, xs = "X" * x_first, "X" * x_seam
    original = Program(head + tc + "1", xf + t1 + a + t2 + xs + "1", "")
    won = lightbot.run(level, original).verdict.won
    seam = FEWEST[(_right(t2) + _right(t1)) % 4]
    if len(seam) < len(t2):
        shorter = Program(head + tc + t1 + "1", xf + a + xs + seam + "1", "")
        assert shorter.tokens < original.tokens and lightbot.run(level, shorter).verdict.won == won
    before = FEWEST[(_right(tc) + _right(t1)) % 4]
    if len(before) < len(tc):
        shorter = Program(head + before + "1", xf + a + t2 + xs + t1 + "1", "")
        assert shorter.tokens < original.tokens and lightbot.run(level, shorter).verdict.won == won


def _bodies(main: str, f1: str, f2: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """wb, wlen and the call sites (cs) of walk texts."""
    wb = np.zeros((3, 12), np.int64)
    wlen = np.zeros(3, np.int64)
    cs = np.zeros((2, 3), np.int64)
    for p, text in enumerate((main, f1, f2)):
        for k, op in enumerate(text):
            wb[p, k] = WALK_OPS.index(op)
            if op in "12":
                cs[0, int(op)] += 1
                cs[1, int(op)] += p
        wlen[p] = len(text)
    return wb, wlen, cs


@pytest.mark.parametrize(
    ("main", "f1", "shorter"),
    [
        ("1", "RFL", True),  # f1 = R F L 1: main R 1, f1 = F 1
        ("1", "RFR", False),  # R R at the seam: as many turns
        ("1", "RRFR", False),  # R R R is L: as many turns
        ("1", "RRFRR", True),  # four turns at the seam: none
        ("1", "LFRR", True),  # R R L is R
        ("L1", "RF", True),  # main's L and f1's R cancel: main 1, f1 = F R 1
        ("RR1", "RF", True),  # R R R is L
        ("R1", "RF", False),
        ("FFFFFFFFFFL1", "RFL", True),  # no room in main for f1's R, but main's L cancels it
        ("FFFFFFFFFFF1", "RFL", False),  # no room in main for f1's R
        ("1", "RF2L", True),  # a call of f2 (returned) inside the loop
        ("1", "R", False),  # turns alone: no A
    ],
)
def test_a_loop_with_turns_that_reduce_at_its_seams_is_cut(main: str, f1: str, shorter: bool) -> None:
    wb, wlen, cs = _bodies(main, f1, "F" if "2" in f1 else "")
    lim = np.array([12, 8, 8], np.int64)
    w = int(wlen.sum())
    assert bool(cuts._shorter_loop.py_func(1, w + 2, w, lim, wb, wlen, cs)) is shorter  # room for one X


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_levels())
def test_solver_minimum_equals_every_program_tried_up_to_7(level: Level) -> None:
    """Every cut, the seams of loops among them (loops with turns at both ends need 7 commands), against no cuts."""
    agrees_with_every_program(level, 7)
