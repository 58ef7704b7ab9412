"""One length of an exhaustive search split into shares over worker processes, shared by the solvers.

A kernel search of one length can deal the subtrees at a fixed depth round
robin: share k of n keeps every n-th option applied at that depth, from the
k-th. The shares together search exactly the whole tree, in any order, on any
number of workers. `search_shares` hands them to an executor (a
gridbot.solve.workers.local_pool), stops them all when one finds a program (a
shortest one is all that is asked) or when the time is up, and says whether
the length was searched to its end: only then is it excluded.

>>> from gridbot.solve import workers
>>> with workers.local_pool(2) as (pool, stop):
...     done = search_shares(pool, stop, _example_share, 4, lambda: None)
>>> done.programs, done.nodes, done.finished
(('found in share 2',), 40, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from gridbot.solve.workers import stop_requested

SLICE = 0.2  # seconds between looks at the workers (and at the clock)
EXHAUSTED, FOUND = 0, 1  # the status codes of the search kernels (gridbot.kernels.lightbot and .robozzle)


@dataclass(frozen=True, slots=True)
class Share:
    """What one share (or the whole length) found: programs, nodes searched, and whether it ran to its end."""

    programs: tuple[Any, ...]
    nodes: int
    finished: bool
    capped: bool = False


def run_share(
    search: Any,
    step: Callable[[], int],
    all_solutions: bool,
    most: int,
    deadline: float | None,
    report: Callable[[int], None] | None = None,
) -> Share:
    """Run one kernel search (one share, or a whole length) by calls of `step()` to its end, the deadline
    (time.monotonic() seconds) or a stop request from the parent process (gridbot.solve.workers).

    `search` gives `program()` (the program just found) and `nodes`; `report(nodes)` is called between kernel
    calls and may raise (Timeout). The first program ends the search unless `all_solutions`, when at most
    `most` are collected (the Share is then `capped`). Programs are returned as found, each once; the caller
    re-checks them with the simulator. O(kernel calls).
    """
    found: list[Any] = []
    while True:
        status = step()
        if status == FOUND:
            program = search.program()
            if program not in found:
                found.append(program)
            if not all_solutions:
                return Share(tuple(found), search.nodes, True)
            if len(found) >= most:
                return Share(tuple(found), search.nodes, True, capped=True)
        elif status == EXHAUSTED:
            return Share(tuple(found), search.nodes, True)
        if (deadline is not None and time.monotonic() > deadline) or stop_requested():
            return Share(tuple(found), search.nodes, False)
        if report is not None:
            report(search.nodes)


def search_shares(
    pool: Executor,
    stop: Any,
    share: Callable[[int, int], Share],
    count: int,
    check: Callable[[], None],
    all_solutions: bool = False,
) -> Share:
    """Search one length as `count` shares, `share(k, count)` each (a picklable callable that reads
    gridbot.solve.workers.stop_requested() between its kernel calls), on `pool`.

    `check()` is called every SLICE seconds while they run and may raise
    (Timeout): the shares are then told to stop and the exception goes on.
    Unless `all_solutions`, the first program found stops the other shares.
    Returns every program found, the nodes of all shares, and `finished`
    (every share ran to its end, so the length is searched whole).
    O(count) submissions.
    """
    stop.clear()
    done = collect([pool.submit(share, k, count) for k in range(count)], stop, check, all_solutions)
    programs = tuple(p for part in done for p in part.programs)
    return Share(
        programs,
        sum(part.nodes for part in done),
        all(part.finished for part in done),
        any(part.capped for part in done),
    )


def collect(jobs: list[Future], stop: Any, check: Callable[[], None], all_solutions: bool = False) -> list[Share]:
    """Wait for submitted shares (futures of Share) and return them: `check()` every SLICE seconds (it may
    raise; the shares are then told to stop through `stop` and the exception goes on), and unless
    `all_solutions` the first program found stops the others. O(len(jobs)) per look."""
    try:
        while not all(job.done() for job in jobs):
            wait(jobs, timeout=SLICE)
            if not all_solutions and any(job.done() and job.result().programs for job in jobs):
                stop.set()  # one program is all that is asked for
            check()
    except BaseException:
        stop.set()
        raise
    return [job.result() for job in jobs]


def _example_share(k: int, count: int) -> Share:
    """A stand-in share for the doctest: share 2 finds something, every share counts 10 nodes."""
    time.sleep(0.01)
    return Share(("found in share 2",) if k == 2 else (), 10, True)
