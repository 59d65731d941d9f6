"""The state of BSGI's greedy (:mod:`.select`): the cells by bucket in key order, the class states and
their cost, and the pricing of a candidate against a class state; the steps (:mod:`.select`,
:mod:`.waves`, :mod:`.incorporate`) read and change it here.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from ...shared.lca import stable_order
from ...shared.trees import IntArray, narrow_dtype
from .cells import DEAD, Cells
from .cost import CostArray, CostModel
from .seeds import SeedBlocks

TABLE_LIMIT = 2048  # largest code domain priced through cached cost rows
_KEY_LIMIT = 2**61


class Bucket:
    """One bucket's live cells in key order, with the arrays a pick slices (compacted lazily)."""

    __slots__ = ("cells", "dead", "direct", "extra", "hp", "ind", "keys", "mat")

    def __init__(self, cells: IntArray, eng: GreedyState) -> None:
        self.cells = cells
        self.keys = eng.key1[cells]
        self.mat = eng.table_codes(cells)
        self.direct = [eng.cells.codes[i][cells] for i in eng.direct]
        self.extra = [c[cells] for c in eng.cells.extra_sa]
        self.ind = eng.cells.individual[cells] if eng.cells.individual is not None else None
        self.hp = eng.head_key[cells]
        self.dead = int(np.count_nonzero(self.hp >= DEAD))


class GreedyState:
    """The greedy's cells, buckets and classes over :class:`Cells` with a :class:`CostModel`."""

    def __init__(
        self,
        cells: Cells,
        model: CostModel,
        l: int,
        *,
        window: int | None = None,
        criterion: str = "merged",
        rng: random.Random | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.cells = cells
        self.model = model
        self.attrs = model.attrs
        self.l = l
        self.window = window
        self.criterion = criterion
        self.rng = rng
        self.progress = progress
        self.dtype = model.dtype
        self._layout(cells)
        self._queues(cells)
        self.cell_pos = np.zeros(cells.n_cells, dtype=np.int64)
        self.key_mult = np.int64(cells.n + 1)
        top = sum(float(a.weight) for a in self.attrs) * model.denominator
        self.int_keys = model.exact and top * (cells.n + 1) < _KEY_LIMIT
        self.picks = 0
        self.fallbacks = 0
        self.compactions = 0
        self.skipped = 0
        self.stopped = False
        # class states (filled by select)
        self.states: list[list[int]] = []
        self.state_array: IntArray | None = None
        self.class_cost: list[int | float] = []
        self.class_size: list[int] = []

    def _layout(self, cells: Cells) -> None:
        """The class-state layout, each QI's code domain, and the cost-table offsets of the cells."""
        nc = cells.n_cells
        # state layout: one slot per QI (two for numeric: lo, hi code)
        self.slots: list[int] = []
        j = 0
        for a in self.attrs:
            self.slots.append(j)
            j += 2 if a.kind == "numeric" else 1
        self.width = j
        # per QI: its code domain size, and whether it is priced by cached table rows
        self.domain: list[int] = []
        for i, a in enumerate(self.attrs):
            if a.kind == "hierarchy":
                assert a.tree is not None
                self.domain.append(len(a.tree.parent))
            elif a.kind == "numeric" and a.values is not None:
                self.domain.append(len(a.values))
            else:
                codes = cells.codes[i]
                self.domain.append(int(codes.max()) + 1 if len(codes) else 1)
        self.tabled = [i for i in range(len(self.attrs)) if self.domain[i] <= TABLE_LIMIT]
        self.direct = [i for i in range(len(self.attrs)) if self.domain[i] > TABLE_LIMIT]
        self.offsets = np.cumsum([0] + [self.domain[i] for i in self.tabled]).tolist()
        self.key1 = cells.key if cells.key.ndim == 1 else cells.key[:, 0]  # the sequential path's order
        # a cell's codes, read a cell at a time: 32-bit where they fit
        narrow = narrow_dtype(*cells.codes)
        self.code_rows = (
            np.stack([c.astype(narrow, copy=False) for c in cells.codes], axis=1)
            if cells.codes
            else np.zeros((nc, 0), dtype=np.int64)
        )
        self._row_cache: list[dict[tuple[int, int], CostArray]] = [{} for _ in self.attrs]
        self._parent = [a.tree.parent.tolist() if a.tree is not None else [] for a in self.attrs]
        self._last = [a.tree.last.tolist() if a.tree is not None else [] for a in self.attrs]

    def _queues(self, cells: Cells) -> None:
        """The cells as queues of row positions in row-id order, and the per-bucket seed queues."""
        n, nc = cells.n, cells.n_cells
        # row positions -> rank of the row id (the tie key), and the cell of each row; per-row positions
        # and ranks in 32 bits while n fits (the head keys, which hold DEAD, stay 64-bit)
        pos = np.int32 if n < 2**31 else np.int64
        order = stable_order(cells.rid)
        self.rank = np.empty(n, dtype=pos)
        self.rank[order] = np.arange(n, dtype=pos)
        del order
        self.cell_end = np.append(cells.cell_start[1:], n).astype(np.int64)
        self.row_cell = np.repeat(np.arange(nc, dtype=pos), self.cell_end - cells.cell_start)
        self.slot = np.arange(n, dtype=pos)  # cell queues: slots cell_start..cell_end hold positions
        self.head = cells.cell_start.astype(np.int64).copy()
        self.head_key = self.rank[cells.cell_start].astype(np.int64)
        self.taken = np.zeros(n, dtype=bool)
        self.gid = np.full(n, -1, dtype=np.int64)
        m = int(cells.bucket.max()) + 1 if nc else 0
        self.m = m
        # bucket rows by row id: the seed queue of Fig. 2 line 4
        row_bucket = cells.bucket[self.row_cell]
        # by bucket, then row id rank: as one number per row where it fits, unique (the ranks are), so any
        # sort of it gives that lexicographic order
        if m * n < 2**62:
            by_bucket = np.argsort(row_bucket.astype(np.int64) * n + self.rank).astype(pos)
        else:
            by_bucket = np.lexsort((self.rank, row_bucket)).astype(pos)
        bounds = np.searchsorted(row_bucket[by_bucket], np.arange(m + 1))
        del row_bucket
        self.seed_rows = [by_bucket[bounds[b] : bounds[b + 1]] for b in range(m)]
        self.seed_ptr = [0] * m
        # seeded: each bucket's remaining rows counted per block, for the random first picks (random_seed,
        # the waves' _random_seeds)
        self.seed_blocks = SeedBlocks(by_bucket, bounds, n) if self.rng is not None else None
        self.remaining = np.diff(bounds).astype(np.int64)
        self._buckets: list[Bucket] | None = None  # the sequential path's per-bucket arrays

    def table_codes(self, cells: IntArray) -> IntArray:
        """The cells' tabled codes as offsets into one cost table (cells × tabled QIs): sequential path."""
        if not self.tabled:
            return np.zeros((len(cells), 0), dtype=np.int64)
        codes = self.cells.codes
        return np.stack([codes[i][cells] + self.offsets[k] for k, i in enumerate(self.tabled)], axis=1)

    # ------------------------------------------------------------------ pricing
    def _lca(self, i: int, x: int, v: int) -> int:
        last, parent = self._last[i], self._parent[i]
        while not x <= v <= last[x]:
            x = parent[x]
        return x

    def _row(self, i: int, state: list[int]) -> CostArray:
        """QI i's cost row over its code domain for the class state (cached per state)."""
        a = self.attrs[i]
        j = self.slots[i]
        if a.kind == "numeric":
            key = (state[j], state[j + 1])
        else:
            key = (state[j], 0)
        cache = self._row_cache[i]
        row = cache.get(key)
        if row is None:
            if a.kind == "hierarchy":
                assert a.tree is not None and a.node_cost is not None
                row = a.node_cost[a.tree.lca_row(state[j])]
            elif a.kind == "numeric":
                assert a.values is not None
                lo, hi = a.values[key[0]], a.values[key[1]]
                row = (np.maximum(a.values, hi) - np.minimum(a.values, lo)) * a.unit
            elif key[0] < 0:
                row = np.full(self.domain[i], a.unit, dtype=self.dtype)
            else:
                row = np.full(self.domain[i], a.unit, dtype=self.dtype)
                row[key[0]] = 0
            row = row.astype(self.dtype, copy=False)
            cache[key] = row
        return row

    def _direct_cost(self, i: int, state: list[int], codes: IntArray) -> CostArray:
        """QI i's cost for candidate codes, computed per candidate (large domains)."""
        a = self.attrs[i]
        j = self.slots[i]
        if a.kind == "hierarchy":
            assert a.tree is not None and a.node_cost is not None
            out = np.full(len(codes), a.node_cost[0], dtype=self.dtype)
            for x in reversed(a.tree.ancestors(state[j])[:-1]):
                inside = (codes >= x) & (codes <= a.tree.last[x])
                out[inside] = a.node_cost[x]
            return out
        if a.kind == "numeric":
            vals = a.values
            if vals is None:
                span = np.maximum(codes, state[j + 1]) - np.minimum(codes, state[j])
            else:
                span = np.maximum(vals[codes], vals[state[j + 1]]) - np.minimum(vals[codes], vals[state[j]])
            return (span * a.unit).astype(self.dtype, copy=False)
        if state[j] < 0:
            return np.full(len(codes), a.unit, dtype=self.dtype)
        diff: CostArray = (codes != state[j]) * a.unit
        return diff.astype(self.dtype, copy=False)

    def _costs(self, bk: Bucket, lo: int, hi: int, state: list[int]) -> CostArray:
        """Scaled weighted NCP of (class ∪ cell) for the bucket's cells lo..hi."""
        if self.tabled:
            rows = [self._row(i, state) for i in self.tabled]
            table = np.concatenate(rows) if len(rows) > 1 else rows[0]
            total: CostArray = table[bk.mat[lo:hi]].sum(axis=1)
        else:
            total = np.zeros(hi - lo, dtype=self.dtype)
        for k, i in enumerate(self.direct):
            total = total + self._direct_cost(i, state, bk.direct[k][lo:hi])
        return total

    def _state_cost(self, state: list[int]) -> int | float:
        """Scaled weighted NCP of one class state."""
        total: int | float = 0
        for a, j in zip(self.attrs, self.slots, strict=True):
            if a.kind == "hierarchy":
                assert a.node_cost is not None
                total += a.node_cost[state[j]].item()
            elif a.kind == "numeric":
                if a.values is None:
                    total += (state[j + 1] - state[j]) * a.unit
                else:
                    total += (a.values[state[j + 1]] - a.values[state[j]]).item() * a.unit
            elif state[j] < 0:
                total += a.unit
        return total

    def _initial_state(self, cell: int) -> list[int]:
        state: list[int] = []
        for a, v in zip(self.attrs, self.code_rows[cell].tolist(), strict=True):
            if a.kind == "numeric":
                state.append(v)
            state.append(v)
        return state

    def _add(self, state: list[int], cell: int) -> None:
        for i, v in enumerate(self.code_rows[cell].tolist()):
            j = self.slots[i]
            kind = self.attrs[i].kind
            if kind == "hierarchy":
                state[j] = self._lca(i, state[j], v)
            elif kind == "numeric":
                if v < state[j]:
                    state[j] = v
                elif v > state[j + 1]:
                    state[j + 1] = v
            elif state[j] != v:
                state[j] = -1

    # ------------------------------------------------------------------ cells
    @property
    def buckets(self) -> list[Bucket]:
        if self._buckets is None:
            cells = self.cells
            order = np.lexsort((self.key1, cells.bucket))
            cb = np.searchsorted(cells.bucket[order], np.arange(self.m + 1))
            self._buckets = [Bucket(order[cb[b] : cb[b + 1]], self) for b in range(self.m)]
            for bk in self._buckets:
                self.cell_pos[bk.cells] = np.arange(len(bk.cells), dtype=np.int64)
        return self._buckets

    def take_many(self, cells: IntArray) -> IntArray:
        """Vectorized :meth:`take` for cells in demand order (a cell may repeat: its rows go out in
        row id order); returns the row positions. Used by the wave path only."""
        order = np.argsort(cells, kind="stable")
        sc = cells[order]
        idx = np.arange(len(sc))
        first = np.empty(len(sc), dtype=bool)
        first[:1] = True
        np.not_equal(sc[1:], sc[:-1], out=first[1:])
        ordinal = idx - np.maximum.accumulate(np.where(first, idx, 0))
        slots = self.head[sc] + ordinal
        if len(slots) and bool((slots >= self.cell_end[sc]).any()):
            raise AssertionError("a cell was asked for more rows than it holds")
        pos = np.empty(len(cells), dtype=np.int64)
        pos[order] = self.slot[slots]
        uniq = sc[first]
        starts = np.flatnonzero(first)
        counts = np.append(starts[1:], len(sc)) - starts
        self.head[uniq] += counts
        nxt = self.head[uniq]
        alive = nxt < self.cell_end[uniq]
        self.head_key[uniq] = np.where(alive, self.rank[self.slot[np.minimum(nxt, len(self.slot) - 1)]], DEAD)
        self.taken[pos] = True
        if self.seed_blocks is not None:
            self.seed_blocks.taken(pos)
        np.subtract.at(self.remaining, self.cells.bucket[cells], 1)
        return pos

    def take(self, cell: int) -> int:
        """Remove the head row (smallest remaining row id) of a cell; return its row position."""
        s = int(self.head[cell])
        p = int(self.slot[s])
        self.head[cell] = s + 1
        self.taken[p] = True
        if self.seed_blocks is not None:
            self.seed_blocks.taken(p)
        b = int(self.cells.bucket[cell])
        hk = self.rank[self.slot[s + 1]] if s + 1 < self.cell_end[cell] else DEAD
        self.head_key[cell] = hk
        if self._buckets is not None:
            bk = self._buckets[b]
            bk.dead += hk == DEAD
            bk.hp[self.cell_pos[cell]] = hk
        self.remaining[b] -= 1
        return p

    def untake(self, cell: int) -> None:
        """Undo :meth:`_take` (variants: a class that cannot be completed gives its rows back)."""
        s = int(self.head[cell]) - 1
        p = int(self.slot[s])
        b = int(self.cells.bucket[cell])
        bk = self.buckets[b]
        if self.head_key[cell] >= DEAD:
            bk.dead -= 1
        self.head[cell] = s
        self.taken[p] = False
        if self.seed_blocks is not None:
            self.seed_blocks.returned(p)
        self.head_key[cell] = self.rank[p]
        bk.hp[self.cell_pos[cell]] = self.rank[p]
        self.remaining[b] += 1
        rows = self.seed_rows[b]
        k = int(np.searchsorted(self.rank[rows], self.rank[p]))
        self.seed_ptr[b] = min(self.seed_ptr[b], k)

    def _compact(self, b: int) -> None:
        """Drop a bucket's empty cells (amortized: each compaction removes many)."""
        bk = self.buckets[b]
        keep = bk.hp < DEAD
        nb = Bucket(bk.cells[keep], self)
        self.buckets[b] = nb
        self.cell_pos[nb.cells] = np.arange(len(nb.cells), dtype=np.int64)
        self.compactions += 1

    def _maybe_compact(self, b: int) -> None:
        bk = self.buckets[b]
        if bk.dead > 16 and bk.dead * 4 > len(bk.cells):
            self._compact(b)

    def _seed(self, b: int) -> int:
        """The seed cell of a class: the bucket's smallest remaining row id (or a random row, seeded)."""
        if self.rng is not None:
            return self.random_seed(b)
        rows = self.seed_rows[b]
        k = self.seed_ptr[b]
        taken = self.taken
        while taken[rows[k]]:
            k += 1
        self.seed_ptr[b] = k
        return int(self.row_cell[rows[k]])

    def random_seed(self, b: int) -> int:
        """A uniformly random remaining row of bucket b (BSGI Fig. 2 line 4, ``--seed``), moved to the
        head of its cell so that the cell's queue stays ordered behind it."""
        assert self.rng is not None and self.seed_blocks is not None
        blocks = self.seed_blocks
        p = blocks.kth(b, self.rng.randrange(blocks.remaining(b)), self.taken)
        cell = int(self.row_cell[p])
        h = int(self.head[cell])
        s = h + int(np.flatnonzero(self.slot[h : self.cell_end[cell]] == p)[0])
        if s != h:
            self.slot[h + 1 : s + 1] = self.slot[h:s].copy()
            self.slot[h] = p
            hk = self.rank[p]
            self.head_key[cell] = hk
            if self._buckets is not None:
                self._buckets[b].hp[self.cell_pos[cell]] = hk
        return cell

    def _best(self, cost: CostArray, hp: IntArray) -> int | None:
        """Index of the least (cost, row id) among live cells, None when none is live."""
        if self.int_keys:
            tie = cost * self.key_mult + hp
            j = int(np.argmin(tie))
            return j if tie[j] < DEAD else None
        masked = np.where(hp >= DEAD, np.inf, cost)
        best = masked.min()
        if not np.isfinite(best):
            return None
        ties = np.flatnonzero(masked <= best + 1e-12 * max(1.0, abs(float(best))))
        return int(ties[np.argmin(hp[ties])])
