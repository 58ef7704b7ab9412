"""The first solve of a game on a machine (gridbot.solve.first_use): its kernels compile in a process of their own,
the time limit holds while they do, the next solve finds them compiled, and `gridbot warmup` compiles them ahead.

Each test gives the command a fresh cache of its own (numba's and gridbot's), as a fresh installation has."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gridbot import deadline
from gridbot.solve import first_use


def fresh(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine where no kernel was ever compiled."""
    return {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}


def gridbot(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from gridbot.cli import main; main()", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def stamps(env: dict[str, str]) -> list[str]:
    where = Path(env["XDG_CACHE_HOME"]) / "gridbot" / "compiled"
    return sorted(p.name.split("-")[0] for p in where.glob("*-*")) if where.is_dir() else []


@pytest.mark.clock
def test_a_first_solve_keeps_its_time_limit_and_the_compile_goes_on(tmp_path: Path) -> None:
    env = fresh(tmp_path)
    started = time.monotonic()
    first = gridbot(env, "solve", "carrots:1", "--time-limit", "0.5", "--json")
    waited = time.monotonic() - started
    assert first.returncode == 1, first.stderr
    answer = json.loads(first.stdout)
    assert answer["status"] == "timeout" and "compiling" in answer["stats"]["reason"]
    assert waited < 0.5 + 3.0  # start-up and one check of the child, not the compile (seconds)
    deadline = time.monotonic() + 240
    while "carrots" not in stamps(env) and time.monotonic() < deadline:  # the child compiles on in the background
        time.sleep(0.5)
    assert stamps(env) == ["carrots"]
    second = gridbot(env, "solve", "carrots:1", "--time-limit", "5", "--json")
    assert second.returncode == 0 and json.loads(second.stdout)["status"] == "optimal", second.stderr
    assert "compiling" not in second.stderr


def test_a_first_solve_says_what_it_waits_for_and_counts_it(tmp_path: Path) -> None:
    env = fresh(tmp_path)
    result = gridbot(env, "solve", "robos_escape:3")
    assert result.returncode == 0, result.stderr
    assert "gridbot: compiling the robos_escape kernels for this machine, once: about" in result.stderr
    assert "optimal" in result.stdout
    again = gridbot(env, "solve", "robos_escape:3", "--json")
    assert again.stderr == "" and "seconds_compiling" not in json.loads(again.stdout)["stats"]


def test_warmup_compiles_ahead_once(tmp_path: Path) -> None:
    env = fresh(tmp_path)
    first = gridbot(env, "warmup", "robos_escape", "bender")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("robos_escape: compiling (about ") and "bender: nothing to compile" in first.stdout
    assert stamps(env) == ["robos_escape"]
    again = gridbot(env, "warmup", "robos_escape")
    assert again.stdout == "robos_escape: compiled already\n"
    assert gridbot(env, "warmup", "chess").returncode == 2


def test_the_stamp_is_keyed_by_where_numba_keeps_its_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "a"))
    first_use._key.cache_clear()
    a = first_use.stamp("carrots")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "b"))
    first_use._key.cache_clear()
    assert first_use.stamp("carrots") != a and first_use.stamp("carrots").parent == tmp_path / "gridbot" / "compiled"
    first_use._key.cache_clear()


@pytest.mark.clock
def test_a_stop_request_ends_the_wait_for_a_first_compile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env = fresh(tmp_path)  # the child compiles on into these folders, as an interrupted first solve's does
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    monkeypatch.setenv("NUMBA_CACHE_DIR", env["NUMBA_CACHE_DIR"])
    first_use._key.cache_clear()
    stop = threading.Event()
    stop.set()
    started = time.monotonic()
    with deadline.reading(stop):  # no time limit: only the stop request ends the wait (RoboZZle compiles ~15 s)
        assert not first_use.compile_within("robozzle", None)
    assert time.monotonic() - started < 5
    first_use._key.cache_clear()
