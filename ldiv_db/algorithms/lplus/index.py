"""The index structures l+-Optimize's search derives from a taxonomy's preorder arrays: children, the
number of full-subtree cuts under each node, and the ancestor of every node at every depth."""

from __future__ import annotations

import contextlib
import math
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ...errors import BadInput
from .problem import INF, Taxonomy

NodeArray = npt.NDArray[np.signedinteger[Any]]  # node ids: 32-bit where they fit (``narrow_dtype``)


class TreeIndex:
    """Derived arrays of one taxonomy (depth, last, leaves and leaf counts come from the store's arrays)."""

    def __init__(self, t: Taxonomy) -> None:
        arrays = t.arrays
        parent = arrays.parent
        n = arrays.size
        self.n = n
        self.parent = parent
        depth = arrays.depth
        self.depth = depth
        self.last = arrays.last
        self.is_leaf = arrays.is_leaf
        self.n_leaves = arrays.n_leaves
        self.children: list[list[int]] = [[] for _ in range(n)]
        for i in range(1, n):
            self.children[int(parent[i])].append(i)
        cuts = [1] * n
        for i in range(n - 1, -1, -1):
            if self.children[i]:
                prod = 1
                for c in self.children[i]:
                    prod *= cuts[c]
                cuts[i] = 1 + prod
        self.n_cuts = cuts
        # anc[k][x] = ancestor of x at depth k (x itself when depth(x) <= k)
        height = int(depth.max()) if n else 0
        anc = np.tile(np.arange(n, dtype=np.int64), (height + 1, 1))
        for k in range(height - 1, -1, -1):
            row = anc[k + 1].copy()
            deeper = depth > k
            row[deeper] = parent[anc[k + 1][deeper]] if k + 1 <= height else row[deeper]
            # walk each node up to depth k
            cur = np.arange(n, dtype=np.int64)
            while True:
                move = depth[cur] > k
                if not move.any():
                    break
                cur[move] = parent[cur[move]]
            anc[k] = cur
        self.anc = anc
        self.levels = [np.array(lv, dtype=np.int64) for lv in t.levels]

    def cut_map(self, cut: Sequence[int]) -> npt.NDArray[np.int64]:
        """Per node, the node of the full-subtree cut ``cut`` above it (itself above the cut)."""
        to = np.arange(self.n, dtype=np.int64)
        for u in sorted(cut, key=lambda x: self.depth[x]):
            to[u : self.last[u] + 1] = u
        return to

    def level_cut(self, level: int) -> tuple[int, ...]:
        """The full-subtree cut of one full-domain level: the level's nodes of every leaf."""
        return tuple(sorted({int(x) for x in self.levels[level][np.flatnonzero(self.is_leaf)]}))


# the searches running in this process and the recursion limit before the first of them: the limit is
# the process's, so it is raised for the deepest running search and restored when the last one ends
_ROOM: dict[str, int] = {"running": 0, "before": 0}
_ROOM_LOCK = threading.Lock()


@contextlib.contextmanager
def recursion_room(trees: Sequence[TreeIndex]) -> Iterator[None]:
    """Room for the search's recursion, restored after: a DFS frame per node specialized along a path,
    up to every inner node of the taxonomies, past Python's default 1,000 in a deep hierarchy of many
    values. Calls between Python functions take no C stack (3.11+), so only the limit stands in the way.
    Searches in other threads share the limit: it is never lowered under one still running."""
    inner = sum(t.n - int(np.count_nonzero(t.is_leaf)) for t in trees)
    with _ROOM_LOCK:
        if _ROOM["running"] == 0:
            _ROOM["before"] = sys.getrecursionlimit()
        _ROOM["running"] += 1
        # a sub-search (merge.py) adds a frame to some of them
        sys.setrecursionlimit(max(sys.getrecursionlimit(), _ROOM["before"] + 2 * inner))
    try:
        yield
    finally:
        with _ROOM_LOCK:
            _ROOM["running"] -= 1
            if _ROOM["running"] == 0:
                sys.setrecursionlimit(_ROOM["before"])


def cost_units(
    trees: Sequence[TreeIndex], metric: str, scheme: str, total: int
) -> tuple[int, list[npt.NDArray[np.int64]], int]:
    """Exact integer costs: LM in units of 1/L with L = lcm(|A_i| - 1), DM and CM as counts. Returns the
    unit, LM's cost per node and attribute in units, and the cost of one removed row."""
    if metric != "lm":
        return 1, [np.zeros(t.n, dtype=np.int64) for t in trees], total if metric == "dm" else 1
    dens = [int(t.n_leaves[0]) - 1 for t in trees if t.n_leaves[0] > 1]
    unit = math.lcm(*dens) if dens else 1
    if 2 * len(trees) * unit * max(total, 1) >= INF:  # a cut's LM (<= 2 d L per row) must stay exact
        raise BadInput(
            f"l+-Optimize counts LM exactly in units of 1/{unit} (the least common multiple of the QI "
            f"hierarchies' leaf counts minus one): over {total} rows a cost could pass 2^62",
            "use --metric dm (or cm), whose costs are counts of rows; or fewer QIs, or hierarchies "
            "whose leaf counts minus one share factors",
        )
    lmu = [
        (t.n_leaves - 1) * (unit // (int(t.n_leaves[0]) - 1))
        if t.n_leaves[0] > 1
        else np.zeros(t.n, dtype=np.int64)
        for t in trees
    ]
    rec = scheme in ("viorec", "allrec")
    return unit, lmu, (2 if rec else 1) * len(trees) * unit


def node_dtype(trees: Sequence[TreeIndex]) -> type:
    return np.int32 if max((t.n for t in trees), default=0) < 2**31 else np.int64
