"""A top-down "feasible split" construction of BSGI's classes (``--refine exchange``, single SA, no
individual column): Mondrian-like cuts that are only made where every part can still be dealt into
classes of distinct SA values with the target sizes.

Let k be the class count of the Max-l greedy (BSGI Theorem 1's maximum), n the rows, s = n // k.

**Lemma (dealing).** A node of n' rows can be dealt into k' classes whose sizes are in {s, s + 1} and
whose SA values are all distinct iff (a) k'·s ≤ n' ≤ k'·(s + 1) and (b) every SA value occurs at most
k' times in the node. *Necessity*: k' classes of sizes in [s, s + 1] hold between k'·s and k'·(s + 1)
rows, and a value in a class of distinct values occurs once per class at most. *Sufficiency*: sort the
node's rows by SA value and give the j-th row to class j mod k'. The class sizes differ by at most one
and sum to n', so each is ⌊n'/k'⌋ or ⌈n'/k'⌉, both in [s, s + 1] by (a); a value occupies at most k'
consecutive positions, whose residues mod k' are distinct, so no class holds it twice. When k divides n
every class then has exactly s rows (the sizes sum to k·s), otherwise the sizes are s and s + 1; either
way Σ|G|² (DM) is the least any k classes of n rows can have, so it is never above the greedy's.

**Cuts.** Sort a node's rows along one QI and cut it at position p into (p rows, k1 classes) and
(n' − p rows, k' − k1 classes). Each part can be dealt iff it meets (a) and (b), so the cut is
*admissible* iff some integer k1 satisfies

    max(⌈p/(s+1)⌉, M_L(p), k' − ⌊(n'−p)/s⌋) ≤ k1 ≤ min(⌊p/s⌋, k' − ⌈(n'−p)/(s+1)⌉, k' − M_R(p))

where M_L(p) (M_R(p)) is the largest per-value count of the prefix (suffix). M_L is the running maximum
of "occurrence number of this row's value so far", so every position of every node of a level is
checked with a few numpy operations segmented by node (the suffix likewise, from the end). Every node
made meets (a) and (b), so by
induction every leaf node (k' = 1) is a class of distinct values and size s or s + 1; the root meets (a)
by the choice of s and (b) iff no SA value has more than k rows (else :func:`split` returns ``None``:
then the greedy had to repeat values).

**Near-prefix split.** A node with no admissible cut is still cut, keeping as much
of a prefix as the counts allow: k1 = ⌊k'/2⌋, p = the value nearest n'·k1/k' in
I = [max(k1·s, n' − (k' − k1)(s + 1)), min(k1(s + 1), n' − (k' − k1)·s)], and the left part takes, of
each SA value v (c_v rows in the node), its first t_v rows in the sorted order with t_v in
[L_v, U_v] = [max(0, c_v − (k' − k1)), min(c_v, k1)] and Σ t_v = p: t_v starts as v's count in the
prefix of p rows, clipped to [L_v, U_v]; the shortfall (excess) is made up by the rows nearest the cut
position that may still join (leave) the left. Both parts then meet (a) and (b). Such t_v exist: deal the
node by the lemma into classes of sizes f and f + 1 (f = ⌊n'/k'⌋); the totals of k1 of these classes
cover I exactly (for f = s, I = k1·s + [max(0, r − k' + k1), min(k1, r)] with r = n' − k'·s, which
are the totals of k1 classes of which r are larger; for f = s + 1, r = 0 and I = {k1(s + 1)}), and
k1 classes of distinct values hold at most min(c_v, k1) and at least c_v − (k' − k1) rows of v, so
Σ L_v ≤ p ≤ Σ U_v. Hence every node with k' ≥ 2 is cut and the recursion ends in classes; the lemma's
deal (:func:`deal`) is the proof, not a step of the construction.

**Rule per level** (every node with k' ≥ 2 at once): the node's QIs are ranked by the weighted cost of
its span (Mondrian's widest normalized range: the scaled NCP of min..max codes; hierarchical codes are
preorder node ids, so subtrees are contiguous). Along each of the ``TRIES`` widest, the rows are sorted
by (that QI's code, locality key) and cut at the admissible position whose two parts have the least
Σ rows × span cost over all QIs (nearest the middle on ties; k1: the admissible value closest to
k'·p/n'), else by the near-prefix split. Of these cuts the node takes the one whose parts have the
least Σ rows × span cost (the first on ties). Each QI's span of every prefix and suffix is a running
minimum and maximum of its codes within the node, so pricing every admissible position of a level is
four accumulations per QI over all rows. About log2(k) levels (more where the cheapest cut is lopsided);
each is a few sorts and segmented numpy reductions over all rows.

Threads (``threads`` ≥ 2; built beside the greedy, only once the greedy has finished): a level's
``TRIES`` attempts read the level's rows and write nothing shared, and each is made in pieces of whole
nodes (:mod:`.pieces`), so the pieces run side by side (numpy leaves the interpreter lock while it sorts
and accumulates) and each piece's attempts are compared in their order: the same cuts, whatever the
threads and pieces.

Positions are priced rather than cut near the middle between two different codes: at s = 3 rows per
class a part must hold a multiple of 3 rows, so such a cut is rarely admissible and most nodes would fall
back to the near-prefix split at the middle (what pricing gains: bench/README.md, "BSGI refinement").
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ...shared.lca import stable_order
from ...shared.trees import IntArray, narrow_dtype
from .exchange import Refiner
from .pieces import Cut, Sides, best_in_pieces, choose, in_pieces
from .pieces import Rows as _Rows
from .runs import block_extremes, index_type, occurrences, segmented_max, sort_rows, strided

TRIES = 3  # a node is cut along the best of its TRIES widest QIs


@dataclass
class _Level:
    """The live nodes of a level: their rows (``perm``, nodes contiguous in order), sizes, classes, and
    where each node's rows begin in the split tree's depth-first order of all rows (``pos``); with
    ``rows``, the QI codes, SA values and locality keys of ``perm`` in its order (``None`` at the root,
    where they are the splitter's own)."""

    perm: IntArray
    lens: IntArray
    ks: IntArray
    pos: IntArray
    spans: npt.NDArray[np.float64] | None = None  # per node and QI the scaled cost of its span, if known
    rows: _Rows | None = None

    @property
    def starts(self) -> IntArray:
        return np.concatenate([[0], np.cumsum(self.lens)[:-1]]).astype(np.int64)

    def seg(self) -> IntArray:
        return np.repeat(np.arange(len(self.lens), dtype=index_type(len(self.perm))), self.lens)


def deal(value: IntArray, key: IntArray, seg: IntArray, ks: IntArray) -> IntArray:
    """The lemma's round-robin: per segment (rows grouped by ``seg``, ascending), the class 0..k'-1 of
    each row when the segment's rows, sorted by (value, key), are dealt in turn."""
    order = np.lexsort((key, value, seg))
    start = np.searchsorted(seg[order], seg[order], side="left")
    local = np.arange(len(seg), dtype=np.int64) - start
    out = np.empty(len(seg), dtype=np.int64)
    out[order] = local % ks[seg[order]]
    return out


def _cuts(
    value: IntArray,
    seg: IntArray,
    lens: IntArray,
    ks: IntArray,
    s: int,
    price: Callable[[IntArray], npt.NDArray[np.float64]],
    j: IntArray | None = None,
    counted: tuple[IntArray, IntArray] | None = None,
) -> tuple[IntArray, IntArray]:
    """For sorted rows grouped by ``seg``: per segment the admissible cut of the least ``price`` (of
    the positions j cut before, p = j − segment start ≥ 1), nearest the middle on ties, then the lower
    (position p in its rows, −1 if none), and its k1. The positions looked at are those whose parts can
    have sizes in {s, s + 1} (:func:`_sized`); ``j`` (every position, ascending) gives the same cuts.
    ``counted``: :func:`occurrences` of these rows, if the caller has them."""
    m = len(lens)
    occ, rest = occurrences(value, seg) if counted is None else counted
    j = _sized(lens, ks, s) if j is None else j  # cut before row j (p ≥ 1)
    # every node and position at a multiple of s (k' divides n' throughout, as in the 1M table): the
    # running maxima over blocks of s rows, whose maxima are one strided pass — a fraction of the rows
    width = s if s > 1 and not (lens % s).any() and not (j % s).any() else 1
    if width > 1:
        bseg = seg[::width]
        m_left = segmented_max(strided(np.maximum, occ, width), bseg, reverse=False)[j // width - 1]
        m_right = segmented_max(strided(np.maximum, rest, width), bseg, reverse=True)[j // width]
        del bseg
    else:
        m_left = segmented_max(occ, seg, reverse=False)[j - 1]
        m_right = segmented_max(rest, seg, reverse=True)[j]
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    sj = seg[j]
    p, size, k = j - starts[sj], lens[sj], ks[sj]
    q = size - p
    # chained, not ``np.maximum.reduce([...])``, which stacks its three arrays into one first
    lo = np.maximum(np.maximum(-(-p // (s + 1)), m_left), k - q // s)
    hi = np.minimum(np.minimum(p // s, k - (-(-q // (s + 1)))), k - m_right)
    del m_left, m_right
    ok = lo <= hi
    j, sj, p, size, k, lo, hi = (x[ok] for x in (j, sj, p, size, k, lo, hi))
    cut = np.full(m, -1, dtype=np.int64)
    k1 = np.zeros(m, dtype=np.int64)
    if not len(sj):
        return cut, k1
    # per segment the cheapest position, then the nearest its middle, then the lower: positions come
    # grouped by segment, so two segmented minima find it without a sort
    seg_start = np.flatnonzero(np.r_[True, sj[1:] != sj[:-1]])
    seg_len = np.diff(np.append(seg_start, len(sj)))
    cost = price(j)
    least = np.repeat(np.minimum.reduceat(cost, seg_start), seg_len)
    middle = np.where(cost == least, np.abs(2 * p - size) * (size + 1) + p, np.iinfo(np.int64).max)
    first = np.flatnonzero(middle == np.repeat(np.minimum.reduceat(middle, seg_start), seg_len))
    cut[sj[first]] = p[first]
    want = (2 * k[first] * p[first] + size[first]) // (2 * size[first])
    k1[sj[first]] = np.clip(want, lo[first], hi[first])
    return cut, k1


def _sized(lens: IntArray, ks: IntArray, s: int) -> IntArray:
    """The positions j (ascending) at which a node (``lens`` rows, ``ks`` ≥ 2 classes, contiguous) may be
    cut by the size conditions alone: p rows into k1 classes and the rest into k' − k1 needs
    k1·s ≤ p ≤ k1·(s + 1) and (k' − k1)·s ≤ n' − p ≤ (k' − k1)·(s + 1), i.e. with r' = n' − k'·s,
    p ∈ [k1·s + max(0, r' − (k' − k1)), k1·s + min(k1, r')] for some k1 in 1..k' − 1. Every admissible
    cut is among them (its k1 meets these conditions), so :func:`_cuts` finds the same cuts over them as
    over every position: where k' divides n' (r' = 0, the 1M table's s = 4) they are every s-th row."""
    m = len(lens)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    total = int(lens.sum())
    if not m:
        return np.zeros(0, dtype=np.int64)
    per = ks - 1  # the k1 of each node
    node = np.repeat(np.arange(m, dtype=np.int64), per)
    k1 = np.arange(len(node), dtype=np.int64) - np.repeat(np.cumsum(per) - per, per) + 1
    r, k = lens[node] - ks[node] * s, ks[node]
    first = starts[node] + k1 * s + np.maximum(0, r - (k - k1))
    last = starts[node] + k1 * s + np.minimum(k1, r)
    # the intervals may overlap: marked by a running count of intervals open at each position
    edges = np.bincount(first, minlength=total + 1) - np.bincount(last + 1, minlength=total + 1)
    return np.flatnonzero(np.cumsum(edges[:total]) > 0)


def _near_prefix(
    value: IntArray,
    seg: IntArray,
    lens: IntArray,
    ks: IntArray,
    s: int,
    counted: tuple[IntArray, IntArray] | None = None,
) -> tuple[IntArray, IntArray, IntArray]:
    """For sorted rows grouped by ``seg`` (every segment dealable): the near-prefix split of each
    segment (see the module docstring): which rows go left, and per segment p and k1."""
    occ, rest = occurrences(value, seg) if counted is None else counted
    cnt = occ + rest - 1  # the value's count in the segment
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    local = np.arange(len(seg), dtype=np.int64) - starts[seg]
    k1 = ks // 2
    lo = np.maximum(k1 * s, lens - (ks - k1) * (s + 1))
    hi = np.minimum(k1 * (s + 1), lens - (ks - k1) * s)
    p = np.clip((lens * k1 + ks // 2) // ks, lo, hi)
    low = np.maximum(0, cnt - (ks - k1)[seg])
    high = np.minimum(cnt, k1[seg])
    group = seg.astype(np.int64) * (int(value.max()) + 1) + value
    natural = np.bincount(group, weights=local < p[seg], minlength=int(group.max()) + 1)[group]
    take = np.clip(natural.astype(np.int64), low, high)  # per row: its value's left count
    first = occ == 1
    deficit = p - np.bincount(seg[first], weights=take[first], minlength=len(lens)).astype(np.int64)
    left = occ <= take
    more = np.flatnonzero((occ > take) & (occ <= high))  # rows that may join the left, nearest first
    left[_nearest(more, seg, local, np.maximum(deficit, 0), len(lens))] = True
    fewer = np.flatnonzero((occ <= take) & (occ > low))  # rows that may leave it, nearest first
    left[_nearest(fewer, seg, -local, np.maximum(-deficit, 0), len(lens))] = False
    return left, p, k1


def _nearest(rows: IntArray, seg: IntArray, dist: IntArray, want: IntArray, m: int) -> IntArray:
    """Per segment, its ``want`` rows of ``rows`` with the smallest ``dist``."""
    d = dist[rows]
    low = int(d.min()) if len(d) else 0
    span = (int(d.max()) - low + 1) if len(d) else 1
    # by segment, then distance (lexsort's order)
    order = rows[stable_order(seg[rows].astype(np.int64) * span + (d - low))]
    sg = seg[order]
    rank = np.arange(len(order)) - np.searchsorted(sg, sg, side="left")
    return order[rank < want[sg]]


class _Splitter:
    """The level loop of :func:`split` (see the module docstring)."""

    def __init__(
        self,
        refiner: Refiner,
        key: IntArray,
        k: int,
        tries: int,
        pool: Executor | None = None,
        wide: threading.Event | None = None,
        pool_width: int = 1,
    ) -> None:
        self.pool = pool  # runs a level's attempts beside the calling thread's
        self.pool_width = pool_width  # the pool's threads
        self.wide = wide  # the pool is used only once this is set (None: always)
        self.attrs = refiner.attrs
        self.big = max((int(a.codes.max()) + 1 for a in self.attrs if len(a.codes)), default=1)  # codes < big
        # the codes of every QI in one array to gather a node's sort column from: 32-bit where they fit
        # (half the memory of 64 bits; widened again per gather)
        narrow = narrow_dtype(*(a.codes for a in self.attrs))
        self.codes: IntArray = np.stack([a.codes.astype(narrow, copy=False) for a in self.attrs])
        self.value = refiner.distinct[0]
        self.key = key
        self.n = len(key)
        self.s = self.n // k
        self.tries = max(1, min(tries, len(self.attrs)))
        self.gid = np.full(self.n, -1, dtype=np.int64)
        self.order = np.full(self.n, -1, dtype=index_type(self.n))
        self.classes = 0
        self.near = 0  # cuts made by the near-prefix split

    def _span_cost(self, codes: IntArray, rows: IntArray | None, lens: IntArray) -> npt.NDArray[np.float64]:
        """Per segment of ``rows`` (positions in ``codes``, QIs × positions; contiguous, lengths
        ``lens`` ≥ 1; ``None``: every position in order) and QI: the scaled cost of its span."""
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
        cost = np.zeros((len(lens), len(self.attrs)))
        for i, at in enumerate(self.attrs):
            c = codes[i] if rows is None else np.take(codes[i], rows)
            # the QI's own integer type again: the narrow codes' extremes are the same numbers
            lo = np.minimum.reduceat(c, starts).astype(at.codes.dtype, copy=False)
            hi = np.maximum.reduceat(c, starts).astype(at.codes.dtype, copy=False)
            cost[:, i] = at.cost(at.join(at.state(lo), at.state(hi)))
        return cost

    def _price(
        self, codes: IntArray, rows: IntArray, seg: IntArray, j: IntArray, sides: Sides | None = None
    ) -> npt.NDArray[np.float64]:
        """Per position j of the nodes' sorted ``rows`` (positions in ``codes``, QIs × positions; segments
        ``seg``; a cut before row j): p·span
        cost of the part before it + q·span cost of the part from it (p, q their rows), summed over the
        QIs — the parts' Σ rows × NCP in scaled units; with ``sides``, each QI's span cost of either part
        at every position is kept there. Each QI's span on either side is a running minimum
        and maximum within the segment; two offset arrays keep the runs of segments apart."""
        # only the nodes with an admissible position are priced (from the middle levels on most nodes have
        # none and are cut by the near-prefix split): their rows alone, in order
        if not len(j):
            return np.zeros(0)
        if sides is not None:
            sides.j = j
            sides.left = np.zeros((len(self.attrs), len(j)))
            sides.right = np.zeros((len(self.attrs), len(j)))
        need = np.zeros(int(seg[-1]) + 1, dtype=bool)
        need[seg[j]] = True
        keep = np.flatnonzero(need[seg])
        if len(keep) < len(seg):
            rows, seg, j = rows[keep], seg[keep], np.searchsorted(keep, j)
        # the rows between two consecutive cut positions (or a node's start) are a block: a prefix or
        # suffix of a node ends at a block's edge, so its extremes are running extremes of the blocks'
        # (the same numbers, over a fraction of the rows where positions are few)
        edge = np.r_[True, seg[1:] != seg[:-1]]
        first = np.flatnonzero(edge)  # each node's first row
        edge[j] = True
        bounds = np.flatnonzero(edge)
        del edge
        width = self.s
        # every edge a multiple of s (nodes of whole classes of s rows cut at multiples of s): blocks of s
        # rows each instead, reduced by columns — reduceat pays per block, ten times as much at a few rows
        uniform = width > 1 and len(seg) % width == 0 and not (bounds % width).any()
        if uniform:
            bounds = np.arange(0, len(seg), width)
        bseg = seg[bounds]
        big = self.big
        last = int(bseg[-1])
        # the narrower the integers, the faster the runs
        dtype: type[np.signedinteger[Any]] = np.int32 if big * (last + 1) < 2**31 else np.int64
        # up grows along the blocks, so a running maximum forwards stays within its node; down shrinks,
        # the same for a running minimum forwards (and, read backwards, the other way round)
        up: npt.NDArray[np.signedinteger[Any]] = bseg.astype(dtype) * big
        down: npt.NDArray[np.signedinteger[Any]] = (last - bseg.astype(dtype)) * big
        # the block from the cut on; the one before it ends at the cut
        k = j // width if uniform else np.searchsorted(bounds, j)
        i = k - 1
        # each position's node: where its rows begin and end
        node_first = np.zeros(last + 1, dtype=np.int64)
        node_end = np.zeros(last + 1, dtype=np.int64)
        node_first[seg[first]] = first
        node_end[seg[first]] = np.append(first[1:], len(seg))
        sj = seg[j]
        p = (j - node_first[sj]).astype(np.float64)
        q = node_end[sj] - j
        del sj, first
        left = np.zeros(len(j))
        right = np.zeros(len(j))
        up_i, down_i, up_k, down_k = (x.astype(np.int64) for x in (up[i], down[i], up[k], down[k]))
        back = len(bounds) - 1 - k  # k's place in the blocks read backwards
        # np.take, the cheaper gather; the backward runs are read where they stand, not through a reversed view
        for qi, at in enumerate(self.attrs):
            bmin, bmax = block_extremes(np.take(codes[qi], rows), bounds, width if uniform else 0)
            bmin, bmax = bmin.astype(dtype, copy=False), bmax.astype(dtype, copy=False)
            lo = np.take(np.minimum.accumulate(bmin + down), i) - down_i
            hi = np.take(np.maximum.accumulate(bmax + up), i) - up_i
            part = at.cost(at.join(at.state(lo), at.state(hi)))
            left += part
            if sides is not None:
                sides.left[qi] = part
            lo = np.take(np.minimum.accumulate((bmin + up)[::-1]), back) - up_k
            hi = np.take(np.maximum.accumulate((bmax + down)[::-1]), back) - down_k
            part = at.cost(at.join(at.state(lo), at.state(hi)))
            right += part
            if sides is not None:
                sides.right[qi] = part
        out: npt.NDArray[np.float64] = p * left + q * right
        return out

    def _attempt(
        self,
        at: _Rows,
        seg: IntArray,
        lens: IntArray,
        ks: IntArray,
        qi: IntArray,
        sized: IntArray,
        lo: int = 0,
    ) -> Cut:
        """Sort each node's rows by (QI ``qi[node]``, locality key) and cut it: the admissible cut whose
        parts cost least (:meth:`_price`) among the positions ``sized`` (:func:`_sized` of the level,
        the same for every attempt), else the near-prefix split; priced by its parts' span costs. The
        nodes' rows are the level's rows ``at`` from ``lo`` on (``seg``, ``sized`` counted from there);
        the cut's ``rows`` are positions among them."""
        size = len(seg)
        # one flat take (numpy's two-array indexing costs 3× as much)
        flat = qi.astype(np.int64)[seg] * at.codes.shape[1] + np.arange(lo, lo + size, dtype=np.int64)
        code = np.take(at.codes.reshape(-1), flat).astype(np.int64)
        del flat
        at = at.part(lo, size)
        rows = sort_rows(seg, code, at.key, self.n)
        del code
        value = np.take(at.value, rows)
        # counted once: a node's occurrence numbers are its own rows' (whole nodes go to the near-prefix
        # split, in the same order), so the near-prefix split reads them from the cut search's
        counted = occurrences(value, seg)
        sides = Sides()
        price = functools.partial(self._price, at.codes, rows, seg, sides=sides)
        cut, k1 = _cuts(value, seg, lens, ks, self.s, price, j=sized, counted=counted)
        missed = cut < 0
        near = np.flatnonzero(missed)
        if len(near):
            inner = cut[seg] < 0
            sub = np.searchsorted(near, seg[inner])
            mine = (counted[0][inner], counted[1][inner])
            left, cut[near], k1[near] = _near_prefix(value[inner], sub, lens[near], ks[near], self.s, mine)
            rows[inner] = rows[inner][stable_order(sub * 2 + ~left)]  # per node, its left part first
        del counted
        parts = np.stack([cut, lens - cut], axis=1).reshape(-1)
        spans = np.empty((len(parts), len(self.attrs)))
        # an admissible cut's parts were priced by the cut search, QI by QI: their span costs are read
        # from it; the near-prefix splits' parts are priced here
        cuts = np.flatnonzero(~missed)
        if len(cuts):
            starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
            at_j = np.searchsorted(sides.j, starts[cuts] + cut[cuts])
            spans[2 * cuts] = np.take(sides.left, at_j, axis=1).T
            spans[2 * cuts + 1] = np.take(sides.right, at_j, axis=1).T
        del sides
        if len(near):
            halves = np.stack([2 * near, 2 * near + 1], axis=1).reshape(-1)
            spans[halves] = self._span_cost(at.codes, rows[inner], parts[halves])
        cost = spans.sum(axis=1) * parts
        return Cut(rows, cut, k1, cost.reshape(-1, 2).sum(axis=1), missed, spans.reshape(len(lens), -1))

    def _finish(self, rows: IntArray, lens: IntArray, pos: IntArray) -> None:
        """Nodes of one class each become classes; their rows take their places in the tree's order."""
        self.gid[rows] = self.classes + np.repeat(np.arange(len(lens), dtype=np.int64), lens)
        self.classes += len(lens)
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
        self.order[rows] = np.arange(len(rows), dtype=np.int64) + np.repeat(pos - starts, lens)

    def level(self, lv: _Level) -> _Level:
        """One level: classes leave, every other node is cut along the best of its ``tries`` widest QIs
        (the lowest Σ rows × span cost of its two parts); returns the next level. Beside the greedy
        (``wide`` not set) attempts are made whole: a piece's short steps would each hand the interpreter
        lock back and forth with the greedy's Python. With the pool in use, in pieces (:mod:`.pieces`):
        from the level's start with the choice and the next level's rows (:meth:`_by_pieces`) too."""
        leaf, inner = None, lv.ks >= 2
        if not inner.all():  # (most levels have no class yet: no per-row mask, no copies)
            leaf = np.repeat(~inner, lv.lens)
            self._finish(lv.perm[leaf], lv.lens[~inner], lv.pos[~inner])
        rows, keep = (lv.perm, slice(None)) if leaf is None else (lv.perm[~leaf], inner)
        lens, ks, pos = lv.lens[keep], lv.ks[keep], lv.pos[keep]
        if not len(lens):
            return _Level(rows, lens, ks, pos)
        at = self._rows(lv, leaf)
        lv.rows = None  # the level is consumed: its copies go before the next level's are made
        # a node's spans were priced when it was made, as a part of its parent's cut: not again
        spans = self._span_cost(at.codes, None, lens) if lv.spans is None else lv.spans[keep]
        done: list[Cut] = []
        wide, whole = self.wide, None
        while len(done) < self.tries and (self.pool is None or (wide is not None and not wide.is_set())):
            if whole is None:  # the positions the size conditions allow: the level's, not an attempt's
                seg = np.repeat(np.arange(len(lens), dtype=index_type(self.n)), lens)
                whole = (seg, np.argsort(-spans, axis=1, kind="stable"), _sized(lens, ks, self.s))
            done.append(self._attempt(at, whole[0], lens, ks, whole[1][:, len(done)], whole[2]))
        if whole is not None and self.pool is not None and len(done) < self.tries:
            attempt = functools.partial(self._attempt, at)
            rest = range(len(done), self.tries)
            done += in_pieces(
                self.pool, self.pool_width, attempt, whole[0], lens, ks, whole[1], whole[2], rest
            )
        if done:
            best = choose(done, lens)
            new_rows, perm = at.take(best.rows), np.take(rows, best.rows)
        else:
            best, new_rows, perm = self._by_pieces(at, rows, lens, ks, spans)
        self.near += int(best.near.sum())
        new_lens = np.stack([best.cut, lens - best.cut], axis=1).reshape(-1)
        new_ks = np.stack([best.k1, ks - best.k1], axis=1).reshape(-1)
        new_pos = np.stack([pos, pos + best.cut], axis=1).reshape(-1)
        spans = best.spans.reshape(len(new_lens), -1)  # each part's, in the order of the new nodes
        return _Level(perm, new_lens.astype(np.int64), new_ks.astype(np.int64), new_pos, spans, new_rows)

    def _by_pieces(
        self, at: _Rows, rows: IntArray, lens: IntArray, ks: IntArray, spans: npt.NDArray[np.float64]
    ) -> tuple[Cut, _Rows, IntArray]:
        """The level's best cut made in pieces (:func:`~.pieces.best_in_pieces`), each piece's nodes, sort
        columns and sized positions its own, the next level's rows and row ids gathered piece by piece."""
        assert self.pool is not None
        starts = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
        out = _Rows(np.empty_like(at.codes), np.empty_like(at.value), np.empty_like(at.key))
        perm = np.empty_like(rows)
        inputs: dict[int, tuple[IntArray, IntArray, IntArray]] = {}

        def attempt(a: int, b: int, r: int) -> Cut:
            got = inputs.get(a)
            if got is None:  # the piece's: the same numbers as the whole level's, from its first row
                seg = np.repeat(np.arange(b - a, dtype=index_type(self.n)), lens[a:b])
                rank = np.argsort(-spans[a:b], axis=1, kind="stable")
                got = inputs.setdefault(a, (seg, rank, _sized(lens[a:b], ks[a:b], self.s)))
            return self._attempt(at, got[0], lens[a:b], ks[a:b], got[1][:, r], got[2], int(starts[a]))

        def finish(a: int, b: int, cut: Cut) -> None:
            lo = int(starts[a])
            at.part(lo, int(starts[b]) - lo).take_into(cut.rows, out, lo)
            np.take(rows[lo : starts[b]], cut.rows, out=perm[lo : starts[b]], mode="clip")
            inputs.pop(a, None)

        return best_in_pieces(self.pool, self.pool_width, self.tries, lens, attempt, finish), out, perm

    def _root(self) -> _Rows:
        """The root's per-row arrays: the codes as they are, the SA values and keys narrowed (every level
        copies them; the same numbers)."""
        small = index_type(self.n)
        return _Rows(
            self.codes, self.value.astype(narrow_dtype(self.value), copy=False), self.key.astype(small)
        )

    def _rows(self, lv: _Level, leaf: npt.NDArray[np.bool_] | None) -> _Rows:
        """The per-row arrays of the level's rows that are not leaves (``leaf``: none if None), in order."""
        at = lv.rows if lv.rows is not None else self._root()
        if lv.rows is None and not np.array_equal(lv.perm, np.arange(self.n)):
            at = at.take(lv.perm)  # a level not built by this splitter (its rows given by id)
        if leaf is None or not leaf.any():
            return at
        inner = ~leaf
        return _Rows(
            np.compress(inner, at.codes, axis=1), np.compress(inner, at.value), np.compress(inner, at.key)
        )


@dataclass
class Split:
    gid: IntArray  # per row position: class 0..k-1
    levels: int
    near: int  # cuts made by the near-prefix split (no admissible cut)
    order: IntArray  # per row position: its place in the split tree's depth-first order (0..n-1)


def split(
    refiner: Refiner,
    key: IntArray,
    k: int,
    tries: int = TRIES,
    stop: threading.Event | None = None,
    threads: int = 1,
    wide: threading.Event | None = None,
) -> Split | None:
    """The feasible-split partition of the refiner's rows into k classes (sizes in {n//k, n//k + 1},
    distinct SA values in each), rows sorted second by ``key`` (the locality key); ``None`` when some SA
    value has more than k rows (no such partition exists), or when ``stop`` is set (checked per level).
    ``threads``: how many of a level's attempts run at once (module docstring); with ``wide``, one at a
    time until it is set (the greedy beside has finished), checked per level."""
    n = len(key)
    value = refiner.distinct[0]
    if k < 1 or n < k or (n and int(np.bincount(value).max()) > k):
        return None
    width = min(threads, tries) - 1
    with ThreadPoolExecutor(width, "ldiv-bsgi-split") if width > 0 else contextlib.nullcontext() as pool:
        return _levels(_Splitter(refiner, key, k, tries, pool, wide, max(width, 1)), n, k, stop)


def _levels(sp: _Splitter, n: int, k: int, stop: threading.Event | None) -> Split | None:
    """The level loop from the root node of ``n`` rows and ``k`` classes (None when stopped)."""
    lv = _Level(
        np.arange(n, dtype=index_type(n)),
        np.array([n], dtype=np.int64),
        np.array([k], dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    levels = 0
    while len(lv.lens):
        if stop is not None and stop.is_set():
            return None
        lv = sp.level(lv)
        levels += 1
    return Split(sp.gid, levels, sp.near, sp.order)
