"""Digests of what every game's parser, simulator and solver answer, to compare a refactor's steps by.

A refactor changes structure, not behaviour: run this before the first move and after every step, and compare
the lines. Each line is one game and one kind of answer, with a short hash of everything in it:

    python scripts/digests.py > before.txt      # before
    python scripts/digests.py | diff before.txt -   # after a step: no output, the same answers

What goes in: every bundled level's canonical text; for levels of each game that solve in well under a second
(bundled, and random levels from fixed seeds), the solver's status, length, program, lower bound and its
deterministic stats (node and candidate counts; nothing measured in seconds); and the command line's JSON
answers for a few commands. Solvers run in one process (`workers=1`) and RoboZZle without its time-driven
heuristics, so the counts are the same run after run. `--show` prints the answers themselves instead of hashes.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import gridbot
from gridbot import levels

GAMES = ("carrots", "pellet", "torch_cave", "bender", "lightbot", "robos_escape", "robozzle")

# Bundled levels each game's solver proves in well under a second in one process.
QUICK = {
    "carrots": [f"{i:02d}" for i in range(1, 13)],
    "pellet": ["ctf_example", "tunnel"],
    "torch_cave": ["prob16_sample"],
    "bender": None,  # all of them
    "lightbot": ["01", "02", "03", "04", "05", "07", "08", "09"],
    "robos_escape": ["02", "03", "04", "05"],
    "robozzle": ["16", "17", "18", "19", "20", "22", "23", "24", "26", "27", "28", "32", "34", "42", "43", "44"],
}
# (width, height, seeds) of the random levels per game: small enough to prove quickly
RANDOM = {
    "carrots": (4, 4, range(12)),
    "pellet": (5, 5, range(12)),
    "torch_cave": (7, 7, range(12)),
    "bender": (8, 8, range(12)),
    "lightbot": (4, 4, [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11]),  # seed 9 is long enough to start the timed look-ahead
    "robos_escape": (5, 5, range(8)),
    "robozzle": (5, 5, range(12)),
}
EXTRA = {"robozzle": {"beam": False}}  # the exact search alone: its nodes are the same run after run
CLI = [
    ["solve", "carrots", "carrots:7", "--json"],
    ["solve", "carrots", "carrots:3", "--all", "--json"],
    ["solve", "lightbot", "lightbot:5", "--json"],
    ["solve", "robozzle", "robozzle:16", "--json"],
    ["solve", "bender", "bender:11", "--json"],
    ["solve", "pellet", "pellet:tunnel", "--json"],
    ["solve", "torch_cave", "torch_cave:prob16_sample", "--json"],
    ["solve", "robos_escape", "robos_escape:3", "--json"],
    ["run", "carrots", "carrots:3", "LOOP{F R}", "--json"],
    ["run", "robozzle", "robozzle:16", "F1: F F1", "--json"],
    ["run", "lightbot", "lightbot:1", "main: FFX", "--json"],
]


def _module(game: str) -> Any:
    return importlib.import_module(f"gridbot.games.{game}")


def _solver(game: str) -> Callable[..., Any]:
    """The solver of `game`: gridbot.solve when the package has it, else the game module's own."""
    front = getattr(gridbot, "solve", None)
    if callable(front):
        return front
    return lambda level, **options: _module(game).solve(level, **options)


def _random_level(game: str, width: int, height: int, seed: int) -> Any:
    try:
        generate = importlib.import_module(f"gridbot.generate.{game}")
        return generate.random_level(width, height, seed)
    except ModuleNotFoundError:
        return _module(game).random_level(width, height, seed)


def _takes(game: str, option: str) -> bool:
    import inspect

    for path in (f"gridbot.solve.{game}", f"gridbot.solve.{game}.front"):
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError:
            continue
        if hasattr(module, "solve"):
            return option in inspect.signature(module.solve).parameters
    return False


UNSTABLE = ("beam_nodes",)  # counts of the time-driven heuristics: they hang on the machine's load


def _stable_stats(stats: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v for k, v in sorted(stats.items()) if "second" not in k and k not in UNSTABLE and not isinstance(v, float)
    }


def _answer(result: Any) -> dict[str, Any]:
    return {
        "status": str(result.status),
        "length": result.length,
        "solution": None if result.solution is None else str(result.solution),
        "lower_bound": result.lower_bound,
        "solutions": [str(s) for s in result.solutions],
        "capped": result.solutions_capped,
        "stats": _stable_stats(result.stats),
    }


def _solves(game: str) -> Iterator[tuple[str, Any]]:
    options: dict[str, Any] = dict(EXTRA.get(game, {}))
    if _takes(game, "workers"):
        options["workers"] = 1
    solve = _solver(game)
    names = QUICK[game] if QUICK[game] is not None else levels.names(game)
    for name in names:
        yield f"{game}:{name}", _answer(solve(gridbot.load(f"{game}:{name}"), **options))
    width, height, seeds = RANDOM[game]
    for seed in seeds:
        level = _random_level(game, width, height, seed)
        yield f"random {width}x{height} seed {seed}", {"level": str(level), **_answer(solve(level, **options))}


def _command() -> str:
    """The `gridbot` command of this interpreter's environment."""
    return os.path.join(os.path.dirname(sys.executable), "gridbot")


# RoboZZle's command runs its heuristics beside the exact search, on timers: which of them finds the program first,
# and so the program and the counts, hang on the machine's load; the answer's length and bound do not
SETTLED = {"robozzle": ("game", "level", "status", "length", "lower_bound")}


def _cli(command: list[str]) -> Any:
    done = subprocess.run([_command(), *command], capture_output=True, text=True, env={**os.environ, "CI": "true"})
    out: Any = done.stdout
    try:
        out = json.loads(done.stdout)
        out.pop("seconds", None)
        if isinstance(out.get("stats"), dict):
            out["stats"] = _stable_stats(out["stats"])
        if command[0] == "solve" and command[1] in SETTLED:
            out = {k: v for k, v in out.items() if k in SETTLED[command[1]]}
    except ValueError:
        pass
    return {"exit": done.returncode, "out": out, "err": done.stderr}


def _hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--show", action="store_true", help="print the answers, not their hashes")
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line answers")
    args = parser.parse_args()
    for game in args.games:
        texts = {name: str(gridbot.load(f"{game}:{name}")) for name in levels.names(game)}
        print(f"{game} levels {_hash(texts)}", flush=True)
        for name, answer in _solves(game):
            print(f"{game} solve {name}: {json.dumps(answer) if args.show else _hash(answer)}", flush=True)
    if not args.no_cli:
        for command in CLI:
            answer = _cli(command)
            print(f"cli {' '.join(command)}: {json.dumps(answer) if args.show else _hash(answer)}", flush=True)


if __name__ == "__main__":
    main()
