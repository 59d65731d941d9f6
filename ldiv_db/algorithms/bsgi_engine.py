"""BSGI's Select/Group and Incorporate steps over arrays fetched once (SPEC §2.2; Ye et al. Figs. 2–3).

Why Python/numpy and not SQL: the greedy is sequential — each pick depends on the rows earlier picks
removed and on the class built so far — and one query per pick (~0.3 ms each, 26,000 picks on Adult)
cannot meet the benchmarks. SQL prepares everything that is set-based (codes, buckets in first-appearance
order, the compressed cells, the locality order; ``sql/bsgi/``); the Max-l schedule is closed-form
(:mod:`.bsgi_schedule`); this module makes the picks with a few vectorized numpy operations each, over
the candidate cells of one bucket.

Cells: rows of one bucket with identical QI codes (and, for the variants, identical secondary SA values
and individual) are interchangeable for the greedy; among them the smallest row id is taken first
(SPEC §0.6), so a cell is a queue of row ids and the greedy compares cells. A cell's *key* is its rank
in a lexicographic locality order of the QI codes (:func:`locality_order`), and every bucket keeps its
live cells sorted by that key.

Exact mode (``window=None``): every pick scans all live cells of the bucket — exactly Fig. 2 with the
SPEC tie rules, O(n · cells per bucket). Fast mode (``window=W``): a pick scans the W live cells on each
side of the seed row's key in the bucket (the whole bucket when it has at most 2W live cells, so small
inputs are exact). Cost per pick: O(W) instead of O(bucket) — what makes 1,000,000 rows feasible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from .bsgi_cost import CostArray, CostModel, IntArray
from .bsgi_schedule import Schedule

DEAD = np.int64(2**62)  # added to a cell's tie key when it is empty or inadmissible
_KEY_LIMIT = 2**61


@dataclass
class Cells:
    """The fetched table, compressed. Row positions 0..n-1 are ordered by (cell, row id)."""

    rid: IntArray  # source rowid per row position
    cell_start: IntArray  # per cell: first row position (cells are contiguous, ascending)
    bucket: IntArray  # per cell: SA bucket (0 = the first-appearing value of the primary SA)
    key: IntArray  # per cell: rank of its QI codes in the locality order (equal codes, equal key)
    codes: list[IntArray]  # per attribute, per cell: QI code (leaf node id / value / flat code)
    extra_sa: list[IntArray] = field(default_factory=list)  # per secondary SA, per cell: value code
    individual: IntArray | None = None  # per cell: individual code

    @property
    def n(self) -> int:
        return len(self.rid)

    @property
    def n_cells(self) -> int:
        return len(self.cell_start)


@dataclass
class Result:
    gid: IntArray  # per row position: class id (0-based, in selection order)
    classes: int
    residual_rows: int
    residual_repeats: int  # residual rows placed in a class that already held one of their SA values
    individual_repeats: int  # residual rows placed in a class that already held their individual
    classes_incorporated: int  # classes that received at least one residual row
    picks: int
    window_fallbacks: int  # picks whose window held no live (admissible) cell
    skipped_buckets: int  # variants: buckets skipped for lack of an admissible row
    stopped_early: bool  # variants: selection stopped with >= l non-empty buckets left
    il_scaled: int | float  # Σ_classes |e|·cost(e), in the cost model's units
    sizes: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


class _Bucket:
    """One bucket's live cells in key order, with the arrays a pick slices (compacted lazily)."""

    __slots__ = ("cells", "codes", "dead", "extra", "hp", "ind", "keys")

    def __init__(self, cells: IntArray, eng: Engine) -> None:
        self.cells = cells
        self.keys = eng.cells.key[cells]
        self.codes = [c[cells] for c in eng.codes]
        self.extra = [c[cells] for c in eng.cells.extra_sa]
        self.ind = eng.cells.individual[cells] if eng.cells.individual is not None else None
        self.hp = eng.head_key[cells]
        self.dead = int(np.count_nonzero(self.hp >= DEAD))


class Engine:
    """The greedy over :class:`Cells` with a :class:`CostModel` (see the module docstring)."""

    def __init__(
        self,
        cells: Cells,
        model: CostModel,
        l: int,  # noqa: E741 - the paper's l
        *,
        window: int | None = None,
        criterion: str = "merged",
        rng: random.Random | None = None,
    ) -> None:
        self.cells = cells
        self.model = model
        self.attrs = model.attrs
        self.l = l
        self.window = window
        self.criterion = criterion
        self.rng = rng
        n, nc = cells.n, cells.n_cells
        self.codes = [np.asarray(c) for c in cells.codes]
        self.kinds = [a.kind for a in self.attrs]
        # row positions -> rank of the row id (the tie key), and the cell of each row
        order = np.argsort(cells.rid, kind="stable")
        self.rank = np.empty(n, dtype=np.int64)
        self.rank[order] = np.arange(n, dtype=np.int64)
        self.cell_end = np.append(cells.cell_start[1:], n).astype(np.int64)
        self.row_cell = np.repeat(np.arange(nc, dtype=np.int64), self.cell_end - cells.cell_start)
        self.slot = np.arange(n, dtype=np.int64)  # cell queues: slots cell_start..cell_end hold positions
        self.head = cells.cell_start.astype(np.int64).copy()
        self.head_key = self.rank[cells.cell_start].astype(np.int64)
        self.taken = np.zeros(n, dtype=bool)
        self.gid = np.full(n, -1, dtype=np.int64)
        m = int(cells.bucket.max()) + 1 if nc else 0
        self.m = m
        # bucket rows by row id (the seed queue of Fig. 2 line 4)
        row_bucket = cells.bucket[self.row_cell]
        by_bucket = np.lexsort((self.rank, row_bucket))
        bounds = np.searchsorted(row_bucket[by_bucket], np.arange(m + 1))
        self.seed_rows = [by_bucket[bounds[b] : bounds[b + 1]] for b in range(m)]
        self.seed_ptr = [0] * m
        self.remaining = np.diff(bounds).astype(np.int64)
        cell_order = np.lexsort((cells.key, cells.bucket))
        cb = np.searchsorted(cells.bucket[cell_order], np.arange(m + 1))
        self.buckets = [_Bucket(cell_order[cb[b] : cb[b + 1]], self) for b in range(m)]
        self.cell_pos = np.empty(nc, dtype=np.int64)
        for bk in self.buckets:
            self.cell_pos[bk.cells] = np.arange(len(bk.cells), dtype=np.int64)
        self.key_mult = np.int64(n + 1)
        top = sum(float(a.weight) for a in self.attrs) * self.model.denominator
        self.int_keys = self.model.exact and top * (n + 1) < _KEY_LIMIT
        self._cost_rows: list[dict[int, CostArray]] = [{} for _ in self.attrs]
        self.picks = 0
        self.fallbacks = 0
        self.skipped = 0
        # class states (filled by select)
        self.states: list[list[int]] = []
        self.class_cost: list[int | float] = []
        self.class_size: list[int] = []

    # ------------------------------------------------------------------ cost
    def _cost_row(self, i: int, state: int) -> CostArray:
        rows = self._cost_rows[i]
        row = rows.get(state)
        if row is None:
            a = self.attrs[i]
            assert a.tree is not None and a.node_cost is not None
            row = a.node_cost[a.tree.lca_row(state)]
            rows[state] = row
        return row

    def _state_cost(self, state: list[int]) -> int | float:
        """Scaled weighted NCP of one class state (states: hierarchy node / (lo, hi) / flat code)."""
        total: int | float = 0
        j = 0
        for a in self.attrs:
            if a.kind == "hierarchy":
                assert a.node_cost is not None
                total += a.node_cost[state[j]].item()
                j += 1
            elif a.kind == "numeric":
                if a.values is None:
                    total += (state[j + 1] - state[j]) * a.unit
                else:
                    total += (a.values[state[j + 1]] - a.values[state[j]]).item() * a.unit
                j += 2
            else:
                total += a.unit if state[j] < 0 else 0
                j += 1
        return total

    def _initial_state(self, cell: int) -> list[int]:
        state: list[int] = []
        for i, a in enumerate(self.attrs):
            v = int(self.codes[i][cell])
            if a.kind == "numeric":
                state.extend((v, v))
            else:
                state.append(v)
        return state

    def _add(self, state: list[int], cell: int) -> None:
        j = 0
        for i, a in enumerate(self.attrs):
            v = int(self.codes[i][cell])
            if a.kind == "hierarchy":
                assert a.tree is not None
                state[j] = int(a.tree.lca_row(state[j])[v])
                j += 1
            elif a.kind == "numeric":
                if v < state[j]:
                    state[j] = v
                if v > state[j + 1]:
                    state[j + 1] = v
                j += 2
            else:
                if state[j] != v:
                    state[j] = -1
                j += 1

    def _costs(self, bk: _Bucket, lo: int, hi: int, state: list[int]) -> CostArray:
        """Scaled NCP of (class ∪ cell) for the bucket's cells lo..hi."""
        total: CostArray | None = None
        const: int | float = 0
        j = 0
        for i, kind in enumerate(self.kinds):
            codes = bk.codes[i][lo:hi]
            if kind == "hierarchy":
                part = self._cost_row(i, state[j])[codes]
                j += 1
            elif kind == "numeric":
                a = self.attrs[i]
                unit = a.unit
                if a.values is None:
                    part = np.maximum(codes, state[j + 1]) - np.minimum(codes, state[j])
                else:
                    part = a.values[np.maximum(codes, state[j + 1])] - a.values[np.minimum(codes, state[j])]
                if unit != 1:
                    part = part * unit
                j += 2
            else:
                unit = self.attrs[i].unit
                s = state[j]
                j += 1
                if s < 0:
                    const += unit
                    continue
                part = (codes != s) * unit
            total = part if total is None else total + part
        if total is None:
            total = np.zeros(hi - lo, dtype=self.model.dtype)
        return total + const if const else total

    # ------------------------------------------------------------------ cells
    def _take(self, cell: int) -> int:
        """Remove the head row (smallest row id) of a cell; return its row position."""
        s = int(self.head[cell])
        p = int(self.slot[s])
        self.head[cell] = s + 1
        self.taken[p] = True
        bk = self.buckets[int(self.cells.bucket[cell])]
        idx = int(self.cell_pos[cell])
        if s + 1 < self.cell_end[cell]:
            hk = self.rank[self.slot[s + 1]]
        else:
            hk = DEAD
            bk.dead += 1
        self.head_key[cell] = hk
        bk.hp[idx] = hk
        self.remaining[self.cells.bucket[cell]] -= 1
        return p

    def _untake(self, cell: int) -> None:
        """Undo :meth:`_take` (variants: a class that cannot be completed gives its rows back)."""
        s = int(self.head[cell]) - 1
        p = int(self.slot[s])
        b = int(self.cells.bucket[cell])
        bk = self.buckets[b]
        if self.head_key[cell] >= DEAD:
            bk.dead -= 1
        self.head[cell] = s
        self.taken[p] = False
        self.head_key[cell] = self.rank[p]
        bk.hp[int(self.cell_pos[cell])] = self.rank[p]
        self.remaining[b] += 1
        rows = self.seed_rows[b]
        k = int(np.searchsorted(self.rank[rows], self.rank[p]))
        self.seed_ptr[b] = min(self.seed_ptr[b], k)

    def _compact(self, b: int) -> None:
        bk = self.buckets[b]
        if bk.dead * 2 > len(bk.cells) and bk.dead > 16:
            keep = bk.hp < DEAD
            nb = _Bucket(bk.cells[keep], self)
            self.buckets[b] = nb
            self.cell_pos[nb.cells] = np.arange(len(nb.cells), dtype=np.int64)

    def _seed(self, b: int) -> int:
        """The seed cell of a class: the bucket's smallest remaining row id (or a random row, seeded)."""
        rows = self.seed_rows[b]
        if self.rng is not None:
            return self._random_seed(b)
        k = self.seed_ptr[b]
        while self.taken[rows[k]]:
            k += 1
        self.seed_ptr[b] = k
        cell = int(self.row_cell[rows[k]])
        assert self.slot[self.head[cell]] == rows[k]
        return cell

    def _random_seed(self, b: int) -> int:
        """A uniformly random remaining row of bucket b (BSGI Fig. 2 line 4, ``--seed``): moved to the
        head of its cell so that the cell queue stays ordered behind it."""
        assert self.rng is not None
        rows = self.seed_rows[b]
        live = rows[~self.taken[rows]]
        self.seed_rows[b] = live
        self.seed_ptr[b] = 0
        p = int(live[self.rng.randrange(len(live))])
        cell = int(self.row_cell[p])
        h = int(self.head[cell])
        s = h + int(np.flatnonzero(self.slot[h : self.cell_end[cell]] == p)[0])
        if s != h:
            self.slot[h + 1 : s + 1] = self.slot[h:s].copy()
            self.slot[h] = p
            hk = self.rank[p]
            self.head_key[cell] = hk
            self.buckets[b].hp[int(self.cell_pos[cell])] = hk
        return cell

    def _pick(
        self, b: int, key: int, state: list[int], banned: tuple[list[int], list[list[int]]] | None = None
    ) -> int | None:
        """argmin over the bucket's live cells of (IL(e ∪ t), row id) — in the window around ``key`` in
        fast mode, over the whole bucket when the window holds no live admissible cell."""
        bk = self.buckets[b]
        size = len(bk.cells)
        w = self.window
        if w is None or size <= 2 * w:
            spans = [(0, size)]
        else:
            pos = int(np.searchsorted(bk.keys, key))
            lo = min(max(pos - w, 0), size - 2 * w)
            spans = [(lo, lo + 2 * w), (0, size)]
        for n_try, (lo, hi) in enumerate(spans):
            cost = self._costs(bk, lo, hi, state)
            hp = bk.hp[lo:hi]
            if banned is not None:
                hp = hp + _banned_penalty(bk, lo, hi, banned)
            if self.int_keys:
                tie = cost * self.key_mult + hp
                j = int(np.argmin(tie))
                ok = tie[j] < DEAD
            else:
                masked = np.where(hp >= DEAD, np.inf, cost)
                best = masked.min()
                if not np.isfinite(best):
                    ok = False
                else:
                    ties = np.flatnonzero(masked <= best + 1e-12 * max(1.0, abs(float(best))))
                    j = int(ties[np.argmin(hp[ties])])
                    ok = True
            if ok:
                if n_try:
                    self.fallbacks += 1
                return int(bk.cells[lo + j])
        return None

    # ------------------------------------------------------------------ select
    def select(self, schedule: Schedule) -> None:
        """Fig. 1 lines 4–5 with the precomputed Max-l schedule (single SA, no individuals)."""
        pick, take, add = self._pick, self._take, self._add
        gid, key_of = self.gid, self.cells.key
        k = len(self.class_size)
        for run in schedule.runs:
            first, rest = run.buckets[0], run.buckets[1:]
            for _ in range(run.count):
                for b in run.buckets:
                    self._compact(b)
                cell = self._seed(first)
                gid[take(cell)] = k
                state = self._initial_state(cell)
                key = int(key_of[cell])
                for b in rest:
                    c = pick(b, key, state)
                    assert c is not None
                    gid[take(c)] = k
                    add(state, c)
                self.picks += len(rest)
                self._close(state)
                k += 1

    def select_variant(self) -> None:
        """Fig. 1/2 with the variants of SPEC §2.4: a candidate must not share the class's individual
        and must differ from every row of the class on every secondary SA. A bucket without an
        admissible row is skipped for the next one in size order; when fewer than l buckets can
        contribute, selection stops [D]."""
        gid, key_of = self.gid, self.cells.key
        k = len(self.class_size)
        has_ind = self.cells.individual is not None
        n_extra = len(self.cells.extra_sa)
        while True:
            live = [b for b in range(self.m) if self.remaining[b] > 0]
            if len(live) < self.l:
                return
            live.sort(key=lambda b: (-int(self.remaining[b]), b))
            for b in live:
                self._compact(b)
            cell = self._seed(live[0])
            members = [cell]
            self._take(cell)
            state = self._initial_state(cell)
            key = int(key_of[cell])
            inds = [int(self.cells.individual[cell])] if has_ind and self.cells.individual is not None else []
            vals = [[int(x[cell])] for x in self.cells.extra_sa]
            for b in live[1:]:
                if len(members) == self.l:
                    break
                c = self._pick(b, key, state, (inds, vals) if (has_ind or n_extra) else None)
                self.picks += 1
                if c is None:
                    self.skipped += 1
                    continue
                self._take(c)
                members.append(c)
                self._add(state, c)
                if has_ind and self.cells.individual is not None:
                    inds.append(int(self.cells.individual[c]))
                for j, x in enumerate(self.cells.extra_sa):
                    vals[j].append(int(x[c]))
            if len(members) < self.l:
                for c in reversed(members):
                    self._untake(c)
                self.stopped = True
                return
            for c in members:
                gid[self.slot[self.head[c] - 1]] = k
            self._close(state)
            k += 1

    def _close(self, state: list[int]) -> None:
        self.states.append(state)
        self.class_cost.append(self._state_cost(state))
        self.class_size.append(self.l)

    # ------------------------------------------------------------------ incorporate
    def incorporate(self) -> tuple[int, int, int, int]:
        """Fig. 3 for every residual row in ascending row id (SPEC §2.2, §2.7 item 3): prefer classes
        without the row's SA value(s) (and, with individuals, without its individual [D]), then the
        least IL of the merged class ('merged') or the least increase ('increase'), then the smallest
        class index. Returns (residual rows, SA repeats, individual repeats, classes that grew)."""
        residual = np.flatnonzero(~self.taken)
        if residual.size == 0:
            return 0, 0, 0, 0
        k_classes = len(self.class_size)
        if k_classes == 0:
            return int(residual.size), 0, 0, 0
        residual = residual[np.argsort(self.rank[residual])]
        st = np.array(self.states, dtype=np.int64).reshape(k_classes, -1)
        cost = np.array(self.class_cost, dtype=self.model.dtype)
        size = np.array(self.class_size, dtype=np.int64)
        member_cell = self.row_cell[self.taken]
        member_gid = self.gid[self.taken]
        sa_index = [_Index(self.cells.bucket[member_cell], member_gid)]
        sa_index += [_Index(x[member_cell], member_gid) for x in self.cells.extra_sa]
        ind_index = (
            _Index(self.cells.individual[member_cell], member_gid) if self.cells.individual is not None else None
        )
        repeats = ind_repeats = 0
        grown: set[int] = set()
        sa_values = [self.cells.bucket, *self.cells.extra_sa]
        for p in residual.tolist():
            cell = int(self.row_cell[p])
            new_st, new_cost = self._merged(st, cell)
            if self.criterion == "increase":
                crit = (size + 1) * new_cost - size * cost
            else:
                crit = (size + 1) * new_cost
            sa_conflict = np.zeros(k_classes, dtype=bool)
            for idx, vals in zip(sa_index, sa_values, strict=True):
                sa_conflict[idx.classes(int(vals[cell]))] = True
            ind_conflict = np.zeros(k_classes, dtype=bool)
            if ind_index is not None and self.cells.individual is not None:
                ind_conflict[ind_index.classes(int(self.cells.individual[cell]))] = True
            cand = ~sa_conflict & ~ind_conflict
            if not cand.any():
                cand = ~ind_conflict
                if not cand.any():
                    cand = np.ones(k_classes, dtype=bool)
            g = _argmin_first(crit, cand)
            repeats += int(sa_conflict[g])
            ind_repeats += int(ind_conflict[g])
            grown.add(g)
            self.gid[p] = g
            self.taken[p] = True
            st[g] = new_st[g]
            cost[g] = new_cost[g]
            size[g] += 1
            for idx, vals in zip(sa_index, sa_values, strict=True):
                idx.add(int(vals[cell]), g)
            if ind_index is not None and self.cells.individual is not None:
                ind_index.add(int(self.cells.individual[cell]), g)
        self.class_cost = cost.tolist()
        self.class_size = size.tolist()
        return int(residual.size), repeats, ind_repeats, len(grown)

    def _merged(self, st: IntArray, cell: int) -> tuple[IntArray, CostArray]:
        """Every class's state and scaled cost after adding one cell's codes (vectorized over classes)."""
        new = st.copy()
        total: CostArray = np.zeros(len(st), dtype=self.model.dtype)
        j = 0
        for i, a in enumerate(self.attrs):
            v = int(self.codes[i][cell])
            if a.kind == "hierarchy":
                assert a.tree is not None and a.node_cost is not None
                row = a.tree.lca_row(v)
                new[:, j] = row[st[:, j]]
                total = total + a.node_cost[new[:, j]]
                j += 1
            elif a.kind == "numeric":
                new[:, j] = np.minimum(st[:, j], v)
                new[:, j + 1] = np.maximum(st[:, j + 1], v)
                if a.values is None:
                    total = total + (new[:, j + 1] - new[:, j]) * a.unit
                else:
                    total = total + (a.values[new[:, j + 1]] - a.values[new[:, j]]) * a.unit
                j += 2
            else:
                new[:, j] = np.where(st[:, j] == v, v, -1)
                total = total + (new[:, j] < 0) * a.unit
                j += 1
        return new, total

    # ------------------------------------------------------------------ driver
    def run(self, schedule: Schedule | None) -> Result:
        self.stopped = False
        if schedule is not None:
            self.select(schedule)
        else:
            self.select_variant()
        classes = len(self.class_size)
        residual, repeats, ind_repeats, grown = self.incorporate()
        sizes = np.array(self.class_size, dtype=np.int64)
        cost = np.array(self.class_cost, dtype=self.model.dtype)
        il = (sizes * cost).sum().item() if classes else 0
        return Result(
            gid=self.gid,
            classes=classes,
            residual_rows=residual,
            residual_repeats=repeats,
            individual_repeats=ind_repeats,
            classes_incorporated=grown,
            picks=self.picks,
            window_fallbacks=self.fallbacks,
            skipped_buckets=self.skipped,
            stopped_early=self.stopped,
            il_scaled=il,
            sizes=sizes,
        )


def _banned_penalty(bk: _Bucket, lo: int, hi: int, banned: tuple[list[int], list[list[int]]]) -> IntArray:
    inds, vals = banned
    bad = np.zeros(hi - lo, dtype=bool)
    if bk.ind is not None and inds:
        bad |= np.isin(bk.ind[lo:hi], inds)
    for x, v in zip(bk.extra, vals, strict=True):
        bad |= np.isin(x[lo:hi], v)
    return bad * DEAD


def _argmin_first(crit: CostArray, cand: np.ndarray) -> int:
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
