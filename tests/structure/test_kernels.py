"""Every kernel of gridbot.kernels: made by the one compile function with the options it should have, equal to its
plain-Python twin on the arguments of real calls, and importing nothing but numpy, numba and the standard library
(tests/structure/test_layers.py keeps gridbot above the kernels out of them).

The kernels are found, not listed: every numba dispatcher in every module of gridbot.kernels (and every kernel
gridbot.kernels.kernel made), so a new kernel is checked as soon as it exists, and fails until some solve or a
direct call in tests/structure/kernel_calls.py reaches it.
"""

from __future__ import annotations

import ast
import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from numba.core.caching import FunctionCache
from numba.core.dispatcher import Dispatcher

from gridbot import kernels
from gridbot.kernels import made
from tests import SRC

from . import kernel_calls

HERE = Path(__file__).resolve().parent
MODULES = kernel_calls.kernel_modules()
FOUND = {kernel_calls.name_of(kernel): kernel for _, _, kernel in kernel_calls.places(MODULES)}
FOUND.update({kernel_calls.name_of(k): k for k, how in kernels.MADE.values() if not how.plain})
NAMES = sorted(FOUND)


@pytest.fixture(scope="session")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """tests/structure/kernel_calls.py's verdicts, run once per session (once for all the workers of pytest-xdist, which
    share the parent of their temporary directories)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    out = root / "kernel_verdicts.json"
    with open(root / "kernel_verdicts.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.exists():
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
            done = subprocess.run(
                [sys.executable, str(HERE / "kernel_calls.py"), str(out)],
                capture_output=True, text=True, env=env, timeout=900,
            )  # fmt: skip
            if done.returncode != 0:
                out.unlink(missing_ok=True)
                pytest.fail(f"tests/structure/kernel_calls.py failed:\n{done.stderr[-4000:]}")
    return json.loads(out.read_text())


def test_kernels_are_found() -> None:
    """The search for kernels finds those of every family (a change in how they are made would hide them)."""
    families = {name.split(".")[2] for name in NAMES}
    assert families >= {"carrots", "lightbot", "lightbot_paths", "pellet", "robos_escape", "robozzle", "torch_cave"}
    assert len(NAMES) >= 100


def test_numba_drops_the_counts() -> None:
    """This numba has the option that compiles a kernel without reference counts (else every kernel keeps them:
    the same answers, several times slower)."""
    assert kernels._no_counts() == {"_nrt": False}


@pytest.mark.parametrize("name", NAMES)
def test_made_by_kernel_with_its_options(name: str) -> None:
    """Made by gridbot.kernels.kernel: cached on disk, the GIL released, without reference counts unless it
    allocates (then tests/structure/kernel_calls.py checks that it cannot do without them), inlined when asked."""
    kernel = FOUND[name]
    how = made(kernel)
    assert how is not None, f"{name} is compiled by something else than gridbot.kernels.kernel"
    options = dict(kernel.targetoptions)
    assert options.pop("nopython") and options.pop("nogil")
    assert options.pop("_nrt", True) is how.allocates
    assert options.pop("inline", "never") == ("always" if how.inline else "never")
    assert options.pop("boundscheck", None) is None
    assert options == {}
    assert isinstance(kernel._cache, FunctionCache)


@pytest.mark.parametrize("name", NAMES)
def test_equals_its_twin_on_real_calls(name: str, verdicts: dict[str, Any]) -> None:
    """Compiled and as plain Python (its twin, all the way down), on copies of the arguments of real calls: the
    same result and the same arrays after. See tests/structure/kernel_calls.py for the calls."""
    verdict = verdicts.get(name)
    assert verdict is not None and verdict["calls"] > 0, f"no call of {name}: add one to kernel_calls.py"
    assert verdict["problems"] == []


def test_plain_helpers_stay_plain() -> None:
    """A helper made with plain=True is the Python function itself (the torch cave searches run it without
    loading numba) and no dispatcher."""
    helpers = [fn for fn, how in kernels.MADE.values() if how.plain]
    assert helpers and not any(isinstance(fn, Dispatcher) for fn in helpers)


def test_a_family_split_over_modules_is_stamped_with_all_its_files() -> None:
    """numba reloads a cached kernel until its own file changes; a kernel of kernels/robozzle/ or
    kernels/lightbot/ calls into the other files of its package, so each is stamped with all of them."""
    for name, kernel in FOUND.items():
        stamp = kernel._cache._cache_file._source_stamp
        directory = Path(kernel.py_func.__code__.co_filename).parent
        if directory.name in ("robozzle", "lightbot"):
            assert isinstance(stamp, tuple) and stamp[1] == kernels._family_stamp(directory), name


def test_robos_escape_kernel_keeps_the_games_limit() -> None:
    from gridbot.games import robos_escape
    from gridbot.kernels import robos_escape as kern

    assert kern.MAX_COMMANDS == robos_escape.MAX_COMMANDS


def test_kernels_import_only_numpy_numba_and_the_standard_library() -> None:
    """A kernel takes arrays and numbers: beside gridbot.kernels itself (test_layers.py keeps the rest of gridbot
    out), gridbot.kernels imports numpy, numba and the standard library, at its top or anywhere else."""
    root = Path(kernels.__file__).parent
    allowed = {"gridbot", "numpy", "numba", *sys.stdlib_module_names}
    wrong = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            wrong += [f"{path.relative_to(root)} imports {name}" for name in names if name.split(".")[0] not in allowed]
    assert wrong == []
