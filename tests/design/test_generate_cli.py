"""`gridbot generate`: files written as they are made, which parse back to levels of the par asked for; JSON;
one-line errors with status 2; the status of a time limit."""

from __future__ import annotations

import json

import pytest

import gridbot
from tests.faces.test_cli import assert_one_line_error, invoke


def test_files_written_parse_back_to_levels_of_the_par(tmp_path):
    folder = tmp_path / "made"
    result = invoke("generate", "carrots", "--par", "4", "--size", "5x4", "-n", "3", "-o", str(folder))
    assert result.exit_code == 0, result.output
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"carrots-par4-seed0-{n}.txt" for n in (1, 2, 3)]
    assert result.output.splitlines() == [line for line in result.output.splitlines() if "par 4 (proven)" in line]
    for path in files:
        level = gridbot.load(str(path), "carrots")
        assert gridbot.solve(level).length == 4
    again = invoke("generate", "carrots", "--par", "4", "--size", "5x4", "-n", "3", "-q")
    texts = [f.read_text().rstrip("\n") for f in files]
    assert again.output.split("\n\n")[:3] == texts


def test_json_gives_each_level_and_its_analysis(tmp_path):
    result = invoke("generate", "pellet", "--size", "5x5", "--unique", "-n", "2", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [row["name"] for row in rows] == ["pellet-unique-seed3-1", "pellet-unique-seed3-2"]
    for row in rows:
        assert row["file"] is None and row["game"] == "pellet" and row["version"]
        assert row["analysis"]["status"] == "optimal"
        level = gridbot.parse("pellet", row["level"])
        assert gridbot.solve(level).length == row["analysis"]["par"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("generate", "lightbot", "--par", "40"), "at most 28 commands"),
        (("generate", "carrots"), "give --par N"),
        (("generate", "bender", "--par", "3"), "not made to order yet"),
        (("generate", "chess", "--par", "3"), "unknown game"),
        (("generate", "carrots", "--par", "3", "--size", "3by3"), "is not a size WxH"),
        (("generate", "carrots", "--par", "3", "-n", "0"), "-n"),
        (("generate", "carrots", "--par", "3", "--json"), None),
    ],
)
def test_bad_requests_are_one_line_errors(args, fragment):
    result = invoke(*args)
    if fragment is None:  # a good request, for contrast
        assert result.exit_code == 0, result.output
        return
    if "--json" in args:
        assert result.exit_code == 2
    else:
        assert_one_line_error(result, fragment)


@pytest.mark.clock
def test_a_time_limit_with_nothing_made_is_status_1():
    result = invoke("generate", "carrots", "--par", "40", "--size", "12x12", "--time-limit", "2")
    assert result.exit_code == 1
    assert result.stderr.strip() == "gridbot: time limit: 0 levels of 1 made"
