"""The examples in the module docstrings run as written (the pages' console examples: tests/docs/test_readme.py)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "gridbot",
    "gridbot.grid",
    "gridbot.errors",
    "gridbot.result",
    "gridbot.deadline",
    "gridbot.solve.memory",
    "gridbot.solve.deepening",
    "gridbot.levels",
    "gridbot.generate",
    "gridbot.games",
    "gridbot.games.protocol",
    "gridbot.solve",
    "gridbot.solve.check",
    "gridbot.solve.report",
    "gridbot.games.carrots",
    "gridbot.solve.carrots",
    "gridbot.games.lightbot",
    "gridbot.games.robos_escape",
    "gridbot.solve.lightbot",
    "gridbot.solve.lightbot_paths",
    "gridbot.solve.robos_escape",
    "gridbot.solve.robozzle",
    "gridbot.solve.robozzle.settings",
    "gridbot.parallel.workers",
    "gridbot.parallel.shares",
    "gridbot.parallel.checkpoint",
    "gridbot.parallel.executors",
    "gridbot.games.pellet",
    "gridbot.net.server",
    "gridbot.render",
    "gridbot.render.terminal",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
