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
from gridbot.errors import LevelError, ProgramError
from gridbot.games import pellet
from gridbot.games.pellet import Level, Moves, parse_program

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRICKY = ["\ufb00", "\u212a", "\u0130", "\u00b2", "\u2028", "\x85", "\u00a0", "\x0b", "\ufeff", "\t", "\r"]
board_text = st.text(alphabet=st.sampled_from([".", "#", "S", "\n", " ", "1", "9", "x", *TRICKY]), max_size=80)
move_text = st.lists(st.sampled_from(list("udlrUDLR \n\t") + ["x", "U\u0308", *TRICKY]), max_size=40).map("".join)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


# ---------------------------------------------------------------- parsing: only GridbotError ever escapes


@FAST
@given(board_text)
def test_the_servers_form_of_a_board_reads_back(text: str) -> None:
    """level.text(), with its header line, reads back as the same board (str(level): tests/games/test_parsers.py)."""
    with contextlib.suppress(LevelError):
        level = Level.parse(text)
        again = Level.parse(level.text())
        assert (again.rows, again.start, again.first_line) == (level.rows, level.start, 2)


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


def walk_step_by_step(level: Level, moves: str) -> tuple[str, int, int, str, list[tuple[int, int]]]:
    """The checker's rules, one move at a time with a set of visited cells (the reference for the vectorised run)."""
    r, c = level.start
    visited, cells, left = {(r, c)}, [(r, c)], level.size
    for i, m in enumerate(moves, start=1):
        dr, dc = pellet.DELTA[m]
        nr, nc = r + dr, c + dc
        if not (0 <= nr < level.height and 0 <= nc < level.width):
            return "illegal", i, left, "leaves the board", cells
        if level.rows[nr][nc] == "#":
            return "illegal", i, left, "enters a wall", cells
        if (nr, nc) in visited:
            return "illegal", i, left, "enters a cell already visited", cells
        r, c = nr, nc
        visited.add((r, c))
        cells.append((r, c))
        left -= 1
    return ("completed" if left == 0 else "incomplete"), len(moves), left, "", cells


@st.composite
def boards_and_walks(draw):
    """A random board and a random move string, often a self-avoiding walk that runs on until it fails."""
    h, w = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    cells = draw(st.lists(st.sampled_from(".#"), min_size=h * w, max_size=h * w))
    start = draw(st.integers(0, h * w - 1))
    cells[start] = "S"
    level = Level.parse("\n".join("".join(cells[r * w : (r + 1) * w]) for r in range(h)))
    moves = draw(st.text(alphabet="udlr", max_size=3 * h * w))
    return level, moves


@FAST
@given(boards_and_walks())
def test_run_agrees_with_a_step_by_step_walk(data) -> None:
    level, moves = data
    status, step, left, reason, cells = walk_step_by_step(level, moves)
    walk = pellet.run(level, moves)
    assert (walk.verdict.status, walk.verdict.step, walk.verdict.remaining) == (status, step, left)
    assert reason in str(walk.verdict)
    assert list(walk.cells) == cells and walk.cells == tuple(cells) and len(walk.cells) == len(cells)
    assert walk.cells[-1] == cells[-1] and walk.cells[1:] == tuple(cells[1:])


def test_run_checks_a_million_moves_in_bounded_memory() -> None:
    """A serpentine path of a 1000 x 1000 board. The move-by-move checker kept a tuple and a set entry per cell
    (210 MB at its peak, 112 MB kept in the Walk); the vectorised one keeps two arrays."""
    import tracemalloc

    n = 1000
    level = Level.parse("S" + "." * (n - 1) + "\n" + ("." * n + "\n") * (n - 1))
    moves = Moves("d".join(("r" if r % 2 == 0 else "l") * (n - 1) for r in range(n)))
    tracemalloc.start()
    try:
        walk = pellet.run(level, moves)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert walk.verdict.won and walk.verdict.step == n * n - 1
    assert walk.cells[0] == (0, 0) and walk.cells[-1] == (n - 1, 0)
    assert kept < 24 * n * n and peak < 64 * n * n, (kept, peak)
    bad = pellet.run(level, moves.text[:-1] + "u")  # from line 1000, column 2 up into a visited cell
    assert str(bad.verdict) == f"move {n * n - 1} 'u' at line {n - 1}, column 2 enters a cell already visited"


def test_moves_of_indices() -> None:
    assert pellet.moves_of_indices([5, 6, 13, 12, 5], 7) == "rdlu"
    with pytest.raises(ValueError):
        pellet.moves_of_indices([5, 7], 7)


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
    keys = {"version", "game", "level", "status", "solution", "length", "seconds", "proven_impossible", "stats"}
    assert set(data) == keys  # every JSON object carries the schema's version (docs/cli.md)
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
