"""How the Carrots solver spends its time and memory: one frozen value, passed to `solve`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """How the solver spends its time and memory. None of them changes which length is proven shortest: they
    change how fast, when the tables stop for memory, and how long the finishing work may take."""

    # table words a kernel call may go through, so that the clock is read often: 8 MiB, tens of milliseconds,
    # and about 0.1 s where the call writes memory the process never touched (a virtual machine whose host takes
    # back free memory makes each first touch cost about 10 ms per MiB)
    work_per_call: int = 2**20
    # loop bodies per build_loops call, at most: a second bound beside work_per_call, so that a call returns (and
    # the clock is read) after a bounded number of bodies however little each one's powers cost
    bodies_per_call: int = 256
    # final-loop pairs per pair_covers call, at most (fewer when work_per_call allows fewer)
    pair_chunk: int = 50_000
    # (child, fragment) coverage tests per first_cover call: a test stops at the first word that differs, but on
    # a big board whose marks are complete in their first words it reads many
    finish_pairs: int = 2**22
    # shares of the memory budget: the fragment store with its fingerprint map and loop power buffers (what
    # decides how far the proof gets); the top-level search's memo of expanded (state, marks), which only prunes
    # repeats; the outcomes of top-level loops examined at once. The rest is slack for the interpreter.
    table_share: float = 0.75
    memo_share: float = 1 / 8
    children_share: float = 1 / 16
    # of the tables' share, what the loop power buffers get (the store gets the rest): the buffers hold one body's
    # powers at a time, the store every table
    power_share: float = 1 / 4
    # rows the fingerprint map is first made for: it doubles as the store fills, so a board whose tables stay
    # small never pays for a map the size of the whole store
    first_map_rows: int = 1024
    # the largest function (every state's end and marks; about squares^2 / 2 bytes) the tables take: past it
    # (boards of more than about 4,000 squares) the first rows alone write tens of megabytes, up to a second
    # where memory is touched for the first time, too slow to keep a time limit of a second, and a store that
    # fits in memory holds too few rows to prove more than a few tokens
    max_state_bytes: int = 2**23
    # the finishing work (lowering loop counts, the greedy program) may go past the deadline by grace_share of
    # the limit, at least grace_min and at most grace_max seconds: well inside the time bound's slack of
    # max(1 s, 10 %), and enough to turn a found program into a readable one
    grace_min: float = 0.1
    grace_share: float = 0.05
    grace_max: float = 0.5
    # seconds the greedy program may take when there is no time limit: it only shortens the tour's answer, which
    # is at hand already, so it is not worth a long wait
    greedy_untimed: float = 2.0
    # the first solve of a process loads the compiled kernels (0.5 to 1 s) under its clock; with less time left
    # than this it does not start them (the plain tour answers), so that loading ends well inside the slack
    warm_up_min_left: float = 0.5
    # from this many squares the compiled tour, loaded alone from numba's cache (about 0.4 s), beats the plain
    # one, even before the other kernels are loaded
    kernel_tour_squares: int = 200_000
    # lowering a loop's count (`smallest_counts`) tries the counts below this: people prefer LOOP(3) to
    # LOOP(19), and each try is a run of the simulator
    count_tries: int = 400
