"""The RoboZZle solver against unpruned enumeration of every program (tests/games/robozzle/brute.py)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import pickle
import time
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.deadline import Timeout
from gridbot.games import robozzle
from gridbot.games.robozzle import Level
from gridbot.grid import Direction
from gridbot.kernels import robozzle as kern
from gridbot.parallel import executors
from gridbot.parallel.shares import search_shares
from gridbot.solve import deepening
from gridbot.solve import robozzle as solve_robozzle
from gridbot.solve.robozzle import Settings, exact, solve
from gridbot.solve.robozzle import board as rz_board
from gridbot.solve.robozzle import relaxed as rz_relaxed

from . import brute as brute_robozzle

DEFAULT = Settings()


def scheduled(settings: Settings = DEFAULT, **changes) -> Settings:
    """`settings` with `changes` to its schedule (gridbot.solve.deepening.Schedule)."""
    return dataclasses.replace(settings, schedule=dataclasses.replace(settings.schedule, **changes))


@st.composite
def puzzles(draw, rows=(1, 3), cols=(2, 4), functions=3, max_slots=3) -> Level:
    """Small puzzles: a few tiles of two or three colours, holes, 1 to 3 stars, up to `functions` functions
    (often of equal size, for the renaming cut), maybe paints."""
    h, w = draw(st.integers(*rows)), draw(st.integers(*cols))
    palette = draw(st.sampled_from(["rg", "rgb", "rrg", "r"]))
    tiles = [[draw(st.sampled_from(palette + "."))] for _ in range(h * w)]
    cells = [t[0] for t in tiles]
    start = draw(st.integers(0, h * w - 1))
    if cells[start] == ".":
        cells[start] = palette[0]
    others = [k for k in range(h * w) if k != start and cells[k] != "."]
    if not others:
        k = (start + 1) % (h * w) if h * w > 1 else start
        if k == start:  # a single tile: make room for a star
            cells.append(palette[0])
            w, h = w + 1, h
        cells[k if k != start else -1] = palette[-1]
        others = [k if k != start else len(cells) - 1]
    for k in draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True)):
        cells[k] = cells[k].upper()
    board = ["".join(cells[r * w : (r + 1) * w]) for r in range(h)]
    slots = [draw(st.integers(1, max_slots))] + [draw(st.integers(0, max_slots)) for _ in range(functions - 1)]
    slots += [0] * (5 - len(slots))
    paints = draw(st.sampled_from(["none", "none", "G", "R B"]))
    facing = draw(st.sampled_from(["north", "east", "south", "west"]))
    head = f"functions: {' '.join(map(str, slots))}\npaint: {paints}\n"
    head += f"start: {start // w + 1} {start % w + 1} {facing}\n"
    return Level.parse(head + "\n".join(board))


def proof(status: str) -> str:
    return "timeout" if status == "solved" else status


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_solver_minimum_equals_every_program_tried(level: Level) -> None:
    """Every cut (non-empty functions, renaming, conditions, endless recursion) against no cuts at all."""
    result = solve(level, max_length=3)
    reference = brute_robozzle.minimum(level, 3)
    if reference is None:
        if sum(level.slots) <= 3:  # every program was tried: none wins
            assert result.status == "unsolvable"
        elif result.status == "unsolvable":  # at once: only for a star no walk reaches
            assert rz_board._stars_cut_off(level)
        else:
            assert proof(result.status) == "timeout" and result.lower_bound == 4
    else:
        assert result.status == "optimal" and result.length == reference
        assert robozzle.run(level, result.program).verdict.won


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(1, 2), cols=(2, 3), functions=2, max_slots=3))
def test_solver_minimum_equals_every_program_tried_up_to_4(level: Level) -> None:
    result = solve(level, max_length=4)
    reference = brute_robozzle.minimum(level, 4)
    assert (result.length if result.status == "optimal" else None) == reference


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(1, 3), cols=(2, 3), functions=5, max_slots=3))
def test_renaming_functions_of_different_sizes_keeps_the_minimum(level: Level) -> None:
    """Five functions of one to three slots (F2..F5 often of different sizes): a function that ends small enough
    to fit one that comes before it in the renaming order, not yet called when it was, is cut (the renamed program
    is searched); against every program."""
    result = solve(level, max_length=3)
    reference = brute_robozzle.minimum(level, 3)
    assert (result.length if result.status == "optimal" else None) == reference


def machine_run(level: Level, text: str) -> tuple[int, np.ndarray]:
    """Run a whole program (every function closed) on the search kernel's machine from the start, as one node;
    returns what the run stopped at and the registers then."""
    board = solve_robozzle.Board.of(level)
    s = exact._Search(board, 50, robozzle.STACK_CAP)
    s.load(robozzle.Program.parse(text))
    stopped = kern._run(board.step, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp,
                        s.records, s.path, s.dropped, s.sc)  # fmt: skip
    return stopped, s.sc


def test_a_roll_out_plays_a_partial_program_out_as_it_stands() -> None:
    """The machine stops where a slot must be decided (_DECIDE); with S_ROLLOUT set (a beam's roll-out) it goes on
    instead: an end not decided ends the function, a slot whose command is not decided is skipped, one whose
    condition is not decided runs."""

    def both_ways(level: Level, text: str, unsettle: Callable[[exact._Search], None]) -> list[tuple]:
        ends = []
        for rollout in (0, 1):
            s = exact._Search(solve_robozzle.Board.of(level), 50, robozzle.STACK_CAP)
            s.load(robozzle.Program.parse(text))
            unsettle(s)
            s.sc[kern.S_ROLLOUT] = rollout
            stopped = kern._run(s.board.step, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail,
                                s.stamp, s.records, s.path, s.dropped, s.sc)  # fmt: skip
            ends.append((stopped, int(s.sc[kern.S_LEFT])))
        return ends

    def f2_not_begun(s: exact._Search) -> None:
        s.nd[1], s.closed[1] = 0, 0

    def command_not_decided(s: exact._Search) -> None:  # slot 2 of F1: run on green, command unknown
        s.op[0, 1], s.cs[0, 1] = kern.UNKNOWN, kern.NO_COND | 2 << 1

    def condition_not_decided(s: exact._Search) -> None:  # slot 2 of F1: R, on no colour or on green
        s.cs[0, 1] = kern.NO_COND | 2 << 1

    walk = Level.parse("functions: 3 2 0 0 0\npaint: none\nstart: 1 1 east\nrgrgR")
    # F2 called but not begun: as it stands, F1 calls an empty F2 and walks on to the star
    assert both_ways(walk, "F1: F F2 F1 | F2: L", f2_not_begun) == [(kern._DECIDE, 1), (kern._WIN, 0)]
    # a command not decided is skipped: F F1 walks on
    assert both_ways(walk, "F1: F gL F1", command_not_decided) == [(kern._DECIDE, 1), (kern._WIN, 0)]
    # a condition not decided runs: the R turns the robot off the row on red
    red = Level.parse("functions: 3 0 0 0 0\npaint: none\nstart: 1 1 east\ngrgrR")
    assert both_ways(red, "F1: F R F1", condition_not_decided) == [(kern._DECIDE, 1), (kern._LOSE, 1)]


def test_a_loop_that_paints_the_board_back_as_it_was_is_cut_a_round_later() -> None:
    """`rPG gPR F1` repaints its tile green, then red, and calls itself: every round ends on the board it began
    on, though the paints go on. The loop records compare boards, so the run is lost within three rounds instead
    of running the thousand actions out; a loop whose tile is left green does not return to the board it began on
    until it has painted it back, and is cut too."""
    small = Level.parse("functions: 3 2 0 0 0\npaint: R G\nstart: 1 1 east\nrrR")
    # the site's largest board, all blue: the copy of the colours fills every bit it may use
    large = Level.parse(
        "functions: 3 2 0 0 0\npaint: R B\nstart: 12 15 east\n" + "\n".join(["b" * 16] * 11 + ["b" * 15 + "B"])
    )
    cases = [
        (small, "F1: rPG gPR F1"),
        (small, "F1: rPG F2 | F2: gPR F1"),
        (small, "F1: PG PR F1"),
        (large, "F1: bPR rPB F1"),
    ]
    for level, text in cases:
        assert not robozzle.run(level, text).verdict.won
        stopped, sc = machine_run(level, text)
        assert stopped == kern._LOSE and sc[kern.S_LOOPS] == 1
        assert sc[kern.S_ACT] <= 6, text  # three rounds of two paints


def test_a_walk_round_a_square_is_cut_in_its_second_round_wherever_it_is() -> None:
    """`F R F1` circles a square of four tiles for ever: its fifth call repeats the first (ten actions in). Every
    start on a 16 x 12 board, every facing: the loop records must keep the four states apart (a poor hash once sent
    a quarter of such cycles to two rows, which overwrote each other and never met their repeat)."""
    rows = ["r" * 16] * 11 + ["r" * 15 + "R"]
    for r in range(1, 10):  # every square of four the walk may circle keeps off the star in the corner
        for c in range(1, 14):
            for facing in ("north", "east", "south", "west"):
                level = Level.parse(
                    f"functions: 3 0 0 0 0\npaint: none\nstart: {r + 1} {c + 1} {facing}\n" + "\n".join(rows)
                )
                stopped, sc = machine_run(level, "F1: F R F1")
                assert stopped == kern._LOSE and sc[kern.S_LOOPS] == 1 and sc[kern.S_ACT] == 10, (r, c, facing)


def test_a_loop_that_collects_a_star_each_round_is_not_cut() -> None:
    """The board comes back to its colours every round, but a star fewer is left: not the same state, so the run
    goes on and wins."""
    level = Level.parse("functions: 4 0 0 0 0\npaint: R G\nstart: 1 1 east\nrRRR")
    text = "F1: PG PR F F1"
    assert robozzle.run(level, text).verdict.won
    stopped, sc = machine_run(level, text)
    assert stopped == kern._WIN and sc[kern.S_LOOPS] == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(1, 3), cols=(2, 4), functions=5, max_slots=4), st.permutations(range(1, 5)))
def test_the_fewest_slots_do_not_change_when_the_functions_sizes_are_shuffled(level: Level, order) -> None:
    """F2..F5 renamed is the same puzzle, so the same minimum; the renaming cut sees the functions in another
    order (by size, then number), so a cut that dropped a program with no renamed twin searched would show here,
    at lengths the brute force cannot reach."""
    shuffled = dataclasses.replace(level, slots=(level.slots[0], *(level.slots[k] for k in order)))
    first, second = solve(level, max_length=5), solve(shuffled, max_length=5)
    assert (first.status, first.length) == (second.status, second.length)


def turned(level: Level, quarter_turns: int, mirror: bool, colours: str) -> Level:
    """The same puzzle seen otherwise: the board turned clockwise `quarter_turns` times, maybe mirrored left to
    right, and its colours renamed R, G, B -> `colours` (paints too). Its programs are the original's with L and R
    swapped (mirror) and conditions and paints renamed, so the fewest slots are the same."""
    rename = dict(zip(robozzle.COLOURS, colours, strict=True)) | {robozzle.HOLE: robozzle.HOLE}
    rows = ["".join(rename[ch] for ch in row) for row in level.colours]
    points = [level.start, *level.stars]  # the start first
    facing = level.facing
    if mirror:
        rows = [row[::-1] for row in rows]
        points = [(r, len(rows[0]) - 1 - c) for r, c in points]
        facing = Direction(-facing % 4)  # east and west swap
    for _ in range(quarter_turns):
        height = len(rows)
        rows = ["".join(row[c] for row in reversed(rows)) for c in range(len(rows[0]))]
        points = [(c, height - 1 - r) for r, c in points]
        facing = facing.right()
    paints = {rename[ch] for ch in level.paints}
    return dataclasses.replace(
        level,
        colours=tuple(rows),
        stars=tuple(sorted(points[1:])),
        start=points[0],
        facing=facing,
        paints="".join(ch for ch in robozzle.COLOURS if ch in paints),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    puzzles(rows=(1, 3), cols=(2, 4), functions=3, max_slots=4),
    st.integers(0, 3),
    st.booleans(),
    st.permutations("RGB").map("".join),
)
def test_the_fewest_slots_do_not_change_when_the_board_is_turned_mirrored_or_recoloured(
    level: Level, quarter_turns: int, mirror: bool, colours: str
) -> None:
    """A cut that treats L and R, or the three colours, unevenly (a canonical order of turns, of conditions, of
    paints) would show as a different minimum for the same puzzle seen otherwise, at lengths the brute force
    cannot reach."""
    other = turned(level, quarter_turns, mirror, colours)
    first, second = solve(level, max_length=5), solve(other, max_length=5)
    assert (first.status, first.length) == (second.status, second.length)
    if second.program is not None:
        assert robozzle.run(other, second.program).verdict.won


def staircase(runs: list[int], slots: tuple[int, ...]) -> Level:
    """A staircase from the bottom left: `runs[0]` tiles east, then `runs[1]` north, then east again, ..., a star
    at the top."""
    side = sum(runs) + 1
    grid = [["."] * side for _ in range(side)]
    r, c = side - 1, 0
    grid[r][c] = "r"
    for k, run in enumerate(runs):
        for _ in range(run):
            r, c = (r, c + 1) if k % 2 == 0 else (r - 1, c)
            grid[r][c] = "r"
    grid[r][c] = "R"
    head = f"functions: {' '.join(map(str, slots))}\npaint: none\nstart: {side} 1 east\n"
    return Level.parse(head + "\n".join("".join(row) for row in grid))


@pytest.mark.parametrize("slots", [(5, 2, 3, 0, 0), (5, 3, 2, 0, 0), (5, 2, 3, 1, 0)])
def test_a_helper_too_big_for_a_smaller_function_is_kept_in_its_own(slots: tuple[int, ...]) -> None:
    """Steps of three, with F1 of five slots: the helper `F F F` needs the function of three slots, whatever its
    number, though a smaller one (not called at all) comes first in the renaming order. Eight slots; cutting the
    helper for fitting nowhere smaller would give nine."""
    level = staircase([3] * 6, slots)
    helper = f"F{slots.index(3) + 1}"
    assert robozzle.run(level, f"F1: {helper} L {helper} R F1 | {helper}: F F F").verdict.won
    result = solve(level, max_length=8)
    assert (result.status, result.length) == ("optimal", 8)


def test_a_function_may_first_call_its_equal_from_its_own_first_slot() -> None:
    """Steps of four, F1 of five slots, F2 and F3 of two: `F2: F3 F3 | F3: F F` makes a step, F2 being called
    first. F3 is first called while F2's first slot is decided, when F2 has no slot yet; it still counts as called
    (until 2026-11-26 it did not, and this puzzle was reported unsolvable)."""
    level = staircase([4] * 6, (5, 2, 2, 0, 0))
    assert robozzle.run(level, "F1: F2 L F2 R F1 | F2: F3 F3 | F3: F F").verdict.won
    result = solve(level)
    assert (result.status, result.length) == ("optimal", 9)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_a_relaxed_board_finds_the_fewest_slots_with_conditions_on_its_colour_only(level: Level) -> None:
    """The relaxations (conditions on one colour only) against every program so conditioned: the exact search
    on a relaxed board finds their minimum, and every program it finds wins on the puzzle."""
    board = solve_robozzle.Board.of(level)
    relaxed = rz_relaxed.relaxations(board)
    assert len(relaxed) == (bin(board.named).count("1") if bin(board.named).count("1") > 1 else 0)
    for narrow in relaxed:
        colour = next(c for k, c in enumerate(robozzle.COLOURS) if narrow.named == 2 << k)
        found = None
        for L in range(1, 4):
            programs = exact._search_length(narrow, L, 1024, True, None, DEFAULT).programs
            if programs:
                found = L
                for program in programs:
                    assert robozzle.run(level, program).verdict.won
                    assert all(c.cond in ("", colour) for body in program.functions for c in body)
                break
        assert found == brute_robozzle.minimum(level, 3, conds=colour)


def draw_program(level: Level, data) -> robozzle.Program:
    """A random program that fits `level`: any command the puzzle allows, any condition, in any of its slots."""
    choices = brute_robozzle.slot_choices(level)
    bodies = []
    for slots in level.slots:
        n = data.draw(st.integers(0, slots))
        bodies.append(tuple(data.draw(st.sampled_from(choices)) for _ in range(n)))
    return robozzle.Program(tuple(bodies))


@settings(max_examples=200, deadline=None)
@given(puzzles(), st.data())
def test_the_brute_force_interpreter_agrees_with_the_game(level: Level, data) -> None:
    program = draw_program(level, data)
    assert brute_robozzle.wins(level, program) == robozzle.run(level, program).verdict.won


@pytest.mark.parametrize(("name", "length"), [("27", 5), ("23", 4), ("114", 6)])
def test_shares_together_search_the_whole_length(name: str, length: int) -> None:
    """Share k of n keeps every n-th subtree at the split depth (the usual one, and deeper): together they meet
    every program the whole search meets, at the optimal length and at the one below (where both find none)."""
    board = solve_robozzle.Board.of(gridbot.load(f"robozzle:{name}"))
    for L in (length - 1, length):
        whole = exact._search_length(board, L, 1024, True, None, DEFAULT)
        for depth in (DEFAULT.shallowest_split, DEFAULT.shallowest_split + 2):
            parts = [
                exact._search_length(board, L, 1024, True, None, DEFAULT, True, k, 5, depth=depth) for k in range(5)
            ]
            assert whole.finished and all(part.finished for part in parts)
            # a program decided above the split depth is met by every share
            assert set(map(str, whole.programs)) == {str(p) for part in parts for p in part.programs}
        assert bool(whole.programs) == (length == L)


def test_the_trail_is_never_read_above_its_top(monkeypatch) -> None:
    """The trail is allocated without clearing (np.empty): the search reads only rows it has logged. A trail
    filled with ones before the search gives the same nodes and programs, at the optimal length and below."""
    board = solve_robozzle.Board.of(gridbot.load("robozzle:114"))
    clean = [exact._search_length(board, L, 1024, True, None, DEFAULT) for L in (5, 6)]
    init = exact._Search.__init__

    def filled(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self.trail[:] = 1

    monkeypatch.setattr(exact._Search, "__init__", filled)
    dirty = [exact._search_length(board, L, 1024, True, None, DEFAULT) for L in (5, 6)]
    assert [(d.nodes, list(map(str, d.programs))) for d in dirty] == [
        (c.nodes, list(map(str, c.programs))) for c in clean
    ]
    assert clean[1].programs and clean[0].nodes > 0


@pytest.mark.clock
def test_a_length_split_over_workers_and_stopped_by_the_clock_counts_what_its_shares_searched() -> None:
    """The clock's Timeout during a split length ends it unfinished, with the nodes its shares searched before
    they stopped (they were lost before, and a split search's speed read as a third of what it was)."""
    board = solve_robozzle.Board.of(gridbot.load("robozzle:77"))  # length 8 takes some 17 s on two cores
    share = functools.partial(exact._share, board, 8, 1024, False, None, DEFAULT.shallowest_split, DEFAULT)
    stop_at = time.monotonic() + 1.5

    def check() -> None:
        if time.monotonic() > stop_at:
            raise Timeout

    with executors.local(2) as run:
        done = search_shares(run, share, 4, check)
    assert not done.finished and not done.programs
    assert done.nodes > 100_000  # about a million a second per worker


def test_more_shares_are_dealt_deeper_where_the_tree_is_wide_enough() -> None:
    board = solve_robozzle.Board.of(gridbot.load("robozzle:114"))
    many = 10**9
    counts = [solve_robozzle.subtrees(board, 6, 1024, d, many, DEFAULT) for d in range(2, 7)]
    assert all(c is not None and c > 0 for c in counts) and counts == sorted(counts)  # each depth has more
    few = solve_robozzle.split_depth(board, 6, 1024, 1, many, DEFAULT)
    deep = solve_robozzle.split_depth(board, 6, 1024, 4096, many, DEFAULT)
    shallowest = DEFAULT.shallowest_split
    assert few == shallowest < deep
    fine = DEFAULT.subtrees_per_share * 4096
    assert solve_robozzle.subtrees(board, 6, 1024, deep, many, DEFAULT) >= fine or deep == DEFAULT.deepest_split
    assert deep == shallowest or solve_robozzle.subtrees(board, 6, 1024, deep - 1, many, DEFAULT) < fine
    # a walk above the deeper depths longer than allowed keeps the shares at the shallow depth
    assert solve_robozzle.split_depth(board, 6, 1024, 4096, 10, DEFAULT) == shallowest
    # and so does a deadline already past (the walks keep to the solver's time limit)
    assert solve_robozzle.split_depth(board, 6, 1024, 4096, many, DEFAULT, deadline=0.0) == shallowest
    # other settings: a deeper shallowest depth, and fewer subtrees a share, which the first depth already has
    other = dataclasses.replace(DEFAULT, shallowest_split=5, subtrees_per_share=1)
    assert solve_robozzle.split_depth(board, 6, 1024, 1, many, other) == 5


def test_a_length_split_over_worker_processes_gives_the_same_answer() -> None:
    level = gridbot.load("robozzle:114")
    alone = solve(level, workers=1, beam=False)
    every = scheduled(parallel_after=0.0)  # split every length from the second on
    split = solve(level, workers=2, beam=False, settings=every)
    assert (split.status, split.length) == (alone.status, alone.length) == ("optimal", 6)


def test_a_star_cut_off_by_holes_is_unsolvable_at_once() -> None:
    level = Level.parse("functions: 3 0 0 0 0\npaint: R\nstart: 1 1 east\nrr.R")
    result = solve(level)
    assert result.status == "unsolvable" and "row 1, column 4" in result.stats["reason"]
    assert brute_robozzle.minimum(level, 3) is None


def next_options(before: list[tuple[int, int]], here: int, paints: int = 0, falls: bool = False) -> dict[int, int]:
    """The condition sets the search offers each command of F1's next slot, on colour `here`, after the commands
    `before` (op, condition set) in F1's first slots, on a board of every colour with `paints` allowed (`falls`:
    a move here falls off the board)."""
    op = np.full((5, kern.MAX_SLOTS), kern.UNKNOWN, np.int64)
    cs = np.zeros((5, kern.MAX_SLOTS), np.int64)
    nd = np.zeros(5, np.int64)
    for k, (o, c) in enumerate(before):
        op[0, k], cs[0, k] = o, c
    nd[0] = len(before)
    frame = np.zeros(kern.N_FRAME, np.int64)
    runs = kern.NO_COND | 2 << here
    n = kern._command_options(frame, 0, runs, here, falls, 0, len(before) + 1, 6, np.array([6, 0, 0, 0, 0], np.int64),
                              paints, np.full(5, -1, np.int64), nd, 0, len(before), op, cs, 0)  # fmt: skip
    codes = frame[kern.FR_OPTS : kern.FR_OPTS + n]
    return {int((code >> 2) & 15) - 1: int(code >> 6) for code in codes}


def test_turns_conditioned_on_the_colour_here_are_cut_as_unconditioned_ones_are() -> None:
    """`rL rR` does nothing, `rL rL rL` is `rR`, `rR rR` equals `rL rL`: on red, after `rL` or `rR` an `R` is
    offered unconditioned only, and so is an `L` after `rL rL`; after a turn conditioned on another colour
    (skipped here) or on a set not yet decided nothing changes, and after an unconditioned one the old cut holds."""
    red, green, none = 2 << 0, 2 << 1, kern.NO_COND
    L, R = kern.OP_L, kern.OP_R
    after_left = next_options([(L, red)], 0)
    assert (after_left[kern.OP_F], after_left[L], after_left[R]) == (none | red, none | red, none)
    assert next_options([(R, red)], 0)[R] == none
    assert next_options([(L, red), (L, red)], 0)[L] == none
    assert next_options([(L, green), (L, red)], 0)[L] == none | red
    assert next_options([(L, green)], 0)[R] == none | red
    assert next_options([(L, none)], 0)[R] == red  # the unconditioned cut, as before
    assert next_options([(L, red | none)], 0)[R] == none | red  # a condition not decided yet: no cut


def test_a_move_that_falls_off_the_board_is_not_offered() -> None:
    """A command chosen at a slot runs at once, so a move facing off the board would lose the run there: it is
    not offered, and the turns are, as before."""
    options = next_options([], 0, falls=True)
    assert kern.OP_F not in options and {kern.OP_L, kern.OP_R} <= set(options)
    assert kern.OP_F in next_options([], 0)


def test_calls_that_would_lose_at_once_are_known_before_they_are_offered() -> None:
    """A call of a function entered at a frame still open with no action since (cut 4), or any call on a full
    stack, loses as it runs: _looping_calls names them, and _command_options leaves them out."""
    sc = np.zeros(kern.N_SCALARS, np.int64)
    stack = np.zeros((4, 3), np.int64)
    sc[kern.S_STACK_CAP], sc[kern.S_F], sc[kern.S_ACT], sc[kern.S_ENT] = 4, 2, 5, 5  # F3 entered, no action since
    stack[0], stack[1] = (0, 3, 1), (1, 0, 5)  # F1 entered at action 1, F2 at 5 (called F3 at once)
    sc[kern.S_SP] = 2
    assert kern._looping_calls(sc, stack) == 0b110  # F2 and F3; F1 has acted since
    sc[kern.S_ENT] = 4
    assert kern._looping_calls(sc, stack) == 0b010
    sc[kern.S_SP] = 4
    assert kern._looping_calls(sc, stack) == 0b11111
    frame = np.zeros(kern.N_FRAME, np.int64)
    nd = np.array([1, 1, 1, 0, 0], np.int64)
    slots = np.array([3, 3, 3, 0, 0], np.int64)
    op, cs = np.full((5, kern.MAX_SLOTS), kern.UNKNOWN, np.int64), np.zeros((5, kern.MAX_SLOTS), np.int64)
    n = kern._command_options(frame, 0, kern.NO_COND, 0, False, 0b010, 1, 6, slots, 0, np.full(5, -1, np.int64), nd,
                              0, 1, op, cs, 0)  # fmt: skip
    offered = {int((code >> 2) & 15) - 1 for code in frame[kern.FR_OPTS : kern.FR_OPTS + n]}
    assert kern.OP_CALL + 1 not in offered and {kern.OP_CALL, kern.OP_CALL + 2} <= offered


def test_a_paint_is_not_offered_after_an_unconditioned_turn_nor_unconditioned_after_a_paint() -> None:
    """`L Pg` equals `Pg L` (only the paint first is searched), and `xPg Pb` equals `Pb` (shorter); after a
    conditioned turn, or a forward move, every paint stays as it was."""
    red, green, blue, none = 2 << 0, 2 << 1, 2 << 2, kern.NO_COND
    L, F = kern.OP_L, kern.OP_F
    pg, pb = kern.OP_PAINT + 1, kern.OP_PAINT + 2
    every = 0b111
    after_turn = next_options([(L, none)], 0, every)
    assert pg not in after_turn and pb not in after_turn
    assert next_options([(L, red)], 0, every)[pg] == none | red
    assert next_options([(F, none)], 0, every)[pb] == none | red
    after_paint = next_options([(pg, green)], 0, every)
    assert (after_paint[pg], after_paint[pb]) == (red, red)
    assert kern.OP_PAINT not in next_options([(pb, blue)], 0, every)  # red on red: only unconditioned, which goes


def test_the_settings_are_frozen_picklable_and_each_says_why() -> None:
    """Settings reach worker processes pickled and cannot change under a running solve; each field has its reason
    in a comment just above it."""
    other = dataclasses.replace(DEFAULT, chunk=7)
    assert pickle.loads(pickle.dumps(other)) == other and other != DEFAULT
    with pytest.raises(dataclasses.FrozenInstanceError):
        other.chunk = 8  # type: ignore[misc]
    lines = inspect.getsource(Settings).splitlines()
    for field in dataclasses.fields(Settings):
        at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{field.name}:"))
        assert lines[at - 1].strip().startswith("#"), field.name


def test_the_next_length_is_expected_to_grow_as_the_last_two_did() -> None:
    growth_of = DEFAULT.schedule.growth_of
    low, high = DEFAULT.schedule.growth, DEFAULT.schedule.max_growth
    assert DEFAULT.schedule.growth_from is not None
    few = DEFAULT.schedule.growth_from - 1
    assert growth_of(few, few * 1000) == low  # too few nodes to measure anything
    many = DEFAULT.schedule.growth_from
    assert growth_of(many, many * 30) == 30
    assert growth_of(many, many * 2) == low  # short of `growth`: the lengths to come may grow faster
    assert growth_of(many, many * 10**6) == high


def test_a_length_split_for_the_first_time_is_expected_to_end_sooner_by_the_cores() -> None:
    projected = DEFAULT.schedule.expected
    speedup = DEFAULT.schedule.split_speedup
    assert projected(1.0, 10.0, first_split=False, cores=2) == 10.0  # measured split, or in one process as before
    assert projected(1.0, 10.0, first_split=True, cores=2) == pytest.approx(10.0 / (2 * speedup))
    assert projected(1.0, 10.0, first_split=True, cores=1) == 10.0  # one core: nothing is split
    assert projected(2.0, 10.0, first_split=True, cores=8) < projected(2.0, 10.0, first_split=True, cores=2)


@given(st.floats(0.0, 1000.0), st.one_of(st.none(), st.floats(0.0, 100.0)))
def test_the_heuristic_gets_more_of_the_time_left_the_less_a_length_can_end(expected: float, left) -> None:
    share = solve_robozzle.heuristic_share(expected, left, DEFAULT)
    if left is None:
        assert share == DEFAULT.beam_share * expected
        return
    assert 0.0 <= share <= left
    if expected > DEFAULT.hopeless * left:
        assert share == DEFAULT.beam_hopeless * left
    elif expected <= left / 2:
        assert share == DEFAULT.beam_share * expected
    more = solve_robozzle.heuristic_share(expected * 2, left, DEFAULT)
    assert more >= share


@pytest.mark.clock
def test_too_little_time_to_load_the_kernels_is_a_timeout_at_once(monkeypatch) -> None:
    """A process that has not loaded the kernels yet, where loading them would end more than `load_late` past
    the limit, does not load them: 'timeout' at once, with the reason; with the kernels loaded, it searches."""
    level = gridbot.load("robozzle:27")
    deepening.forget_warm(robozzle.NAME)
    started = time.monotonic()
    short = (DEFAULT.schedule.warm_up_seconds - DEFAULT.schedule.load_late) / 2
    cold = solve(level, time_limit=short)
    assert cold.status == "timeout" and "load the compiled search" in cold.stats["reason"]
    assert cold.program is None and cold.lower_bound == 1 and time.monotonic() - started < 0.1
    solve_robozzle.warm_up()  # loads them (and the record of warm kernels says so)
    assert solve(level, time_limit=short).status == "optimal"
