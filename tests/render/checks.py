"""Checks the drawing tests share (tests/games/<game>/test_render.py): read an SVG back, find its cells and its robot,
compare with a golden file, count a GIF's frames, cycle a cell through a game's palette.

Golden files live in tests/render/golden/<game>-<name>.svg; run the tests with GRIDBOT_UPDATE_GOLDEN=1 to write
them afresh instead of comparing (then look at the pictures and commit them).
"""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

from PIL import Image

from gridbot import render
from gridbot.render import svg_text
from gridbot.render.scene import Polygon, Scene

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """The SVG document's root element (raises if the text is not XML)."""
    return ET.fromstring(svg)


def classed(root: ET.Element, name: str) -> list[ET.Element]:
    """The elements of `root` that have class `name` (among others)."""
    return [e for e in root.iter() if name in e.get("class", "").split()]


def board_of(root: ET.Element) -> tuple[int, int, float, float, float]:
    """(rows, columns, cell, x0, y0) as the SVG's <desc> records them."""
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text is not None and desc.text.startswith("board ")
    rows, cols, cell, x0, y0 = desc.text.split()[1:]
    return int(rows), int(cols), float(cell), float(x0), float(y0)


def centre_of(element: ET.Element) -> tuple[float, float]:
    """The middle of a circle, or the mean of a polygon's or polyline's points."""
    if element.tag == f"{SVG}circle":
        return float(element.get("cx", "0")), float(element.get("cy", "0"))
    points = [tuple(map(float, p.split(","))) for p in element.get("points", "").split()]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def cell_at(root: ET.Element, x: float, y: float) -> tuple[int, int]:
    """The (row, column) of the cell under pixel (x, y)."""
    _, _, cell, x0, y0 = board_of(root)
    return int((y - y0) // cell), int((x - x0) // cell)


def robot_cell(svg: str) -> tuple[int, int]:
    """The cell the one element of class "robot" stands on."""
    root = parse(svg)
    robots = classed(root, "robot")
    assert len(robots) == 1, f"{len(robots)} robots drawn"
    return cell_at(root, *centre_of(robots[0]))


def check_renders(level: Any, cells: int | None = None) -> ET.Element:
    """The level alone renders as SVG that parses, with `cells` elements of class "cell" (default: one per cell
    of the board), and as a PNG of the Scene's size; returns the SVG's root."""
    scene = render.scene(level)
    svg = render.svg(level)
    root = parse(svg)
    rows, cols, _, _, _ = board_of(root)
    expected = rows * cols if cells is None else cells
    assert len(classed(root, "cell")) == expected
    assert int(root.get("width", "0")) == scene.width and int(root.get("height", "0")) == scene.height
    with Image.open(io.BytesIO(render.png(level))) as image:
        assert image.format == "PNG"
        assert image.size == (scene.width, scene.height)
    return root


def check_text_fits(scene: Scene) -> None:
    """No text in a picture is taller than a cell, and none is written on cells smaller than 14 pixels."""
    texts = [s for s in scene.shapes if type(s).__name__ == "Text"]
    if scene.board is not None and texts:
        assert scene.board.cell >= 14
        assert all(t.size * max(1, len(t.text)) <= scene.board.cell for t in texts)


def gif_frames(data: bytes) -> int:
    """The number of frames of a GIF."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "GIF"
        return image.n_frames


def check_deterministic(level: Any, program: Any) -> None:
    """Two renders of the same run give the same bytes: SVG, PNG and GIF."""
    assert render.svg(level, program) == render.svg(level, program)
    assert render.png(level, program) == render.png(level, program)
    assert render.gif(level, program, frames=6) == render.gif(level, program, frames=6)


def check_golden(game: str, name: str, scene: Scene) -> None:
    """The scene's SVG equals tests/render/golden/<game>-<name>.svg (written instead with GRIDBOT_UPDATE_GOLDEN=1)."""
    check_golden_svg(game, name, svg_text.to_svg(scene))


def check_golden_svg(game: str, name: str, text: str) -> None:
    """SVG `text` equals tests/render/golden/<game>-<name>.svg (written instead with GRIDBOT_UPDATE_GOLDEN=1)."""
    path = GOLDEN / f"{game}-{name}.svg"
    if os.environ.get("GRIDBOT_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"no golden file {path}: run with GRIDBOT_UPDATE_GOLDEN=1 to write it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: look at the new picture, then update"


def check_cycle(game: ModuleType, drawing: ModuleType, level: Any, row: int, col: int) -> None:
    """Editing cell (row, col) gives a level text that parses, of the same size, with only that cell changed, to
    the next character of the palette; len(PALETTE) edits bring the cell round: the same text as the first edit
    (and the level's own rows when the cell held a palette character to begin with)."""
    palette = drawing.PALETTE
    texts = []
    current = level
    for _ in range(len(palette) + 1):
        texts.append(drawing.edit(current, row, col))
        previous, current = current, game.Level.parse(texts[-1], level.name)
        assert len(current.rows) == len(previous.rows) and len(current.rows[0]) == len(previous.rows[0])
        before, after = previous.rows[row][col], current.rows[row][col]
        assert after in palette and after != before
        if before in palette:
            assert palette.index(after) == (palette.index(before) + 1) % len(palette)
        rows = zip(previous.rows, current.rows, strict=True)
        changed = [(r, c) for r, (old, new) in enumerate(rows) for c in range(len(new)) if old[c] != new[c]]
        assert changed == [(row, col)]
        if len(texts) == len(palette) and level.rows[row][col] in palette:
            assert current.rows == level.rows
    assert texts[-1] == texts[0]


def count_class(svg: str, name: str) -> int:
    """How many elements of the SVG have class `name` (among their classes)."""
    return sum(1 for e in ET.fromstring(svg).iter() if name in e.get("class", "").split())


def scene_cell_at(scene: Scene, point: tuple[float, float]) -> tuple[int, int]:
    """The (row, column) of the scene's board under pixel `point` (x, y)."""
    board = scene.board
    assert board is not None
    return (int((point[1] - board.y0) // board.cell), int((point[0] - board.x0) // board.cell))


def scene_robot_cell(scene: Scene) -> tuple[int, int]:
    """The cell under the centre of the robot's arrow (the one Polygon of class "robot")."""
    (robot,) = [s for s in scene.shapes if isinstance(s, Polygon) and s.cls == "robot"]
    x = sum(p[0] for p in robot.points) / len(robot.points)
    y = sum(p[1] for p in robot.points) / len(robot.points)
    return scene_cell_at(scene, (x, y))


def check_gif_frames(level: Any, program: Any, frames: int, drawing: ModuleType) -> int:
    """`film` has min(frames, steps + 1) pictures, and the GIF one frame per picture that differs from the one
    before (Pillow merges an unchanged frame into the previous one, e.g. after a call that moves nothing).
    Returns the GIF's frame count. O(frames x pixels)."""
    from gridbot.render import raster

    film = render.film(level, program, frames)
    assert len(film) == min(frames, drawing.steps(level, program) + 1)
    pictures = [raster.image(s).tobytes() for s in film]
    distinct = 1 + sum(a != b for a, b in zip(pictures, pictures[1:], strict=False))
    n_frames = Image.open(io.BytesIO(render.gif(level, program, frames))).n_frames
    assert n_frames == distinct
    return n_frames
