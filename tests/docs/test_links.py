"""Every relative link and image of README.md, BENCHMARKS.md, docs/*.md and docs/perf-log/*.md points to a file
that exists, and every `#anchor` to a heading of its page, so that moving or renaming a page or a heading fails
here rather than for a reader.

Anchors are made from headings as GitHub makes them: the heading's text without its Markdown (code spans keep
their text, links their label), in lower case, without punctuation (letters, digits, `_`, `-` and spaces kept),
spaces turned to `-`; the second heading of the same anchor gets `-1`, the third `-2`. Links inside code
(fenced blocks and code spans) are not links. Addresses with a scheme (`http:`, `mailto:`) are not checked.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests import ROOT

PAGES = [
    ROOT / "README.md",
    ROOT / "BENCHMARKS.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "perf-log").glob("*.md")),
]
FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")  # a fence's info string has no backtick
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# [label](target) and ![alt](target), with an optional "title"; a label may hold brackets one level deep
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose(text: str) -> str:
    """The text without its fenced code blocks (each line kept, blanked, so line numbers stay). O(len(text))."""
    lines, fence = [], ""
    for line in text.split("\n"):
        found = FENCE.match(line)
        if not fence and found and "`" not in found.group("info"):
            fence = found.group("fence")
        elif fence and found and found.group("fence").startswith(fence) and not found.group("info").strip():
            fence = ""
        elif not fence:
            lines.append(line)
            continue
        lines.append("")
    return "\n".join(lines)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading's text (before numbering duplicates). O(len(heading)).

    >>> slug("`gridbot levels [GAME]`"), slug("Robo's Escape"), slug("How the [Pellet](x.md) solver works")
    ('gridbot-levels-game', 'robos-escape', 'how-the-pellet-solver-works')
    """
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a Markdown page's headings, duplicates numbered as GitHub numbers them. O(len(text))."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(text).split("\n"):
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str) -> list[tuple[int, str]]:
    """(line, target) of every link and image of a Markdown page, outside code. O(len(text))."""
    body = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose(text))
    return [(body.count("\n", 0, m.start()) + 1, m.group(1)) for m in LINK.finditer(body)]


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """Why each relative link of `page` is broken ('' for none): a missing file, a target outside `root`, or an
    anchor that no heading of its page makes."""
    problems = []
    root, page = root.resolve(), page.resolve()
    where = page.relative_to(root).as_posix()
    for line, target in links(page.read_text(encoding="utf-8")):
        if SCHEME.match(target):
            continue
        path, _, anchor = unquote(target).partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(root):
            problems.append(f"{where}:{line}: {target} leaves the repository")
        elif not file.exists():
            problems.append(f"{where}:{line}: {target}: no file {file.relative_to(root).as_posix()}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
            problems.append(f"{where}:{line}: {target}: no heading of {file.relative_to(root).as_posix()} has it")
    return problems


def test_the_docs_are_checked() -> None:
    names = {page.relative_to(ROOT).as_posix() for page in PAGES}
    assert {"README.md", "docs/index.md", "docs/cli.md", "docs/api.md", "docs/carrots.md"} <= names
    assert {"BENCHMARKS.md", "docs/perf-log/README.md"} <= names
    assert len(links((ROOT / "README.md").read_text(encoding="utf-8"))) >= 20


@pytest.mark.parametrize("page", PAGES, ids=[page.relative_to(ROOT).as_posix() for page in PAGES])
def test_relative_links_and_images_point_to_something(page: Path) -> None:
    problems = broken(page)
    assert not problems, "\n".join(problems)


def test_a_broken_link_anchor_or_image_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "game.md").write_text("# Game\n\n## How the `solver` works\n\n## Limits\n\n## Limits\n")
    (tmp_path / "README.md").write_text(
        "# Front\n\n## Quick start\n\n"
        "[ok](docs/game.md) [ok](docs/game.md#how-the-solver-works) [ok](docs/game.md#limits-1) [ok](#front)\n"
        "[ok](https://example.org/none.md) `[code](none.md)` ![ok](docs/game.md) ```` ```x ```` [ok](#front)\n"
        "````\n[fenced](none.md)\n```\n````\n"
        "[gone](docs/none.md) ![gone](docs/pictures/none.svg)\n"
        "[bad anchor](docs/game.md#limits-2) [bad anchor](#quick-start-1)\n"
        "[out](../elsewhere.md)\n"
    )
    problems = broken(tmp_path / "README.md", tmp_path)
    assert [problem.split(": ")[1] for problem in problems] == [
        "docs/none.md",
        "docs/pictures/none.svg",
        "docs/game.md#limits-2",
        "#quick-start-1",
        "../elsewhere.md leaves the repository",
    ]
    assert [problem.split(":")[1] for problem in problems] == ["11", "11", "12", "12", "13"]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Quick start", "quick-start"),
        ("`gridbot pellet serve` and `gridbot pellet play`", "gridbot-pellet-serve-and-gridbot-pellet-play"),
        ("`gridbot solve GAME LEVEL...`", "gridbot-solve-game-level"),
        ("Setting up, linting and testing", "setting-up-linting-and-testing"),
        ("RoboZZle over the site's corpus (issue 16)", "robozzle-over-the-sites-corpus-issue-16"),
        ("torch_cave: A* search", "torch_cave-a-search"),
    ],
)
def test_anchors_are_made_as_github_makes_them(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
