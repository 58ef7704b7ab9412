"""The RoboZZle kernels: a lazy search over programs, decided as execution reaches them, and the heuristics that
run programs on the same machine.

gridbot.solve.robozzle explains why the search is exact; this package is the
machine. A program is not enumerated as text: the robot runs the partial
program, and a slot is decided when execution first reaches it (a command, or
"the function ends here"). Programs that share an execution prefix share its
simulation, and slots never reached are never enumerated. A slot's colour
condition is decided lazily too: a slot holds a *set* of possible conditions
(bit 0 "none", bit 1 + c "on colour c"), narrowed each time it is reached to
the part that runs, or to the part that is skipped, on the colour there. A
slot that has only ever been skipped does not even have its command decided.

Layout shared with the Python side (the codes and columns: `layout`):

- tiles are r * width + c; `colour0[tile]` is 0, 1, 2 (red, green, blue) or
  -1 (a hole), `star0[tile]` 1 where a star is; `step[tile * 4 + facing]` is
  the tile ahead, or -1 off the board or over a hole; facing 0..3 is north,
  east, south, west (gridbot.grid.Direction);
- ops 0, 1, 2 are F, L, R; 3 + g calls function g (0-based); 8 + c paints
  colour c; -1 is "not decided" (a slot only ever skipped);
- program arrays: `op[f, i]`, `cs[f, i]` (condition sets), `nd[f]` slots
  decided in function f, `closed[f]` whether its end is decided;
- the search keeps its decision frames in `frames` and its registers in `sc`,
  so that a call can stop after a node budget and the next call resumes; the
  board, the program and the call stack are restored on backtracking from a
  trail of overwritten values.

The modules: `layout` (the codes and columns), `machine` (a run of a partial
program, its trail, the loop records), `exact` (the options of a slot and the
exact search), `beam` (a step of the beam over decisions), `annealer`
(simulated annealing over whole programs). The package holds what the solver
and the tests use (`from gridbot.kernels import robozzle as kern`,
`kern.search`, `kern.S_POS`): every name of the layout, and the kernels below.

Run as plain Python (`search.py_func`, `anneal.py_func`), the kernels give the
same answers, only slower; tests/structure/test_kernels.py compares the two.
"""

# ruff: noqa: F401 - the package re-exports what the solver and the tests use

from gridbot.kernels.robozzle.annealer import (
    A_ITER,
    A_KNOWN,
    A_RNG,
    A_SCORE,
    A_SEEN,
    MOVES,
    N_ANNEAL,
    PERMILLE_COND,
    PERMILLE_TWICE,
    STAR_SCORE,
    WON,
    _copy_program,
    _mutate,
    _runs_the_same,
    _seen_condition,
    anneal,
    whole_score,
)
from gridbot.kernels.robozzle.beam import _replay, beam_step
from gridbot.kernels.robozzle.exact import _command_options, _looping_calls, _options, search
from gridbot.kernels.robozzle.layout import *  # noqa: F403 - the layout shared with the solver: every name of it
from gridbot.kernels.robozzle.layout import _DECIDE, _LOSE, _WIN
from gridbot.kernels.robozzle.machine import RNG_MOD, _run, trail_rows
