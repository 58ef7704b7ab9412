"""The memory budget of a solver's tables: what this machine, its limits and its control group allow; and the
arena their large arrays come from, whose memory the process keeps for its next solve.

>>> memory_budget() > 0
True
>>> import numpy as np
>>> with ARENA.reusing():
...     a = ARENA.empty((1024, 256), np.uint64)  # 2 MiB: from the arena
>>> a.shape, a.dtype.name
((1024, 256), 'uint64')
"""

from __future__ import annotations

import collections
import contextlib
import mmap
import os
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from gridbot.text import is_digits

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import DTypeLike

MAX_BUDGET = 8 * 2**30  # no solver needs more; leaves the rest of a big machine to others
UNREADABLE_BUDGET = 4 * 2**30  # when the machine does not say how much memory it has


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if is_digits(text) else None


def _cgroup_room(root: Path = Path("/sys/fs/cgroup"), own: Path = Path("/proc/self/cgroup")) -> int | None:
    """Bytes this process's control groups (v1 or v2) still allow it, the tightest over the hierarchy; None if no
    limit is set or none can be read. O(depth of the hierarchy)."""
    try:
        lines = own.read_text().splitlines()
    except OSError:
        return None
    rooms: list[int] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, where = parts
        if controllers == "":  # v2: one unified hierarchy
            base, limit_name, usage_name = root, "memory.max", "memory.current"
            if not (base / "cgroup.controllers").exists():
                base = root / "unified"
        elif "memory" in controllers.split(","):
            base, limit_name, usage_name = root / "memory", "memory.limit_in_bytes", "memory.usage_in_bytes"
        else:
            continue
        folder = Path(where.lstrip("/"))
        for part in (folder, *folder.parents):
            here = base / part
            limit, usage = _read_int(here / limit_name), _read_int(here / usage_name)
            if limit is not None and limit < 2**60:  # "max" or a huge number: no limit
                rooms.append(max(0, limit - (usage or 0)))
    return min(rooms) if rooms else None


def _address_room() -> int | None:
    """Bytes of address space RLIMIT_AS still allows this process; None without a limit, or on a system without
    the `resource` module (imported here, not at the top, so that gridbot imports there too)."""
    try:
        import resource
    except ImportError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        used = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        used = 0
    return max(0, soft - used)


def _physical() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def memory_budget(share: float = 1.0) -> int:
    """Bytes a solver may allocate for its tables, `share` of what it gets (e.g. 1/workers).

    The least of: a third of the physical memory (at most 8 GiB; 4 GiB when it
    cannot be read), half of the address space RLIMIT_AS leaves, and half of
    what the control group's memory limit leaves. Halves, because a table that
    grows by doubling needs room for the old and the new copy, and the
    interpreter needs some too. Read afresh at every call: O(cgroup depth).
    Where either limit applies, the arena's free buffers are given back first.
    """
    physical = _physical()
    room = UNREADABLE_BUDGET if physical is None else min(MAX_BUDGET, physical // 3)
    limits = (_address_room(), _cgroup_room())
    # the arena's free buffers count against these limits: give them back and read the limits again
    if any(limited is not None for limited in limits) and ARENA.clear():
        limits = (_address_room(), _cgroup_room())
    for limited in limits:
        if limited is not None:
            room = min(room, limited // 2)
    return max(0, int(room * share))


class Arena:
    """Large scratch arrays (`empty`) whose memory goes back to a pool when the last view of it goes, for the next
    request of the process to reuse.

    Why: a solver's tables are allocated as large as the budget allows and filled row by row, and every page the
    process writes for the first time costs a page fault. On a virtual machine whose host takes back free memory,
    that is about 10 ms per MiB: a third of the time of a run of many small solves (the Carrots analysis and
    generator) went there. Reused buffers have their pages already.

    Requests under `least` bytes get a plain numpy array. The pool keeps at most `keep` free buffers, and none once
    a request needs a new one, so that the process does not hold old buffers beside new ones. Each buffer is a
    private anonymous mapping, so a forked worker gets its own copy on write. Wherever a memory limit applies,
    `memory_budget` clears the pool before reading it.

    Contents are undefined, as with numpy.empty. O(pool) per request.
    """

    def __init__(self, least: int = 2**20, keep: int = 8) -> None:
        self.least, self.keep = least, keep
        self._free: list[mmap.mmap] = []
        self._returned: collections.deque[mmap.mmap] = collections.deque()  # appended by finalizers, any thread
        self._lock = threading.Lock()
        self._users = 0  # blocks of `reusing` under way: outside them, requests are plain numpy arrays

    @contextlib.contextmanager
    def reusing(self) -> Iterator[None]:
        """Within the block, large requests come from the pool; when the last such block ends, the pool is given
        back. For a run of many solves (an analysis, levels made to order): a single solve under a tight limit
        gets plain numpy arrays and pays nothing for buffers other solves left. Usable as a decorator."""
        with self._lock:
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                last = self._users == 0
            if last:
                self.clear()

    def empty(self, shape: int | tuple[int, ...], dtype: DTypeLike) -> np.ndarray:
        """An array of `shape` and `dtype` with undefined contents, from a free buffer of the pool when one is large
        enough, else from a new one; MemoryError when the system refuses the address space."""
        import numpy as np  # here, not at the top: Bender's solver uses only the budget and needs no numpy

        dt = np.dtype(dtype)
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        nbytes = int(np.prod(dims, dtype=np.int64)) * dt.itemsize
        if nbytes < self.least or not self._users:
            return np.empty(dims, dt)
        buffer = self._take(nbytes)
        if buffer is None:
            try:
                buffer = mmap.mmap(-1, _rounded(nbytes), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            except OSError as exc:  # ENOMEM: the address space a limit or strict overcommit refuses
                raise MemoryError(str(exc)) from None
        raw = np.frombuffer(buffer, np.uint8, count=nbytes)
        weakref.finalize(raw, self._release, buffer)  # every view of raw has raw as its base
        return raw.view(dt).reshape(dims)

    def _take(self, nbytes: int) -> mmap.mmap | None:
        with self._lock:
            self._drain()
            fits = [b for b in self._free if len(b) >= nbytes]
            if not fits:  # a new buffer: the free ones go first, so that the process holds no more than before
                self._close_free()
                return None
            best = min(fits, key=len)
            self._free.remove(best)
            return best

    def _release(self, buffer: mmap.mmap) -> None:
        """The last view of `buffer` is gone: pool it within a `reusing` block, else give it back now, where numpy
        would have given it back too. Runs wherever the garbage collector does, so it takes no lock: a race keeps
        one buffer more or fewer."""
        if self._users and len(self._free) + len(self._returned) < self.keep:
            self._returned.append(buffer)
        else:
            _close(buffer)

    def _drain(self) -> None:
        while self._returned:
            self._free.append(self._returned.popleft())
        while len(self._free) > self.keep:
            _close(self._free.pop(0))

    def free_bytes(self) -> int:
        """Bytes of address space the pool's free buffers hold."""
        with self._lock:
            self._drain()
            return sum(len(b) for b in self._free)

    def clear(self) -> int:
        """Give every free buffer back to the system; returns how many there were."""
        with self._lock:
            self._drain()
            return self._close_free()

    def _close_free(self) -> int:
        """Close every free buffer (the lock held); returns how many there were."""
        count = len(self._free)
        for buffer in self._free:
            _close(buffer)
        self._free.clear()
        return count


def _rounded(nbytes: int) -> int:
    """nbytes rounded up to a sixteenth of its power of two (at most 6.25 % more), so that requests of about the
    same size, such as the tables of two boards given the same budget, fit the same buffer."""
    step = max(mmap.PAGESIZE, 1 << max(0, nbytes.bit_length() - 4))
    return -(-nbytes // step) * step


def _close(buffer: mmap.mmap) -> None:
    with contextlib.suppress(BufferError):  # still exported: its memory goes when the last view does
        buffer.close()


ARENA = Arena()


class OutOfBudget(Exception):
    """A table or memo would not fit in the memory budget; the solver stops there and says so."""
