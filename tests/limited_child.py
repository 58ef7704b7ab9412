"""Run Python code in a child process under a memory limit (RLIMIT_AS) and a wall-clock timeout.

The tests of the time and memory bounds use it: a child can be given a small
address space without touching the test process, and a crash, a traceback or
a hang shows in its output and exit status instead of taking pytest down.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run_limited(code: str, address_space: int, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run `code` with `python -c` under RLIMIT_AS = `address_space` bytes, this checkout's package first on
    the path; returns the finished process (text output). numba needs 1-2 GiB of address space to load."""

    def limit() -> None:  # in the child, before it starts Python
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, preexec_fn=limit, env=env
    )
