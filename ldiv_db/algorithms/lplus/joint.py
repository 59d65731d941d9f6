"""A bound over partitions that share an open value: one attribute's cut, chosen once for all of them.

:mod:`.boxes` bounds each partition on its own, so two partitions holding the same open node ``c`` of
attribute ``a`` may each pick their own cut below ``c`` — which no cut does: a cut keeps or specializes
``c`` and every node below it once, for every row. Over a group G of partitions holding ``c`` (any subset
of them: the others keep their own bounds), with ``V_P(w)`` the boxes' recursion of P's rows under node
``w`` with ``a`` fixed at ``w`` and the other open attributes free (the lattice's boxes at (t, 0, …, 0) in
the rotation that takes ``a`` first), the cut restricted to G's rows costs at least

    J(w) = min(S(w), Σ over the children u of w of J(u)),   S(w) = Σ_{P ∈ G} V_P(w),   J(leaf) = S(leaf)

(the cut keeps ``w``: every P pays at least V_P(w) on those rows; or it specializes ``w``, and the rows
under each child are priced the same way). So J(c) − Σ_{P ∈ G} LB(P), where positive, may be added to
the search's running total of per-partition bounds; the groups of one attribute are disjoint, those of
different attributes overlap, so the search takes the largest attribute's sum (:func:`gain`).

It is taken over the partitions of one evaluation (the touched ones) whose recursion ran in it; a
partition whose bound came from the memo or was not computed counts with its own bound only.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...taxonomy.arrays import IntArray
from ...util.arrays import concat_ranges
from .index import TreeIndex

BoolArray = npt.NDArray[np.bool_]


class Forest:
    """Every attribute's taxonomy as one forest: node ``offset[a] + v``, its depth and parent (-1 at a root)."""

    def __init__(self, trees: list[TreeIndex]) -> None:
        sizes = [t.n for t in trees]
        self.offset = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
        self.depth = np.concatenate([t.depth for t in trees]).astype(np.int64)
        self.parent = np.concatenate(
            [
                np.where(t.depth > 0, t.anc[np.maximum(t.depth - 1, 0), np.arange(t.n)] + off, -1)
                for t, off in zip(trees, self.offset.tolist(), strict=True)
            ]
        ).astype(np.int64)
        self.attr = np.repeat(np.arange(len(trees)), sizes)
        self.attrs = len(trees)
        self.n = int(self.depth.size)


def gain(forest: Forest, entries: list[tuple[IntArray, IntArray, IntArray]], lb: IntArray) -> int:
    """The most one attribute's joint cuts raise the sum of the partitions' bounds ``lb``, given the
    boxes' ``entries`` (partition, node of the forest, V_P(node); one per partition and node)."""
    if not entries:
        return 0
    if len(entries) == 1:
        part, g, value = entries[0]
    else:
        part, g, value = (np.concatenate(c) for c in zip(*entries, strict=True))
    present = np.zeros(forest.n, dtype=bool)
    present[g] = True
    nodes = np.flatnonzero(present)
    # a partition's group is its node of the attribute, its one entry whose parent no entry holds (the
    # nodes of a cut lie in disjoint subtrees, and a partition's entries fill its node's subtree down)
    par = forest.parent[nodes]
    is_root = np.zeros(forest.n, dtype=bool)
    is_root[nodes[(par < 0) | ~present[np.maximum(par, 0)]]] = True
    top = is_root[g]
    J = tree_min(forest, nodes, sum_at(forest.n, g, value), is_root)
    lb_group = sum_at(forest.n, g[top], lb[part[top]])
    roots = np.flatnonzero(is_root)
    per_attr = sum_at(forest.attrs, forest.attr[roots], np.maximum(0, J[roots] - lb_group[roots]))
    return int(per_attr.max())


def sum_at(n: int, at: IntArray, value: IntArray) -> IntArray:
    """Per number 0..n-1, the sum of the ``value``s ``at`` it, as integers: by ``np.bincount`` (several
    times ``np.add.at``'s speed) where every partial sum is an integer a float64 holds exactly (the
    magnitudes' sum, taken in floats so that it cannot wrap, below 2^52 leaves room for its rounding)."""
    if float(np.abs(value.astype(np.float64)).sum()) < 2.0**52:
        return np.bincount(at, weights=value, minlength=n).astype(np.int64)
    out = np.zeros(n, dtype=np.int64)
    np.add.at(out, at, value)
    return out


def tree_min(forest: Forest, nodes: IntArray, S: IntArray, is_root: BoolArray) -> IntArray:
    """J over ``nodes`` (the groups' nodes, each group's subtree whole), deepest first: S at a node
    without children among them, else the lesser of S and its children's sum; not above the roots."""
    J = S.copy()
    kids = np.zeros(forest.n, dtype=np.int64)
    has_kids = np.zeros(forest.n, dtype=bool)
    depth = forest.depth[nodes]
    for dd in range(int(depth.max()), int(depth.min()) - 1, -1):
        at = nodes[depth == dd]
        J[at] = np.where(has_kids[at], np.minimum(S[at], kids[at]), S[at])
        up = at[~is_root[at]]
        if up.size:
            par = forest.parent[up]
            np.add.at(kids, par, J[up])
            has_kids[par] = True
    return J


class Store:
    """Each partition's entries (node of the :class:`Forest`, V_P(node)) by its memo key, so that a partition whose
    bound the memo answers still joins its groups. The entries lie in buffers in the order they were
    kept, each partition's together (a number per partition: where its entries start, how many); the
    keys are kept sorted beside their numbers, new ones inserted in place, so a lookup is one binary
    search for every partition of a cut, no grouping."""

    def __init__(self) -> None:
        self.key = np.zeros(0, dtype=np.int64)  # sorted
        self.num = np.zeros(0, dtype=np.int64)  # each key's partition number
        self.first = np.zeros(64, dtype=np.int64)  # per number: its first entry and how many
        self.count = np.zeros(64, dtype=np.int64)
        self.cols = np.zeros((2, 1024), dtype=np.int64)  # forest node, value per entry
        self.parts = self.used = 0

    def put(self, keys: IntArray, node: IntArray, value: IntArray) -> None:
        """Keep the entries of partitions not kept yet (``keys``: each entry's partition key; a key kept
        before is left as it was)."""
        if keys.size == 0:
            return
        o = np.argsort(keys, kind="stable")
        keys, node, value = keys[o], node[o], value[o]
        cut = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        ends = np.r_[cut[1:], keys.size]
        pos = np.searchsorted(self.key, keys[cut])
        fresh = np.ones(cut.size, dtype=bool)
        if self.key.size:
            fresh = self.key[np.minimum(pos, self.key.size - 1)] != keys[cut]
        cut, ends, pos = cut[fresh], ends[fresh], pos[fresh]
        if cut.size == 0:
            return
        n = ends - cut
        take = concat_ranges(cut, n)
        total = self.used + take.size
        if total > self.cols.shape[1]:
            grown = np.zeros((2, max(total, 2 * self.cols.shape[1])), dtype=np.int64)
            grown[:, : self.used] = self.cols[:, : self.used]
            self.cols = grown
        self.cols[:, self.used : total] = np.stack([node[take], value[take]])
        nums = self.parts + np.arange(cut.size)
        if self.parts + cut.size > self.first.size:
            size = max(self.parts + cut.size, 2 * self.first.size)
            self.first = np.resize(self.first, size)
            self.count = np.resize(self.count, size)
        self.first[nums] = self.used + np.cumsum(n) - n
        self.count[nums] = n
        self.key = np.insert(self.key, pos, keys[cut])
        self.num = np.insert(self.num, pos, nums)
        self.parts += cut.size
        self.used = total

    def get(self, keys: IntArray, parts: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """The entries (partition, forest node, value) of the partitions ``parts`` with memo ``keys``."""
        if self.key.size == 0:
            z = np.zeros(0, dtype=np.int64)
            return z, z, z
        pos = np.minimum(np.searchsorted(self.key, keys), self.key.size - 1)
        hit = np.flatnonzero(self.key[pos] == keys)
        num = self.num[pos[hit]]
        lo, n = self.first[num], self.count[num]
        at = concat_ranges(lo, n)
        got = np.take(self.cols, at, axis=1)  # (numpy's take: several times a 2-D fancy index's speed)
        return np.repeat(parts[hit], n), got[0], got[1]
