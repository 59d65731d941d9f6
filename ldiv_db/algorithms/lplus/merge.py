"""Merging the cells that locked values make alike: the l+-Optimize search at scale.

Below a DFS frame, a locked cut node ``u`` of attribute ``a`` is never specialized again, so every cell
under ``u`` keeps node ``u`` for ``a`` in every cut of that subtree, and its Cut_spec image holds ``u``
too (in the full-domain space, a locked attribute keeps its level's node in every cell). Two cells that
differ only in such leaves (same SA value and class, the same node elsewhere) then fall in the same
partition of every cut the subtree visits: they are one cell with the summed count. On
a table where nearly every row is its own QI vector (the amplified Adult: 761,839 cells of 1M rows) the
locks of the first values collapse most of them, and a search's cost is proportional to the cells it
touches.

When the cells locked since the search (or sub-search) began reach a share of its cells, a frame counts
the distinct (effective node vector, SA[, class]) cells at its next stage; when they are few enough it
runs the rest of its stages in a *sub-search* over the merged cells — the same taxonomies, cut, open and
locked values, incumbent heap, counters and frame stack, and the running totals and each partition's
values carried over (``VERIFY``, set by the tests, re-evaluates its root and compares). The sub-search
visits the same cuts in the same order, so the result (cost, cut, ties, counts, trace) is the one
without merging; only the work per visit shrinks. A sub-search may merge again below.
"""

from __future__ import annotations

import copy
import math
import time
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ...taxonomy.arrays import IntArray
from ...util.lazy import library
from ..shared.trees import narrow_dtype
from .index import NodeArray, TreeIndex
from .problem import Problem, Space
from .spec_sizes import SpecSizes

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

#: a frame counts the merged cells once the cells locked since its search began reach this share ...
CHECK_SHARE = 0.5
#: ... and runs its subtree on them when they are at most this share of the search's cells
KEEP_SHARE = 0.5
#: a search (or sub-search) of fewer cells than this never merges: its visits are already cheap
MIN_CELLS = 20_000
#: re-evaluate a sub-search's root and compare it with the running totals (the tests set it)
VERIFY = False


class Stats:
    """What merging did in one search (shared by its sub-searches): counts, merges, cells, seconds."""

    def __init__(self) -> None:
        self.checks = 0
        self.merges = 0
        self.cells: list[tuple[int, int]] = []  # (cells before, after) per merge
        self.seconds = 0.0


class MergeableSearch:
    """What merging reads and changes of a search (:class:`~.search.Search` derives from it): its cells,
    cut, locks, counters and frame stack, and the three steps a sub-search runs on its own."""

    C: int
    d: int
    m: int
    ncls: int
    lm: bool
    space: Space
    trees: list[TreeIndex]
    stride: np.ndarray
    leaf: np.ndarray
    sa: np.ndarray
    spec: np.ndarray
    ks: np.ndarray
    cnt: np.ndarray
    tp: np.ndarray
    tq: np.ndarray
    p: Problem
    klass: np.ndarray | None
    g: NodeArray
    gc: np.ndarray
    gs: np.ndarray
    cc: np.ndarray
    lc: np.ndarray
    ci: np.ndarray
    li: np.ndarray
    _cell_del: np.ndarray
    _code: np.ndarray
    mk: IntArray | None = None  # per cell, its partition's memo key (where the search answers from the memo)
    sizes: SpecSizes | None
    all_cells: IntArray
    cut: list[set[int]]
    open_node: list[np.ndarray]
    open_attr: list[bool]
    level: list[int]
    frames: list[int]
    locked_mass: int
    merge_at: float
    merge_stats: Stats
    visited: int
    pruned: int
    seq: int
    again_at: int
    cost_t: int
    icost_t: int
    lb_t: int
    ilb_t: int
    _last_progress: float
    _aborting: bool

    def _cell_ranges(self) -> None:
        raise NotImplementedError

    def _eval(self, idx: IntArray) -> tuple[int, int, int, int]:
        raise NotImplementedError

    def _dfs(self, open_vals: list[tuple[int, int]], depth: int, start: int = 0) -> None:
        raise NotImplementedError


S = TypeVar("S", bound=MergeableSearch)


def effective_keys(s: MergeableSearch) -> np.ndarray | None:
    """Per cell, one integer for its (effective node per attribute, SA[, class]): the locked cut node
    where the cell lies under one, else its own node — which is its Cut_spec image, kept by the search.
    ``None`` when the key could overflow 64 bits."""
    if s.klass is not None and int(s.stride[0]) * s.trees[0].n * s.m * s.ncls >= 2**62:
        return None
    key = s.spec * s.m  # the partition keys' radix: fits as they do
    key += s.ks % s.m  # the SA code (a sub-search keeps no SA array: it is the partition key's remainder)
    if s.klass is not None:
        key *= s.ncls
        key += s.klass
    return key


def descend(s: MergeableSearch, open_vals: list[tuple[int, int]], depth: int, i: int) -> bool:
    """Run stages ``i``.. of the current frame of ``s`` in a sub-search over its merged cells, when the
    locks make that pay (``True``); else note to look again only after more locks (``False``)."""
    sub = _try_merge(s)
    if sub is None:
        s.merge_at = s.locked_mass + CHECK_SHARE * s.C
        return False
    entry = s.frames.pop()  # the sub-search's frame stands for this one
    try:
        sub._dfs(open_vals, depth, i)
    finally:  # the counters, also after a stop by time limit (the open frames then stay on the stack)
        s.visited, s.pruned, s.seq, s._last_progress = sub.visited, sub.pruned, sub.seq, sub._last_progress
        s._aborting = sub._aborting
        if not s._aborting:
            s.frames.append(entry)
    return True


def _try_merge(s: S) -> S | None:
    """The sub-search over the merged cells, or ``None`` when they are not few enough."""
    t0 = time.perf_counter()
    s.merge_stats.checks += 1
    try:
        key = effective_keys(s)
        if key is None:
            return None
        codes, uniq = pd.factorize(key)  # merged cell numbers, in the order of their first cell
        n = uniq.size
        del key, uniq  # freed before the sub-search's arrays are built
        if n > KEEP_SHARE * s.C:
            return None
        codes = codes.astype(narrow_dtype(codes), copy=False)  # (the 64-bit numbers go)
        return _sub_search(s, codes, n)
    finally:
        s.merge_stats.seconds += time.perf_counter() - t0


def _sub_search(s: S, codes: np.ndarray, n: int) -> S:
    """The sub-search over the ``n`` merged cells (``codes``: each cell's merged cell), in ``s``'s state:
    a shallow copy of ``s`` (the taxonomies, thresholds, cost units, incumbent heap, frame stack and order
    of values are shared) whose per-cell arrays and cut are its own."""
    # a merged cell's first cell: where its number first appears, i.e. exceeds every number before it
    new = np.ones(codes.size, dtype=bool)
    new[1:] = codes[1:] > np.maximum.accumulate(codes)[:-1]
    first = np.flatnonzero(new)
    sub = copy.copy(s)
    spec = s.spec[first]
    # the leaf ids of a merged cell are its effective nodes (its Cut_spec image): the locked ones
    # hold every merged cell's node below them, as the parent's spec does
    small = all(t.n < 2**15 for t in s.trees)  # node ids in 16 bits: 12 bytes a cell less with 6 QIs
    sub.leaf = np.empty((s.d, n), dtype=np.int16 if small else s.leaf.dtype)
    rest = spec
    for a in range(s.d - 1, -1, -1):  # the mixed radix digits, last first: one division each
        rest, sub.leaf[a] = np.divmod(rest, s.trees[a].n)
    sub.sa, sub.spec, sub.ks = s.sa[:0], spec, s.ks[first]  # (the SA code: ks % m)
    sub.mk = None if s.mk is None else s.mk[first]  # (merged cells share their partition)
    sub.cnt = np.bincount(codes, weights=s.cnt, minlength=n).astype(np.int64)  # exact below 2**53 rows
    sub.klass = None if s.klass is None else s.klass[first]
    sub.sizes = None if s.sizes is None else s.sizes.copy_for(first)
    sub.C = n
    sub.again_at = -1  # the climb prices cuts on the original cells
    sub._cell_ranges()
    # the full-domain search keeps each cell's node per attribute; the full-subtree one none (its
    # Search.apply rebuilds them)
    sub.g = s.g[:, first] if s.space == "full-domain" else s.g[:, :0]
    sub.gc, sub.gs = (s.gc[first], s.gs[first]) if s.lm else (s.gc, s.gs)
    # each partition's values sit at one of its cells (merged cells share their partition)
    held = np.flatnonzero((s.cc != 0) | (s.lc != 0) | s.ci | s.li)
    at = codes[held]
    sub.cc, sub.lc = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    sub.ci, sub.li = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    sub.cc[at], sub.lc[at], sub.ci[at], sub.li[at] = s.cc[held], s.lc[held], s.ci[held], s.li[held]
    sub._cell_del = np.zeros(0, dtype=np.int64)
    sub._code = np.zeros(n, dtype=np.int64)
    # its own cut, open values and locks (what it inherits is in its leaf ids), and its own merging
    sub.cut = [set(c) for c in s.cut]
    sub.open_node = [o.copy() for o in s.open_node]
    sub.open_attr, sub.level = list(s.open_attr), list(s.level)  # full-domain
    sub.locked_mass = 0
    sub.merge_at = CHECK_SHARE * n if n >= MIN_CELLS else math.inf
    sub._aborting = False
    s.merge_stats.merges += 1
    s.merge_stats.cells.append((s.C, n))
    if VERIFY:
        _verify(sub)
    return sub


def _verify(sub: MergeableSearch) -> None:
    """The sub-search's root evaluated afresh gives its running totals and, partition by partition, the
    values carried over from the parent (which the search then goes on with)."""
    carried = sub.cc.copy(), sub.lc.copy(), sub.ci.copy(), sub.li.copy()
    totals = sub.cost_t, sub.icost_t, sub.lb_t, sub.ilb_t
    assert sub._eval(sub.all_cells) == totals, "merging changed the search's totals"
    part = np.unique(sub.ks // sub.m, return_inverse=True)[1].reshape(-1)
    for mine, fresh in zip(carried, (sub.cc, sub.lc, sub.ci, sub.li), strict=True):
        a, b = np.zeros(sub.C, dtype=np.int64), np.zeros(sub.C, dtype=np.int64)
        np.add.at(a, part, mine.astype(np.int64))
        np.add.at(b, part, fresh.astype(np.int64))
        assert np.array_equal(a, b), "merging moved a partition's values"
    sub.cc, sub.lc, sub.ci, sub.li = carried
