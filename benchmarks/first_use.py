"""Benchmark: the first and the second solve of each game on a machine that never compiled its kernels, and the
start-up of the commands that need no kernel.

    python benchmarks/first_use.py [--src PATH] [--repeat N] [--csv FILE]

For each game, its first bundled level is solved three times by the `gridbot` command in a fresh process with a
fresh cache (numba's and gridbot's, in a temporary folder: what a fresh installation has): first with no time
limit, then again (warm), and, with another fresh cache, once with `--time-limit 1` (does the first solve keep its
limit?). Then the start-up of `--help`, `levels`, `show` and `run` (best of `--repeat` fresh processes), and
whether each imported numba. `--src PATH` runs another checkout's code (its `src` folder) with this interpreter,
for a side-by-side run against the code before a change. `--csv FILE`: one row per measurement (COLUMNS, then the
run's date, machine, cores, Python, commit and command line: benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _results

COLUMNS = ("what", "game", "command", "seconds", "status", "numba")
FIRST = {
    "carrots": "carrots:1", "pellet": "pellet:tunnel", "torch_cave": "torch_cave:prob16_sample",
    "bender": "bender:01", "lightbot": "lightbot:1", "robos_escape": "robos_escape:3", "robozzle": "robozzle:16",
}  # fmt: skip
STARTUP = (["--help"], ["levels", "carrots"], ["show", "carrots", "carrots:1"], ["run", "carrots", "carrots:3", "F"])
CLI = "import sys; from gridbot.cli import main; main(sys.argv[1:])"
NUMBA = "import sys, atexit; atexit.register(lambda: print('numba' in sys.modules, file=sys.stderr))"


def gridbot(src: str | None, cache: str, *args: str) -> tuple[float, str, str]:
    """(wall seconds, stdout, stderr) of one `gridbot ARGS` in a fresh process with `cache` as its caches."""
    env = {**os.environ, "XDG_CACHE_HOME": f"{cache}/xdg", "NUMBA_CACHE_DIR": f"{cache}/numba"}
    if src:
        env["PYTHONPATH"] = src
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", f"{NUMBA}; {CLI}", *args], env=env, capture_output=True, text=True)
    return time.monotonic() - started, done.stdout, done.stderr


def status_of(stdout: str) -> str:
    try:
        return str(json.loads(stdout.splitlines()[0])["status"])
    except (ValueError, IndexError, KeyError):
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="the src folder of another checkout to run instead")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per start-up (best of; default 5)")
    parser.add_argument("--csv", help="write every measurement to this file")
    args = parser.parse_args()
    rows = []
    print(f"{'game':<13} {'first s':>8} {'second s':>9} {'first, limit 1 s':>17}  status")
    for game, level in FIRST.items():
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as limited:
            first, out1, _ = gridbot(args.src, cache, "solve", game, level, "--json")
            second, out2, _ = gridbot(args.src, cache, "solve", game, level, "--json")
            capped, out3, _ = gridbot(args.src, limited, "solve", game, level, "--json", "--time-limit", "1")
        print(f"{game:<13} {first:>8.2f} {second:>9.2f} {capped:>17.2f}  {status_of(out3)}")
        for what, seconds, out in (("first", first, out1), ("second", second, out2), ("first, limit 1", capped, out3)):
            rows.append({"what": what, "game": game, "command": f"solve {game} {level}", "seconds": round(seconds, 3),
                         "status": status_of(out), "numba": ""})  # fmt: skip
    print(f"\n{'start-up':<40} {'best s':>7}  numba")
    with tempfile.TemporaryDirectory() as cache:
        for command in STARTUP:
            runs = [gridbot(args.src, cache, *command) for _ in range(args.repeat)]
            best = min(seconds for seconds, _, _ in runs)
            numba = runs[0][2].strip().splitlines()[-1] if runs[0][2].strip() else "?"
            print(f"{' '.join(command):<40} {best:>7.3f}  {numba}")
            rows.append({"what": "start-up", "game": "", "command": " ".join(command), "seconds": round(best, 3),
                         "status": "", "numba": numba})  # fmt: skip
    if args.csv:
        _results.write(Path(args.csv), COLUMNS, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
