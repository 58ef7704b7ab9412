"""The exact count of Carrots behaviours (gridbot.solve.carrots.every) against every program of the par, run by
the simulator: the counts are equal, on boards where the solver's listing counts fewer, too."""

from __future__ import annotations

import pytest

import gridbot
from gridbot.deadline import Clock
from gridbot.games import carrots
from gridbot.generate.carrots import random_level
from gridbot.solve.analyze import analyze, behaviour
from gridbot.solve.carrots.every import behaviours
from gridbot.solve.carrots.unique import Verdict, other_behaviour

from . import brute


def small_boards(count: int, most_par: int) -> list[tuple[carrots.Level, int]]:
    """Random boards of 3 to 7 squares whose par is at most `most_par`, with their par."""
    found = []
    for seed in range(400):
        level = random_level(3, 3 if seed % 2 else 2, seed, fill=0.75, marked=0.15)
        result = gridbot.solve(level, max_length=most_par)
        if result.status == "optimal" and result.length and result.length <= most_par:
            found.append((level, result.length))
        if len(found) == count:
            break
    return found


def every_behaviour(level: carrots.Level, par: int) -> set[tuple[int, ...]]:
    """The marking orders of every winning program of `par` tokens whose counts are at most twice the board's
    states (more than any count the board can tell apart: the powers of a body repeat within that many on these
    boards), by the plain enumeration."""
    counts = 2 * 4 * level.size
    return {carrots.marks_in_order(level, p) for p in brute.carrots_winners(level, par, counts)}


BOARDS = small_boards(8, 4)  # eight boards: the old count is wrong on four of them


@pytest.mark.parametrize(("level", "par"), BOARDS, ids=[str(b[0].name) for b in BOARDS])
def test_exact_count_equals_every_program(level: carrots.Level, par: int) -> None:
    every = behaviours(level, par, 1000, Clock(None))
    assert every.complete
    assert set(every.keys) == every_behaviour(level, par)
    for key, program in zip(every.keys, every.programs, strict=True):
        assert program.tokens == par and carrots.run(level, program).verdict.won
        assert carrots.marks_in_order(level, program) == key
    a = analyze(level, cap=1000)
    assert (a.behaviours, a.behaviours_capped) == (len(every.keys), False)
    check_uniqueness(level, par, dict(zip(every.keys, every.programs, strict=True)))


def check_uniqueness(level: carrots.Level, par: int, truth: dict[tuple[int, ...], carrots.Program]) -> Verdict:
    """gridbot.solve.carrots.unique from the programs of up to three of the orders in `truth` (every order of
    marking of the programs of `par` tokens that complete `level`, with a program of each): one order, proven
    unique; more, another program found, of `par` tokens, completing the level in another of those orders.
    Returns the verdict."""
    want = Verdict.UNIQUE if len(truth) == 1 else Verdict.OTHER
    for key, program in list(truth.items())[:3]:
        found = other_behaviour(level, par, program, Clock(None))
        assert (found.verdict, found.order) == (want, key), (str(level), str(program))
        if found.other is not None:
            assert found.other.tokens == par and carrots.run(level, found.other).verdict.won
            assert carrots.marks_in_order(level, found.other) in set(truth) - {key}
    return want


def test_uniqueness_equals_brute_force_on_many_small_boards() -> None:
    """Boards of 2 to 9 squares with a par of 1 to 3, against every program of the par run by the simulator:
    the check says unique exactly when the brute force finds one order of marking (both kinds are met)."""
    verdicts = {Verdict.UNIQUE: 0, Verdict.OTHER: 0}
    pars = set()
    tiny = [carrots.Level.parse(text) for text in ("S#", "S##", "#S#", "S#\n##", "OS#", "#S\n##")]
    for seed in range(-len(tiny), 160):
        width, height = (3, 3) if seed % 3 == 0 else (3, 2) if seed % 3 == 1 else (4, 2)
        fill, marked = 0.5 + (seed % 5) / 10, 0.2 * (seed % 2)
        level = tiny[seed] if seed < 0 else random_level(width, height, 1000 + seed, fill=fill, marked=marked)
        result = gridbot.solve(level, max_length=3)
        if result.status != "optimal" or not result.length or result.length > 3:
            continue
        par = result.length
        winners = brute.carrots_winners(level, par, 2 * 4 * level.size)
        truth = {carrots.marks_in_order(level, p): p for p in sorted(winners, key=str)}
        verdicts[check_uniqueness(level, par, truth)] += 1
        pars.add(par)
    assert min(verdicts.values()) >= 5 and pars == {1, 2, 3}, (verdicts, pars)


def larger_boards(count: int) -> list[tuple[carrots.Level, int]]:
    """Random boards of 4 x 4 and 5 x 4 cells whose par is 5 or 6, with their par."""
    found = []
    for seed in range(200):
        level = random_level(4 + seed % 2, 4, 3000 + seed, fill=0.7, marked=0.1 * (seed % 2))
        result = gridbot.solve(level, max_length=6)
        if result.status == "optimal" and result.length in (5, 6):
            found.append((level, result.length))
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize(("level", "par"), larger_boards(12), ids=lambda x: str(getattr(x, "name", x)))
def test_uniqueness_equals_the_exact_count_at_pars_5_and_6(level: carrots.Level, par: int) -> None:
    """Against the exact count (itself equal to the brute force above), where it completes."""
    every = behaviours(level, par, 1000, Clock(None))
    if not every.complete:
        pytest.skip("the exact count ran out of its work bound")
    check_uniqueness(level, par, dict(zip(every.keys, every.programs, strict=True)))


def test_both_verdicts_at_pars_5_and_6() -> None:
    """The boards above are not all of one kind (else the comparison could not fail the other way)."""
    kinds = set()
    for level, par in larger_boards(12):
        program = gridbot.solve(level).solution
        kinds.add(other_behaviour(level, par, program, Clock(None)).verdict)
    assert kinds == {Verdict.UNIQUE, Verdict.OTHER}


def test_uniqueness_work_bound_leaves_it_undecided() -> None:
    level = gridbot.load("carrots:9")
    program = gridbot.solve(level).solution
    found = other_behaviour(level, 6, program, Clock(None), work=1000)
    assert found.verdict is Verdict.UNDECIDED and found.other is None and "work" in found.reason


def test_uniqueness_wants_a_program_of_the_par_that_wins() -> None:
    level = gridbot.load("carrots:2")
    with pytest.raises(ValueError):
        other_behaviour(level, 4, carrots.parse_program("LOOP{F F L}"), Clock(None))  # does not complete it
    with pytest.raises(ValueError):
        other_behaviour(level, 5, carrots.parse_program("LOOP{F F R}"), Clock(None))  # 4 tokens, not 5


def test_analyze_proves_one_behaviour_past_the_counts_work_bound() -> None:
    """A generated board of par 8 whose listing shows one order: the count alone runs out of its work bound (a
    lower bound), the uniqueness check proves the one order exactly."""
    made = gridbot.generate("carrots", 8, unique=True, count=1, seed=0)[0]
    assert (made.analysis.behaviours, made.analysis.behaviours_capped) == (1, False)
    program = carrots.parse_program(made.analysis.examples[0])
    assert not behaviours(made.level, 8, 2, Clock(None), work=2_000_000).complete
    assert other_behaviour(made.level, 8, program, Clock(None)).verdict is Verdict.UNIQUE


def test_the_old_count_fails_where_the_exact_one_passes() -> None:
    """The old count (the solver's listed programs told apart by their states) is not the number of behaviours:
    on several of these boards it differs from the exact count, which the test above shows equal to the brute
    force's on every one of them (so the old one differs from the brute force's there)."""
    wrong = 0
    for level, par in BOARDS:
        listed = gridbot.solve(level, all_solutions=True)
        old = {tuple(carrots.states(level, p)) for p in listed.solutions}
        every = behaviours(level, par, 1000, Clock(None))
        assert every.complete
        wrong += len(old) != len(every.keys)
    assert wrong >= 3


def test_a_bundled_board_where_the_listing_undercounts() -> None:
    """carrots:5: the listed programs show fewer orders of marking than the programs of the par have; each one
    counted is a program the simulator runs to a win (analyze re-runs them), so the listing's is too few."""
    level = gridbot.load("carrots:5")
    a = analyze(level, longer=False, needed=False)
    listed = gridbot.solve(level, all_solutions=True)
    old = {behaviour(carrots, level, p) for p in listed.solutions}
    assert a.exact and a.behaviours > len(old)


def test_loop_counts_that_only_add_blocked_hops_are_one_behaviour() -> None:
    level = gridbot.load("carrots:2")
    runs = {tuple(carrots.states(level, carrots.parse_program(f"LOOP{{R LOOP({n}){{F}}}}"))) for n in range(2, 9)}
    assert len(runs) == 7  # seven runs as states: the count is free, so states would count without end
    a = analyze(level)
    assert (a.behaviours, a.behaviours_capped) == (1, False)  # one order of marking


def test_work_bound_gives_a_lower_bound() -> None:
    level = gridbot.load("carrots:9")
    every = behaviours(level, 6, 100, Clock(None), work=10_000)
    assert not every.complete


def test_most_stops_the_count() -> None:
    every = behaviours(gridbot.load("carrots:5"), 5, 3, Clock(None))
    assert len(every.keys) == 3 and not every.complete
