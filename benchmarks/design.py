"""Benchmark: the level designer's tools, levels made to order per minute and the analysis of the bundled levels.

    python benchmarks/design.py [make|analyze|both] [--count N] [--time-limit S] [--games G,G] [--csv FILE]

`make`: for each game and request of ORDERS (two or more pars or sizes, with `--unique` and without), `count`
levels made by `gridbot.generate` in this process from seed 0, stopped at `--time-limit` seconds a request; the
rate is levels made per minute of wall time (every level's par proven, read back from its text, as the command
does). `analyze`: `gridbot.analyze` of the bundled levels of each game (ANALYSED: every level, or those whose par is
proven in seconds; Light-Bot 6 and 10-12 are long proofs, for the solver's benchmark), the time of each and the
counts it reports. Kernels are compiled before any clock starts.
`--csv FILE`: one row per request or level (COLUMNS, then the run's date, machine, cores, Python, commit and
command line: benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import time

import _results
import gridbot
from gridbot import levels
from gridbot.solve import solver

COLUMNS = ("what", "game", "request", "made", "tried", "seconds", "per_minute", "status", "par", "programs",
           "behaviours", "candidates")  # fmt: skip
# (game, par, size, options): two or more pars or sizes per game, with and without uniqueness where it applies
ORDERS: tuple[tuple[str, int | None, tuple[int, int] | None, dict[str, object]], ...] = (
    ("carrots", 6, None, {}),
    ("carrots", 6, None, {"unique": True}),
    ("carrots", 8, None, {}),
    ("carrots", 7, None, {"unique": True}),
    ("carrots", 8, None, {"unique": True}),
    ("lightbot", 6, None, {}),
    ("lightbot", 8, None, {}),
    ("lightbot", 10, None, {}),
    ("lightbot", 6, None, {"unique": True}),
    ("lightbot", 8, None, {"unique": True}),
    ("robozzle", 4, None, {}),
    ("robozzle", 6, None, {}),
    ("robozzle", 8, None, {}),
    ("robozzle", 4, None, {"unique": True}),
    ("robozzle", 6, None, {"unique": True}),
    ("pellet", None, (24, 24), {"unique": True}),
    ("pellet", None, (12, 12), {"unique": True}),
    ("pellet", None, (12, 12), {"none": True}),
    ("torch_cave", None, (12, 12), {"torches": 1}),
    ("torch_cave", None, (16, 16), {"torches": 2}),
    ("torch_cave", None, (32, 32), {"torches": 4}),
)
ANALYSED = {
    "carrots": None, "pellet": None, "torch_cave": None, "bender": None,
    "lightbot": ("01", "02", "03", "04", "05", "07", "08", "09"), "robos_escape": ("01", "03"),
    "robozzle": ("14", "15", "16", "17", "18", "19", "20", "21", "22", "23"),
}  # fmt: skip


def request_text(game: str, par: int | None, size: tuple[int, int] | None, options: dict[str, object]) -> str:
    """The request as its command line: `generate carrots --par 8 --unique`."""
    words = ["generate", game]
    words += [] if par is None else ["--par", str(par)]
    words += [] if size is None else ["--size", f"{size[0]}x{size[1]}"]
    for name, value in options.items():
        words += [f"--{name}"] if value is True else [f"--{name}", str(value)]
    return " ".join(words)


def make(games: set[str], count: int, limit: float, out: _results.Rows) -> None:
    print(f"{'request':<50} {'made':>5} {'tried':>6} {'seconds':>8} {'per min':>8}")
    for game, par, size, options in ORDERS:
        if game not in games:
            continue
        request = request_text(game, par, size, options)
        heard: dict[str, object] = {"tried": 0}
        started = time.monotonic()
        made = gridbot.generate(game, par, size=size, seed=0, count=count, time_limit=limit, progress=heard.update,
                                **options)  # type: ignore[arg-type]  # fmt: skip
        seconds = time.monotonic() - started
        tried = int(heard["tried"])  # type: ignore[call-overload]
        rate = 60 * len(made) / seconds if seconds else 0.0
        print(f"{request:<50} {len(made):>5} {tried:>6} {seconds:>8.1f} {rate:>8.1f}")
        out.add({"what": "make", "game": game, "request": request, "made": len(made), "tried": tried,
                     "seconds": round(seconds, 3), "per_minute": round(rate, 2)})  # fmt: skip


def analyse(games: set[str], limit: float, out: _results.Rows) -> None:
    print(f"\n{'level':<28} {'status':>9} {'par':>4} {'programs':>9} {'behaviours':>10} {'seconds':>8}")
    for game, chosen in ANALYSED.items():
        if game not in games:
            continue
        names = chosen or levels.names(game)
        total = 0.0
        for name in names:
            level = gridbot.load(f"{game}:{name}")
            found = gridbot.analyze(level, time_limit=limit)
            total += found.seconds
            programs = f"{found.programs}{'+' if found.programs_capped else ''}"
            behaviours = f"{found.behaviours}{'+' if found.behaviours_capped else ''}"
            par = "-" if found.par is None else found.par
            print(f"{found.level:<28} {found.status!s:>9} {par!s:>4} {programs:>9} {behaviours:>10} "
                  f"{found.seconds:>8.2f}")  # fmt: skip
            out.add({"what": "analyze", "game": game, "request": f"analyze {game} {found.level}", "made": "",
                         "tried": "", "seconds": round(found.seconds, 3), "per_minute": "", "status": found.status,
                         "par": found.par, "programs": programs, "behaviours": behaviours,
                         "candidates": found.candidates})  # fmt: skip
        print(f"{game + ': ' + str(len(names)) + ' levels':<28} {'':>9} {'':>4} {'':>9} {'':>10} {total:>8.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=("make", "analyze", "both"), default="both")
    parser.add_argument("--count", type=int, default=5, help="levels per request (default 5)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per request or level (120)")
    parser.add_argument("--games", help="a comma-separated list of games (default: all)")
    parser.add_argument("--csv", help="write every measurement to this file")
    args = parser.parse_args()
    chosen = set(args.games.split(",")) if args.games else set(ANALYSED)
    for game in sorted(chosen):
        solver(game).warm_up()
    with _results.rows(args.csv, COLUMNS) as out:
        if args.what in ("make", "both"):
            make(chosen, args.count, args.time_limit, out)
        if args.what in ("analyze", "both"):
            analyse(chosen, args.time_limit, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
