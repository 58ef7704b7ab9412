"""The executors (gridbot.parallel.executors): local processes and a real Dask LocalCluster give the same answers;
a worker killed in the middle of a proof costs only its share; a checkpoint resumes a run stopped half way.

The solvers split a length into shares only when it is expected to take a few seconds; the tests lower that
threshold (PARALLEL_AFTER) so that every length of a small level goes through the executor's shares.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import threading
import time
from concurrent.futures import Executor as PoolExecutor

import pytest
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli
from gridbot.parallel import checkpoint as checkpoint_mod
from gridbot.parallel import executors
from gridbot.solve import batch
from gridbot.solve import lightbot as lightbot_solver
from gridbot.solve import robos_escape as escape_solver
from gridbot.solve import robozzle as robozzle_solver
from gridbot.solve.robozzle import front as robozzle_front

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

pytest.importorskip("distributed")

SLOW_PUZZLE = "robozzle:478"  # about 2.7 s alone, 8 slots: lengths 1 to 7 excluded, then found
KILL_AFTER = 0.6  # seconds into the proof: the last lengths are being searched (their shares take 1-2 s)


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 worker processes (one thread each) on the loopback, for the whole module."""
    with executors.dask("local:2") as run:
        yield run


@pytest.fixture(scope="module")
def pool():
    with executors.local(2) as run:
        yield run


@pytest.fixture
def shares_always(monkeypatch):
    """Every length of every level is split into shares (not only those expected to take seconds): the solvers'
    default settings, since the command line takes none (RoboZZle's `solve` reads its front module's)."""
    for module in (lightbot_solver, escape_solver, robozzle_front):
        split = dataclasses.replace(module.DEFAULT.schedule, parallel_after=-1.0)
        monkeypatch.setattr(module, "DEFAULT", dataclasses.replace(module.DEFAULT, schedule=split))


def _answer(result):
    """What must not depend on the executor: status, length, lengths excluded, and Robo's Escape's score."""
    return result.status, result.length, result.lower_bound, (result.stats or {}).get("score")


class _Counting(PoolExecutor):
    """A pool that counts what is submitted to it (to see which shares a resumed run searched again)."""

    def __init__(self, inner: PoolExecutor) -> None:
        self.inner = inner
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        return self.inner.submit(fn, *args, **kwargs)


def _counting(run: executors.Executor, checkpoint=None) -> executors.Executor:
    return dataclasses.replace(run, pool=_Counting(run.pool), checkpoint=checkpoint)


def test_dask_executor_reports_its_workers(cluster):
    # local:N shares this machine's cores with the look-ahead of this process: one worker fewer is kept busy
    assert cluster.kind == "dask" and cluster.workers == 2 and cluster.head_start == 1
    assert cluster.pool.submit(sum, [1, 2, 3]).result() == 6


def test_a_cluster_at_an_address_keeps_every_worker_busy():
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as elsewhere,
        executors.dask(elsewhere.scheduler_address) as run,
    ):
        assert run.workers == 2 and run.head_start == 2


def test_the_local_cluster_runs_with_dask_bookkeeping_slowed_down(cluster):
    import dask.config

    def settings():
        return {key: dask.config.get(key) for key in executors.QUIET}

    seen = cluster.client.run(settings)
    assert len(seen) == 2 and all(worker == executors.QUIET for worker in seen.values())


@pytest.mark.parametrize(
    "spec, solve",
    [
        ("lightbot:3", lambda level, **kw: lightbot_solver.solve(level, **kw)),
        ("lightbot:9", lambda level, **kw: lightbot_solver.solve(level, **kw)),
        ("robozzle:532", lambda level, **kw: robozzle_solver.solve(level, **kw)),
        ("robozzle:15", lambda level, **kw: robozzle_solver.solve(level, **kw)),
        ("robos_escape:04", lambda level, **kw: escape_solver.solve(level, **kw)),
        ("robos_escape:05", lambda level, **kw: escape_solver.solve(level, **kw)),
    ],
)
def test_shares_give_the_same_answer_on_every_executor(spec, solve, cluster, pool, shares_always):
    level = gridbot.load(spec)
    alone = solve(level, workers=1)
    assert alone.status == "optimal"
    assert _answer(solve(level, executor=pool)) == _answer(alone)
    assert _answer(solve(level, executor=cluster)) == _answer(alone)


@pytest.mark.parametrize("spec, best", [("robos_escape:04", 43), ("robos_escape:05", 63)])
def test_shares_of_robos_escape_cover_the_length_exactly(spec, best):
    """Every escape of a length is met by exactly one share, whatever the number of shares: the path hash deals
    each subtree at the split depth to one share. Without listing all, each share keeps raising its own coin
    bound, and the best of the shares is the best of the length."""
    board = escape_solver._Board.of(gridbot.load(spec))
    whole = escape_solver._share(board, 7, best, 0, True, escape_solver.DEFAULT, None, 0, 1)
    assert whole.finished and whole.programs and not whole.capped
    top = escape_solver._share(board, 7, -(10**9), 0, False, escape_solver.DEFAULT, None, 0, 1).programs[-1][0]
    for count in (2, 5):
        parts = [escape_solver._share(board, 7, best, 0, True, escape_solver.DEFAULT, None, k, count)
                 for k in range(count)]  # fmt: skip
        met = [text for part in parts for _, _, text in part.programs]
        assert sorted(met) == sorted(text for _, _, text in whole.programs)
        firsts = [escape_solver._share(board, 7, -(10**9), 0, False, escape_solver.DEFAULT, None, k, count)
                  for k in range(count)]  # fmt: skip
        assert max(part.programs[-1][0] for part in firsts if part.programs) == top


def test_levels_as_tasks_give_the_same_answers(cluster, pool):
    specs = [
        "carrots:1",
        "carrots:3",
        "carrots:4",
        "bender:01_simple_moves",
        "bender:03_priorities",
        "robozzle:15",
        "lightbot:5",
    ]
    for game in sorted({spec.split(":")[0] for spec in specs}):
        levels = [gridbot.load(spec) for spec in specs if spec.startswith(game)]
        options = {"time_limit": 60.0, "all_solutions": False}
        alone = [_answer(gridbot.solve(level, time_limit=60.0)) for level in levels]
        for run in (pool, cluster):
            streamed = list(batch.solve_levels(run, game, levels, options))
            assert [index for index, _, _ in streamed] == list(range(len(levels)))  # input order
            assert [_answer(result) for _, result, _ in streamed] == alone


def test_a_worker_killed_in_the_middle_of_a_proof_costs_only_its_share(cluster, shares_always):
    level = gridbot.load(SLOW_PUZZLE)
    alone = robozzle_solver.solve(level, workers=1, beam=False)
    before = cluster.client.run(os.getpid)
    victim = sorted(before.values())[0]
    killer = threading.Timer(KILL_AFTER, os.kill, (victim, signal.SIGKILL))
    killer.start()
    try:
        result = robozzle_solver.solve(level, executor=cluster, beam=False)
    finally:
        killer.join()
    assert result.seconds > KILL_AFTER  # the worker died while the proof ran
    assert _answer(result) == _answer(alone)
    cluster.client.wait_for_workers(2, timeout=60)
    after = cluster.client.run(os.getpid)
    assert victim not in after.values()  # the worker did die, and Dask started another


def test_a_checkpoint_resumes_a_proof_stopped_half_way(cluster, tmp_path, shares_always):
    level = gridbot.load(SLOW_PUZZLE)
    fresh = _counting(cluster)
    alone = robozzle_solver.solve(level, executor=fresh, beam=False)
    # a run stopped by its clock after some shares ended and before the proof did; how long that is depends on
    # the machine's load (the first run above also warmed the workers), so shorter limits are tried in turn
    for fraction in (0.5, 0.35, 0.25, 0.15, 0.1):
        path = tmp_path / f"proof-{fraction}.jsonl"
        with checkpoint_mod.Checkpoint(path) as done:
            stopped = robozzle_solver.solve(level, time_limit=alone.seconds * fraction,
                                            executor=_counting(cluster, done), beam=False)  # fmt: skip
        records = [json.loads(line) for line in path.read_text().splitlines()]
        if stopped.status == "timeout" and records:
            break
    assert stopped.status == "timeout"
    assert records and all(record["key"]["kind"] == "share" for record in records)
    with checkpoint_mod.Checkpoint(path) as done:
        resumed_on = _counting(cluster, done)
        resumed = robozzle_solver.solve(level, executor=resumed_on, beam=False)
    assert _answer(resumed) == _answer(alone)
    # every share recorded was taken from the file, every other one searched
    assert resumed_on.pool.submitted == fresh.pool.submitted - len(records)


def test_a_checkpoint_resumes_a_corpus_run(pool, tmp_path):
    path = tmp_path / "levels.jsonl"
    levels = [gridbot.load(f"carrots:{n}") for n in (1, 2, 3)]
    options = {"time_limit": 30.0, "all_solutions": False}
    with checkpoint_mod.Checkpoint(path) as done:
        first = list(batch.solve_levels(dataclasses.replace(pool, checkpoint=done), "carrots", levels[:2], options))
    assert not any(resumed for _, _, resumed in first)
    with checkpoint_mod.Checkpoint(path) as done:
        run = _counting(pool, done)
        second = list(batch.solve_levels(run, "carrots", levels, options))
    assert [resumed for _, _, resumed in second] == [True, True, False]
    assert run.pool.submitted == 1
    assert [_answer(result) for _, result, _ in second[:2]] == [_answer(result) for _, result, _ in first]
    assert str(second[0][1].solution) == str(first[0][1].solution)


def test_a_checkpoint_skips_a_line_cut_off_mid_write(tmp_path):
    path = tmp_path / "cut.jsonl"
    with checkpoint_mod.Checkpoint(path) as done:
        done.put({"kind": "share", "share": 0}, {"nodes": 1})
    path.write_text(path.read_text() + '{"key": {"kind": "sha')  # the process died while writing
    with checkpoint_mod.Checkpoint(path) as done:
        assert len(done) == 1
        done.put({"kind": "share", "share": 1}, {"nodes": 2})
    assert checkpoint_mod.Checkpoint(path).get({"kind": "share", "share": 1}) == {"nodes": 2}


def test_a_stopped_dask_task_reads_the_stop_event(cluster):
    cluster.stop.clear()
    job = cluster.pool.submit(_wait_for_stop, 30.0)
    time.sleep(0.5)
    cluster.stop.set()
    assert job.result(timeout=10) is True
    cluster.stop.clear()


def _wait_for_stop(seconds: float) -> bool:
    from gridbot.deadline import stop_requested

    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if stop_requested():
            return True
        time.sleep(0.01)
    return False


def _lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_the_command_streams_several_levels_in_input_order_and_resumes(tmp_path):
    path = tmp_path / "run.jsonl"
    args = ["solve", "carrots", "4", "1", "3", "--json", "--jobs", "2", "--checkpoint", str(path)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert [row["level"] for row in _lines(first.output)] == ["carrots:04", "carrots:01", "carrots:03"]
    assert len(path.read_text().splitlines()) == 3
    again = CliRunner().invoke(cli, [*args, "--unordered"])
    assert again.exit_code == 0, again.output
    assert sorted(map(json.dumps, _lines(again.output))) == sorted(map(json.dumps, _lines(first.output)))
    assert len(path.read_text().splitlines()) == 3  # nothing solved again


def test_the_command_runs_one_proof_on_a_local_cluster(tmp_path, shares_always):
    path = tmp_path / "proof.jsonl"
    args = ["solve", "robozzle", "532", "--json", "--scheduler", "local:2", "--checkpoint", str(path)]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    (row,) = _lines(done.output)
    assert (row["status"], row["length"]) == ("optimal", 5)
    kinds = [json.loads(line)["key"]["kind"] for line in path.read_text().splitlines()]
    assert kinds[-1] == "level" and "share" in kinds


def test_the_command_refuses_jobs_with_a_scheduler():
    done = CliRunner().invoke(cli, ["solve", "carrots", "1", "--jobs", "2", "--scheduler", "local:2"])
    assert done.exit_code == 2


def test_a_peer_that_is_not_a_scheduler_is_one_line_and_status_2():
    """Whatever answers at the address is reported in one line, not a traceback. Here: an HTTP server (a proxy
    answered so once), whose "HTTP/1.1" Dask reads as the length of a frame, 3 EiB: a MemoryError."""
    import socket

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer_junk() -> None:
        server.settimeout(30)
        for _ in range(8):
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                time.sleep(0.2)

    threading.Thread(target=answer_junk, daemon=True).start()
    try:
        done = CliRunner().invoke(cli, ["solve", "carrots", "1", "--scheduler", f"tcp://127.0.0.1:{port}"])
    finally:
        server.close()
    assert done.exit_code == 2, done.output
    assert "Traceback" not in done.output and "cannot reach the Dask scheduler" in done.output
