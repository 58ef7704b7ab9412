"""Pictures: the render core (Scene, SVG, PNG, GIF, frame sampling) and the `gridbot render` command.

Every game with a drawing module (`gridbot/render/<game>.py`) is covered; a game without one is skipped by name
until its drawing lands, so the same tests cover all seven games once they are merged.
"""

from __future__ import annotations

import io
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import gridbot
from gridbot import games, levels, render
from gridbot.cli import cli
from gridbot.games import carrots
from gridbot.render import raster, svg_text
from gridbot.render.scene import Board, Line, Rect, Scene
from gridbot.result import SolveResult

SVG_NS = "{http://www.w3.org/2000/svg}"
RENDER_DIR = Path(render.__file__).parent
DRAWN = [name for name in games.GAMES if (RENDER_DIR / f"{name}.py").exists()]
SQUARE_PROGRAM = "LOOP{F F R}"  # completes carrots:02 (five squares in an L)
STAIRS = "LOOP(40){F R F L}"  # 160 steps on carrots:07 (12 x 12), more than a GIF's frames


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_one_line_error(result, *fragments: str, status: int = 2) -> None:
    assert result.exit_code == status, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("gridbot: ")
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]


def drawn(game: str) -> str:
    """Skip a game whose drawing has not landed yet (render/<game>.py missing); the game's name otherwise."""
    if game not in DRAWN:
        pytest.skip(f"gridbot/render/{game}.py does not exist yet")
    return game


def quickest(game: str) -> str:
    """The bundled level of `game` whose proof was measured fastest (data/GAME/proofs.json), as GAME:NAME."""
    timed = [(levels.proof_time(game, name), name) for name in levels.names(game)]
    seconds = [(proof.seconds, name) for proof, name in timed if proof is not None and proof.seconds is not None]
    return f"{game}:{min(seconds)[1] if seconds else levels.names(game)[0]}"


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    return root


def board_of(root: ET.Element) -> tuple[int, int, int, int, int]:
    """(rows, cols, cell, x0, y0) from the SVG's `<desc>board ...</desc>`."""
    (desc,) = [e for e in root if e.tag == f"{SVG_NS}desc"]
    word, *numbers = desc.text.split()
    assert word == "board"
    return tuple(int(n) for n in numbers)


def cells(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG_NS}rect") if e.get("class") == "cell"]


def gif_durations(data: bytes) -> list[int]:
    """Each frame's time on screen (ms) of a GIF."""
    gif = Image.open(io.BytesIO(data))
    out = []
    for k in range(gif.n_frames):
        gif.seek(k)
        out.append(gif.info["duration"])
    return out


def assert_gif_shows(data: bytes, scenes: list[Scene]) -> None:
    """The GIF animates `scenes` in order, the last held: Pillow writes a frame equal to the one before as that
    frame shown longer, so the frames are the runs of equal pictures and the total time is the scenes' time."""
    pictures = [raster.image(scene).tobytes() for scene in scenes]
    runs = 1 + sum(a != b for a, b in zip(pictures, pictures[1:], strict=False))
    durations = gif_durations(data)
    assert len(durations) == runs
    assert sum(durations) == (len(scenes) - 1) * raster.FRAME_MS + raster.LAST_FRAME_MS
    assert durations[-1] >= raster.LAST_FRAME_MS


def level_dims(level) -> tuple[int, int]:
    """(rows, cols) of a level's board: every game's Level has `rows`, its board's rows of characters."""
    return len(level.rows), max(len(row) for row in level.rows)


# ---------------------------------------------------------------- the core


def test_frame_steps_keeps_both_ends_and_bounds_the_count():
    assert render.frame_steps(0) == [0]
    assert render.frame_steps(5, 10) == [0, 1, 2, 3, 4, 5]
    assert render.frame_steps(1000, 5) == [0, 250, 500, 750, 1000]
    for last in (1, 7, 149, 150, 151, 999, 100_000):
        for frames in (2, 3, 10, 150):
            picked = render.frame_steps(last, frames)
            assert picked[0] == 0 and picked[-1] == last
            assert len(picked) == min(last + 1, frames)
            assert picked == sorted(set(picked))
    assert render.frame_steps(40, 1) == [40]  # one frame: the end


def test_board_scales_the_cell_to_fit():
    assert Board(3, 3).cell == 48  # small boards: the largest cell
    assert Board(100, 100).cell == 8  # a 100 x 100 board in 800 pixels
    assert Board(1000, 1000).cell == 4  # never below the smallest cell
    board = Board(32, 32)
    assert board.width == 2 * board.margin + 32 * board.cell


def test_svg_of_a_scene_is_xml_with_its_shapes():
    board = Board(2, 3)
    shapes = tuple(board.cell_rect(r, c, fill="#00ff00") for r in range(2) for c in range(3))
    root = parse_svg(svg_text.to_svg(Scene(board.width, board.height, shapes, board=board, caption="a <b> & c")))
    assert board_of(root) == (2, 3, board.cell, board.x0, board.y0)
    assert len(cells(root)) == 6
    assert root.find(f"{SVG_NS}title").text == "a <b> & c"  # escaped in the file, itself when parsed


def test_png_and_gif_of_scenes_have_their_size_and_frames():
    scenes = [Scene(30, 20, (Rect(k, 0, 5, 5, fill="#ff0000"),)) for k in range(4)]
    png = Image.open(io.BytesIO(raster.png(scenes[0])))
    assert png.format == "PNG" and png.size == (30, 20)
    gif = Image.open(io.BytesIO(raster.gif(scenes)))
    assert gif.format == "GIF" and gif.size == (30, 20) and gif.n_frames == 4
    gif.seek(3)
    assert gif.info["duration"] == raster.LAST_FRAME_MS  # the last frame is held
    with pytest.raises(ValueError):
        raster.gif([])


def test_gif_frames_are_the_pictures_exactly():
    """A run's frames share one palette of the colours they use, so each decodes to the picture painted."""
    level = gridbot.load("carrots:02")
    scenes = render.film(level, SQUARE_PROGRAM)
    pictures = [raster.image(scene).tobytes() for scene in scenes]
    shown = [picture for k, picture in enumerate(pictures) if k == 0 or picture != pictures[k - 1]]
    assert len(shown) > 3
    gif = Image.open(io.BytesIO(raster.gif(scenes)))
    assert gif.n_frames == len(shown)
    for k, picture in enumerate(shown):
        gif.seek(k)
        assert gif.convert("RGB").tobytes() == picture


def test_a_gif_of_more_than_256_colours_falls_back_to_a_median_cut():
    shapes = tuple(Rect(k % 20, k // 20, 1, 1, fill=f"#{k:06x}") for k in range(300))
    shifted = tuple(Rect(r.x, r.y, 1, 1, fill=f"#{int(r.fill[1:], 16) + 1:06x}") for r in shapes)
    scenes = [Scene(20, 15, shapes), Scene(20, 15, shifted)]
    assert raster.indexed(scenes) is None
    gif = Image.open(io.BytesIO(raster.gif(scenes)))
    assert gif.n_frames == 2 and gif.size == (20, 15)


def test_carrots_svg_has_a_cell_per_square():
    level = gridbot.load("carrots:12")
    root = parse_svg(render.svg(level))
    rows, cols, cell, x0, y0 = board_of(root)
    assert (rows, cols) == (len(level.rows), len(level.rows[0]))
    assert len(cells(root)) == len(level.squares)  # the void is the background, not a cell
    for rect in cells(root):  # every cell on the grid the <desc> announces
        assert (float(rect.get("x")) - x0) % cell == 0 and (float(rect.get("y")) - y0) % cell == 0
    assert int(root.get("width")) == 2 * (cell // 4) + cols * cell


def test_carrots_run_end_state_and_step():
    level = gridbot.load("carrots:02")
    end = parse_svg(render.svg(level, SQUARE_PROGRAM))
    assert end.find(f"{SVG_NS}title").text == f"carrots:02: {level.size} of {level.size} squares marked"
    start = parse_svg(render.svg(level, SQUARE_PROGRAM, step=0))
    assert start.find(f"{SVG_NS}title").text == f"carrots:02: 1 of {level.size} squares marked"
    assert render.svg(level, SQUARE_PROGRAM, step=10_000) == render.svg(level, SQUARE_PROGRAM)  # past the end
    with pytest.raises(ValueError):
        render.scene(level, SQUARE_PROGRAM, step=-1)


def test_gif_frames_follow_frame_steps():
    level = gridbot.load("carrots:07")
    program = carrots.parse_program(STAIRS)
    last = render.drawing(level).steps(level, program)
    assert last == 160
    for frames in (1, 2, 10, render.MAX_FRAMES):
        scenes = render.film(level, program, frames)
        assert len(scenes) == len(render.frame_steps(last, frames))
        assert_gif_shows(render.gif(level, program, frames), scenes)
    assert Image.open(io.BytesIO(render.gif(level))).n_frames == 1  # no program: the level alone


def test_a_run_longer_than_the_frames_is_sampled():
    level = gridbot.load("carrots:07")
    program = carrots.parse_program("LOOP{F R F L}")  # endless on this board: the picture follows MAX_STEPS
    last = render.drawing(level).steps(level, program)
    assert last == render.MAX_STEPS
    scenes = render.film(level, program, 20)
    assert len(scenes) == 20
    assert_gif_shows(render.gif(level, program, 20), scenes)


def test_an_endless_run_draws_each_hop_once():
    """The hops are drawn once each, not once a lap: an endless run's picture has O(squares) points (one point
    a step made its GIF take a minute)."""
    level = gridbot.load("carrots:12")
    program = carrots.parse_program("LOOP{F LOOP(7){F L}}")  # round the same few squares until MAX_STEPS
    assert render.drawing(level).steps(level, program) == render.MAX_STEPS
    end = render.scene(level, program)
    points = sum(len(s.points) for s in end.shapes if isinstance(s, Line) and s.cls == "path")
    assert 1 <= points <= 4 * level.size  # a square has at most four neighbours, each hop counted from both ends


def test_pictures_are_byte_identical_twice():
    level = gridbot.load("carrots:07")
    program = STAIRS
    assert render.svg(level, program) == render.svg(level, program)
    assert render.png(level, program) == render.png(level, program)
    assert render.gif(level, program, 12) == render.gif(level, program, 12)


def test_pictures_are_the_same_in_another_process():
    code = (
        "import sys, gridbot; from gridbot import render; "
        f"sys.stdout.buffer.write(render.png(gridbot.load('carrots:07'), {STAIRS!r}))"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, check=True).stdout
    assert other == render.png(gridbot.load("carrots:07"), STAIRS)


# ---------------------------------------------------------------- every game with a drawing


@pytest.mark.parametrize("game", games.GAMES)
def test_each_drawn_game_renders_its_first_level(game, tmp_path):
    drawn(game)
    spec = f"{game}:{levels.names(game)[0]}"
    level = gridbot.load(spec)
    root = parse_svg(render.svg(level))
    rows, cols = level_dims(level)
    assert board_of(root)[:2] == (rows, cols)
    assert 0 < len(cells(root)) <= rows * cols
    scene = render.scene(level)
    assert Image.open(io.BytesIO(render.png(level))).size == (scene.width, scene.height)
    out = tmp_path / "level.png"
    result = invoke("render", game, spec, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == render.png(level)


@pytest.mark.parametrize("game", games.GAMES)
def test_each_drawn_game_renders_a_solved_run(game, tmp_path):
    """The solver's answer on the game's quickest bundled level, given as a program file: a GIF with the frames
    frame_steps promises, and the end state equal to the picture of the last step."""
    drawn(game)
    module = games.get(game)
    spec = quickest(game)
    level = gridbot.load(spec)
    result = gridbot.solve(level, time_limit=60)
    assert result.solution is not None, result
    text = str(result.solution)
    program = module.parse_program(text)
    last = render.drawing(level).steps(level, program)
    (tmp_path / "program.txt").write_text(text + "\n")
    gif = tmp_path / "run.gif"
    ran = invoke("render", game, spec, "--program-file", str(tmp_path / "program.txt"), "-o", str(gif), "--frames", "7")
    assert ran.exit_code == 0, ran.output
    scenes = render.film(level, program, 7)
    assert len(scenes) == len(render.frame_steps(last, 7))
    assert_gif_shows(gif.read_bytes(), scenes)
    assert render.svg(level, program) == render.svg(level, program, step=last)


# ---------------------------------------------------------------- the command


def test_render_svg_to_stdout():
    result = invoke("render", "carrots", "carrots:12", "-o", "-")
    assert result.exit_code == 0, result.output
    assert result.stdout == render.svg(gridbot.load("carrots:12"))
    parse_svg(result.stdout)
    assert result.stderr == ""


@pytest.mark.parametrize(("suffix", "kind"), [(".svg", "SVG"), (".png", "PNG"), (".gif", "GIF"), (".PNG", "PNG")])
def test_render_chooses_the_kind_by_extension(tmp_path, suffix, kind):
    out = tmp_path / f"picture{suffix}"
    result = invoke("render", "carrots", "2", SQUARE_PROGRAM, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{out}: {kind} of carrots:02, {SQUARE_PROGRAM}\n"
    data = out.read_bytes()
    if kind == "SVG":
        parse_svg(data.decode())
    else:
        assert Image.open(io.BytesIO(data)).format == kind
    level = gridbot.load("carrots:02")
    if kind == "SVG":
        assert data == render.svg(level, SQUARE_PROGRAM).encode()
    elif kind == "PNG":
        assert data == render.png(level, SQUARE_PROGRAM)
    else:
        assert data == render.gif(level, SQUARE_PROGRAM)


def test_render_gif_animates_the_whole_run(tmp_path):
    out = tmp_path / "run.gif"
    assert invoke("render", "carrots", "2", SQUARE_PROGRAM, "-o", str(out)).exit_code == 0
    level = gridbot.load("carrots:02")
    steps = render.drawing(level).steps(level, carrots.parse_program(SQUARE_PROGRAM))
    assert Image.open(out).n_frames == steps + 1  # a short run: every step, the start included
    assert invoke("render", "carrots", "2", SQUARE_PROGRAM, "-o", str(out), "--frames", "3").exit_code == 0
    assert Image.open(out).n_frames == 3


def test_render_step(tmp_path):
    level = gridbot.load("carrots:02")
    result = invoke("render", "carrots", "2", SQUARE_PROGRAM, "--step", "3", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout == render.svg(level, SQUARE_PROGRAM, step=3)
    assert result.stdout != render.svg(level, SQUARE_PROGRAM)
    out = tmp_path / "three.png"
    result = invoke("render", "carrots", "2", SQUARE_PROGRAM, "--step", "3", "-o", str(out))
    assert result.stdout == f"{out}: PNG of carrots:02, {SQUARE_PROGRAM}, after 3 steps\n"
    assert out.read_bytes() == render.png(level, SQUARE_PROGRAM, step=3)


def test_render_solve_on_carrots_12(tmp_path):
    out = tmp_path / "solved.svg"
    result = invoke("render", "carrots", "carrots:12", "--solve", "--time-limit", "60", "-o", str(out))
    assert result.exit_code == 0, result.output
    level = gridbot.load("carrots:12")
    program = carrots.parse_program(result.stdout.split(", ", 1)[1])
    assert program.tokens == 8  # the proven optimum of carrots:12 (its 8-token program)
    assert carrots.run(level, program).verdict.won
    title = parse_svg(out.read_text()).find(f"{SVG_NS}title").text
    assert title == f"carrots:12: {level.size} of {level.size} squares marked"


def test_render_solve_without_an_answer_exits_1(monkeypatch, tmp_path):
    def nothing(level, **kwargs):
        return SolveResult("carrots", level.name, "timeout", None, None, 0.1, 3)

    monkeypatch.setattr(gridbot.solve.solver("carrots").load(), "solve", nothing)
    result = invoke("render", "carrots", "12", "--solve", "--time-limit", "1", "-o", str(tmp_path / "x.svg"))
    assert_one_line_error(result, "no program to draw for carrots:12", status=1)
    assert not (tmp_path / "x.svg").exists()


def test_render_reads_the_program_from_standard_input(tmp_path):
    out = tmp_path / "stdin.svg"
    proc = subprocess.run(
        [sys.executable, "-m", "gridbot.cli", "render", "carrots", "2", "-", "-o", str(out)],
        input=SQUARE_PROGRAM + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == render.svg(gridbot.load("carrots:02"), SQUARE_PROGRAM)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("carrots", "2", "-o", "x.jpg"), "cannot tell the picture's kind from 'x.jpg'"),
        (("carrots", "2", "-o", "picture"), "name a .svg, .png or .gif file"),
        (("carrots", "2", "LOOP(0){F}", "-o", "-"), "loop count must be at least 1"),
        (("carrots", "no_such_level", "-o", "-"), "no_such_level"),
        (("carrots", "carrots:99", "-o", "-"), "no bundled level 'carrots:99'"),
        (("chess", "1", "-o", "-"), "unknown game 'chess'"),
        (("carrots", "2", "-o", "-", "--step", "2"), "--step needs a program"),
        (("carrots", "2", "F", "-o", "x.gif", "--step", "2"), "not a GIF"),
        (("carrots", "2", "F", "-o", "x.svg", "--frames", "5"), "--frames goes with a .gif"),
        (("carrots", "2", "F", "-o", "x.svg", "--time-limit", "5"), "--time-limit goes with --solve"),
        (("carrots", "2", "F", "--solve", "-o", "x.svg"), "not both"),
        (("carrots", "2", "-o", "x.gif", "--frames", "0"), "--frames"),
        (("carrots", "2"), "-o"),
        (("carrots", "2", "F", "-o", "no/such/folder/x.svg"), "cannot write 'no/such/folder/x.svg'"),
    ],
)
def test_render_errors_are_one_line_exit_2(args, fragment):
    assert_one_line_error(invoke("render", *args), fragment)


def test_render_a_game_without_a_drawing_is_one_line(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "gridbot.render.carrots" else real(name, *a)
    )
    assert_one_line_error(invoke("render", "carrots", "2", "-o", "-"), "carrots has no drawing yet")


def test_render_help_lists_the_games_and_kinds():
    text = invoke("render", "--help").output
    assert ".svg" in text and ".png" in text and ".gif" in text
    assert f"default {render.MAX_FRAMES})" in " ".join(text.split())  # the help says the core's own default
    for name in games.GAMES:
        assert name in text
