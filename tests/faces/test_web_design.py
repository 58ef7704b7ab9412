"""The playground's tools for program games and level designers: the slot editor (`POST /api/program`, its text held
to the games' own canonical text), analyses (`POST /api/analyze`) and levels made to order (`POST /api/generate`)."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient

import gridbot
from gridbot import games, levels
from gridbot.errors import GridbotError
from gridbot.games import carrots, lightbot, robozzle
from gridbot.web import slots
from gridbot.web.app import create_app

from .test_web import LONG, error_of, gone


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
    return lightbot.Program(
        *("".join(rng.choices(lightbot.COMMANDS, k=rng.randint(0, n))) for n in lightbot.LIMITS.values())
    )


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


# ---------------------------------------------------------------- analyses


def wait_job(client: TestClient, job: str, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/jobs/{job}").json()
        if state["status"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job} still running after {seconds} s")


def test_analyze_a_bundled_level_as_gridbot_analyze_does(client):
    started = client.post("/api/analyze", json={"game": "carrots", "level": "3", "time_limit": 60})
    assert started.status_code == 202 and started.json()["events"] == f"/api/jobs/{started.json()['id']}/events"
    state = wait_job(client, started.json()["id"])
    assert state["status"] == "optimal" and state["kind"] == "analyze"
    direct = gridbot.analyze(levels.load("carrots:3"), time_limit=60).to_json()
    got = state["analysis"]
    assert got["level"] == "carrots:03"
    for key in ("status", "par", "excluded", "programs", "behaviours", "examples", "longer", "needed"):
        assert got[key] == direct[key], key
    for example in got["examples"]:  # each one runs to a win
        assert games.get("carrots").run(levels.load("carrots:3"), example).verdict.won


def test_analyze_pasted_text_and_the_cap(client):
    text = "functions: 3 2 0 0 0\npaint: none\nstart: 1 1 east\nrrrR\nbbgg"
    state = wait_job(
        client, client.post("/api/analyze", json={"game": "robozzle", "text": text, "cap": 1}).json()["id"]
    )
    assert state["analysis"]["level"] == "your level" and state["analysis"]["par"] == robozzle_par(text)
    assert error_of(client.post("/api/analyze", json={"game": "carrots", "level": "3", "cap": 0}), 400)["kind"] == "cap"
    assert error_of(client.post("/api/analyze", json={"game": "carrots", "text": "S#\nQ"}), 400)["kind"] == "level"


def robozzle_par(text: str) -> int:
    return gridbot.solve(robozzle.Level.parse(text), time_limit=60).length


def test_an_analysis_is_cancelled_and_its_worker_killed(client):
    started = client.post("/api/analyze", json={"game": "carrots", "text": LONG, "time_limit": 60}).json()
    deadline = time.monotonic() + 60
    while not client.get(f"/api/jobs/{started['id']}").json()["progress"]:
        assert time.monotonic() < deadline, "no progress from the analysis"
        time.sleep(0.1)
    pid = client.get(f"/api/jobs/{started['id']}").json()["worker_pid"]
    assert client.delete(f"/api/jobs/{started['id']}").json()["status"] == "cancelled"
    assert gone(pid)


def test_analyses_count_among_the_jobs_at_once():
    with TestClient(create_app(max_solves=1)) as small:
        first = small.post("/api/analyze", json={"game": "carrots", "text": LONG, "time_limit": 60}).json()
        busy = small.post("/api/solve", json={"game": "carrots", "level": "1"})
        assert error_of(busy, 429)["kind"] == "busy"
        small.delete(f"/api/jobs/{first['id']}")


# ---------------------------------------------------------------- levels made to order


def test_generate_requests_outside_the_caps_are_400(client):
    def refused(order: dict, status: int = 400) -> dict:
        return error_of(client.post("/api/generate", json=order), status)

    assert refused({"game": "bender", "par": 5})["kind"] == "game"
    assert refused({"game": "chess"}, 404)["kind"] == "game"
    assert refused({"game": "carrots", "par": 5, "size": "5y4"})["kind"] == "size"
    assert refused({"game": "carrots", "par": 5, "size": "99x4"})["kind"] == "size"  # the playground's cap
    assert refused({"game": "carrots", "par": 5, "seed": -1})["kind"] == "seed"
    games_ = {g["name"]: g["generate"] for g in client.get("/api/games").json()}
    assert games_["carrots"] and games_["robozzle"] and not games_["bender"]


@pytest.mark.parametrize(
    "order",
    [
        {"game": "carrots", "par": 0},
        {"game": "carrots"},  # no par: Carrots levels are made to one
        {"game": "carrots", "par": 40, "size": "2x2"},
        {"game": "lightbot", "par": 29},
        {"game": "pellet", "none": True, "unique": True},
        {"game": "torch_cave", "par": 5, "torches": 3},
    ],
)
def test_an_order_no_level_can_meet_is_refused_with_the_generators_reason(client, order):
    error = error_of(client.post("/api/generate", json=order), 400)
    assert error["kind"] == "order"
    with pytest.raises(GridbotError) as caught:  # the same one-line reason as gridbot.generate gives
        size = tuple(int(n) for n in order["size"].split("x")) if "size" in order else None
        gridbot.generate(order["game"], order.get("par"), size=size, none=order.get("none", False),
                         unique=order.get("unique", False), torches=order.get("torches"))  # fmt: skip
    assert error["message"] == str(caught.value)


def test_generate_makes_a_level_whose_par_is_proven_again(client):
    order = {"game": "carrots", "par": 5, "size": "5x4", "seed": 3, "time_limit": 60}
    state = wait_job(client, client.post("/api/generate", json=order).json()["id"], 180)
    assert state["status"] == "made" and state["kind"] == "generate", state
    (made,) = state["levels"]
    level = carrots.Level.parse(made["text"])
    rows = made["text"].splitlines()
    assert len(rows) <= 4 and max(map(len, rows)) <= 5  # within 5x4 (Carrots boards are cropped to their squares)
    assert made["analysis"]["par"] == 5 and made["tried"] >= 1
    result = gridbot.solve(level, time_limit=60)
    assert str(result.status) == "optimal" and result.length == 5  # the par, proven once more here
    again = wait_job(client, client.post("/api/generate", json=order).json()["id"], 180)
    assert again["levels"][0]["text"] == made["text"]  # the same seed and order: the same level
