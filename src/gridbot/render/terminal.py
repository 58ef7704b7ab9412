"""A level in the terminal: its own text, the board's rows coloured with rich (`gridbot show`).

>>> import gridbot
>>> text = board_text(gridbot.load("carrots:2"))
>>> text.plain.splitlines()[0]
'S##'
>>> any(span.style for span in text.spans)
True

The text printed is the level's own text form (`str(level)`, what a level file holds), so what a person reads
here is what the game's page in docs/ describes and what they may paste back as a level. A line made only of a
game's board characters (and spaces) is a row of the board and is coloured; header and comment lines (RoboZZle's
`title:`, Bender's `L C`, Light-Bot's `;`) are left plain.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from gridbot import games

_WALL = "on #616161"
_ROBOT = "bold black on #4dd0e1"
_GOAL = "bold black on #ffd54f"

# character -> rich style, per game: presentation only (the rules stay in the game modules)
STYLES: dict[str, dict[str, str]] = {
    "carrots": {"#": "black on #9ccc65", "O": "black on #ff9800", "S": "bold black on #ff9800"},
    "pellet": {".": "bold #ffd54f", "#": "on #3949ab", "S": _ROBOT},
    "torch_cave": {
        **{ch: _WALL for ch in "x|-"},
        "t": "bold #ff9800",
        "T": _GOAL,
        "H": _ROBOT,
    },
    "bender": {
        "#": _WALL,
        "X": "bold white on #8d6e63",
        "@": _ROBOT,
        "$": _GOAL,
        **{ch: "bold #ce93d8" for ch in "NESW"},
        "I": "bold #80deea",
        "B": "bold #ffb300",
        "T": "bold #81c784",
    },
    "lightbot": {
        # heights 0..9 shaded from dark to light, as stacks seen from above
        **{str(h): f"black on #{0x50 + 0x14 * h:02x}{0x50 + 0x14 * h:02x}{0x50 + 0x14 * h:02x}" for h in range(10)},
        "*": "bold #ffd54f",
        **{ch: "bold #4dd0e1" for ch in "^>v<"},
        ".": "#757575",
    },
    "robos_escape": {
        "X": _WALL,
        "C": "bold #ffd54f",
        "O": "black on #8d6e63",
        "E": "bold black on #81c784",
        "S": _ROBOT,
        **{ch: "#e57373" for ch in "-.x"},
    },
    "robozzle": {
        # upper case: a tile with a star on it
        "r": "on #c62828",
        "g": "on #2e7d32",
        "b": "on #1565c0",
        "R": "bold #ffeb3b on #c62828",
        "G": "bold #ffeb3b on #2e7d32",
        "B": "bold #ffeb3b on #1565c0",
        ".": "#616161",
    },
}


def board_text(level: Any, game: str | None = None) -> Text:
    """The level's text (`str(level)`) as rich Text, each board row's characters styled by STYLES[game] (the
    level's own game by default); one span per run of equal characters. O(characters)."""
    name = games.get(game).NAME if game else type(level).__module__.rsplit(".", 1)[-1]
    styles = STYLES.get(name, {})
    board = set(styles) | {" "}
    out = Text()
    for number, line in enumerate(str(level).splitlines()):
        if number:
            out.append("\n")
        if not styles or not set(line) <= board:
            out.append(line)
            continue
        start = 0
        while start < len(line):
            end = start + 1
            while end < len(line) and line[end] == line[start]:
                end += 1
            out.append(line[start:end], style=styles.get(line[start]) or None)
            start = end
    return out


__all__ = ["STYLES", "board_text"]
