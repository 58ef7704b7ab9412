"""A Scene as SVG text, with the standard library only; the same Scene always gives the same bytes.

>>> from gridbot.render.scene import Rect, Scene
>>> print(to_svg(Scene(4, 2, (Rect(0, 0, 2, 2, fill="#ff0000"),))).splitlines()[2])
<rect width="4" height="2" fill="#ffffff"/>
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .scene import Circle, Line, Polygon, Rect, Scene, Shape, Text


def _n(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros (deterministic and short)."""
    text = f"{round(float(value), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return out


def _cls(name: str) -> str:
    return f' class="{name}"' if name else ""


def _points(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def shape_svg(shape: Shape) -> str:
    """One shape as one SVG element."""
    if isinstance(shape, Rect):
        return (f'<rect{_cls(shape.cls)} x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" '
                f'height="{_n(shape.h)}"{_paint(shape.fill, shape.stroke, shape.width)}/>')  # fmt: skip
    if isinstance(shape, Line):
        return (f'<polyline{_cls(shape.cls)} points="{_points(shape.points)}" fill="none" stroke="{shape.stroke}" '
                f'stroke-width="{_n(shape.width)}" stroke-linejoin="round" stroke-linecap="round"/>')  # fmt: skip
    if isinstance(shape, Polygon):
        paint = _paint(shape.fill, shape.stroke, shape.width)
        return f'<polygon{_cls(shape.cls)} points="{_points(shape.points)}"{paint}/>'
    if isinstance(shape, Circle):
        return (f'<circle{_cls(shape.cls)} cx="{_n(shape.cx)}" cy="{_n(shape.cy)}" r="{_n(shape.r)}"'
                f'{_paint(shape.fill, shape.stroke, shape.width)}/>')  # fmt: skip
    if isinstance(shape, Text):
        return (f'<text{_cls(shape.cls)} x="{_n(shape.x)}" y="{_n(shape.y)}" font-size="{_n(shape.size)}" '
                f'fill="{shape.fill}" text-anchor="{shape.anchor}" dominant-baseline="central" '
                f'font-family="DejaVu Sans, Arial, sans-serif">{escape(shape.text)}</text>')  # fmt: skip
    raise TypeError(f"not a shape: {shape!r}")


def to_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document (one element per line). O(shapes)."""
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}">',
        f"<title>{escape(scene.caption)}</title>" if scene.caption else "<title>gridbot</title>",
        f'<rect width="{scene.width}" height="{scene.height}" fill="{scene.background}"/>',
    ]
    if scene.board is not None:
        b = scene.board
        lines.append(f"<desc>board {b.rows} {b.cols} {b.cell} {b.x0} {b.y0}</desc>")
    lines.extend(shape_svg(shape) for shape in scene.shapes)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


__all__ = ["to_svg", "shape_svg", "quoteattr"]
