"""The playground's API (`gridbot web`): runs and their pictures, edits, solves in worker processes, and the caps."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from gridbot import games, levels, render
from gridbot.cli import cli
from gridbot.games import carrots
from gridbot.generate.carrots import random_level
from gridbot.web.app import create_app

from .web_server import serve

# A level whose proof takes far longer than any test here waits (the solver needs minutes for it).
LONG = str(random_level(14, 14, 1))
CARROTS_12 = "R LOOP{R LOOP(4){LOOP(3){F} R} F}"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def error_of(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()["error"]


def wait_done(client: TestClient, job: str, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/solve/{job}").json()
        if state["status"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError(f"solve {job} still running after {seconds} s")


def wait_progress(client: TestClient, job: str) -> dict:
    """The job's state once its worker has reported (so it surely runs)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = client.get(f"/api/solve/{job}").json()
        assert state["status"] == "running", state
        if state["progress"]:
            return state
        time.sleep(0.1)
    raise AssertionError("no progress from the solver")


def gone(pid: int, seconds: float = 10) -> bool:
    """Has process `pid` ended (and been reaped), and is no process left in its group?"""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            if not group_members(pid):
                return True
        time.sleep(0.05)
    return False


def group_members(group: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":  # field 5 of stat: the process group
            out.append(int(stat.parent.name))
    return out


# ---------------------------------------------------------------- page, games, levels


def test_page_static_files_and_openapi(client):
    page = client.get("/")
    assert page.status_code == 200 and "gridbot playground" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.split("</footer>")[0].replace('href="/docs"', "")  # nothing from elsewhere
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/levels/{game}", "/api/run", "/api/solve", "/api/solve/{job_id}"} <= set(paths)


def test_games_and_levels(client):
    listed = client.get("/api/games").json()
    assert [g["name"] for g in listed] == list(games.GAMES)
    carrots_entry = listed[0]
    assert carrots_entry["drawing"] and carrots_entry["palette"] and carrots_entry["levels"] == 12
    assert client.get("/api/levels/carrots").json()["levels"] == levels.names("carrots")
    assert client.get("/api/levels/carrots").json()["sets"] == [{"name": "main", "levels": levels.names("carrots")}]
    level = client.get("/api/levels/carrots/7").json()
    assert level["name"] == "07" and carrots.Level.parse(level["text"]).size > 0
    assert error_of(client.get("/api/levels/chess"), 404)["kind"] == "game"


def test_robozzles_later_puzzles_are_listed_as_a_set_of_their_own(client):
    """The page lists every bundled puzzle a `robozzle:ID` opens: the main set, then the later one."""
    data = client.get("/api/levels/robozzle").json()
    main, later = levels.names("robozzle"), levels.names("robozzle", "later")
    assert [part["name"] for part in data["sets"]] == ["main", "later"]
    assert data["sets"][1]["levels"] == later and data["levels"] == main + later
    robozzle_entry = next(g for g in client.get("/api/games").json() if g["name"] == "robozzle")
    assert robozzle_entry["levels"] == len(main) + len(later)
    assert client.get(f"/api/levels/robozzle/{later[0]}").json()["name"] == later[0]


# ---------------------------------------------------------------- runs


def test_run_gives_verdict_steps_and_frames(client):
    data = client.post("/api/run", json={"game": "carrots", "level": "12", "program": CARROTS_12}).json()
    assert data["verdict"]["won"] and data["verdict"]["text"] == "completed at step 369"
    assert data["tokens"] == 8 and data["program"] == CARROTS_12
    assert data["steps"] == 369 and data["sampled"]
    frames = data["frames"]
    assert 2 <= len(frames) <= 200
    assert frames[0]["step"] == 0 and frames[-1]["step"] == 369
    assert [f["step"] for f in frames] == sorted({f["step"] for f in frames})
    root = ET.fromstring(frames[-1]["svg"])
    assert root.find(f"{SVG}desc").text.split()[:3] == ["board", "9", "9"]
    assert len(root.findall(f".//{SVG}rect[@class='cell']")) == levels.load("carrots:12").size  # its squares


def test_frames_are_the_svg_of_gridbot_render(client):
    """The page shows exactly the pictures `gridbot render` writes (one drawing for files and page)."""
    data = client.post("/api/run", json={"game": "carrots", "level": "12", "program": CARROTS_12}).json()
    level = levels.load("carrots:12")
    for frame in data["frames"][::37] + data["frames"][-1:]:
        assert frame["svg"] == render.svg(level, CARROTS_12, step=frame["step"])


def test_run_without_program_draws_the_level(client):
    data = client.post("/api/run", json={"game": "carrots", "text": "S##\n  #"}).json()
    assert data["verdict"] is None and data["steps"] == 0 and len(data["frames"]) == 1
    assert data["text"] == "S##\n  #"


def test_bender_without_an_answer_shows_his_journey(client):
    level = levels.load("bender:02")
    data = client.post("/api/run", json={"game": "bender", "level": "02", "program": ""}).json()
    assert data["verdict"]["won"] and data["verdict"]["text"] == str(games.get("bender").run(level).verdict)
    assert data["steps"] > 0 and data["frames"][-1]["svg"] == render.svg(level, "")
    alone = client.post("/api/run", json={"game": "bender", "level": "02"}).json()
    assert alone["verdict"] is None and len(alone["frames"]) == 1


def test_a_failing_run_says_why(client):
    data = client.post("/api/run", json={"game": "carrots", "level": "2", "program": "F"}).json()
    assert not data["verdict"]["won"] and data["verdict"]["status"] in ("incomplete", "forever")


@pytest.mark.parametrize("game", games.GAMES)
def test_every_game_runs_its_first_level(client, game):
    """Each game has a drawing: the level's picture, then a run's pictures."""
    name = levels.names(game)[0]
    data = client.post("/api/run", json={"game": game, "level": name}).json()
    assert data["drawing"] and len(data["frames"]) == 1
    level = levels.load(f"{game}:{name}")
    assert data["frames"][0]["svg"] == render.svg(level)


def test_robos_escape_run_reports_score_and_coins(client):
    data = client.post("/api/run", json={"game": "robos_escape", "level": "01", "program": "F"}).json()
    assert {"score", "coins"} <= set(data["fields"]) and data["fields"]["coins"] == 0


def test_frames_are_capped_and_sampled():
    with TestClient(create_app(max_frames=5)) as small:
        data = small.post("/api/run", json={"game": "carrots", "level": "12", "program": CARROTS_12}).json()
    assert [f["step"] for f in data["frames"]] == [0, 92, 184, 277, 369]
    with TestClient(create_app(max_frame_bytes=40_000)) as tight:  # one 9x9 picture is ~10 kB
        data = tight.post("/api/run", json={"game": "carrots", "level": "12", "program": CARROTS_12}).json()
    assert 2 <= len(data["frames"]) <= 4
    assert sum(len(f["svg"]) for f in data["frames"]) <= 60_000


def test_edit_turns_a_cell(client):
    data = client.post("/api/edit", json={"game": "carrots", "level": "1", "row": 0, "col": 1}).json()
    assert data["text"] != client.get("/api/levels/carrots/1").json()["text"]
    assert carrots.Level.parse(data["text"]) and len(data["frames"]) == 1
    error = error_of(client.post("/api/edit", json={"game": "carrots", "level": "1", "row": 9, "col": 0}), 400)
    assert "row 10" in error["message"]


# ---------------------------------------------------------------- bad input: 4xx with the position


def test_bad_level_gives_line_and_column(client):
    error = error_of(client.post("/api/run", json={"game": "carrots", "text": "S##\n#x#", "program": "F"}), 400)
    assert (error["kind"], error["line"], error["column"]) == ("level", 2, 2)
    assert "unknown character 'x'" in error["message"]


def test_bad_program_gives_column(client):
    error = error_of(client.post("/api/run", json={"game": "carrots", "level": "1", "program": "F F X"}), 400)
    assert (error["kind"], error["column"]) == ("program", 5)
    error = error_of(client.post("/api/run", json={"game": "carrots", "level": "1", "program": "LOOP{F"}), 400)
    assert error["kind"] == "program" and "LOOP" in error["message"]


def post_escaped(client: TestClient, body: dict) -> httpx.Response:
    """POST /api/run with JSON that escapes every non-ASCII character (so a lone surrogate can be sent)."""
    return client.post("/api/run", content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("game", games.GAMES)
@pytest.mark.parametrize("program", ["}{)(", "LOOP{" * 2000, "\x00\udcff", "F" * 9999])
def test_no_program_text_makes_a_500(client, game, program):
    """TestClient re-raises any exception of the app: only 200 or a 4xx may come back."""
    response = post_escaped(client, {"game": game, "level": levels.names(game)[0], "program": program})
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.text


@pytest.mark.parametrize("game", games.GAMES)
@pytest.mark.parametrize("text", ["", "\x00", "S" * 3000, "#\n" * 3000, "?!", "S#\n#\udcff"])
def test_no_level_text_makes_a_500(client, game, text):
    response = post_escaped(client, {"game": game, "text": text})
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.text


def test_malformed_requests(client):
    assert error_of(client.post("/api/run", json={"level": "1"}), 422)["message"] == "game: Field required"
    bad_json = client.post("/api/run", content=b"{", headers={"content-type": "application/json"})
    assert error_of(bad_json, 422)["kind"] == "request"
    both = client.post("/api/run", json={"game": "carrots", "level": "1", "text": "S#"})
    assert "either" in error_of(both, 400)["message"]
    assert error_of(client.post("/api/run", json={"game": "chess", "level": "1"}), 404)["kind"] == "game"


@pytest.mark.parametrize("name", ["../../../etc/passwd", "/etc/passwd", "01.txt", "data/carrots/01", "~"])
def test_no_path_reaches_the_file_system(client, name):
    assert error_of(client.post("/api/run", json={"game": "carrots", "level": name}), 404)["kind"] == "level"
    assert client.get(f"/api/levels/carrots/{name.replace('/', '%2F')}").status_code == 404


# ---------------------------------------------------------------- caps


def test_body_cap_by_length_and_as_it_arrives():
    with TestClient(create_app(max_body=1000)) as small:
        big = {"game": "carrots", "text": "S" + "#" * 2000}
        assert "request body" in error_of(small.post("/api/run", json=big), 413)["message"]

        def chunks():  # no Content-Length: counted as the body arrives
            yield b'{"game": "carrots", "text": "'
            for _ in range(50):
                yield b"#" * 100
            yield b'"}'

        assert error_of(small.post("/api/run", content=chunks()), 413)["kind"] == "request"
        assert small.post("/api/run", json={"game": "carrots", "level": "1"}).status_code == 200


def test_level_and_program_caps():
    with TestClient(create_app(max_level_bytes=100, max_program_chars=20)) as small:
        error = error_of(small.post("/api/run", json={"game": "carrots", "text": "S" + "#" * 100}), 413)
        assert error["kind"] == "level" and "100 bytes" in error["message"]
        assert small.post("/api/run", json={"game": "carrots", "text": "S" + "#" * 98}).status_code == 200
        error = error_of(small.post("/api/run", json={"game": "carrots", "level": "1", "program": "F " * 11}), 413)
        assert error["kind"] == "program" and "20 characters" in error["message"]


@pytest.mark.parametrize("limit", [0, -1, 60.5, 1e9])
def test_time_limit_cap(client, limit):
    response = client.post("/api/solve", json={"game": "carrots", "level": "1", "time_limit": limit})
    assert "at most 60 s" in error_of(response, 400)["message"]


def test_too_many_solves_get_429():
    with TestClient(create_app(max_solves=1)) as one:
        first = one.post("/api/solve", json={"game": "carrots", "text": LONG, "time_limit": 60}).json()["id"]
        refused = one.post("/api/solve", json={"game": "carrots", "level": "1"})
        assert error_of(refused, 429)["kind"] == "busy" and refused.headers["retry-after"]
        pid = one.delete(f"/api/solve/{first}").json()["worker_pid"]
        assert gone(pid)
        again = one.post("/api/solve", json={"game": "carrots", "level": "1"})
        assert again.status_code == 202
        assert wait_done(one, again.json()["id"])["status"] == "optimal"


# ---------------------------------------------------------------- solves


def test_solve_carrots_12_is_optimal_and_rechecked(client):
    started = client.post("/api/solve", json={"game": "carrots", "level": "12", "time_limit": 60})
    assert started.status_code == 202
    state = wait_done(client, started.json()["id"])
    assert state["status"] == "optimal" and state["length"] == 8 and state["proven_impossible"] == 7
    level = levels.load("carrots:12")
    program = carrots.parse_program(state["solution"])
    assert carrots.run(level, program).verdict.won and program.tokens == 8
    assert gone(state["worker_pid"])


def test_solve_events_end_with_done(client):
    job = client.post("/api/solve", json={"game": "carrots", "level": "3", "time_limit": 30}).json()
    events = []
    with client.stream("GET", job["events"]) as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                events.append(line.removeprefix("event: "))
            elif line.startswith("data: ") and events[-1] == "done":
                done = json.loads(line.removeprefix("data: "))
                break
    assert events[-1] == "done" and set(events[:-1]) <= {"progress"}
    assert done["status"] == "optimal" and done["solution"]


def test_cancel_kills_the_worker_and_its_group(client):
    job = client.post("/api/solve", json={"game": "carrots", "text": LONG, "time_limit": 60}).json()["id"]
    pid = wait_progress(client, job)["worker_pid"]
    os.kill(pid, 0)  # it runs
    state = client.delete(f"/api/solve/{job}").json()
    assert state["status"] == "cancelled" and state["seconds"] < 60
    assert gone(pid)
    assert client.delete(f"/api/solve/{job}").json()["status"] == "cancelled"  # a second cancel changes nothing
    assert error_of(client.delete("/api/solve/nosuchjob"), 404)["kind"] == "solve"


@pytest.mark.clock  # measures wall time: run alone, not beside others
def test_time_limit_ends_the_worker():
    with TestClient(create_app(max_solves=1)) as one:
        started = time.monotonic()
        job = one.post("/api/solve", json={"game": "carrots", "text": LONG, "time_limit": 1}).json()["id"]
        state = wait_done(one, job, 30)
        assert state["status"] in ("timeout", "solved")  # the solver's own answer at its limit, or killed
        assert time.monotonic() - started < 1 + 2 + 10
        assert gone(state["worker_pid"])
        if state["status"] == "solved":
            assert carrots.run(carrots.Level.parse(LONG), state["solution"]).verdict.won


@pytest.mark.clock  # measures wall time: run alone, not beside others
def test_hundred_runs_answered_while_a_solve_runs():
    with serve(max_solves=1) as (base, _):
        sync = httpx.Client(base_url=base, timeout=60)
        job = sync.post("/api/solve", json={"game": "carrots", "text": LONG, "time_limit": 60}).json()["id"]

        async def runs() -> list[httpx.Response]:
            limits = httpx.Limits(max_connections=100)
            async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
                body = {"game": "carrots", "level": "5", "program": "F R F F L F"}
                return await asyncio.gather(*(http.post("/api/run", json=body) for _ in range(100)))

        started = time.monotonic()
        answers = asyncio.run(runs())
        seconds = time.monotonic() - started
        assert all(r.status_code == 200 and r.json()["verdict"]["step"] == 6 for r in answers)
        state = sync.get(f"/api/solve/{job}").json()
        assert state["status"] == "running", state  # the solve went on beside them
        assert seconds < 60
        assert gone(sync.delete(f"/api/solve/{job}").json()["worker_pid"])


def test_stopping_the_server_kills_running_solves():
    with serve() as (base, _), httpx.Client(base_url=base, timeout=30) as http:
        job = http.post("/api/solve", json={"game": "carrots", "text": LONG, "time_limit": 60}).json()["id"]
        deadline = time.monotonic() + 30
        while not (state := http.get(f"/api/solve/{job}").json())["progress"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    assert gone(state["worker_pid"])


# ---------------------------------------------------------------- the command


def test_web_command_without_fastapi(monkeypatch):
    monkeypatch.setitem(sys.modules, "fastapi", None)
    monkeypatch.delitem(sys.modules, "gridbot.web.app", raising=False)
    result = CliRunner().invoke(cli, ["web"])
    assert result.exit_code == 2
    assert "pip install 'gridbot[web]'" in result.stderr and "Traceback" not in result.output


def test_web_command_help():
    result = CliRunner().invoke(cli, ["web", "--help"])
    assert result.exit_code == 0 and "--host" in result.output and "127.0.0.1" in result.output


def test_gridbot_web_serves_until_terminated():
    """The real command: serves the API on the port given, stops on SIGTERM."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "gridbot.cli", "web", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                games_listed = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).json()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and server.poll() is None, server.stderr.read().decode()
                time.sleep(0.1)
        assert [g["name"] for g in games_listed] == list(games.GAMES)
    finally:
        server.terminate()
        assert server.wait(30) == 143  # the command line's "terminated", after uvicorn's orderly shutdown


def test_a_level_is_named_as_on_the_command_line(client):
    """`carrots:2` works as `gridbot run carrots:2` takes it; `2` still works; another game's spec is a 400."""
    for level in ("carrots:2", "CARROTS:02", "2"):
        answer = client.post("/api/run", json={"game": "carrots", "level": level, "program": "LOOP{F F R}"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["level"] == "carrots:02"
    other = error_of(client.post("/api/run", json={"game": "carrots", "level": "lightbot:1"}), 400)
    assert other["kind"] == "level" and "belongs to lightbot, not carrots" in other["message"]
    assert error_of(client.post("/api/run", json={"game": "carrots", "level": "carrots:99"}), 404)["kind"] == "level"
