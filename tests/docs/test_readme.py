"""The console examples of the README and the docs print what they show.

Every ```console block of README.md and of every docs/*.md is run: each `$ command` line in order, in a fresh
temporary folder per block (so `printf ... > file` then `gridbot ... file` works; `src` there points at the
repository's, for `cat`), with
`gridbot` run as `python -m gridbot.cli` by the interpreter running the tests. The lines after a command, up to
the next `$` line, are what it must print: its standard output, then its standard error when it writes there.
A command ending in `&` runs in the background: its lines are the first it prints on either stream, and it is
waited for (then stopped) when the block ends.

An HTML comment just before a block, `<!-- readme-test: KIND -->`, marks how to compare it; with several kinds
separated by `;` (`<!-- readme-test: timing; time-limited; skip (a proof of 47 s) -->`), one per command in
order. The kinds:

- `exact` (also no marker): line for line, exactly;
- `timing`: exactly, but for the numbers that measure time or work: every decimal number
  (`seconds 0.184`, `"seconds": 6e-05`, `in 0.02 s`) and the counts of `candidates` (in JSON also `nodes`);
  an `of which` line (how the seconds split between a solver's parts) measures time too, and is printed only
  when a heuristic started, which hangs on the machine's speed: such lines are left out on both sides;
- `time-limited`: the result itself depends on how fast the machine is (a `--time-limit`
  that runs out): only the shape of each command's status line is checked, `LEVEL: STATUS, ...` with the same
  level and one of the statuses, and that a `seconds` line follows;
- `skip (REASON)`: not run; REASON says why (e.g. a proof that takes minutes).
"""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import ROOT

README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]  # every page whose console examples are run
MARKER = re.compile(r"<!--\s*readme-test:\s*(.*?)\s*-->")
KIND = re.compile(r"(?P<kind>[a-z-]+)(?:\s*\((?P<reason>[^()]*)\))?")
KINDS = ("exact", "timing", "time-limited", "skip")
COMMAND_TIMEOUT = 60.0
# `gridbot` as the interpreter running the tests runs it, so that the code under test is the code tested
PRELUDE = 'gridbot() { "$README_TEST_PYTHON" -m gridbot.cli "$@"; }\n'
STATUS_LINE = re.compile(r"(?P<level>\S+): (?P<status>optimal|solved|unsolvable|timeout)\b")
DECIMAL = re.compile(r"\d+\.\d+(?:e-?\d+)?|\d+e-\d+")
SPLIT = re.compile(r"\s+of which\s")  # the split of the seconds (gridbot.games.robozzle.report_lines)
COUNTED = re.compile(r'(?P<key>^\s*candidates\s+|"(?:candidates|nodes)": )(?P<n>[\d,]+)')


@dataclass(frozen=True, slots=True)
class Command:
    line: int  # in its page, 1-based
    text: str
    shown: tuple[str, ...]
    kind: str = "exact"
    reason: str = ""
    page: str = "README.md"  # the page's path in the repository

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def background(self) -> bool:
        return self.text.endswith("&")


@dataclass(frozen=True, slots=True)
class Block:
    line: int
    commands: tuple[Command, ...]
    page: str = "README.md"

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def console_blocks(text: str, page: str = "README.md") -> list[Block]:
    """The ```console blocks of a Markdown text (the page at path `page`) with their markers and commands.
    O(len(text))."""
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = MARKER.fullmatch(before)
        kinds = [KIND.fullmatch(part.strip()) for part in marker.group(1).split(";")] if marker else []
        assert all(k and k.group("kind") in KINDS for k in kinds), f"{page}:{i}: unknown marker {before!r}"
        start = i + 1
        i += 1
        body = []
        while lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        commands = []
        for k, line in enumerate(body):
            if line.startswith("$ "):
                commands.append([start + k + 1, line[2:], []])
            else:
                assert commands, f"{page}:{start + k + 1}: output before any `$ command`"
                commands[-1][2].append(line)
        if len(kinds) > 1:
            assert len(kinds) == len(commands), f"{page}:{start}: {len(kinds)} kinds for {len(commands)} commands"
        else:
            kinds *= len(commands)
        made = []
        for k, (line, text, shown) in enumerate(commands):
            kind, reason = (kinds[k].group("kind"), kinds[k].group("reason") or "") if kinds else ("exact", "")
            made.append(Command(line, text, tuple(_trim(shown)), kind, reason, page))
        blocks.append(Block(start, tuple(made), page))
        i += 1
    return blocks


def _trim(lines: list[str]) -> list[str]:
    """Lines without the blank ones at the end (a blank line separates one command's output from the next)."""
    lines = list(lines)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def loose(line: str) -> re.Pattern[str]:
    """A pattern for a `timing` line: decimal numbers and counts of work stand for any such number."""
    parts, last = [], 0
    spans = [(m.start("n"), m.end("n"), r"[\d,]+") for m in COUNTED.finditer(line)]
    spans += [(m.start(), m.end(), r"[0-9.e-]+") for m in DECIMAL.finditer(line)]
    for begin, end, pattern in sorted(spans):
        if begin < last:
            continue
        parts.append(re.escape(line[last:begin]) + pattern)
        last = end
    parts.append(re.escape(line[last:]))
    return re.compile("".join(parts))


def compare(command: Command, printed: list[str]) -> str:
    """'' when `printed` matches what the page shows for `command` under its kind, else why not."""
    shown = list(command.shown)
    if command.kind == "exact" and printed == shown:
        return ""
    if command.kind == "timing":
        shown, printed = [x for x in shown if not SPLIT.match(x)], [x for x in printed if not SPLIT.match(x)]
    timing = command.kind == "timing" and len(printed) == len(shown)
    if timing and all(loose(want).fullmatch(got) for want, got in zip(shown, printed, strict=True)):
        return ""
    if command.kind == "time-limited":
        want, got = STATUS_LINE.match(shown[0] if shown else ""), STATUS_LINE.match(printed[0] if printed else "")
        assert want, f"{command.where}: a time-limited example must show a status line"
        if got and got.group("level") == want.group("level") and any(p.split()[:1] == ["seconds"] for p in printed):
            return ""
    difference = "\n".join(
        f"  {'shown ' if k < len(shown) else '      '}| {shown[k] if k < len(shown) else ''}\n"
        f"  {'actual' if k < len(printed) else '      '}| {printed[k] if k < len(printed) else ''}"
        for k in range(max(len(shown), len(printed)))
    )
    return f"{command.where}: `{command.text}` ({command.kind}) prints otherwise:\n{difference}"


def _port_in_use(command: str) -> int | None:
    """The fixed `--port` a background server command asks for, when something already listens there."""
    found = re.search(r"--port (\d+)", command)
    port = int(found.group(1)) if found else (5555 if " serve" in command else 0)
    if not port:
        return None
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return port
    return None


def _first_lines(process: subprocess.Popen, count: int, timeout: float) -> list[str]:
    """The first `count` lines a background process prints (fewer if it ends or stays silent for `timeout` s);
    a thread reads them, so a silent process cannot hang the test. The rest of its output is drained."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    printed: list[str] = []
    while len(printed) < count:
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            break
        if line is None:
            break
        printed.append(line)
    return printed


def run_block(block: Block) -> list[str]:
    """Run the block's commands in order in a fresh folder; returns the mismatches found."""
    env = {**os.environ, "README_TEST_PYTHON": sys.executable, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
    problems = []
    background: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "src").symlink_to(ROOT / "src")
        try:
            for command in block.commands:
                if command.kind == "skip":
                    continue
                if command.background:
                    process = subprocess.Popen(
                        ["bash", "-c", PRELUDE + command.text.removesuffix("&")],
                        cwd=folder,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT,
                        text=True,
                    )
                    background.append(process)
                    printed = _first_lines(process, len(command.shown), COMMAND_TIMEOUT)
                else:
                    try:
                        done = subprocess.run(
                            ["bash", "-c", PRELUDE + command.text],
                            cwd=folder,
                            env=env,
                            stdin=subprocess.DEVNULL,
                            capture_output=True,
                            text=True,
                            timeout=COMMAND_TIMEOUT,
                        )
                    except subprocess.TimeoutExpired:
                        problems.append(f"{command.where}: `{command.text}` ran over {COMMAND_TIMEOUT:g} s")
                        continue
                    printed = _trim((done.stdout + done.stderr).split("\n"))
                problem = compare(command, printed)
                if problem:
                    problems.append(problem)
        finally:
            for process in background:
                try:
                    process.wait(timeout=COMMAND_TIMEOUT)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                    problems.append(f"{block.where}: a background command did not end by itself")
    return problems


BLOCKS = [
    block
    for page in PAGES
    for block in console_blocks(page.read_text(encoding="utf-8"), page.relative_to(ROOT).as_posix())
]


def test_the_pages_have_console_examples_and_markers_are_known() -> None:
    # the examples moved from the README to docs/ when it was split: none may be lost on the way
    assert len(BLOCKS) >= 23
    games = ("pellet", "torch_cave", "bender", "lightbot", "robos_escape", "robozzle")  # Carrots': docs/cli.md
    assert {block.page for block in BLOCKS} >= {"README.md", "docs/cli.md", *(f"docs/{game}.md" for game in games)}
    assert all(block.commands for block in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[block.where for block in BLOCKS])
def test_console_example(block: Block) -> None:
    skipped = [command for command in block.commands if command.kind == "skip"]
    if len(skipped) == len(block.commands):
        pytest.skip("; ".join(command.reason or f"marked skip in {block.page}" for command in skipped))
    for command in block.commands:
        if command.background and (port := _port_in_use(command.text)):
            pytest.skip(f"port {port} is in use on this machine")
    problems = run_block(block)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize(
    ("kind", "shown", "printed", "matches"),
    [
        ("exact", ["a  1.5"], ["a  1.5"], True),
        ("exact", ["a  1.5"], ["a  1.6"], False),
        ("timing", ["  seconds     0.184"], ["  seconds     12.5"], True),
        ("timing", ["  candidates  279,808"], ["  candidates  1,000"], True),
        ("timing", ['{"seconds": 6e-05, "x": 1}'], ['{"seconds": 0.000123, "x": 1}'], True),
        ("timing", ['{"seconds": 6e-05, "x": 1}'], ['{"seconds": 0.000123, "x": 2}'], False),
        ("timing", ["carrots:12: optimal, 8 tokens"], ["carrots:12: optimal, 9 tokens"], False),
        ("timing", ["a", "b"], ["a"], False),
        ("timing", ["x: optimal", "  seconds 0.01"], ["x: optimal", "  seconds 2.5", "  of which heuristic 1"], True),
        ("timing", ["x: optimal", "  seconds 0.01"], ["x: optimal", "  seconds 2.5", "  then        other"], False),
        ("time-limited", ["x:1: solved, 17 tokens", "  seconds 8.0"], ["x:1: timeout, none", "  seconds 8.1"], True),
        ("time-limited", ["x:1: solved, 17 tokens", "  seconds 8.0"], ["y:1: solved, 17 tokens", "  seconds 1"], False),
        ("time-limited", ["x:1: solved, 17 tokens", "  seconds 8.0"], ["x:1: solved, 17 tokens"], False),
    ],
)
def test_the_comparison_itself(kind: str, shown: list[str], printed: list[str], matches: bool) -> None:
    assert (compare(Command(1, "gridbot x", tuple(shown), kind), printed) == "") == matches


def test_markers_are_read_per_block_and_per_command() -> None:
    text = (
        "```console\n$ a\nA\n```\n\n<!-- readme-test: timing -->\n```console\n$ b\nB\n\n$ c\n```\n"
        "<!-- readme-test: timing; skip (too slow: 47 s) -->\n```console\n$ d\n$ e\nE\n```\n"
    )
    blocks = console_blocks(text)
    assert [[(c.text, c.shown, c.kind, c.reason) for c in b.commands] for b in blocks] == [
        [("a", ("A",), "exact", "")],
        [("b", ("B",), "timing", ""), ("c", (), "timing", "")],
        [("d", (), "timing", ""), ("e", ("E",), "skip", "too slow: 47 s")],
    ]
    with pytest.raises(AssertionError, match="unknown marker"):
        console_blocks("<!-- readme-test: fast -->\n```console\n$ a\n```\n")
    with pytest.raises(AssertionError, match="2 kinds for 1 commands"):
        console_blocks("<!-- readme-test: exact; timing -->\n```console\n$ a\n```\n")
