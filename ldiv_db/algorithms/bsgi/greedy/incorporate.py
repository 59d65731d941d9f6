"""BSGI's incorporation phase (Fig. 3; SPEC §2.2, §2.7 item 3): every residual row joins the class that
keeps it most diverse at the least IL, vectorized over the classes. A row's criterion against every
class is kept per QI-code combination and repriced only at the classes that grew since it was last read
(each class's figure depends on its own state, size and cost only, so the prices are the same)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...shared.trees import IntArray
from .cost import CostArray

if TYPE_CHECKING:
    from .state import GreedyState

PRICE_LIMIT = 2**23  # criterion entries (combinations × classes) kept between rows


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
    prices = _Prices(self, st, size, cost)
    everywhere = np.ones(k_classes, dtype=bool)
    repeats = ind_repeats = 0
    grown: set[int] = set()
    for p in residual.tolist():
        cell = int(self.row_cell[p])
        crit = prices.criterion(cell)
        sa_conflict = np.zeros(k_classes, dtype=bool)
        for idx, vals in zip(sa_index, sa_values, strict=True):
            held = idx.classes(int(vals[cell]))
            if held.size == k_classes:  # every class holds it: no mask to build
                sa_conflict = everywhere
                break
            sa_conflict[held] = True
        ind_conflict = np.zeros(k_classes, dtype=bool)
        if ind_index is not None and individual is not None:
            ind_conflict[ind_index.classes(int(individual[cell]))] = True
        cand = ~ind_conflict if sa_conflict is everywhere else ~sa_conflict & ~ind_conflict
        if not cand.any():
            cand = ~ind_conflict
            if not cand.any():
                cand = everywhere
        g = argmin_first(crit, cand)
        repeats += int(sa_conflict[g])
        ind_repeats += int(ind_conflict[g])
        grown.add(g)
        self.gid[p] = g
        self.taken[p] = True
        if self.seed_blocks is not None:
            self.seed_blocks.taken(p)
        new_st, new_cost = merged(self, st[g : g + 1], cell)
        st[g] = new_st[0]
        cost[g] = new_cost[0]
        size[g] += 1
        prices.grew(g)
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
    """Every class's state and scaled cost after adding one cell's codes (vectorized over classes).
    Each class's figures depend on its own state only, so a subset of rows prices exactly alike."""
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
    if cand.all():
        best = crit.min()
        if crit.dtype.kind == "f":
            tol = 1e-12 * max(1.0, abs(float(best)))
            return int(np.flatnonzero(crit <= best + tol)[0])
        return int(np.argmin(crit))
    idx = np.flatnonzero(cand)
    values = crit[idx]
    best = values.min()
    if values.dtype.kind == "f":
        tol = 1e-12 * max(1.0, abs(float(best)))
        return int(idx[np.flatnonzero(values <= best + tol)[0]])
    return int(idx[int(np.argmin(values))])


class _Prices:
    """Per QI-code combination, the criterion of adding it to every class, brought up to date at the
    classes that grew since it was last read. Past :data:`PRICE_LIMIT` entries a new combination is
    priced in full and not kept (dropping the least recently read would miss on every row when the rows
    cycle through more combinations than fit)."""

    def __init__(self, eng: GreedyState, st: IntArray, size: IntArray, cost: CostArray) -> None:
        self.eng = eng
        self.st, self.size, self.cost = st, size, cost  # the live classes (changed in place by the caller)
        self.k = len(st)
        self.clock = 0
        self.stamp = np.zeros(self.k, dtype=np.int64)  # per class: the clock when it last grew
        self.kept: dict[bytes, tuple[CostArray, int]] = {}
        self.room = max(1, PRICE_LIMIT // max(self.k, 1))

    def criterion(self, cell: int) -> CostArray:
        key = self.eng.code_rows[cell].tobytes()
        hit = self.kept.get(key)
        if hit is None:
            crit = self._priced(cell, None)
            if len(self.kept) >= self.room:
                return crit
        else:
            crit, seen = hit
            if seen < self.clock:
                stale = np.flatnonzero(self.stamp > seen)
                crit[stale] = self._priced(cell, stale)
        self.kept[key] = (crit, self.clock)
        return crit

    def _priced(self, cell: int, at: IntArray | None) -> CostArray:
        """The criterion at classes ``at`` (None: every class), as Fig. 3 states it."""
        st, size, cost = (
            (self.st, self.size, self.cost) if at is None else (self.st[at], self.size[at], self.cost[at])
        )
        _, new_cost = merged(self.eng, st, cell)
        if self.eng.criterion == "increase":
            out: CostArray = (size + 1) * new_cost - size * cost
            return out
        return (size + 1) * new_cost

    def grew(self, g: int) -> None:
        self.clock += 1
        self.stamp[g] = self.clock


class _Index:
    """value -> the classes holding it, each once (from the sorted member pairs, plus the classes that
    received residual rows)."""

    def __init__(self, values: IntArray, gids: IntArray) -> None:
        order = np.lexsort((gids, values))
        self.values = values[order]
        self.gids = gids[order]
        self.held: dict[int, tuple[set[int], list[IntArray]]] = {}

    def _entry(self, v: int) -> tuple[set[int], list[IntArray]]:
        entry = self.held.get(v)
        if entry is None:
            lo, hi = np.searchsorted(self.values, [v, v + 1])
            first = np.unique(self.gids[lo:hi])
            entry = (set(first.tolist()), [first])
            self.held[v] = entry
        return entry

    def classes(self, v: int) -> IntArray:
        _, cached = self._entry(v)
        if len(cached) > 1:  # a class was added since the array was made
            cached[:] = [np.concatenate(cached)]
        return cached[0]

    def add(self, v: int, g: int) -> None:
        members, cached = self._entry(v)
        if g not in members:
            members.add(g)
            cached.append(np.array([g], dtype=np.int64))
