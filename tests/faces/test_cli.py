"""The `gridbot` command line: output, JSON, errors and exit codes."""

from __future__ import annotations

import dataclasses
import json
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli, display
from gridbot.games import carrots
from gridbot.result import SolveResult
from tests.faces import long_board

SCHEMA = {"game", "level", "status", "solution", "length", "seconds", "proven_impossible", "stats", "version"}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_one_line_error(result, *fragments: str) -> None:
    """Status 2, exactly one line on stderr starting with `gridbot:`, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("gridbot: ")
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]


def fake_result(level, status="optimal", program="LOOP{F F R}", lower_bound=None, **kw) -> SolveResult:
    solution = None if program is None else carrots.parse_program(program)
    length = None if solution is None else solution.tokens
    if lower_bound is None:
        lower_bound = length or 1
    return SolveResult(
        game="carrots",
        level=level.name,
        status=status,
        solution=solution,
        length=length,
        seconds=0.01,
        lower_bound=lower_bound,
        stats={"candidates": 1234},
        **kw,
    )


class FakeSolver:
    """Stands in for the Carrots solver (gridbot.solve.carrots.solve, behind the front that re-checks its answers):
    records its calls and answers with `make(level)`."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, dict]] = []
        self.make = lambda level: fake_result(level)

    def __call__(self, level, **kwargs) -> SolveResult:
        self.calls.append((level, kwargs))
        return self.make(level)


@pytest.fixture
def fake_solver(monkeypatch) -> FakeSolver:
    fake = FakeSolver()
    monkeypatch.setattr(gridbot.solve.solver("carrots").load(), "solve", fake)
    return fake


# ---------------------------------------------------------------- levels


def test_levels_lists_every_game():
    result = invoke("levels")
    assert result.exit_code == 0
    assert "carrots:01" in result.output and "carrots:12" in result.output


def test_levels_carrots_lists_the_twelve_boards_with_sizes():
    result = invoke("levels", "carrots")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == [f"carrots:{i:02d}" for i in range(1, 13)]
    assert lines[0].split()[1:] == ["3x1", "size", "3"]
    assert "12x12" in lines[6]


def test_levels_lists_a_second_set_and_names_it_otherwise():
    result = invoke("levels", "robozzle", "--set", "later")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 249 and lines[0].startswith("robozzle:1008 ")
    main = invoke("levels", "robozzle")
    assert "249 more levels in set 'later'" in main.stderr and "robozzle:1008" not in main.stdout
    wrong = invoke("levels", "carrots", "--set", "later")
    assert wrong.exit_code == 2 and "carrots has no level set 'later'" in wrong.output


def test_levels_unknown_game():
    assert_one_line_error(invoke("levels", "chess"), "unknown game 'chess'")


# ---------------------------------------------------------------- run


def test_run_completes():
    result = invoke("run", "carrots", "carrots:2", "LOOP{F F R}")
    assert result.exit_code == 0
    assert "completed at step 5" in result.output
    assert "LOOP{F F R}  (4 tokens)" in result.output


def test_run_json_fields():
    result = invoke("run", "carrots", "carrots:2", "loop { f f r }", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data == {
        "game": "carrots",
        "level": "carrots:02",
        "program": "LOOP{F F R}",
        "status": "completed",
        "step": 5,
        "remaining": 0,
        "tokens": 4,
        "won": True,
        "version": gridbot.__version__,
    }


def test_run_trace_shows_boards():
    result = invoke("run", "carrots", "carrots:2", "LOOP{F F R}", "--trace")
    assert result.exit_code == 0
    out = result.output
    assert "step 0: start\n>##\n  #\n  #" in out
    assert "step 1: F\no>#" in out
    assert "step 5: F\noo" in out
    assert out.rstrip().endswith("verdict  completed at step 5")


def test_run_trace_limit():
    result = invoke("run", "carrots", "carrots:2", "LOOP{F F R}", "--trace", "--limit", "1")
    assert result.exit_code == 0
    assert "step 1: F" in result.output and "step 2:" not in result.output
    assert "trace cut after 1" in result.output


@pytest.mark.parametrize(
    ("program", "status", "fragment"),
    [
        ("F", "incomplete", "ended after 1 step with 3 squares unmarked"),
        ("LOOP{R}", "forever", "runs forever"),
        ("LOOP(1000000000){F F R}", "completed", "completed at step 5"),
        ("LOOP(1000000000){R}", "incomplete", "ended after 1000000000 steps"),
    ],
)
def test_run_any_verdict_exits_zero(program, status, fragment):
    result = invoke("run", "carrots", "carrots:2", program)
    assert result.exit_code == 0
    assert fragment in result.output
    data = json.loads(invoke("run", "carrots", "carrots:2", program, "--json").output)
    assert data["status"] == status


def test_run_program_words_are_joined():
    # An unquoted `LOOP{F F R}` reaches us as three words.
    result = invoke("run", "carrots", "2", "LOOP{F", "F", "R}")
    assert result.exit_code == 0
    assert "level    carrots:02" in result.output
    assert "completed" in result.output


def test_run_level_file(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("S##\r\n  #\r\n\r\n")
    result = invoke("run", "carrots", str(path), "LOOP{F F R}", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["level"] == str(path) and data["status"] == "completed"


def test_run_trace_and_json_is_a_usage_error():
    result = invoke("run", "carrots", "carrots:2", "F", "--trace", "--json")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- bad input


def test_bad_level_file_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("S#x\n")
    result = invoke("run", "carrots", str(path), "F")
    assert_one_line_error(result, f"{path}:1:3:", "unknown character 'x'")
    assert result.stdout == ""


def test_bad_level_file_second_line(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("S#\n#S\n")
    assert_one_line_error(invoke("solve", "carrots", str(path)), f"{path}:2:2:", "second start")


@pytest.mark.parametrize(
    ("program", "column", "message"),
    [
        ("LOOP(0){F}", 6, "at least 1"),
        ("F}", 2, "without an open LOOP"),
        ("LOOP{F", 1, "not closed"),
        ("F X", 3, "unexpected 'X'"),
    ],
)
def test_bad_program_names_the_column(program, column, message):
    result = invoke("run", "carrots", "carrots:2", program)
    assert_one_line_error(result, f"program:1:{column}:", message)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("run", "chess", "carrots:1", "F"), "unknown game 'chess'"),
        (("solve", "chess", "carrots:1"), "unknown game 'chess'"),
        (("run", "carrots", "carrots:99", "F"), "no bundled level 'carrots:99'"),
        (("solve", "carrots", "carrots:nope"), "no bundled level"),
        (("run", "carrots", "no/such/file.txt", "F"), "cannot read level file 'no/such/file.txt'"),
    ],
)
def test_unknown_game_level_or_file(args, fragment):
    assert_one_line_error(invoke(*args), fragment)


def test_unreadable_level_file(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"S#\xff\n")
    assert_one_line_error(invoke("run", "carrots", str(path), "F"), f"{path}:1:3: not UTF-8 text")
    assert_one_line_error(invoke("run", "carrots", str(tmp_path), "F"), "cannot read level file", "directory")


@pytest.mark.parametrize(
    "args",
    [
        ("solve",),
        ("solve", "carrots"),
        ("run", "carrots", "carrots:1"),
        ("solve", "carrots", "carrots:1", "--time-limit", "0"),
        ("solve", "carrots", "carrots:1", "--time-limit", "soon"),
        ("run", "carrots", "carrots:1", "F", "--limit", "0"),
        ("frobnicate",),
    ],
)
def test_usage_errors_exit_2(args):
    result = invoke(*args)
    assert_one_line_error(result, "--help")


@pytest.mark.parametrize("value", ["nan", "-1", "0", "-inf"])
def test_a_time_limit_that_is_not_a_positive_number_is_refused(value):
    assert_one_line_error(invoke("solve", "carrots", "carrots:1", "--time-limit", value), "--time-limit")


def test_each_command_describes_its_own_exit_status():
    solve_help, run_help, levels_help = (invoke(command, "--help").output for command in ("solve", "run", "levels"))
    assert "no solution in time" in solve_help
    assert "with --check" in run_help and "no solution" not in run_help
    assert "listed" in levels_help and "no solution" not in levels_help
    assert "a flag came" in invoke("pellet", "play", "--help").output


def test_levels_columns_line_up():
    lines = invoke("levels").output.splitlines()
    starts = {line.index(line.split()[1]) for line in lines if len(line.split()) > 1}
    assert len(starts) == 1, starts  # the second column starts at the same place on every line


def test_a_length_of_one_is_singular(fake_solver, tmp_path):
    fake_solver.make = lambda level: fake_result(level, program="F")
    (tmp_path / "two.txt").write_text("S#\n")
    assert "optimal, 1 token (" in invoke("solve", "carrots", str(tmp_path / "two.txt")).output


def test_help_documents_exit_status():
    result = invoke("--help")
    assert result.exit_code == 0
    assert "Exit status" in result.output
    for command in ("solve", "run", "levels"):
        assert command in result.output


def test_interrupt_exits_130_quietly(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(carrots, "run", interrupted)
    result = invoke("run", "carrots", "carrots:2", "F")
    assert result.exit_code == 130
    assert result.output == ""


def test_console_script_error_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "gridbot.cli", "run", "carrots", "carrots:2", "LOOP(0){F}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "gridbot: program:1:6: loop count must be at least 1\n"


# ---------------------------------------------------------------- solve (with a stand-in solver)


def test_solve_human_output(fake_solver):
    result = invoke("solve", "carrots", "carrots:2")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "carrots:02: optimal, 4 tokens" in out
    assert "LOOP{F F R}" in out
    assert "1,234" in out
    assert "seconds" in out
    ((level, kwargs),) = fake_solver.calls
    assert level.name == "carrots:02"
    # no display off a terminal: only the notices of a first use's compile, on stderr
    assert kwargs == {"time_limit": None, "all_solutions": False, "progress": display.notices}


@pytest.mark.clock
def test_solve_says_where_a_robozzle_solves_seconds_went():
    """A RoboZZle solve whose heuristic ran says how its seconds split between the heuristic and the search;
    one whose heuristic did not run long enough to show (whether it starts at all hangs on the machine's speed,
    so the report is built from stats here) says nothing of the kind."""
    from gridbot.solve.report import describe
    from gridbot.solve.robozzle import Spent, warm_up

    warm_up()  # compiled before the clock: on a fresh install, compiling would take the whole limit
    out = invoke("solve", "robozzle", "robozzle:14", "--time-limit", "3").output
    assert "of which    heuristic " in out and ", search " in out and "annealer beside " in out
    for heuristic, annealer, shown in ((0.0, 0.0, False), (0.001, 0.004, False), (0.0, 0.02, True), (1.5, 0, True)):
        stats = {"candidates": 9, **Spent(heuristic=heuristic, exact=0.05, annealer=annealer).stats()}
        result = SolveResult("robozzle", "robozzle:15", "optimal", None, 4, 0.06, 4, stats)
        assert ("of which" in describe(gridbot.load("robozzle:15"), result)) == shown, (heuristic, annealer)


def test_solve_progress_only_on_a_terminal(fake_solver, monkeypatch):
    monkeypatch.setattr("gridbot.cli.display.stdout_is_terminal", lambda: True)

    def answer(level):
        progress = fake_solver.calls[-1][1]["progress"]
        if progress is not None:
            progress({"length": 3, "candidates": 10_000, "seconds": 0.25})
            progress({"length": 4})
        return fake_result(level)

    fake_solver.make = answer
    result = invoke("solve", "carrots", "carrots:2")
    assert result.exit_code == 0
    assert "carrots:02: optimal, 4 tokens" in result.output
    assert callable(fake_solver.calls[0][1]["progress"])
    result = invoke("solve", "carrots", "carrots:2", "--json")
    assert result.exit_code == 0
    assert fake_solver.calls[1][1]["progress"] is None  # never with --json


def test_solve_recheck_rejects_a_wrong_answer(fake_solver):
    fake_solver.make = lambda level: fake_result(level, program="F")
    result = invoke("solve", "carrots", "carrots:2")
    assert result.exit_code == 1
    assert "re-check failed" in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""  # the wrong answer is never printed


def test_solve_recheck_rejects_a_wrong_alternative(fake_solver):
    fake_solver.make = lambda level: fake_result(
        level, solutions=(carrots.parse_program("LOOP{F F R}"), carrots.parse_program("LOOP{R F}"))
    )
    result = invoke("solve", "carrots", "carrots:2", "--all", "--json")
    assert result.exit_code == 1
    assert "re-check failed" in result.stderr
    assert result.stdout == ""


def test_solve_recheck_rejects_a_wrong_length(fake_solver):
    fake_solver.make = lambda level: dataclasses.replace(fake_result(level), length=3)
    result = invoke("solve", "carrots", "carrots:2")
    assert result.exit_code == 1
    assert "re-check failed" in result.stderr and "4 tokens, not 3" in result.stderr
    assert result.stdout == ""


def test_solve_recheck_rejects_a_missing_program(fake_solver):
    fake_solver.make = lambda level: fake_result(level, program=None)
    result = invoke("solve", "carrots", "carrots:2")
    assert result.exit_code == 1
    assert "re-check failed" in result.stderr


@pytest.mark.clock
def test_solve_under_time_limit(fake_solver):
    fake_solver.make = lambda level: fake_result(level, status="solved", lower_bound=3)
    result = invoke("solve", "carrots", "carrots:2", "--time-limit", "1.5")
    assert result.exit_code == 0
    assert "carrots:02: solved, 4 tokens" in result.output
    assert "lengths up to 2 proven impossible" in result.output
    assert 1.0 < fake_solver.calls[0][1]["time_limit"] <= 1.5  # what the command's start-up left of it


def test_games_with_shares_solve_several_levels_in_turn_over_every_worker(monkeypatch):
    from gridbot import solve as front

    seen = []
    real = front.solve

    def spy(level, **kwargs):
        seen.append((level.name, type(kwargs.get("executor")).__name__))
        return real(level, **kwargs)

    monkeypatch.setattr(front, "solve", spy)  # the CLI's calls, seen in this process: no level went to a task
    result = invoke("solve", "lightbot", "lightbot:1", "lightbot:2", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert seen == [("lightbot:01", "Executor"), ("lightbot:02", "Executor")]
    assert result.stdout.index("lightbot:01: optimal") < result.stdout.index("lightbot:02: optimal")


def test_solve_timeout_exits_1_but_reports_every_level(fake_solver):
    def answer(level):
        if level.name == "carrots:07":
            return fake_result(level, status="timeout", program=None, lower_bound=5)
        return fake_result(level, program="LOOP{F}")

    fake_solver.make = answer
    result = invoke("solve", "carrots", "carrots:7", "carrots:1", "--time-limit", "1", "--json")
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["level"], r["status"]) for r in rows] == [("carrots:07", "timeout"), ("carrots:01", "optimal")]
    assert rows[0]["solution"] is None and rows[0]["proven_impossible"] == 4
    human = invoke("solve", "carrots", "carrots:7", "--time-limit", "1")
    assert human.exit_code == 1
    assert "carrots:07: timeout, no solution found" in human.output
    assert "lengths up to 4 proven impossible" in human.output


def test_solve_unsolvable_exits_0(fake_solver, tmp_path):
    path = tmp_path / "island.txt"
    path.write_text("S #\n")
    fake_solver.make = lambda level: dataclasses.replace(
        fake_result(level, status="unsolvable", program=None, lower_bound=0), stats={"reason": "cut off"}
    )
    result = invoke("solve", "carrots", str(path))
    assert result.exit_code == 0
    assert f"{path}: unsolvable" in result.output
    assert "reason      cut off" in result.output


def test_solve_all_lists_programs_and_cap(fake_solver):
    programs = (carrots.parse_program("LOOP{F F R}"), carrots.parse_program("LOOP{R F}"))
    fake_solver.make = lambda level: fake_result(
        level, program="LOOP{F F R}", solutions=programs[:1], solutions_capped=True
    )
    result = invoke("solve", "carrots", "carrots:2", "--all")
    assert result.exit_code == 0
    assert "1 optimal program (capped: there are more)" in result.output
    assert fake_solver.calls[0][1]["all_solutions"] is True
    data = json.loads(invoke("solve", "carrots", "carrots:2", "--all", "--json").output)
    assert data["solutions"] == ["LOOP{F F R}"] and data["solutions_capped"] is True


def test_solve_checks_every_level_before_searching(fake_solver, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("S##\n##\n#?\n")
    result = invoke("solve", "carrots", "carrots:1", str(path))
    assert_one_line_error(result, f"{path}:3:2:")
    assert fake_solver.calls == []


def test_solve_json_is_one_object_per_line(fake_solver):
    result = invoke("solve", "carrots", "carrots:2", "carrots:2", "--json")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert set(json.loads(line)) == SCHEMA


# ---------------------------------------------------------------- solve (the real solver)


def test_solve_first_boards_json():
    result = invoke("solve", "carrots", "carrots:1", "carrots:2", "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 2
    for row, name, length in zip(rows, ("carrots:01", "carrots:02"), (2, 4), strict=True):
        assert set(row) >= SCHEMA
        assert row["game"] == "carrots" and row["level"] == name
        assert row["status"] == "optimal"
        assert row["length"] == length
        assert row["proven_impossible"] == length - 1
        program = carrots.parse_program(row["solution"])
        assert program.tokens == length and str(program) == row["solution"]
        assert carrots.run(gridbot.load(name), program).verdict.won
        assert isinstance(row["stats"], dict) and "candidates" in row["stats"]
        assert isinstance(row["seconds"], float | int)


def test_sigterm_ends_a_long_solve_with_status_143_and_no_traceback(tmp_path):
    board = long_board.write(tmp_path, "big.txt")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gridbot.cli", "solve", "carrots", board],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("signalled", "status"),
    [(KeyboardInterrupt(), 130), (SystemExit(143), 143), (RuntimeError("a bug"), None), (SystemExit(1), None)],
)
def test_a_signal_that_a_compiled_kernel_wrapped_in_system_errors_exits_with_its_status(monkeypatch, signalled, status):
    """A second Ctrl-C or SIGTERM landing while numba calls a kernel comes out wrapped in SystemErrors (one per
    level of numba's calls): the command exits as the signal asks; any other SystemError stays an error."""
    from gridbot import cli as cli_package

    def wrapped(*args, **kwargs):
        try:
            try:
                raise signalled
            except BaseException as inner:
                raise SystemError("<built-in function unpickle> returned a result with an exception set") from inner
        except SystemError as middle:
            raise SystemError("returned a result with an exception set") from middle

    monkeypatch.setattr(cli_package.cli, "main", wrapped)
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # keep the test process's own handlers
    if status is None:
        with pytest.raises(SystemError):
            cli_package.main([])
    else:
        with pytest.raises(SystemExit) as exited:
            cli_package.main([])
        assert exited.value.code == status
