"""What a package handed on carries: one version everywhere, its licence, the notice of the bundled data.

The wheel itself is tested by tests/wheel/smoke.py (run by .ci/run on a built and installed wheel); these tests
read the source tree.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

import gridbot
from gridbot import games
from gridbot.cli import cli, manual
from tests import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_version_is_written_in_one_place() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gridbot.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?(?:\.dev\d+)?", gridbot.__version__)


def test_gridbot_version_says_the_package_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"gridbot, version {gridbot.__version__}\n"


def test_an_installed_gridbot_has_the_same_version() -> None:
    try:
        installed = importlib.metadata.version("gridbot")
    except importlib.metadata.PackageNotFoundError:  # run from the source tree without installing
        return
    assert installed == gridbot.__version__


def test_the_licence_and_the_data_notice_are_declared() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert set(project["license-files"]) == {"LICENSE", "DATA-NOTICE.md"}
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert "Operating System :: POSIX :: Linux" in project["classifiers"]
    assert "License :: OSI Approved :: MIT License" not in project["classifiers"]  # SPDX `license` replaces it


def test_the_data_notice_names_every_bundled_set() -> None:
    notice = (ROOT / "DATA-NOTICE.md").read_text()
    data = ROOT / "src" / "gridbot" / "data"
    for folder in sorted(path for path in data.iterdir() if path.is_dir()):
        for path in sorted(folder.iterdir()):
            if path.name == "proofs.json":
                continue  # gridbot's own measurements, named once for every set
            stem = path.name.split(".")[0]
            assert (
                f"{folder.name}/{path.name}" in notice
                or f"{folder.name}/{stem}" in notice
                or _in_a_range(notice, folder.name, stem)
            ), f"DATA-NOTICE.md does not say where {folder.name}/{path.name} comes from"


def _in_a_range(notice: str, game: str, stem: str) -> bool:
    """Whether `game/FIRST` .. `LAST` of the notice holds `stem` (by its number: 01 .. 12)."""
    number = re.match(r"\d+", stem)
    if number is None:
        return False
    for first, last in re.findall(rf"`{game}/(\d+)[^`]*` \.\. `(\d+)", notice):
        if int(first) <= int(number.group()) <= int(last):
            return True
    return False


def test_the_changelog_has_the_version_and_an_unreleased_section() -> None:
    headings = re.findall(r"^## \[([^\]]+)\]", (ROOT / "CHANGELOG.md").read_text(), flags=re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert gridbot.__version__ in headings, f"CHANGELOG.md has no section for {gridbot.__version__}"


def _setup_py() -> ModuleType:
    """setup.py as a module, without running setup() (it runs only as __main__)."""
    spec = importlib.util.spec_from_file_location("gridbot_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_index_description_needs_nothing_of_the_repository() -> None:
    readme = (ROOT / "README.md").read_text()
    described = _setup_py().index_readme(readme)
    assert "](docs/" in readme and "![" in readme  # the README has what the description must drop
    assert not re.search(r"\]\((?![a-zA-Z][a-zA-Z0-9+.-]*:)", described), "a link or picture without an address"
    assert "## Contents" not in described and "## Quick start" in described and "Linux" in described
    for page in set(re.findall(r"`(docs/[\w-]+\.md)`", described)) - {"docs/PAGE.md"}:
        assert (ROOT / page).is_file(), page
    assert described.count("```") == readme.count("```")  # the code blocks are all kept


@pytest.mark.parametrize("command", [[], ["solve"], ["run"], ["render"], ["show"], ["web"], ["levels"]])
def test_the_help_points_at_pages_that_exist(command: list[str]) -> None:
    text = CliRunner().invoke(cli, [*command, "--help"]).output
    for pointer in re.findall(r"(/\S+?\.md)\b", text):
        for game in games.GAMES if "GAME.md" in pointer else [""]:
            assert Path(pointer.replace("GAME.md", f"{game}.md")).is_file(), pointer
    assert "docs/" not in re.sub(r"/\S+?\.md\b", "", text), "a pointer left relative to the checkout"


def test_a_long_path_to_the_pages_is_never_cut_by_the_help(monkeypatch: pytest.MonkeyPatch) -> None:
    long = Path("/opt/a-long-folder/of-many-hyphens/venv/lib/python3.11/site-packages/gridbot/docs")
    monkeypatch.setattr(manual, "folder", lambda: long)
    formatter = manual._Formatter(width=60)
    formatter.write_text(manual.pointers("Rules, notation and examples: docs/GAME.md, e.g. docs/carrots.md."))
    text = formatter.getvalue()
    assert f"{long}/GAME.md" in text and f"{long}/carrots.md" in text
