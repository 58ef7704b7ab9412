"""Compiled hot loops (numba), each with a pure-Python twin: `kernel.py_func`, the same source run as Python.

Every kernel is made by `kernel`, one way for all of them: cached on disk (a process loads a kernel instead of
compiling it again), the GIL released (the solvers run kernels on threads side by side), and, unless the kernel
allocates, compiled without numba's reference counts.

Numba counts references to each array a compiled function is given, with atomic instructions, at every call of
one compiled function from another, and cannot remove those counts across calls (numba issue 2345). A kernel
that only reads and writes arrays its caller owns never allocates, keeps or returns a new array: each array it
touches belongs to the Python caller for the whole call, so the counts only cost time (in the search loops, most
of it: the RoboZZle exact search runs several times as fast without them). Numba refuses to compile an allocation
(`np.empty`, a slice copy) without the counts, so a kernel that drops them by mistake fails as it compiles; one
that must allocate says so (`allocates=True`) and keeps them. A slice copy in a kernel is a loop instead, which
needs no count.

The twin gives the same answers, only slower: solvers run it when asked not to compile (`jit=False`), and
tests/structure/test_kernels.py compares every kernel with its twin on the inputs of real solves and checks how each
was compiled. A kernel called from another runs compiled inside the twin; NUMBA_DISABLE_JIT=1 runs them all
as Python. A helper that must stay a plain Python function (`plain=True`: the torch cave searches run small
caves in plain Python, never loading compiled code) is compiled inside each kernel that calls it.

Kernels import nothing of gridbot above this package: the solvers hand them arrays and numbers. A search
kernel's call ends with one of the codes below (EXHAUSTED, FOUND, PAUSED), which the solvers and the shares of
a split search (gridbot.parallel.shares) read. Importing this package does not load numba: the first kernel
made does, so a module that only reads the codes stays light.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXHAUSTED, FOUND, PAUSED = 0, 1, 2  # a search kernel's call: its tree is searched, it met a program, or it paused

_HERE = Path(__file__).resolve().parent


@functools.cache
def _no_counts() -> dict[str, Any]:
    """numba's option for a function compiled without its runtime's reference counts (numba 0.19 on); none on a
    numba without it, whose kernels then keep the counts: slower, the same answers."""
    try:
        from numba.core.options import DefaultOptions
    except ImportError:  # pragma: no cover
        return {}
    return {"_nrt": False} if hasattr(DefaultOptions, "_nrt") else {}


@dataclass(frozen=True)
class Made:
    """How `kernel` made a kernel (the tests check the dispatcher's options against it)."""

    inline: bool
    allocates: bool
    plain: bool

    def options(self) -> dict[str, Any]:
        """numba's options for such a kernel."""
        options: dict[str, Any] = {"cache": True, "nogil": True}
        if not self.allocates:
            options.update(_no_counts())
        if self.inline:
            options["inline"] = "always"
        return options


MADE: dict[int, tuple[Any, Made]] = {}  # id of every kernel made -> (the kernel, how): the tests find them here


def kernel(
    function: Callable[..., Any] | None = None, /, *, inline: bool = False, allocates: bool = False, plain: bool = False
) -> Any:
    """`function` compiled by numba as every kernel is (see above); as `@kernel` or `@kernel(...)`.

    `inline`: numba puts its body into each compiled caller (a small helper of a hot loop, where a call's cost
    shows). `allocates`: it makes arrays, so it keeps the reference counts. `plain`: the function itself stays
    a plain Python function, callable from plain Python without loading numba, and numba compiles it into
    every kernel that calls it (numba's register_jitable).
    """

    def make(fn: Callable[..., Any]) -> Any:
        from numba import njit
        from numba.extending import register_jitable

        how = Made(inline, allocates, plain)
        if plain:
            register_jitable(fn)
            MADE[id(fn)] = (fn, how)
            return fn
        dispatcher = njit(**how.options())(fn)
        if dispatcher is fn:  # NUMBA_DISABLE_JIT=1: the kernel is its twin, and callers still name the twin
            fn.py_func = fn  # type: ignore[attr-defined]
            return fn
        _stamp_with_family(dispatcher, fn)
        MADE[id(dispatcher)] = (dispatcher, how)
        return dispatcher

    return make if function is None else make(function)


def made(candidate: Any) -> Made | None:
    """How `kernel` made `candidate`, or None if it did not."""
    entry = MADE.get(id(candidate))
    return entry[1] if entry is not None and entry[0] is candidate else None


def _stamp_with_family(dispatcher: Any, fn: Callable[..., Any]) -> None:
    """Tie a cached kernel to every source file of its family, not only its own.

    numba keeps a kernel compiled on disk until its own file changes, and does not see a change in a kernel of
    another file that it calls (numba's documentation, "cache notes"): that would load a stale kernel. A family of
    kernels split over the modules of one package (kernels/robozzle/) calls across its files, so each of its
    kernels is stamped with all of them: a change to any recompiles the family. A kernel in a module of its own
    calls only into its file, and numba's stamp suffices."""
    module_file = Path(fn.__code__.co_filename).resolve()
    family = module_file.parent
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if family == _HERE or cache_file is None or not hasattr(cache_file, "_source_stamp"):
        return
    cache_file._source_stamp = (cache_file._source_stamp, _family_stamp(family))


@functools.cache
def _family_stamp(directory: Path) -> str:
    """A hash of the sources of a family's modules (numba hashes a kernel's own file the same way)."""
    digest = hashlib.sha256()
    for path in sorted(directory.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
