"""Per tile of a Light-Bot level, the lights reachable from it by moves: the bound of gridbot.solve.lightbot."""

from __future__ import annotations

import numpy as np


def lights_in_reach(mv: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Per position, the mask of lights on tiles reachable from it by moves (any facing).

    The tiles' graph is condensed into its strongly connected components
    (Tarjan's algorithm, iterative); a component reaches its own lights and
    those its successors reach, which Tarjan's order (successors first) lets
    one pass collect. O(cells) (eight moves a tile).
    """
    cells = mv.shape[0]
    succ = [sorted({int(t) for t in mv[c].ravel()} - {c}) for c in range(cells)]
    own = [(1 << int(light[c])) if light[c] >= 0 else 0 for c in range(cells)]
    index = [-1] * cells
    low = [0] * cells
    comp = [-1] * cells
    masks: list[int] = []  # per component, in the order Tarjan completes them: successors first
    stack: list[int] = []
    counter = 0
    for root in range(cells):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        while work:
            node, i = work[-1]
            if i < len(succ[node]):
                work[-1] = (node, i + 1)
                nxt = succ[node][i]
                if index[nxt] < 0:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    work.append((nxt, 0))
                elif comp[nxt] < 0:  # on the stack: in the component being built
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    comp[member] = len(masks)
                    members.append(member)
                    if member == node:
                        break
                mask = 0
                for member in members:
                    mask |= own[member]
                    for nxt in succ[member]:
                        if comp[nxt] != len(masks):
                            mask |= masks[comp[nxt]]  # a finished successor component
                masks.append(mask)
    out = np.zeros(cells, np.int64)
    for c in range(cells):
        out[c] = masks[comp[c]]
    return out
