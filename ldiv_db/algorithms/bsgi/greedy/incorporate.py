"""BSGI's incorporation phase (Fig. 3; SPEC §2.2, §2.7 item 3): every residual row joins the class that
keeps it most diverse at the least IL. Per QI-code combination and set of candidate classes, a shortlist
keeps the classes with the least criterion and a bound every other candidate's criterion exceeds; a row
reads it, repricing only the listed classes that grew, and prices every class again only when the
shortlist can no longer prove its minimum (each class's figure depends on its own state, size and cost
only, so a subset prices exactly as the whole)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...shared.trees import IntArray
from .cost import CostArray

if TYPE_CHECKING:
    from .state import GreedyState

PRICE_LIMIT = 2**22  # shortlist entries kept between rows, all shortlists together
SHORTLIST = 32  # classes a new shortlist keeps at least (fewer only when there are fewer candidates)


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
    holders = _Holders(self, k_classes)
    prices = _Prices(self, st, size, cost, int(residual.size))
    repeats = ind_repeats = 0
    grown: set[int] = set()
    for p in residual.tolist():
        cell = int(self.row_cell[p])
        cand = holders.candidates(cell)
        g = prices.choose(cell, cand)
        repeats += int(any(g in held for held in cand.sa_held))
        ind_repeats += int(cand.ind_held is not None and g in cand.ind_held)
        grown.add(g)
        self.gid[p] = g
        self.taken[p] = True
        if self.seed_blocks is not None:
            self.seed_blocks.taken(p)
        new_st, new_cost = merged(self, st[g : g + 1], cell)
        widened = not np.array_equal(new_st[0], st[g])
        st[g] = new_st[0]
        cost[g] = new_cost[0]
        size[g] += 1
        prices.grew(g, new_cost, widened)
        holders.add(cell, g)
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
            return int(np.flatnonzero(crit <= best + _tolerance(best))[0])
        return int(np.argmin(crit))
    idx = np.flatnonzero(cand)
    values = crit[idx]
    best = values.min()
    if values.dtype.kind == "f":
        return int(idx[np.flatnonzero(values <= best + _tolerance(best))[0]])
    return int(idx[int(np.argmin(values))])


def _tolerance(best: np.generic) -> float:
    """How far above the least criterion another still ties: 0 for integer costs."""
    if isinstance(best, np.floating):
        return 1e-12 * max(1.0, abs(float(best)))
    return 0


@dataclass
class _Cand:
    """One residual row's candidate classes: every class but the members of ``excluded``, the last of
    Fig. 3's fallbacks that leaves any ([D]: without the row's SA values and individual, else without
    its individual, else all). Under one ``key`` the candidates only shrink (classes only gain values)."""

    key: tuple[object, ...]
    excluded: list[set[int]]
    sa_held: list[set[int]]  # the classes holding each of the row's SA values (repeats are counted here)
    ind_held: set[int] | None
    full: np.ndarray | None = None  # the candidate mask over every class, once built
    source: tuple[_Index, int] | None = None  # where ``full`` comes from when not built yet

    def mask(self, k: int) -> np.ndarray:
        if self.full is None:
            self.full = np.ones(k, dtype=bool)
            if self.source is not None:
                index, value = self.source
                self.full[index.classes(value)] = False
        return self.full

    def test(self, ids: IntArray) -> np.ndarray:
        """Which of the classes ``ids`` are candidates."""
        if not self.excluded:
            return np.ones(len(ids), dtype=bool)
        if self.full is not None:
            return self.full[ids]
        (held,) = self.excluded
        return np.fromiter((g not in held for g in ids.tolist()), dtype=bool, count=len(ids))


class _Holders:
    """Which classes hold each SA value and individual, kept up to date as rows join."""

    def __init__(self, eng: GreedyState, k: int) -> None:
        self.k = k
        member_cell = eng.row_cell[eng.taken]
        member_gid = eng.gid[eng.taken]
        self.sa_values = [eng.cells.bucket, *eng.cells.extra_sa]
        self.sa_index = [_Index(vals[member_cell], member_gid) for vals in self.sa_values]
        self.individual = eng.cells.individual
        self.ind_index = (
            _Index(self.individual[member_cell], member_gid) if self.individual is not None else None
        )

    def candidates(self, cell: int) -> _Cand:
        values = [int(vals[cell]) for vals in self.sa_values]
        sa_held = [index.members(v) for index, v in zip(self.sa_index, values, strict=True)]
        if self.ind_index is None and len(values) == 1:  # one SA: the count says if any class lacks it
            if len(sa_held[0]) < self.k:
                return _Cand((0, values[0]), sa_held, sa_held, None, source=(self.sa_index[0], values[0]))
            return _Cand((2,), [], sa_held, None)
        return self._masked(values, sa_held, cell)

    def _masked(self, values: list[int], sa_held: list[set[int]], cell: int) -> _Cand:
        """Several SAs or individuals: the fallbacks decided over masks of every class."""
        sa_conflict = np.zeros(self.k, dtype=bool)
        for index, v, held in zip(self.sa_index, values, sa_held, strict=True):
            if len(held) == self.k:
                sa_conflict[:] = True
                break
            sa_conflict[index.classes(v)] = True
        ind_conflict = np.zeros(self.k, dtype=bool)
        ind = ind_held = None
        if self.ind_index is not None and self.individual is not None:
            ind = int(self.individual[cell])
            ind_held = self.ind_index.members(ind)
            ind_conflict[self.ind_index.classes(ind)] = True
        free = ~sa_conflict & ~ind_conflict
        if free.any():
            excluded = [*sa_held, *([ind_held] if ind_held is not None else [])]
            return _Cand((0, tuple(values), ind), excluded, sa_held, ind_held, free)
        free = ~ind_conflict
        if ind_held is not None and free.any():
            return _Cand((1, ind), [ind_held], sa_held, ind_held, free)
        return _Cand((2,), [], sa_held, ind_held)

    def add(self, cell: int, g: int) -> None:
        for index, vals in zip(self.sa_index, self.sa_values, strict=True):
            index.add(int(vals[cell]), g)
        if self.ind_index is not None and self.individual is not None:
            self.ind_index.add(int(self.individual[cell]), g)


@dataclass
class _Short:
    """A shortlist: classes ``ids`` with their criterion ``crit`` (exact as of the clock ``seen`` and the
    first ``logged`` entries of the log), every other candidate's criterion above ``bound``; a rebuild
    keeps at least ``want`` classes."""

    ids: IntArray
    crit: CostArray
    bound: float
    seen: int
    logged: int
    want: int


def _shortlist(crit: CostArray, mask: np.ndarray, want: int, clock: tuple[int, int]) -> _Short:
    idx = np.flatnonzero(mask)
    vals = crit[idx]
    if idx.size <= want:
        return _Short(idx, vals, math.inf, *clock, want)
    bound = np.partition(vals, want - 1)[want - 1]
    inside = vals <= bound
    if np.count_nonzero(inside) > 4 * want:  # many ties at the bound: those below it, where there are any
        below = vals < bound
        if below.any():
            bound = vals[below].max()
            inside = below
    return _Short(idx[inside], vals[inside], bound, *clock, want)


class _Prices:
    """The criterion of a row against the classes: per QI-code combination and candidate set a shortlist
    (:class:`_Short`), brought up to date at the classes that grew since it was last read. 'merged' only
    rises as a class grows (a wider state costs no less, and the size rises), so only listed classes
    are repriced. 'increase' rises too while the class's state stays as it was (by C(e ∪ t) − C(e) ≥ 0),
    but can fall when it widens: such classes are logged, and every logged class since is repriced and
    joins the list when at or below its bound (with double costs, whose rounding may lower an unchanged
    figure, every class that grew is logged). Past :data:`PRICE_LIMIT` entries a new shortlist is not
    kept."""

    def __init__(self, eng: GreedyState, st: IntArray, size: IntArray, cost: CostArray, rows: int) -> None:
        self.eng = eng
        self.st, self.size, self.cost = st, size, cost  # the live classes (changed in place by the caller)
        self.k = len(st)
        self.clock = 0
        self.stamp = np.zeros(self.k, dtype=np.int64)  # per class: the clock when it last grew
        self.log = np.zeros(rows, dtype=np.int64)  # 'increase': the classes that grew and may have fallen
        self.logged = 0
        self.log_all = eng.criterion == "increase" and self.cost.dtype.kind == "f"
        self.kept: dict[tuple[bytes, tuple[object, ...]], _Short] = {}
        self.entries = 0
        self.last: _Short | None = None  # the shortlist the latest row was chosen from

    def choose(self, cell: int, cand: _Cand) -> int:
        """The candidate class of least criterion, the smallest class index among ties."""
        key = (self.eng.code_rows[cell].tobytes(), cand.key)
        short = self.last = self.kept.get(key)
        want = SHORTLIST
        if short is not None:
            g = self._read(short, cell, cand)
            if g is not None:
                return g
            want = min(2 * short.want, self.k)
            self.entries -= len(short.ids)
            del self.kept[key]
            self.last = None
        crit = self._priced(cell, None)
        mask = cand.mask(self.k)
        g = argmin_first(crit, mask)
        if self.entries < PRICE_LIMIT:
            self.last = self.kept[key] = _shortlist(crit, mask, want, (self.clock, self.logged))
            self.entries += len(self.last.ids)
        return g

    def _read(self, short: _Short, cell: int, cand: _Cand) -> int | None:
        """The row's class from its shortlist; None when the shortlist cannot prove it the least."""
        if short.seen < self.clock and not self._update(short, cell):
            return None
        ids, crit = short.ids, short.crit
        if cand.excluded:
            ok = cand.test(ids)
            ids, crit = ids[ok], crit[ok]
        if ids.size == 0:
            return None
        best = crit.min()
        top = best + _tolerance(best)
        if top > short.bound:  # a class off the list might tie or beat it
            return None
        return int(ids[crit <= top].min())

    def _update(self, short: _Short, cell: int) -> bool:
        fallen = self.log[short.logged : self.logged]
        if fallen.size > self.k:  # as many as pricing every class afresh
            return False
        stale = np.flatnonzero(self.stamp[short.ids] > short.seen)
        if stale.size:
            short.crit[stale] = self._priced(cell, short.ids[stale])
        if fallen.size:
            fallen = np.setdiff1d(fallen, short.ids)
            fresh = self._priced(cell, fallen)
            low = fresh <= short.bound
            short.ids = np.concatenate([short.ids, fallen[low]])
            short.crit = np.concatenate([short.crit, fresh[low]])
            self.entries += int(np.count_nonzero(low))
        short.seen, short.logged = self.clock, self.logged
        return True

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

    def grew(self, g: int, new_cost: CostArray, widened: bool) -> None:
        """Class ``g`` took the latest row, its scaled cost now ``new_cost`` (one entry), its state
        ``widened`` or not. The row's own shortlist is kept up to date at once: its codes merged again
        leave g's new state as it is, so their criterion is g's new cost at its new size."""
        if self.eng.criterion == "increase" and (widened or self.log_all):
            self.log[self.logged] = g
            self.logged += 1
        self.clock += 1
        self.stamp[g] = self.clock
        short = self.last
        if short is None or short.seen != self.clock - 1:
            return
        at = np.flatnonzero(short.ids == g)
        if at.size:
            size = self.size[g : g + 1]
            if self.eng.criterion == "increase":
                short.crit[at] = ((size + 1) * new_cost - size * new_cost)[0]
            else:
                short.crit[at] = ((size + 1) * new_cost)[0]
            short.seen, short.logged = self.clock, self.logged


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

    def members(self, v: int) -> set[int]:
        return self._entry(v)[0]

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
