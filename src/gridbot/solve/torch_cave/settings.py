"""How the torch cave solver spends its time and memory: one frozen value, passed to `solve`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """How the solver spends its time and memory. None of them changes which walk is proven shortest (the tests
    run the search with extreme values against a plain breadth-first search); they change how fast, and when the
    search gives up on the clock or the memory budget."""

    # expansions between looks at the clock: an expansion costs from microseconds to about a millisecond, so
    # the clock is read every few milliseconds at most and costs nothing beside the expansions between
    check_every: int = 16
    # candidates of one expansion between looks at the clock: from a key with thousands of torches within its
    # light one expansion is long
    candidate_check: int = 64
    # expansions between looks at the size of the label store (at a look at the clock, so a multiple of
    # check_every): an expansion adds at most a label per torch, so between looks the store grows by at most
    # this many labels a torch, and the look costs nothing beside the expansions
    memory_every: int = 256
    # sorted values of rule 3's bound made at once: the bound mostly stops at a small j, so with more torches
    # left than this the values are read lazily, in doubling chunks, as far as j goes
    whole: int = 64
    # with up to this many keys every row of distances is computed up front (a search per key) and the hop term
    # of rule 3 uses each torch's nearest *untaken* torch; with more, rows come on demand and the hop term uses
    # each torch's nearest torch at all (one search from every torch), a weaker bound that costs no rows
    exact_hops: int = 64
    # rounds of rule 7 at most: every round's bound is valid, so stopping early costs pruning, never an answer
    ellipse_rounds: int = 64
    # the weighted pass of rule 4 orders by steps + weight x h: a larger weight goes deeper faster and finds
    # a walk in fewer expansions, a smaller one a shorter walk (a tighter bound for the exact pass)
    greedy_weight: int = 3
    # expansions of the weighted pass: it finds a walk fast or, with many torches whose orders look alike, not at
    # all, so it gives up early and the descent (one search per torch taken) tries instead; 0 turns it off
    greedy_budget: int = 2000
    # share of the time left that the two greedy passes may take, at most (half each): an upper bound helps the
    # exact pass prune, but must never starve it
    greedy_share: float = 0.25
    # torches a step of the descent chooses from, the nearest untaken ones: enough to find one that lights the
    # way on, while each step's search stays short; 0 turns the descent off
    descend_choices: int = 64
    # caves of more cells use the compiled breadth-first searches from the start: a plain search of such a cave
    # costs about what loading the compiled ones costs (numba's start, about a second)
    jit_cells: int = 200_000
    # cells reached by plain searches (about 0.4 s of them), after which the compiled searches are loaded: by
    # then the searches still to come are likely to cost more than the load
    jit_work: int = 1_000_000
    # seconds the clock must leave for loading the compiled searches in the middle of a solve (the load takes
    # about a second; with less time left the plain searches go on, and cost only what they reach)
    jit_load: float = 2.0
    # seconds the clock must leave for loading them at the start, for a cave of more than jit_cells cells
    jit_start: float = 0.9
    # shares of the memory budget: the rows of distances and rule 5's masks (dropped all at once and computed
    # again when they outgrow it: time, never the answer), the hop bounds remembered per mask (a cache), and the
    # labels of the search (what grows without bound on a hard cave, and what stops it when full)
    table_share: float = 0.4
    hops_share: float = 0.1
    label_share: float = 0.5
    # bytes a table may take before the memory budget is read (reading it takes a millisecond: it reads the
    # control groups): every machine that loads numba has this much to spare
    free_bytes: int = 32 << 20
    # labels at one key from which the dominance test of rule 2 runs on numpy arrays: below it plain lists are
    # faster (numpy's fixed cost per call), above it the arrays are, on caves with many torches close together
    front_switch: int = 48
