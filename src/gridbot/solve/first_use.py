"""A game's kernels compiled on first use, in a process of their own, so that a time limit holds even then.

numba compiles a kernel the first time a process calls it and keeps the machine code in its cache; every later
process loads it in well under a second. The first compile of a game's kernels takes seconds (RoboZZle's about
fifteen on a 2-core machine), and a compile cannot be interrupted: run inside a solve, it would overrun any time
limit. So the first solve of a game on a machine hands the compile to a child process, in a session of its own,
and waits for it no longer than the time limit allows. A compile that ends in time leaves the cache warm and the
solve goes on (loading the kernels from the cache); one that does not gives the answer a time limit gives, with
its reason, while the child finishes the compile in the background, so the next solve starts warm.

Whether a game's kernels are compiled here is a stamp file per game in gridbot's cache folder
($XDG_CACHE_HOME/gridbot, else ~/.cache/gridbot), keyed by everything that makes numba compile again: the
kernels' source and installation, numba's and Python's versions, the interpreter, numba's cache and CPU settings. A
lock file makes two processes (two workers, two shells) wait for one compile rather than run two.

>>> expected_seconds("robozzle") > expected_seconds("robos_escape")
True
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from gridbot.deadline import stop_requested

_KERNELS = Path(__file__).resolve().parent.parent / "kernels"
# Seconds the first compile of each game's kernels takes on the 2-core development machine (benchmarks/first_use.py
# measures them): what the notice of a first solve promises.
COMPILE_SECONDS = {"carrots": 6.0, "pellet": 4.5, "lightbot": 9.0, "robos_escape": 3.0, "robozzle": 15.0}


POLL = 0.1  # seconds between looks at a stop request while the child compiles


def expected_seconds(game: str) -> float:
    """About how long the first compile of `game`'s kernels takes (seconds)."""
    return COMPILE_SECONDS.get(game, 5.0)


def folder() -> Path:
    """Where the stamps and locks are kept (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gridbot" / "compiled"


@functools.cache
def _key() -> str:
    """A digest of what makes numba's cached machine code valid: the kernels' source, the versions, the
    interpreter, numba's cache folder and CPU. O(size of the kernels' source), once per process."""
    digest = hashlib.sha256()
    for path in sorted(_KERNELS.rglob("*.py")):
        digest.update(path.relative_to(_KERNELS).as_posix().encode())
        digest.update(path.read_bytes())
    try:
        from importlib.metadata import version

        numba_version = version("numba")
    except Exception:  # noqa: BLE001 - any failure to read numba's version only makes the key unique
        numba_version = "?"
    installed = str(os.stat(_KERNELS / "__init__.py").st_mtime_ns)  # a reinstall empties numba's cache beside it
    for part in (numba_version, sys.version, sys.executable, str(_KERNELS), installed,
                 os.environ.get("NUMBA_CACHE_DIR", ""), os.environ.get("NUMBA_CPU_NAME", "")):  # fmt: skip
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()[:20]


def stamp(game: str) -> Path:
    """The stamp file that says `game`'s kernels are compiled here."""
    return folder() / f"{game}-{_key()}"


def is_compiled(game: str) -> bool:
    """Are `game`'s kernels compiled on this machine, for this installation (or is compiling turned off)? Reads
    no kernel and imports no numba. O(size of the kernels' source) the first time in a process, O(1) after."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True
    return stamp(game).is_file()


@contextlib.contextmanager
def _locked(game: str) -> Iterator[None]:
    """Hold the lock of `game`'s compile (waiting for another process that holds it); without file locks (not a
    POSIX system) or a writable folder, hold nothing."""
    try:
        import fcntl

        folder().mkdir(parents=True, exist_ok=True)
        handle = open(folder() / f"{game}.lock", "a")  # noqa: SIM115 - closed below, after the lock is released
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


def compile_here(game: str, warm_up: Callable[[], None]) -> float:
    """Compile (or load) `game`'s kernels in this process by `warm_up()`, unless another process has done it
    while this one waited for the lock, and leave the stamp; the seconds it took."""
    started = time.monotonic()
    with _locked(game):
        if not is_compiled(game):
            warm_up()
            with contextlib.suppress(OSError):  # an unwritable cache: the next process compiles again, as today
                folder().mkdir(parents=True, exist_ok=True)
                stamp(game).write_text(f"{game}'s kernels compiled\n")
    return time.monotonic() - started


def compile_within(game: str, seconds: float | None, notice: Callable[[str], None] | None = None) -> bool:
    """Have `game`'s kernels compiled by a child process (`python -m gridbot.solve.first_use GAME`), waiting at
    most `seconds` (None: as long as it takes); True when they are compiled. `notice` hears one line saying what
    happens and for how long. The child runs in a session of its own: when this process stops waiting (or is
    interrupted), it finishes the compile and leaves the stamp for the next solve. A stop request of this thread
    (gridbot.deadline.stop_requested) ends the wait too."""
    if is_compiled(game):
        return True
    if notice is not None:
        notice(f"compiling the {game} kernels for this machine, once: about {expected_seconds(game):.0f} s on 2 "
               "cores (`gridbot warmup` compiles every game's ahead)")  # fmt: skip
    child = subprocess.Popen(
        [sys.executable, "-m", "gridbot.solve.first_use", game],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    until = None if seconds is None else time.monotonic() + seconds
    while child.poll() is None:  # a stop request (Ctrl-C, the caller's `stop`) ends the wait as the limit does
        left = None if until is None else until - time.monotonic()
        if stop_requested() or (left is not None and left <= 0):
            return False
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=POLL if left is None else min(POLL, left))
    return is_compiled(game)


def main(argv: list[str]) -> int:
    """The child's work: compile the kernels of the games named in `argv` and leave their stamps."""
    from gridbot import solve as front

    for game in argv:
        compile_here(game, front.solver(game).warm_up)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
