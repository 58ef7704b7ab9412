"""The public API keeps its types: `mypy --strict` on tests/typing/usage.py (a script's use of the front door, with
`assert_type` on every call) finds nothing, and gridbot ships py.typed, which tells a type checker to read it.

Only usage.py is checked strictly (`--follow-imports=silent`: gridbot's own modules are read for their types,
their insides not judged), so the check takes a few seconds and fails exactly when a public signature regresses.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources

import pytest

from tests import ROOT, SRC

USAGE = ROOT / "tests" / "typing" / "usage.py"


def test_the_package_says_it_is_typed():
    assert (resources.files("gridbot") / "py.typed").is_file()


def test_the_public_api_is_typed_without_any(tmp_path):
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
         "--cache-dir", str(tmp_path), str(USAGE)],
        capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_regression_to_any_fails_the_check(tmp_path):
    """The check is not vacuous: a value typed Any (what `load` returned before) fails an assert_type."""
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    script = tmp_path / "any.py"
    script.write_text(
        "from typing import assert_type\nfrom gridbot.games import carrots\nfrom gridbot.levels import load\n"
        "assert_type(load('carrots:2'), carrots.Level)\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), str(script)],
        capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 1 and 'Expression is of type "Any"' in done.stdout
