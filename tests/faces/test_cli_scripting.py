"""The command line as a script or a shell uses it (issue 51): the game read from GAME:NAME, shell completion, run
--check and --pairs, JSON everywhere (levels, errors, a version), --trace ending at a repeat, --quiet, and
docs/cli.md naming every option of every command."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli
from tests.faces import long_board
from tests.faces.test_cli import FakeSolver, assert_one_line_error, fake_solver, invoke

__all__ = ["fake_solver"]  # the fixture, imported for the tests below

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


# ---------------------------------------------------------------- the game read from GAME:NAME


@pytest.mark.parametrize(
    "args",
    [
        ("run", "carrots:2", "LOOP{F F R}"),
        ("run", "carrots", "carrots:2", "LOOP{F F R}"),
        ("run", "carrots", "2", "LOOP{F F R}"),
        ("run", "--game", "carrots", "2", "LOOP{F F R}"),
        ("run", "CARROTS:02", "LOOP{F F R}"),
    ],
)
def test_run_reads_the_game_from_the_level(args):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "level    carrots:02"
    assert "completed at step 5" in result.output


def test_solve_reads_the_game_from_its_level(fake_solver: FakeSolver):
    result = invoke("solve", "carrots:2")
    assert result.exit_code == 0, result.output
    assert [level.name for level, _ in fake_solver.calls] == ["carrots:02"]


def test_show_and_render_read_the_game_from_the_level(tmp_path):
    assert invoke("show", "carrots:1").output.startswith("carrots:01")
    picture = tmp_path / "run.svg"
    assert invoke("render", "carrots:2", "LOOP{F F R}", "-o", str(picture)).exit_code == 0
    assert picture.read_text().startswith("<svg")


def test_a_level_file_takes_its_game_from_game_or_the_option(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("S##\n")
    assert "completed at step 2" in invoke("run", "--game", "carrots", str(board), "F F").output
    assert "completed at step 2" in invoke("run", "carrots", str(board), "F F").output
    assert_one_line_error(invoke("run", str(board), "F F"), "name the game of level", "--game")
    assert_one_line_error(invoke("run", "--game", "lightbot", "carrots", str(board), "F"), "disagree")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("solve", "carrots:1", "lightbot:1"), "levels of several games in one call (carrots, lightbot)"),
        (("solve", "carrots", "lightbot:1"), "belongs to lightbot, not carrots"),
        (("solve", "--game", "carrots", "lightbot:1"), "belongs to lightbot, not carrots"),
        (("run", "chess", "1", "F"), "unknown game 'chess'"),
        (("show", "carrots:1", "carrots:2"), "one level at a time"),
        (("solve", "carrots"), "missing argument 'LEVEL'"),
    ],
)
def test_a_game_that_is_not_clear_is_bad_input(args, fragment):
    assert_one_line_error(invoke(*args), fragment)


# ---------------------------------------------------------------- shell completion


def completions(args: list[str], incomplete: str) -> list[str]:
    """What click's completion machinery (behind _GRIDBOT_COMPLETE) offers after `gridbot ARGS INCOMPLETE`."""
    complete = ShellComplete(cli, {}, "gridbot", "_GRIDBOT_COMPLETE")
    return [item.value for item in complete.get_completions(args, incomplete)]


def test_completion_of_commands_games_and_levels():
    assert completions([], "so") == ["solve"]
    assert "show" in completions([], "s")
    assert completions(["solve"], "car") == ["carrots"]
    assert completions(["solve"], "carrots:1") == ["carrots:01", "carrots:10", "carrots:11", "carrots:12"]
    assert completions(["solve", "carrots"], "")[:2] == ["carrots:01", "carrots:02"]
    assert {"robozzle:14", "robozzle:1008"} <= set(completions(["run"], "robozzle:"))  # every set's levels
    assert completions(["levels"], "light") == ["lightbot"]
    assert completions(["solve", "--game"], "robo") == ["robos_escape", "robozzle"]
    assert completions(["run", "carrots:2"], "") == []  # a program: nothing to guess


def test_completion_through_the_environment_variable():
    env = {"_GRIDBOT_COMPLETE": "bash_complete", "COMP_WORDS": "gridbot show carrots:1", "COMP_CWORD": "2"}
    result = CliRunner().invoke(cli, [], env=env, prog_name="gridbot")
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "plain,carrots:01",
        "plain,carrots:10",
        "plain,carrots:11",
        "plain,carrots:12",
    ]


# ---------------------------------------------------------------- run --check and --pairs


def test_run_check_exits_1_unless_the_program_completes():
    assert invoke("run", "--check", "carrots:2", "LOOP{F F R}").exit_code == 0
    failed = invoke("run", "--check", "carrots:3", "F F R")
    assert failed.exit_code == 1 and "ended after 3 steps" in failed.output
    assert invoke("run", "--check", "carrots:3", "LOOP{F R}").exit_code == 1
    assert invoke("run", "carrots:3", "F F R").exit_code == 0  # without --check: the program ran


def test_run_check_quiet_prints_nothing():
    for args in (("run", "-q", "--check", "carrots:3", "F F R"), ("-q", "run", "--check", "carrots:2", "LOOP{F F R}")):
        result = invoke(*args)
        assert result.output == "" and result.stderr == ""
    assert [r.exit_code for r in (invoke("run", "-q", "--check", "carrots:3", "F"),)] == [1]


def write_pairs(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def test_pairs_all_complete(tmp_path):
    pairs = write_pairs(
        tmp_path, "# level, tab, program", "carrots:2\tLOOP{F F R}", "", '{"level": "carrots:01", "solution": "F F"}'
    )
    result = invoke("run", "--pairs", pairs)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "ok    carrots:02  LOOP{F F R}  completed at step 5",
        "ok    carrots:01  F F  completed at step 2",
    ]


def test_pairs_a_failure_is_1_and_bad_input_is_2_each_on_its_line(tmp_path):
    failing = write_pairs(tmp_path, "carrots:2\tLOOP{F F R}", "carrots:3\tF F R")
    result = invoke("run", "--pairs", failing)
    assert result.exit_code == 1
    assert result.output.splitlines()[1].startswith("FAIL  carrots:03")
    bad = write_pairs(tmp_path, "carrots:3\tF F R", "no tab here", "carrots:99\tF", "carrots:2\tLOOP{F F R}")
    result = invoke("run", "--pairs", bad)
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 2  # the two pairs that could be run
    assert result.stderr.splitlines() == [
        f"gridbot: {bad}:2: expected LEVEL<TAB>PROGRAM",
        f"gridbot: {bad}:3: no bundled level 'carrots:99' (see `gridbot levels carrots`)",
    ]


def gridbot_command(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """The command in its own process: standard input is a real pipe there (click's runner has none)."""
    command = [sys.executable, "-m", "gridbot.cli", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120, check=False)


def test_pairs_from_standard_input_as_json_and_quiet():
    text = "carrots:2\tLOOP{F F R}\n2\tF\n"
    result = gridbot_command("run", "carrots", "--pairs", "-", "--json", stdin=text)
    assert result.returncode == 1, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["level"], row["won"], row["line"]) for row in rows] == [
        ("carrots:02", True, 1),
        ("carrots:02", False, 2),
    ]
    assert all(row["version"] == gridbot.__version__ for row in rows)
    quiet = gridbot_command("run", "-q", "carrots", "--pairs", "-", stdin=text)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (1, "", "")


def test_pairs_take_no_level_or_trace():
    assert_one_line_error(invoke("run", "--pairs", "-", "carrots:2", "F"), "--pairs takes")
    assert_one_line_error(invoke("run", "--pairs", "-", "--trace"), "--pairs takes")


# ---------------------------------------------------------------- JSON


def test_levels_json_one_object_per_level():
    result = invoke("levels", "carrots", "--json")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 12
    assert rows[0] == {
        "spec": "carrots:01",
        "game": "carrots",
        "name": "01",
        "set": "main",
        "width": 3,
        "height": 1,
        "size": 3,
        "title": None,
        "author": None,
        "proof": rows[0]["proof"],
        "version": gridbot.__version__,
    }
    slow = json.loads(invoke("levels", "lightbot", "--json", "--search", "lightbot:10").output)
    assert slow["proof"]["seconds"] > 600


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (("run", "carrots:99", "F", "--json"), "input"),
        (("run", "carrots:2", "F X", "--json"), "program"),
        (("levels", "chess", "--json"), "input"),
        (("solve", "--json", "--time-limit", "0", "carrots:1"), "usage"),
        (("run", "--json", "--bogus"), "usage"),
    ],
)
def test_errors_under_json_are_one_object_on_stderr(args, kind):
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    data = json.loads(line)
    assert data["error"]["kind"] == kind and data["error"]["message"]
    assert data["version"] == gridbot.__version__


def test_a_level_error_under_json_has_its_line_and_column(tmp_path):
    board = tmp_path / "bad.txt"
    board.write_text("S#\n#?\n")
    result = invoke("run", "carrots", str(board), "F", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stderr)["error"]
    assert (error["kind"], error["source"], error["line"], error["column"]) == ("level", str(board), 2, 2)


def test_every_json_object_carries_the_version(fake_solver: FakeSolver):
    outputs = [invoke("solve", "carrots:2", "--json").output, invoke("run", "carrots:2", "F", "--json").output]
    for output in outputs:
        assert json.loads(output)["version"] == gridbot.__version__


# ---------------------------------------------------------------- --trace ends at a repeat


def test_trace_stops_at_a_repeated_state_with_the_verdict_of_a_plain_run():
    plain = invoke("run", "carrots:3", "LOOP{F R}").output.splitlines()[-1]
    assert "a repeated state seen at step 8" in plain
    traced = invoke("run", "carrots:3", "LOOP{F R}", "--trace", "--limit", "100000000")
    assert traced.exit_code == 0
    assert len(traced.output) < 2000  # eight boards, not megabytes
    assert "step 8: R" in traced.output and "step 9" not in traced.output
    assert "the state after step 8 repeats an earlier one" in traced.output
    assert traced.output.splitlines()[-1] == plain


def test_light_bot_trace_stops_at_a_repeat_too():
    traced = invoke("run", "lightbot:1", "main: 1 f1: R 1", "--trace", "--limit", "1000000")
    assert "repeats an earlier one" in traced.output and len(traced.output) < 20_000


# ---------------------------------------------------------------- --quiet


def test_quiet_prints_only_the_essential_lines(fake_solver: FakeSolver, tmp_path):
    assert invoke("run", "-q", "carrots:3", "F F R").output == "ended after 3 steps with 5 squares unmarked\n"
    assert invoke("solve", "-q", "carrots:2", "carrots:3").output == "LOOP{F F R}\nLOOP{F F R}\n"
    assert invoke("-q", "levels", "carrots").output.splitlines()[:2] == ["carrots:01", "carrots:02"]
    assert invoke("show", "--quiet", "carrots:1").output == "S##\n"
    assert invoke("render", "-q", "carrots:1", "-o", str(tmp_path / "level.svg")).output == ""
    both = json.loads(invoke("levels", "-q", "--json").stderr)  # under --json, even this error is JSON
    assert "--quiet and --json cannot be combined" in both["error"]["message"]


# ---------------------------------------------------------------- docs/cli.md names every option


def walk(command: click.Command, path: str = "gridbot"):
    """(command path, option) of every option of every command, the group's own included."""
    for param in command.params:
        if isinstance(param, click.Option):
            yield path, param
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from walk(sub, f"{path} {name}")


def section(text: str, path: str) -> str:
    """The part of docs/cli.md about command `path`: from the `## ` heading that names it (`gridbot` itself: Global
    options) to the next `## ` heading."""
    sections = ["## " + part for part in text.split("\n## ")[1:]]
    if path == "gridbot":
        return next(part for part in sections if part.startswith("## Global options"))
    heading = [part for part in sections if f"`{path}`" in part.split("\n")[0] or f"`{path} " in part.split("\n")[0]]
    assert heading, f"docs/cli.md has no section on {path}"
    return heading[0]


def test_docs_name_every_option_of_every_command():
    """Each option's long name is in docs/cli.md, in its command's own section."""
    text = DOCS.read_text()
    missing = []
    for path, option in walk(cli):
        here = section(text, path)
        long_names = [name for name in option.opts + option.secondary_opts if name.startswith("--")]
        missing += [f"{path} {name}" for name in long_names if f"`{name}" not in here]
    assert not missing, f"docs/cli.md does not name in their command's section: {', '.join(missing)}"
    for heading in ("## JSON output", "## Shell completion", "## Quiet", "### Errors under `--json`"):
        assert heading in text


# ---------------------------------------------------------------- Ctrl-C during a solve


def interrupted_solve(tmp_path: Path, *levels: str, after: float = 4.0) -> tuple[int, str, str]:
    """`gridbot solve carrots LEVELS...` in its own process, sent SIGINT after `after` seconds: (status, out, err)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gridbot.cli", "solve", "carrots", *levels],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


@pytest.mark.clock  # the answer depends on what the search has met by the Ctrl-C, seconds in
def test_ctrl_c_prints_the_best_found_and_exits_130(tmp_path):
    status, out, err = interrupted_solve(tmp_path, long_board.write(tmp_path, "big.txt"))
    assert status == 130, err
    assert out.startswith(f"{tmp_path / 'big.txt'}: solved") and "not proven shortest" in out
    assert "program" in out and "proven impossible" in out
    assert "Traceback" not in err and "interrupted" in err


@pytest.mark.clock  # the answer depends on what the search has met by the Ctrl-C, seconds in
def test_ctrl_c_with_several_levels_reports_each(tmp_path):
    boards = [long_board.write(tmp_path, "a.txt"), long_board.write(tmp_path, "b.txt")]
    started = time.monotonic()
    status, out, err = interrupted_solve(tmp_path, *boards, after=6.0)
    assert status == 130, err
    assert time.monotonic() - started < 20  # the workers stopped too, not left to finish their proofs
    assert [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")] == boards
    assert out.count("not proven shortest") == 2 and "Traceback" not in err
