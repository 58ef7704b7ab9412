"""The exact search's mirror cut (gridbot.solve.robozzle.exact, cut 14): on a puzzle that is its own mirror image
across the robot's line of travel, only programs whose first turn is `L` are searched. Against every program tried
(tests/games/robozzle/brute.py), against the search without the cut, and on the kernel's node counts."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import robozzle
from gridbot.games.robozzle import Level
from gridbot.solve.robozzle import Settings, exact, solve
from gridbot.solve.robozzle.board import Board

from . import brute as brute_robozzle
from .test_cuts import agrees_with_every_program

NO_MIRROR_CUT = Settings(mirror_cut=False)


@st.composite
def mirrored(draw, functions: int = 2, max_slots: int = 3, cols: tuple[int, int] = (2, 3)) -> Level:
    """Small puzzles that are their own mirror image across the robot's row: one row above it, drawn, and the same
    row below it; the robot on the middle row facing east or west; stars in mirrored pairs or on the middle row;
    maybe paints. Turned a quarter (the robot's column is then the line) half of the time."""
    w = draw(st.integers(*cols))
    palette = draw(st.sampled_from(["rg", "rgb", "rrg", "r"]))
    above = [draw(st.sampled_from(palette + ".")) for _ in range(w)]
    middle = [draw(st.sampled_from(palette + ".")) for _ in range(w)]
    start = draw(st.integers(0, w - 1))
    middle[start] = middle[start] if middle[start] != "." else palette[0]
    tiles = [(0, c) for c in range(w) if above[c] != "."]
    tiles += [(1, c) for c in range(w) if middle[c] != "." and c != start]
    if not tiles:
        middle[(start + 1) % w] = palette[-1]
        tiles = [(1, (start + 1) % w)]
    for r, c in draw(st.lists(st.sampled_from(tiles), min_size=1, max_size=2, unique=True)):
        row = above if r == 0 else middle
        row[c] = row[c].upper()
    rows = ["".join(above), "".join(middle), "".join(above)]
    slots = [draw(st.integers(1, max_slots))] + [draw(st.integers(0, max_slots)) for _ in range(functions - 1)]
    facing = draw(st.sampled_from(["east", "west"]))
    head = f"functions: {' '.join(map(str, slots + [0] * (5 - len(slots))))}\n"
    head += f"paint: {draw(st.sampled_from(['none', 'none', 'G', 'R B']))}\nstart: 2 {start + 1} {facing}\n"
    level = Level.parse(head + "\n".join(rows))
    if draw(st.booleans()):  # the robot's column as the line: rows become columns
        turned = ["".join(row[c] for row in reversed(level.colours)) for c in range(w)]
        r, c = level.start
        facing_turned = level.facing.right()
        level = dataclasses.replace(
            level,
            colours=tuple(turned),
            stars=tuple(sorted((sc, 2 - sr) for sr, sc in level.stars)),
            start=(c, 2 - r),
            facing=facing_turned,
        )
    return level


def first_turn(program: robozzle.Program) -> str:
    """The first L or R of the program's text: the first turn run, on a one-colour puzzle whose programs have F1
    alone."""
    return next((command.op for body in program.functions for command in body if command.op in "LR"), "")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mirrored())
def test_the_fewest_slots_with_the_mirror_cut_equal_every_program_tried(level: Level) -> None:
    assert Board.of(level).mirror
    agrees_with_every_program(level, 4)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mirrored(functions=3, max_slots=4, cols=(2, 4)))
def test_the_mirror_cut_keeps_the_fewest_slots_at_lengths_the_brute_force_cannot_reach(level: Level) -> None:
    """The same fewest slots up to 6 with the cut and without it (Settings.mirror_cut), in no more nodes."""
    cut = solve(level, max_length=6, beam=False, workers=1)
    plain = solve(level, max_length=6, beam=False, workers=1, settings=NO_MIRROR_CUT)
    assert (cut.status, cut.length) == (plain.status, plain.length)
    if cut.program is not None:
        assert robozzle.run(level, cut.program).verdict.won


def test_a_puzzle_is_its_own_mirror_image_only_across_the_robots_line_of_travel() -> None:
    def board(rows: str, start: str) -> Board:
        return Board.of(Level.parse(f"functions: 5 0 0 0 0\npaint: none\nstart: {start}\n{rows}"))

    assert board("gR\nrr\ngR", "2 1 east").mirror  # across row 2
    assert board("gR\nrr\ngR", "2 2 west").mirror
    assert not board("gR\nrr\ngR", "2 1 north").mirror  # across column 1: the columns differ
    assert not board("gR\nrr\ngr", "2 1 east").mirror  # a star without its mirror image
    assert not board("gR\nrr\nbR", "2 1 east").mirror  # a colour without its mirror image
    assert not board("gR\nrr\ngR", "1 1 east").mirror  # the robot off the middle row
    assert board("rR\n..", "1 1 east").mirror  # off the board and holes are the same
    assert not board("rR\nr.", "1 1 east").mirror


def test_a_u_turn_first_is_kept_on_one_colour() -> None:
    """The star behind the robot on a one-colour board: the first turn is half a U-turn, `L L`; its mirror image
    `R R` is one cut 6 leaves out (and no condition tells two colours apart), so the cut must keep `L`."""
    level = Level.parse("functions: 3 0 0 0 0\npaint: none\nstart: 1 2 east\nRr")
    assert Board.of(level).mirror
    result = solve(level, beam=False, workers=1)
    assert result.status == "optimal" and result.length == brute_robozzle.minimum(level, 3) == 3


def test_turns_both_ways_after_the_first_are_searched() -> None:
    """Round a hole to the star behind it: `L F R F R F1` (6 slots), and with lefts alone 11 or more. The cut
    narrows the first turn only: the same fewest slots as without it."""
    level = Level.parse("functions: 8 0 0 0 0\npaint: none\nstart: 2 1 east\nrrr\nr.R\nrrr")
    assert Board.of(level).mirror
    cut = solve(level, beam=False, workers=1)
    plain = solve(level, beam=False, workers=1, settings=NO_MIRROR_CUT)
    assert cut.status == plain.status == "optimal" and cut.length == plain.length == 6
    assert robozzle.run(level, cut.program).verdict.won


def test_every_optimal_program_is_listed_with_its_mirror_image() -> None:
    """A star up and a star down: the robot may go either way first. The cut searches one way; every optimal
    program asked for lists both."""
    level = Level.parse("functions: 7 0 0 0 0\npaint: none\nstart: 2 1 east\n.R\nrr\n.R")
    assert Board.of(level).mirror
    best = solve(level, beam=False, workers=1)
    assert best.status == "optimal" and first_turn(best.program) == "L"
    listed = solve(level, beam=False, workers=1, all_solutions=True)
    assert listed.length == best.length
    assert {first_turn(program) for program in listed.solutions} == {"L", "R"}


def test_the_mirror_cut_searches_about_half_the_nodes_of_a_length_of_a_symmetric_puzzle() -> None:
    """robozzle:240 is its own mirror image; its length 6, searched whole, with the cut and without."""
    board = Board.of(gridbot.load("robozzle:240"))
    assert board.mirror
    cut = exact._search_length(board, 6, robozzle.STACK_CAP, False, None, Settings())
    plain = exact._search_length(board, 6, robozzle.STACK_CAP, False, None, NO_MIRROR_CUT)
    assert cut.finished and plain.finished and cut.programs == plain.programs == ()
    assert cut.nodes < 0.7 * plain.nodes


def test_the_split_depth_of_every_optimal_program_counts_the_subtrees_of_the_search_without_the_cut() -> None:
    """The shares of a length asked for every optimal program search without the cut, so the subtrees counted to
    choose their depth are those of that search."""
    board = Board.of(gridbot.load("robozzle:240"))
    many = 10**7
    counts = {
        (cut, listing): exact.subtrees(board, 6, robozzle.STACK_CAP, 4, many, settings, all_solutions=listing)
        for cut, settings in ((True, Settings()), (False, NO_MIRROR_CUT))
        for listing in (False, True)
    }
    assert counts[True, True] == counts[False, True] == counts[False, False] > counts[True, False]


def test_shares_recorded_with_the_mirror_cut_are_not_read_without_it() -> None:
    """A share is a set of subtrees of the search's tree, and the mirror cut shapes that tree: the checkpoint's key
    of a length tells the two searches apart, so a run never takes the other's shares as its own."""
    from gridbot.solve.robozzle.front import _Lengths

    level = gridbot.load("robozzle:240")

    def options(chosen: Settings) -> dict:
        return _Lengths(level, 6, False, robozzle.STACK_CAP, True, False, 1, None, chosen).ledger["options"]

    assert options(Settings())["mirror_cut"] and not options(NO_MIRROR_CUT)["mirror_cut"]
    assert options(Settings()) != options(NO_MIRROR_CUT)
