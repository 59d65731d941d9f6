"""BSGI fast mode: the greedy Select of many classes at once ("waves"; SPEC §2.2, Ye et al. Fig. 2).

The Max-l schedule (:mod:`~ldiv_db.algorithms.shared.schedule`) fixes, before any QI is looked at, which buckets give a row
to which class. Classes therefore only interact through the rows they take, and classes whose
candidates do not overlap could be built in any order. A *wave* is ``batch`` consecutive classes of the
schedule, built step by step in lockstep:

1. seeds: every class takes the smallest remaining row id of its first bucket (in class order);
2. step i = 2..l: every class prices the ``2·window`` live cells of its i-th bucket nearest to its seed in
   each locality order (rotated lexicographic orders of the QI codes) against its own partial class —
   one vectorized gather per QI over a (classes × candidates) matrix through per-QI tables indexed by
   (class state, code) — and ranks its ``TOP`` best by (IL(e ∪ t), row id);
3. in class order, every class takes the best of its ranked cells that still has a row (so two classes
   wanting the last row of a cell: the earlier one gets it); a class whose list runs dry is priced again.

So a wave costs ~40 numpy operations per step, whatever its size: Adult (30,162 rows) needs ~100 steps,
1,000,000 rows a few thousand. Differences from the sequential greedy (``--exact``): a class sees the
rows that earlier classes of its wave take only at the same step, seeds are taken at the start of the
wave, and candidates are limited to the window. The distance in IL is measured in bench/README.md.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ....util.arrays import concat_ranges
from ...shared.trees import IntArray, narrow_dtype
from .cells import DEAD
from .cost import Attribute, CostArray

if TYPE_CHECKING:
    from ...shared.schedule import Schedule
    from .state import GreedyState

LCA_TABLE_LIMIT = 1024  # trees with at most this many nodes get a full LCA table
TOP = 16  # candidates ranked per class and pricing round


class _Tables:
    """Vectorized pricing of (class state, candidate code) pairs for every QI."""

    def __init__(self, eng: GreedyState) -> None:
        self.eng = eng
        self.lca: list[IntArray | None] = []
        self.cost: list[CostArray | None] = []
        for a in eng.attrs:
            if a.kind == "hierarchy" and a.tree is not None and len(a.tree.parent) <= LCA_TABLE_LIMIT:
                assert a.node_cost is not None
                table = np.stack([a.tree.lca_row(x) for x in range(len(a.tree.parent))])
                self.lca.append(table.ravel())
                self.cost.append(a.node_cost[table].astype(eng.dtype, copy=False).ravel())
            else:
                self.lca.append(None)
                self.cost.append(None)

    def _walk(self, a: Attribute, x: IntArray, v: IntArray) -> IntArray:
        """LCA of node arrays x and v by walking x up until its id range holds v."""
        assert a.tree is not None
        x = np.broadcast_to(x, np.broadcast_shapes(x.shape, v.shape)).copy()
        v = np.broadcast_to(v, x.shape)
        last, parent = a.tree.last, a.tree.parent
        out = (x > v) | (last[x] < v)
        while out.any():
            x[out] = parent[x[out]]
            out[out] = (x[out] > v[out]) | (last[x[out]] < v[out])
        return x

    def price(self, st: IntArray, codes: list[IntArray]) -> CostArray:
        """Scaled NCP of (class ∪ candidate): st is (q × width) states, codes[i] (q × k) candidate codes."""
        eng = self.eng
        total: CostArray | None = None
        for i, a in enumerate(eng.attrs):
            j = eng.slots[i]
            v = codes[i]
            if a.kind == "hierarchy":
                table = self.cost[i]
                if table is not None:
                    assert a.tree is not None
                    part = table[st[:, j, None] * len(a.tree.parent) + v]
                else:
                    assert a.node_cost is not None
                    part = a.node_cost[self._walk(a, st[:, j, None], v)]
            elif a.kind == "numeric":
                lo, hi = st[:, j, None], st[:, j + 1, None]
                if a.values is None:
                    part = (np.maximum(v, hi) - np.minimum(v, lo)) * a.unit
                else:
                    part = (a.values[np.maximum(v, hi)] - a.values[np.minimum(v, lo)]) * a.unit
            else:
                s = st[:, j, None]
                part = ((v != s) | (s < 0)) * a.unit
            total = part if total is None else total + part
        assert total is not None
        return total

    def merge(self, st: IntArray, codes: IntArray) -> None:
        """st (q × width) absorbs one code row each (q × d), in place."""
        eng = self.eng
        for i, a in enumerate(eng.attrs):
            j = eng.slots[i]
            v = codes[:, i]
            if a.kind == "hierarchy":
                assert a.tree is not None
                table = self.lca[i]
                n = len(a.tree.parent)
                st[:, j] = table[st[:, j] * n + v] if table is not None else self._walk(a, st[:, j], v)
            elif a.kind == "numeric":
                st[:, j] = np.minimum(st[:, j], v)
                st[:, j + 1] = np.maximum(st[:, j + 1], v)
            else:
                st[:, j] = np.where(st[:, j] == v, v, -1)

    def state_cost(self, st: IntArray) -> CostArray:
        eng = self.eng
        total: CostArray = np.zeros(len(st), dtype=eng.dtype)
        for i, a in enumerate(eng.attrs):
            j = eng.slots[i]
            if a.kind == "hierarchy":
                assert a.node_cost is not None
                total = total + a.node_cost[st[:, j]]
            elif a.kind == "numeric":
                span = (
                    st[:, j + 1] - st[:, j]
                    if a.values is None
                    else a.values[st[:, j + 1]] - a.values[st[:, j]]
                )
                total = total + span * a.unit
            else:
                total = total + (st[:, j] < 0) * a.unit
        return total


class _Live:
    """Every bucket's live cells in each locality order, compacted when a window finds nothing live.

    Order k's cells, sorted by (bucket, key), occupy ``base[k] .. base[k] + size + 2w`` of one array per
    field (cell id, head key, QI codes), padded with dead cells, so that the windows of all orders are
    one gather per field."""

    def __init__(self, eng: GreedyState, w: int) -> None:
        self.eng = eng
        self.w = w
        keys = eng.cells.key.reshape(eng.cells.n_cells, -1)
        self.keys = keys
        self.kmax = int(keys.max()) + 1 if eng.cells.n_cells else 1
        self.compactions = 0
        self.cells: IntArray
        self.hp: IntArray
        self.codes: IntArray  # (positions × QIs): a window's codes are one gather of whole rows
        self.gkeys: list[IntArray]
        self.pos: list[IntArray]
        # the QI codes, 32-bit where they fit: the largest arrays of the greedy; pricing widens them
        # against the 64-bit class states
        self.narrow = narrow_dtype(*eng.cells.codes)
        # cell ids and positions in 32 bits while the cells fit
        self.small: Any = np.int32 if eng.cells.n_cells + 2 * w < 2**31 else np.int64
        alive = np.arange(eng.cells.n_cells, dtype=np.int64)
        bucket = eng.cells.bucket
        ordered: list[IntArray] = []
        gkeys: list[IntArray] = []
        for k in range(keys.shape[1]):
            gkey = bucket * self.kmax + keys[:, k]  # (bucket, key) as one number: one stable sort
            order = np.argsort(gkey, kind="stable")  # ties by cell id
            ordered.append(alive[order].astype(self.small))
            gkeys.append(gkey[order])
            del gkey
        self._build(ordered, gkeys)

    def _build(self, ordered: list[IntArray], gkeys: list[IntArray]) -> None:
        """The arrays of the live cells in each order (``ordered[k]``: order k's cells, sorted by
        (bucket, key, cell id); ``gkeys[k]``: their bucket · kmax + key)."""
        eng, width = self.eng, 2 * self.w
        size = len(ordered[0])
        n_orders = len(ordered)
        self.size = size
        self.base = np.arange(n_orders, dtype=np.int64) * (size + width)
        small = self.small
        cells = np.full(n_orders * (size + width), -1, dtype=small)
        self.gkeys, self.pos = gkeys, []
        for k in range(n_orders):
            cells[self.base[k] : self.base[k] + size] = ordered[k]
            pos = np.full(eng.cells.n_cells, -1, dtype=small)
            pos[ordered[k]] = np.arange(size, dtype=small)
            self.pos.append(pos)
        first = ordered[0]
        del ordered
        real = cells >= 0
        self.cells = cells
        at = np.maximum(cells, 0)
        self.hp = np.where(real, eng.head_key[at], DEAD)
        # one row per position: gathering a window's rows at once took half the time of one gather per QI
        narrow = self.narrow
        self.codes = np.zeros((len(cells), len(eng.cells.codes)), dtype=narrow)
        for i, c in enumerate(eng.cells.codes):
            self.codes[:, i] = np.where(real, c.astype(narrow, copy=False)[at], 0)
        del at
        self.off = np.searchsorted(eng.cells.bucket[first], np.arange(eng.m + 1))

    def compact(self) -> None:
        """Drop the empty cells. Each order's live cells, taken in the order they stand, are the order of
        the live cells by (bucket, key, cell id) again — what sorting them afresh gave, without the sorts."""
        old, gkeys = self.cells, self.gkeys
        # a compaction's arrays replace the previous ones: those go first, not after (at 1M rows both sets
        # at once were the greedy's peak)
        self.cells = self.hp = np.zeros(0, dtype=np.int64)
        self.codes = np.zeros((0, 0), dtype=np.int64)
        self.gkeys, self.pos = [], []
        ordered: list[IntArray] = []
        kept: list[IntArray] = []
        for k in range(len(gkeys)):
            cells = old[self.base[k] : self.base[k] + self.size]
            live = np.flatnonzero(self.eng.head_key[cells] < DEAD)
            ordered.append(cells[live])
            kept.append(gkeys[k][live])
            gkeys[k] = kept[-1]  # the old keys of this order go now
        del old, gkeys
        self._build(ordered, kept)
        self.compactions += 1

    def taken(self, cells: IntArray) -> None:
        """Refresh the head keys of cells after rows were taken from them."""
        hk = self.eng.head_key[cells]
        for k, pos in enumerate(self.pos):
            at = pos[cells]
            ok = at >= 0
            self.hp[self.base[k] + at[ok]] = hk[ok]

    def window(self, buckets: IntArray, keys: IntArray) -> tuple[IntArray, IntArray, list[IntArray]]:
        """Per class, the 2w live cells around its key in its bucket in every order: (cells, head keys
        with DEAD outside the bucket, codes per QI), each (q × 2w·orders)."""
        w = self.w
        lo_b, hi_b = self.off[buckets], self.off[buckets + 1]
        span = np.arange(2 * w)
        starts, outside = [], []
        want = buckets[:, None] * self.kmax + keys
        # the classes' keys searched in ascending order: each search starts from the last one's place
        by_key = np.argsort(want, axis=0)
        for k, gkey in enumerate(self.gkeys):
            pos = np.empty(len(buckets), dtype=np.int64)
            pos[by_key[:, k]] = np.searchsorted(gkey, np.take(want[:, k], by_key[:, k]))
            lo = np.clip(pos - w, lo_b, np.maximum(hi_b - 2 * w, lo_b))
            starts.append(self.base[k] + lo)
            outside.append((lo[:, None] + span) >= hi_b[:, None])
        first = np.stack(starts, axis=1).reshape(-1)  # per class and order: its window's first position
        q, width = len(buckets), 2 * w
        hp = _blocks(self.hp, width, first).reshape(q, -1)
        hp[np.concatenate(outside, axis=1)] = DEAD
        # classes × 2w·orders × QIs
        codes = _blocks(self.codes, width, first).reshape(q, -1, self.codes.shape[1])
        cells = _blocks(self.cells, width, first).reshape(q, -1)
        return cells, hp, [codes[..., i] for i in range(codes.shape[-1])]


def _blocks(x: IntArray, width: int, first: IntArray) -> IntArray:
    """The ``width`` consecutive entries (rows, for a 2-D ``x``) of ``x`` from each of ``first``, one block
    per row of the result: a copy of contiguous runs, where a gather reads entry by entry."""
    flat = x.reshape(-1)
    per = flat.size // max(len(x), 1)  # entries per row of x
    view = np.lib.stride_tricks.sliding_window_view(flat, width * per)[::per] if per else flat[:0, None]
    return view[first].reshape(len(first), width, -1) if x.ndim == 2 else view[first]


def select_waves(eng: GreedyState, schedule: Schedule, window: int, batch: int) -> None:
    """Fast-mode Select (module docstring): fills eng.gid, eng.state_array, eng.class_cost/size."""
    tables = _Tables(eng)
    live = _Live(eng, window)
    plan = schedule.plan()  # row k: the bucket order of class k (no Run object per run)
    total = len(plan)
    widths = [2 if a.kind == "numeric" else 1 for a in eng.attrs]
    states: list[IntArray] = []
    for c0 in range(0, total, batch):
        wave = plan[c0 : c0 + batch]
        q = len(wave)
        gids = np.arange(c0, c0 + q, dtype=np.int64)
        seeds, rows = _seeds(eng, wave[:, 0])
        live.taken(seeds)
        eng.gid[rows] = gids
        st = np.repeat(eng.code_rows[seeds].astype(np.int64), widths, axis=1)  # states priced in 64 bits
        keys = eng.cells.key.reshape(eng.cells.n_cells, -1)[seeds]
        for i in range(1, wave.shape[1]):
            cells, rows = _pick_step(eng, live, tables, wave[:, i], keys, st)
            eng.gid[rows] = gids
            tables.merge(st, eng.code_rows[cells])
            eng.picks += q
        states.append(st)
        if eng.progress is not None and (c0 // batch) % 16 == 15:
            eng.progress(c0 + q, total)
    eng.compactions += live.compactions
    state_array = np.concatenate(states) if states else np.zeros((0, eng.width), dtype=np.int64)
    eng.state_array = state_array
    eng.class_cost = tables.state_cost(state_array).tolist()
    eng.class_size = [schedule.l] * len(state_array)


def _seeds(eng: GreedyState, first: IntArray) -> tuple[IntArray, IntArray]:
    """Per class, in class order, take the smallest remaining row id of its first bucket (a random
    remaining row when seeded); returns the cells and row positions taken."""
    cells = np.empty(len(first), dtype=np.int64)
    rows = np.empty(len(first), dtype=np.int64)
    for b in np.unique(first).tolist():
        where = np.flatnonzero(first == b)
        if eng.rng is not None:
            cells[where], rows[where] = _random_seeds(eng, b, len(where))
            continue
        queue = eng.seed_rows[b]
        ptr = eng.seed_ptr[b]
        need = len(where)
        span = need * 2 + 64
        while True:
            free = np.flatnonzero(~eng.taken[queue[ptr : ptr + span]])
            if len(free) >= need or ptr + span >= len(queue):
                break
            span *= 2
        if len(free) < need:
            raise AssertionError("the schedule asked a bucket for more rows than it holds")
        got = queue[ptr + free[:need]]
        eng.seed_ptr[b] = ptr + int(free[need - 1]) + 1
        cells[where] = eng.row_cell[got]
        taken = eng.take_many(cells[where])
        assert np.array_equal(taken, got), "seed rows must be the heads of their cells"
        rows[where] = taken
    return cells, rows


def _random_seeds(eng: GreedyState, b: int, m: int) -> tuple[IntArray, IntArray]:
    """``m`` classes' first rows drawn from bucket b one after another, each uniformly among the rows still
    left (:meth:`~.state.GreedyState.random_seed`'s draws, in one step), and taken: each drawn row goes
    to the head of its cell's queue, the rest of the queue in its order, as that method leaves it."""
    assert eng.rng is not None and eng.seed_blocks is not None
    left = eng.seed_blocks.remaining(b)
    # the draws, each among the rows the ones before it left; as ranks among the rows left at the start:
    # draw r is the smallest x with x = r + (earlier draws at or below x)
    drawn: list[int] = []
    ranks: list[int] = []
    for i in range(m):
        r = x = eng.rng.randrange(left - i)
        while (y := r + bisect.bisect_right(drawn, x)) != x:
            x = y
        bisect.insort(drawn, x)
        ranks.append(x)
    picks = eng.seed_blocks.kth_many(b, np.array(ranks, dtype=np.int64), eng.taken)
    cells = eng.row_cell[picks].astype(np.int64)
    # each affected cell's remaining queue: its drawn rows first (in draw order), then the others in order
    uc = np.unique(cells)
    lo, hi = eng.head[uc], eng.cell_end[uc]
    seg = np.repeat(np.arange(len(uc), dtype=np.int64), hi - lo)
    idx = concat_ranges(lo, hi - lo)
    vals = eng.slot[idx].astype(np.int64)
    order_of = np.full(len(vals), len(picks), dtype=np.int64)  # draw index of a drawn row, else last
    drawn_sorted = np.argsort(picks)
    at = np.searchsorted(picks[drawn_sorted], vals)
    hit = (at < len(picks)) & (picks[drawn_sorted[np.minimum(at, len(picks) - 1)]] == vals)
    order_of[hit] = drawn_sorted[at[hit]]
    eng.slot[idx] = vals[np.lexsort((np.arange(len(vals)), order_of, seg))]
    taken = eng.take_many(cells)
    if not np.array_equal(taken, picks):
        raise AssertionError("drawn first rows must be the heads of their cells")
    return cells, taken


def _pick_step(
    eng: GreedyState, live: _Live, tables: _Tables, buckets: IntArray, keys: IntArray, st: IntArray
) -> tuple[IntArray, IntArray]:
    """One lockstep pick for every class of a wave (module docstring, items 2–3); takes the rows and
    returns the chosen cells and row positions.

    Each pricing round ranks every class's ``TOP`` best candidates; conflicts are then settled over
    those ranked lists without pricing again: in class order, each class takes the first of its cells
    with a row left (:func:`_settle`: the classes before the first contested one at once, then scalar
    steps, cheaper than vectorized rounds). A class that runs
    through its list is priced again; a window with nothing live compacts the live cells once, then
    falls back to the whole bucket."""
    q = len(buckets)
    chosen = np.full(q, -1, dtype=np.int64)
    rows = np.full(q, -1, dtype=np.int64)
    todo = np.arange(q)
    compacted = False
    while len(todo):
        cells, hp, codes = live.window(buckets[todo], keys[todo])
        cost = tables.price(st[todo], codes)
        top = min(TOP, cells.shape[1])
        if eng.int_keys:
            tie = cost * eng.key_mult + hp
        else:  # doubles: rank by cost, then by row id among near-equal costs
            masked = np.where(hp >= DEAD, np.inf, cost)
            best = masked.min(axis=1, keepdims=True)
            near = masked <= best + 1e-12 * np.maximum(1.0, np.abs(best))
            tie = np.where(near, hp, DEAD + 1 + np.argsort(np.argsort(masked, axis=1), axis=1))
        part = (
            np.argpartition(tie, top - 1, axis=1)[:, :top] if top < tie.shape[1] else np.argsort(tie, axis=1)
        )
        ranked = np.take_along_axis(part, np.argsort(np.take_along_axis(tie, part, 1), axis=1), 1)
        cand = np.take_along_axis(cells, ranked, 1)
        live_cand = np.take_along_axis(hp, ranked, 1) < DEAD
        if not live_cand[:, 0].all() and not compacted:
            live.compact()
            compacted = True
            continue
        # settle in class order over the ranked lists
        got = _settle(cand, live_cand, eng.cell_end[cand] - eng.head[cand], top)
        settled = got >= 0
        chosen[todo[settled]] = got[settled]
        rows[todo[settled]] = eng.take_many(got[settled])
        live.taken(got[settled])
        left = todo[chosen[todo] < 0]
        if len(left) and not compacted and not (live_cand[:, 0]).all():
            live.compact()
            compacted = True
        elif len(left) == len(todo):  # nothing settled even after compaction: whole buckets, one by one
            for k in left.tolist():
                cell = _pick_whole(eng, live, tables, int(buckets[k]), st[k])
                chosen[k] = cell
                rows[k] = eng.take(cell)
                live.taken(np.array([cell]))
                eng.fallbacks += 1
            left = left[:0]
        todo = left
    return chosen, rows


def _settle(cand: IntArray, alive: npt.NDArray[np.bool_], room: IntArray, top: int) -> IntArray:
    """Per class (rows of ``cand``, in class order): the first of its ranked cells that is live
    (``alive``) and still has a row (``room``: the rows a cell has, per candidate), after the classes
    before it took theirs; −1 when its list runs dry. The classes before the first whose first choice is
    dead or already emptied by the classes before it take their first choices, at once; from there on
    a scalar walk over the lists (a few hundred steps at most)."""
    q = len(cand)
    got = np.full(q, -1, dtype=np.int64)
    first = cand[:, 0]
    by_cell = np.argsort(first, kind="stable")
    sc = first[by_cell]
    new = np.ones(q, dtype=bool)
    np.not_equal(sc[1:], sc[:-1], out=new[1:])
    at = np.arange(q)
    ordinal = np.empty(q, dtype=np.int64)  # how many classes before it chose the same first cell
    ordinal[by_cell] = at - np.maximum.accumulate(np.where(new, at, 0))
    stuck = np.flatnonzero(~alive[:, 0] | (ordinal >= room[:, 0]))
    done = int(stuck[0]) if len(stuck) else q
    got[:done] = first[:done]
    if done == q:
        return got
    cells, at_first, counts = np.unique(first[:done], return_index=True, return_counts=True)
    left_of = dict(zip(cells.tolist(), (room[at_first, 0] - counts).tolist(), strict=True))
    cand_rows, live_rows, room_rows = cand[done:].tolist(), alive[done:].tolist(), room[done:].tolist()
    for k in range(q - done):
        cands, lives, rooms_k = cand_rows[k], live_rows[k], room_rows[k]
        for r in range(top):
            if not lives[r]:
                break
            c = cands[r]
            free = left_of.get(c, rooms_k[r])
            if free > 0:
                left_of[c] = free - 1
                got[done + k] = c
                break
    return got


def _pick_whole(eng: GreedyState, live: _Live, tables: _Tables, b: int, state: IntArray) -> int:
    """The least (IL, row id) live cell of the whole bucket b."""
    cells = np.flatnonzero(eng.cells.bucket == b)
    hp = eng.head_key[cells]
    cost = tables.price(state[None, :], [c[cells][None, :] for c in eng.cells.codes])[0]
    masked = np.where(hp >= DEAD, np.inf, cost.astype(np.float64))
    best = masked.min()
    if not np.isfinite(best):
        raise AssertionError(f"bucket {b} has no row left for the schedule")
    ties = np.flatnonzero(masked <= best)
    return int(cells[ties[np.argmin(hp[ties])]])
