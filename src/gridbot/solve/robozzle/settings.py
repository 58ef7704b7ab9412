"""The RoboZZle solver's tuning values: one frozen value (Settings) that `solve` hands to every part of the
search, so that a caller, a test or a benchmark can run the solver with other values without touching a module."""

from __future__ import annotations

from dataclasses import dataclass

from gridbot.solve.deepening import Schedule


@dataclass(frozen=True, slots=True)
class Settings:
    """Every tuning value of the RoboZZle solver: how `solve` divides its time between the exact search, the
    worker processes and the heuristics, and how the heuristics search. None of them changes what is proven,
    only how soon, and which programs the heuristics find on the way. Frozen and picklable: worker processes
    receive it with their shares. A caller that wants other values passes its own:

    >>> import dataclasses
    >>> dataclasses.replace(Settings(), beam_after=-1.0).beam_after
    -1.0
    """

    # --- the lengths (the deepening's Schedule) and the exact search

    # how `solve` spends its time over the lengths (gridbot.solve.deepening.Schedule)
    schedule: Schedule = Schedule(
        # a split costs starting the workers (once), choosing the split depth and walking the tree above it again
        # in every share: small only against a length of seconds
        parallel_after=2.0,
        # subtrees differ in size, and a worker that ends a small share takes the next: the workers end together
        shares_per_worker=8,
        # each length takes at least about ten times the one before (about the options at a slot)...
        growth=10.0,
        # ...and at most a hundred times when the last two lengths measure it (the ratio of their nodes), so that
        # one length's jump does not make the next look hopeless...
        max_growth=100.0,
        # ...once the length before the last took this many nodes: fewer say more of the walk near the root than
        # of the length's growth
        growth_from=20_000,
        # a length split over n workers ends about 0.95 n times sooner than in one process: every share walks the
        # tree above the split depth again, and the last share to end sets the time (docs/perf-log/)
        split_speedup=0.95,
        # loading the compiled kernels from numba's cache takes about 0.9 s on a two-core machine, and may end
        # half a second past the time limit: the command line allows one second past it (issue 15), and the
        # answer needs the rest
        warm_up_seconds=0.9,
        load_late=0.5,
    )
    # nodes per kernel call between two looks at the clock and at a stop request: a node runs up to about a
    # thousand actions, so a call takes milliseconds, short against any time limit and long against a call's cost
    chunk: int = 10_000
    # the shallowest decision depth at which shares deal out subtrees (thousands of them on most puzzles)...
    shallowest_split: int = 4
    # ...or deeper, down to the shallowest depth with this many subtrees a share: with fewer, a few large
    # subtrees bound the speed-up (at depth 4, 4,096 shares of puzzle 14 leave half of them empty)...
    subtrees_per_share: int = 16
    # ...but no deeper than this: every share walks the tree above the split depth again
    deepest_split: int = 10
    # on a puzzle that is its own mirror image, search one program of each mirrored pair (gridbot.solve.robozzle.
    # exact, cut 14): about half the nodes, the same answers; off, the search is the one without the cut
    mirror_cut: bool = True

    # --- the beam (Beam)

    # the beam's first width: a narrower or a wider one finds as many programs (docs/perf-log/)
    beam_width: int = 256
    # the widest beam: a beam that dies out starts again twice as wide, and past this width as wide as at first
    # with other ties broken, which finds more programs than staying this wide (docs/perf-log/)
    max_beam: int = 1 << 13
    # the fewest partial programs of a depth worth a thread of their own: with fewer, handing them over costs
    # more than the thread saves
    min_parents: int = 32
    # the beam's score of a partial program: per star collected, less per move to the nearest star left, less
    # per slot used; a star outweighs any distance and any slots, a move any slots
    weights: tuple[int, int, int] = (1 << 30, 1024, 64)
    # ties are broken by adding up to this much at random: less than a slot's weight, so only equal scores change
    # places
    noise: int = 64
    # the share of a heuristic turn that goes to the repair of the beam's best line, the beam taking the rest:
    # the repair finds the near misses' wins, and the line it repairs is the beam's best, which needs the beam's
    # time (docs/perf-log/)
    repair_share: float = 0.6
    # the repair's node budget below the lead's last decision, doubled at each earlier ancestor: a near miss one
    # or two decisions from a win is searched in milliseconds, and the budgets before the last add up to less
    # than the last
    repair_nodes: int = 20_000
    # beyond this many stars, the beam and the annealer measure the way to the nearest star of the start rather
    # than to the nearest star left: tables of every star take stars x tiles entries and finding the nearest
    # one left up to a look per star, and on such boards they find no more programs (docs/perf-log/)
    many_stars: int = 64

    # --- the annealer (Annealer, Beside)

    # annealing steps between two looks at the clock and at a stop request (a step runs a whole program)...
    anneal_chunk: int = 20_000
    # ...or fewer, once their runs have executed this many slots (milliseconds' worth): long runs do not keep
    # the annealer from the clock
    anneal_work: int = 2_000_000
    # the annealer's chains, each at its own temperature (parallel tempering): six put neighbouring temperatures
    # about twice apart, close enough that their programs often swap; from the coldest...
    chains: int = 6
    # ...at this temperature, where a star's score (kern.STAR_SCORE, 256) is almost never given up, so the chain
    # refines what it holds...
    anneal_cold: float = 5.0
    # ...to the hottest at this one, where it is given up about one try in four (e^(-256/200)), so the chain
    # crosses the ridges between programs; the others are evenly apart in ratio between them
    anneal_hot: float = 200.0
    # annealing steps between two starts of the annealer beside from the beam's lead (Beside): the beam cannot
    # go back on a line's early slots, and the annealer, given the line, can; between two starts it has time to
    # carry the line away from what the beam fixed
    lead_every: int = 400_000
    # seconds the annealer beside runs between two looks at a request to pause: forking the worker processes
    # waits for the pause at most this long
    beside_slice: float = 0.05

    # --- the team of heuristics (Team, a cluster's helpers)

    # the most members of a team, one of each kind member_of makes by seed: a plain beam, the annealer, a
    # look-ahead beam; each finds programs the others miss (docs/perf-log/); threads beyond go to the beams
    team: int = 3
    # the look-ahead member judges each child by its best child in every pair of passes (2: every other pair,
    # ...): the plain beam of the team already runs the passes without
    lookahead: int = 1
    # seconds of heuristic before a cluster's other workers guess as well: a helper there starts late (the board
    # travels, the kernels load) and comes back late (helper_grace), and adds little to a shorter turn
    helpers_after: float = 0.5
    # seconds a worker's heuristic may take to come back once asked to stop: it looks at the stop flag every few
    # milliseconds, and a cluster's messages take their own time
    helper_grace: float = 1.0

    # --- the heuristics' turns before the lengths (solve, heuristic_share)

    # seconds a length is expected to take before the heuristics run: a puzzle the exact search ends sooner is
    # proven before a heuristic's program would help, and keeps the one answer the search gives
    beam_after: float = 0.3
    # the heuristics' time before a length, per second that length is expected to take: a program they find ends
    # the search early, but their time comes out of the proofs', and a larger share costs proofs (docs/perf-log/)...
    beam_share: float = 0.25
    # ...and this share of the time left before a length that may well not end in time (expected to take more
    # than half of it)...
    beam_last: float = 0.5
    # ...a length expected to take more than this many times the time left will not end in time...
    hopeless: float = 1.0
    # ...and the heuristics get this share of the time left before it: the estimate is often off by several
    # times, and the rest is the length's chance to end after all
    beam_hopeless: float = 0.85


DEFAULT = Settings()  # the settings of a solve that is given none (read when `solve` is called)
