"""Pellet Eater levels, move strings, the exact path checker, the trace, and the generic CLI."""

from __future__ import annotations

import contextlib
import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.cli import cli
from gridbot.games import pellet
from gridbot.games.pellet import Level, Moves, parse_program
from gridbot.grid import GridbotError, LevelError, ProgramError

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRICKY = ["\ufb00", "\u212a", "\u0130", "\u00b2", "\u2028", "\x85", "\u00a0", "\x0b", "\ufeff", "\t", "\r"]
board_text = st.text(alphabet=st.sampled_from([".", "#", "S", "\n", " ", "1", "9", "x", *TRICKY]), max_size=80)
move_text = st.lists(st.sampled_from(list("udlrUDLR \n\t") + ["x", "U\u0308", *TRICKY]), max_size=40).map("".join)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


# ---------------------------------------------------------------- parsing: only GridbotError ever escapes


@FAST
@given(st.text(max_size=200))
def test_level_parse_random_text(text: str) -> None:
    with contextlib.suppress(GridbotError):
        Level.parse(text)


@FAST
@given(board_text)
def test_level_parse_board_like_text(text: str) -> None:
    with contextlib.suppress(LevelError):
        level = Level.parse(text)
        again = Level.parse(level.text())  # the server's form reads back the same board
        assert (again.rows, again.start, again.first_line) == (level.rows, level.start, 2)
        assert Level.parse(str(level)).rows == level.rows


@FAST
@given(st.integers(0, 1200), st.integers(0, 1200), board_text)
def test_level_parse_with_random_headers(w: int, h: int, body: str) -> None:
    with contextlib.suppress(LevelError):
        Level.parse(f"{w} {h}\n{body}")


@FAST
@given(st.one_of(st.text(max_size=100), move_text))
def test_move_parse_random_text(text: str) -> None:
    try:
        moves = parse_program(text)
    except ProgramError as exc:
        assert 1 <= exc.column <= len(text)
        return
    assert set(moves.text) <= set("udlr")
    assert parse_program(str(moves)) == moves


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("", ":1:1:", "empty level"),
        ("..\n..", ":1:1:", "no start S"),
        ("S.\n.S", ":2:2:", "a second start S"),
        ("S.x", ":1:3:", "unknown character 'x'"),
        ("S. ", ":1:3:", "unknown character ' '"),
        ("S.\t", ":1:3:", "unexpected character"),
        ("3 2\nS..\n...\n...", ":4:1:", "the header says 2 rows, found 3"),
        ("3 2\nS..", ":3:1:", "the header says 2 rows, found 1"),
        ("2 1\nS..", ":2:3:", "row longer than the header's width 2"),
        ("3 2\nS.x\n...", ":2:3:", "unknown character 'x'"),
        ("0 5\nS", ":1:1:", "out of range"),
        ("3 1", ":2:", "empty level"),
    ],
)
def test_bad_levels_name_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(LevelError) as err:
        Level.parse(text, name="b.txt")
    assert f"b.txt{where}" in str(err.value) and message in str(err.value)


def test_level_reading_rules() -> None:
    level = Level.parse("4 3\nS.\r\n...\n....\n\n")
    assert level.rows == ("S.##", "...#", "....")
    assert (level.width, level.height, level.size, level.start) == (4, 3, 8, (0, 0))
    assert level.first_line == 2 and level.where(0, 1) == "line 2, column 2"
    assert Level.parse("S.\n...").rows == ("S.#", "...")  # ragged rows are padded with walls
    assert level.text() == "4 3\nS.##\n...#\n....\n"


def test_bundled_levels_match_the_shared_copies() -> None:
    ctf = gridbot.load("pellet:ctf_example")
    assert (ctf.width, ctf.height, ctf.size, ctf.start) == (28, 21, 265, (15, 13))
    tunnel = gridbot.load("pellet:tunnel")
    assert (tunnel.width, tunnel.height, tunnel.size) == (16, 14, 107)


# ---------------------------------------------------------------- the path checker


def test_moves_are_case_and_space_tolerant() -> None:
    assert parse_program(" R r\nD\tl ") == Moves("rrdl")
    assert Moves.parse("UDLR").tokens == 4
    with pytest.raises(ProgramError) as err:
        parse_program("rrx")
    assert err.value.column == 3


BOARD = "S.#\n..#\n..."  # 7 open cells, 6 pellets


@pytest.mark.parametrize(
    ("moves", "status", "step", "text"),
    [
        ("rdldrr", "completed", 6, "completed at move 6 (every pellet eaten once)"),
        ("", "incomplete", 0, "ended after 0 moves with 6 pellets left"),
        ("rd", "incomplete", 2, "ended after 2 moves with 4 pellets left"),
        ("rr", "illegal", 2, "move 2 'r' at line 1, column 3 enters a wall"),
        ("u", "illegal", 1, "move 1 'u' at line 1, column 1 leaves the board"),
        ("rl", "illegal", 2, "move 2 'l' at line 1, column 1 enters a cell already visited"),
        ("rdldrrl", "illegal", 7, "enters a cell already visited"),  # a move after the last pellet
        ("rdldrru", "illegal", 7, "enters a wall"),
    ],
)
def test_run_checks_paths_exactly(moves: str, status: str, step: int, text: str) -> None:
    verdict = pellet.run(Level.parse(BOARD), moves).verdict
    assert (verdict.status, verdict.step) == (status, step)
    assert text in str(verdict)
    assert verdict.won == (status == "completed")


def test_trace_draws_the_path() -> None:
    level = Level.parse(BOARD)
    out = pellet.format_trace(level, pellet.run(level, "rdldrr"))
    assert "move 0: start at line 1, column 1" in out
    assert "move 6: r to line 3, column 3" in out
    assert ">v#\nv<#\n>>@" in out
    bad = pellet.format_trace(level, pellet.run(level, "rr"))
    assert "S>X" not in bad and ">@X" in bad and "move 2: r is illegal" in bad
    cut = pellet.format_trace(level, pellet.run(level, "rdldrr"), limit=2)
    assert "trace cut after 2 moves" in cut and ">v#\n.@#\n..." in cut


# ---------------------------------------------------------------- the generic command line


def test_cli_levels_and_solve() -> None:
    result = invoke("levels", "pellet")
    assert result.exit_code == 0
    assert result.output.split("\n")[0].split() == ["pellet:ctf_example", "28x21", "size", "265"]
    result = invoke("solve", "pellet", "tunnel")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("pellet:tunnel: optimal, 107 moves (every path has this length)")
    assert "\n  path        " in result.output


@pytest.mark.parametrize(
    "game,level", [("pellet", "tunnel"), ("torch_cave", "prob16_sample"), ("bender", "01_simple_moves")]
)
def test_cli_refuses_all_for_one_answer_solvers(game, level) -> None:
    result = invoke("solve", game, level, "--all")
    assert result.exit_code == 2
    assert "--all is not offered" in result.output


def test_cli_solve_json_schema_and_seed(tmp_path) -> None:
    result = invoke("solve", "pellet", "pellet:ctf_example", "--json", "--seed", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "level", "status", "solution", "length", "seconds", "proven_impossible", "stats"}
    assert data["status"] == "optimal" and data["length"] == 265 == len(data["solution"])
    assert pellet.run(gridbot.load("pellet:ctf_example"), data["solution"]).verdict.won
    again = json.loads(invoke("solve", "pellet", "pellet:ctf_example", "--json", "--seed", "3").output)
    assert again["solution"] == data["solution"]


def test_cli_seed_is_refused_by_solvers_without_one() -> None:
    result = invoke("solve", "carrots", "carrots:1", "--seed", "1")
    assert result.exit_code == 2 and "--seed is not used by carrots" in result.output


def test_cli_unsolvable_board_prints_its_reason(tmp_path) -> None:
    board = tmp_path / "two_ends.txt"
    board.write_text("#.S\n..#\n#..\n")
    result = invoke("solve", "pellet", str(board))
    assert result.exit_code == 0
    assert "unsolvable" in result.output and "reason      dead ends at line 2, column 1" in result.output
    data = json.loads(invoke("solve", "pellet", str(board), "--json").output)
    assert data["status"] == "unsolvable" and data["solution"] is None and "dead ends" in data["stats"]["reason"]


def test_cli_run_and_trace(tmp_path) -> None:
    board = tmp_path / "b.txt"
    board.write_text(BOARD)
    result = invoke("run", "pellet", str(board), "rdldrr")
    assert result.exit_code == 0
    assert "verdict  completed at move 6" in result.output
    data = json.loads(invoke("run", "pellet", str(board), "rr", "--json").output)
    assert data["status"] == "illegal" and data["step"] == 2
    assert ">@X" in invoke("run", "pellet", str(board), "rr", "--trace").output


def test_cli_bad_level_and_moves(tmp_path) -> None:
    board = tmp_path / "bad.txt"
    board.write_text("S.\n.q\n")
    result = invoke("solve", "pellet", str(board))
    assert result.exit_code == 2 and f"{board}:2:2: unknown character 'q'" in result.output
    result = invoke("run", "pellet", "tunnel", "rrz")
    assert result.exit_code == 2 and "program:1:3" in result.output
