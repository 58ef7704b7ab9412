"""The RoboZZle beam's kernel: a step of a beam search over decisions, on the exact search's machine.

Each beam node is a path of decisions paused at a slot to decide; `beam_step` expands a batch of them into their
children with a score each (stars first, then the way to the nearest star left, then fewer slots), going back
along shared prefixes as the exact search backtracks (gridbot.solve.robozzle keeps the best of them).
"""

from __future__ import annotations

from gridbot.kernels import kernel
from gridbot.kernels.robozzle.exact import _apply, _options, _restore, _save
from gridbot.kernels.robozzle.layout import (
    _DECIDE,
    _LOSE,
    _WIN,
    FR_OPTS,
    S_DEPTH,
    S_FACING,
    S_LEFT,
    S_NODES,
    S_POS,
    S_ROLLOUT,
    S_USED,
    UNKNOWN,
)
from gridbot.kernels.robozzle.machine import _copy, _from_start, _nearest, _run


@kernel
def _replay(path, n, node, step, colour0, star0, start, facing, stars, colour, star, op, cs, nd, closed, stack, trail,
            stamp, records, rpath, dropped, sc) -> int:  # fmt: skip
    """Run the program that the first `n` decisions of `path` (option codes) make, from the start: _WIN, _LOSE, or
    _DECIDE with the registers at the next slot to decide. `node` must be new at every call (it keeps the
    stamps and loop records of earlier calls from counting)."""
    op[:] = UNKNOWN
    cs[:] = 0
    nd[:] = 0
    closed[:] = 0
    _from_start(node, colour0, star0, start, facing, stars, colour, star, sc)
    k = 0
    while True:
        result = _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped, sc)
        if result != _DECIDE or k == n:
            return result
        _apply(path[k], sc, op, cs, nd, closed, trail)
        k += 1


@kernel
def _run_level(level, node, step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped,
               sc) -> int:  # fmt: skip
    """Run on from the registers as node `node` at depth `level` of the path (so that loop records and logged
    tiles are this run's own, as in the exact search)."""
    sc[S_DEPTH], sc[S_NODES] = level, node - 1
    return _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped, sc)


@kernel
def beam_step(parents, d, count, child_parent, child_option, scores, won, step, colour0, star0, start, facing,
              stars, slots, paints, present, prev_same, colour, star, op, cs, nd, closed, stack, trail, stamp,
              records, rpath, dropped, frames, frame, sc, node, spos, sdist, snear, weights,
              places, rollout) -> tuple:  # fmt: skip
    """Expand the first `count` beam nodes (rows of `parents`, each a path of `d` decisions, paused at a slot to
    decide): every child that is still running is listed (its parent's row in `child_parent`, its
    last decision in `child_option`) with its score (stars collected
    first, then the distance to the nearest star left (`sdist[k, tile]` from star k at tile spos[k], the stars
    looked at in the order `snear[tile]`: nearest first), then
    fewer slots, weighed by `weights`) and its place (`places`: tile, facing and stars left, one number); a child
    that wins is written to `won` (its path, and the slots it uses in
    won[-1]) when it uses fewer slots than the one there. Parents are run as the exact search runs a path:
    the registers at each decision are saved in `frames`, and a parent that shares its first c decisions with
    the one before goes back to that one's c-th decision (undoing the trail) instead of starting again; each
    option is then applied, run, scored and undone. With parents in lexicographic order, siblings cost one
    decision's run each: O(parents x options x actions to the next decision), plus the prefixes not shared.
    With `rollout`, a child is scored instead by where its run ends played out as it stands (S_ROLLOUT): the
    stars it has then, the moves from there to the nearest star left; that costs up to MAX_ACTIONS more per child.
    Where a roll-out caught in an endless loop ends depends on which loop records earlier runs left (a record
    another run overwrote is caught a round later): so those scores, unlike the rest, hang on the order of the
    parents and on how they are split over threads (runs that collect no more stars have no one right place to
    end at; measured on puzzles, the place where the loop is caught guided the beam better than running out
    the actions, which also costs up to a thousand of them per roll-out).
    Returns (children, nodes used up)."""
    m = 0
    alive = False  # the registers are at the last parent's last decision
    for i in range(count):
        shared = 0
        if alive:
            while shared < d and parents[i, shared] == parents[i - 1, shared]:
                shared += 1
        if alive and shared > 0:
            _restore(frames[shared], sc, trail, colour, star, op, cs, nd, closed, stack)
        else:
            node += 1
            alive = False  # until this parent's start is run
            if _replay(parents[i], 0, node, step, colour0, star0, start, facing, stars, colour, star, op, cs, nd,
                       closed, stack, trail, stamp, records, rpath, dropped, sc) != _DECIDE:  # fmt: skip
                continue
            _save(frames[0], sc)
        alive = True
        for j in range(shared, d):
            _apply(parents[i, j], sc, op, cs, nd, closed, trail)
            node += 1
            if _run_level(j + 1, node, step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath,
                          dropped, sc) != _DECIDE:  # fmt: skip
                alive = False
                break
            _save(frames[j + 1], sc)
        if not alive:
            continue
        n_opts = _options(frame, sc, step, colour, stack, slots, paints, present, prev_same, op, cs, nd)
        for k in range(n_opts):
            if k:
                _restore(frames[d], sc, trail, colour, star, op, cs, nd, closed, stack)
            parents[i, d] = frame[FR_OPTS + k]
            _apply(frame[FR_OPTS + k], sc, op, cs, nd, closed, trail)
            node += 1
            result = _run_level(d + 1, node, step, colour, star, op, cs, nd, closed, stack, trail, stamp, records,
                                rpath, dropped, sc)  # fmt: skip
            if result == _WIN:
                if sc[S_USED] < won[-1]:
                    _copy(won[: d + 1], parents[i, : d + 1])
                    won[-2] = d + 1
                    won[-1] = sc[S_USED]
                continue
            if result == _LOSE or m == child_parent.shape[0]:
                continue
            child_parent[m] = i
            child_option[m] = parents[i, d]
            here = sc[S_POS]
            places[m] = (here * 4 + sc[S_FACING]) * (stars + 1) + sc[S_LEFT]
            if rollout:
                # scored by where it ends played out with nothing more decided. The same node goes on: what it
                # overwrites is logged as the run's own, and the next option's _restore undoes it all
                sc[S_ROLLOUT] = 1
                if _run(step, colour, star, op, cs, nd, closed, stack, trail, stamp, records, rpath, dropped,
                        sc) == _WIN:  # fmt: skip
                    here = -1
                else:
                    here = sc[S_POS]
                sc[S_ROLLOUT] = 0
            near = 0 if here < 0 else _nearest(here, star, spos, sdist, snear)
            scores[m] = (stars - sc[S_LEFT]) * weights[0] - near * weights[1] - sc[S_USED] * weights[2]
            m += 1
    return m, node
