"""The l+-Optimize cut search (Liu & Wang, ICDE 2010; SPEC §5.5–5.7) on the compressed histogram.

The input is the (leaf vector, SA value[, class]) → count histogram that SQL builds once
(``sql/lplus/histogram.sql``) and the QI taxonomies as preorder arrays. The search walks the cut
enumeration tree depth first. A node's partitions are the groups of histogram cells with equal
generalized vectors, identified by one integer key per cell. Specializing a value ``v`` of attribute
``a`` rewrites the keys of the cells under ``v`` only (a contiguous range in the cells' ``a``-order), so
exactly the partitions holding ``v`` split (paper §VI-C); backtracking restores those keys, merging them
back. Costs and lower bounds are sums over partitions, so both are kept as running totals and updated by
re-evaluating only the touched cells (before and after the change), vectorized with numpy.

All costs are exact integers: LM in units of 1/L with L = lcm(|A_i| − 1), DM and CM as counts. A
partition that makes a cut infeasible (NoSupp) is counted separately instead of adding an "infinite" cost.

The cut space is either every full-subtree cut (``space='full-subtree'``) or the full-domain (level)
cuts (``space='full-domain'``). In the latter an attribute at level ℓ is one "value": specializing it
lowers every cut node of that attribute one level, so the same tree, locking and bounds apply.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ...taxonomy.arrays import IntArray
from ..shared.trees import narrow_dtype
from . import boxes, climb, evaluation, merge
from .boxes import BoxBound
from .index import NodeArray, TreeIndex, cost_units, node_dtype, recursion_room
from .partitions import Pricing
from .problem import ALLOWED, INF, Decisions, Order, Problem, Result, Space
from .spec_sizes import SpecSizes

BoolArray = npt.NDArray[np.bool_]
# a frame's saved partition values: cells, cost, infeasible, LB, infinite LB (the flags only under NoSupp)
_Saved = tuple[IntArray, IntArray, BoolArray | None, IntArray, BoolArray | None]
Cut = tuple[tuple[int, ...], ...]


class Search(evaluation.Search):
    """One l+-Optimize search (SPEC §5.6). ``run`` returns a :class:`Result`."""

    def __init__(
        self,
        problem: Problem,
        *,
        space: Space = "full-subtree",
        value_order: Order = "occurrences",
        top_h: int = 1,
        seed: int | None = None,
        time_limit: float | None = None,
        on_progress: Callable[[Search], None] | None = None,
        trace: Callable[[str, int, int, int], None] | None = None,
        enumerate_all: bool = False,
    ) -> None:
        p = problem
        if p.scheme not in ALLOWED[p.metric]:
            raise ValueError(f"{p.metric} with {p.scheme}")
        if p.metric == "cm" and p.klass is None:
            raise ValueError("CM needs class codes")
        self.p = p
        self.space = space
        self.order = value_order
        self.top_h = max(1, int(top_h))
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.on_progress = on_progress
        self.trace = trace
        self.enumerate_all = enumerate_all
        self.trees = [TreeIndex(t) for t in p.taxonomies]
        self._histogram(p)
        self.lm = p.metric == "lm"
        self.unit, self.lmu, self.cs = cost_units(self.trees, p.metric, p.scheme, self.T)
        self._cell_ranges()
        self.pricing = Pricing(p.metric, p.scheme, self.cs, self.T, self.ncls)
        # search state (set by run)
        self.t0 = self._last_progress = 0.0
        self._aborting = False
        self.cost_t = self.icost_t = self.lb_t = self.ilb_t = 0
        self.ceiling = INF  # pruning below the best cost: see run
        self.climbed: tuple[int, Cut] | None = None
        self.again_at = -1
        self.visited = self.pruned = self.total = self.seq = 0
        self.heap: list[tuple[int, int, tuple[tuple[int, ...], ...]]] = []
        self.frames: list[int] = []
        self.visit_cuts: list[tuple[tuple[int, ...], ...]] = []
        self.occ: dict[tuple[int, int], int] = {}
        self._want_detail = False
        self._whole_here: int | None = None  # the last child check's whole-cut gain, where it ran
        self._cell_del = np.zeros(0, dtype=np.int64)
        self._code = np.zeros(0, dtype=np.int64)  # per cell: its partition's number in an evaluation
        # merging cells under locked values (:mod:`.merge`): cells locked so far, and when to look again
        self.locked_mass = 0
        self.merge_at = merge.CHECK_SHARE * self.C if self.C >= merge.MIN_CELLS else math.inf
        self.merge_stats = merge.Stats()
        # per cell: the cost / infeasible flag / LB / infinite-LB flag of the partition it represents (the
        # flags as booleans: every visited node saves them for the cells it touches)
        self.cc = np.zeros(self.C, dtype=np.int64)
        self.ci = np.zeros(self.C, dtype=bool)
        self.lc = np.zeros(self.C, dtype=np.int64)
        self.li = np.zeros(self.C, dtype=bool)
        self._setup_state()
        self.sizes = SpecSizes(self.spec, self.cnt) if p.metric == "dm" else None  # DM's Cut_spec bound
        self.boxes = BoxBound(self, p.metric, p.scheme, self.cs, self.lmu) if boxes.applies(self) else None
        self.mk = boxes.cell_keys(self) if evaluation.answers(self) else None  # kept with every move and lock

    def _histogram(self, p: Problem) -> None:
        """The cells' leaf ids, SA codes, counts, thresholds and classes as arrays."""
        d = len(self.trees)
        self.d = d
        leaf = np.asarray(p.leaf).reshape(d, -1)
        self.leaf = leaf = leaf.astype(narrow_dtype(leaf), copy=False)  # 32-bit ids where they fit
        self.C = leaf.shape[1]
        self.sa = np.asarray(p.sa, dtype=np.int64)
        self.cnt = np.asarray(p.count, dtype=np.int64)
        self.m = max(len(p.theta), int(self.sa.max()) + 1 if self.C else 1)
        th = list(p.theta) + [(1, 1)] * (self.m - len(p.theta))
        self.tp = np.array([a for a, _ in th], dtype=np.int64)
        self.tq = np.array([b for _, b in th], dtype=np.int64)
        self.klass = None if p.klass is None else np.asarray(p.klass, dtype=np.int64)
        self.ncls = 1 if self.klass is None or not self.C else int(self.klass.max()) + 1
        self.T = int(p.total_rows if p.total_rows is not None else self.cnt.sum())

    def _cell_ranges(self) -> None:
        """Partition keys (mixed radix over node ids) and, per attribute, the cells in leaf order, so the
        cells under node v are the contiguous range ``lo[v]..hi[v]``."""
        d, leaf = self.d, self.leaf
        self.stride = np.array(
            [math.prod(t.n for t in self.trees[a + 1 :]) for a in range(d)], dtype=np.int64
        )
        # cell order per attribute (cells under node v = a contiguous range); 32-bit cell numbers where they fit
        cell: type = np.int32 if self.C < 2**31 else np.int64
        self.order_a: list[IntArray] = []
        self.lo: list[IntArray] = []
        self.hi: list[IntArray] = []
        for a, t in enumerate(self.trees):
            ids = leaf[a].astype(np.int16) if t.n < 2**15 else leaf[a]  # 16 bits: numpy sorts by radix
            o: IntArray = np.argsort(ids, kind="stable").astype(cell)
            srt = leaf[a][o]
            self.order_a.append(o)
            self.lo.append(np.searchsorted(srt, np.arange(t.n), "left"))
            self.hi.append(np.searchsorted(srt, t.last, "right"))
        self.all_cells: IntArray = np.arange(self.C, dtype=cell)

    # ------------------------------------------------------------------ state
    def _setup_state(self) -> None:
        d = self.d
        if self.space == "full-subtree":
            self.g: NodeArray = np.zeros((d, self.C), dtype=node_dtype(self.trees))  # every cell at the root
            self.level = [0] * d
        else:
            self.level = [len(t.levels) - 1 for t in self.trees]
            z = np.zeros(0, dtype=np.int64)  # (an empty histogram's leaf ids may not be integers)
            at = [t.levels[self.level[a]][self.leaf[a]] if self.C else z for a, t in enumerate(self.trees)]
            self.g = np.stack(at).reshape(d, self.C).astype(node_dtype(self.trees))
        self._rekey()
        # Cut_spec image: leaf where the value is open, the cut value where it is locked
        self.open_node = [np.zeros(t.n, dtype=bool) for t in self.trees]  # full-subtree
        self.open_attr = [True] * d  # full-domain
        self.spec = (self.leaf * self.stride[:, None]).sum(axis=0) if self.C else np.zeros(0, dtype=np.int64)
        self.gs = np.zeros(self.C if self.lm else 0, dtype=np.int64)  # LM per row at Cut_spec (locked only)
        self.cut: list[set[int]] = [set() for _ in range(d)]
        if self.space == "full-subtree":
            for a, t in enumerate(self.trees):
                self.cut[a].add(0)
                if not t.is_leaf[0]:
                    self.open_node[a][0] = True
                else:  # a one-node taxonomy: the root is a leaf, locked
                    self._lock_cells(a, self.all_cells, 0)
        else:
            for a in range(d):
                if self.level[a] == 0:
                    self.open_attr[a] = False
                    self._lock_cells(a, self.all_cells, self.g[a])

    def _rekey(self) -> None:
        """The partition keys (times m, plus the SA code) and LM's per-row cost of the cut in ``self.g``."""
        key = (self.g * self.stride[:, None]).sum(axis=0) if self.C else np.zeros(0, dtype=np.int64)
        self.ks = key * self.m + self.sa
        self.gc = np.zeros(self.C if self.lm else 0, dtype=np.int64)  # LM per row at the cut
        for a in range(self.d if self.lm else 0):
            self.gc += self.lmu[a][self.g[a]]

    def _cells(self, a: int, v: int) -> IntArray:
        return self.order_a[a][self.lo[a][v] : self.hi[a][v]]

    def _lock_cells(self, a: int, idx: IntArray, ga: int | NodeArray, sign: int = 1) -> None:
        """Lock (``sign`` -1: unlock) attribute ``a`` of cells ``idx`` at their cut nodes ``ga``."""
        at = _whole(self, idx)
        if self.mk is not None:  # an open value locked loses its open bit (full-subtree)
            self.mk[at] -= sign << a
        self.spec[at] += sign * (ga - self.leaf[a][at].astype(np.int64)) * self.stride[a]
        if self.lm:
            self.gs[at] += sign * self.lmu[a][ga]

    def _move(self, a: int, idx: IntArray, old: int | NodeArray, new: int | NodeArray) -> None:
        """Move attribute ``a`` of the cells ``idx`` from the cut nodes ``old`` to ``new`` (the search keeps
        ``self.g`` only in the full-domain space: in a full-subtree cut every cell under a cut node has that
        node, so the old node of a specialization is one number)."""
        at = _whole(self, idx)
        self.ks[at] += (np.asarray(new, dtype=np.int64) - old) * (self.stride[a] * self.m)
        if self.lm:
            self.gc[at] += self.lmu[a][new] - self.lmu[a][old]

    # ------------------------------------------------------------------ values
    # A value is (a, v): a cut node v of attribute a (full-subtree), or (a, level) (full-domain).
    def _val_cells(self, val: tuple[int, int]) -> IntArray:
        return self._cells(*val) if self.space == "full-subtree" else self.all_cells

    def _ncuts(self, val: tuple[int, int]) -> int:
        a, v = val
        return self.trees[a].n_cuts[v] if self.space == "full-subtree" else v + 1

    def _sort_key(self, val: tuple[int, int]) -> tuple[int, int, int]:
        a, v = val
        tax = (a, v) if self.space == "full-subtree" else (a, 0)
        if self.order == "taxonomy":
            return (0, *tax)
        return (-self.occ[val], *tax)

    def _prepare_order(self) -> None:
        self.occ = {}
        if self.space == "full-subtree":
            for a, t in enumerate(self.trees):
                for v in range(t.n):
                    if not t.is_leaf[v]:
                        self.occ[(a, v)] = int(self.cnt[self._cells(a, v)].sum())
        else:
            for a, t in enumerate(self.trees):
                for lv in range(len(t.levels)):
                    self.occ[(a, lv)] = self.T

    # ------------------------------------------------------------------ evaluation
    def _eval(self, idx: IntArray) -> tuple[int, int, int, int]:
        """(cost, infeasible partitions, LB, infinite-LB partitions) of the partitions over ``idx``
        (which must be unions of whole partitions); each partition's figures are kept at one of its cells
        (:mod:`.partitions` does the arithmetic)."""
        if idx.size == 0:
            return 0, 0, 0, 0
        if evaluation.answers(self) and not self._want_detail:
            return evaluation.known(self, idx)
        P, rep, part_cost, feasible, lb_part = evaluation.price(self, idx)
        self.cc[idx], self.lc[idx] = 0, 0
        self.cc[rep] = np.where(feasible, part_cost, 0)
        cost = int(part_cost[feasible].sum())
        if self.p.scheme == "nosupp":  # the other schemes make every partition feasible: the flags stay False
            self.ci[idx], self.li[idx] = False, False
            self.ci[rep], self.li[rep] = ~feasible, P.gviol
            self.lc[rep] = np.where(P.gviol, 0, lb_part)
            infeasible = int(P.gviol.sum())
            return cost, infeasible, int(lb_part[~P.gviol].sum()), infeasible
        self.lc[rep] = lb_part
        return cost, 0, int(lb_part.sum()), 0

    # ------------------------------------------------------------------ search
    def _lb_eff(self) -> int:
        return INF if self.ilb_t else self.lb_t

    def _lb_check(self) -> int:
        """A specialized child's LB: the running total, plus what the joint cuts (:mod:`.joint`) add when
        that can reach the bound: of the partitions it split, or else of every partition of the cut."""
        lb = self._lb_eff()
        if self.boxes is None or lb >= INF:
            return lb
        need = 1 if self.enumerate_all else self.bound() - lb
        touched = self.boxes.gain(self, need)
        if touched >= need and not self.enumerate_all:
            return lb + touched
        whole = self.boxes.whole(self, need)
        self._whole_here = self.boxes.whole_ran
        return lb + max(touched, whole)  # either group set is a bound

    def _stage_lb(self, known: int | None = None) -> int:
        """A stage's LB (its values before this one locked): the running total, plus what the joint
        cuts of every partition of the cut add when that can reach the bound (``known``: their gain on
        this very cut, computed at the child's check)."""
        lb = self._lb_eff()
        if self.boxes is None or lb >= INF:
            return lb
        return lb + self.boxes.whole(self, 1 if self.enumerate_all else self.bound() - lb, known)

    def bound(self) -> int:
        """Prune against the best cost (top-h: the h-th best), +∞ until h cuts are known (SPEC §5.6), or
        the climb's ceiling when lower."""
        return min(-self.heap[0][0] if len(self.heap) >= self.top_h else INF, self.ceiling)

    @property
    def best_cost(self) -> int | None:
        return min(-x[0] for x in self.heap) if self.heap else None

    def global_lower_bound(self) -> int:
        """A proven lower bound on the optimum so far: each open DFS frame's LB (with its values locked so
        far) bounds the cuts it has not finished; the best cost bounds the rest."""
        best = self.best_cost
        out = min(self.frames) if self.frames else INF
        return min(out, best) if best is not None else out

    def _snapshot(self) -> tuple[tuple[int, ...], ...]:
        if self.space == "full-subtree":
            return tuple(tuple(sorted(c)) for c in self.cut)
        return tuple((lv,) for lv in self.level)

    def _offer(self, cost: int) -> None:
        if cost >= self.bound():
            return
        self.seq += 1
        entry = (-cost, -self.seq, self._snapshot())
        if len(self.heap) >= self.top_h:
            heapq.heapreplace(self.heap, entry)
        else:
            heapq.heappush(self.heap, entry)

    def _lock(self, val: tuple[int, int]) -> None:
        a, v = val
        idx = self._val_cells(val)
        self.locked_mass += idx.size
        if self.space == "full-subtree":
            self.open_node[a][v] = False
            self._lock_cells(a, idx, v)
        else:
            self.open_attr[a] = False
            self._lock_cells(a, idx, self.g[a])
        if self.sizes is not None:
            self.sizes.lock(idx, self.spec, self.cnt)

    def _unlock(self, val: tuple[int, int]) -> None:
        a, v = val
        idx = self._val_cells(val)
        self.locked_mass -= idx.size
        if self.space == "full-subtree":
            self.open_node[a][v] = True
            self._lock_cells(a, idx, v, -1)
        else:
            self.open_attr[a] = True
            self._lock_cells(a, idx, self.g[a], -1)
        if self.sizes is not None:
            self.sizes.unlock(idx)

    def _specialize(self, val: tuple[int, int]) -> tuple[IntArray, IntArray, list[tuple[int, int]]]:
        """Split the partitions holding ``val``; returns (the cells moved, what :meth:`_undo` needs to move
        them back — full-subtree: their new nodes; full-domain: their old ones —, the new open values)."""
        a, v = val
        t = self.trees[a]
        if self.space == "full-subtree":
            idx = self._cells(a, v)
            new = t.anc[int(t.depth[v]) + 1][self.leaf[a][idx]]
            self._move(a, idx, v, new)
            self.cut[a].discard(v)
            kids = t.children[v]
            self.cut[a].update(kids)
            self.open_node[a][v] = False
            opened = [(a, k) for k in kids if not t.is_leaf[k]]
            for _, k in opened:
                self.open_node[a][k] = True
            if self.mk is not None:  # v was open; its children are unless they are leaves
                boxes.move_keys(self, a, idx, v, new, self.open_node[a][new].astype(np.int64) - 1)
            return idx, new, opened
        idx = self.all_cells
        new = t.levels[v - 1][self.leaf[a]]
        old = self.g[a].copy()
        self.g[a] = new
        self._move(a, idx, old, new)
        self.level[a] = v - 1
        if v - 1 == 0:
            self.open_attr[a] = False  # level 0 = the leaves: locked (spec image unchanged)
            return idx, old, []
        return idx, old, [(a, v - 1)]

    def _undo(self, val: tuple[int, int], idx: IntArray, moved: IntArray) -> None:
        """Undo :meth:`_specialize`, given what it returned."""
        a, v = val
        if self.space == "full-subtree":
            self._move(a, idx, moved, v)
            if self.mk is not None:  # back to v, open
                boxes.move_keys(self, a, idx, moved, v, 1 - self.open_node[a][moved].astype(np.int64))
            t = self.trees[a]
            for k in t.children[v]:
                self.cut[a].discard(k)
                self.open_node[a][k] = False
            self.cut[a].add(v)
            self.open_node[a][v] = True
        else:
            self._move(a, idx, self.g[a], moved)
            self.g[a] = moved
            self.level[a] = v
            self.open_attr[a] = True

    def _save(self, idx: IntArray) -> tuple[_Saved, tuple[int, int, int, int]]:
        """The partition values of cells ``idx``, kept only where nonzero (at a partition's first cell: a
        search frame holds one entry per partition it touches, not per cell), and their four sums."""
        cc, lc = self.cc[idx], self.lc[idx]  # fancy indexing copies
        if self.p.scheme != "nosupp":  # no partition is infeasible: the flags stay False
            at = np.flatnonzero((cc != 0) | (lc != 0))
            return (idx[at], cc[at], None, lc[at], None), (int(cc.sum()), 0, int(lc.sum()), 0)
        ci, li = self.ci[idx], self.li[idx]
        at = np.flatnonzero((cc != 0) | ci | (lc != 0) | li)
        sums = (int(cc.sum()), int(ci.sum()), int(lc.sum()), int(li.sum()))
        return (idx[at], cc[at], ci[at], lc[at], li[at]), sums

    def _restore(self, idx: IntArray, saved: _Saved) -> None:
        cells, cc, ci, lc, li = saved
        self.cc[idx], self.lc[idx] = 0, 0
        self.cc[cells], self.lc[cells] = cc, lc
        if ci is not None and li is not None:
            self.ci[idx], self.li[idx] = False, False
            self.ci[cells], self.li[cells] = ci, li

    def _prod(self, vals: Sequence[tuple[int, int]]) -> int:
        return math.prod(self._ncuts(val) for val in vals)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.time_limit is not None and now - self.t0 > self.time_limit:
            self._aborting = True  # keep the open frames: their bounds prove the gap
            raise _Timeout
        if self.on_progress is not None and now - self._last_progress > 0.5:
            self._last_progress = now
            self.on_progress(self)

    def _dfs(
        self, open_vals: list[tuple[int, int]], depth: int, start: int = 0, whole: int | None = None
    ) -> None:
        """One frame of the DFS, from stage ``start`` (a sub-search takes over a frame at a stage);
        ``whole``: the joint cuts' gain of the whole cut, when the child's check computed it (the first
        stage's cut is the same)."""
        saved = (self.cost_t, self.icost_t, self.lb_t, self.ilb_t)
        locked: list[tuple[tuple[int, int], IntArray, _Saved]] = []
        merge_at = self.merge_at
        self.frames.append(self._lb_eff())
        try:
            for i in range(start, len(open_vals)):
                val = open_vals[i]
                if i > start:  # v_1..v_{i-1} are locked now: a tighter LB (Observation 5)
                    prev = open_vals[i - 1]
                    idx = self._val_cells(prev)
                    saved_prev, (_, _, lb0, ilb0) = self._save(idx)
                    locked.append((prev, idx, saved_prev))
                    self._lock(prev)
                    _, _, lb1, ilb1 = evaluation.relock(self, idx, saved_prev[0])
                    self.lb_t += lb1 - lb0
                    self.ilb_t += ilb1 - ilb0
                    self.frames[-1] = self._lb_eff()
                    if self.locked_mass >= self.merge_at and merge.descend(self, open_vals, depth, i):
                        break
                lb_stage = self._stage_lb(whole if i == start else None)
                if self.trace and i > 0:
                    self.trace("stage", depth, INF, lb_stage)
                if not self.enumerate_all and lb_stage >= self.bound():
                    self.pruned += self._prod(open_vals[i:]) - 1
                    break
                self._tick()
                here = (self.cost_t, self.icost_t, self.lb_t, self.ilb_t)
                idx = self._val_cells(val)
                kept, (c0, ic0, lb0, ilb0) = self._save(idx)
                idx, moved, opened = self._specialize(val)
                c1, ic1, lb1, ilb1 = self._eval(idx)
                self.cost_t += c1 - c0
                self.icost_t += ic1 - ic0
                self.lb_t += lb1 - lb0
                self.ilb_t += ilb1 - ilb0
                rest = open_vals[i + 1 :]
                child_open = sorted(rest + opened, key=self._sort_key) if opened else list(rest)
                self._whole_here = None
                lb_here = self._lb_check()
                if not self.enumerate_all and lb_here >= self.bound():
                    self.pruned += self._prod(child_open)
                else:
                    self.visited += 1
                    if self.visited == self.again_at:
                        climb.again(self)
                    if self.trace:
                        self.trace("visit", depth + 1, INF if self.icost_t else self.cost_t, lb_here)
                        self.visit_cuts.append(self._snapshot())
                    if not self.icost_t:
                        self._offer(self.cost_t)
                    self._dfs(child_open, depth + 1, whole=self._whole_here)
                self._undo(val, idx, moved)
                self._restore(idx, kept)
                self.cost_t, self.icost_t, self.lb_t, self.ilb_t = here
        finally:
            if not self._aborting:
                for val, idx, arrays in reversed(locked):
                    self._unlock(val)
                    self._restore(idx, arrays)
                self.cost_t, self.icost_t, self.lb_t, self.ilb_t = saved
                self.frames.pop()
            self.merge_at = merge_at

    def cut_of_levels(self, levels: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """The full-subtree cut of a full-domain level vector (the level nodes of every leaf)."""
        return tuple(t.level_cut(lv) for t, lv in zip(self.trees, levels, strict=True))

    def run(self, incumbents: Sequence[tuple[int, Cut]] = (), climbing: bool = True) -> Result:
        """Search; ``incumbents`` are known (cost, cut) pairs of this space (a warm start: the DFS then
        prunes against the best of them from the first node, and against the cheaper cut a climb from it
        finds (:mod:`.climb`); with top-h they are ignored)."""
        self.t0 = time.perf_counter()
        self._last_progress = self.t0
        self._aborting = False
        self._prepare_order()
        self.heap, self.seq = [], 0
        self.frames = []
        self.ceiling = INF
        self.climbed, self.again_at = None, -1
        if self.space == "full-subtree":
            roots = [(a, 0) for a, t in enumerate(self.trees) if not t.is_leaf[0]]
            self.total = math.prod(t.n_cuts[0] for t in self.trees)
        else:
            roots = [(a, self.level[a]) for a in range(self.d) if self.level[a] > 0]
            self.total = math.prod(len(t.levels) for t in self.trees)
        self.visited, self.pruned = 1, 0
        self.cost_t, self.icost_t, self.lb_t, self.ilb_t = self._eval(self.all_cells)
        self.visit_cuts = []
        if self.trace:
            self.trace("visit", 0, INF if self.icost_t else self.cost_t, self._lb_eff())
            self.visit_cuts.append(self._snapshot())
        if not self.icost_t:
            self._offer(self.cost_t)
        if self.top_h == 1:
            climb.start(self, incumbents, climbing)
        timed_out = False
        try:
            with recursion_room(self.trees):
                self._dfs(sorted(roots, key=self._sort_key), 0)
        except _Timeout:
            timed_out = True
        if climb.missed(self, timed_out):
            return self.run(incumbents, climbing=False)
        return self._result(timed_out)

    def _result(self, timed_out: bool) -> Result:
        seconds = time.perf_counter() - self.t0
        entries = sorted(self.heap, key=lambda e: (e[0], e[1]), reverse=True)  # best cost, then found first
        top = [(-e[0], e[2]) for e in entries]
        pick = (self.rng.choice(top) if self.top_h > 1 else top[0]) if top else None
        best = top[0][0] if top else None
        lower, optimal = best, not timed_out
        if timed_out:
            glb = self.global_lower_bound()
            lower = None if glb >= INF else glb
            # every unexplored subtree's LB already reaches the best cost: the best is proven optimal
            optimal = best is not None and lower is not None and lower >= best
        return Result(
            cost=None if pick is None else pick[0],
            cut=None if pick is None else pick[1],
            lower_bound=lower,
            optimal=optimal,
            visited=self.visited,
            pruned=self.pruned,
            total_cuts=self.total,
            seconds=seconds,
            unit=self.unit,
            top=top,
            timed_out=timed_out,
            sub_searches=self.merge_stats.merges,
            merge_counts=self.merge_stats.checks,
            merge_seconds=self.merge_stats.seconds,
        )

    # ------------------------------------------------------------------ the release
    def apply(self, cut: Sequence[Sequence[int]]) -> Decisions:
        """Evaluate one cut for the release: per cell (in input order) its generalized node per attribute
        is in ``self.g``; returns (partition number, rows deleted, SA suppressed) per cell and the cost."""
        for a, t in enumerate(self.trees):
            to = t.cut_map(cut[a]) if self.space == "full-subtree" else t.levels[cut[a][0]]
            self.g[a] = to[self.leaf[a]]
        self._rekey()
        self.mk = None if self.mk is None else boxes.cell_keys(self)
        # every value open: the lower bounds stay valid bounds even after a stop mid-search
        self.spec = (self.leaf * self.stride[:, None]).sum(axis=0)
        self.gs[:] = 0
        self.sizes = SpecSizes(self.spec, self.cnt) if self.sizes is not None else None
        self._want_detail = True
        try:
            cost, icost, _, _ = self._eval(self.all_cells)
        finally:
            self._want_detail = False
        idx_s, cells_g, deleted, suppressed = self.detail
        gid = np.empty(self.C, dtype=np.int64)
        dele = np.empty(self.C, dtype=np.int64)
        supp = np.empty(self.C, dtype=bool)
        gid[idx_s] = cells_g + 1
        dele[idx_s] = deleted
        supp[idx_s] = suppressed
        return self.g, gid, dele, supp, (INF if icost else cost)


def _whole(s: Search, idx: IntArray) -> IntArray | slice:
    """``idx``, or a slice of every cell when it is all of them (the full-domain space): 3× faster."""
    return slice(None) if idx is s.all_cells else idx


class _Timeout(Exception):
    pass
