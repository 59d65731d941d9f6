"""BSGI's incorporation phase (Fig. 3; SPEC §2.2, §2.7 item 3): every residual row joins the class that
keeps it most diverse at the least IL, vectorized over the classes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...shared.trees import IntArray
from .cost import CostArray

if TYPE_CHECKING:
    from .state import GreedyState


def incorporate(self: GreedyState) -> tuple[int, int, int, int]:
    """Fig. 3 for every residual row in ascending row id (SPEC §2.2, §2.7 item 3): prefer classes
    without the row's SA value(s) (and, with individuals, without its individual [D]), then the
    least IL of the merged class ('merged') or the least increase ('increase'), then the smallest
    class index. Returns (residual rows, SA repeats, individual repeats, classes that grew)."""
    residual = np.flatnonzero(~self.taken)
    k_classes = len(self.class_size)
    if residual.size == 0 or k_classes == 0:
        return int(residual.size), 0, 0, 0
    residual = residual[np.argsort(self.rank[residual])]
    st = state_matrix(self)
    cost = np.array(self.class_cost, dtype=self.dtype)
    size = np.array(self.class_size, dtype=np.int64)
    member_cell = self.row_cell[self.taken]
    member_gid = self.gid[self.taken]
    sa_values = [self.cells.bucket, *self.cells.extra_sa]
    sa_index = [_Index(vals[member_cell], member_gid) for vals in sa_values]
    individual = self.cells.individual
    ind_index = _Index(individual[member_cell], member_gid) if individual is not None else None
    repeats = ind_repeats = 0
    grown: set[int] = set()
    for p in residual.tolist():
        cell = int(self.row_cell[p])
        new_st, new_cost = merged(self, st, cell)
        if self.criterion == "increase":
            crit = (size + 1) * new_cost - size * cost
        else:
            crit = (size + 1) * new_cost
        sa_conflict = np.zeros(k_classes, dtype=bool)
        for idx, vals in zip(sa_index, sa_values, strict=True):
            sa_conflict[idx.classes(int(vals[cell]))] = True
        ind_conflict = np.zeros(k_classes, dtype=bool)
        if ind_index is not None and individual is not None:
            ind_conflict[ind_index.classes(int(individual[cell]))] = True
        cand = ~sa_conflict & ~ind_conflict
        if not cand.any():
            cand = ~ind_conflict
            if not cand.any():
                cand = np.ones(k_classes, dtype=bool)
        g = argmin_first(crit, cand)
        repeats += int(sa_conflict[g])
        ind_repeats += int(ind_conflict[g])
        grown.add(g)
        self.gid[p] = g
        self.taken[p] = True
        if self.seed_blocks is not None:
            self.seed_blocks.taken(p)
        st[g] = new_st[g]
        cost[g] = new_cost[g]
        size[g] += 1
        for idx, vals in zip(sa_index, sa_values, strict=True):
            idx.add(int(vals[cell]), g)
        if ind_index is not None and individual is not None:
            ind_index.add(int(individual[cell]), g)
    self.class_cost = cost.tolist()
    self.class_size = size.tolist()
    return int(residual.size), repeats, ind_repeats, len(grown)


def state_matrix(self: GreedyState) -> IntArray:
    if self.state_array is not None:
        return self.state_array.copy()
    return np.array(self.states, dtype=np.int64).reshape(len(self.states), self.width)


def merged(self: GreedyState, st: IntArray, cell: int) -> tuple[IntArray, CostArray]:
    """Every class's state and scaled cost after adding one cell's codes (vectorized over classes)."""
    new = st.copy()
    total: CostArray = np.zeros(len(st), dtype=self.dtype)
    for i, (a, v) in enumerate(zip(self.attrs, self.code_rows[cell].tolist(), strict=True)):
        j = self.slots[i]
        if a.kind == "hierarchy":
            assert a.tree is not None and a.node_cost is not None
            new[:, j] = a.tree.lca_row(v)[st[:, j]]
            total = total + a.node_cost[new[:, j]]
        elif a.kind == "numeric":
            new[:, j] = np.minimum(st[:, j], v)
            new[:, j + 1] = np.maximum(st[:, j + 1], v)
            if a.values is None:
                total = total + (new[:, j + 1] - new[:, j]) * a.unit
            else:
                total = total + (a.values[new[:, j + 1]] - a.values[new[:, j]]) * a.unit
        else:
            new[:, j] = np.where(st[:, j] == v, v, -1)
            total = total + (new[:, j] < 0) * a.unit
    return new, total


def argmin_first(crit: CostArray, cand: np.ndarray) -> int:
    """The first (smallest class index) candidate with the least criterion; exact for integer costs,
    within a relative 1e-12 for doubles."""
    idx = np.flatnonzero(cand)
    values = crit[idx]
    best = values.min()
    if values.dtype.kind == "f":
        tol = 1e-12 * max(1.0, abs(float(best)))
        return int(idx[np.flatnonzero(values <= best + tol)[0]])
    return int(idx[int(np.argmin(values))])


class _Index:
    """value -> classes holding it (sorted pairs, plus the classes that received residual rows)."""

    def __init__(self, values: IntArray, gids: IntArray) -> None:
        order = np.lexsort((gids, values))
        self.values = values[order]
        self.gids = gids[order]
        self.extra: dict[int, list[int]] = {}

    def classes(self, v: int) -> IntArray:
        lo, hi = np.searchsorted(self.values, [v, v + 1])
        out = self.gids[lo:hi]
        more = self.extra.get(v)
        return out if not more else np.concatenate([out, np.array(more, dtype=np.int64)])

    def add(self, v: int, g: int) -> None:
        self.extra.setdefault(v, []).append(g)
