"""The slot editor of the playground: the program games' functions as rows of slots, and a palette to fill them.

RoboZZle's F1..F5 (as many slots as the puzzle gives each, a colour condition per slot, paints only where the
puzzle allows them) and Light-Bot's main, f1, f2 (12, 8 and 8 slots) are built on robozzle.com and in Light-Bot
by clicking a slot and picking a command. `layout` says what the page draws for a level: the rows, the commands
of the palette (each with the token the program's text form writes for it) and the colour conditions; `slots`
reads a parsed program into those rows. The page writes the text back from the rows with the layout's labels and
separators; `text` does the same here, and the tests hold both to `str(program)`, the game's own canonical form.

>>> from gridbot import levels
>>> from gridbot.games import lightbot
>>> shape = layout(lightbot, levels.load("lightbot:01"))
>>> [(row["name"], row["slots"]) for row in shape["functions"]]
[('main', 12), ('f1', 8), ('f2', 8)]
>>> rows = slots(lightbot, lightbot.parse_program("main: FJ1 f1: X"))
>>> rows[0], text(shape, rows)
([{'op': 'F', 'cond': ''}, {'op': 'J', 'cond': ''}, {'op': '1', 'cond': ''}], 'main: FJ1 f1: X')

Robo's Escape is a program game too, but of another shape (one string whose functions are defined inline by
`'n` marks, with no slots): its program is typed as text only.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from gridbot.games import lightbot, robozzle

COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue"}


def _command(op: str, label: str, symbol: str, key: str) -> dict[str, str]:
    return {"op": op, "label": label, "symbol": symbol, "key": key}


def _robozzle(level: robozzle.Level) -> dict[str, Any]:
    functions = [
        {"name": f"F{n + 1}", "label": f"F{n + 1}:", "slots": level.slots[n]} for n in range(robozzle.FUNCTIONS)
    ]
    commands = [_command("F", "forward", "↑", "f"), _command("L", "turn left", "↰", "l"),
                _command("R", "turn right", "↱", "R")]  # fmt: skip
    commands += [_command(f"F{n + 1}", f"call F{n + 1}", f"F{n + 1}", str(n + 1))
                 for n in range(robozzle.FUNCTIONS) if level.slots[n]]  # fmt: skip
    commands += [_command(f"P{c}", f"paint {COLOUR_NAMES[c]}", "●", "") for c in robozzle.COLOURS if c in level.paints]
    conditions = [{"cond": "", "label": "any colour", "key": "n"}]
    conditions += [{"cond": c, "label": f"only on {COLOUR_NAMES[c]}", "key": c.lower()} for c in robozzle.COLOURS]
    symbols = {c["op"]: c["symbol"] for c in commands}
    symbols |= {f"F{n + 1}": f"F{n + 1}" for n in range(robozzle.FUNCTIONS)} | {f"P{c}": "●" for c in robozzle.COLOURS}
    return {"functions": functions, "commands": commands, "conditions": conditions, "symbols": symbols,
            "joiner": " ", "separator": " | ", "always": []}  # fmt: skip


def _lightbot() -> dict[str, Any]:
    functions = [{"name": name, "label": f"{name}:", "slots": slots} for name, slots in lightbot.LIMITS.items()]
    commands = [_command("F", "walk forward", "↑", "f"), _command("J", "jump", "⤒", "j"),
                _command("L", "turn left", "↰", "l"), _command("R", "turn right", "↱", "r"),
                _command("X", "light", "✦", "x"), _command("1", "call f1", "f1", "1"),
                _command("2", "call f2", "f2", "2")]  # fmt: skip
    symbols = {c["op"]: c["symbol"] for c in commands}
    return {"functions": functions, "commands": commands, "conditions": [], "symbols": symbols, "joiner": "",
            "separator": " ", "always": ["main"]}  # fmt: skip


def layout(module: ModuleType, level: Any) -> dict[str, Any] | None:
    """What the slot editor shows for `level` of game `module`, or None for a game whose programs are typed only.

    Returns {functions: [{name, label, slots}] (every function, 0 slots for one the level lacks), commands:
    [{op, label, symbol, key}] (op: the token of the text form; only calls of functions the level has and the
    paints it allows), conditions: [{cond, label, key}] (none for Light-Bot), symbols: {op: symbol} (of every
    command, also those the palette leaves out, which a typed program may hold), joiner (between a function's
    commands), separator (between functions), always (functions written even when empty)}. O(functions).
    """
    if module is robozzle:
        return _robozzle(level)
    if module is lightbot:
        return _lightbot()
    return None


def slots(module: ModuleType, program: Any) -> list[list[dict[str, str]]]:
    """The commands of each function of `program` as [{op, cond}], op the text form's token (F, F2, PR...) and
    cond "", "R", "G" or "B": in the order of layout's functions. O(size)."""
    if module is robozzle:
        return [[{"op": str(robozzle.Command(c.op)), "cond": c.cond} for c in body] for body in program.functions]
    if module is lightbot:
        return [[{"op": op, "cond": ""} for op in program.body(n)] for n in range(len(lightbot.LIMITS))]
    raise ValueError(f"{module.NAME} has no slot editor")


def text(shape: dict[str, Any], rows: list[list[dict[str, str]]]) -> str:
    """The program's text from its rows, as the page writes it: '' when every slot is empty. O(size)."""
    if not any(rows):
        return ""
    parts = []
    for function, row in zip(shape["functions"], rows, strict=True):
        if row or function["name"] in shape["always"]:
            body = shape["joiner"].join(slot["cond"].lower() + slot["op"] for slot in row)
            parts.append(f"{function['label']} {body}")
    return shape["separator"].join(parts)


__all__ = ["layout", "slots", "text"]
