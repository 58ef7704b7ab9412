"""RoboZZle's heuristics beside the exact search: the beam, the annealer, the team of the two, the repair below a line,
and what they may never change: the length proven (the exact search: test_solver.py)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from collections import Counter
from concurrent import futures

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.deadline import Clock
from gridbot.games import robozzle
from gridbot.games.robozzle import Level
from gridbot.kernels import robozzle as kern
from gridbot.parallel import executors
from gridbot.solve import robozzle as solve_robozzle
from gridbot.solve.robozzle import beam as rz_beam
from gridbot.solve.robozzle import exact, front, solve

from . import brute as brute_robozzle
from .test_solver import DEFAULT, draw_program, puzzles, scheduled


@pytest.mark.parametrize("name", ["27", "45", "114"])
def test_the_heuristic_never_changes_what_is_proven(name: str) -> None:
    """With the beam run before every length (even the first), a program it finds is only ever an upper bound:
    the answer is proven by the exact search excluding every shorter length, and equals the answer without it."""
    level = gridbot.load(f"robozzle:{name}")
    alone = solve(level, beam=False)
    ahead = solve(level, settings=dataclasses.replace(DEFAULT, beam_after=-1.0, beam_share=1.0))
    assert ahead.stats["beam_nodes"] > 0
    assert (ahead.status, ahead.length) == (alone.status, alone.length) == ("optimal", alone.length)
    assert robozzle.run(level, ahead.program).verdict.won


def test_the_beam_finds_a_winning_program_where_no_proof_is_in_sight() -> None:
    level = gridbot.load("robozzle:200")  # 33 slots: out of the exact search's reach; the beam finds one in a second
    found = solve_robozzle.Beam(solve_robozzle.Board.of(level), 1024).run(sum(level.slots), Clock(None), 60)
    assert found is not None and robozzle.run(level, found).verdict.won


@pytest.mark.parametrize("name", ["27", "114"])
def test_no_heuristic_turn_before_the_length_of_the_most_slots_allowed(monkeypatch, name: str) -> None:
    """The last length allowed decides: any program a heuristic could find there has its slots, and the search finds
    it too. So with a heuristic turn due before every length, the lengths below the last get one and the last none."""
    lows: list[int] = []
    monkeypatch.setattr(solve_robozzle.Team, "guess", lambda self, most, clock, seconds: lows.append(most))
    level = gridbot.load(f"robozzle:{name}")
    settings = dataclasses.replace(DEFAULT, beam_after=-1.0)
    optimum = solve(level, settings=settings, workers=1).length
    for top in (optimum, optimum + 1):
        lows.clear()
        found = solve(level, max_length=top, settings=settings, workers=1)
        assert found.status == "optimal" and found.length == optimum
        assert len(lows) == optimum - (top == optimum)  # a turn before lengths 1 .. optimum, or all but the last


@pytest.mark.clock
def test_a_solve_says_where_its_seconds_went() -> None:
    """On a puzzle out of the exact search's reach, the stats split the time between the heuristic's turns, the
    lengths searched (the last one stopped by the clock) and the annealer beside them; the parts that take
    turns add up to no more than the whole."""
    level = gridbot.load("robozzle:14")
    result = solve(level, time_limit=3, workers=2)
    phases = ("heuristic", "exact", "split", "unfinished", "annealer")
    spent = {name: result.stats[f"seconds_{name}"] for name in phases}
    assert result.status in ("solved", "timeout")
    assert spent["heuristic"] > 0 and spent["exact"] + spent["split"] > 0 and spent["annealer"] > 0
    assert 0 < spent["unfinished"] <= spent["exact"] + spent["split"] + 0.01
    assert spent["heuristic"] + spent["exact"] + spent["split"] <= result.seconds + 0.01


@pytest.mark.clock
def test_the_workers_of_a_cluster_guess_too(monkeypatch) -> None:
    """Given a cluster's executor of two workers (here local processes standing in for a Dask cluster's), a
    worker runs the heuristic beside this process's (other ties broken): here this process's gives up at once,
    so a program can only come from the worker's."""
    parent = os.getpid()
    real = solve_robozzle.Beam.guess

    def guess(self, most: int, clock: Clock, seconds: float):
        return None if os.getpid() == parent else real(self, most, clock, seconds)

    monkeypatch.setattr(solve_robozzle.Beam, "guess", guess)
    level = gridbot.load("robozzle:200")  # 33 slots: the exact search finds nothing in seconds
    assert solve(level, time_limit=4, workers=1).status == "timeout"
    with executors.local(2) as run:
        helped = solve(level, time_limit=4, executor=dataclasses.replace(run, kind="dask"))
    assert helped.status == "solved" and robozzle.run(level, helped.program).verdict.won
    assert helped.stats["beam_nodes"] > 0


@pytest.mark.clock
def test_the_heuristic_runs_on_a_thread_per_local_core(monkeypatch) -> None:
    """With two local workers (by number, or a local executor's), the beam's turns and the annealer beside them
    run at the same time on threads of their own, and the program is still won."""
    real_step, real_anneal = solve_robozzle.Beam._step, solve_robozzle.Annealer.guess
    annealing: dict[str, int] = {}  # the annealer's thread while it runs
    apart: list[bool] = []  # per beam step while the annealer runs: on another thread?

    def step(self, lane, *args):
        if "thread" in annealing:
            apart.append(threading.get_ident() != annealing["thread"])
        return real_step(self, lane, *args)

    def anneal(self, *args):
        annealing["thread"] = threading.get_ident()
        try:
            return real_anneal(self, *args)
        finally:
            annealing.clear()

    monkeypatch.setattr(solve_robozzle.Beam, "_step", step)
    monkeypatch.setattr(solve_robozzle.Annealer, "guess", anneal)
    level = gridbot.load("robozzle:200")
    for run in (dict(workers=2), dict(executor=executors.local(2))):
        apart.clear()
        with contextlib.ExitStack() as stack:
            if "executor" in run:
                run["executor"] = stack.enter_context(run["executor"])
            found = solve(level, time_limit=4, **run)
        assert found.status == "solved" and robozzle.run(level, found.program).verdict.won
        assert apart and all(apart)


@pytest.mark.clock
def test_a_team_of_two_runs_a_beam_and_the_annealer_and_the_first_find_stops_the_other(monkeypatch) -> None:
    """On two threads the team is a plain beam and the annealer; the one that finds a program stops the other,
    here an annealer that waits until it is asked to stop (or a minute). Three threads add a look-ahead beam;
    threads beyond go to the beams."""
    level = gridbot.load("robozzle:200")  # the plain beam finds a program in a second
    board = solve_robozzle.Board.of(level)
    team = solve_robozzle.Team(board, 64, threads=2)
    plain, annealer = team.members
    assert isinstance(annealer, solve_robozzle.Annealer) and plain.lookahead == 0 and plain.threads == 1
    asked = threading.Event()

    def wait(most: int, clock: Clock, seconds: float) -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end and not annealer.stop_asked():
            time.sleep(0.01)
        if annealer.stop_asked():
            asked.set()

    monkeypatch.setattr(annealer, "guess", wait)
    found = team.guess(sum(level.slots), Clock(None), 60)
    assert found is not None and robozzle.run(level, found).verdict.won
    assert asked.is_set() and team.best == found and team.nodes == plain.nodes > 0
    alone = solve_robozzle.Team(board, 64, threads=1)
    assert len(alone.members) == 1 and alone.members[0].lookahead == 0
    four = solve_robozzle.Team(board, 64, threads=4).members
    assert [type(m).__name__ for m in four] == ["Beam", "Annealer", "Beam"]
    assert (four[0].threads, four[2].threads, four[2].lookahead) == (2, 1, DEFAULT.lookahead)
    # beside an annealer of its own (Beside), a team is beams only: plain first, then looking ahead
    beams = solve_robozzle.Team(board, 64, threads=3, annealer=False).members
    assert [(type(m).__name__, m.lookahead, m.threads) for m in beams] == [
        ("Beam", 0, 2), ("Beam", DEFAULT.lookahead, 1)]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(puzzles(), st.data())
def test_the_annealers_score_of_a_whole_program_agrees_with_the_game(level: Level, data) -> None:
    """A won program scores WON; any other STAR_SCORE per star the game's run collects, less the moves from where
    it ended (the last tile stood on, when it fell off) to the nearest star left. An endless loop ends where the
    machine first sees it repeat, not at the last action the game runs. Three programs in turn on one annealer:
    each run leaves the board (colours and stars) as the puzzle starts it, for the next (kern.whole_score undoes
    what its run changed rather than copying the board)."""
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64)
    for _ in range(3):
        program = draw_program(level, data)
        _agrees_with_the_game(level, program, annealer.score(program))
        s = annealer.lane.search
        assert s.colour.tolist() == annealer.board.colour.tolist() and s.star.tolist() == annealer.board.star.tolist()


def _agrees_with_the_game(level: Level, program: robozzle.Program, score: int) -> None:
    result = robozzle.run(level, program, 64)
    assert (score == kern.WON) == result.verdict.won
    if score != kern.WON:
        steps = list(robozzle.steps(level, program, 64))
        left = set(steps[-1].stars) if steps else set(level.stars)
        on_tiles = [step.position for step in steps if level.tile(step.position)]  # only a fall leaves them
        end = on_tiles[-1] if on_tiles else level.start
        collected = len(level.stars) - len(left)
        assert (score + kern.STAR_SCORE - 1) // kern.STAR_SCORE == collected
        if result.reason != "out of actions":
            moves = min(walk(level, end, star) for star in left)
            assert score == collected * kern.STAR_SCORE - min(moves, kern.STAR_SCORE - 1)


def walk(level: Level, start: tuple[int, int], goal: tuple[int, int]) -> int:
    """The fewest moves over tiles from `start` to `goal` (breadth first; 1 << 20 when it cannot be reached)."""
    seen, frontier, moves = {start}, [start], 0
    while frontier:
        if goal in frontier:
            return moves
        nxt = []
        for r, c in frontier:
            for there in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if level.tile(there) and there not in seen:
                    seen.add(there)
                    nxt.append(there)
        frontier, moves = nxt, moves + 1
    return 1 << 20


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.integers(0, 3))
def test_the_annealer_wins_within_its_slots_and_trims_every_slot_not_needed(level: Level, seed: int) -> None:
    """What the annealer finds wins, has at most the slots it was given (the proven minimum, plus one) and loses
    when any one of its slots is taken out; it finds nothing where no program wins."""
    proof = solve(level, beam=False)
    board = solve_robozzle.Board.of(level)
    annealer = solve_robozzle.Annealer(board, 64, seed=seed)
    most = sum(level.slots) if proof.status == "unsolvable" else min(sum(level.slots), proof.length + 1)
    found = annealer.guess(most, Clock(None), 0.2)
    assert annealer.nodes > 0
    if proof.status == "unsolvable":
        assert found is None
        return
    assume(found is not None)
    assert robozzle.run(level, found, 64).verdict.won and proof.length <= found.tokens <= most
    assert annealer.best == found
    for f, body in enumerate(found.functions):
        for i in range(len(body)):
            fewer = found.functions[:f] + (body[:i] + body[i + 1 :],) + found.functions[f + 1 :]
            assert not robozzle.run(level, robozzle.Program(fewer), 64).verdict.won


@settings(max_examples=60, deadline=None)
@given(puzzles(rows=(2, 3), cols=(2, 4), functions=5, max_slots=5), st.integers(0, 10**6), st.integers(1, 12))
def test_the_annealers_changes_keep_to_the_slots_and_the_commands_allowed(level: Level, seed: int, most: int) -> None:
    """Every change kern._mutate makes keeps each function within its slots and the program within `most` slots
    (or no bigger, when it was over), writes only commands and conditions the puzzle allows, and a swap or a move
    keeps the program's commands (with their conditions) as they were, only elsewhere."""
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64, seed=seed)
    slots = annealer.board.slots
    allowed_ops, allowed_conds = set(annealer.alphabet.tolist()), {kern.NO_COND, *annealer.conds.tolist()}
    state = annealer.state.copy()
    op, cs, nd = (a.copy() for a in annealer.current)
    for _ in range(300):
        before_used = int(nd.sum())
        before = sorted((int(op[f, i]), int(cs[f, i])) for f in range(len(nd)) for i in range(nd[f]))
        kern._mutate(state, most, slots, annealer.alphabet, annealer.conds, op, cs, nd)
        after = sorted((int(op[f, i]), int(cs[f, i])) for f in range(len(nd)) for i in range(nd[f]))
        assert all(0 <= nd[f] <= slots[f] for f in range(len(nd)))
        assert nd.sum() <= max(most, before_used)
        assert {o for o, _ in after} <= allowed_ops and {c for _, c in after} <= allowed_conds
        gone, new = Counter(before) - Counter(after), Counter(after) - Counter(before)
        # one command written, one taken out, one changed (a swap or a move: none)
        assert (gone.total(), new.total()) in {(0, 0), (0, 1), (1, 0), (1, 1)}
        assert len(after) - len(before) == new.total() - gone.total()


def _whole_run(annealer: solve_robozzle.Annealer, op: np.ndarray, cs: np.ndarray, nd: np.ndarray) -> tuple:
    """kern.whole_score of a whole program as the annealer runs it: (its score, where the run ended: tile,
    facing, stars left, actions; what it saw at each slot)."""
    b, s, lane = annealer.board, annealer.lane.search, annealer.lane
    seen = np.zeros(kern.MAX_FUNCTIONS * kern.SEEN_WIDTH, np.int64)
    s.op[:], s.cs[:], s.nd[:] = op, cs, nd
    s.closed[:] = 1
    lane.node += 1
    score = kern.whole_score(
        lane.node, b.step, b.start, b.facing, b.stars, s.colour, s.star, s.op, s.cs, s.nd,
        s.closed, s.stack, s.trail, s.stamp, s.records, lane.rpath, s.dropped, s.sc, annealer.spos, annealer.sdist,
        annealer.snear, seen,
    )  # fmt: skip
    registers = [int(s.sc[r]) for r in (kern.S_POS, kern.S_FACING, kern.S_LEFT, kern.S_ACT)]
    return score, registers, seen


def test_a_run_sees_the_colours_at_each_slot_and_a_change_that_keeps_what_they_do_runs_the_same() -> None:
    """`F1: F F` on red, red, green: both slots are looked at on red only, then F1's end. A condition "on red"
    at either slot does the same there; "on green", another command, or a slot more at the end does not."""
    level = Level.parse("functions: 3 0 0 0 0\npaint: none\nstart: 1 1 east\nrrgR")
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64)
    s, state = annealer.lane.search, annealer.state
    red = 2 << robozzle.COLOURS.index("R")

    def arrays(text: str) -> list[np.ndarray]:
        s.load(robozzle.Program.parse(text))
        return [s.op.copy(), s.cs.copy(), s.nd.copy()]

    current = arrays("F1: F F")
    seen = _whole_run(annealer, *current)[2]
    assert seen[: kern.SEEN_WIDTH].tolist()[:4] == [red, red, kern.NO_COND, 0] and not seen[kern.SEEN_WIDTH :].any()
    state[kern.A_SEEN : kern.A_SEEN + seen.size] = seen
    for text, same in [("F1: rF F", True), ("F1: F rF", True), ("F1: rF rF", True), ("F1: gF F", False),
                       ("F1: F L", False), ("F1: F F R", False), ("F1: F", False)]:  # fmt: skip
        assert kern._runs_the_same(*arrays(text), *current, state) is same, text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), functions=5, max_slots=5), st.integers(0, 10**6))
def test_a_change_that_does_the_same_wherever_the_run_looked_runs_the_same(level: Level, seed: int) -> None:
    """The annealer keeps a change without running it when the changed program does what the current one did at
    every slot the current program's run looked at, on every colour it saw there (kern._runs_the_same, from what
    that run noted): such a change must end its run where the current one does, after the same actions, with the
    same stars collected and so the same score, and its run must see the same. Checked on every change of a random
    walk of changes, the changed program run in full each time."""
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64, seed=seed)
    b = annealer.board
    most = sum(level.slots)
    state = annealer.state
    cur = [a.copy() for a in annealer.current]
    same = changed_where_looked = 0
    for _ in range(300):
        score, registers, seen = _whole_run(annealer, *cur)
        for f in range(kern.MAX_FUNCTIONS):  # what a run sees: colours at slots, its end, from the first slot on
            saw = seen[f * kern.SEEN_WIDTH : (f + 1) * kern.SEEN_WIDTH].tolist()
            looked = sum(1 for x in saw if x)
            assert all(saw[:looked]) and not any(saw[looked:]) and looked <= cur[2][f] + 1
            assert all(x & kern.NO_COND == 0 for x in saw[: cur[2][f]]) and saw[cur[2][f]] in (0, kern.NO_COND)
        state[kern.A_SEEN : kern.A_SEEN + seen.size] = seen
        state[kern.A_KNOWN] = 1  # as in kern.anneal: the changes draw conditions from the colours seen
        changed = [a.copy() for a in cur]
        kern._mutate(state, most, b.slots, annealer.alphabet, annealer.conds, *changed)
        if kern._runs_the_same(*changed, *cur, state):
            same += 1
            looked_at = [(f, i) for f in range(kern.MAX_FUNCTIONS) for i in range(kern.SEEN_WIDTH)
                         if seen[f * kern.SEEN_WIDTH + i]]  # fmt: skip
            changed_where_looked += any(
                i < changed[2][f] and (changed[0][f, i], changed[1][f, i]) != (cur[0][f, i], cur[1][f, i])
                for f, i in looked_at
            )
            again = _whole_run(annealer, *changed)
            assert again[:2] == (score, registers) and again[2].tolist() == seen.tolist()
        cur = changed
    # a walk in one function of one slot, say, changes only slots that are run
    assume(same > 0)
    event(f"changed a slot looked at: {changed_where_looked > 0}")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 15), st.lists(st.sampled_from([2, 4, 8]), min_size=1, max_size=3, unique=True),
       st.integers(0, 10**6), st.integers(0, 1))  # fmt: skip
def test_a_condition_drawn_names_a_colour_seen_at_the_slot_when_two_were(saw: int, conds: list[int], seed: int,
                                                                          known: int) -> None:  # fmt: skip
    """kern._seen_condition: with the current run known to have stood on two or more colours a condition may name
    at the slot, one of those; else any a condition may name."""
    state = np.zeros(kern.N_ANNEAL, np.int64)
    state[kern.A_RNG], state[kern.A_KNOWN] = seed, known
    state[kern.A_SEEN + 2 * kern.SEEN_WIDTH + 3] = saw
    drawn = int(kern._seen_condition(state, np.array(conds, np.int64), 2, 3))
    assert drawn in conds
    split = [c for c in conds if saw & c]
    if known and len(split) >= 2:
        assert drawn in split


@settings(max_examples=60, deadline=None)
@given(puzzles(rows=(2, 3), cols=(2, 4), functions=5, max_slots=5), st.integers(0, 10**6), st.integers(1, 12))
def test_two_changes_kept_or_undone_over_the_slots_they_can_touch_leave_whole_arrays_equal(
    level: Level, seed: int, most: int
) -> None:
    """kern.anneal changes the program in place and then copies it only over the slots one or two changes
    (kern._mutate) can have written (kern._copy_program): kept, the current program's arrays become the changed
    ones, whole; undone, the changed ones become the current ones again, whole (slots past a function's end
    included, so the annealer's state is what whole copies would make it)."""
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64, seed=seed)
    slots, alphabet, conds, state = annealer.board.slots, annealer.alphabet, annealer.conds, annealer.state
    cur = [a.copy() for a in annealer.current]
    for step in range(300):
        op, cs, nd = (a.copy() for a in cur)
        for _ in range(1 + step % 2):
            kern._mutate(state, most, slots, alphabet, conds, op, cs, nd)
        if step % 3:
            kern._copy_program(*cur, op, cs, nd)  # undone
            assert [a.tolist() for a in (op, cs, nd)] == [a.tolist() for a in cur]
        else:
            kern._copy_program(op, cs, nd, *cur)  # kept
            assert [a.tolist() for a in cur] == [a.tolist() for a in (op, cs, nd)]


def test_two_chains_swap_when_the_hotter_scores_better_and_keep_their_temperatures() -> None:
    """Annealer.swap: a hotter chain scoring at least as well always swaps down (programs, scores, what their runs
    saw; temperatures and generators stay), one scoring a thousand points worse never does at these temperatures
    (probability exp(-1000 x (1/5 - 1/200)))."""
    level = gridbot.load("robozzle:14")
    annealer = solve_robozzle.Annealer(
        solve_robozzle.Board.of(level), 64, settings=dataclasses.replace(DEFAULT, chains=2)
    )
    cold, hot = annealer.chains
    for chain, score, mark in ((cold, 500, 11), (hot, 700, 22)):
        chain.state[kern.A_KNOWN], chain.state[kern.A_SCORE], chain.state[kern.A_SEEN] = 1, score, mark
        chain.current[2][0] = mark % 10
    rngs = int(cold.state[kern.A_RNG]), int(hot.state[kern.A_RNG])
    assert annealer.swap(0)
    assert (cold.state[kern.A_SCORE], cold.state[kern.A_SEEN], cold.current[2][0]) == (700, 22, 2)
    assert (hot.state[kern.A_SCORE], hot.state[kern.A_SEEN], hot.current[2][0]) == (500, 11, 1)
    assert (int(cold.state[kern.A_RNG]), int(hot.state[kern.A_RNG])) == rngs
    assert (cold.temperature, hot.temperature) == (DEFAULT.anneal_cold, DEFAULT.anneal_hot)
    hot.state[kern.A_SCORE] = cold.state[kern.A_SCORE] - 1000
    assert not any(annealer.swap(0) for _ in range(100))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), functions=5, max_slots=5), st.integers(0, 10**6))
def test_after_steps_and_swaps_each_chain_knows_its_own_programs_score_and_run(level: Level, seed: int) -> None:
    """However the chains' programs were swapped, each chain's score and what it knows its run saw are those of
    its own current program, run in full (a program that won with more slots than asked for aside)."""
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64, seed=seed)
    for _ in range(20):
        if annealer.steps(600, sum(level.slots)):
            return
    for chain in annealer.chains:
        if chain.state[kern.A_KNOWN] != 1:
            continue
        score, _, seen = _whole_run(annealer, *chain.current)
        assert score == chain.state[kern.A_SCORE]
        assert seen.tolist() == chain.state[kern.A_SEEN : kern.A_SEEN + seen.size].tolist()
    event(f"swapped: {annealer.swaps > 0}")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.integers(0, 3))
def test_an_annealer_given_a_lower_bound_never_returns_a_longer_program(level: Level, seed: int) -> None:
    """After each find the annealer goes on from where it was, asked for a program one slot shorter: a win of more
    slots than asked for (its current program is from before the bound fell) never counts."""
    proof = solve(level, beam=False)
    assume(proof.status == "optimal")
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64, seed=seed)
    most = sum(level.slots)
    for _ in range(6):
        found = annealer.guess(most, Clock(None), 0.05)
        if found is None:
            break
        assert robozzle.run(level, found, 64).verdict.won and proof.length <= found.tokens <= most
        most = found.tokens - 1
    assert most >= proof.length - 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.data())
def test_an_annealer_started_from_a_program_goes_on_from_it(level: Level, data) -> None:
    """start_from: a winning program comes back at once (trimmed, kept as the best); any other becomes the
    current program of the annealer's middle chain, with its own score, to be run again (A_KNOWN 0) but not
    replaced by a random one (A_ITER not 0)."""
    program = draw_program(level, data)
    annealer = solve_robozzle.Annealer(solve_robozzle.Board.of(level), 64)
    found = annealer.start_from(program)
    if robozzle.run(level, program, 64).verdict.won:
        assert found is not None and annealer.best == found and found.tokens <= program.tokens
        assert robozzle.run(level, found, 64).verdict.won
        return
    middle = annealer.chains[len(annealer.chains) // 2]
    assert found is None and solve_robozzle.program_of(*middle.current) == program
    assert middle.state[kern.A_SCORE] == annealer.score(program)
    assert middle.state[kern.A_KNOWN] == 0 and middle.state[kern.A_ITER] >= 1


def test_the_beams_lead_as_a_program_holds_the_leads_decisions() -> None:
    """Beam.lead_program: the lead's decided slots as a whole program, which fits the puzzle's slots and runs; its
    commands are the lead's own (replayed, the lead stops at the same decision count)."""
    level = gridbot.load("robozzle:14")
    beam = solve_robozzle.Beam(solve_robozzle.Board.of(level), 1024)
    assert beam.lead_program() is None
    beam.run(sum(level.slots), Clock(None), 0.3)
    lead = beam.lead_program()
    assert lead is not None and 0 < lead.tokens <= sum(level.slots)
    assert all(len(body) <= n for body, n in zip(lead.functions, level.slots, strict=False))
    robozzle.run(level, lead, 64)  # a program of the puzzle: no ProgramError


@pytest.mark.clock
def test_the_annealer_beside_goes_on_from_the_lead_every_so_many_steps() -> None:
    """Given a lead, Beside's annealer goes on from it every `lead_every` steps (made few here)."""
    often = dataclasses.replace(DEFAULT, lead_every=70)
    level = gridbot.load("robozzle:14")
    lead = robozzle.parse_program("F1: F F L F2 | F2: R F1 | F3: F")
    asked = []

    def given() -> robozzle.Program:
        asked.append(True)
        return lead

    board = solve_robozzle.Board.of(level)
    beside = solve_robozzle.Beside(board, 64, sum(level.slots), lead=given, settings=often).start()
    try:
        end = time.monotonic() + 10
        while beside.rounds < 4 and time.monotonic() < end:
            time.sleep(0.01)
    finally:
        beside.stop()
    assert beside.rounds >= 4 and len(asked) == beside.rounds
    assert beside.annealer.taken >= often.lead_every * beside.rounds


@pytest.mark.clock
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.integers(0, 3))
def test_the_annealer_beside_finds_within_its_bound_pauses_and_stops(level: Level, seed: int) -> None:
    """Beside: the annealer on a thread of its own finds a winning program of at most the slots it was given,
    then keeps looking for shorter ones; paused, it runs no step; stopped, its thread ends."""
    proof = solve(level, beam=False)
    assume(proof.status == "optimal" and proof.length >= 2)
    beside = solve_robozzle.Beside(solve_robozzle.Board.of(level), 64, proof.length + 1, seed=seed).start()
    try:
        end = time.monotonic() + 10
        while beside.best is None and time.monotonic() < end:
            time.sleep(0.01)
        assume(beside.best is not None)
        assert robozzle.run(level, beside.best, 64).verdict.won and beside.best.tokens <= proof.length + 1
        with beside.paused():
            before = beside.nodes
            time.sleep(0.1)
            assert beside.nodes == before
        time.sleep(0.1)
        with beside.paused():  # between two slices: its bound and its best agree
            assert beside.nodes > before and beside.thread.is_alive()  # the optimum has a program: it goes on
            assert beside.most == beside.best.tokens - 1
    finally:
        beside.stop()
    assert not beside.thread.is_alive()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_the_annealer_beside_never_changes_what_is_proven(level: Level) -> None:
    """On two cores the annealer runs beside the exact search from the start, and a program it finds ends the
    length being searched: the answer still equals every program tried (cf. the first test, on this machine's
    cores)."""
    result = solve(level, max_length=3, workers=2)
    reference = brute_robozzle.minimum(level, 3)
    assert (result.length if result.status == "optimal" else None) == reference
    if result.program is not None:
        assert robozzle.run(level, result.program).verdict.won


@pytest.mark.clock
def test_a_program_found_beside_the_search_ends_the_length_it_has_met(monkeypatch) -> None:
    """A program of n slots the annealer beside finds while length n is searched ends that search at once (every
    shorter length is excluded): the answer is that program, proven, after fewer nodes."""
    level = gridbot.load("robozzle:114")
    alone = solve(level, workers=1, beam=False)
    assert alone.status == "optimal"

    class Found:  # a stand-in for Beside: its program appears when length n begins
        best: robozzle.Program | None = None
        nodes, most, started, seconds = 0, 0, True, 0.0

        def __init__(self, *args) -> None:
            pass

        def start(self) -> Found:
            return self

        def stop(self) -> None:
            pass

        def bound(self, most: int) -> None:
            self.most = most

    found = Found()
    real = exact._search_length
    lengths = []

    def search(board, L, *args, **kwargs):
        lengths.append(L)
        if alone.length == L:
            found.best = alone.program
        return real(board, L, *args, **kwargs)

    monkeypatch.setattr(front, "Beside", lambda *args, **kwargs: found)
    monkeypatch.setattr(front, "_search_length", search)
    # the check between kernel calls comes after the first node; no length split
    result = solve(
        level, workers=2, settings=scheduled(dataclasses.replace(DEFAULT, chunk=1), parallel_after=float("inf"))
    )
    assert (result.status, result.length, result.program) == ("optimal", alone.length, alone.program)
    assert lengths == list(range(1, alone.length + 1))
    assert result.stats["candidates"] < alone.stats["candidates"]


def test_the_annealer_beside_waits_while_a_length_is_split_over_every_core(monkeypatch) -> None:
    """A length split over the worker processes takes every core: the annealer beside runs no step meanwhile."""
    made: list[solve_robozzle.Beside] = []
    real_beside, real_shares = solve_robozzle.Beside, front.search_shares

    def beside(*args, **kwargs) -> solve_robozzle.Beside:
        made.append(real_beside(*args, **kwargs))
        return made[-1]

    still: list[bool] = []

    def shares(*args, **kwargs):
        before = made[0].nodes
        out = real_shares(*args, **kwargs)
        time.sleep(0.05)  # (were it still running, it would have run steps by now)
        still.append(made[0].nodes == before)
        return out

    monkeypatch.setattr(front, "Beside", beside)
    monkeypatch.setattr(front, "search_shares", shares)
    # every length split from the second on; the annealer started before the first length
    settings_ = scheduled(dataclasses.replace(DEFAULT, beam_after=-1.0), parallel_after=0.0)
    level = gridbot.load("robozzle:114")
    result = solve(level, workers=2, settings=settings_)
    assert (result.status, result.length) == ("optimal", 6)
    assert made[0].started and still and all(still)


def first_winning_line(board: solve_robozzle.Board, length: int) -> np.ndarray | None:
    """The decisions (option codes) of the first program of at most `length` slots the exact search finds."""
    search = exact._Search(board, length, 64)
    while (status := search.step(10_000)) == kern.PAUSED:
        pass
    if status != kern.FOUND:
        return None
    frames = search.frames[: search.sc[kern.S_DEPTH]]
    return np.array([frame[kern.FR_OPTS + frame[kern.FR_CURSOR]] for frame in frames], np.int64)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(puzzles(rows=(2, 3), cols=(2, 4)), st.sampled_from([1, 2, 3]))
def test_the_repair_searches_below_a_line_down_to_the_root(level: Level, threads: int) -> None:
    """The repair undoes ever more decisions of its lead (here: the first winning line of up to every slot, often
    longer than the fewest), down to the exact search from the root: on small puzzles it finds a program of the
    fewest slots unpruned enumeration finds, never one longer than asked, and none when fewer are asked for;
    on one thread or several."""
    board = solve_robozzle.Board.of(level)
    line = first_winning_line(board, min(6, sum(level.slots)))
    assume(line is not None and len(line) > 1)
    reference = brute_robozzle.minimum(level, 3)
    beam = solve_robozzle.Beam(board, 64, threads=threads)
    beam.lead = (0, line)
    if reference is None:
        assert beam.repair(min(3, sum(level.slots)), Clock(None), 60) is None
        return
    found = beam.repair(reference, Clock(None), 60)
    assert found is not None and found.tokens <= reference and robozzle.run(level, found).verdict.won
    assert beam.best == found
    fresh = solve_robozzle.Beam(board, 64, threads=threads)
    fresh.lead = beam.lead
    assert fresh.repair(reference - 1, Clock(None), 60) is None


def test_the_heuristic_program_is_the_answer_when_time_runs_out(monkeypatch) -> None:
    real = solve_robozzle.Beam.run
    monkeypatch.setattr(
        solve_robozzle.Beam, "run", lambda self, most, clock, seconds: real(self, most, Clock(None), 60)
    )
    level = gridbot.load("robozzle:200")
    result = solve(level, time_limit=2)
    assert result.status == "solved" and result.length >= result.lower_bound
    assert robozzle.run(level, result.program).verdict.won


def test_a_spread_beam_keeps_the_best_of_each_place_first() -> None:
    order = np.array([4, 0, 3, 1, 2, 5])  # best first
    places = np.array([7, 7, 8, 7, 9, 8])  # of entries 0..5
    # places in order: 4->9, 0->7, 3->7 (again), 1->7 (again), 2->8, 5->8 (again)
    assert rz_beam._spread(order, places, 6).tolist() == [4, 0, 2, 3, 1, 5]
    assert rz_beam._spread(order, places, 2).tolist()[:2] == [4, 0]
    assert sorted(rz_beam._spread(order, places, 6).tolist()) == list(range(6))


def children_by_replay(beam: solve_robozzle.Beam, lines: list[list[int]], rollout: bool = False) -> tuple[list, list]:
    """The beam's children of `lines` the slow way: every child's decisions replayed from the start (and, with
    `rollout`, its run then played out as it stands, S_ROLLOUT, for its score). Returns (children: decisions,
    score, place), (winners: decisions, slots). A roll-out caught in an endless loop ends where the loop records
    catch it, which hangs on what earlier runs left in them: its score is None."""
    b, s = beam.board, beam.search
    node = 10**9  # clear of the numbers the kernel used

    def replay(line: list[int]) -> int:
        nonlocal node
        node += 1
        path = np.array(line + [0], np.int64)
        return kern._replay(path, len(line), node, b.step, b.colour, b.star, b.start, b.facing, b.stars, s.colour,
                            s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records, beam.rpath,
                            s.dropped, s.sc)  # fmt: skip

    children, winners = [], []
    for line in lines:
        if replay(line) != kern._DECIDE:
            continue
        count = kern._options(
            beam.frame, s.sc, b.step, s.colour, s.stack, b.slots, b.paints, b.present, b.prev_same, s.op, s.cs, s.nd
        )
        for code in [int(beam.frame[kern.FR_OPTS + k]) for k in range(count)]:
            result = replay(line + [code])
            sc = s.sc
            if result == kern._WIN:
                winners.append((line + [code], int(sc[kern.S_USED])))
            elif result == kern._DECIDE:
                place = (sc[kern.S_POS] * 4 + sc[kern.S_FACING]) * (b.stars + 1) + sc[kern.S_LEFT]
                looped = False
                if rollout:
                    loops = int(sc[kern.S_LOOPS])
                    sc[kern.S_ROLLOUT] = 1
                    kern._run(b.step, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp,
                              s.records, beam.rpath, s.dropped, sc)  # fmt: skip
                    sc[kern.S_ROLLOUT] = 0
                    looped = sc[kern.S_LOOPS] > loops
                left = [int(t) for t in beam.spos if s.star[t]]
                near = min((int(beam.sdist[k, sc[kern.S_POS]]) for k, t in enumerate(beam.spos) if t in left),
                           default=0 if sc[kern.S_LEFT] == 0 else 1 << 20)  # fmt: skip
                w = beam.weights
                score = (b.stars - sc[kern.S_LEFT]) * w[0] - near * w[1] - sc[kern.S_USED] * w[2]
                children.append((line + [code], None if looped else int(score), int(place)))
    return children, winners


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.randoms(use_true_random=False), st.booleans())
def test_the_beam_step_goes_back_and_on_as_a_replay_from_the_start_would(level: Level, rng, rollout: bool) -> None:
    """beam_step goes back from one parent to the decisions it shares with the next and undoes each option's run
    (and its roll-out) on the trail: every child's decisions, score and place, and the fewest-slot winner, must
    be those of replaying every child from the start (four depths, every child kept, parents in lexicographic or
    shuffled order; children scored as they stand or as played out)."""
    board = solve_robozzle.Board.of(level)
    beam = solve_robozzle.Beam(board, 64)
    s = beam.search
    s.sc[kern.S_LENGTH] = sum(level.slots)
    lines: list[list[int]] = [[]]
    for _ in range(4):
        if not lines:
            break
        lines.sort()
        if rng.random() < 0.5:
            rng.shuffle(lines)
        width = len(lines)
        parents = np.zeros((width, kern.MAX_FRAMES), np.int64)
        depth = len(lines[0])  # every line one decision deeper than the last round's
        for i, line in enumerate(lines):
            parents[i, : len(line)] = line
        child_parent = np.zeros(width * kern.MAX_OPTIONS, np.int64)
        child_option = np.zeros(width * kern.MAX_OPTIONS, np.int64)
        scores = np.zeros(width * kern.MAX_OPTIONS, np.int64)
        places = np.zeros(width * kern.MAX_OPTIONS, np.int64)
        won = np.zeros(kern.MAX_FRAMES + 2, np.int64)
        won[-1] = 1 << 20
        m, beam.lanes[0].node = kern.beam_step(
            parents, depth, width, child_parent, child_option, scores, won, board.step, board.colour, board.star,
            board.start, board.facing, board.stars, board.slots, board.paints, board.present, board.prev_same,
            s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records, beam.rpath,
            s.dropped, s.frames, beam.frame, s.sc, beam.lanes[0].node, beam.spos, beam.sdist, beam.snear, beam.weights,
            places, rollout,
        )  # fmt: skip
        expected, winners = children_by_replay(beam, lines, rollout)
        got = [(lines[child_parent[k]] + [int(child_option[k])], int(scores[k]), int(places[k])) for k in range(m)]
        assert [(line, score if want is not None else None, place) for (line, score, place), (_, want, _) in
                zip(got, expected, strict=True)] == expected  # fmt: skip
        fewest = min((slots for _, slots in winners), default=1 << 20)
        assert won[-1] == fewest
        if winners:
            assert [int(x) for x in won[: won[-2]]] == next(line for line, slots in winners if slots == fewest)
        lines = [line for line, _, _ in expected]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.integers(0, 3), st.sampled_from([2, 3]), st.booleans())
def test_a_beam_on_several_threads_keeps_what_one_thread_would(
    level: Level, seed: int, threads: int, ahead: bool
) -> None:
    """Split over threads (here from two partial programs up), a pass of the beam meets the same children in
    the same order: the same program found, the same best line and as many children as on one thread; with the
    look-ahead too."""
    board = solve_robozzle.Board.of(level)
    most = sum(level.slots)
    seen = []
    look = 1 if ahead else 0
    one_parent = dataclasses.replace(DEFAULT, min_parents=1)
    for beam in (solve_robozzle.Beam(board, 64, width=8, seed=seed, lookahead=look, settings=one_parent),
                 solve_robozzle.Beam(board, 64, width=8, seed=seed, threads=threads, lookahead=look,
                                     settings=one_parent)):  # fmt: skip
        with futures.ThreadPoolExecutor(beam.threads) as pool:
            found = beam._pass(pool, most, Clock(None), float("inf"), beam.width)
        lead = None if beam.lead is None else (beam.lead[0], beam.lead[1].tolist())
        seen.append((None if found is None else str(found), lead, beam.nodes))
    assert seen[0] == seen[1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(rows=(2, 3), cols=(2, 4), max_slots=4), st.integers(0, 2), st.sampled_from([1, 2]))
def test_a_look_ahead_judges_each_child_by_its_best_child(level: Level, depth: int, threads: int) -> None:
    """Beam._ahead scores each child as the best of its own children (DEAD when every next decision loses) and
    writes a winning grandchild to `won`: against every grandchild replayed from the start, on one thread or
    two."""
    board = solve_robozzle.Board.of(level)
    most = sum(level.slots)

    def by_replay(lines: list[list[int]]) -> tuple[list, list]:
        reference = solve_robozzle.Beam(board, 64)  # fresh arrays: children_by_replay numbers its nodes alike
        reference.search.sc[kern.S_LENGTH] = most
        return children_by_replay(reference, lines)

    lines: list[list[int]] = [[]]
    for _ in range(depth):
        lines = sorted(line for line, _, _ in by_replay(lines)[0])
    assume(lines)
    beam = solve_robozzle.Beam(board, 64, threads=threads, settings=dataclasses.replace(DEFAULT, min_parents=1))
    for lane in beam.lanes:
        lane.search.sc[kern.S_LENGTH] = most
    parents = np.zeros((len(lines), kern.MAX_FRAMES), np.int64)
    for i, line in enumerate(lines):
        parents[i, :depth] = line
    children = [rz_beam._Children(len(lines) * kern.MAX_OPTIONS) for _ in beam.lanes]
    out = children[0] if threads == 1 else rz_beam._Children(len(lines) * kern.MAX_OPTIONS)
    won = np.zeros(kern.MAX_FRAMES + 2, np.int64)
    won[-1] = 1 << 20
    with futures.ThreadPoolExecutor(threads) as pool:
        m = beam._expand(pool, parents, depth, len(lines), children, out, won)
        won[-1] = 1 << 20  # only the grandchildren's wins from here
        value = beam._ahead(pool, parents, depth, m, out, won)
    fewest = 1 << 20
    for k in range(m):
        grand, winners = by_replay([lines[out.parent[k]] + [int(out.option[k])]])
        assert value[k] == max((score for _, score, _ in grand), default=rz_beam.DEAD)
        fewest = min([fewest] + [slots for _, slots in winners])
    assert won[-1] == fewest
