"""Reading input with caps, time limits that are numbers, the memory budget, and worker processes that end with
their parent (issue 15's shared ground)."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import gridbot
from gridbot import deadline, levels
from gridbot.deadline import Clock, check_time_limit
from gridbot.errors import GridbotError, LevelError
from gridbot.parallel import workers
from gridbot.solve import memory

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

# ---------------------------------------------------------------- reading levels


def test_a_path_object_loads_like_its_text(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_text("S##\n")
    assert gridbot.load(path, "carrots") == gridbot.load(str(path), "carrots")


def test_a_level_named_by_something_else_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not int"):
        gridbot.load(7, "carrots")  # type: ignore[arg-type]


def test_an_endless_device_is_cut_at_the_cap() -> None:
    started = time.monotonic()
    with pytest.raises(GridbotError, match="larger than"):
        levels.read_file("/dev/zero", limit=1 << 20)
    assert time.monotonic() - started < 5


def test_the_cap_is_the_formats_size() -> None:
    assert levels.max_bytes("carrots") >= (gridbot.grid.MAX_GRID_SIDE + 1) ** 2  # a full board fits


def test_a_fifo_nobody_writes_to_is_given_up(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(GridbotError, match="nothing arrived"):
        levels.read_file(fifo, timeout=0.3)
    assert time.monotonic() - started < 3


def test_a_fifo_is_read_when_its_writer_comes(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        time.sleep(0.2)
        with open(fifo, "w") as f:
            f.write("S#\n")

    writer = threading.Thread(target=write)
    writer.start()
    assert levels.read_file(fifo, timeout=5) == "S#\n"
    writer.join()


def test_a_name_too_long_for_the_system_is_one_clear_error() -> None:
    with pytest.raises(GridbotError, match="name too long"):
        gridbot.load("a" * 5000, "carrots")
    assert not levels.is_file("a" * 5000)


def test_text_that_is_not_utf8_names_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"S#\n#\xff#\n")
    with pytest.raises(LevelError) as caught:
        gridbot.load(path, "carrots")
    assert (caught.value.line, caught.value.column) == (2, 2)


def test_standard_input_is_read_with_the_cap() -> None:
    code = "import gridbot; print(gridbot.load('-', 'carrots').size)"
    done = subprocess.run([sys.executable, "-c", code], input="S##\n", capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "3", done.stderr


# ---------------------------------------------------------------- time limits


@pytest.mark.parametrize("bad", [float("nan"), 0, -1, -math.inf, "soon", [1]])
def test_a_time_limit_must_be_a_positive_number(bad: object) -> None:
    with pytest.raises(ValueError, match="time_limit"):
        check_time_limit(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Clock(bad)  # type: ignore[arg-type]


def test_an_infinite_time_limit_is_none() -> None:
    assert check_time_limit(math.inf) is None and Clock(math.inf).deadline.at is None
    assert check_time_limit(2) == 2.0


@pytest.mark.parametrize("game", ["carrots", "lightbot", "torch_cave", "bender", "pellet", "robos_escape"])
def test_every_solver_refuses_a_negative_time_limit(game: str) -> None:
    level = gridbot.load(f"{game}:{levels.names(game)[0]}")
    for solve in (gridbot.solve, gridbot.solve.solver(game).load().solve):  # the front, and the solver itself
        with pytest.raises(ValueError):
            solve(level, time_limit=-1)


# ---------------------------------------------------------------- memory


def test_the_budget_respects_the_address_space_limit() -> None:
    code = textwrap.dedent(
        """
        import resource
        from gridbot.solve.memory import memory_budget
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
        print(memory_budget(), memory_budget(0.5))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    whole, half = map(int, done.stdout.split() or done.stderr.split()[-2:])
    assert 0 < whole < 2**30  # half of what is left of 2 GiB at most
    assert abs(half - whole // 2) <= 1


def test_the_budget_respects_a_cgroup_limit(tmp_path: Path) -> None:
    own = tmp_path / "self_cgroup"
    own.write_text("4:memory:/box/inner\n0::/\n")
    inner = tmp_path / "memory" / "box" / "inner"
    inner.mkdir(parents=True)
    (inner / "memory.limit_in_bytes").write_text(str(9223372036854771712))  # no limit here
    (inner.parent / "memory.limit_in_bytes").write_text(str(3 * 2**30))  # but 3 GiB for the parent group
    (inner.parent / "memory.usage_in_bytes").write_text(str(2**30))
    assert memory._cgroup_room(tmp_path, own) == 2 * 2**30
    v2 = tmp_path / "v2"
    (v2 / "job").mkdir(parents=True)
    (v2 / "cgroup.controllers").write_text("memory\n")
    (v2 / "job" / "memory.max").write_text("max\n")
    (v2 / "memory.max").write_text(str(2**30))
    (v2 / "memory.current").write_text(str(2**28))
    own.write_text("0::/job\n")
    assert memory._cgroup_room(v2, own) == 2**30 - 2**28


def test_the_budget_has_a_ceiling() -> None:
    assert 0 < memory.memory_budget() <= memory.MAX_BUDGET


def test_the_arena_reuses_a_buffer_once_its_last_view_is_gone() -> None:
    """The pages a solve wrote serve the next one: the same memory, given back only when no view of it is left."""
    arena = memory.Arena(least=2**16, keep=2)
    assert arena.empty((100, 1000), np.uint64).base is None  # outside `reusing`: plain numpy arrays
    block = arena.reusing()
    block.__enter__()
    a = arena.empty((100, 1000), np.uint64)
    a[:] = 7
    view = a[10:, 5]
    address = a.__array_interface__["data"][0]
    del a
    assert arena.free_bytes() == 0  # a view still reads it
    other = arena.empty((100, 1000), np.uint64)
    assert other.__array_interface__["data"][0] != address
    del view
    assert arena.free_bytes() >= 800_000
    b = arena.empty((90, 1000), np.uint64)  # smaller: the same buffer, its old contents (undefined, as np.empty)
    assert b.__array_interface__["data"][0] == address and b.flags.writeable and b.flags.c_contiguous
    assert arena.empty(10, np.int32).base is None  # small requests are plain numpy arrays
    del b, other
    assert arena.free_bytes() > 0
    block.__exit__(None, None, None)  # the last block ends: the pool goes
    assert arena.free_bytes() == 0


def test_the_arena_keeps_few_buffers_and_a_limit_empties_it() -> None:
    arena = memory.Arena(least=1, keep=2)
    with arena.reusing():
        held = [arena.empty(2**20 + k, np.uint8) for k in range(4)]
        del held
        assert 0 < arena.free_bytes() <= 2 * memory._rounded(2**20 + 3)
    code = textwrap.dedent(
        """
        import resource
        import numpy as np
        from gridbot.solve import memory
        with memory.ARENA.reusing():
            a = memory.ARENA.empty(2**28, np.uint8)
            del a
            before = memory.ARENA.free_bytes()
            resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))
            memory.memory_budget()
            print(before, memory.ARENA.free_bytes())
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == [str(memory._rounded(2**28)), "0"], done.stderr


# ---------------------------------------------------------------- worker processes


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


# The parent answers Ctrl-C as a program run from a terminal does: started in the background by a shell without
# job control (a CI job may be), it would inherit SIGINT ignored (POSIX), and Python leaves an ignored SIGINT so.
# It waits in short sleeps, as the solvers' waits do: a signal that arrives just before one long sleep starts
# (after Python last looked at its flags) leaves that sleep running to its end, in any Python program.
POOL_SCRIPT = textwrap.dedent(
    """
    import signal
    import time
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from gridbot.parallel.workers import local_pool
    with local_pool(2) as (pool, stop):
        jobs = [pool.submit(time.sleep, 60) for _ in range(2)]
        time.sleep(1.0)
        print("ready", flush=True)
        for _ in range(600):
            time.sleep(0.1)
    """
)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the threads' signal masks in /proc (Linux)")
def test_the_pools_threads_leave_ctrl_c_to_the_main_thread() -> None:
    """The executor's threads block SIGINT, so a Ctrl-C reaches the main thread, which may be waiting on a result
    (a signal that lands on another thread only sets a flag, and the main thread's wait goes on to its end)."""

    def blocked() -> dict[int, bool]:
        masks = {}
        for task in Path(f"/proc/{os.getpid()}/task").iterdir():
            fields = dict(line.split(":\t", 1) for line in (task / "status").read_text().splitlines() if ":\t" in line)
            masks[int(task.name)] = bool(int(fields["SigBlk"], 16) >> (signal.SIGINT - 1) & 1)
        return masks

    before = set(blocked())
    with workers.local_pool(2) as (pool, _):
        assert pool.submit(sum, [1, 2]).result() == 3
        new = {task: mask for task, mask in blocked().items() if task not in before}
        assert len(new) >= 2 and all(new.values())  # the manager and the queue's feeder, at least
        assert not blocked()[threading.get_native_id()]


@pytest.mark.parametrize("how", ["kill", "interrupt"])
def test_workers_do_not_outlive_their_parent(how: str) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", POOL_SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert parent.stdout.readline().strip() == "ready"
    children = _children(parent.pid)
    assert len(children) >= 2
    parent.send_signal(signal.SIGKILL if how == "kill" else signal.SIGINT)
    parent.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(c) for c in children)
    if how == "interrupt":  # only the parent's own KeyboardInterrupt, no worker's
        assert parent.stderr.read().count("KeyboardInterrupt") <= 1


def test_the_stop_event_reaches_the_workers() -> None:
    with workers.local_pool(1) as (pool, stop):
        assert pool.submit(deadline.stop_requested).result() is False
        stop.set()
        assert pool.submit(deadline.stop_requested).result() is True
