"""The slot editor's API (`POST /api/program`) and its text form, held to the games' own canonical text."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from gridbot import levels
from gridbot.games import lightbot, robozzle
from gridbot.web import slots
from gridbot.web.app import create_app


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def random_robozzle(rng: random.Random, level: robozzle.Level) -> robozzle.Program:
    """A program that fits `level`: its slots, its functions and the paints it allows."""
    ops = ["F", "L", "R"] + [str(n + 1) for n in range(5) if level.slots[n]] + [f"P{c}" for c in level.paints]
    bodies = tuple(
        tuple(robozzle.Command(rng.choice(ops), rng.choice(["", "R", "G", "B"])) for _ in range(rng.randint(0, n)))
        for n in level.slots
    )
    return robozzle.Program(bodies)


def random_lightbot(rng: random.Random) -> lightbot.Program:
    return lightbot.Program(*("".join(rng.choices(lightbot.COMMANDS, k=rng.randint(0, n))) for n in lightbot.LIMITS.values()))


def test_robozzle_layout_follows_the_puzzle(client):
    level = levels.load("robozzle:14")
    data = client.post("/api/program", json={"game": "robozzle", "level": "14", "program": ""}).json()
    editor = data["editor"]
    assert [f["slots"] for f in editor["functions"]] == list(level.slots)
    calls = [c["op"] for c in editor["commands"] if c["label"].startswith("call")]
    assert calls == [f"F{n + 1}" for n in range(5) if level.slots[n]]  # only the functions the puzzle has
    paints = [c["op"] for c in editor["commands"] if c["op"].startswith("P")]
    assert paints == [f"P{c}" for c in level.paints]
    assert [c["cond"] for c in editor["conditions"]] == ["", "R", "G", "B"]
    assert data["functions"] is None and data["error"] is None  # no program: empty rows


def test_a_painting_puzzle_offers_its_paints(client):
    painting = next(n for n in levels.names("robozzle") if levels.load(f"robozzle:{n}").paints)
    level = levels.load(f"robozzle:{painting}")
    editor = client.post("/api/program", json={"game": "robozzle", "level": painting}).json()["editor"]
    assert [c["op"] for c in editor["commands"] if c["op"].startswith("P")] == [f"P{c}" for c in level.paints]


def test_program_read_into_rows(client):
    data = client.post(
        "/api/program", json={"game": "robozzle", "level": "14", "program": "f1: F rL F2 | F2: bF3"}
    ).json()
    assert data["functions"][:3] == [
        [{"op": "F", "cond": ""}, {"op": "L", "cond": "R"}, {"op": "F2", "cond": ""}],
        [{"op": "F3", "cond": "B"}],
        [],
    ]
    assert data["text"] == "F1: F rL F2 | F2: bF3" and data["tokens"] == 4 and data["problems"] == ""


def test_a_program_that_does_not_fit_says_why(client):
    data = client.post("/api/program", json={"game": "robozzle", "level": "14", "program": "F1: gPR F4"}).json()
    assert "paints R" in data["problems"]
    assert data["functions"][0] == [{"op": "PR", "cond": "G"}, {"op": "F4", "cond": ""}]


def test_a_parse_error_keeps_the_editor_and_gives_the_column(client):
    data = client.post("/api/program", json={"game": "lightbot", "level": "01", "program": "main: FQ"}).json()
    assert data["editor"]["functions"][0]["name"] == "main"
    assert data["functions"] is None and data["error"]["kind"] == "program" and data["error"]["column"] == 8


def test_games_typed_only_have_no_editor(client):
    for game in ("carrots", "robos_escape", "pellet"):
        name = levels.names(game)[0]
        data = client.post("/api/program", json={"game": game, "level": name, "program": ""}).json()
        assert data["editor"] is None and data["functions"] is None


def test_a_bad_level_is_still_a_400(client):
    response = client.post("/api/program", json={"game": "robozzle", "text": "functions: 1", "program": ""})
    assert response.status_code == 400 and response.json()["error"]["kind"] == "level"


@pytest.mark.parametrize("seed", range(3))
def test_rows_give_back_the_canonical_text(seed):
    """`slots.text` (which app's slots.js mirrors) writes what `str(program)` writes, for random programs."""
    rng = random.Random(seed)
    names = levels.names("robozzle")
    for _ in range(100):
        level = levels.load(f"robozzle:{rng.choice(names)}")
        program = random_robozzle(rng, level)
        rows = slots.slots(robozzle, program)
        assert slots.text(slots.layout(robozzle, level), rows) == ("" if program.tokens == 0 else str(program))
        assert robozzle.parse_program(str(program)) == program
        program = random_lightbot(rng)
        rows = slots.slots(lightbot, program)
        assert slots.text(slots.layout(lightbot, None), rows) == ("" if program.tokens == 0 else str(program))
