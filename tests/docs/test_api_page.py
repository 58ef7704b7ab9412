"""The examples of docs/api.md run as tests: every ```pycon block by doctest (its output compared, with ELLIPSIS),
in order and in one namespace, as a reader types them into one session; every ```python block run whole (in a
temporary folder: a picture it writes goes there)."""

from __future__ import annotations

import doctest
import re

import pytest

from tests import ROOT

PAGE = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"^```(pycon|python)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks() -> list[tuple[str, str, int]]:
    """(kind, text, line) of each example block of the page."""
    text = PAGE.read_text("utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 2) for m in BLOCK.finditer(text)]


def test_the_page_has_examples_of_the_front_door():
    kinds = [kind for kind, _, _ in blocks()]
    assert kinds.count("pycon") >= 4 and "python" in kinds
    text = PAGE.read_text("utf-8")
    assert all(f"gridbot.{call}(" in text for call in ("load", "parse", "run", "solve"))


def test_the_examples_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    parser = doctest.DocTestParser()
    for kind, text, line in blocks():
        where = f"docs/api.md, the block at line {line}"
        if kind == "python":
            exec(compile(text, where, "exec"), {})
            continue
        test = parser.get_doctest(text, namespace, where, str(PAGE), line)
        test.globs = namespace  # one session: a block reads what the ones before it made
        result = runner.run(test, clear_globs=False)
        if result.failed:
            pytest.fail(f"{where}: {result.failed} of {result.attempted} examples fail (above)")
