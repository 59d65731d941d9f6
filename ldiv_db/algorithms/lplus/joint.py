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


def gain(
    trees: list[TreeIndex], entries: list[tuple[IntArray, IntArray, IntArray, IntArray]], lb: IntArray
) -> int:
    """The most one attribute's joint cuts raise the sum of the partitions' bounds ``lb``, given the
    boxes' ``entries`` (partition, attribute, node, V_P(node); one per partition and node)."""
    if not entries:
        return 0
    part_all, attr, node_all, value_all = (np.concatenate(c) for c in zip(*entries, strict=True))
    best = 0
    for a in np.unique(attr).tolist():
        on = attr == a
        part, node, value = part_all[on], node_all[on], value_all[on]
        t = trees[a]
        S = np.zeros(t.n, dtype=np.int64)
        np.add.at(S, node, value)
        # a partition's group: its node of ``a``, its shallowest entry
        order = np.lexsort((t.depth[node], part))
        first = order[np.flatnonzero(np.r_[True, part[order][1:] != part[order][:-1]])]
        is_root = np.zeros(t.n, dtype=bool)
        is_root[node[first]] = True
        J = tree_min(t, np.unique(node), S, is_root)
        lb_group = np.zeros(t.n, dtype=np.int64)
        np.add.at(lb_group, node[first], lb[part[first]])
        roots = np.flatnonzero(is_root)
        best = max(best, int(np.maximum(0, J[roots] - lb_group[roots]).sum()))
    return best


def tree_min(t: TreeIndex, nodes: IntArray, S: IntArray, is_root: BoolArray) -> IntArray:
    """J over ``nodes`` (the groups' nodes, each group's subtree whole), deepest first: S at a node
    without children among them, else the lesser of S and its children's sum; not above the roots."""
    J = S.copy()
    kids = np.zeros(t.n, dtype=np.int64)
    has_kids = np.zeros(t.n, dtype=bool)
    depth = t.depth[nodes]
    for dd in range(int(depth.max()), int(depth.min()) - 1, -1):
        at = nodes[depth == dd]
        J[at] = np.where(has_kids[at], np.minimum(S[at], kids[at]), S[at])
        up = at[~is_root[at]]
        if up.size:
            par = t.anc[dd - 1][up]
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
