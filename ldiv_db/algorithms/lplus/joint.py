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
        self.n = int(self.depth.size)


def gain(forest: Forest, entries: list[tuple[IntArray, IntArray, IntArray, IntArray]], lb: IntArray) -> int:
    """The most one attribute's joint cuts raise the sum of the partitions' bounds ``lb``, given the
    boxes' ``entries`` (partition, attribute, node, V_P(node); one per partition and node)."""
    if not entries:
        return 0
    part, attr, node, value = (np.concatenate(c) for c in zip(*entries, strict=True))
    g = forest.offset[attr] + node
    present = np.zeros(forest.n, dtype=bool)
    present[g] = True
    # a partition's group is its node of the attribute, its one entry whose parent no entry holds (the
    # nodes of a cut lie in disjoint subtrees, and a partition's entries fill its node's subtree down)
    par = forest.parent[g]
    top = (par < 0) | ~present[np.maximum(par, 0)]
    is_root = np.zeros(forest.n, dtype=bool)
    is_root[g[top]] = True
    S = np.zeros(forest.n, dtype=np.int64)
    np.add.at(S, g, value)
    J = tree_min(forest, np.flatnonzero(present), S, is_root)
    lb_group = np.zeros(forest.n, dtype=np.int64)
    np.add.at(lb_group, g[top], lb[part[top]])
    roots = np.flatnonzero(is_root)
    per_attr = np.zeros(int(forest.attr[-1]) + 1, dtype=np.int64)
    np.add.at(per_attr, forest.attr[roots], np.maximum(0, J[roots] - lb_group[roots]))
    return int(per_attr.max())


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
    """Each partition's entries (attribute, node, V_P(node)) by its memo key, so that a partition whose
    bound the memo answers still joins its groups: the older ones in arrays sorted by key, the newest
    in a dict of per-partition arrays, moved to the arrays when there are ``PENDING``."""

    PENDING = 4096

    def __init__(self) -> None:
        self.key = np.zeros(0, dtype=np.int64)
        self.cols = [np.zeros(0, dtype=np.int64) for _ in range(3)]  # attribute, node, value
        self.new: dict[int, tuple[IntArray, IntArray, IntArray]] = {}

    def put(self, keys: IntArray, a: IntArray, node: IntArray, value: IntArray) -> None:
        """Keep the entries of partitions not kept yet (``keys``: each entry's partition key)."""
        if keys.size == 0:
            return
        o = np.argsort(keys, kind="stable")
        keys, a, node, value = keys[o], a[o], node[o], value[o]
        cut = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        ends = np.r_[cut[1:], keys.size]
        for k, lo, hi in zip(keys[cut].tolist(), cut.tolist(), ends.tolist(), strict=True):
            self.new[k] = (a[lo:hi], node[lo:hi], value[lo:hi])
        if len(self.new) >= self.PENDING:
            parts = list(self.new.items())
            sizes = [e[0].size for _, e in parts]
            key = np.repeat(np.fromiter((k for k, _ in parts), np.int64, len(parts)), sizes)
            cols = [np.concatenate([e[i] for _, e in parts]) for i in range(3)]
            allkey = np.concatenate([self.key, key])
            o = np.argsort(allkey, kind="stable")
            self.key = allkey[o]
            self.cols = [np.concatenate([old, c])[o] for old, c in zip(self.cols, cols, strict=True)]
            self.new = {}

    def get(self, keys: IntArray, parts: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """The entries (partition, attribute, node, value) of the partitions ``parts`` with memo ``keys``."""
        lo = np.searchsorted(self.key, keys, "left")
        hi = np.searchsorted(self.key, keys, "right")
        n = hi - lo
        at = np.repeat(lo - np.cumsum(n) + n, n) + np.arange(int(n.sum()))
        out = [np.repeat(parts, n), *(c[at] for c in self.cols)]
        rest = np.flatnonzero(n == 0)
        if self.new and rest.size:
            found = [
                (p, self.new.get(k)) for k, p in zip(keys[rest].tolist(), parts[rest].tolist(), strict=True)
            ]
            hit = [(p, e) for p, e in found if e is not None]
            if hit:
                out[0] = np.concatenate([out[0], np.repeat([p for p, _ in hit], [e[0].size for _, e in hit])])
                for i in range(3):
                    out[i + 1] = np.concatenate([out[i + 1], *(e[i] for _, e in hit)])
        return out[0], out[1], out[2], out[3]
