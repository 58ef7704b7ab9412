"""Closing a procedure that returns straight to main's end, decided without a node (kern.cuts._return_fails):
the search with it proves what the search without it and every program tried prove."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings

import gridbot
from gridbot.games.lightbot import Level
from gridbot.kernels import lightbot as kern
from gridbot.solve.lightbot import solve

from .test_solver import NO_LOOK_AHEAD, agrees_with_every_program, small_levels, wider_levels


def _solve(level: Level, max_length: int, early: bool) -> tuple[object, int]:
    """Solve in plain Python with closings decided early as the kernel decides them, or always by a node;
    also how many closings were decided early."""
    original = kern.cuts._return_fails.py_func
    early_fails = 0

    def return_fails(*args):
        nonlocal early_fails
        fails = original(*args) if early else False
        early_fails += bool(fails)
        return fails

    with mock.patch.object(kern.dfs, "_return_fails", return_fails):  # the module whose globals the twin reads
        result = solve(level, max_length=max_length, jit=False, settings=NO_LOOK_AHEAD)
    return result, early_fails


def _proves(result) -> tuple:
    return result.status, result.length, result.lower_bound, str(result.program)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wider_levels())
def test_closings_decided_early_fail_as_their_nodes_would(level: Level) -> None:
    early, _ = _solve(level, 5, early=True)
    late, _ = _solve(level, 5, early=False)
    assert _proves(early) == _proves(late)
    assert early.stats["candidates"] <= late.stats["candidates"]


@pytest.mark.parametrize("name", ["lightbot:2", "lightbot:8"])
def test_closings_are_decided_early_on_bundled_levels(name: str) -> None:
    level = gridbot.load(name)
    early, fails = _solve(level, 8, early=True)
    late, _ = _solve(level, 8, early=False)
    assert _proves(early) == _proves(late) and early.status == "optimal"
    assert fails > 0 and early.stats["candidates"] < late.stats["candidates"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_levels())
def test_solver_with_closings_decided_early_equals_every_program_tried(level: Level) -> None:
    agrees_with_every_program(level, 7)
