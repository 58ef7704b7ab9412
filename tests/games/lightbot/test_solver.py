"""The Light-Bot solver against unpruned enumeration of every program, and against the first solver."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.deadline import Clock, stop_requested
from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.generate.lightbot import random_level
from gridbot.kernels import lightbot as kern
from gridbot.parallel import executors
from gridbot.solve import lightbot as solve_lightbot
from gridbot.solve.deepening import Deepening, Schedule, Stopped
from gridbot.solve.lightbot import DEFAULT, solve
from tests import SRC

from . import brute as brute_lightbot
from . import lazy as lazy_lightbot
from .test_rules import levels

NO_LOOK_AHEAD = dataclasses.replace(DEFAULT, guess_after=float("inf"))  # whatever the lengths' speed
ALWAYS_AHEAD = dataclasses.replace(DEFAULT, guess_after=-1.0, guess_share=1e3)  # before every length, for long
ALL_SPLIT = dataclasses.replace(ALWAYS_AHEAD, schedule=Schedule(parallel_after=-1.0, growth=6.0, max_growth=6.0))


@contextlib.contextmanager
def search_only():
    """The search alone, without the check that one walk can stand on every light: levels that fail it are
    searched like any other, so that the tests below check the search's exclusions on them too."""
    with mock.patch.object(solve_lightbot, "one_walk_can_light_all", lambda t: True):
        yield


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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels())
def test_solver_minimum_equals_brute_force(level: Level) -> None:
    with search_only():
        result = solve(level, max_length=4)
    reference = brute_minimum(level, 4)
    if reference is None:
        assert proof(result.status) == "timeout" and result.lower_bound == 5
    else:
        assert result.status == "optimal" and result.length == reference
        assert lightbot.run(level, result.program).verdict.won


def small_levels() -> st.SearchStrategy[Level]:
    """Up to 2 x 4 tiles, 1 to 4 lights: levels small enough to try every program of up to 6 or 7 commands."""
    return levels(rows=2, cols=(2, 4), heights="000112", marks="..**", light=True)


commands = st.text(alphabet="FJLRX12", max_size=5)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_levels(), commands, commands, commands)
def test_brute_force_interpreter_agrees_with_the_game(level: Level, main: str, f1: str, f2: str) -> None:
    program = Program(main, f1, f2)
    assert brute_lightbot.program_wins(level, str(program)) == lightbot.run(level, program).verdict.won


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_levels())
def test_solver_minimum_equals_every_program_tried(level: Level) -> None:
    """Every cut (turns, inlining, one-command procedures, main's last command, ...) against no cuts at all."""
    agrees_with_every_program(level, 6)


def agrees_with_every_program(level: Level, max_length: int) -> None:
    """The search up to `max_length` commands proves what trying every program text proves."""
    with search_only():
        result = solve(level, max_length=max_length)
    reference = brute_lightbot.minimum(level, max_length)
    if reference is None:
        assert proof(result.status) == "timeout" and result.lower_bound == max_length + 1
    else:
        assert result.status == "optimal" and result.length == reference


@pytest.mark.parametrize(
    "text",
    [
        "0120\n0000\n\n>*.*\n*..*",  # 8: a loop that jumps
        "0000\n0101\n\n>*.*\n*..*",
        "0011\n0101\n\nv**.\n.*.*",
        "00000\n\n>*.**",
    ],
)
def test_solver_minimum_equals_every_program_tried_up_to_8(text: str) -> None:
    level = Level.parse(text)
    with search_only():
        result = solve(level, max_length=8)
    reference = brute_lightbot.minimum(level, 8)
    assert (result.length if result.status == "optimal" else None) == reference


@st.composite
def wider_levels(draw) -> Level:
    """Up to 3 x 5 tiles, more lights: levels whose answers need procedures and recursion."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(2, 5))
    heights = ["".join(draw(st.sampled_from("0000112")) for _ in range(cols)) for _ in range(rows)]
    marks = [[draw(st.sampled_from(".**")) for _ in range(cols)] for _ in range(rows)]
    r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
    marks[r][c] = draw(st.sampled_from("^>v<*"))
    if marks[r][c] == "*":  # the robot starts on a light
        marks[r][c] = ">"
        text = "\n".join(heights) + "\n\n" + "\n".join("".join(m) for m in marks)
        level = Level.parse(text)
        return Level(level.heights, tuple(sorted((*level.lights, (r, c)))), level.start, level.facing)
    return Level.parse("\n".join(heights) + "\n\n" + "\n".join("".join(m) for m in marks))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wider_levels())
def test_solver_agrees_with_the_whole_program_search(level: Level) -> None:
    """Up to 6 commands, the walk search and the first solver (lazy over whole programs) agree."""
    with search_only():
        result = solve(level, max_length=6)
    reference = lazy_lightbot.solve(level, max_length=6)
    assert proof(result.status) == reference.status
    assert result.lower_bound == reference.lower_bound
    if result.status == "optimal":
        assert result.length == reference.length
        assert lightbot.run(level, result.program).verdict.won


def proof(status: str) -> str:
    """What a status says is proven: 'solved' (a program, not proven shortest) proves what 'timeout' does."""
    return "timeout" if status == "solved" else status


@pytest.mark.parametrize("jump", [1, 20])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(level=wider_levels())
def test_looking_ahead_never_changes_what_is_proven(jump: int, level: Level) -> None:
    """With the narrowed search looking ahead before every length, and the exact search jumping to one below
    the best program known (up to 20 lengths ahead: programs it meets there are not yet the shortest),
    the answers are still the exact ones."""
    with search_only():
        result = solve(level, max_length=6, settings=dataclasses.replace(DEFAULT, guess_after=-1.0, jump=jump))
    reference = lazy_lightbot.solve(level, max_length=6)
    assert proof(result.status) == reference.status
    assert result.lower_bound == reference.lower_bound
    if result.status == "optimal":
        assert result.length == reference.length
    if result.status in ("optimal", "solved"):
        assert lightbot.run(level, result.program).verdict.won
        assert result.length >= result.lower_bound


def test_a_program_found_ahead_is_optimal_once_every_shorter_length_is_excluded() -> None:
    level = gridbot.load("lightbot:2")
    result = solve(level, settings=ALWAYS_AHEAD)
    assert (result.status, result.length, result.lower_bound) == ("optimal", 8, 8)
    assert result.stats["guess_candidates"] > 0
    assert lightbot.run(level, result.program).verdict.won


def test_the_program_found_ahead_is_the_answer_when_the_proof_stops_short() -> None:
    level = gridbot.load("lightbot:8")  # optimal at 8; the narrowed search meets a 9-command program first
    result = solve(level, max_length=7, settings=ALWAYS_AHEAD)
    assert result.status == "solved" and result.lower_bound == 8
    assert result.length >= 8
    assert lightbot.run(level, result.program).verdict.won
    assert solve(level, max_length=7, settings=NO_LOOK_AHEAD).status == "timeout"  # without looking ahead: nothing


def _with_leaf_runs(level: Level, max_length: int, shortcut: bool) -> tuple[object, dict[int, int]]:
    """Solve in plain Python with the kernel's run of complete walks (_leaf) as it is, or always handing
    over to the full run (_run); also what _leaf answered, counted."""
    answers: dict[int, int] = {}
    original = kern._leaf.py_func

    def leaf(*args):
        answer = original(*args) if shortcut else kern.UNDECIDED
        answers[answer] = answers.get(answer, 0) + 1
        return answer

    with mock.patch.object(kern.dfs, "_leaf", leaf):  # the module whose globals the search's twin reads
        result = solve(level, max_length=max_length, jit=False, settings=NO_LOOK_AHEAD)
    return result, answers


def _same_search(a, b) -> bool:
    keys = ("status", "length", "lower_bound", "program")
    return [getattr(a, k) for k in keys] == [getattr(b, k) for k in keys] and a.stats == b.stats


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wider_levels())
def test_complete_walks_are_decided_as_the_full_run_decides_them(level: Level) -> None:
    quick, _ = _with_leaf_runs(level, 5, shortcut=True)
    full, _ = _with_leaf_runs(level, 5, shortcut=False)
    assert _same_search(quick, full)


@pytest.mark.parametrize("name", ["lightbot:2", "lightbot:8"])
def test_complete_walks_are_mostly_decided_without_the_full_run(name: str) -> None:
    level = gridbot.load(name)
    quick, answers = _with_leaf_runs(level, 9, shortcut=True)  # solved at 8: the winning walk is handed over
    full, _ = _with_leaf_runs(level, 9, shortcut=False)
    assert _same_search(quick, full) and quick.status == "optimal"
    assert answers.get(kern.FAIL, 0) > answers.get(kern.UNDECIDED, 0) > 0


def winning_sets(vec, wlen, lim, b, target, forced: int = -1, extra: int = 0) -> list[tuple[int, ...]]:
    """Every set of at most b gaps, not `forced`, whose vectors XOR to `target`, each body within its limit with
    `extra` more X commands in the forced gap's body: the answers of the kernel's win checks, by trying them all."""
    gaps = [p * kern.GAPS_PER_BODY + k for p in range(3) for k in range(wlen[p] + 1)]
    found = []
    for size in range(b + 1):
        for chosen in itertools.combinations([g for g in gaps if g != forced], size):
            acc = 0
            for g in chosen:
                acc ^= int(vec[g])
            per = [sum(1 for g in chosen if g // kern.GAPS_PER_BODY == p) for p in range(3)]
            if forced >= 0:
                per[forced // kern.GAPS_PER_BODY] += extra
            if acc == target and all(wlen[p] + per[p] <= lim[p] for p in range(3)):
                found.append(chosen)
    return found


def _brute_win_gaps(vec, wlen, lim, b, full) -> bool:
    return bool(winning_sets(vec, wlen, lim, b, full))


def draw_gap_vectors(data, lights: int, lens: list[int]) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """A random moment of the win check: the all-lights vector, the walk lengths `lens`, slot limits (the game's
    or tight ones) and a vector per gap, drawn from hypothesis' `data`."""
    full = (1 << lights) - 1
    lim = np.array([12, 8, 8], np.int64) if data.draw(st.booleans()) else np.array([5, 4, 4], np.int64)
    vec = np.zeros(kern.N_GAPS, np.int64)
    for p in range(3):
        for k in range(lens[p] + 1):
            vec[p * kern.GAPS_PER_BODY + k] = data.draw(st.integers(0, full))
    return full, np.array(lens, np.int64), lim, vec


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 6),
    st.lists(st.integers(0, 4), min_size=3, max_size=3),
    st.integers(0, 4),
    st.data(),
)
def test_win_gaps_equals_trying_every_set(lights: int, lens: list[int], b: int, data) -> None:
    """The GF(2) win check finds a set of gaps exactly when trying every small set does."""
    full, wlen, lim, vec = draw_gap_vectors(data, lights, lens)
    work = np.zeros(kern.WORK_SHAPE, np.int64)
    chosen = kern.win_gaps(vec, wlen, lim, b, full, work)
    expected = _brute_win_gaps(vec, wlen, lim, b, full)
    assert (chosen >= 0) == expected
    if chosen >= 0:
        picked = [g for g in range(kern.N_GAPS) if chosen >> g & 1]
        acc = 0
        for g in picked:
            acc ^= int(vec[g])
        assert acc == full and len(picked) <= b


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 2), st.integers(0, 3), st.data())
def test_win_gaps_with_a_large_null_space(lights: int, b: int, data) -> None:
    """Many gaps over one or two lights: the null space passes 20 dimensions and the check tries sets directly."""
    full = (1 << lights) - 1
    wlen = np.array([12, 8, 8], np.int64)
    lim = np.array([12, 8, 8], np.int64) + np.array([data.draw(st.integers(0, 2)) for _ in range(3)], np.int64)
    vec = np.zeros(kern.N_GAPS, np.int64)
    for p in range(3):
        for k in range(wlen[p] + 1):
            vec[p * kern.GAPS_PER_BODY + k] = data.draw(st.integers(1, full))
    work = np.zeros(kern.WORK_SHAPE, np.int64)
    chosen = kern.win_gaps(vec, wlen, lim, b, full, work)
    assert (chosen >= 0) == _brute_win_gaps(vec, wlen, lim, b, full)
    if chosen >= 0:
        picked = [g for g in range(kern.N_GAPS) if chosen >> g & 1]
        acc = 0
        for g in picked:
            acc ^= int(vec[g])
        assert acc == full and len(picked) <= b
        per = [sum(1 for g in picked if g // kern.GAPS_PER_BODY == p) for p in range(3)]
        assert all(wlen[p] + per[p] <= lim[p] for p in range(3))


def test_endless_walk_is_followed_for_two_periods() -> None:
    """f1 = F X 1 on a ring-like row: the lights flip each pass; only an odd pass wins."""
    level = Level.parse("0000\n\n>***")
    result = solve(level)
    assert result.status == "optimal"
    assert lightbot.run(level, result.program).verdict.won
    assert result.length == lazy_lightbot.solve(level).length


@pytest.mark.parametrize("name", ["lightbot:1", "lightbot:2", "lightbot:8"])
def test_first_levels_are_proven_and_rechecked(name: str) -> None:
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


def test_workers_share_the_tree_and_agree() -> None:
    """Two processes, taking shares of the subtrees, find what one process finds."""
    level = gridbot.load("lightbot:9")
    # no look-ahead: whether it runs depends on how fast the lengths go, and a program it meets makes the
    # exact search skip a length
    alone = solve(level, workers=1, settings=NO_LOOK_AHEAD)
    alone_excluding = solve(level, workers=1, max_length=8, settings=NO_LOOK_AHEAD)
    every_length_split = dataclasses.replace(NO_LOOK_AHEAD, schedule=ALL_SPLIT.schedule, split_depth=2)
    shared = solve(level, workers=2, settings=every_length_split)
    assert (shared.status, shared.length, shared.lower_bound) == (alone.status, alone.length, alone.lower_bound)
    assert lightbot.run(level, shared.program).verdict.won
    # searched to the end, the tree above the split is walked by every share, everything below it by exactly one:
    # each share more adds the same number of nodes, those above the split
    extra = {}
    for per_worker in (4, 8):  # 8 and 16 shares of each length
        schedule = dataclasses.replace(every_length_split.schedule, shares_per_worker=per_worker)
        excluded = solve(
            level, workers=2, max_length=8, settings=dataclasses.replace(every_length_split, schedule=schedule)
        )
        assert proof(excluded.status) == "timeout" and excluded.lower_bound == 9
        extra[2 * per_worker] = excluded.stats["candidates"] - alone_excluding.stats["candidates"]
    assert 0 < extra[8] * 15 == extra[16] * 7  # extra = (shares - 1) x the nodes above the split


@pytest.mark.clock
def test_time_limit_reports_the_excluded_lengths() -> None:
    result = solve(gridbot.load("lightbot:11"), time_limit=0.2)
    assert result.status == "timeout" and result.solution is None and result.lower_bound >= 1


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="FJLRX12", min_size=1, max_size=5))
def test_rule_examples_keep_a_representative(word: str) -> None:
    """Every main-only program that wins has a winner no longer than it in the pruned search."""
    level = Level.parse("0000\n\n>*.*")
    program = Program(word)
    if lightbot.run(level, program).verdict.won:
        assert solve(level, max_length=len(word)).length <= len(word)


@pytest.mark.clock
def test_cli_solve_json_all_and_time_limit() -> None:
    import json

    from click.testing import CliRunner

    from gridbot.cli import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "lightbot", "lightbot:2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "optimal" and data["length"] == 8
    assert lightbot.run(gridbot.load("lightbot:2"), data["solution"]).verdict.won
    listed = runner.invoke(cli, ["solve", "lightbot", "lightbot:8", "--all"])
    assert listed.exit_code == 0 and "optimal program" in listed.output
    timed = runner.invoke(cli, ["solve", "lightbot", "lightbot:12", "--time-limit", "0.5"])
    assert timed.exit_code != 0 and "proven impossible" in timed.output


def test_too_many_lights_is_a_clear_error() -> None:
    from gridbot.errors import GridbotError

    level = Level.parse("0" * 63 + "\n\n>" + "*" * 62)
    assert len(level.lights) == 62
    solve(level, max_length=1)  # 62 lights fit
    bigger = Level.parse("0" * 64 + "\n\n>" + "*" * 63)
    with pytest.raises(GridbotError, match="at most 62 lights"):
        solve(bigger, max_length=1)


def test_a_program_met_ahead_at_the_length_the_workers_search_stops_them(monkeypatch) -> None:
    """Looking ahead at the head start of every length: when it meets a program of the length the shares
    search, that program is optimal and the shares stop; either way the answer is the proven one."""
    level = gridbot.load("lightbot:2")  # optimal at 8
    advance = solve_lightbot._Guesser.advance

    def from_8_on(self, seconds: float, first: int, report) -> None:  # so that it meets 8 while the workers search 8
        if first >= 8:
            advance(self, seconds, first, report)

    monkeypatch.setattr(solve_lightbot._Guesser, "advance", from_8_on)
    result = solve(level, workers=2, settings=ALL_SPLIT)
    assert (result.status, result.length, result.lower_bound) == ("optimal", 8, 8)
    assert lightbot.run(level, result.program).verdict.won


SHARE_LOG: list[Path] = []  # where _logged_share writes (set before the worker processes fork)
SLOW_LENGTH = 6  # the length whose shares _logged_share holds back
_plain_share = solve_lightbot._worker_share


def _logged_share(t, L, *args):  # runs in the worker processes: they append what each share did to a file
    if L == SLOW_LENGTH:
        # slow enough that the look-ahead meets 8 first even on a loaded machine (CI once ran all 16 shares of 6
        # before it did), and no slower once asked to stop
        end = time.monotonic() + 2.0
        while time.monotonic() < end and not stop_requested():
            time.sleep(0.01)
    result = _plain_share(t, L, *args)
    with SHARE_LOG[0].open("a") as out:
        out.write(f"{L} {int(result.finished)}\n")
    return result


def test_a_program_met_two_lengths_ahead_during_the_head_start_skips_a_length(monkeypatch, tmp_path) -> None:
    """While one core starts on length 6, the look-ahead meets level 2's 8: the search of 6 is left
    after a share or two and 7 is searched instead (excluding it excludes 6 too), which makes 8 optimal."""
    level = gridbot.load("lightbot:2")  # optimal at 8
    monkeypatch.setattr(solve_lightbot, "_worker_share", _logged_share)
    monkeypatch.setattr(sys.modules[__name__], "SHARE_LOG", [tmp_path / "shares.txt"])
    advance = solve_lightbot._Guesser.advance

    def straight_to_8(self, seconds: float, first: int, report) -> None:  # meets 8 while low is 6
        if first >= 6:
            advance(self, seconds, max(first, 8), report)

    monkeypatch.setattr(solve_lightbot._Guesser, "advance", straight_to_8)
    result = solve(level, workers=2, settings=ALL_SPLIT)
    assert (result.status, result.length, result.lower_bound) == ("optimal", 8, 8)
    assert lightbot.run(level, result.program).verdict.won
    shares = [tuple(map(int, line.split())) for line in SHARE_LOG[0].read_text().splitlines()]
    count = 2 * ALL_SPLIT.schedule.shares_per_worker
    assert any(L == 6 for L, _ in shares)  # started...
    assert sum(L == 6 and finished for L, finished in shares) < count  # ...then left unfinished: the jump
    assert [finished for L, finished in shares if L == 7] == [1] * count
    assert all(L <= 7 for L, _ in shares)


def test_the_look_ahead_is_done_once_every_length_is_searched() -> None:
    """Past the longest program the slot limits allow there is nothing to look at: done, so that a head
    start waits for nothing (it would spin on a level the narrowed search cannot solve)."""
    level = Level.parse("01\n\n>*")  # the light is on a step F cannot climb and J is needed
    guesser = solve_lightbot._Guesser(level, solve_lightbot.tables(level), jit=True)
    guesser.next = solve_lightbot.MAX_TOTAL
    assert not guesser.done(1)
    guesser.next = solve_lightbot.MAX_TOTAL + 1
    assert guesser.done(1)
    guesser.paths_tried = True
    guesser.advance(10.0, 1, lambda nodes: None)
    assert guesser.nodes == 0 and guesser.best is None


def _reach_by_search(mv: np.ndarray, light: np.ndarray) -> list[int]:
    """Per tile, the lights on tiles a search from it reaches: the plain reference for tables' reach. O(cells^2)."""
    out = []
    for source in range(mv.shape[0]):
        seen = {source}
        todo = [source]
        while todo:
            here = todo.pop()
            for target in {int(t) for t in mv[here].ravel()} - seen:
                seen.add(target)
                todo.append(target)
        out.append(sum(1 << int(light[c]) for c in seen if light[c] >= 0))
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 10**6), st.integers(0, 4))
def test_lights_in_reach_equal_a_search_from_every_tile(width: int, height: int, seed: int, top: int) -> None:
    level = random_level(width, height, seed, lights=min(width * height - 1, 1 + seed % 6), max_height=top)
    t = solve_lightbot.tables(level)
    assert t.reach.tolist() == _reach_by_search(t.mv, t.light)


def _flat(side: int, lights: list[tuple[int, int]]) -> Level:
    marks = [["."] * side for _ in range(side)]
    marks[0][0] = ">"
    for r, c in lights:
        marks[r][c] = "*"
    return Level.parse("\n".join(["0" * side] * side) + "\n\n" + "\n".join("".join(row) for row in marks))


def _bound(limit: float) -> float:
    """The time a solve given `limit` seconds may take: the limit plus max(1 s, 10%) (issue 15)."""
    return limit + max(1.0, 0.1 * limit)


@pytest.mark.clock
def test_time_limit_kept_on_a_flat_50_by_50_board() -> None:
    """The lights in reach were computed from every tile by a search in plain Python (9 s here)."""
    solve_lightbot.warm_up()
    started = time.monotonic()
    result = solve(_flat(50, [(10, 10), (40, 45)]), time_limit=1.0)
    assert time.monotonic() - started < _bound(1.0)
    assert result.status in ("timeout", "solved", "optimal")


# A random 6 x 7 level of 6 lights (benchmarks/lightbot_random.py, seed 11): the pieces of its winning walks
# were listed in plain Python for minutes, without looking at the clock.
SIX_BY_SEVEN = """
333113
220023
122113
112200
213100
330222
111323

.*....
......
.*....
.....>
*.....
..*...
...*.*
"""


@pytest.mark.clock
def test_pieces_of_winning_walks_keep_their_time() -> None:
    from gridbot.solve import lightbot_paths

    level = Level.parse(SIX_BY_SEVEN)
    lightbot_paths.from_paths(Level.parse("000\n\n>*."), seconds=1.0)  # loads the compiled part
    started = time.monotonic()
    lightbot_paths.from_paths(level, seconds=0.5)
    assert time.monotonic() - started < _bound(0.5)
    ticks: list[float] = []
    lightbot_paths.from_paths(level, seconds=0.5, tick=lambda: ticks.append(time.monotonic()))
    assert len(ticks) > 1 and max(b - a for a, b in zip(ticks, ticks[1:], strict=False)) < 0.5


@pytest.mark.clock
def test_time_limit_kept_with_the_look_ahead_on_the_6_by_7_level() -> None:
    level = Level.parse(SIX_BY_SEVEN)
    solve_lightbot.warm_up()
    for limit in (2.0, 6.0):
        started = time.monotonic()
        result = solve(level, time_limit=limit)
        assert time.monotonic() - started < _bound(limit)
        assert result.status in ("timeout", "solved", "optimal") and result.lower_bound >= 9
        if result.program is not None:
            assert lightbot.run(level, result.program).verdict.won and result.length >= result.lower_bound


def test_the_look_ahead_gets_a_bounded_share_of_the_time() -> None:
    share = solve_lightbot.look_ahead_seconds
    assert share(0.1, None) == 0.0  # a short length: no look-ahead
    assert share(100.0, None) == DEFAULT.guess_share * 100.0
    assert share(100.0, 10.0) == DEFAULT.guess_of_left * 10.0 < 10.0
    assert share(1e9, 0.0) == 0.0


def test_a_trail_grown_on_demand_gives_the_same_search(monkeypatch) -> None:
    """The kernel's trail starting with room for one node: it asks for room (NEED_ROOM) and grows as the search
    deepens; the search is the same, node for node."""
    level = gridbot.load("lightbot:9")
    whole = solve(level, workers=1, settings=NO_LOOK_AHEAD)
    grown: list[int] = []
    grow = solve_lightbot._Search._grow_trail

    def counted(self) -> None:
        grow(self)
        grown.append(self.trail.shape[0])

    monkeypatch.setattr(solve_lightbot._Search, "_grow_trail", counted)
    small = solve(level, workers=1, settings=dataclasses.replace(NO_LOOK_AHEAD, trail_start=1, trail_nodes=1))
    assert grown and max(grown) <= kern.trail_rows(len(level.heights) * len(level.heights[0]))
    assert (small.status, small.length, small.program, small.stats) == (
        whole.status,
        whole.length,
        whole.program,
        whole.stats,
    )


def test_the_trail_is_never_read_above_its_top(monkeypatch) -> None:
    """The trail is allocated without clearing (np.empty): the search reads only rows it has logged. Rows filled
    with ones before use, at the start and after each growth, give the same search node for node."""
    level = gridbot.load("lightbot:9")
    tight = dataclasses.replace(NO_LOOK_AHEAD, trail_start=1, trail_nodes=1)
    clean = solve(level, workers=1, settings=tight)
    init, grow = solve_lightbot._Search.__init__, solve_lightbot._Search._grow_trail

    def filled_init(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self.trail[:] = 1

    def filled_grow(self) -> None:
        rows = self.trail.shape[0]
        grow(self)
        self.trail[rows:] = 1

    monkeypatch.setattr(solve_lightbot._Search, "__init__", filled_init)
    monkeypatch.setattr(solve_lightbot._Search, "_grow_trail", filled_grow)
    dirty = solve(level, workers=1, settings=tight)
    assert (dirty.status, dirty.length, dirty.program, dirty.stats) == (
        clean.status,
        clean.length,
        clean.program,
        clean.stats,
    )


def test_past_the_memory_budget_the_answer_says_why(monkeypatch) -> None:
    monkeypatch.setattr(solve_lightbot, "memory_budget", lambda share=1.0: 16 * 2**20)
    result = solve(_flat(100, [(5, 5), (30, 30)]), time_limit=5.0, workers=1)
    assert result.status == "timeout" and "memory budget" in result.stats["reason"]
    assert solve(gridbot.load("lightbot:1"), workers=1).status == "optimal"  # a small board fits


def test_search_tables_are_sized_by_the_board() -> None:
    eight = solve_lightbot.search_bytes(64, solve_lightbot.first_trail_rows(64))
    hundred = solve_lightbot.search_bytes(10_000, solve_lightbot.first_trail_rows(10_000))
    assert eight < 8 * 2**20 and hundred < 128 * 2**20
    search = solve_lightbot._Search(solve_lightbot.tables(_flat(30, [(1, 1)])), 5)
    arrays = [v for v in vars(search).values() if isinstance(v, np.ndarray)]
    assert sum(a.nbytes for a in arrays) == solve_lightbot.search_bytes(900, search.trail.shape[0])


MEMORY_LIMITED = """
import json, resource, sys, time
started = time.monotonic()
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from gridbot.cli import main
try:
    main(["solve", "lightbot", sys.argv[1], "--time-limit", "{seconds}", "--json"])
except SystemExit as end:
    print(json.dumps({{"exit": end.code, "wall": time.monotonic() - started}}), file=sys.stderr)
"""


@pytest.mark.clock
@pytest.mark.parametrize("seed", [1, 2])
def test_a_100_by_100_board_under_a_memory_limit(tmp_path, seed: int) -> None:
    """The largest board the format allows, in a process limited to 2 GiB of address space, with both workers:
    a clear answer within the time limit, no traceback."""
    import json
    import os
    import subprocess

    path = tmp_path / "big.txt"
    path.write_text(str(random_level(100, 100, seed, lights=6)))
    seconds = 3.0
    script = MEMORY_LIMITED.format(limit=2 * 2**30, seconds=seconds)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, env=env, timeout=60)
    assert b"Traceback" not in done.stderr and b"Error" not in done.stderr, done.stderr
    end = json.loads(done.stderr.decode().strip().splitlines()[-1])
    answer = json.loads(done.stdout)
    assert answer["status"] in ("optimal", "solved", "timeout")
    assert end["exit"] in (0, 1) and end["wall"] < _bound(seconds)


def _a_walk_stands_on_every_light(level: Level) -> bool:
    """A search over (tile, lights stood on) with every move each way (turns are free): the plain reference for
    one_walk_can_light_all. O(cells x 2^lights)."""
    index = {tile: i for i, tile in enumerate(level.lights)}
    full = (1 << len(index)) - 1
    first = (level.start, 1 << index[level.start] if level.start in index else 0)
    seen = {first}
    todo = [first]
    while todo:
        tile, stood = todo.pop()
        if stood == full:
            return True
        for facing in range(4):
            for op in "FJ":
                to = level.move(tile, facing, op)
                nxt = (to, stood | (1 << index[to] if to in index else 0))
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return False


@settings(max_examples=300, deadline=None)
@given(wider_levels())
def test_one_walk_check_equals_a_search_over_walks(level: Level) -> None:
    t = solve_lightbot.tables(level)
    assert solve_lightbot.one_walk_can_light_all(t) == _a_walk_stands_on_every_light(level)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_levels())
def test_levels_no_walk_can_light_are_unsolvable_at_once(level: Level) -> None:
    """No walk stands on every light: 'unsolvable' at once, which every program of up to 6 commands agrees with
    (and the search alone excludes them all)."""
    if _a_walk_stands_on_every_light(level):
        return
    result = solve(level)
    assert result.status == "unsolvable" and result.stats["candidates"] == 0 and "no walk" in result.stats["reason"]
    assert brute_lightbot.minimum(level, 6) is None
    with search_only():
        assert solve(level, max_length=6).lower_bound == 7


@pytest.mark.clock
def test_a_random_level_whose_lights_no_walk_reaches_is_unsolvable() -> None:
    """Benchmark seed 22: a drop from the robot's 3 cannot be climbed back, and the lights lie on both sides of
    it. The search alone could only exclude lengths one by one up to 28 (the C++ baseline never ends)."""
    level = Level.parse("1222\n3010\n3313\n1303\n\n....\n^.**\n....\n*...")
    result = solve(level, time_limit=10)
    assert result.status == "unsolvable" and result.seconds < 1


@pytest.mark.clock
@pytest.mark.parametrize("ahead", [0.0, 30.0])
def test_a_length_split_over_workers_and_stopped_by_the_clock_counts_what_its_shares_searched(ahead: float) -> None:
    """The clock's Timeout during a split length, after the head start or in it, ends the length unfinished with
    the nodes its shares searched (they were lost before: a timed-out solve counted only the look-ahead's and
    the lengths done)."""
    level = gridbot.load("lightbot:10")
    lengths = solve_lightbot._Lengths(level, solve_lightbot.tables(level), False, True, 2**28, DEFAULT)
    lengths.ahead = ahead
    search = Deepening(lengths, Clock(1.5), 2)
    with executors.local(2) as run, pytest.raises(Stopped) as stopped:
        lengths.split(search, run, 40, lambda: search.clock.check())
    assert not stopped.value.share.finished
    assert stopped.value.share.nodes > 100_000
