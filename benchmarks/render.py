"""Benchmark: pictures of every game with a drawing (gridbot.render).

    python benchmarks/render.py                  # every game with a drawing module
    python benchmarks/render.py carrots pellet   # some games
    python benchmarks/render.py --repeat 5       # best of 5 timings (default 3)
    python benchmarks/render.py --csv benchmarks/results/render-$(date +%F).csv   # also the rows as CSV

Per game, two figures:

- the largest bundled board (most cells): the time to draw it as SVG text and as PNG bytes (the level alone,
  best of --repeat, after one warm-up call);
- a 1,000-step run: the time to draw its animated GIF (MAX_FRAMES frames sampled over steps 0..1,000, the last
  held) and the GIF's size. The run is a long program built here, not a solution of anything: a serpentine path
  over an open board (Pellet, Torch cave with a torch every ten steps), a corridor winding through a map (Bender),
  a loop that turns on the spot (RoboZZle, Robo's Escape), a staircase (Carrots), a recursion (Light-Bot, on
  lightbot:08). A game whose drawing follows a shorter run (e.g. one the simulator proves endless early) shows
  the steps it drew.

A game without a drawing module (gridbot/render/GAME.py) is listed as such. Output: one Markdown table; with `--csv
FILE` also one row per game (COLUMNS: seconds and bytes rather than the table's ms and KB; a game without a drawing
leaves them empty), then the run's date, machine, cores, Python, commit and command line (benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import _results
import gridbot
from gridbot import games, levels, render
from gridbot.render import raster

RUN_STEPS = 1000
SIDE = 32  # the generated boards: 32 x 32 cells, a 1,023-move serpentine
COLUMNS = ("game", "level", "board", "svg_seconds", "svg_bytes", "png_seconds", "png_bytes", "run_on", "steps",
           "gif_frames", "gif_bytes", "gif_seconds", "repeat")  # fmt: skip


def serpentine_moves(side: int) -> str:
    """Moves u d l r that visit every cell of an open side x side board from the top-left corner, row by row."""
    moves = []
    for r in range(side):
        moves.append(("r" if r % 2 == 0 else "l") * (side - 1))
        if r < side - 1:
            moves.append("d")
    return "".join(moves)


def serpentine_cells(side: int) -> list[tuple[int, int]]:
    return [(r, c if r % 2 == 0 else side - 1 - c) for r in range(side) for c in range(side)]


def pellet_run() -> tuple[Any, str]:
    rows = ["S" + "." * (SIDE - 1)] + ["." * SIDE for _ in range(SIDE - 1)]
    return games.get("pellet").Level.parse("\n".join(rows), name="open 32x32"), serpentine_moves(SIDE)


def torch_run() -> tuple[Any, str]:
    grid = [[" "] * SIDE for _ in range(SIDE)]
    path = serpentine_cells(SIDE)
    for k, (r, c) in enumerate(path):
        if k % 10 == 9:  # a torch every ten steps: the light (15) never runs out
            grid[r][c] = "t"
    grid[0][0] = "H"
    r, c = path[-1]
    grid[r][c] = "T"
    level = games.get("torch_cave").Level.parse("\n".join("".join(row) for row in grid), name="open 32x32")
    return level, serpentine_moves(SIDE)


def bender_run(side: int = 48) -> tuple[Any, str]:
    """Corridors on the even rows joined by a gap at alternate ends; modifiers at the corners turn Bender round;
    the booth at the end of the last corridor (1,103 moves on a 48 x 48 map)."""
    inner = side - 2
    grid = [[" "] * inner for _ in range(inner)]
    for r in range(1, inner - 1, 2):
        gap = inner - 1 if (r // 2) % 2 == 0 else 0
        for c in range(inner):
            if c != gap:
                grid[r][c] = "#"
    for r in range(2, inner, 2):
        grid[r][inner - 1 if (r // 2) % 2 == 1 else 0] = "W" if (r // 2) % 2 == 1 else "E"
    grid[0][0] = "@"
    last = inner - 2 if (inner - 2) % 2 == 0 else inner - 1
    grid[last][inner - 1 if (last // 2) % 2 == 0 else 0] = "$"
    rows = ["#" * side] + ["#" + "".join(row) + "#" for row in grid] + ["#" * side]
    return games.get("bender").Level.parse("\n".join(rows), name=f"serpentine {side}x{side}"), ""


RUNS: dict[str, Callable[[], tuple[Any, str]]] = {
    "carrots": lambda: (gridbot.load("carrots:07"), f"LOOP({RUN_STEPS // 4}){{F R F L}}"),
    "pellet": pellet_run,
    "torch_cave": torch_run,
    "bender": bender_run,
    # found by a random search of short recursions: 2,689 steps before the simulator sees a state again
    "lightbot": lambda: (gridbot.load("lightbot:08"), "main: 1 f1: X222R221 f2: FJLJJLRL"),
    "robos_escape": lambda: (gridbot.load("robos_escape:01"), "L."),
    "robozzle": lambda: (gridbot.load("robozzle:15"), "F1: L F1"),
}


def cells(level: Any) -> int:
    return len(level.rows) * max(len(row) for row in level.rows)


def best(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest of `repeat` timings of work() (after one call to warm up), and its result."""
    result = work()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return min(times), result


def largest(game: str) -> str:
    return max(levels.names(game), key=lambda name: cells(gridbot.load(f"{game}:{name}")))


def measure(game: str, repeat: int) -> dict[str, Any]:
    """The game's row (COLUMNS); only the game's name when it has no drawing."""
    if importlib.util.find_spec(f"gridbot.render.{game}") is None:
        return {"game": game}
    module = games.get(game)
    name = largest(game)
    level = gridbot.load(f"{game}:{name}")
    svg_s, text = best(repeat, lambda: render.svg(level))
    png_s, png = best(repeat, lambda: render.png(level))
    run_level, program_text = RUNS[game]()
    program = module.parse_program(program_text)
    drawing = render.drawing(run_level)

    def gif() -> tuple[int, int, bytes]:
        last = min(drawing.steps(run_level, program), RUN_STEPS)
        at = render.frame_steps(last, render.MAX_FRAMES)
        return last, len(at), raster.gif(drawing.draw(run_level, program, at))

    gif_s, (last, frames, data) = best(max(1, repeat // 2), gif)
    board = f"{max(len(row) for row in level.rows)}x{len(level.rows)}"  # width x height, as `gridbot levels`
    return {"game": game, "level": name, "board": board, "svg_seconds": svg_s, "svg_bytes": len(text),
            "png_seconds": png_s, "png_bytes": len(png), "run_on": run_level.name, "steps": last, "gif_frames": frames,
            "gif_bytes": len(data), "gif_seconds": gif_s, "repeat": repeat}  # fmt: skip


def table_line(row: dict[str, Any]) -> str:
    """The Markdown line of a row of `measure`."""
    game = row["game"]
    if "level" not in row:
        return f"| {game} | no drawing yet |" + " |" * 7
    return (
        f"| {game} | {game}:{row['level']} ({row['board']}) | {row['svg_seconds'] * 1000:.1f} "
        f"({row['svg_bytes'] / 1024:.0f} KB) | {row['png_seconds'] * 1000:.1f} ({row['png_bytes'] / 1024:.0f} KB) | "
        f"{row['run_on']} | {row['steps']} | {row['gif_frames']} | {row['gif_bytes'] / 1024:.0f} | "
        f"{row['gif_seconds']:.2f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(games.GAMES), help="games (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="timings per figure; the best is shown")
    parser.add_argument("--csv", default=None, help="also write one row per game to this CSV file")
    args = parser.parse_args(argv)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# benchmarks/render.py {' '.join(argv or sys.argv[1:])}".rstrip() + f" ({when})")
    print(f"# python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, best of {args.repeat}")
    print("| game | largest board | SVG ms (size) | PNG ms (size) | run on | steps | GIF frames | GIF KB | GIF s |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    with _results.rows(args.csv, COLUMNS) as out:
        for game in args.games:
            row = measure(games.get(game).NAME, args.repeat)
            print(table_line(row), flush=True)
            out.add({key: round(value, 6) if isinstance(value, float) else value for key, value in row.items()})


if __name__ == "__main__":
    sys.exit(main())
