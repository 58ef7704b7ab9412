"""One length of an exhaustive search split into shares over an executor's workers, shared by the solvers.

A kernel search of one length can deal the subtrees at a fixed depth round
robin: share k of n keeps every n-th option applied at that depth, from the
k-th. The shares together search exactly the whole tree, in any order, on any
number of workers. `search_shares` hands them to an executor (local worker
processes or a Dask cluster: gridbot.parallel.executors), stops them all when
one finds a program (a shortest one is all that is asked) or when the time is
up, and says whether the length was searched to its end: only then, when
every share came back finished, is it excluded. With a checkpoint and a
`Ledger` (what names the length), each share that finishes is recorded as it
comes back, and a share recorded by an earlier run is not searched again.

>>> from gridbot.parallel import executors
>>> with executors.local(2) as run:
...     done = search_shares(run, _example_share, 4, lambda: None)
>>> done.programs, done.nodes, done.finished
(('found in share 2',), 40, True)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from concurrent.futures import Future, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gridbot.deadline import Timeout

if TYPE_CHECKING:
    from gridbot.parallel.checkpoint import Checkpoint
    from gridbot.parallel.executors import Executor

SLICE = 0.2  # seconds between looks at the workers (and at the clock)
DRAIN = 30.0  # seconds at most to wait for stopped shares after a time-out, before the next search may start


@dataclass(frozen=True, slots=True)
class Share:
    """What one share (or the whole length) found: programs, nodes searched, and whether it ran to its end;
    `counts` are a solver's own counters (Robo's Escape: how often each cut fired)."""

    programs: tuple[Any, ...]
    nodes: int
    finished: bool
    capped: bool = False
    counts: tuple[int, ...] = ()


def _same(item: Any) -> Any:
    return item


@dataclass(frozen=True, slots=True)
class Ledger:
    """What names one length in a checkpoint (game, level digest, solver options, length: `key`), and how its
    programs are written there (`encode`, to something JSON holds) and read back (`decode`)."""

    key: dict[str, Any]
    encode: Callable[[Any], Any] = str
    decode: Callable[[Any], Any] = _same


def submit_share(
    executor: Executor, ledger: Ledger | None, k: int, count: int, fn: Callable[..., Share], *args: Any
) -> Future:
    """Share k of `count` as a future: `fn(*args)` submitted to the executor's pool, recorded in its checkpoint
    (under `ledger`) when it comes back finished; or, when a run before has recorded it, that Share at once
    (a future already done). O(1) plus the record's size."""
    checkpoint = executor.checkpoint
    if ledger is None or checkpoint is None:
        return executor.pool.submit(fn, *args)
    key = {**ledger.key, "kind": "share", "share": k, "of": count}
    record = checkpoint.get(key)
    if record is not None:
        done: Future = Future()
        programs = tuple(ledger.decode(p) for p in record["programs"])
        done.set_result(Share(programs, int(record["nodes"]), True, bool(record["capped"]), tuple(record["counts"])))
        return done
    job = executor.pool.submit(fn, *args)
    job.add_done_callback(functools.partial(_record, checkpoint, key, ledger.encode))
    return job


def _record(checkpoint: Checkpoint, key: dict[str, Any], encode: Callable[[Any], Any], job: Future) -> None:
    """A share's future is done: record it when it ran to its end (one stopped early is searched again)."""
    if job.cancelled() or job.exception() is not None:
        return
    share = job.result()
    if share.finished:
        value = {
            "programs": [encode(p) for p in share.programs], "nodes": share.nodes, "capped": share.capped,
            "counts": list(share.counts),
        }  # fmt: skip
        checkpoint.put(key, value)


def search_shares(
    executor: Executor,
    share: Callable[[int, int], Share],
    count: int,
    check: Callable[[], None],
    all_solutions: bool = False,
    ledger: Ledger | None = None,
) -> Share:
    """Search one length as `count` shares, `share(k, count)` each (a picklable callable that reads
    gridbot.parallel.workers.stop_requested() between its kernel calls), on the executor's workers.

    `check()` is called every SLICE seconds while they run and may raise
    Timeout: the shares are then told to stop, and once they are back (see
    `collect_in_time`) the length ends unfinished with what they searched;
    any other exception goes on. Unless `all_solutions`, the first program found stops
    the other shares. Shares recorded in the executor's checkpoint under
    `ledger` are taken from it; the others are recorded as they finish.
    Returns every program found (in share order), the nodes of all shares
    (of those stopped by the clock too), and `finished` (every share ran to
    its end, so the length is searched whole). O(count) submissions.
    """
    executor.stop.clear()
    jobs = [submit_share(executor, ledger, k, count, share, k, count) for k in range(count)]
    done, in_time = collect_in_time(jobs, executor.stop, check, all_solutions)
    finished = in_time and all(part.finished for part in done)
    programs = tuple(p for part in done for p in part.programs)
    return Share(
        programs,
        sum(part.nodes for part in done),
        finished,
        any(part.capped for part in done),
        _add_counts(part.counts for part in done),
    )


def _add_counts(parts: Any) -> tuple[int, ...]:
    """The shares' counters added up, position by position. O(counters x shares)."""
    total: list[int] = []
    for counts in parts:
        if len(total) < len(counts):
            total += [0] * (len(counts) - len(total))
        for i, value in enumerate(counts):
            total[i] += value
    return tuple(total)


def collect(jobs: list[Future], stop: Any, check: Callable[[], None], all_solutions: bool = False) -> list[Share]:
    """Wait for submitted shares (futures of Share) and return them: `check()` every SLICE seconds, and unless
    `all_solutions` the first program found stops the others. O(len(jobs)) per look.

    When `check()` raises (Timeout), the shares are told to stop through
    `stop` and, before the exception goes on, waited for (DRAIN seconds at
    most; each stops at its next look at the flag): the executor may be
    shared with the next search, which clears the flag again. Ctrl-C and
    exits do not wait: the executor is being shut down.
    """
    try:
        while not all(job.done() for job in jobs):
            wait(jobs, timeout=SLICE)
            if not all_solutions and any(job.done() and job.result().programs for job in jobs):
                stop.set()  # one program is all that is asked for
            check()
    except Exception:
        stop.set()
        wait(jobs, timeout=DRAIN)
        raise
    except BaseException:
        stop.set()
        raise
    return [job.result() for job in jobs]


def collect_in_time(
    jobs: list[Future], stop: Any, check: Callable[[], None], all_solutions: bool = False
) -> tuple[list[Share], bool]:
    """`collect`, except that a Timeout from `check()` ends it too: the shares that came back (those the clock
    stopped searched part of their subtrees: their nodes count, and a program one of them met is a program all
    the same) and whether it ended in time. Leaving them out made a split search's speed read as a third of
    what it was. O(len(jobs)) per look."""
    try:
        return collect(jobs, stop, check, all_solutions), True
    except Timeout:
        return [job.result() for job in jobs if job.done() and not job.cancelled() and job.exception() is None], False


def _example_share(k: int, count: int) -> Share:
    """A stand-in share for the doctest: share 2 finds something, every share counts 10 nodes."""
    time.sleep(0.01)
    return Share(("found in share 2",) if k == 2 else (), 10, True)
