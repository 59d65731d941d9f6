"""One QI of the BSGI exchange search (:mod:`.exchange`): its codes per row and how to join and price
class states of it, vectorized over classes (the reference the fast pricing of :mod:`.swaps` is tested
against, and what the refiner's class costs are computed with)."""

from __future__ import annotations

import numpy as np

from ...shared.trees import IntArray, Tree
from ..greedy.cost import Attribute, CostArray
from .swaps import climb

_LCA_TABLE = 1024  # taxonomies with at most this many nodes use a full LCA table

State = tuple[IntArray, ...]  # one attribute's state: (node,) / (lo, hi) / (code or -1,)


class QI:
    """One QI's codes per row and how to join and price its class states (vectorized)."""

    def __init__(self, a: Attribute, codes: IntArray, dtype: type) -> None:
        self.kind = a.kind
        self.codes = codes
        self.dtype = dtype
        self.unit = a.unit
        self.tree: Tree | None = a.tree
        self.node_cost = a.node_cost
        self.values: CostArray | None = a.values.astype(dtype) if a.values is not None else None
        self.table: IntArray | None = None  # LCA(x, y) at x·N + y
        self.nodes = len(a.tree.parent) if a.tree is not None else 0
        if a.tree is not None and self.nodes <= _LCA_TABLE:
            self.table = np.concatenate([a.tree.lca_row(x) for x in range(self.nodes)])

    def leaf(self, rows: IntArray) -> State:
        return self.state(self.codes[rows])

    def state(self, c: IntArray) -> State:
        return (c, c) if self.kind == "numeric" else (c,)

    def join(self, x: State, y: State) -> State:
        if self.kind == "numeric":
            return np.minimum(x[0], y[0]), np.maximum(x[1], y[1])
        if self.kind == "flat":
            return (np.where(x[0] == y[0], x[0], -1),)
        if self.table is not None:
            return (self.table[x[0] * self.nodes + y[0]],)
        return (climb(self.tree, x[0], y[0]),)

    def cost(self, s: State) -> CostArray:
        if self.kind == "hierarchy":
            assert self.node_cost is not None
            out: CostArray = self.node_cost[s[0]]
            return out
        if self.kind == "numeric":
            v = self.values
            span = s[1] - s[0] if v is None else v[s[1]] - v[s[0]]
            return (span * self.unit).astype(self.dtype, copy=False)
        return ((s[0] < 0) * self.unit).astype(self.dtype, copy=False)
