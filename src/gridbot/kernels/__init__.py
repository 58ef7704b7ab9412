"""Compiled hot loops (numba), each with a pure-Python twin (`kernel.py_func`) that the tests compare it with.

`compiled` is how a kernel that only reads and writes arrays its caller owns is compiled: cached, the GIL
released, and without numba's reference counting. Numba counts references to each array a compiled function
is given, with atomic instructions, at every call of one compiled function from another, and cannot remove
those counts across calls (numba issue 2345). Such a kernel never allocates, keeps or returns an array: each
array it touches belongs to the Python caller for the whole call, so the counts only cost time. On the RoboZZle
kernels, dropping them made the exact search 3.9 times and the annealer 2.7 times as fast, with the same nodes
and the same steps (BENCHMARKS.md). Numba refuses to compile an allocation (a slice copy, `np.empty`) in such a
kernel, so the rule is checked when the kernel compiles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit

try:  # numba's option for a function compiled without its runtime's reference counts (numba 0.19 on)
    from numba.core.options import DefaultOptions

    _NO_COUNTS: dict[str, Any] = {"_nrt": False} if hasattr(DefaultOptions, "_nrt") else {}
except ImportError:  # pragma: no cover - a numba without it compiles the kernels with the counts: slower, the same
    _NO_COUNTS = {}


def compiled(function: Callable[..., Any]) -> Any:
    """`function` compiled by numba: cached on disk, releasing the GIL, without reference counts (see above)."""
    return njit(cache=True, nogil=True, **_NO_COUNTS)(function)
