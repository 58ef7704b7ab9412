"""The Light-Bot kernels: a lazy search over X-free walks.

The search (gridbot.solve.lightbot explains why it is exact) decides a program
*without its X commands*, the walk, slot by slot as execution reaches each slot,
and asks at every moment the robot stands on a light: could X commands put in
the walk's gaps have lit every light by now? A gap is a place between two
commands of a body (or at its start or end); an X there fires every time
control passes it. Toggling is addition mod 2, so the question is linear
algebra over GF(2): is the all-lights vector a sum of at most `b` of the gaps'
vectors (which lights each gap has passed an odd number of times)?

Layout shared with the Python side:

- positions are r * width + c; `mv[pos, facing, 0 or 1]` is where F or J ends
  (gridbot.games.lightbot.Level.move, tabulated), `light[pos]` the light's
  index or -1, `full` the mask of every light (all made by board_arrays);
  the interpreter keeps position and facing as one state pos * 4 + facing,
  and `after[state, op]` (state_table) is the state after F, J, L or R;
- walk ops 0..5 are F, J, L, R, call f1, call f2; bodies are rows of `wb`
  (main, f1, f2), `wlen` their lengths, `closed` whether a procedure has ended;
- gap k of body p (before its k-th command) is number p * 13 + k;
- the depth-first search keeps its frames in `frames` and its scalars in `sc`,
  so a call can stop after a node budget and the next call resumes it;
- a node does not run the walk from the start: it goes on from its parent's
  branch point. The interpreter's arrays (gap vectors, stack, loop records)
  are restored there from a trail of overwritten values. A node logs each
  value at most once (`stamp` holds the node that last wrote it), so a
  node fills at most `node_rows` rows and the trail never holds more than
  `trail_rows`; it may start smaller, as the search asks for room before
  each node (NEED_ROOM).

The modules: `layout` (the level's arrays, the sizes, the codes and
columns), `gaps` (the win check over the gaps), `machine` (the run of a
partial walk and its trail), `cuts` (the options a slot may take, and whether
main can still reach every light), `dfs` (the depth-first search). The
package holds what the solvers and the tests use (`from gridbot.kernels import
lightbot as kern`, `kern.search`, `kern.S_POS`): every name of the layout,
and the kernels below.

Run as plain Python (NUMBA_DISABLE_JIT=1 or `search.py_func`), the kernels
give the same answers, only slower; tests/structure/test_kernels.py compares the two.

Speed: the kernel allocates nothing, so it is compiled without numba's
reference counts (gridbot.kernels), and the helpers of the node loop are
inlined (`kernel(inline=True)`): each array passed to a function call
otherwise costs atomic reference-count updates, at every node.
"""

# ruff: noqa: F401 - the package re-exports what the solvers and the tests use

from gridbot.kernels.lightbot.dfs import search
from gridbot.kernels.lightbot.gaps import win_blink, win_gaps, win_with
from gridbot.kernels.lightbot.layout import *  # noqa: F403 - the layout shared with the solvers: every name of it
from gridbot.kernels.lightbot.machine import _leaf, _run
