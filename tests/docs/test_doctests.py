"""The examples in the docstrings of every module run as written (the pages' console examples:
tests/docs/test_readme.py).

The modules are found, not listed: every module of gridbot (its files under src/gridbot, but `__main__`, which runs
the command line), and every module of these tests whose source holds an example. Each runs with doctest's ELLIPSIS,
and every `>>>` line of its source must be an example doctest ran, so that none sits where doctest does not look.
A module whose import or examples need an optional extra (NEEDS) is skipped only where that extra is not installed.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

from tests import ROOT, SRC

PROMPT = re.compile(r"^\s*>>>", re.MULTILINE)
# module: the package of the extra its import or its examples need (the web extra: fastapi)
NEEDS = {"gridbot.web": "fastapi", "gridbot.web.app": "fastapi"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PACKAGE = sorted(module_name(path, SRC) for path in (SRC / "gridbot").rglob("*.py") if path.stem != "__main__")
HELPERS = sorted(
    module_name(path, ROOT) for path in (ROOT / "tests").rglob("*.py") if PROMPT.search(path.read_text("utf-8"))
)


def test_every_module_is_found() -> None:
    assert {"gridbot", "gridbot.games.carrots", "gridbot.solve.robozzle", "gridbot.web.app"} <= set(PACKAGE)
    assert "gridbot.cli.__main__" not in PACKAGE and len(PACKAGE) > 100
    assert "tests.games.lightbot.lazy" in HELPERS
    assert set(NEEDS) <= set(PACKAGE)


@pytest.mark.parametrize("name", PACKAGE + HELPERS)
def test_docstring_examples(name: str) -> None:
    if name in NEEDS:
        pytest.importorskip(NEEDS[name], reason=f"{name} needs {NEEDS[name]} (an optional extra)")
    module = importlib.import_module(name)
    prompts = len(PROMPT.findall(Path(module.__file__).read_text("utf-8")))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted == prompts, f"{prompts - result.attempted} examples of {name} are never run"
