"""The memory budget of a solver's tables: what this machine, its limits and its control group allow.

>>> memory_budget() > 0
True
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_BUDGET = 8 * 2**30  # no solver needs more; leaves the rest of a big machine to others
UNREADABLE_BUDGET = 4 * 2**30  # when the machine does not say how much memory it has


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


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
    """
    physical = _physical()
    room = UNREADABLE_BUDGET if physical is None else min(MAX_BUDGET, physical // 3)
    for limited in (_address_room(), _cgroup_room()):
        if limited is not None:
            room = min(room, limited // 2)
    return max(0, int(room * share))


class OutOfBudget(Exception):
    """A table or memo would not fit in the memory budget; the solver stops there and says so."""
