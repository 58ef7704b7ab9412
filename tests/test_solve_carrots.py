"""The Carrots solver against an unpruned brute force, the simulator, and its own promises."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program
from gridbot.solve.carrots import solve, walk

from . import brute_carrots as brute

SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_boards(draw, max_squares: int = 6) -> Level:
    """A random board of 3..max_squares squares in a grid of up to 3x5 cells.

    Squares grow from the start as a connected shape (sometimes with one extra
    square anywhere, which may be cut off); a few squares start marked.
    """
    height = draw(st.integers(1, 3))
    width = draw(st.integers(2, 5))
    size = draw(st.integers(min(3, height * width), min(max_squares, height * width)))
    start = (draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1)))
    chosen = [start]
    while len(chosen) < size:
        frontier = sorted(
            {(r + dr, c + dc) for r, c in chosen for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} - set(chosen)
        )
        frontier = [(r, c) for r, c in frontier if 0 <= r < height and 0 <= c < width]
        if draw(st.integers(0, 9)) == 0:
            frontier = [(r, c) for r in range(height) for c in range(width) if (r, c) not in chosen]
        if not frontier:
            break
        chosen.append(draw(st.sampled_from(frontier)))
    rows = [[" "] * width for _ in range(height)]
    for r, c in chosen:
        rows[r][c] = draw(st.sampled_from("#######O"))
    rows[start[0]][start[1]] = "S"
    return Level.parse("\n".join("".join(row) for row in rows))


def programs(max_depth: int = 3) -> st.SearchStrategy[Program]:
    moves = st.sampled_from("FLR").map(Move)
    counts = st.one_of(st.none(), st.integers(1, 30), st.integers(10**6, 10**12))
    statements = st.recursive(
        moves,
        lambda inner: st.builds(Loop, st.lists(inner, min_size=1, max_size=3).map(tuple), counts),
        max_leaves=8,
    )
    return st.lists(statements, min_size=0, max_size=4).map(lambda body: Program(tuple(body)))


# ---------------------------------------------------------------- the reference itself


@SLOW
@given(small_boards(), programs())
def test_brute_force_evaluation_agrees_with_the_simulator(level: Level, program: Program) -> None:
    end, marks = brute.evaluate(level, program)
    verdict = carrots.run(level, program).verdict
    assert brute.completes(level, marks) == verdict.won
    if not verdict.won:
        assert (end == 4 * level.size) == (verdict.status == "forever")


# ---------------------------------------------------------------- optimality


def counts_for(level: Level) -> int:
    return 4 * level.size + 1


def check_against_brute_force(level: Level, max_length: int) -> None:
    result = solve(level)
    reference = brute.minimum(level, max_length=max_length, counts=counts_for(level))
    if result.status == "unsolvable":
        assert reference is None
        return
    assert result.status == "optimal"
    assert carrots.run(level, result.program).verdict.won
    assert result.program.tokens == result.length
    if reference is None:
        assert result.length > max_length
    else:
        assert result.length == reference


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(max_squares=6))
def test_solver_minimum_equals_brute_force_minimum(level: Level) -> None:
    check_against_brute_force(level, max_length=5)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(max_squares=8))
def test_solver_minimum_equals_brute_force_on_larger_boards(level: Level) -> None:
    check_against_brute_force(level, max_length=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(max_squares=5))
def test_solver_minimum_equals_brute_force_at_six_tokens(level: Level) -> None:
    check_against_brute_force(level, max_length=6)


HAND_BOARDS = [
    "S###",
    "S##\n  #\n  #",
    "S##\n# #\n###",
    "#S#\n###",
    "S O#\n####",
    "S#\n##\n #",
]


@pytest.mark.parametrize("text", HAND_BOARDS)
def test_hand_boards_match_brute_force(text: str) -> None:
    level = Level.parse(text)
    result = solve(level)
    assert result.length == brute.minimum(level, max_length=6, counts=counts_for(level))


# ---------------------------------------------------------------- promises of the front


def test_bundled_small_boards_are_solved_and_rechecked() -> None:
    for name in ("carrots:1", "carrots:2", "carrots:3", "carrots:6"):
        level = gridbot.load(name)
        result = solve(level)
        assert result.status == "optimal"
        assert carrots.run(level, result.program).verdict.won
        assert result.lower_bound == result.length
        assert result.stats["candidates"] > 0


def test_all_solutions_are_distinct_optimal_and_complete() -> None:
    level = gridbot.load("carrots:2")
    result = solve(level, all_solutions=True)
    assert len(result.solutions) >= 2
    assert len({str(p) for p in result.solutions}) == len(result.solutions)
    for p in result.solutions:
        assert p.tokens == result.length
        assert carrots.run(level, p).verdict.won


def test_time_limit_gives_a_checked_program_and_an_honest_bound() -> None:
    level = gridbot.load("carrots:12")
    result = solve(level, time_limit=0.05)
    assert result.status == "solved"
    assert carrots.run(level, result.program).verdict.won
    assert result.proven_impossible < 8
    assert result.length < walk(level).tokens  # the greedy program beats the plain tour here


@SLOW
@given(small_boards(max_squares=8))
def test_greedy_programs_complete_when_found(level: Level) -> None:
    from gridbot.solve.carrots import FragmentTables, greedy, reachable

    if any(sq not in reachable(level) for sq in range(level.size)):
        return
    tables = FragmentTables(level)
    tables.ensure(2)
    marks = np.zeros(tables.W, np.uint64)
    for i in range(level.size):
        if (level.initial_marks | 1 << level.start) >> i & 1:
            marks[i // 64] |= np.uint64(1) << np.uint64(i % 64)
    program = greedy(tables, 4 * level.start + 1, marks)
    assert program is not None and carrots.run(level, program).verdict.won


def test_max_length_stops_the_deepening() -> None:
    level = gridbot.load("carrots:9")
    result = solve(level, max_length=3)
    assert result.status == "solved"
    assert result.lower_bound == 4


def test_unreachable_square_is_unsolvable_with_its_place() -> None:
    result = solve(Level.parse("S# #"))
    assert result.status == "unsolvable"
    assert "column 4" in result.stats["reason"]


def test_board_complete_at_start_needs_the_empty_program() -> None:
    result = solve(Level.parse("SOO"))
    assert (result.status, result.length, str(result.program)) == ("optimal", 0, "")


@SLOW
@given(small_boards(max_squares=6))
def test_walk_marks_every_reachable_square(level: Level) -> None:
    from gridbot.solve.carrots import reachable

    if all(sq in reachable(level) or level.initial_marks >> sq & 1 for sq in range(level.size)):
        assert carrots.run(level, walk(level)).verdict.won


def test_last_loop_prints_unbounded_when_that_still_completes() -> None:
    result = solve(gridbot.load("carrots:3"))
    assert str(result.program).startswith("LOOP{")
    assert np.all([isinstance(result.program.body[-1], Loop)])


@pytest.mark.parametrize("name", ["carrots:2", "carrots:4", "carrots:11"])
def test_tables_are_exact_even_when_every_fingerprint_collides(name: str) -> None:
    """Equal fingerprints never merge different functions: with a hash that maps all to 0, tables are the same."""
    from gridbot.solve.carrots import FragmentTables

    level = gridbot.load(name)
    strong, weak = FragmentTables(level), FragmentTables(level, weak_hash=True)
    strong.ensure(3)
    weak.ensure(3)
    for cost in (1, 2, 3):
        a, b = strong.tables[cost], weak.tables[cost]
        assert len(a) == len(b) and a.statements == b.statements
        rows = {(e.tobytes(), v.tobytes()) for e, v in zip(a.ends, a.vis, strict=True)}
        assert rows == {(e.tobytes(), v.tobytes()) for e, v in zip(b.ends, b.vis, strict=True)}
        assert len(rows) == len(a)
        for k in range(len(b)):  # and every weak row's recorded program really has that function
            program = Program(weak.fragment(cost, k))
            for s in range(0, 4 * level.size, 7):
                assert brute_state(level, program, s) == (int(b.ends[k, s]), _bits(b.vis[k, s]))


def _bits(words: np.ndarray) -> int:
    return sum(int(w) << (64 * i) for i, w in enumerate(words))


def brute_state(level: Level, program: Program, s: int) -> tuple[int, int]:
    """(end state, squares landed on) of a program with bounded loops, run step by step from state s."""
    state, marks = (s // 4, s % 4), 0

    def run_body(body) -> None:
        nonlocal state, marks
        for stmt in body:
            if isinstance(stmt, Move):
                state = carrots.step(level, state, stmt.op)
                marks |= (1 << state[0]) if stmt.op == "F" else 0
            else:
                for _ in range(stmt.count):
                    run_body(stmt.body)

    run_body(program.body)
    return 4 * state[0] + state[1], marks


def test_smallest_counts_lowers_counts_and_keeps_the_program_working() -> None:
    from gridbot.solve.carrots import smallest_counts

    level = gridbot.load("carrots:4")
    program = Program.parse("LOOP{F LOOP(19){F L}}")
    assert carrots.run(level, program).verdict.won
    smaller = smallest_counts(level, program)
    assert str(smaller) == "LOOP{F LOOP(7){F L}}"
    assert carrots.run(level, smaller).verdict.won


def test_memory_budget_stops_the_deepening_with_an_honest_answer() -> None:
    level = Level.parse("\n".join(["S" + "#" * 29] + ["#" * 30] * 29))  # 900 squares: big table rows
    result = solve(level, memory_budget=64 * 2**20)
    assert result.status == "solved"
    assert "GiB" in result.stats["reason"]
    assert carrots.run(level, result.program).verdict.won
    assert result.proven_impossible >= 2
