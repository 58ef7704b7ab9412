"""Rebuild gridbot's bundle of RoboZZle puzzles from the site's API files.

    python scripts/bundle_robozzle.py ../shared/levels/robozzle/puzzles
    python scripts/bundle_robozzle.py ../shared/levels/robozzle/later later

Writes src/gridbot/data/robozzle/levels.json.gz (the main set), or SET.json.gz for a second set: {puzzle id: the
puzzle in gridbot's text form (title and author included)}, for every file that holds a puzzle (the API's `null`
files are left out). Each puzzle is checked to read back to the same level from the text form."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from gridbot.errors import LevelError
from gridbot.games import robozzle

DATA = Path(__file__).resolve().parent.parent / "src" / "gridbot" / "data" / "robozzle"


def main(folder: str, level_set: str = "main") -> int:
    out = DATA / ("levels.json.gz" if level_set == "main" else f"{level_set}.json.gz")
    bundle = {}
    for path in sorted(Path(folder).glob("*.json"), key=lambda p: int(p.stem)):
        try:
            level = robozzle.Level.parse(path.read_text(), name=path.stem)
        except LevelError as exc:
            print(f"left out {path.name}: {exc.message}", file=sys.stderr)
            continue
        text = str(level)
        if robozzle.Level.parse(text, name=path.stem) != level:
            raise AssertionError(f"{path.name} does not read back from its text form")
        bundle[path.stem] = text
    out.write_bytes(gzip.compress(json.dumps(bundle, ensure_ascii=False).encode(), mtime=0))
    print(f"{len(bundle)} puzzles, {out.stat().st_size:,} bytes -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(sys.argv[1:] or ["../shared/levels/robozzle/puzzles"])))
