"""Benchmark: solve the 12 Carrots boards of the Code Golf challenge, each proven optimal.

    python benchmarks/carrots.py            # compiled kernels (numba), the default
    python benchmarks/carrots.py --no-jit   # the same kernels run as plain Python
    python benchmarks/carrots.py 7 8 12     # some boards only
    python benchmarks/carrots.py --csv benchmarks/results/carrots-$(date +%F).csv

Prints per board the tokens, status, candidates examined and seconds, then the
totals. The numba compile/cache-load time is measured apart, before the boards
(it is paid once per process, not per board). `--csv FILE` also writes one row
per board (COLUMNS, then the run's date, machine, cores, Python, commit and
command line: benchmarks/_results.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import warnings

import _results

COLUMNS = ("game", "level", "squares", "status", "length", "candidates", "seconds", "program", "kernels", "time_limit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("boards", nargs="*", type=int, default=list(range(1, 13)))
    parser.add_argument("--no-jit", action="store_true", help="run the kernels as plain Python (NUMBA_DISABLE_JIT=1)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per board")
    parser.add_argument("--csv", default=None, help="also write one row per board to this CSV file")
    args = parser.parse_args()
    if args.no_jit and os.environ.get("NUMBA_DISABLE_JIT") != "1":
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
        sys.exit(subprocess.call([sys.executable, *sys.argv], env=env))

    # the fingerprint kernels wrap around on purpose; as plain Python, numpy warns about it
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
    t0 = time.perf_counter()
    import gridbot
    from gridbot.games import carrots
    from gridbot.solve.carrots import solve

    solve(carrots.Level.parse("S##\n  #\n ##"))  # loads (or compiles) every kernel
    warmup = time.perf_counter() - t0
    mode = "plain Python (NUMBA_DISABLE_JIT=1)" if os.environ.get("NUMBA_DISABLE_JIT") == "1" else "numba"
    print(f"# {time.strftime('%Y-%m-%d')}  {platform.processor() or platform.machine()}  {os.cpu_count()} cores")
    print(f"# kernels: {mode}; import + warm-up {warmup:.2f} s")
    print(f"{'board':>5} {'squares':>7} {'tokens':>6} {'status':>8} {'candidates':>11} {'seconds':>8}  program")
    total_tokens = total_seconds = 0.0
    worst = 0.0
    wall = time.perf_counter()
    with _results.rows(args.csv, COLUMNS) as out:
        for board in args.boards:
            level = gridbot.load(f"carrots:{board}")
            result = solve(level, time_limit=args.time_limit)
            assert carrots.run(level, result.program).verdict.won
            total_tokens += result.length
            total_seconds += result.seconds
            worst = max(worst, result.seconds)
            print(
                f"{board:>5} {level.size:>7} {result.length:>6} {result.status:>8} "
                f"{result.stats['candidates']:>11,} {result.seconds:>8.3f}  {result.program}",
                flush=True,
            )
            out.add({"game": "carrots", "level": board, "squares": level.size, "status": result.status,
                     "length": result.length, "candidates": result.stats["candidates"],
                     "seconds": round(result.seconds, 6), "program": str(result.program),
                     "kernels": "python" if "plain" in mode else "numba", "time_limit": args.time_limit})  # fmt: skip
    wall = time.perf_counter() - wall
    print(f"total tokens {int(total_tokens)}; solve seconds {total_seconds:.2f} (slowest {worst:.2f}); wall {wall:.2f}")


if __name__ == "__main__":
    main()
