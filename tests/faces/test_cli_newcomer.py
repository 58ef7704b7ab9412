"""The command line as a newcomer meets it: the games in help, `show`, programs from files and standard input,
a progress line that ticks on its own, and the levels whose proofs take minutes."""

from __future__ import annotations

import functools
import io
import re
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import gridbot
from gridbot import games, levels
from gridbot.cli import cli, display
from gridbot.render.terminal import STYLES, board_text


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def gridbot_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """`gridbot ARGS` in a new process (standard input must be a real file there)."""
    return subprocess.run(
        [sys.executable, "-m", "gridbot.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gridbot: "), result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]


# ---------------------------------------------------------------- the games in help


@pytest.mark.parametrize("name", games.GAMES)
def test_every_game_has_a_one_line_summary_that_fits(name):
    summary = games.get(name).SUMMARY
    assert summary and "\n" not in summary
    assert len(summary) <= 62  # with the name column, 80 columns


@pytest.mark.parametrize("command", [(), ("solve",), ("run",), ("render",), ("show",)])
def test_help_lists_every_game_on_one_line(command):
    result = invoke(*command, "--help")
    assert result.exit_code == 0
    games_section = result.output.split("Games (", 1)[1]
    lines = games_section.splitlines()
    for name in games.GAMES:
        (line,) = [line for line in lines if line.split()[:1] == [name]]
        assert line.strip() == f"{name:<13} {games.get(name).SUMMARY}".strip()
        assert len(line) <= 80
    assert "docs/GAME.md" in result.output
    assert "render" in invoke("--help").output and "show" in invoke("--help").output


# ---------------------------------------------------------------- show


def test_show_prints_the_level_text_off_a_terminal():
    result = invoke("show", "carrots", "12")
    assert result.exit_code == 0
    level = gridbot.load("carrots:12")
    head, *board = result.output.splitlines()
    assert head.split()[:4] == ["carrots:12", "9x9", "size", str(level.size)]
    assert "\n".join(board) == str(level)
    assert "\x1b[" not in result.output  # no colour codes in a file or pipe


def test_show_names_a_level_that_takes_minutes_and_its_title():
    head = invoke("show", "lightbot", "lightbot:10").output.splitlines()[0]
    assert "proof ~11 min" in head
    head = invoke("show", "robozzle", "15").output.splitlines()[0]
    assert '"The star-studded path III" by igoro' in head


def test_show_reads_a_level_file_and_standard_input(tmp_path):
    (tmp_path / "ring.txt").write_text("S##\n# #\n###\n")
    result = invoke("show", "carrots", str(tmp_path / "ring.txt"))
    assert result.exit_code == 0
    assert result.output.splitlines()[1:] == ["S##", "# #", "###"]
    proc = gridbot_process("show", "carrots", "-", stdin="S##\n# #\n###\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["<stdin>  3x3  size 8", "S##", "# #", "###"]


def test_show_colours_the_board_on_a_terminal(monkeypatch):
    monkeypatch.setattr("gridbot.cli.display.stdout_is_terminal", lambda: True)
    import rich.console

    monkeypatch.setattr(rich.console, "Console", functools.partial(rich.console.Console, force_terminal=True))
    result = invoke("show", "carrots", "2")
    assert result.exit_code == 0
    assert "\x1b[" in result.output  # coloured
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.output)
    assert plain.splitlines()[1:] == str(gridbot.load("carrots:02")).splitlines()  # the same text beneath


def test_show_errors_are_one_line():
    assert_one_line_error(invoke("show", "carrots", "carrots:99"), "no bundled level 'carrots:99'")
    assert_one_line_error(invoke("show", "chess", "1"), "unknown game 'chess'")


@pytest.mark.parametrize("name", games.GAMES)
def test_board_text_colours_the_board_rows_only(name):
    level = gridbot.load(f"{name}:{levels.names(name)[0]}")
    text = board_text(level)
    assert text.plain == str(level)  # the level's own text, unchanged
    styled = {text.plain[span.start : span.end] for span in text.spans if span.style}
    assert styled, "some board character is coloured"
    for piece in styled:
        assert set(piece) <= set(STYLES[name]), piece
    lines = text.plain.splitlines()
    for span in text.spans:  # a coloured run lies on a line made of board characters only
        line = lines[text.plain.count("\n", 0, span.start)]
        assert set(line) <= set(STYLES[name]) | {" "}


def test_board_text_leaves_header_lines_plain():
    level = gridbot.load("robozzle:15")
    text = board_text(level)
    header = text.plain.index("title:")
    assert not [span for span in text.spans if span.start <= header < span.end]


# ---------------------------------------------------------------- programs from files and standard input


def test_run_reads_the_program_from_a_file(tmp_path):
    (tmp_path / "p.txt").write_text("LOOP{\n  F F R\n}\n")
    result = invoke("run", "carrots", "2", "--program-file", str(tmp_path / "p.txt"))
    assert result.exit_code == 0, result.output
    assert "program  LOOP{F F R}" in result.output
    assert "verdict  completed" in result.output


def test_run_reads_the_program_from_standard_input():
    proc = gridbot_process("run", "carrots", "2", "-", stdin="LOOP{F F R}\n")
    assert proc.returncode == 0, proc.stderr
    assert "verdict  completed" in proc.stdout
    proc = gridbot_process("run", "carrots", "2", "--program-file", "-", stdin="F")
    assert proc.returncode == 0, proc.stderr
    assert "program  F  (1 token)" in proc.stdout


def test_run_reads_the_level_from_standard_input():
    proc = gridbot_process("run", "carrots", "-", "LOOP{F F R}", stdin="S##\n# #\n###\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "level    <stdin>"
    assert "verdict  completed" in proc.stdout


def test_level_and_program_cannot_both_be_standard_input():
    proc = gridbot_process("run", "carrots", "-", "-", stdin="S##\n")
    assert proc.returncode == 2
    assert proc.stderr.startswith("gridbot: the level and the program cannot both come from standard input")


def test_program_file_errors_are_one_line(tmp_path, monkeypatch):
    missing = str(tmp_path / "nothing.txt")
    assert_one_line_error(invoke("run", "carrots", "2", "--program-file", missing), "cannot read program file")
    assert_one_line_error(invoke("run", "carrots", "2", "--program-file", str(tmp_path)), "it is a directory")
    (tmp_path / "p.txt").write_text("F R")
    assert_one_line_error(invoke("run", "carrots", "2", "F", "--program-file", str(tmp_path / "p.txt")), "not both")
    (tmp_path / "bad.txt").write_text("LOOP(0){F}")
    assert_one_line_error(invoke("run", "carrots", "2", "--program-file", str(tmp_path / "bad.txt")), "loop count")


def test_a_program_file_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(levels, "MAX_PROGRAM_BYTES", 100)
    (tmp_path / "long.txt").write_text("F " * 51)
    result = invoke("run", "carrots", "2", "--program-file", str(tmp_path / "long.txt"))
    assert_one_line_error(result, "is larger than 100 bytes")
    (tmp_path / "short.txt").write_text("F " * 50)
    assert invoke("run", "carrots", "2", "--program-file", str(tmp_path / "short.txt")).exit_code == 0


def test_bender_without_a_program_still_shows_the_journey(tmp_path):
    result = invoke("run", "bender", "01")
    assert result.exit_code == 0
    assert "program" not in result.output  # Bender's own journey: no answer given
    (tmp_path / "answer.txt").write_text("SOUTH SOUTH EAST EAST\n")
    result = invoke("run", "bender", "01", "--program-file", str(tmp_path / "answer.txt"))
    assert result.exit_code == 0
    assert "program  SOUTH SOUTH EAST EAST" in result.output


# ---------------------------------------------------------------- progress that ticks on its own


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_status_line_ticks_without_reports():
    clock = FakeClock()
    status = display.SolveStatus("solving lightbot:10", clock)
    assert status.line() == "solving lightbot:10: starting, 0 s"
    status.update({"length": 14, "candidates": 1_234_567, "seconds": 0.5})
    clock.now += 7
    assert status.line() == "solving lightbot:10: length 14 for 7 s, 1.2 M candidates, 7 s"
    clock.now += 60  # no report for a minute: the clock still moves
    assert status.line() == "solving lightbot:10: length 14 for 1:07, 1.2 M candidates, 1:07"


def test_the_status_line_says_how_long_the_previous_length_took():
    clock = FakeClock()
    status = display.SolveStatus("solving x", clock)
    status.update({"length": 3, "candidates": 10})
    clock.now += 2.5
    status.update({"length": 3, "candidates": 900})
    clock.now += 1.0
    status.update({"length": 4, "candidates": 5000})
    clock.now += 4.0
    assert status.line() == "solving x: length 4 for 4 s (3 took 3.5 s), 5,000 candidates, 7 s"
    status.update({"phase": "loading", "length": 4, "candidates": 1})
    assert status.line().endswith("1 candidate, 7 s")


def test_a_phase_shows_until_a_length_is_searched():
    status = display.SolveStatus("solving carrots:08", FakeClock())
    status.update({"phase": "loops of cost 3", "candidates": 42})
    assert status.line() == "solving carrots:08: loops of cost 3, 42 candidates, 0 s"


def test_the_live_display_refreshes_itself(monkeypatch):
    """With no report at all for over a second, the display is redrawn with the clock moved on."""
    import rich.console

    out = io.StringIO()
    monkeypatch.setattr(
        rich.console, "Console", functools.partial(rich.console.Console, file=out, force_terminal=True, width=100)
    )
    with display.progress_display(True, "solving test") as progress:
        progress({"length": 5})
        time.sleep(1.4)
    text = out.getvalue()
    assert "solving test: length 5 for 0 s" in text
    assert "solving test: length 5 for 1 s" in text


def test_solve_feeds_the_display_while_on_a_terminal(monkeypatch):
    seen = []
    monkeypatch.setattr(display, "stdout_is_terminal", lambda: True)
    solver = gridbot.solve.solver("carrots").load()
    real = solver.solve

    def solve(level, **kwargs):
        seen.append(kwargs["progress"])
        return real(level, **kwargs)

    monkeypatch.setattr(solver, "solve", solve)
    assert invoke("solve", "carrots", "2").exit_code == 0
    assert callable(seen[0])


# ---------------------------------------------------------------- levels whose proofs take minutes


def test_levels_marks_the_proofs_that_take_minutes():
    lines = {line.split()[0]: line for line in invoke("levels", "lightbot").output.splitlines()}
    assert "proof ~11 min" in lines["lightbot:10"]
    for name in ("lightbot:11", "lightbot:12"):
        assert "min" in lines[name]
    assert "proof" not in lines["lightbot:01"]
    assert "proof" not in invoke("levels", "carrots").output  # every Carrots board is proven in under a second
    robozzle = {line.split()[0]: line for line in invoke("levels", "robozzle", "--search", "igoro").output.splitlines()}
    assert "no proof in 10 s" in robozzle["robozzle:14"]
    assert "proof" not in robozzle["robozzle:15"]


def test_levels_columns_still_line_up_with_marks():
    lines = invoke("levels", "robozzle", "--search", "igoro").output.splitlines()
    starts = {line.index('"') for line in lines if '"' in line}
    assert len(starts) == 1, starts  # titles start in one column, marked or not


@pytest.mark.parametrize("name", games.GAMES)
def test_every_bundled_level_has_a_measured_proof_time(name):
    """The table behind the marks covers the bundle, and names nothing else."""
    recorded = levels._proofs(name)
    assert set(recorded) == set(levels.names(name))
    for proof in recorded.values():
        assert proof.seconds is None or proof.seconds >= 0
        assert proof.seconds is not None or proof.limit  # unproven: within what time


def test_proof_time_text():
    assert str(levels.ProofTime(673.7)) == "~11 min"
    assert str(levels.ProofTime(46.6)) == "~47 s"
    assert str(levels.ProofTime(0.066)) == "0.066 s"
    assert str(levels.ProofTime(None, 10)) == "no proof in 10 s"
    assert levels.ProofTime(None, 10).slow and levels.ProofTime(30).slow and not levels.ProofTime(29.9).slow
    assert levels.proof_time("carrots", "no_such_level") is None
