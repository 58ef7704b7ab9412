"""The benchmarks' `--csv FILE` (benchmarks/_results.py): a tiny slice of two scripts, run as BENCHMARKS.md runs
them, writes the header and one row per level with the run's date, machine, commit and command line."""

from __future__ import annotations

import csv
import importlib.util
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gridbot
from gridbot.games import robos_escape
from tests import ROOT

RUN = ["date", "machine", "cores", "python", "commit", "command_line"]

# the benchmarks' helper, loaded from its file: benchmarks/ on sys.path would shadow modules of the same names
_spec = importlib.util.spec_from_file_location("_results", ROOT / "benchmarks" / "_results.py")
_results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_results)


def run_script(tmp_path: Path, script: str, *args: str) -> tuple[list[str], list[dict[str, str]], list[str]]:
    """(header, rows, the dates the run may carry) of `benchmarks/SCRIPT ARGS --csv FILE`, run from the checkout."""
    out = tmp_path / "results" / "run.csv"  # a folder not made yet
    dates = [time.strftime("%Y-%m-%d")]
    subprocess.run([sys.executable, f"benchmarks/{script}", *args, "--csv", str(out)], cwd=ROOT, check=True,
                   capture_output=True, timeout=120)  # fmt: skip
    dates.append(time.strftime("%Y-%m-%d"))
    with open(out, newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader), dates


def check_run_columns(rows: list[dict[str, str]], dates: list[str], command: list[str]) -> None:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    for row in rows:
        assert row["date"] in dates
        assert (row["machine"], row["cores"], row["python"]) == (
            platform.machine(), str(_results.cores()), platform.python_version())  # fmt: skip
        if head.returncode == 0:
            assert row["commit"].removesuffix("-dirty") == head.stdout.strip()
        assert shlex.split(row["command_line"]) == ["python", *command]


def test_robos_escape_writes_a_row_per_level(tmp_path: Path) -> None:
    args = ["--time-limit", "20", "03"]
    header, rows, dates = run_script(tmp_path, "robos_escape.py", *args)
    columns = ["game", "level", "status", "score", "coins", "length", "candidates", "seconds", "program", "time_limit"]
    assert header == columns + RUN
    [row] = rows
    assert (row["game"], row["level"], row["status"], row["score"], row["time_limit"]) == (
        "robos_escape", "03", "optimal", "55", "20.0")  # fmt: skip
    program = robos_escape.parse_program(row["program"])
    assert robos_escape.run(gridbot.load("robos_escape:03"), program).score == 55
    assert program.tokens == int(row["length"]) and int(row["candidates"]) > 0 and float(row["seconds"]) > 0
    check_run_columns(rows, dates, ["benchmarks/robos_escape.py", *args, "--csv", str(tmp_path / "results/run.csv")])


def test_torch_bender_writes_both_games_in_one_file(tmp_path: Path) -> None:
    header, rows, dates = run_script(tmp_path, "torch_bender.py", "--caves", "1", "--maps", "1")
    columns = ["game", "family", "seed", "index", "status", "length", "labels", "moves", "broken", "seconds"]
    assert header == columns + RUN
    assert [(row["game"], row["family"]) for row in rows] == [
        ("torch_cave", "uniform"), ("torch_cave", "trek"), ("torch_cave", "cluster"), ("torch_cave", "wide cluster"),
        ("bender", "sparse"), ("bender", "busy"), ("bender", "breaker"), ("bender", "serpentine"),
        ("bender", "serpentine loop"),
    ]  # fmt: skip
    assert {(row["seed"], row["index"]) for row in rows} == {("2024", "0")}
    caves, maps = rows[:4], rows[4:]
    assert all(row["labels"] and not row["moves"] for row in caves)
    assert all(row["moves"] and row["broken"] and not row["labels"] for row in maps)
    serpentine, loop = maps[3], maps[4]
    assert serpentine["status"] == "optimal" and serpentine["length"] == serpentine["moves"]
    assert loop["status"] == "unsolvable" and loop["length"] == ""
    check_run_columns(rows, dates, ["benchmarks/torch_bender.py", "--caves", "1", "--maps", "1", "--csv",
                                    str(tmp_path / "results/run.csv")])  # fmt: skip


def test_design_writes_a_row_per_request_and_level(tmp_path: Path) -> None:
    args = ["both", "--games", "bender,torch_cave", "--count", "1", "--time-limit", "30"]
    header, rows, dates = run_script(tmp_path, "design.py", *args)
    columns = ["what", "game", "request", "made", "tried", "seconds", "per_minute", "status", "par", "programs",
               "behaviours", "candidates"]  # fmt: skip
    assert header == columns + RUN
    made = [row for row in rows if row["what"] == "make"]
    analysed = [row for row in rows if row["what"] == "analyze"]
    assert [row["game"] for row in made] == ["torch_cave"] * 3  # Bender is not made to order
    assert all(row["made"] == "1" and int(row["tried"]) >= 1 and float(row["per_minute"]) > 0 for row in made)
    assert len(analysed) == 1 + len(gridbot.levels.names("bender"))
    loop = next(row for row in analysed if row["request"].endswith("11_loop"))
    assert (loop["status"], loop["par"], loop["programs"]) == ("unsolvable", "", "0")
    check_run_columns(rows, dates, ["benchmarks/design.py", *args, "--csv", str(tmp_path / "results/run.csv")])


def test_rows_refuse_a_column_not_in_the_header(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="among the run's"):
        _results.write(tmp_path / "a.csv", ["level", "date"], [])
    with pytest.raises(ValueError, match="repeated"):
        _results.write(tmp_path / "a.csv", ["level", "level"], [])
    with pytest.raises(ValueError, match="not in the file's header"):
        _results.write(tmp_path / "a.csv", ["level"], [{"level": 1, "seconds": 0.5}])
    with _results.rows(None, ["level"]) as out, pytest.raises(ValueError, match="not in the file's header"):
        out.add({"nodes": 3})  # checked even when nothing is written
