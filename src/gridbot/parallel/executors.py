"""Where the solvers' parallel work runs: local worker processes or a Dask cluster, behind one interface.

An `Executor` is a concurrent.futures executor (`pool`), a stop flag the
running tasks read through gridbot.deadline.stop_requested() (`stop`:
`set`, `clear`, `is_set`), the number of tasks it runs at once (`workers`)
and, optionally, a checkpoint of finished work (gridbot.parallel.checkpoint).
The solvers submit shares of a length (gridbot.parallel.shares) or whole levels
to `pool` and never ask which kind it is:

- `local(n)`: n forked worker processes of this machine
  (gridbot.parallel.workers.local_pool), the default;
- `dask(address)`: the workers of a Dask cluster (`tcp://HOST:PORT`), or of a
  LocalCluster of n processes started for the run (`local:N`). The stop flag
  is a `distributed.Event` named for the run, which each task reads at most
  every READ_EVERY seconds; a task lost with its worker is run again by Dask.

`open_executor(jobs, scheduler, checkpoint)` picks one from the command
line's options; gridbot.solve.batch solves many levels on one, each level a
task, streaming the results back as they finish.

>>> with local(2) as run:
...     run.workers, run.pool.submit(sum, [1, 2, 3]).result()
(2, 6)
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor as PoolExecutor
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from gridbot.deadline import reading
from gridbot.errors import GridbotError
from gridbot.parallel import workers as workers_mod
from gridbot.parallel.checkpoint import Checkpoint

READ_EVERY = 0.1  # seconds between a Dask task's looks at the stop event (each is a round trip to the scheduler)
CONNECT_SECONDS = 30.0  # how long to wait for a scheduler to answer and for its first worker
# Dask's own bookkeeping, slowed down for clusters gridbot starts (local:N) and for this process's client: idle,
# a 2-worker LocalCluster with the defaults took 5 % of this 2-core machine (0.7 % with these). The profiler
# samples each task's stack 100 times a second, and a numba kernel's stack is one frame: nothing to learn.
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


@dataclass(frozen=True, slots=True)
class Executor:
    """A pool of workers for shares and levels; see the module docstring.

    `head_start` is how many workers a solver keeps busy while it looks ahead
    in its own process: one fewer than `workers` when they share this machine
    (the look-ahead takes a core), all of them on a cluster. `memory_share` is
    the fraction of a machine's memory budget one task may take
    (gridbot.solve.memory.memory_budget). `client` is the Dask client (None
    for local processes).
    """

    pool: PoolExecutor
    stop: Any
    workers: int
    kind: str
    head_start: int
    memory_share: float
    checkpoint: Checkpoint | None = None
    client: Any = None


@contextlib.contextmanager
def local(workers: int | None = None, checkpoint: Checkpoint | None = None) -> Iterator[Executor]:
    """`workers` forked processes of this machine (default: every core), stopped when the block is left."""
    n = workers_mod.cores() if workers is None else max(1, workers)
    with workers_mod.local_pool(n) as (pool, stop):
        yield Executor(pool, stop, n, "local", max(1, n - 1), 1 / (n + 1), checkpoint)


class _EventReader:
    """A Dask task's view of the run's stop event: read at most every READ_EVERY seconds, set for good once seen."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.event: Any = None
        self.seen = False
        self.next_look = 0.0

    def is_set(self) -> bool:
        now = time.monotonic()
        if self.seen or now < self.next_look:
            return self.seen
        self.next_look = now + READ_EVERY
        if self.event is None:
            from distributed import Event

            self.event = Event(self.name)  # the worker's own client
        self.seen = bool(self.event.is_set())
        return self.seen


def _run_task(stop_name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """On a Dask worker: `fn(*args, **kwargs)` with stop_requested() reading the run's stop event."""
    with reading(_EventReader(stop_name)):
        return fn(*args, **kwargs)


class _DaskPool(PoolExecutor):
    """concurrent.futures face of a Dask client: each call is a task (never merged with an equal one: pure=False)
    that reads the run's stop event; its futures are concurrent.futures.Future."""

    def __init__(self, client: Any, stop_name: str) -> None:
        self._inner = client.get_executor(pure=False)
        self._stop_name = stop_name

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return self._inner.submit(_run_task, self._stop_name, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait and not cancel_futures)


def _cluster_size(client: Any) -> tuple[int, int]:
    """(threads over all workers, most threads on one host) of the cluster now. O(workers)."""
    info = client.scheduler_info(n_workers=-1) if _takes_n_workers(client) else client.scheduler_info()
    per_host: Counter[str] = Counter()
    for address, worker in info.get("workers", {}).items():
        host = str(worker.get("host") or address.rsplit(":", 1)[0])
        per_host[host] += int(worker.get("nthreads", 1))
    return sum(per_host.values()), max(per_host.values(), default=1)


def _takes_n_workers(client: Any) -> bool:
    return "n_workers" in inspect.signature(client.scheduler_info).parameters


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def dask(scheduler: str, checkpoint: Checkpoint | None = None) -> Iterator[Executor]:
    """The workers of the Dask scheduler at `scheduler` (`tcp://HOST:PORT`), or of a LocalCluster of N processes
    of one thread each started for the block (`local:N`). Leaving the block sets the stop event (running tasks
    stop at their next look) and cancels what has not started. Raises GridbotError when Dask is not installed
    or the scheduler does not answer within CONNECT_SECONDS."""
    if not dask_available():
        raise GridbotError("--scheduler needs Dask: pip install 'gridbot[dask]' (the distributed package)")
    import dask.config
    import distributed

    with contextlib.ExitStack() as stack:
        stack.enter_context(dask.config.set(QUIET))
        here = scheduler.startswith("local:")  # the workers share this machine's cores with this process
        if here:
            try:
                n = int(scheduler.partition(":")[2])
            except ValueError:
                raise GridbotError(f"--scheduler local:N needs a number of workers, not {scheduler!r}") from None
            if n < 1:
                raise GridbotError(f"--scheduler local:N needs at least one worker, not {n}")
            # one thread per process: the kernels hold the interpreter lock, threads would take turns
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            )  # fmt: skip
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout=CONNECT_SECONDS))
            except Exception as error:  # noqa: BLE001 - whatever answers at that address (seen: a peer that is
                # not a scheduler, whose bytes Dask read as a frame of 3 EiB: MemoryError) is not a scheduler
                raise GridbotError(f"cannot reach the Dask scheduler at {scheduler}: {type(error).__name__}: "
                                   f"{str(error)[:200]}") from None  # fmt: skip
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (TimeoutError, OSError) as error:
            raise GridbotError(f"the Dask scheduler at {scheduler} has no workers: {error}") from None
        threads, on_one_host = _cluster_size(client)
        stop = distributed.Event(f"gridbot-stop-{uuid.uuid4().hex}", client=client)
        stop.clear()
        pool = _DaskPool(client, stop.name)
        try:
            share = 1 / (on_one_host + 1)
            head_start = max(1, threads - 1 if here else threads)
            yield Executor(pool, stop, max(1, threads), "dask", head_start, share, checkpoint, client)
        finally:
            with contextlib.suppress(Exception):  # the scheduler may be the thing that was lost
                stop.set()
            with contextlib.suppress(Exception):
                pool.shutdown(wait=False, cancel_futures=True)


@contextlib.contextmanager
def open_executor(
    jobs: int | None = None, scheduler: str | None = None, checkpoint: str | None = None
) -> Iterator[Executor]:
    """The executor the command line asks for: a Dask cluster with `scheduler`, else `jobs` local processes
    (default: every core); with `checkpoint`, the checkpoint file opened (created) for it."""
    with contextlib.ExitStack() as stack:
        try:
            done = None if checkpoint is None else stack.enter_context(Checkpoint(checkpoint))
        except OSError as error:
            raise GridbotError(f"cannot use the checkpoint file {checkpoint}: {error.strerror or error}") from None
        if scheduler is not None:
            yield stack.enter_context(dask(scheduler, done))
        else:
            yield stack.enter_context(local(jobs, done))
