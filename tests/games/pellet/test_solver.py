"""The Pellet Eater solver: against a brute force, each pruning rule on its own, constructions, certificates."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.deadline import Clock
from gridbot.games import pellet
from gridbot.games.pellet import Level
from gridbot.generate import pellet as generator
from gridbot.kernels import pellet as kern
from gridbot.solve import pellet as solver
from gridbot.solve.pellet import Board, Settings, rectangle_path, solve

from . import brute

SLOW = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_boards(draw, max_h: int = 4, max_w: int = 5, max_open: int = 14) -> Level:
    """A random board of up to max_h x max_w cells with random walls (up to max_open open cells)."""
    h = draw(st.integers(1, max_h))
    w = draw(st.integers(1, max_w))
    density = draw(st.sampled_from([0.0, 0.1, 0.2, 0.35]))
    bits = draw(st.lists(st.floats(0, 1), min_size=h * w, max_size=h * w))
    grid = [["#" if bits[r * w + c] < density else "." for c in range(w)] for r in range(h)]
    opened = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == "."]
    if len(opened) > max_open:
        for r, c in opened[max_open:]:
            grid[r][c] = "#"
        opened = opened[:max_open]
    if opened:
        sr, sc = draw(st.sampled_from(opened))
    else:
        sr, sc = draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1))
    grid[sr][sc] = "S"
    return Level.parse("\n".join("".join(row) for row in grid))


def assert_valid(level: Level, result) -> None:
    assert result.status == "optimal"
    assert result.length == level.size == len(str(result.solution))
    assert pellet.run(level, result.solution).verdict.won


# ---------------------------------------------------------------- the whole solver against brute force


@SLOW
@given(small_boards())
def test_solver_agrees_with_brute_force(level: Level) -> None:
    expected = brute.hamiltonian_path(level)
    result = solve(level, time_limit=30)
    if expected is None:
        assert result.status == "unsolvable", (str(level), result)
        assert result.stats.get("reason")
    else:
        assert_valid(level, result)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(max_h=5, max_w=6, max_open=22), st.booleans())
def test_small_board_rules_agree_with_brute_force(level: Level, restarts: bool) -> None:
    """The memo of failed positions and forced-edge propagation (on for <= 64 cells) stay exact."""
    expected = brute.hamiltonian_path(level)
    result = solve(level, time_limit=30, restarts=restarts, construct=False)
    if expected is None:
        assert result.status == "unsolvable", (str(level), result)
    else:
        assert_valid(level, result)
    # the same answer with forced-edge propagation off (a plain run, memo only)
    board = Board(level)
    if board.pellets and result.stats.get("method") == "search":
        no_forced = Settings(forced_max_cells=0)
        plain, finished, _ = solver.search(board, Clock(None), restarts=False, settings=no_forced)
        assert finished and (plain is None) == (expected is None)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(), st.integers(0, 2**32 - 1))
def test_restarts_stay_exact(level: Level, seed: int) -> None:
    """Tiny node budgets force many restarts, and the answer must not change."""
    expected = brute.hamiltonian_path(level)
    board = Board(level)
    if board.pellets == 0:
        return
    path, finished, stats = solver.search(board, Clock(30), seed=seed, settings=Settings(first_budget=1))
    assert finished
    assert (path is None) == (expected is None)
    if path is not None:
        cells = [board.cell(i) for i in path]
        assert pellet.run(level, pellet.moves_of(cells)).verdict.won


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards())
def test_baseline_agrees_with_brute_force(level: Level) -> None:
    expected = brute.hamiltonian_path(level)
    result = solver.baseline(level, time_limit=30)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert_valid(level, result)


# ---------------------------------------------------------------- each pruning rule is sound


@st.composite
def partial_paths(draw):
    """A board and a random self-avoiding walk from S on it (the path so far)."""
    level = draw(small_boards(max_h=5, max_w=5, max_open=16))
    board = Board(level)
    walk = [board.start]
    visited = {board.start}
    for _ in range(draw(st.integers(0, 12))):
        head = walk[-1]
        options = [head + int(o) for o in board.off if board.opened[head + int(o)] and head + int(o) not in visited]
        if not options:
            break
        nxt = draw(st.sampled_from(options))
        walk.append(nxt)
        visited.add(nxt)
    return level, board, walk


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_paths())
def test_every_rule_rejects_only_dead_positions(data) -> None:
    """After any walk, the incremental counters equal a recount, and a rejection means no completion exists."""
    level, board, walk = data
    free, deg, sc = board.fresh_state()
    for h, n in zip(walk, walk[1:], strict=False):
        kern._apply(h, n, free, deg, board.off, sc)
    head = walk[-1]
    # the incremental state equals one computed from scratch
    usable = free.copy()
    usable[head] = 1
    for i in range(board.n):
        if free[i]:
            assert deg[i] == sum(usable[i + int(o)] for o in board.off)
    in_u = free == 1
    assert sc[kern.S_FREE] == int(in_u.sum())
    assert sc[kern.S_ONES] == int((in_u & (deg <= 1)).sum())
    assert sc[kern.S_ZEROS] == int((in_u & (deg == 0)).sum())
    unvisited = {board.cell(i) for i in np.flatnonzero(in_u)}
    completion = brute.complete(set(), board.cell(head), set(unvisited))
    if sc[kern.S_FREE] > 0 and (sc[kern.S_ZEROS] > 0 or sc[kern.S_ONES] > 1):
        assert completion is None, "dead-end rule rejected a position that has a completion"
    info = np.zeros(2, np.int64)
    code = kern.block_check(head, free, board.col, int(sc[kern.S_FREE]), board.off, board.scratch(), 1, info)
    if code != kern.OK:
        assert completion is None, f"block_check reason {code} rejected a position that has a completion"
    stamp = 1 + len(walk)  # forced_check's stamps must differ from any left in the scratch rows
    if not kern.forced_check(head, free, deg, board.off, board.scratch(), stamp):
        assert completion is None, "forced-edge propagation rejected a position that has a completion"
    # undoing every move gives back the root exactly
    for h, n in reversed(list(zip(walk, walk[1:], strict=False))):
        kern._undo(h, n, free, deg, board.off, sc)
    f0, d0, s0 = board.fresh_state()
    assert np.array_equal(free, f0) and np.array_equal(deg, d0) and np.array_equal(sc, s0)


# ---------------------------------------------------------------- certificates


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("##S\n.##\n...", "the pellet at line 2, column 1 cannot be reached from S"),
        ("#.S\n..#\n#..", "dead ends at line 2, column 1 and line 3, column 3"),
        ("..#\n#S.\n#..", "S separates the board"),
        ("#.#\n..S\n..#", "the cell at line 2, column 2 splits the board into three parts"),
        ("..#.\n....\n#..S", "the cells at line 2, column 2 and line 2, column 4 each cut off a part"),
        ("...\nS..\n...", "4 open cells share S's colour and 5 do not"),
        ("S..\n...\n#.#", "the cells from S to the cut cell at line 2, column 2 cannot be covered"),
        ("...#\n...S\n...#", "the part beyond the cut cell at line 2, column 3 cannot be covered"),
    ],
)
def test_unsolvable_boards_carry_their_reason(text: str, fragment: str) -> None:
    level = Level.parse(text)
    assert brute.hamiltonian_path(level) is None
    result = solve(level)
    assert result.status == "unsolvable"
    assert fragment in result.stats["reason"], result.stats["reason"]
    assert result.solution is None and result.length is None


def test_unsolvable_without_a_simple_certificate_names_the_search() -> None:
    level = Level.parse("S.....\n.##.#.\n.##...\n......")
    assert brute.hamiltonian_path(level) is None
    result = solve(level)
    assert result.status == "unsolvable"
    assert result.stats["reason"].startswith("exhaustive search")


def test_header_shifts_the_lines_named_by_certificates() -> None:
    level = Level.parse("4 1\nS.#.")
    assert "line 2, column 4" in solve(level).stats["reason"]


# ---------------------------------------------------------------- constructions


@pytest.mark.parametrize("h", range(1, 7))
@pytest.mark.parametrize("w", range(1, 7))
def test_rectangles_exactly_when_a_path_exists(h: int, w: int) -> None:
    for r in range(h):
        for c in range(w):
            rows = ["." * w for _ in range(h)]
            rows[r] = rows[r][:c] + "S" + rows[r][c + 1 :]
            level = Level.parse("\n".join(rows))
            path = rectangle_path(level)
            if h * w <= 16:
                assert (path is None) == (brute.hamiltonian_path(level) is None), (h, w, r, c)
            if path is not None:
                assert pellet.run(level, pellet.moves_of(path)).verdict.won


def test_rectangle_construction_covers_every_start_of_every_small_rectangle() -> None:
    """The spliced construction (strips cut from every side, in every order the start allows) from every cell
    of every rectangle up to 11 x 11: a path exactly when one exists, and the checker accepts it."""
    for h in range(1, 12):
        for w in range(1, 12):
            for r in range(h):
                for c in range(w):
                    order = solver._rect_order(h, w, (r, c))
                    if h == 1 or w == 1:
                        exists = (r, c) in ((0, 0), (h - 1, w - 1))
                    else:
                        exists = (h * w) % 2 == 0 or (r + c) % 2 == 0
                    assert (order is not None) == exists, (h, w, r, c)
                    if order is None:
                        continue
                    assert sorted(order.tolist()) == list(range(h * w)) and order[0] == r * w + c
                    steps = np.abs(np.diff(order))
                    same_row = order[1:] // w == order[:-1] // w
                    assert np.all((steps == w) | ((steps == 1) & same_row)), (h, w, r, c)


@pytest.mark.parametrize(("h", "w"), [(9, 15), (15, 9), (21, 21), (2, 40), (31, 1), (51, 49), (100, 100)])
def test_big_rectangles_are_built_not_searched(h: int, w: int) -> None:
    for r, c in [(0, 0), (h // 2, w // 2), (h - 1, w - 1), (h // 3 * 2, w // 4 * 2), (1, 2 % w)]:
        r, c = min(r, h - 1), min(c, w - 1)
        rows = ["#" * (w + 2)] + ["#" + "." * w + "#" for _ in range(h)] + ["#" * (w + 2)]
        rows[r + 1] = rows[r + 1][: c + 1] + "S" + rows[r + 1][c + 2 :]
        level = Level.parse("\n".join(rows))
        result = solve(level)
        exists = (h == 1 or w == 1) and (r, c) in ((0, 0), (h - 1, w - 1))
        exists = exists or (h > 1 and w > 1 and ((h * w) % 2 == 0 or (r + c) % 2 == 0))
        if exists:
            assert_valid(level, result)
            assert result.stats["method"] == "rectangle"
        else:
            assert result.status == "unsolvable"


# ---------------------------------------------------------------- bundled boards, generated boards, seeds


@pytest.mark.parametrize("name", ["ctf_example", "tunnel"])
def test_bundled_boards_are_solved(name: str) -> None:
    level = gridbot.load(f"pellet:{name}")
    assert_valid(level, solve(level, time_limit=30))


def test_random_levels_are_solvable_and_reproducible() -> None:
    for seed in range(6):
        level = generator.random_level(12, 9, seed, fill=0.4 + 0.1 * seed)
        assert level == generator.random_level(12, 9, seed, fill=0.4 + 0.1 * seed)
        assert_valid(level, solve(level, time_limit=30))


def test_same_seed_same_path() -> None:
    level = generator.random_level(30, 20, 5, fill=0.7)
    a = solve(level, seed=3)
    b = solve(level, seed=3)
    assert str(a.solution) == str(b.solution)
    assert_valid(level, a)
    assert_valid(level, solve(level, seed=4))


@pytest.mark.clock
def test_time_limit_gives_timeout() -> None:
    level = generator.random_level(100, 100, 1, fill=0.8)
    result = solve(level, time_limit=0.001)
    assert result.status == "timeout"
    assert result.solution is None
    assert result.to_json()["status"] == "timeout"


def test_progress_is_reported() -> None:
    seen: list[dict] = []
    level = generator.random_level(100, 100, 2, fill=0.8)
    result = solver.solve(level, time_limit=60, progress=seen.append)
    assert_valid(level, result)
    assert seen and "candidates" in seen[0] and "seconds" in seen[0]


@pytest.mark.parametrize(("text", "method"), [("S..\n...", "rectangle"), ("S..\n.#.\n...", "search")])
def test_a_path_the_simulator_rejects_is_an_error_not_a_result(text: str, method: str, monkeypatch) -> None:
    """Every path is re-run by the game's `run` before it is returned; one it rejects is a bug, raised as
    WrongAnswer (a check that `python -O` keeps), never returned as optimal."""
    from types import SimpleNamespace

    from gridbot.errors import WrongAnswer

    monkeypatch.setattr(solver, "run", lambda level, moves: SimpleNamespace(verdict=SimpleNamespace(won=False)))
    with pytest.raises(WrongAnswer, match=method):
        solve(Level.parse(text))
