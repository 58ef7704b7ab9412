"""The order in which the RoboZZle exact search tries a slot's commands (Settings.calls_first_up_to): calls first
on puzzles of few functions. An order changes how soon a program is met, never which lengths have one: the same
nodes where a length has no program, the same fewest slots against every program tried, and every program met
wins."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

import gridbot
from gridbot.games import robozzle
from gridbot.games.robozzle import Level
from gridbot.kernels import robozzle as kern
from gridbot.solve.robozzle import Settings, exact, solve
from gridbot.solve.robozzle.board import Board

from .test_cuts import agrees_with_every_program, helped

CALLS_FIRST = Settings(calls_first_up_to=5)
CALLS_LAST = Settings(calls_first_up_to=0)


def test_calls_come_first_on_puzzles_of_at_most_three_functions() -> None:
    assert Settings().calls_first((4, 4, 4, 0, 0))
    assert not Settings().calls_first((4, 4, 4, 4, 0))
    assert CALLS_FIRST.calls_first((2, 2, 2, 2, 2)) and not CALLS_LAST.calls_first((5, 0, 0, 0, 0))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(helped(paints=("none", "R", "G B")))
def test_the_fewest_slots_with_calls_first_equal_every_program_tried(level: Level) -> None:
    assert Settings().calls_first(level.slots)
    agrees_with_every_program(level, 4)  # the default settings: calls first on these puzzles
    result = solve(level, max_length=4, beam=False, workers=1, settings=CALLS_LAST)
    assert result.length == solve(level, max_length=4, beam=False, workers=1).length


@pytest.mark.parametrize(("puzzle", "length"), [(1143, 7), (27, 4), (240, 5)])
def test_a_length_without_a_program_searches_the_same_nodes_in_either_order(puzzle: int, length: int) -> None:
    board = Board.of(gridbot.load(f"robozzle:{puzzle}"))
    first = exact._search_length(board, length, robozzle.STACK_CAP, False, None, CALLS_FIRST)
    last = exact._search_length(board, length, robozzle.STACK_CAP, False, None, CALLS_LAST)
    assert first.finished and last.finished and first.programs == last.programs == ()
    assert first.nodes == last.nodes


def test_calls_first_meets_a_program_of_a_two_function_puzzle_sooner() -> None:
    """robozzle:204 (two functions) at its optimal length, 8: the program met first in each order wins, and
    calls first meets one after fewer nodes (148 against 1,243,408 when measured)."""
    level = gridbot.load("robozzle:204")
    board = Board.of(level)
    met = {}
    for chosen in (CALLS_FIRST, CALLS_LAST):
        search = exact._Search(board, 8, robozzle.STACK_CAP, least=8, calls_first=chosen.calls_first(board.slots))
        while (status := search.step(100_000)) == kern.PAUSED:
            pass
        assert status == kern.FOUND
        assert robozzle.run(level, search.program()).verdict.won
        met[chosen] = search.nodes
    assert met[CALLS_FIRST] < met[CALLS_LAST]


def test_shares_recorded_under_the_other_order_are_not_read() -> None:
    """A share is a set of subtrees, and the order deals them: a checkpoint's share of one order names other
    subtrees in the other, so the checkpoint's key of a length tells the orders (and the mirror cut) apart."""
    from gridbot.solve.robozzle.front import _Lengths

    level = gridbot.load("robozzle:204")

    def options(chosen: Settings) -> dict:
        lengths = _Lengths(level, 8, False, robozzle.STACK_CAP, True, False, 1, None, chosen)
        return lengths.ledger["options"]

    assert options(CALLS_FIRST)["calls_first"] and not options(CALLS_LAST)["calls_first"]
    assert options(CALLS_FIRST) != options(CALLS_LAST)
    assert options(Settings(mirror_cut=False)) != options(Settings())
