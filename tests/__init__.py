"""gridbot's tests, by game (games/<game>/) and by kind (the other folders); tests/README.md is the map.

ROOT is the repository, SRC its source folder: tests that start a child process put SRC on its PYTHONPATH.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
