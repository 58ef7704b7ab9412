"""Smoke test of an installed wheel: what a user gets from `pip install gridbot-*.whl`, away from the checkout.

    python tests/wheel/smoke.py VENV

VENV is a virtual environment with the wheel installed (with the `web` extra). The test runs VENV's `gridbot`
from a temporary folder, so that nothing of the source tree can stand in for the package, and checks:

- the package is the installed one (not the checkout) and its version is the metadata's;
- the metadata carries the licence, the data notice, and a description without repository-relative links;
- the bundled levels of every game are listed, and a program runs on one;
- a bundled level of each of the seven games is solved (the first solve in a fresh environment also compiles
  that game's kernels, hence the generous time limit);
- `gridbot web` serves its page and the static files the page names;
- every documentation page the help points at exists.

Only the standard library is used: the venv holds gridbot and its dependencies, nothing else. .ci/run calls this
after building and installing the wheel; it prints one line a check and exits non-zero at the first failure.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

# a small bundled level of each game: the solve is quick once the game's kernels are compiled
LEVELS = [
    "carrots:1",
    "pellet:tunnel",
    "torch_cave:prob16_sample",
    "bender:01",
    "lightbot:1",
    "robos_escape:03",
    "robozzle:27",
]
TIME_LIMIT = 300  # seconds a solve may take, compiling its kernels included: far above what each needs
SOLVED = {"optimal", "solved", "unsolvable"}
POINTER = re.compile(r"(/\S+?\.md)\b")  # an absolute path to a page in help text
RELATIVE = re.compile(r"\]\((?![a-zA-Z][a-zA-Z0-9+.-]*:)[^)]*\)")  # a Markdown link or picture without a scheme


def say(line: str) -> None:
    """One check's line, flushed: CI's log shows how far the test got, in order with the failure's line."""
    print(line, flush=True)


class SmokeFailure(Exception):
    """A check failed; its message says which and what was seen."""


def run(venv: Path, *args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=ENV
    )
    if done.returncode != 0:
        raise SmokeFailure(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    return done


def check_installed(venv: Path, cwd: Path) -> None:
    probe = (
        "import gridbot, importlib.metadata as m, json; d = m.distribution('gridbot');"
        "print(json.dumps({'file': gridbot.__file__, 'version': gridbot.__version__, 'meta': d.version,"
        "'files': [str(f) for f in d.files or []], 'description': d.metadata['Description'] or ''}))"
    )
    info = json.loads(run(venv, "python", "-c", probe, cwd=cwd).stdout)
    if not Path(info["file"]).resolve().is_relative_to(venv.resolve()):
        raise SmokeFailure(f"gridbot is imported from {info['file']}, not from the venv {venv}")
    if info["version"] != info["meta"]:
        raise SmokeFailure(f"gridbot.__version__ {info['version']} != the metadata's {info['meta']}")
    version = run(venv, "gridbot", "--version", cwd=cwd).stdout.strip()
    if version != f"gridbot, version {info['meta']}":
        raise SmokeFailure(f"gridbot --version says {version!r}")
    if "gridbot/py.typed" not in info["files"]:
        raise SmokeFailure("the wheel has no gridbot/py.typed: type checkers would not read its hints")
    for name in ("LICENSE", "DATA-NOTICE.md"):
        if not any(path.endswith(f"licenses/{name}") for path in info["files"]):
            raise SmokeFailure(f"the wheel's metadata has no {name}")
    if not info["description"].strip() or RELATIVE.search(info["description"]):
        raise SmokeFailure("the long description is empty or holds a link that resolves only in the repository")
    say(f"ok  installed: {info['file']}, version {info['meta']}, licence, data notice and py.typed in it")


def check_data(venv: Path, cwd: Path) -> None:
    """The bundled levels are in the wheel (every game lists some) and a program runs on one."""
    listing = run(venv, "gridbot", "levels", cwd=cwd).stdout
    games = {line.split(":", 1)[0] for line in listing.splitlines() if ":" in line.split(" ", 1)[0]}
    if len(games) != len(LEVELS):
        raise SmokeFailure(f"gridbot levels lists levels of {sorted(games)}, not of every game")
    ran = json.loads(run(venv, "gridbot", "run", "carrots", "carrots:2", "LOOP{F F R}", "--json", cwd=cwd).stdout)
    if ran["status"] != "completed":
        raise SmokeFailure(f"gridbot run carrots carrots:2 'LOOP{{F F R}}': {ran['status']}")
    say(f"ok  gridbot levels: {len(listing.splitlines())} lines, {len(games)} games; gridbot run: completed")


def check_solves(venv: Path, cwd: Path) -> None:
    for spec in LEVELS:
        started = time.monotonic()
        game = spec.split(":")[0]
        out = run(venv, "gridbot", "solve", game, spec, "--json", "--time-limit", str(TIME_LIMIT), cwd=cwd)
        result = json.loads(out.stdout.splitlines()[-1])
        if result["status"] not in SOLVED:
            raise SmokeFailure(f"gridbot solve {game} {spec}: {result['status']}")
        say(f"ok  solve {spec}: {result['status']}, {result['length']} ({time.monotonic() - started:.1f} s)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (a loopback address of our own)
        return response.status, response.read().decode("utf-8")


def check_web(venv: Path, cwd: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(venv / "bin" / "gridbot"), "web", "--port", str(port)],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        page = ""
        deadline = time.monotonic() + 60
        while not page:
            if server.poll() is not None:
                raise SmokeFailure(f"gridbot web exited {server.returncode}: {server.stderr.read()[-2000:]}")
            if time.monotonic() > deadline:
                raise SmokeFailure("gridbot web served nothing within 60 s")
            try:
                page = fetch(base + "/")[1]
            except OSError:
                time.sleep(0.2)
        statics = sorted(set(re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", page)))
        if not statics:
            raise SmokeFailure("the playground's page names no static file")
        for path in statics:
            status, body = fetch(base + path)
            if status != 200 or not body.strip():
                raise SmokeFailure(f"GET {path}: {status}, {len(body)} characters")
        say(f"ok  gridbot web: / and {', '.join(statics)} served")
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def check_help_pointers(venv: Path, cwd: Path) -> None:
    listing = run(venv, "gridbot", "--help", cwd=cwd).stdout
    commands_rows = listing.split("Commands:", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"^  (\w+)\s", commands_rows, flags=re.MULTILINE)
    games_rows = listing.split("Games (", 1)[1].split("\n\n", 1)[0]  # the section's rows, up to its first blank line
    games = re.findall(r"^  (\w+)\s", games_rows, flags=re.MULTILINE)
    if len(games) != 7:
        raise SmokeFailure(f"gridbot --help lists {len(games)} games: {games}")
    seen: set[str] = set()
    for command in ["", *commands]:
        text = run(venv, "gridbot", *([command] if command else []), "--help", cwd=cwd).stdout
        for pointer in POINTER.findall(text):
            paths = [pointer.replace("GAME.md", f"{game}.md") for game in games] if "GAME.md" in pointer else [pointer]
            for path in paths:
                if not Path(path).is_file() or not Path(path).resolve().is_relative_to(venv.resolve()):
                    raise SmokeFailure(f"gridbot {command} --help points at {path}, not an installed page")
                seen.add(path)
    if len(seen) < len(games):
        raise SmokeFailure(f"the help points at {len(seen)} pages; a page per game at least was expected")
    say(f"ok  --help of {len(commands) + 1} commands: {len(seen)} pages pointed at, all installed")


ENV = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "PYTHONHOME"}}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    venv = Path(argv[0]).resolve()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gridbot-smoke-") as folder:
        cwd = Path(folder)
        try:
            check_installed(venv, cwd)
            check_help_pointers(venv, cwd)
            check_data(venv, cwd)
            check_web(venv, cwd)
            check_solves(venv, cwd)
        except (SmokeFailure, subprocess.TimeoutExpired) as exc:
            print(f"FAILED  {exc}", file=sys.stderr)
            return 1
    print(f"wheel smoke test passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
