"""Soak runs: every solver, through the `gridbot` command, on levels nobody tuned it for.

Each case is a level (random, from tiny to the format's size limit, or of a
hostile shape) solved by `gridbot solve GAME FILE --time-limit S --json` in a
child process with an address-space limit. A case passes when the command

- ends within S + max(1 s, 10 %) of wall time (plus `START_UP`, the
  interpreter's start before the command's clock begins),
- exits 0, or 1 with status `timeout`, and prints one JSON object whose status
  is one of the four (an answer it prints has passed the simulator's re-check:
  the command exits 1 with "re-check failed" otherwise),
- writes no traceback and does not run out of memory.

A hostile shape that is not a level of the game (named "bad input: ...")
passes instead when the command exits 2 with one line on stderr and nothing
on stdout.

>>> [case.name for case in cases("carrots", seeds=[0], time_limit=1.0)][:2]
['random 2x2 seed 0', 'random 3x3 seed 0']

tests/soak/test_soak.py runs a fast slice; benchmarks/soak.py the long version.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from gridbot import games, generate
from gridbot.result import Status

START_UP = 0.5  # seconds of interpreter start before `gridbot` begins counting
MEMORY_LIMIT = 4 * 2**30  # address space per case (numba alone maps about 1 GiB)
STATUSES = tuple(Status)


def time_bound(time_limit: float) -> float:
    """The longest a command with `--time-limit time_limit` may take (issue 15): S + max(1 s, 10 %)."""
    return time_limit + max(1.0, 0.1 * time_limit)


@dataclass(frozen=True, slots=True)
class Case:
    """One level to solve: its game, a readable name, the level text and the time limit."""

    game: str
    name: str
    text: str
    time_limit: float

    @property
    def invalid(self) -> bool:
        """A shape the game's format refuses: the command must say so in one line and exit 2."""
        return self.name.startswith("bad input")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the command did with a case; `problem` is '' when it passed, else what went wrong."""

    case: Case
    status: str | None
    length: int | None
    exit_code: int
    seconds: float  # wall time of the whole command
    peak_bytes: int  # largest resident set of the command (its own process)
    problem: str

    @property
    def passed(self) -> bool:
        return not self.problem


# ---------------------------------------------------------------- levels


def max_side(game: str) -> int:
    """The largest board side `game`'s level format accepts (its module's MAX_SIDE, else the shared limit)."""
    return int(games.optional(games.get(game), "MAX_SIDE"))


def min_side(game: str) -> int:
    """The smallest side of a square board gridbot.generate makes for `game` (a Bender map needs two cells inside
    its border). Cheap: the boards tried are tiny."""
    for side in range(1, max_side(game) + 1):
        try:
            generate.random_level(game, side, side, 0)
        except ValueError:
            continue
        return side
    raise ValueError(f"gridbot.generate makes no square {game} board")


def sizes(game: str, quick: bool = False) -> list[tuple[int, int]]:
    """Board sizes from tiny to the format's limit (`quick`: fewer of them, for the fast slice)."""
    bottom, top = min_side(game), max_side(game)
    steps = (2, 5, 24, 100, top) if quick else (2, 3, 5, 8, 13, 24, 40, 100, 300, top)
    return [(s, s) for s in sorted({s for s in steps if bottom <= s <= top})]


def _hostile(game: str) -> list[tuple[str, str]]:
    """(name, level text) of shapes no bundled level has: strips, full boards at the size limit, walls everywhere."""
    n = max_side(game)
    if game == "carrots":
        return [
            ("strip 1xN", "S" + "#" * (n - 1)),
            ("column Nx1", "\n".join(["S"] + ["#"] * (n - 1))),
            ("full 32x32", "S" + "#" * 31 + "\n" + "\n".join(["#" * 32] * 31)),
            ("full 100x100", "S" + "#" * 99 + "\n" + "\n".join(["#" * 100] * 99)),
            ("full NxN", "S" + "#" * (n - 1) + "\n" + "\n".join(["#" * n] * (n - 1))),
            ("islands", "S # # #\n# # # #\n# # # #"),
            ("bad input: two starts", "S # # #\n" * 3),
        ]
    if game == "pellet":
        return [
            ("strip 1xN", "S" + "." * (n - 1)),
            ("open NxN", "S" + "." * (n - 1) + "\n" + "\n".join(["." * n] * (n - 1))),
            (
                "checkerboard",
                "\n".join("".join("#."[(r + c) % 2] for c in range(40)) for r in range(40)).replace(".", "S", 1),
            ),
        ]
    if game == "torch_cave":
        return [
            ("strip 1xN", "H" + " " * (n - 2) + "T"),
            ("open NxN", "H" + " " * (n - 1) + "\n" + "\n".join([" " * n] * (n - 2)) + "\n" + " " * (n - 1) + "T"),
            ("torches everywhere", "H" + "t" * 99 + "\n" + "\n".join(["t" * 100] * 98) + "\n" + "t" * 99 + "T"),
            ("walled in", "Hx\nxT"),
        ]
    if game == "bender":
        inner = n - 2
        return [
            (
                "open NxN",
                "\n".join(
                    ["#" * n, "#@" + " " * (inner - 1) + "#"]
                    + ["#" + " " * inner + "#"] * (inner - 2)
                    + ["#" + " " * (inner - 1) + "$#", "#" * n]
                ),
            ),
            ("bad input: no booth", "#####\n#@  #\n#   #\n#####"),
        ]
    if game == "robos_escape":
        return [
            ("strip 1xN", "S" + "C" * (n - 2) + "E"),
            ("no exit", "\n".join(["S" + " " * (n - 1)] + [" " * n] * (n - 1))),
            ("blocks everywhere", "\n".join(["S" + "O" * (n - 2) + "E"] + ["O" * n] * (n - 1))),
        ]
    if game == "robozzle":
        head = "functions: 10 10 10 10 10\npaint: R G B\nstart: 1 1 east\n"
        return [
            ("strip 1xN", "functions: 2 0 0 0 0\npaint: none\nstart: 1 1 east\nr" + "R" * (n - 1)),
            ("stars everywhere", head + "\n".join(["r" + "G" * (n - 1)] + ["B" * n] * (n - 1))),
        ]
    if game == "lightbot":
        flat = "\n".join(["0" * n] * n)
        marks = [["."] * n for _ in range(n)]
        marks[0][0], marks[n - 1][n - 1], marks[0][n - 1] = ">", "*", "*"
        return [
            ("flat NxN, 2 lights", flat + "\n\n" + "\n".join("".join(row) for row in marks)),
            ("strip 1xN", "0" * n + "\n\n>" + "." * (n - 2) + "*"),
        ]
    return []


@dataclass(frozen=True, slots=True)
class Planned:
    """A case named before its level is made: pytest lists every case in each of its processes before it runs
    one, and making the levels at the format's size limit takes seconds."""

    game: str
    name: str
    make: Callable[[], Case]


def planned(
    game: str, seeds: list[int], time_limit: float, shapes: list[tuple[int, int]] | None = None
) -> list[Planned]:
    """The cases `cases` makes, in its order, each still to be made. `shapes` (default `sizes(game)`) are sizes the
    game's generator makes: making one it refuses raises its ValueError."""
    out = []
    for width, height in shapes if shapes is not None else sizes(game):
        for seed in seeds:
            name = f"random {width}x{height} seed {seed}"
            make = functools.partial(_random_case, game, name, width, height, seed, time_limit)
            out.append(Planned(game, name, make))
    hostile = [*_hostile(game), ("bad input: control characters", "\x00\x01\x02\n\x7f")]
    out += [Planned(game, name, functools.partial(Case, game, name, text, time_limit)) for name, text in hostile]
    return out


def cases(game: str, seeds: list[int], time_limit: float, shapes: list[tuple[int, int]] | None = None) -> list[Case]:
    """Random levels of `game` (each size, each seed, from gridbot.generate.<game>.random_level) and its hostile
    shapes, made now (see `planned`)."""
    return [case.make() for case in planned(game, seeds, time_limit, shapes)]


def _random_case(game: str, name: str, width: int, height: int, seed: int, time_limit: float) -> Case:
    return Case(game, name, str(generate.random_level(game, width, height, seed)), time_limit)


# ---------------------------------------------------------------- running


def _limit_memory(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_case(case: Case, memory_limit: int = MEMORY_LIMIT, folder: Path | None = None) -> Outcome:
    """Solve `case` with the `gridbot` command in a child process (address space `memory_limit`); never raises for
    what the command does. Waits at most the time bound plus 20 s, then kills it."""
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / f"{case.game}.txt"
        path.write_text(case.text)
        command = [sys.executable, "-m", "gridbot.cli", "solve", case.game, str(path)]
        command += ["--time-limit", repr(case.time_limit), "--json"]
        out_path, err_path = Path(tmp) / "out", Path(tmp) / "err"
        started = time.monotonic()
        with out_path.open("wb") as out, err_path.open("wb") as err:
            child = subprocess.Popen(
                command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, preexec_fn=_limit_memory(memory_limit)
            )
            killed = _wait(child.pid, time_bound(case.time_limit) + START_UP + 20)
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        stdout, stderr = out_path.read_text(errors="replace"), err_path.read_text(errors="replace")
    return _judge(case, child.returncode, stdout, stderr, seconds, usage.ru_maxrss * 1024, killed)


def _wait(pid: int, seconds: float) -> bool:
    """Wait for child `pid` to end, at most `seconds`; kill it past that. True when it had to be killed. The child
    is left unreaped (WNOWAIT), so that os.wait4 can still read its resource usage."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return False
        if ended is not None:
            return False
        time.sleep(0.02)
    os.kill(pid, 9)
    return True


def _judge(case: Case, code: int, stdout: str, stderr: str, seconds: float, peak: int, killed: bool) -> Outcome:
    status = length = None
    problems = []
    if killed:
        problems.append("killed: no answer long after the time bound")
    if "Traceback" in stderr or "MemoryError" in stderr:
        problems.append("traceback: " + stderr.strip().splitlines()[-1][:200])
    if case.invalid:
        if code != 2 or stdout.strip() or len(stderr.strip().splitlines()) != 1:
            problems.append(f"a bad level must exit 2 with one line on stderr, not exit {code}: {stderr.strip()[:200]}")
        return Outcome(case, None, None, code, seconds, peak, "; ".join(problems))
    lines = [line for line in stdout.splitlines() if line.strip()]
    try:
        data = json.loads(lines[-1]) if len(lines) == 1 else None
    except json.JSONDecodeError:
        data = None
    if data is None:
        problems.append(f"no single JSON line on stdout (exit {code}): {stderr.strip()[:200]}")
    else:
        status, length = data.get("status"), data.get("length")
        if status not in STATUSES:
            problems.append(f"unknown status {status!r}")
    if not killed and data is not None and not (code == 0 or (code == 1 and status == Status.TIMEOUT)):
        problems.append(f"exit {code} with status {status}: {stderr.strip()[:200]}")
    if seconds > time_bound(case.time_limit) + START_UP:
        problems.append(f"took {seconds:.2f} s, over the bound of {time_bound(case.time_limit) + START_UP:.2f} s")
    return Outcome(case, status, length, code, seconds, peak, "; ".join(problems))


def run_all(all_cases: list[Case], memory_limit: int = MEMORY_LIMIT) -> Iterator[Outcome]:
    """Outcomes of the cases, one by one (one child at a time, so that timings are not disturbed)."""
    for case in all_cases:
        yield run_case(case, memory_limit)
