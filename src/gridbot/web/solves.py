"""Solves for the web playground: one worker process per solve, a bounded number at once, killed on time or cancel.

The same machinery runs the playground's other long work, each a job of its `kind`: "solve" (gridbot.solve),
"analyze" (gridbot.analyze: par, counts of optimal programs and behaviours) and "generate" (gridbot.generate: a
level made to order). Every kind counts toward `max_running`.

A solve runs in a fresh interpreter (`python -m gridbot.web.solves`: the server's threads are never forked, and
no caller's main module is imported again, as multiprocessing's spawn and forkserver would) that leads its own
session: killing its process group also ends any pool the solver starts. The worker reads its task as one JSON
line on stdin and writes the solver's progress reports and its answer as JSON lines on stdout; one watcher thread
per solve reads them and kills the group when the time limit (plus a grace) has passed. The worker solves through
the API's front (gridbot.solve), which re-checks the answer with the game's simulator before it is sent: an answer
that fails the check ends the solve as an error, "re-check failed: ...".

>>> solves = Solves(max_running=1)
>>> job = solves.start("carrots", "S##", time_limit=60.0)
>>> job.wait(120)
True
>>> job.snapshot()["status"], job.snapshot()["solution"]
('optimal', 'F F')
>>> solves.close()
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from gridbot import games
from gridbot import solve as front
from gridbot.errors import GridbotError, WrongAnswer
from gridbot.parallel.workers import _die_with_parent
from gridbot.result import Status

GRACE = 2.0  # seconds a solver may overrun its own time limit (returning what it found) before it is killed
KEEP_FINISHED = 64  # finished solves remembered (for late readers), oldest forgotten first
MAX_LINE = 1 << 20  # bytes of one message from a worker at most (an answer is a program: far less)


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


def _send(kind: str, data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps([kind, data]) + "\n")
    sys.stdout.flush()


def _progress(info: dict[str, Any]) -> None:
    _send("progress", {str(k): _plain(v) for k, v in info.items()})


def _solve(module: Any, task: dict[str, Any]) -> dict[str, Any]:
    level = module.Level.parse(task["text"], name=task.get("name") or "your level")
    result = front.solve(level, time_limit=task["time_limit"], progress=_progress)
    solution = None if result.solution is None else str(result.solution)
    return {"status": result.status, "solution": solution, "length": result.length, "seconds": result.seconds,
            "proven_impossible": result.proven_impossible}  # fmt: skip


def _analyze(module: Any, task: dict[str, Any]) -> dict[str, Any]:
    from gridbot.solve.analyze import analyze

    level = module.Level.parse(task["text"], name=task.get("name") or "your level")
    analysis = analyze(level, time_limit=task["time_limit"], cap=task.get("cap", 100), progress=_progress)
    return {"status": str(analysis.status), "analysis": analysis.to_json()}


def _generate(module: Any, task: dict[str, Any]) -> dict[str, Any]:
    from gridbot.generate.order import generate

    size = task.get("size")
    made = generate(module.NAME, task.get("par"), size=None if size is None else tuple(size),
                    unique=task.get("unique", False), none=task.get("none", False), torches=task.get("torches"),
                    seed=task.get("seed", 0), count=1, time_limit=task["time_limit"], progress=_progress)  # fmt: skip
    out = [{"text": str(m.level), "analysis": m.analysis.to_json(), "tried": m.tried} for m in made]
    return {"status": "made" if out else "timeout", "levels": out}


KINDS = {"solve": _solve, "analyze": _analyze, "generate": _generate}


def worker_main() -> None:
    """In the worker process: read {kind, game, text, time_limit, ...} from stdin, do the work of its kind, and
    write ["progress", {...}] lines now and then and one ["result", {...}] (or ["error", {...}]) line at the end.
    A request the work refuses (a par no level can have: a GridbotError) ends as "refused", with its message."""
    task = json.loads(sys.stdin.readline())
    _die_with_parent(task["parent"])  # the server gone (even killed), its solves go too
    module = games.get(task["game"])
    try:
        _send("result", KINDS[task.get("kind", "solve")](module, task))
    except WrongAnswer as exc:  # a solver's bug, caught by the front's re-check: never shown as an answer
        _send("error", {"message": f"re-check failed: {exc}"})
    except GridbotError as exc:  # the request asks what cannot be: the message says why
        _send("error", {"message": str(exc), "status": "refused"})
    except Exception as exc:  # the watcher reports it; a worker has no one else to tell
        _send("error", {"message": f"{type(exc).__name__}: {exc}"})


@dataclass(slots=True)
class Job:
    """One solve: its worker, the latest progress and, once finished, its answer (guarded by `lock`)."""

    id: str
    game: str
    text: str
    time_limit: float
    kind: str = "solve"
    grace: float = GRACE
    process: Any = None
    started: float = field(default_factory=time.monotonic)
    status: str = "running"  # then optimal, solved, unsolvable, timeout, cancelled, error (made, refused)
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
                "kind": self.kind,
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


def kill(process: subprocess.Popen | None) -> None:
    """SIGKILL the worker's process group (the worker and any pool it started), then reap the worker."""
    if process is None:
        return
    # the worker leads its own session, so its group has its pid; a system without process groups (no killpg,
    # no SIGKILL: Windows) has only the worker itself to kill, below
    with contextlib.suppress(ProcessLookupError, PermissionError, AttributeError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


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

    def start(self, game: str, text: str, time_limit: float, kind: str = "solve", options: dict[str, Any] | None = None,
              grace: float | None = None) -> Job:  # fmt: skip
        """Start a job of `kind` (solve, analyze, generate) on level `text` of `game` ('' for generate), with the
        kind's `options` (generate: par, size, unique, none, torches, seed; analyze: cap, name) and a `grace` past
        its time limit (None: the Solves' own); TooManySolves when `max_running` are running. O(1)."""
        if kind not in KINDS:
            raise ValueError(f"no job of kind {kind!r} (known: {', '.join(KINDS)})")
        with self._lock:
            if sum(1 for job in self._jobs.values() if not job.done.is_set()) >= self.max_running:
                raise TooManySolves(f"{self.max_running} solves are running; try again when one has finished")
            finished = [key for key, job in self._jobs.items() if job.done.is_set()]
            for key in finished[: max(0, len(finished) - KEEP_FINISHED + 1)]:
                del self._jobs[key]
            job = Job(secrets.token_urlsafe(9), game, text, time_limit, kind, self.grace if grace is None else grace)
            self._jobs[job.id] = job
        task = {**(options or {}), "kind": kind, "game": game, "text": text, "time_limit": time_limit,
                "parent": os.getpid()}  # fmt: skip
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "gridbot.web.solves"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # its own group: cancelling kills the solver's own pool with it
                close_fds=True,
                env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
            )
            process.stdin.write((json.dumps(task) + "\n").encode())
            process.stdin.close()
        except Exception:
            with self._lock:
                del self._jobs[job.id]
            raise
        job._update(process=process)
        threading.Thread(target=self._watch, args=(job,), name=f"solve-{job.id}", daemon=True).start()
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

    def _watch(self, job: Job) -> None:
        """Read the worker's lines until it ends; kill it past its time limit plus the grace."""
        deadline = job.started + job.time_limit + job.grace
        process = job.process
        fd = process.stdout.fileno()
        pending = b""
        try:
            while not job.done.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    job._finish(Status.TIMEOUT, message=f"stopped after {job.time_limit:g} s")
                    kill(process)
                    break
                ready, _, _ = select.select([fd], [], [], min(left, 0.5))
                if not ready:
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk or len(pending) > MAX_LINE:
                    kill(process)
                    job._finish("error", message=f"the solver's process ended (exit code {process.returncode})")
                    break
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    self._message(job, line)
        finally:
            process.stdout.close()
            if process.poll() is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(5)
                kill(process)

    def _message(self, job: Job, line: bytes) -> None:
        try:
            kind, data = json.loads(line)
        except ValueError:
            return  # not ours (a library printing to stdout): the answer comes on a line of its own
        if kind == "progress":
            job._update(progress=data)
        elif kind == "error":
            job._finish(str(data.get("status", "error")), message=str(data.get("message")))
        elif kind == "result":
            self._answer(job, data)

    def _answer(self, job: Job, data: dict[str, Any]) -> None:
        if job.kind != "solve":  # analyze's {analysis}, generate's {levels}: as the worker sent them
            job._finish(str(data.pop("status")), **data)
            return
        job._finish(data["status"], solution=data["solution"], length=data["length"],
                    solver_seconds=round(data["seconds"], 3), proven_impossible=data["proven_impossible"])  # fmt: skip


__all__ = ["Solves", "Job", "TooManySolves", "kill", "GRACE", "KINDS", "worker_main"]


if __name__ == "__main__":
    worker_main()
