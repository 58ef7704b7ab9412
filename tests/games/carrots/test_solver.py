"""The Carrots solver against an unpruned brute force, the simulator, and its own promises."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program
from gridbot.generate.carrots import random_level
from gridbot.solve.carrots import solve, walk

from . import brute

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


@pytest.mark.clock
def test_time_limit_gives_a_checked_program_and_an_honest_bound() -> None:
    """Stopped by the clock: a program the simulator accepts, and a bound below the par. A 12 x 12 board whose
    proof takes far longer than 0.3 s, so that the tables (a few tens of milliseconds to start, more where the
    machine writes fresh memory slowly) are well under way at the deadline and their greedy program beats the plain
    tour; carrots:12 at 0.05 s, where whether the tables start at all depends on the machine."""
    from gridbot.solve.carrots import warm_up

    warm_up()
    level = random_level(12, 12, 5, fill=0.7)
    result = solve(level, time_limit=0.3)
    assert result.status == "solved"
    assert carrots.run(level, result.program).verdict.won
    assert result.proven_impossible < result.length < walk(level).tokens  # the greedy program beats the tour
    level = gridbot.load("carrots:12")
    result = solve(level, time_limit=0.05)
    assert result.status in ("solved", "optimal")
    assert carrots.run(level, result.program).verdict.won
    assert result.proven_impossible < 8 or result.status == "optimal"


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


# ---------------------------------------------------------------- every board, every limit (issue 15)


def full_board(width: int, height: int) -> Level:
    """A board of squares only (the format allows up to 1000 x 1000), the start in the top left corner."""
    return Level.parse("\n".join(["S" + "#" * (width - 1)] + ["#" * width] * (height - 1)))


def bound(limit: float) -> float:
    """The time bound of issue 15: the limit plus max(1 s, 10 %)."""
    return limit + max(1.0, 0.1 * limit)


def check_answer(level: Level, result, limit: float, elapsed: float) -> None:
    """A clear status, a program the simulator accepts, an honest length and bound, in time."""
    assert result.status in ("optimal", "solved"), result
    assert carrots.run(level, result.program).verdict.won
    assert result.program.tokens == result.length
    assert result.lower_bound <= result.length
    if result.status == "optimal":
        assert result.lower_bound == result.length
    assert elapsed <= bound(limit), (level.name, limit, elapsed)


def test_walk_is_iterative_on_deep_boards() -> None:
    """The tour used to recurse once per square (RecursionError past about 1000); now any depth works, and the
    compiled tour and its plain-Python twin agree."""
    from gridbot.solve.carrots.fallback import _kernel_tour, _py_tour

    for level in (full_board(200, 200), Level.parse("S" + "#" * 999)):
        program = walk(level)
        assert carrots.run(level, program).verdict.won
        marked = carrots.marked_at_start(level)
        assert _kernel_tour(level, marked) == _py_tour(level, marked)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 10**6), st.floats(0.1, 1.0))
def test_tour_kernel_and_twin_agree_and_the_tour_completes(width: int, height: int, seed: int, fill: float) -> None:
    from gridbot.solve.carrots.fallback import _kernel_tour, _py_tour

    level = random_level(width, height, seed, fill=fill, marked=0.2)
    marked = carrots.marked_at_start(level)
    codes, unreached, seen = _py_tour(level, marked)
    assert (codes, unreached, seen) == _kernel_tour(level, marked)
    assert unreached == 0 and carrots.run(level, walk(level)).verdict.won
    # the tour ends on the F onto the last square it had to mark
    assert not codes or codes[-1] == 0


@pytest.mark.clock
def test_full_32x32_board_with_one_second_answers_in_time() -> None:
    """Issue 15: `gridbot solve carrots FULL_32x32 --time-limit 1` ended in a RecursionError."""
    level = full_board(32, 32)
    start = time.perf_counter()
    result = solve(level, time_limit=1)
    check_answer(level, result, 1, time.perf_counter() - start)


@pytest.mark.clock
@pytest.mark.parametrize("side", [60, 100, 1000])
def test_full_boards_up_to_the_format_limit_answer_in_time(side: int) -> None:
    """Issue 15: a full 100 x 100 board asked numpy for 47.9 GiB at once; 1000 x 1000 is the largest board the
    format allows. Each answers within the time bound; 60 x 60 is about the largest board the tables take, each
    of their rows several megabytes the process may be touching for the first time."""
    level = full_board(side, side)
    start = time.perf_counter()
    result = solve(level, time_limit=1)
    check_answer(level, result, 1, time.perf_counter() - start)
    assert result.status == "solved"
    assert ("MiB" in result.stats.get("reason", "")) == (side > 60)


def run_child(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh Python with this test's import path; it must exit 0 without a traceback."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return done


LIMITED_CHILD = """
import json, resource, sys, time
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from gridbot.games import carrots
from gridbot.solve.carrots import solve
out = []
for side in (30, 100):
    level = carrots.Level.parse("\\n".join(["S" + "#" * (side - 1)] + ["#" * side] * (side - 1)))
    start = time.perf_counter()
    result = solve(level, time_limit=2)
    elapsed = time.perf_counter() - start
    won = result.program is not None and carrots.run(level, result.program).verdict.won
    out.append([side, result.status, won, elapsed, result.stats.get("reason", "")])
print(json.dumps(out))
"""


@pytest.mark.clock
def test_full_boards_under_a_4_gib_address_space_limit() -> None:
    """Issue 15: under `ulimit -v` even 30 x 30 failed (the budget ignored RLIMIT_AS and the first allocation ignored
    the budget). A child process with RLIMIT_AS of 4 GiB gets a verified answer or a clear status, no traceback."""
    done = run_child(LIMITED_CHILD, str(4 * 2**30))
    for side, status, won, elapsed, _ in json.loads(done.stdout):
        assert status == "solved" and won, side
        assert elapsed <= bound(2) + 1.5  # the child loads the compiled kernels (about a second) inside the limit


def test_tables_never_allocate_past_their_budget() -> None:
    """The store used to start at 1024 rows whatever the budget (47.9 GiB on 100 x 100); now every allocation of the
    tables (store, map, power buffers) stays within their share of the budget."""
    from gridbot.solve.carrots import FragmentTables, MemoryBudget, Settings

    level = full_board(30, 30)
    budget = 64 * 2**20
    tables = FragmentTables(level, memory_budget=budget)
    with contextlib.suppress(MemoryBudget):
        tables.ensure(4)
    arrays = [tables.ends, tables.vis, tables.prov, tables.fp_keys, tables.fp_rows, tables.r1, tables.r2]
    arrays += [*tables._powers, *tables.prims]
    assert sum(a.nbytes for a in arrays) <= Settings().table_share * budget


def test_a_budget_too_small_for_the_first_tables_goes_straight_to_the_tour() -> None:
    level = full_board(30, 30)
    result = solve(level, time_limit=5, memory_budget=2**20)
    assert result.status == "solved" and carrots.run(level, result.program).verdict.won
    assert "first fragment tables" in result.stats["reason"]
    assert result.proven_impossible == 0


def test_the_default_budget_is_the_shared_one(monkeypatch) -> None:
    """The tables take their budget from gridbot.solve.memory.memory_budget (RLIMIT_AS and cgroups), read when
    they are made."""
    from gridbot.solve import memory
    from gridbot.solve.carrots import FragmentTables

    monkeypatch.setattr(memory, "memory_budget", lambda share=1.0: 3 * 2**20)
    level = full_board(30, 30)
    assert FragmentTables(gridbot.load("carrots:4")).memory_budget == 3 * 2**20
    result = solve(level, time_limit=5)
    assert result.status == "solved" and "budget of 0.003 GiB" in result.stats["reason"]


@pytest.mark.parametrize("text", HAND_BOARDS)
def test_tiny_memo_and_child_chunks_keep_the_optimum(text: str) -> None:
    """With no room for the memo of expanded states and loop outcomes taken one fragment at a time (the bounds a
    big board meets), the search finds the same optimum as the brute force."""
    from gridbot.solve.carrots import Settings

    level = Level.parse(text)
    result = solve(level, settings=Settings(memo_share=0.0, children_share=0.0))
    assert result.status == "optimal"
    assert result.length == brute.minimum(level, max_length=6, counts=counts_for(level))


@pytest.mark.clock
def test_greedy_and_smallest_counts_stop_at_their_deadline() -> None:
    from gridbot.solve.carrots import FragmentTables, greedy, smallest_counts

    level = gridbot.load("carrots:12")
    tables = FragmentTables(level)
    tables.ensure(2)
    marks = np.zeros(tables.W, np.uint64)
    marks[0] = 1 << level.start
    past = time.perf_counter() - 1
    assert greedy(tables, 4 * level.start + 1, marks, deadline=past) is None
    assert greedy(tables, 4 * level.start + 1, marks) is not None
    program = Program.parse("LOOP{F LOOP(19){F L}}")
    assert smallest_counts(gridbot.load("carrots:4"), program, deadline=past) == program


FRESH_CHILD = """
import importlib.abc, sys, time
import numba, numpy  # imported beforehand, so that only the delay below makes importing the solver slow
import gridbot
from gridbot.games import carrots
from gridbot.generate.carrots import random_level


class SlowImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "gridbot.solve.carrots":
            time.sleep(0.4)  # as importing numpy and numba can take from a cold disk cache
        return None


level = random_level(20, 20, 1)
start = time.perf_counter()
if sys.argv[1] == "api":  # the front, gridbot.solve: importing the solver counts in the limit
    sys.meta_path.insert(0, SlowImport())
    result = gridbot.solve(level, time_limit=float(sys.argv[2]))
else:  # the solver's own solve, imported first: loading the kernels counts in the limit
    from gridbot.solve.carrots import solve
    start = time.perf_counter()
    result = solve(level, time_limit=float(sys.argv[2]))
elapsed = time.perf_counter() - start
assert carrots.run(level, result.program).verdict.won
print(result.status, elapsed, result.stats.get("reason", ""), sep="|")
"""


@pytest.mark.clock
@pytest.mark.parametrize(("entry", "limit"), [("solver", 0.05), ("api", 0.8)])
def test_a_short_time_limit_in_a_fresh_process_is_kept(entry: str, limit: float) -> None:
    """The first solve of a process imports the solver and loads the compiled kernels, both under its clock; with
    too little time left for the kernels (here: the import takes 0.4 s of 0.8, leaving less than the settings'
    warm_up_min_left) it answers with the tour at once and says why, instead of overrunning."""
    done = run_child(FRESH_CHILD, entry, str(limit))
    status, elapsed, reason = done.stdout.strip().split("|")
    assert status == "solved" and float(elapsed) <= bound(limit)
    assert "kernels" in reason


@pytest.mark.clock
def test_random_levels_answer_verified_within_the_time_bound() -> None:
    """52 random boards from 2 x 2 to 40 x 40 (some with marked squares), time limits of 0.5 to 2 s: every answer is
    re-run, every status is clear, every time bound kept."""
    from gridbot.solve.carrots import warm_up

    warm_up()  # the first solve of a process may have to load the kernels; that is tested apart
    sides = [(2, 2), (3, 2), (2, 5), (4, 4), (5, 3), (6, 6), (3, 7), (8, 5), (7, 7), (10, 10), (12, 9), (16, 16)]
    sides += [(40, 40), (25, 33), (40, 1), (1, 40)]
    boards = []
    for i in range(52):
        width, height = sides[i % len(sides)]
        fill = (0.3, 0.6, 0.9, 1.0)[i % 4]
        boards.append(random_level(width, height, seed=i, fill=fill, marked=(0.0, 0.2)[i % 2]))
    statuses = set()
    for i, level in enumerate(boards):
        limit = 0.5 if level.size > 30 else (0.5, 1.0, 2.0)[i % 3]
        start = time.perf_counter()
        result = solve(level, time_limit=limit)
        check_answer(level, result, limit, time.perf_counter() - start)
        statuses.add(result.status)
    assert statuses == {"optimal", "solved"}


@pytest.mark.parametrize("name", ["carrots:4", "carrots:11"])
def test_tables_are_the_same_built_in_the_smallest_calls(name: str) -> None:
    """Kernel calls bounded to one row of work (loop powers, admissions and sequences resumed call after call, the
    fingerprint map grown from small) build the very tables one big call builds."""
    from gridbot.solve.carrots import FragmentTables, Settings

    level = gridbot.load(name)
    whole = FragmentTables(level)
    whole.ensure(4)
    pieces = FragmentTables(level, settings=Settings(work_per_call=1, bodies_per_call=1, first_map_rows=2))
    pieces.ensure(4)
    assert len(pieces.fp_keys) >= 2 * pieces.rows > 2 * 16  # the map grew, rehashing as it went
    assert whole.bounds == pieces.bounds and whole.candidates == pieces.candidates
    rows = whole.rows
    assert np.array_equal(whole.ends[:rows], pieces.ends[:rows]) and np.array_equal(whole.vis[:rows], pieces.vis[:rows])
    assert np.array_equal(whole.prov[:, :rows], pieces.prov[:, :rows])


def test_memory_refused_by_the_system_gives_the_tour_and_the_reason(monkeypatch) -> None:
    """An allocation that fails although the budget allowed it (memory taken by another process) ends in an answer,
    not a MemoryError traceback."""
    from gridbot.solve.carrots import FragmentTables

    def refuse(self, cost, clock=None):
        raise MemoryError

    monkeypatch.setattr(FragmentTables, "ensure", refuse)
    level = gridbot.load("carrots:7")
    result = solve(level, time_limit=10)
    assert result.status == "solved" and carrots.run(level, result.program).verdict.won
    assert "refused memory" in result.stats["reason"]


def test_an_answer_the_simulator_rejects_is_an_error_not_a_result(monkeypatch) -> None:
    """Every program is re-run by the simulator before it is returned; one it rejects is a bug, raised as
    WrongAnswer (a check that `python -O` keeps), never returned as optimal."""
    from types import SimpleNamespace

    from gridbot.errors import WrongAnswer
    from gridbot.solve.carrots import warm_up

    warm_up()  # its own solve re-runs programs too
    monkeypatch.setattr(
        carrots, "run", lambda level, program, *args, **kw: SimpleNamespace(verdict=SimpleNamespace(won=False))
    )
    with pytest.raises(WrongAnswer, match="completes"):
        solve(gridbot.load("carrots:4"))
