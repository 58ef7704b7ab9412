"""The path games' counts (gridbot.solve.paths, through gridbot.analyze): every Pellet path and every shortest
torch cave walk, against a plain enumeration of every walk on tiny random boards (the same paths, not only as
many), the cap, a count the clock stops, the JSON and the command's table on the bundled levels."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli
from gridbot.deadline import Clock, Timeout
from gridbot.games import pellet, torch_cave
from gridbot.generate.pellet import random_level as pellet_level
from gridbot.generate.torch_cave import random_level as cave_level
from gridbot.solve.analyze import LISTINGS, analyze
from gridbot.solve.paths import TooManyStates, other_pellet_path, pellet_paths, torch_paths

EVERY = 10**9  # a cap no tiny board reaches: the listing is complete

# ---------------------------------------------------------------- brute force


def pellet_brute(level: pellet.Level) -> set[str]:
    """Every move string from S that enters only open cells not yet visited and ends when all are visited: each
    walk tried, no pruning."""
    open_cells = {(r, c) for r, row in enumerate(level.rows) for c, ch in enumerate(row) if ch != pellet.WALL}
    found: set[str] = set()

    def walk(cell: tuple[int, int], seen: set[tuple[int, int]], moves: str) -> None:
        if len(seen) == len(open_cells):
            found.add(moves)
            return
        for move, (dr, dc) in pellet.DELTA.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if nxt in open_cells and nxt not in seen:
                walk(nxt, seen | {nxt}, moves + move)

    walk(level.start, {level.start}, "")
    return found


def cave_brute(level: torch_cave.Level, longest: int) -> dict[int, set[str]]:
    """{length: every move sequence of that length that reaches T at its last step} for lengths up to `longest`:
    every sequence of legal steps (the game's Level.move and Level.enter, at least 1 light), no other pruning."""
    found: dict[int, set[str]] = {n: set() for n in range(longest + 1)}

    def walk(cell: int, light: int, taken: int, moves: str) -> None:
        if cell == level.treasure:
            found[len(moves)].add(moves)
            return
        if len(moves) == longest or light < 1:
            return
        for move in torch_cave.MOVES:
            nxt = level.move(cell, move)
            if nxt >= 0:
                walk(nxt, *level.enter(nxt, light - 1, taken), moves + move)

    walk(level.start, level.start_light, 0, "")
    return found


# ---------------------------------------------------------------- tiny boards


def pellet_boards() -> Iterator[pellet.Level]:
    """Tiny boards: random boards with a path (planted), and boards with random walls (often none)."""
    for seed in range(40):
        rng = random.Random(seed)
        w, h = rng.randint(1, 4), rng.randint(2, 5)
        yield pellet_level(w, h, seed, fill=rng.choice((0.5, 0.8, 1.0)))
        rows = ["".join(rng.choice("...#") for _ in range(w + 1)) for _ in range(h)]
        r, c = rng.randrange(h), rng.randrange(w + 1)
        rows[r] = rows[r][:c] + "S" + rows[r][c + 1 :]
        yield pellet.Level.parse("\n".join(rows), f"walls {seed}")


@pytest.mark.parametrize("level", list(pellet_boards()), ids=lambda level: level.name or str(level.rows))
def test_pellet_paths_are_every_hamiltonian_path(level: pellet.Level) -> None:
    every = pellet_brute(level)
    listed = pellet_paths(level, EVERY, Clock(None))
    assert set(listed.moves) == every and len(listed.moves) == len(every)  # the same paths, each once
    assert not listed.capped and not listed.stopped
    a = analyze(level, cap=5)
    if not every:
        assert a.status == "unsolvable" and a.programs == 0
        return
    assert a.status == "optimal" and a.par == level.size
    assert (a.programs, a.programs_capped) == (min(5, len(every)), len(every) > 5)
    assert (a.behaviours, a.behaviours_capped) == (a.programs, a.programs_capped)
    assert set(a.examples) <= every and (a.longer, a.longer_capped) == (0, False)
    assert a.exact == (len(every) <= 5)
    other = other_pellet_path(level, a.examples[0], Clock(None))
    assert (other is None) == (len(every) == 1) and (other is None or other in every - {a.examples[0]})


def cave_boards() -> Iterator[torch_cave.Level]:
    """Tiny caves, read again with little light (2 to 4, torches 2 to 4) so that the torches and the order of
    taking them matter."""
    for seed in range(60):
        rng = random.Random(seed)
        w, h = rng.randint(2, 5), rng.randint(2, 4)
        cave = cave_level(w, h, seed, torches=rng.randint(0, min(3, w * h - 2)))
        yield torch_cave.Level.parse(
            str(cave), f"cave {seed}", start_light=rng.randint(2, 4), torch_light=rng.randint(2, 4)
        )


@pytest.mark.parametrize("level", list(cave_boards()), ids=lambda level: level.name)
def test_torch_walks_are_every_shortest_walk(level: torch_cave.Level) -> None:
    result = gridbot.solve(level)
    longest = (result.length or 8) + 2
    walks = cave_brute(level, longest)
    shortest = min((n for n in walks if walks[n]), default=None)
    if shortest is None:  # none of up to `longest` steps: the light runs out before (no longer walk then)
        assert result.status == "unsolvable"
        return
    assert (result.status, result.length) == ("optimal", shortest)
    for n in range(shortest, longest + 1):  # par, par + 1 (none: the grid is bipartite) and par + 2
        listed = torch_paths(level, n, EVERY, Clock(None))
        assert set(listed.moves) == walks[n] and len(listed.moves) == len(walks[n]), n
        assert not listed.capped
    assert not walks[shortest + 1]
    a = analyze(level, cap=3)
    count = len(walks[shortest])
    assert (a.programs, a.programs_capped, a.behaviours) == (min(3, count), count > 3, min(3, count))
    assert set(a.examples) <= walks[shortest] and (a.longer, a.longer_capped) == (0, False)


# ---------------------------------------------------------------- caps, clocks, memory


def test_pellet_cap_lists_that_many_distinct_paths_and_says_there_are_more() -> None:
    level = pellet.Level.parse("S...\n....\n....")
    every = pellet_brute(level)
    assert len(every) > 7
    for most in (1, 3, 7, len(every)):
        listed = pellet_paths(level, most, Clock(None))
        assert len(set(listed.moves)) == len(listed.moves) == most and set(listed.moves) <= every
        assert listed.capped == (most < len(every)) and not listed.stopped


def test_torch_cap_counts_past_what_it_lists() -> None:
    level = torch_cave.Level.parse("H....\n.....\n....T")  # C(6, 2) = 15 shortest walks
    assert len(torch_paths(level, 6, 15, Clock(None)).moves) == 15
    listed = torch_paths(level, 6, 14, Clock(None))
    assert len(set(listed.moves)) == 14 and listed.capped


def test_a_count_the_clock_stops_is_a_lower_bound() -> None:
    level = gridbot.load("pellet:ctf_example")  # a great many paths: never all listed in a fraction of a second
    pellet_paths(level, 1, Clock(None))  # the kernels loaded
    listed = pellet_paths(level, EVERY, Clock(0.3))
    assert listed.stopped and listed.capped and len(set(listed.moves)) == len(listed.moves) > 100
    found = LISTINGS["pellet"](level, level.size, EVERY, Clock(0.2))
    assert found.capped and len(found.solutions) > 0
    cave = cave_level(300, 300, 0, torches=200)
    with pytest.raises(Timeout):
        torch_paths(cave, 443, 100, Clock(0.2))
    with pytest.raises(TooManyStates):
        torch_paths(cave, 443, 100, Clock(None), budget=10_000_000)


def test_analyze_stops_a_count_at_its_time_limit_and_says_it_is_a_lower_bound() -> None:
    cave = cave_level(300, 300, 0, torches=200)  # its walks pass about a million states: seconds to count
    assert gridbot.solve(cave).length == 443
    a = analyze(cave, time_limit=1.5)
    if a.status == "optimal":  # proven in time (on a slow machine it may not be): the count is a lower bound
        assert (a.programs, a.programs_capped) == (1, True) and not a.exact


def test_bender_is_determined() -> None:
    """His journey follows from the level: one answer where it ends at the booth, none where he loops."""
    for name in ("bender:01", "bender:12", "bender:11"):
        a = analyze(gridbot.load(name))
        one = int(a.status == "optimal")
        assert a.status in ("optimal", "unsolvable") and (name == "bender:11") == (one == 0)
        assert (a.programs, a.programs_capped, a.behaviours, a.behaviours_capped) == (one, False, one, False)


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize("game", ["pellet", "torch_cave"])
def test_cli_table_and_json_of_the_bundled_levels(game: str) -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["analyze", game, "--json", "--cap", "20"])
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert rows and all(row["game"] == game and row["status"] == "optimal" for row in rows)
    for row in rows:
        a = analyze(gridbot.load(row["level"]), cap=20)
        assert (row["par"], row["programs"], row["programs_capped"], row["longer"]) == (
            a.par, a.programs, a.programs_capped, a.longer,
        )  # fmt: skip
        assert row["examples"] == list(a.examples) and row["behaviours"] == row["programs"]
    out = runner.invoke(cli, ["analyze", game, "--cap", "20"])
    assert out.exit_code == 0, out.output
    for row, line in zip(rows, out.output.splitlines()[1 : 1 + len(rows)], strict=True):
        programs = f"{row['programs']}+" if row["programs_capped"] else str(row["programs"])
        assert line.split()[:6] == [row["level"], "optimal", str(row["par"]), programs, programs, "0"]
