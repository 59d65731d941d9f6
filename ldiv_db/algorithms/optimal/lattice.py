"""The exact search of the full-domain generalization lattice (one level per QI) on the compressed
histogram: best-first by a monotone lower bound of the cost, with Flash/OLA-style predictive tagging
(Kohlmayer et al. 2012; El Emam et al. 2009) where the model's monotonicity allows it.

Order and proof. Nodes leave a queue in increasing (lower bound, sum of levels, levels) order. With a
bound that needs no grouping (loss, LM, entropy: the no-deletion cost) the queue is every node sorted
once; otherwise it is a heap that starts from the bottom node, a node's successors (one QI one level
higher) entering when it leaves with the bound it passes on. The lower bound is monotone up the lattice
(:mod:`.cost`), so when the next node's (bound, tie key) exceeds the incumbent's (cost, tie key), no node
left can beat or tie-break the incumbent: that bound is reported as the proof of optimality. Nothing is
sampled: every node that is not tagged is judged on all cells.

Tie-breaking (deterministic): among nodes of equal cost the one with the smallest sum of levels wins,
then the lexicographically smallest level vector in QI order. Costs are exact integers or fractions,
except entropy (floating point), whose costs within :data:`.cost.ENTROPY_TIE` of each other are equal.

Tagging (:mod:`.judge` says which model admits what). A node judged infeasible tags every node below it
infeasible when the model is monotone without suppression (limit 0) or merge-safe, or when the model's
merge-safe relaxation already deletes more rows than the limit; a feasible node tags every node above it
feasible when the model is monotone (limit 0) or merge-safe. A tagged-infeasible node is never judged;
a tagged-feasible node is not judged when its cost needs no groups (limit 0 with loss or LM: nothing is
deleted, the cost is the lower bound itself). Before judging a node whose feasibility is unknown, the
search probes upward (OLA's binary search on a path to the top, raising the QIs with more levels first):
judging a node high above tags a whole box of nodes below it at once. Where only the relaxation tags (a model not monotone with suppression), a
probe groups the node and tests the relaxation alone; its verdicts are kept in a status of their own,
tagged both ways (the relaxation is merge-safe), and the bisection runs on that status.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ...util.lazy import library
from .cost import Cost, Metric
from .judge import COUNTS, SIZES, Groups, Judge

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

UNKNOWN, FEASIBLE, INFEASIBLE = 0, 1, 2
CACHE = 256  # judged nodes whose groups are kept as starting points
ANCHOR_ROWS = 2048  # a start with more groups than this is replaced by the node's anchor
# keys below LOOKUP_PER_ROW·rows + LOOKUP_MIN are made dense by a table of the key range (a pass over it
# costs less than hashing the keys); larger ranges are hashed
LOOKUP_PER_ROW, LOOKUP_MIN = 32, 1 << 16
SORTED_LATTICE = 200_000  # up to this many nodes, a static bound's queue is one sort of the lattice
Node = tuple[int, ...]


@dataclass
class Space:
    """The histogram as the search sees it, cells with equal leaf vectors merged into one *row*.
    ``codes[j][k]``: each row's node of QI j at level k, coded densely 0..``sizes[j][k]``−1; ``base``: the
    rows as the finest partition (each row its own group; its SA value counts, and class counts)."""

    codes: Sequence[Sequence[np.ndarray]]
    sizes: Sequence[Sequence[int]]
    base: Groups
    scratch: Scratch = field(default_factory=lambda: Scratch())

    @property
    def heights(self) -> tuple[int, ...]:
        return tuple(len(c) for c in self.codes)

    def groups(self, levels: Sequence[int], start: Groups | None = None, detail: int = COUNTS) -> Groups:
        """The node's groups (rows with equal generalized vectors, their sizes and counts), rolled up from
        ``start``: the groups of any node below this one (default: the rows). ``detail`` says what the
        SA cells keep: :data:`COUNTS` (rows per group and value), :data:`PRESENCE` (the values present, no
        rows: distinct-l needs no more), :data:`SIZES` (no SA cells: k-anonymity)."""
        g = self.base if start is None else start
        rep = g.rep
        inv, n_groups = self._group_ids(levels, None if start is None else rep)
        if n_groups == len(rep):
            return g
        last = np.empty(n_groups, dtype=np.int64)  # a row of each group (the last one seen)
        last[inv] = np.arange(len(inv))
        n_sa = g.n_sa if detail > SIZES else 0
        cells = tuple(
            _merge_cells(inv, n_groups, g.triplets(s), g.width(s), detail, self.scratch) for s in range(n_sa)
        )
        klass = None
        if g.klass is not None:
            tg, tv, tn = g.triplets(-1)
            width = g.klass.shape[1]
            flat = np.bincount(inv[tg] * width + tv, weights=tn, minlength=n_groups * width)
            klass = flat.astype(np.int64).reshape(n_groups, width)
        size = np.bincount(inv, weights=g.size, minlength=n_groups).astype(np.int64)
        widths = tuple(g.width(s) for s in range(n_sa))
        return Groups(rep=rep[last], size=size, klass=klass, cells=cells, widths=widths)

    def _group_ids(self, levels: Sequence[int], rep: np.ndarray | None) -> tuple[np.ndarray, int]:
        """Dense group ids 0..g−1 of the rows ``rep`` (None: all the rows) at ``levels`` (their generalized
        vectors coded in a mixed radix, then made dense), and g."""
        n = len(self.base.size) if rep is None else len(rep)
        key = np.zeros(n, dtype=np.int64)
        span = 1
        for j, k in enumerate(levels):
            m = self.sizes[j][k]
            if m <= 1:
                continue
            codes = self.codes[j][k] if rep is None else self.codes[j][k][rep]
            if span == 1:
                key = codes.astype(np.int64)
            else:
                if span * m >= 1 << 62:
                    key = _dense(key)
                    span = int(key.max()) + 1
                key *= m
                key += codes
            span *= m
        top = int(key.max()) + 1 if n else 0
        if top > LOOKUP_PER_ROW * n + LOOKUP_MIN:  # a long key range: hashed
            inv = _dense(key)
            return inv, int(inv.max()) + 1 if n else 0
        seen = self.scratch.flags(top)  # a short one: a lookup table, no hashing
        seen[key] = True
        present = np.flatnonzero(seen)
        seen[present] = False
        if len(present) == n:
            return key, n
        rank = self.scratch.ranks(top)  # read only where a key is present
        rank[present] = np.arange(len(present), dtype=rank.dtype)
        return rank[key], len(present)


_NO_ROWS = np.zeros(0)


class Scratch:
    """Lookup tables kept from one grouping to the next (grown when too short): a fresh large array costs
    a page fault for every page a scatter touches. ``flags`` are all False between uses."""

    def __init__(self) -> None:
        self._flags = np.zeros(0, dtype=bool)
        self._ranks = np.zeros(0, dtype=np.int32)

    def flags(self, n: int) -> np.ndarray:
        if len(self._flags) < n:
            self._flags = np.zeros(n, dtype=bool)
        return self._flags[:n]

    def ranks(self, n: int) -> np.ndarray:
        """A table of n int32 (its content left from earlier uses)."""
        if len(self._ranks) < n:
            self._ranks = np.zeros(n, dtype=np.int32)
        return self._ranks[:n]


def _merge_cells(
    inv: np.ndarray,
    n_groups: int,
    cells: tuple[np.ndarray, np.ndarray, np.ndarray],
    width: int,
    detail: int,
    scratch: Scratch,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The non-zero (group, code, rows) cells of the new groups ``inv`` from those of the start: equal
    (new group, code) keys made dense by a presence table over the key range (a boolean pass, no dense
    count matrix; a sort where the range is long), then their rows summed (not for :data:`PRESENCE`: the
    rows are left empty)."""
    tg, tv, tn = cells
    top = n_groups * width
    wide = top >= 1 << 31
    key = inv[tg].astype(np.int64) if wide else inv[tg].astype(np.int32, copy=False)
    key *= width
    key += tv
    if top > LOOKUP_PER_ROW * len(key) + LOOKUP_MIN:  # a long key range (an SA of many values): sorted
        present, at = np.unique(key, return_inverse=True)
        gi, vi = np.divmod(present.astype(np.int64), max(1, width))
        if detail < COUNTS:
            return gi, vi, _NO_ROWS
        return gi, vi, np.bincount(at.ravel(), weights=tn, minlength=len(present))
    seen = scratch.flags(n_groups * width)
    seen[key] = True
    present = np.flatnonzero(seen)
    seen[present] = False
    gi, vi = np.divmod(present, max(1, width))
    if detail < COUNTS:
        return gi, vi, _NO_ROWS
    rank = scratch.ranks(n_groups * width)  # read only where a key is present
    rank[present] = np.arange(len(present), dtype=rank.dtype)
    rows = np.bincount(rank[key], weights=tn, minlength=len(present))
    return gi, vi, rows


def _dense(key: np.ndarray) -> np.ndarray:
    """Dense ids 0..g−1 of the distinct keys, in order of first appearance (hashing, no sort)."""
    codes, _ = pd.factorize(key, sort=False)
    return np.asarray(codes, dtype=np.int64)


@dataclass
class Best:
    cost: Cost
    levels: Node
    deleted: int
    groups: int

    def key(self) -> tuple[Cost, int, Node]:
        return (self.cost, sum(self.levels), self.levels)


@dataclass
class Result:
    best: Best | None
    lattice_size: int
    checked: int = 0  # nodes judged on their groups
    tagged: int = 0  # nodes whose state was set by tagging (some of them judged later for their cost)
    pruned_infeasible: int = 0  # nodes never judged: tagged infeasible by monotonicity
    tagged_feasible: int = 0  # nodes never judged: tagged feasible by monotonicity
    probes: int = 0  # of the checked nodes, those judged while probing upward
    relaxed: int = (
        0  # nodes grouped while probing only to test the model's relaxation (not counted as checked)
    )
    bounded: int = 0  # nodes not judged: the rows they must delete already price them above the optimum
    expanded: int = 0  # nodes taken from the queue
    proof_bound: Cost | None = None  # the lower bound that ended the search (None: lattice exhausted)
    seconds: float = 0.0


class Search:
    def __init__(self, space: Space, judge: Judge, metric: Metric, max_deleted: int) -> None:
        self.space, self.judge, self.metric = space, judge, metric
        self.max_deleted = max_deleted
        self.heights = space.heights
        self.status = np.zeros(self.heights, dtype=np.int8)
        self.judged: dict[Node, tuple[bool, Cost, int, int, Cost]] = {}
        self.zero = max_deleted == 0
        # tags downward (infeasible) and upward (feasible) are sound for the model itself when:
        self.tag_model = judge.merge_safe or (self.zero and judge.monotone)
        self.result = Result(best=None, lattice_size=int(np.prod(self.heights)))
        # judged nodes' groups, to roll the next node's groups up from the smallest one below it
        self.cache_levels = np.zeros((CACHE, len(self.heights)), dtype=np.int64)
        self.cache_size = np.full(CACHE, np.iinfo(np.int64).max, dtype=np.int64)
        self.cache_detail = np.zeros(CACHE, dtype=np.int8)  # what each kept partition holds (Space.groups)
        self.cache: list[Groups | None] = [None] * CACHE
        self.cache_next = 0
        self.anchors: dict[Node, Groups | None] = {}  # None: computed once, did not halve the rows
        self.use_anchors = True
        self.anchor_score = 0  # anchors that halved the rows minus those that did not
        # judged nodes and the rows their merge-safe test deletes (never more at any node below them)
        self.floor_levels = np.zeros((64, len(self.heights)), dtype=np.int64)
        self.floor_rows = np.zeros(64, dtype=np.int64)
        self.floors = 0
        # the relaxation's verdicts, known or tagged (models not monotone with suppression bisect on them)
        self.rstatus = np.zeros(self.heights, dtype=np.int8)
        self.tall_first = sorted(range(len(self.heights)), key=lambda j: -self.heights[j])  # probe paths

    # ------------------------------------------------------------------ judging and tagging
    def _tag(self, node: Node, state: int) -> None:
        box = (
            tuple(slice(0, k + 1) for k in node)
            if state == INFEASIBLE
            else tuple(slice(k, None) for k in node)
        )
        view = self.status[box]
        self.result.tagged += int((view == UNKNOWN).sum())
        view[view == UNKNOWN] = state

    def judge_node(self, node: Node) -> tuple[bool, Cost, int, int, Cost]:
        """(feasible, cost, deleted rows, published groups, no-deletion bound) of ``node``, judged once."""
        done = self.judged.get(node)
        if done is not None:
            return done
        self.result.checked += 1
        g = self.space.groups(node, self._start(node, self.judge.detail), self.judge.detail)
        self._keep(node, g, self.judge.detail)
        ok = self.judge.test(g)
        deleted = int(g.size[~ok].sum())
        feasible = deleted <= self.max_deleted
        bound = self.metric.bound(g)
        cost = self.metric.cost(node, g, ok) if feasible else 0
        if self.judge.merge_safe:
            self._floor(node, deleted)
        elif self.judge.relax is not None:
            self._relaxed(node, int(g.size[~self.judge.relax(g)].sum()))
        if feasible:
            self._offer(node, cost, deleted, int(ok.sum()))
            if self.tag_model:
                self._tag(node, FEASIBLE)
        elif self.tag_model or (self.judge.relax is not None and self.deleted_below(node) > self.max_deleted):
            self._tag(node, INFEASIBLE)
        self.status[node] = FEASIBLE if feasible else INFEASIBLE
        out = (feasible, cost, deleted, int(ok.sum()), bound)
        self.judged[node] = out
        return out

    def _relax_node(self, node: Node) -> None:
        """A probe of a model that is not monotone with suppression: only the merge-safe relaxation decides
        the bisection, so the node is grouped and the relaxation tested, not the model (nor the cost); a
        node whose relaxation deletes more than the limit is infeasible, with every node below it. The
        relaxation reads only the values present, so the grouping keeps no more."""
        assert self.judge.relax is not None
        self.result.relaxed += 1
        detail = min(self.judge.relax_detail, self.judge.detail)
        g = self.space.groups(node, self._start(node, detail), detail)
        self._keep(node, g, detail)
        self._relaxed(node, int(g.size[~self.judge.relax(g)].sum()))

    def _relaxed(self, node: Node, rows: int) -> None:
        """Record that the relaxation deletes ``rows`` at ``node``: beyond the limit (here or above), the
        node and every node below it are infeasible; within it, the relaxation passes at every node above
        (it is merge-safe), which is all the bisection of a probe needs to know."""
        self._floor(node, rows)
        over = self.deleted_below(node) > self.max_deleted
        if over:
            self._tag(node, INFEASIBLE)
        box = tuple(slice(0, k + 1) if over else slice(k, None) for k in node)
        view = self.rstatus[box]
        view[view == UNKNOWN] = INFEASIBLE if over else FEASIBLE

    def _floor(self, node: Node, rows: int) -> None:
        if rows <= 0:
            return
        if self.floors == len(self.floor_rows):
            self.floor_levels = np.concatenate([self.floor_levels, np.zeros_like(self.floor_levels)])
            self.floor_rows = np.concatenate([self.floor_rows, np.zeros_like(self.floor_rows)])
        self.floor_levels[self.floors] = node
        self.floor_rows[self.floors] = rows
        self.floors += 1

    def deleted_below(self, node: Node) -> int:
        """Rows the node must delete at least: the most any judged node at or above it deletes by a
        merge-safe test (the model's own when merge-safe, else its relaxation)."""
        if not self.floors:
            return 0
        above = (self.floor_levels[: self.floors] >= np.asarray(node)).all(axis=1)
        return int(self.floor_rows[: self.floors][above].max()) if above.any() else 0

    def _start(self, node: Node, detail: int) -> Groups | None:
        """The smallest known partition below ``node`` that holds ``detail``: a cached judged node, or the
        node's anchor (every level above 1 lowered to 1), computed once and kept when it halves the rows,
        so that no more than one pass over all the histogram rows is made per anchor."""
        best = self._cached(node, detail)
        anchor = tuple(min(k, 1) for k in node)
        if anchor == node or not self.use_anchors or (best is not None and len(best.size) <= ANCHOR_ROWS):
            return best
        if anchor in self.anchors:
            found = self.anchors[anchor]
            if found is None:  # an anchor that did not pay
                return best
        else:
            found = self.space.groups(anchor, self._cached(anchor, self.judge.detail), self.judge.detail)
            # an anchor pays (and is kept) where it halves the table's rows; on a table where most do not
            # (rows nearly unique up to level 1), stop making them
            halves = 2 * len(found.size) <= len(self.space.base.size)
            self.anchors[anchor] = found if halves else None
            self.anchor_score += 1 if halves else -1
            self.use_anchors = self.anchor_score > -3
        return found if best is None or len(found.size) < len(best.size) else best

    def _cached(self, node: Node, detail: int) -> Groups | None:
        """The kept partition with the fewest groups below ``node`` that holds ``detail``, if any."""
        kept = min(self.cache_next, CACHE)
        if not kept:
            return None
        below = (self.cache_levels[:kept] <= np.asarray(node)).all(axis=1) & (
            self.cache_detail[:kept] >= detail
        )
        i = int(np.argmin(np.where(below, self.cache_size[:kept], np.iinfo(np.int64).max)))
        return self.cache[i] if below[i] else None

    def _keep(self, node: Node, g: Groups, detail: int) -> None:
        i = self.cache_next % CACHE
        self.cache_next += 1
        self.cache_levels[i] = node
        self.cache_size[i] = len(g.size)
        self.cache_detail[i] = detail
        self.cache[i] = g

    def _probe(self, node: Node) -> None:
        """OLA's binary search on one path from ``node`` to the top: the path raises the QIs in turn, those
        with more levels first in each round (on Adult that tags as much with a third fewer groupings as
        QI order); the lowest feasible node of the path is found by bisection, and each judged node tags
        its box."""
        if not (self.tag_model or self.judge.relax is not None):
            return
        path = [node]
        cur = list(node)
        while True:
            moved = False
            for j in self.tall_first:
                if cur[j] + 1 < self.heights[j]:
                    cur[j] += 1
                    path.append(tuple(cur))
                    moved = True
            if not moved:
                break
        status = self.status if self.tag_model else self.rstatus
        lo, hi = 0, len(path) - 1
        while lo < hi and status[path[0]] == UNKNOWN:
            mid = (lo + hi) // 2
            if status[path[mid]] == UNKNOWN:
                if self.tag_model:
                    self.result.probes += 1
                    self.judge_node(path[mid])
                else:
                    self._relax_node(path[mid])
            if status[path[mid]] == INFEASIBLE:
                lo = mid + 1
            else:
                hi = mid

    # ------------------------------------------------------------------ the search
    def run(self, on_progress: Callable[[Result], None] | None = None) -> Result:
        """The search. With a metric whose no-deletion cost bounds every node (loss, LM, entropy) that bound
        is the queue's key, so on a lattice of at most :data:`SORTED_LATTICE` nodes the queue is simply
        every node sorted once by (bound, sum of levels, levels); otherwise nodes enter a heap as their
        predecessors leave it, keyed by the bound they pass on."""
        t0 = time.perf_counter()
        res = self.result
        if self.metric.static_bound and res.lattice_size <= SORTED_LATTICE:
            for key, _, node in self._static_order():
                end = self._ends(key, node)
                if end:
                    break
                if end is None:
                    self._expand(node, key, on_progress)
        else:
            self._best_first(on_progress)
        unjudged = np.ones(self.heights, dtype=bool)
        for node in self.judged:
            unjudged[node] = False
        res.pruned_infeasible = int(((self.status == INFEASIBLE) & unjudged).sum())
        res.tagged_feasible = int(((self.status == FEASIBLE) & unjudged).sum())
        res.seconds = time.perf_counter() - t0
        return res

    def _static_order(self) -> list[tuple[Cost, int, Node]]:
        nodes = list(itertools.product(*(range(h) for h in self.heights)))
        return sorted(zip(self.metric.static_all(self.heights), map(sum, nodes), nodes, strict=True))

    def _best_first(self, on_progress: Callable[[Result], None] | None) -> None:
        bottom: Node = tuple(0 for _ in self.heights)
        heap: list[tuple[Cost, int, Node]] = [(self.metric.static(bottom), 0, bottom)]
        keys: dict[Node, Cost] = {bottom: heap[0][0]}
        done: set[Node] = set()
        while heap:
            key, total, node = heapq.heappop(heap)
            if node in done or key < keys[node]:
                continue
            end = self._ends(key, node)
            if end:
                break
            done.add(node)
            if end is not None:
                continue
            child_key = self._expand(node, key, on_progress)
            for j, k in enumerate(node):
                if k + 1 < self.heights[j]:
                    succ = (*node[:j], k + 1, *node[j + 1 :])
                    if succ in done:
                        continue
                    sk = max(self.metric.static(succ), child_key) if self.metric.static_bound else child_key
                    if sk > keys.get(succ, -1):
                        keys[succ] = sk
                        heapq.heappush(heap, (sk, total + 1, succ))

    def _ends(self, key: Cost, node: Node) -> bool | None:
        """For the next node of the queue (bound ``key``): None to visit it; True when the search is over
        (no node left can beat or tie-break the incumbent: ``key`` is the proof); False to skip it (it ties
        the incumbent within the metric's tolerance and loses the tie-break; a later node may still win)."""
        best = self.result.best
        if best is None or not self._after(key, node):
            return None
        tol = self.metric.tolerance(best.cost)
        if not tol or key > best.cost + tol:
            self.result.proof_bound = key
            return True
        return False

    def _expand(self, node: Node, key: Cost, on_progress: Callable[[Result], None] | None) -> Cost:
        self.result.expanded += 1
        child_key = self._visit(node, key)
        if on_progress is not None and self.result.expanded % 256 == 0:
            on_progress(self.result)
        return child_key

    def _visit(self, node: Node, key: Cost) -> Cost:
        """Decide one node taken from the queue; return the lower bound it passes to its successors."""
        if node not in self.judged and self.status[node] != INFEASIBLE and self._priced_out(node):
            self.result.bounded += 1
            return key
        if self.status[node] == UNKNOWN and node not in self.judged:
            self._probe(node)
        if node not in self.judged:
            state = self.status[node]
            if state == INFEASIBLE:
                return key
            if state == FEASIBLE and self.zero and self.metric.static_bound:
                self._offer(node, self.metric.static(node), 0, -1)
                return key
            if self._priced_out(node):
                self.result.bounded += 1
                return key
        bound = self.judge_node(node)[4]
        return key if self.metric.static_bound else max(key, bound)

    def _priced_out(self, node: Node) -> bool:
        """True when the rows the node must delete (``deleted_below``) already price it above the incumbent."""
        if not self.metric.static_bound or self.zero or self.result.best is None:
            return False
        return self._after(self.metric.static_deleting(node, self.deleted_below(node)), node)

    def _after(self, cost: Cost, node: Node) -> bool:
        """True when a node costing ``cost`` or more can neither beat the incumbent nor win its tie-break
        (costs within the metric's tolerance of each other are equal)."""
        best = self.result.best
        assert best is not None
        tol = self.metric.tolerance(best.cost)
        if not tol:
            return (cost, sum(node), node) > best.key()
        if cost > best.cost + tol or cost < best.cost - tol:
            return cost > best.cost
        return (sum(node), node) > best.key()[1:]

    def _offer(self, node: Node, cost: Cost, deleted: int, groups: int) -> None:
        best = self.result.best
        if best is not None:
            tol = self.metric.tolerance(best.cost)
            if not tol:
                worse = (cost, sum(node), node) >= best.key()
            else:
                worse = cost >= best.cost - tol and self._after(cost, node)
            if worse:
                return
        self.result.best = Best(cost, node, deleted, groups)
