"""A Scene painted with Pillow: PNG and animated GIF bytes, no browser or SVG library needed.

Same input, same bytes: no timestamps or metadata are written, and the font is Pillow's own.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .scene import Circle, Line, Polygon, Rect, Scene, Text

FRAME_MS = 120  # a GIF frame's time on screen
LAST_FRAME_MS = 2000  # the last frame is held, so the end can be read


@functools.lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _width(w: float) -> int:
    return max(1, round(w))


def image(scene: Scene) -> Image.Image:
    """The scene painted on an RGB image of its size. O(pixels drawn)."""
    img = Image.new("RGB", (scene.width, scene.height), scene.background)
    draw = ImageDraw.Draw(img)
    for s in scene.shapes:
        if isinstance(s, Rect):
            box = (s.x, s.y, s.x + s.w - 1, s.y + s.h - 1)
            draw.rectangle(box, fill=s.fill, outline=s.stroke, width=_width(s.width) if s.stroke else 0)
        elif isinstance(s, Line):
            if len(s.points) >= 2:
                draw.line(list(s.points), fill=s.stroke, width=_width(s.width), joint="curve")
        elif isinstance(s, Polygon):
            draw.polygon(list(s.points), fill=s.fill, outline=s.stroke, width=_width(s.width) if s.stroke else 0)
        elif isinstance(s, Circle):
            box = (s.cx - s.r, s.cy - s.r, s.cx + s.r, s.cy + s.r)
            draw.ellipse(box, fill=s.fill, outline=s.stroke, width=_width(s.width) if s.stroke else 0)
        elif isinstance(s, Text):
            anchor = {"start": "lm", "middle": "mm", "end": "rm"}[s.anchor]
            draw.text((s.x, s.y), s.text, fill=s.fill, font=_font(max(6, round(s.size))), anchor=anchor)
    return img


def png(scene: Scene) -> bytes:
    """The scene as PNG bytes."""
    out = io.BytesIO()
    image(scene).save(out, format="PNG", optimize=False)
    return out.getvalue()


def _keys(img: Image.Image) -> np.ndarray:
    """Each pixel of an RGB image as one integer 0xRRGGBB, row by row."""
    rgb = np.asarray(img, dtype=np.uint32)
    return (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]


def indexed(scenes: Sequence[Scene]) -> list[Image.Image] | None:
    """The scenes painted as palette images sharing one palette of every colour they use, each pixel mapped
    exactly; None when they use more than a GIF's 256 colours. The palette grows in order of first use, so the
    same scenes give the same bytes and a frame's indices stay valid as later frames add colours. The drawings
    paint flat colours, so a run's frames usually fit, at a fraction of the time of a median cut per frame (and
    Pillow's own mapping onto a given palette is not exact). O(pixels); one byte a pixel is kept per frame."""
    palette = np.zeros(0, dtype=np.uint32)  # colour keys, in order of first use
    known: set[int] = set()
    pixels: list[tuple[tuple[int, int], np.ndarray]] = []
    for scene in scenes:
        img = image(scene)
        found = img.getcolors(maxcolors=256)
        if found is None:
            return None
        new = sorted({(r << 16) | (g << 8) | b for _, (r, g, b) in found} - known)
        if len(known) + len(new) > 256:
            return None
        known.update(new)
        palette = np.concatenate([palette, np.array(new, dtype=np.uint32)])
        keys = _keys(img)
        order = np.argsort(palette, kind="stable")
        index = order[np.searchsorted(palette, keys, sorter=order)]
        pixels.append(((keys.shape[1], keys.shape[0]), index.astype(np.uint8)))
    flat = [int(v) for c in palette for v in ((c >> 16) & 255, (c >> 8) & 255, c & 255)]
    frames = []
    for size, index in pixels:
        frame = Image.frombytes("P", size, index.tobytes())
        frame.putpalette(flat)
        frames.append(frame)
    return frames


def gif(scenes: Sequence[Scene], frame_ms: int = FRAME_MS, last_ms: int = LAST_FRAME_MS) -> bytes:
    """The scenes as an animated GIF that loops, one frame each, the last held `last_ms`. O(frames x pixels)."""
    if not scenes:
        raise ValueError("a GIF needs at least one frame")
    frames = indexed(scenes)
    if frames is None:  # more colours than a GIF holds (e.g. much anti-aliased text): each frame its own 256
        frames = [
            image(s).quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) for s in scenes
        ]
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   disposal=1, optimize=False)  # fmt: skip
    return out.getvalue()
