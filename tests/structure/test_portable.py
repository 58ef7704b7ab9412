"""gridbot runs on Linux; elsewhere the commands that can run do, and the rest stop with one line.

No module imports a Unix-only module (`resource`, `fcntl`, ...) or ctypes (which the worker pool uses to load
`prctl`) when it is imported: only the function that needs one imports it, and copes when it is missing. Worker
pools ask gridbot.parallel.workers.fork_method() for their start method, which says in one line that a system
without `fork` cannot run them, rather than hard-coding "fork".
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridbot.errors import GridbotError
from gridbot.parallel import workers
from tests import SRC

# modules that some systems lack, or that load a system's C library (ctypes: prctl)
UNIX_ONLY = {"resource", "fcntl", "termios", "tty", "pty", "pwd", "grp", "ctypes"}
MODULES = sorted((SRC / "gridbot").rglob("*.py"))


def import_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes run when the module is imported: everything outside function bodies (class bodies run too)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        yield node
        yield from import_time_nodes(node)


def imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module.split(".")[0]]
    return []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(SRC)))
def test_no_module_imports_a_unix_only_module_when_imported(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = [
        f"line {node.lineno}: {name}"  # type: ignore[attr-defined]
        for node in import_time_nodes(tree)
        for name in imported(node)
        if name in UNIX_ONLY
    ]
    assert not found, f"import these inside the function that needs them: {found}"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(SRC)))
def test_no_module_asks_for_fork_but_through_fork_method(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    calls = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"get_context", "set_start_method"}
        and any(isinstance(arg, ast.Constant) and arg.value == "fork" for arg in node.args)
    ]
    assert not calls, f"lines {calls}: use gridbot.parallel.workers.fork_method()"


def test_a_system_without_fork_gets_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    with pytest.raises(GridbotError, match="'fork' start method.*Linux"):
        workers.fork_method()
    with pytest.raises(GridbotError), workers.local_pool(1):
        pass


BLOCKED = """
import sys
for name in ("resource", "fcntl", "termios"):
    sys.modules[name] = None  # as on a system without them: importing one raises ImportError
sys.argv = ["gridbot", *sys.argv[1:]]
from gridbot.cli import main
main()
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["levels"],
        ["show", "carrots", "carrots:3"],
        ["run", "carrots", "carrots:3", "LOOP{F R}"],
        ["solve", "bender", "bender:01"],
    ],
    ids=" ".join,
)
def test_commands_run_without_the_unix_only_modules(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip()
