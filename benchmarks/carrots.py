"""Benchmark: solve the 12 Carrots boards of the Code Golf challenge, each proven optimal.

    python benchmarks/carrots.py            # compiled kernels (numba), the default
    python benchmarks/carrots.py --no-jit   # the same kernels run as plain Python
    python benchmarks/carrots.py 7 8 12     # some boards only

Prints per board the tokens, status, candidates examined and seconds, then the
totals. The numba compile/cache-load time is measured apart, before the boards
(it is paid once per process, not per board).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import warnings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("boards", nargs="*", type=int, default=list(range(1, 13)))
    parser.add_argument("--no-jit", action="store_true", help="run the kernels as plain Python (NUMBA_DISABLE_JIT=1)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per board")
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
    wall = time.perf_counter() - wall
    print(f"total tokens {int(total_tokens)}; solve seconds {total_seconds:.2f} (slowest {worst:.2f}); wall {wall:.2f}")


if __name__ == "__main__":
    main()
