"""Solves for the web playground: one worker process per solve, a bounded number at once, killed on time or cancel.

A solve runs in its own process (started by a forkserver, so the server's threads are never forked) that leads
its own process group: killing the group also ends any pool the solver starts. The worker sends the solver's
progress reports and its answer through a pipe; one watcher thread per solve reads them, kills the group when
the time limit (plus a grace) has passed, and re-checks the answer with the game's simulator before anyone sees it.

>>> solves = Solves(max_running=1)
>>> job = solves.start("carrots", "S##", time_limit=5.0)
>>> job.wait(30)
True
>>> job.snapshot()["status"], job.snapshot()["solution"]
('optimal', 'F F')
>>> solves.close()
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from gridbot import games

GRACE = 2.0  # seconds a solver may overrun its own time limit (returning what it found) before it is killed
KEEP_FINISHED = 64  # finished solves remembered (for late readers), oldest forgotten first
# A forkserver, not fork: the web server runs threads (fork would copy their locks mid-use), and a fresh
# interpreter per solve (spawn) would pay the imports every time. The preload is the context's own setting.
_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(["gridbot.games", "gridbot.solve.search", "gridbot.web.solves"])


class TooManySolves(Exception):
    """Raised by Solves.start when `max_running` solves are running already."""


def _plain(value: Any) -> Any:
    """A progress value as JSON takes it (solvers report numpy numbers too)."""
    if isinstance(value, bool | str) or value is None:
        return value
    if isinstance(value, int | float):
        return value if math.isfinite(value) else None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return int(number) if number.is_integer() else number


def _worker(game: str, text: str, time_limit: float, conn: Any) -> None:
    """In the worker process: solve, sending ("progress", {...}) now and then and ("result", {...}) at the end."""
    os.setpgrp()  # its own group: cancelling kills the solver's own pool with it
    from gridbot.solve.workers import _die_with_parent

    _die_with_parent(os.getppid())  # never outlive the forkserver (and so the web server)
    module = games.get(game)
    try:
        level = module.Level.parse(text, name="playground")

        def progress(info: dict[str, Any]) -> None:
            conn.send(("progress", {str(k): _plain(v) for k, v in info.items()}))

        result = module.solve(level, time_limit=time_limit, progress=progress)
        solution = None if result.solution is None else str(result.solution)
        conn.send(("result", {"status": result.status, "solution": solution, "length": result.length,
                              "seconds": result.seconds, "proven_impossible": result.proven_impossible}))  # fmt: skip
    except Exception as exc:  # the watcher reports it; a worker has no one else to tell
        conn.send(("error", {"message": f"{type(exc).__name__}: {exc}"}))
    finally:
        conn.close()


def recheck(game: str, text: str, solution: str, length: int | None) -> str | None:
    """Why the solver's `solution` is not a winning program of `length` for the level, or None when it is.

    Runs the game's own simulator on the parsed text, as `gridbot solve` does. O(run length).
    """
    module = games.get(game)
    level = module.Level.parse(text, name="playground")
    program = module.parse_program(solution)
    verdict = module.run(level, program).verdict
    if not verdict.won:
        return f"the solver's answer {solution} does not complete the level ({verdict})"
    tokens = getattr(program, "tokens", length)
    if length is not None and tokens != length:
        return f"the solver's answer {solution} has {tokens} tokens, not {length}"
    return None


@dataclass(slots=True)
class Job:
    """One solve: its worker, the latest progress and, once finished, its answer (guarded by `lock`)."""

    id: str
    game: str
    text: str
    time_limit: float
    process: Any = None
    started: float = field(default_factory=time.monotonic)
    status: str = "running"  # then optimal, solved, unsolvable, timeout, cancelled, error
    progress: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    version: int = 0  # bumped on every change, so a reader knows when to send news
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)

    def snapshot(self) -> dict[str, Any]:
        """The job as JSON: status, seconds, progress and (when finished) the answer."""
        with self.lock:
            data: dict[str, Any] = {
                "id": self.id,
                "game": self.game,
                "status": self.status,
                "time_limit": self.time_limit,
                "seconds": round(self.result.get("wall", time.monotonic() - self.started), 3),
                "progress": dict(self.progress),
                "worker_pid": None if self.process is None else self.process.pid,
                "version": self.version,
            }
            data.update({k: v for k, v in self.result.items() if k != "wall"})
            return data

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job has finished; False if `timeout` seconds passed first."""
        return self.done.wait(timeout)

    def _update(self, **changes: Any) -> None:
        with self.lock:
            for key, value in changes.items():
                setattr(self, key, value)
            self.version += 1

    def _finish(self, status: str, **result: Any) -> None:
        with self.lock:
            if self.done.is_set():
                return
            self.status = status
            self.result = {**result, "wall": time.monotonic() - self.started}
            self.version += 1
            self.done.set()


def kill(process: Any) -> None:
    """SIGKILL the worker's process group (the worker and any pool it started), then reap the worker."""
    if process is None or process.pid is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(process.pid, signal.SIGKILL)  # in case it died before it led its own group
    process.join(10)


class Solves:
    """The running and recently finished solves of one server; at most `max_running` workers at once."""

    def __init__(self, max_running: int = 2, grace: float = GRACE) -> None:
        self.max_running = max_running
        self.grace = grace
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def running(self) -> int:
        with self._lock:
            return sum(1 for job in self._jobs.values() if not job.done.is_set())

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def start(self, game: str, text: str, time_limit: float) -> Job:
        """Start a solve of level `text` of `game`; TooManySolves when `max_running` are running. O(1)."""
        with self._lock:
            if sum(1 for job in self._jobs.values() if not job.done.is_set()) >= self.max_running:
                raise TooManySolves(f"{self.max_running} solves are running; try again when one has finished")
            finished = [key for key, job in self._jobs.items() if job.done.is_set()]
            for key in finished[: max(0, len(finished) - KEEP_FINISHED + 1)]:
                del self._jobs[key]
            job = Job(secrets.token_urlsafe(9), game, text, time_limit)
            self._jobs[job.id] = job
        reader, writer = _context.Pipe(duplex=False)
        try:
            process = _context.Process(target=_worker, args=(game, text, time_limit, writer), daemon=True)
            process.start()
        except Exception:
            with self._lock:
                del self._jobs[job.id]
            raise
        finally:
            writer.close()  # the worker holds its own end: EOF here means it is gone
        job._update(process=process)
        threading.Thread(target=self._watch, args=(job, reader), name=f"solve-{job.id}", daemon=True).start()
        return job

    def cancel(self, job_id: str) -> Job | None:
        """Kill the solve's worker (if it runs) and mark it cancelled; None for an unknown id."""
        job = self.get(job_id)
        if job is None:
            return None
        if not job.done.is_set():
            job._finish("cancelled")  # first: the watcher, seeing the worker die, must not call it a failure
            kill(job.process)
        return job

    def close(self) -> None:
        """Kill every running worker (the server is stopping)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if not job.done.is_set():
                job._finish("cancelled")
                kill(job.process)

    def _watch(self, job: Job, reader: Any) -> None:
        """Read the worker's messages until it ends; kill it past its time limit plus the grace."""
        deadline = job.started + job.time_limit + self.grace
        try:
            while not job.done.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    kill(job.process)
                    job._finish("timeout", message=f"killed after {job.time_limit:g} s")
                    break
                try:
                    if not reader.poll(min(left, 0.5)):
                        continue
                    kind, data = reader.recv()
                except (EOFError, OSError):
                    job.process.join(5)
                    job._finish("error", message=f"the solver's process ended (exit code {job.process.exitcode})")
                    break
                if kind == "progress":
                    job._update(progress=data)
                elif kind == "error":
                    job._finish("error", message=data["message"])
                else:
                    self._answer(job, data)
        finally:
            reader.close()
            if job.process is not None:
                job.process.join(5)
                if job.process.is_alive():
                    kill(job.process)

    def _answer(self, job: Job, data: dict[str, Any]) -> None:
        status = data["status"]
        if data["solution"] is not None:
            try:
                why = recheck(job.game, job.text, data["solution"], data["length"])
            except Exception as exc:  # a solver's answer the parser refuses is a failed re-check too
                why = f"the solver's answer {data['solution']} cannot be read back: {exc}"
            if why is not None:
                job._finish("error", message=f"re-check failed: {why}")
                return
        job._finish(status, solution=data["solution"], length=data["length"],
                    solver_seconds=round(data["seconds"], 3), proven_impossible=data["proven_impossible"])  # fmt: skip


__all__ = ["Solves", "Job", "TooManySolves", "recheck", "kill", "GRACE"]
