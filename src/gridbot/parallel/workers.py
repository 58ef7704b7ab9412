"""Worker processes for the solvers' shares: a pool that never outlives its parent.

`local_pool(n)` gives a concurrent.futures executor of n forked processes and
a stop event the workers read through gridbot.deadline.stop_requested(), e.g.
between kernel calls. Whatever ends the parent, the workers end with it:

- leaving the `with` block (normally, by an exception, Ctrl-C or SIGTERM
  turned into an exception by the CLI) stops and terminates them at once;
- if the parent dies without cleaning up (SIGKILL), the kernel sends each
  worker SIGKILL (Linux `PR_SET_PDEATHSIG`), so none is left orphaned;
- workers ignore SIGINT: Ctrl-C in a terminal reaches the whole process group,
  and only the parent should answer it (no worker traceback).

A task that runs elsewhere (a Dask worker, see gridbot.parallel.executors)
reads its own stop flag: gridbot.deadline.reading(stop) makes
`stop_requested()` read it in the calling thread for the length of a block.

>>> with local_pool(1) as (pool, stop):
...     pool.submit(sum, [1, 2, 3]).result()
6
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gridbot.deadline import read_in_process
from gridbot.errors import GridbotError

_PR_SET_PDEATHSIG = 1


def cores() -> int:
    """The number of processors this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def fork_method() -> str:
    """The start method the worker pools need, "fork"; a GridbotError where this system lacks it (Windows)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        raise GridbotError(
            f"worker processes need the 'fork' start method, which this system ({sys.platform}) lacks: "
            "gridbot's parallel solves run on Linux"
        )
    return "fork"


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux); exit now if it is already gone.

    ctypes loads the C library here, on Linux only: elsewhere there is no prctl, and the worker relies on the
    pool's own shutdown instead."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _start_worker(parent: int, stop: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # forked while the parent blocked it (_started)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    read_in_process(stop)


def _started(pool: ProcessPoolExecutor) -> ProcessPoolExecutor:
    """`pool` with its threads (the executor's manager, the task queue's feeder) and forked workers started now,
    while SIGINT is blocked in this thread, so that they inherit the block.

    A signal sent to a process goes to any one of its threads that does not block it. Python's handler only
    sets a flag that the main thread reads when it next runs, so a Ctrl-C that lands on one of these threads
    leaves the main thread asleep in whatever it waits on (a sleep, a lock), for as long as that wait lasts. With
    the signal blocked in them, it reaches the main thread, which raises KeyboardInterrupt at once."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool.submit(int).result()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    return pool


def _terminate(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way before Python 3.14
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.join(5)
    # Wait for the executor's manager thread to close its wake-up pipe: otherwise the interpreter's
    # exit hook (concurrent.futures' _python_exit) can write to that pipe while it is being closed
    # and print "Exception ignored ... Bad file descriptor" after a Ctrl-C.
    if manager is not None:
        manager.join(5)


@contextlib.contextmanager
def local_pool(workers: int) -> Iterator[tuple[ProcessPoolExecutor, Any]]:
    """(executor, stop event) of `workers` forked processes, terminated when the block is left.

    Forked, so that the workers inherit compiled kernels and the stop event; where the system cannot fork
    (Windows), a GridbotError says so in one line. A normal exit waits for nothing: any share still running is
    stopped.
    """
    context = multiprocessing.get_context(fork_method())
    stop = context.Event()
    pool = _started(
        ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(), stop))
    )
    try:
        yield pool, stop
    finally:
        stop.set()
        _terminate(pool)
