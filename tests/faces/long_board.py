"""A Carrots board whose proof takes minutes but whose first program comes in a second: for the tests that stop a
solve part way (Ctrl-C, SIGTERM) and need it still searching when the signal comes.

A full rectangle does not serve: the solver proves a 30 x 30 one in about 5 s. Voids scattered over the board make
its shortest program long (the best found within seconds has over twenty tokens).
"""

from __future__ import annotations

from pathlib import Path

SIDE = 14


def text() -> str:
    """14 x 14 squares, a void wherever (3 r^2 + 5 c) mod 13 is 0, the start in the top left corner."""
    rows = ["".join(" " if (3 * r * r + 5 * c) % 13 == 0 else "#" for c in range(SIDE)) for r in range(SIDE)]
    return "S" + "\n".join(rows)[1:] + "\n"


def write(folder: Path, name: str) -> str:
    """The board written to `folder`/`name`; its path."""
    path = folder / name
    path.write_text(text())
    return str(path)
