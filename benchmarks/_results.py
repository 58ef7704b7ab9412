"""The rows of a benchmark run as CSV, for benchmarks/results/ (BENCHMARKS.md names the file of each headline run).

Each benchmark's `--csv FILE` writes one row per level (or per measured item) through `rows` or `write`, and every
row ends with the columns of the run (RUN_COLUMNS): the date the run began, the machine (`platform.machine()`), the
processors it may use, the Python version, the commit of the code (`git rev-parse --short HEAD`, with `-dirty` when
tracked files differ from it; empty outside a git checkout) and the command line. A file thus says which machine and
which code its figures are of, and how to measure them again.

This module imports only the standard library: some benchmarks time the import of gridbot after it.
"""

from __future__ import annotations

import csv
import functools
import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RUN_COLUMNS = ("date", "machine", "cores", "python", "commit", "command_line")
REPOSITORY = Path(__file__).resolve().parent.parent
STARTED = time.strftime("%Y-%m-%d")  # the run's date: when its script imported this module


def cores() -> int:
    """The number of processors this process may run on (as gridbot.parallel.workers.cores counts them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@functools.cache
def commit() -> str:
    """The checkout's commit, short, with `-dirty` when a tracked file differs from it; empty without git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPOSITORY, capture_output=True,
                              text=True, timeout=30)  # fmt: skip
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--"], cwd=REPOSITORY, capture_output=True,
                               timeout=30).returncode == 1  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return ""
    return head.stdout.strip() + ("-dirty" if dirty else "")


def run_columns() -> dict[str, Any]:
    """The columns every row of this run ends with."""
    script = Path(sys.argv[0])
    shown = f"benchmarks/{script.name}" if script.parent.name == "benchmarks" else str(script)
    return {
        "date": STARTED,
        "machine": platform.machine(),
        "cores": cores(),
        "python": platform.python_version(),
        "commit": commit(),
        "command_line": shlex.join(["python", shown, *sys.argv[1:]]),
    }


class Rows:
    """An open CSV file of a run: `add(row)` writes one row (a mapping of the columns given) at once, so that an
    interrupted run keeps the rows it finished. Without a path it writes nothing."""

    def __init__(self, out: Any, columns: Sequence[str]) -> None:
        self._columns = list(columns)
        if set(self._columns) & set(RUN_COLUMNS) or len(set(self._columns)) < len(self._columns):
            raise ValueError(f"columns repeated, or among the run's ({', '.join(RUN_COLUMNS)}): {self._columns}")
        self._run = run_columns() if out is not None else {}
        self._out = out
        self._writer = None
        if out is not None:
            self._writer = csv.DictWriter(out, fieldnames=[*self._columns, *RUN_COLUMNS])
            self._writer.writeheader()
            out.flush()

    def add(self, row: Mapping[str, Any]) -> None:
        unknown = set(row) - set(self._columns)
        if unknown:
            raise ValueError(f"columns not in the file's header: {sorted(unknown)}")
        if self._writer is not None:
            self._writer.writerow({**row, **self._run})
            self._out.flush()


@contextmanager
def rows(path: str | os.PathLike | None, columns: Sequence[str]) -> Iterator[Rows]:
    """The CSV file `path` (its folder made if need be) with the header `columns` + RUN_COLUMNS, open for rows;
    with `path` None, a Rows that writes nothing."""
    if path is None:
        yield Rows(None, columns)
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as out:
        yield Rows(out, columns)


def write(path: str | os.PathLike, columns: Sequence[str], all_rows: Iterable[Mapping[str, Any]]) -> None:
    """Write `all_rows` to the CSV file `path` at once, each followed by the run's columns."""
    with rows(path, columns) as out:
        for row in all_rows:
            out.add(row)
