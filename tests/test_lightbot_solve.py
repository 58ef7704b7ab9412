"""The Light-Bot solver against unpruned enumeration of every program on small levels."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.solve.lightbot import solve

from .test_lightbot import levels


def brute_minimum(level: Level, max_length: int) -> int | None:
    """The fewest commands of a winning program with at most `max_length`, trying every program text."""
    for total in range(0, max_length + 1):
        for a in range(min(total, 12) + 1):
            for b in range(min(total - a, 8) + 1):
                c = total - a - b
                if c > 8:
                    continue
                for text in itertools.product("FJLRX12", repeat=total):
                    word = "".join(text)
                    program = Program(word[:a], word[a : a + b], word[a + b :])
                    if lightbot.run(level, program).verdict.won:
                        return total
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels())
def test_solver_minimum_equals_brute_force(level: Level) -> None:
    result = solve(level, max_length=4)
    reference = brute_minimum(level, 4)
    if reference is None:
        assert result.status == "timeout" and result.lower_bound == 5
    else:
        assert result.status == "optimal" and result.length == reference
        assert lightbot.run(level, result.program).verdict.won


def test_first_levels_are_proven_and_rechecked() -> None:
    for name in ("lightbot:1", "lightbot:2"):
        level = gridbot.load(name)
        result = solve(level)
        assert result.status == "optimal"
        assert lightbot.run(level, result.program).verdict.won
        assert result.lower_bound == result.length


def test_all_solutions_are_winning_and_distinct() -> None:
    level = Level.parse("000\n\n>**")
    result = solve(level, all_solutions=True)
    assert result.length == 4 and len(result.solutions) >= 1
    assert len(set(result.solutions)) == len(result.solutions)
    assert all(lightbot.run(level, p).verdict.won and p.tokens == 4 for p in result.solutions)


def test_time_limit_reports_the_excluded_lengths() -> None:
    result = solve(gridbot.load("lightbot:7"), time_limit=0.2)
    assert result.status == "timeout" and result.solution is None and result.lower_bound >= 1


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="FJLRX12", min_size=1, max_size=5))
def test_rule_examples_keep_a_representative(word: str) -> None:
    """Every main-only program that wins has a winner no longer than it in the pruned search."""
    level = Level.parse("0000\n\n>*.*")
    program = Program(word)
    if lightbot.run(level, program).verdict.won:
        assert solve(level, max_length=len(word)).length <= len(word)
