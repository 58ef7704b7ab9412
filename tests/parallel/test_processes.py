"""A Light-Bot solve with worker processes, ended by a signal: no orphan, no traceback, the CLI's exit status.

Each test runs `gridbot solve lightbot lightbot:10` (a proof of several minutes) in a process of its own session,
through the CLI's entry point, with every length split over two workers at once (parallel_after < 0) so that the
workers exist within a second or two; then it signals the command and checks that every process below it is gone
(or a zombie: dead, waiting to be reaped) within a few seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import SRC

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

SCRIPT = """
import dataclasses, functools
import gridbot.solve.lightbot as solver
from gridbot.solve.deepening import Schedule
# every length in shares over the workers: they start at once
split = dataclasses.replace(solver.DEFAULT, schedule=Schedule(parallel_after=-1.0, growth=6.0, max_growth=6.0))
solver.solve = functools.partial(solver.solve, settings=split)
from gridbot.cli import main
main(["solve", "lightbot", "lightbot:10"])
"""


def descendants(pid: int) -> set[int]:
    """Every process below `pid`, read from /proc/<pid>/task/*/children."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        here = todo.pop()
        for task in Path(f"/proc/{here}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Is `pid` a live process (not gone, not a zombie)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def start_solve() -> tuple[subprocess.Popen, set[int]]:
    """The command, running with its worker processes: (process, their pids)."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.1)
        assert command.poll() is None, command.communicate()
        workers = descendants(command.pid)
    assert len(workers) >= 2, "the solve never started its worker processes"
    time.sleep(0.5)  # the shares under way
    return command, descendants(command.pid)


def gone_soon(pids: set[int], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_sigterm_stops_the_workers_and_exits_143() -> None:
    command, workers = start_solve()
    command.send_signal(signal.SIGTERM)
    _, err = command.communicate(timeout=10)
    assert command.returncode == 143
    assert b"Traceback" not in err
    assert gone_soon(workers)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_sigkill_of_the_parent_takes_the_workers_with_it() -> None:
    command, workers = start_solve()
    command.kill()
    command.communicate(timeout=10)
    assert gone_soon(workers)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_ctrl_c_to_the_process_group_exits_130_without_a_traceback() -> None:
    command, workers = start_solve()
    os.killpg(command.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: every process of the group
    _, err = command.communicate(timeout=10)
    assert command.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert gone_soon(workers)
