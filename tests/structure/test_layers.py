"""The layers of gridbot import downward only: every module's imports, those inside functions too, parsed with `ast`.

Bottom up (docs/development.md, "The layers"): errors, grid, result, deadline, text | games and kernels | levels |
parallel | solve | generate | render | the faces (cli, web, net). A module may import from its own layer and the
layers below it, and three rules narrow that further: the rules (games) and the compiled kernels import nothing of
each other, a kernel imports nothing of gridbot but gridbot.kernels, and the parallel machinery knows no game.
`gridbot/__init__.py` is the API's front: it may load any layer (lazily), and only the faces may import it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import SRC

FRONT = "gridbot"
LAYERS = [
    {"gridbot.errors", "gridbot.grid", "gridbot.result", "gridbot.deadline", "gridbot.text"},
    {"gridbot.games", "gridbot.kernels"},
    {"gridbot.levels"},
    {"gridbot.parallel"},
    {"gridbot.solve"},
    {"gridbot.generate"},
    {"gridbot.render"},
    {"gridbot.cli", "gridbot.web", "gridbot.net"},
]
FORBIDDEN = {  # within what the order allows: (importer's package, imported package) that must not meet
    ("gridbot.games", "gridbot.kernels"),
    ("gridbot.kernels", "gridbot.games"),
    ("gridbot.parallel", "gridbot.games"),
    ("gridbot.parallel", "gridbot.kernels"),
    ("gridbot.parallel", "gridbot.levels"),
}
ONLY = {"gridbot.kernels": {"gridbot.kernels"}}  # a package that may import nothing of gridbot but these
# Imports that break the layering today, each with the reason it is allowed for now (none left).
KNOWN: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted((SRC / "gridbot").rglob("*.py"))}


def package_of(name: str) -> str:
    """The package a module belongs to for the layering: the longest name of LAYERS it starts with, or FRONT."""
    if name == FRONT:
        return FRONT
    owners = [p for layer in LAYERS for p in layer if name == p or name.startswith(p + ".")]
    if not owners:
        raise AssertionError(f"{name} belongs to no layer: name its package in LAYERS (and in docs/development.md)")
    return max(owners, key=len)


def layer_of(package: str) -> int:
    return len(LAYERS) if package == FRONT else next(i for i, layer in enumerate(LAYERS) if package in layer)


def imports(name: str) -> set[str]:
    """The gridbot modules `name` imports anywhere in its text (top level, functions, conditions), relative ones
    resolved, `from gridbot import x` read as the module gridbot.x where there is one (else the front), and
    `importlib.import_module("gridbot...")` read from its text's constant start."""
    path = MODULES[name]
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module" and node.args:
            text = node.args[0]
            start = text.values[0] if isinstance(text, ast.JoinedStr) and text.values else text
            if isinstance(start, ast.Constant) and isinstance(start.value, str):
                found.add(start.value.rstrip("."))
    return {module for module in found if module == FRONT or module.startswith(FRONT + ".")}


def breaches(name: str) -> list[str]:
    """What is wrong with the imports of module `name`, one line each."""
    mine = package_of(name)
    out = []
    for target in sorted(imports(name)):
        theirs = package_of(target)
        if (name, target) in KNOWN:
            continue
        if mine == FRONT:
            continue
        if theirs == FRONT and layer_of(mine) < len(LAYERS) - 1:
            out.append(f"{name} imports the API's front {target}: only the faces may")
        elif theirs != FRONT and layer_of(theirs) > layer_of(mine):
            out.append(f"{name} ({mine}) imports {target} ({theirs}), a layer above it")
        elif (mine, theirs) in FORBIDDEN:
            out.append(f"{name} ({mine}) imports {target} ({theirs}): the two must not meet")
        elif mine in ONLY and theirs not in ONLY[mine]:
            out.append(f"{name} ({mine}) imports {target}: it may import only {sorted(ONLY[mine])}")
    return out


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name: str):
    assert breaches(name) == []


def test_the_known_breaches_are_still_there():
    """A breach fixed leaves its entry in KNOWN stale: remove the entry with the fix."""
    for importer, target in KNOWN:
        assert target in imports(importer), f"{importer} no longer imports {target}: drop it from KNOWN"


def test_the_checker_sees_imports_inside_functions_and_upward_ones(tmp_path, monkeypatch):
    fake = tmp_path / "gridbot" / "games"
    fake.mkdir(parents=True)
    (fake / "fake.py").write_text(
        "from gridbot.grid import plural\n"
        "def solve(level):\n"
        "    from gridbot.solve.carrots import solve as _solve\n"
        "    import importlib\n"
        "    return importlib.import_module(f'gridbot.render.{level}')\n"
    )
    monkeypatch.setitem(MODULES, "gridbot.games.fake", fake / "fake.py")
    assert imports("gridbot.games.fake") == {"gridbot.grid", "gridbot.solve.carrots", "gridbot.render"}
    assert len(breaches("gridbot.games.fake")) == 2
