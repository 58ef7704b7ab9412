"""Draw the pictures of the docs: one per game, a small bundled level with its solver's winning program.

Run from the repository's root (`python docs/make_pictures.py`); it writes `docs/pictures/<game>.svg` through
`gridbot.render.svg`. Each level below is one its solver proves optimal in about a second, and the solvers and
the SVG writer are deterministic, so a rerun writes byte-identical files. A game without a drawing module
(`gridbot/render/<game>.py`) yet is skipped, and the script says so.

>>> picture("carrots", "carrots:1").startswith("<svg")
True
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gridbot
from gridbot import render

OUT = Path(__file__).resolve().parent / "pictures"
# the level drawn per game: small, typical, and proven in about a second (no time limit is given, so that the
# program drawn never depends on how fast the machine is)
PICTURES = {
    "carrots": "carrots:12",
    "pellet": "pellet:tunnel",
    "torch_cave": "torch_cave:prob16_sample",
    "bender": "bender:06",
    "lightbot": "lightbot:05",
    "robos_escape": "robos_escape:03",
    "robozzle": "robozzle:27",
}


def picture(game: str, level_name: str) -> str | None:
    """The SVG of `level_name` with its solver's program drawn (the level alone when there is none), or None
    when the game has no drawing module yet. O(the solve + the run drawn)."""
    if not render.has_drawing(game):
        return None
    level = gridbot.load(level_name)
    result = gridbot.solve(level)
    program = result.solution if result.status in ("optimal", "solved") else None
    return render.svg(level, program)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help=f"only these games (default: all of {', '.join(PICTURES)})"
    )
    chosen = parser.parse_args(argv).games or list(PICTURES)
    unknown = [game for game in chosen if game not in PICTURES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}")
    OUT.mkdir(exist_ok=True)
    for game in chosen:
        svg = picture(game, PICTURES[game])
        if svg is None:
            print(f"{game}: skipped, gridbot/render/{game}.py does not exist yet")
            continue
        path = OUT / f"{game}.svg"
        path.write_text(svg, encoding="utf-8")
        print(f"{game}: {PICTURES[game]} -> {path.relative_to(OUT.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
