"""A tighter lower bound for l+-Optimize's partitions: the least cost of splitting one partition by the
open values' subtrees on its own (a "guillotine" relaxation), computed exactly on small lattices.

In every cut of a search subtree, the rows of a partition P (generalized vector X, some of its values
open) fall in boxes: one node per attribute, at or below X's node where the value is open, X's node
where it is locked. The boxes of one cut restricted to P are what this recursion can produce, taking
the open attributes in a fixed order a_1..a_k:

    best(B, j) = min(best(B, j + 1), Σ_{children c of B's a_j node} best(B with a_j → c, j)),
    best(B, k + 1) = cost(B)   (the box as one partition of the cut, with its suppression)

(a cut keeps B's a_j node, or specializes it: the same choice is then made in every box holding that
node, which the recursion does not demand — it ranges over more partitionings than the cuts, so its
least cost, ``best(X, 1)``, is at most the cost of every cut of the subtree restricted to P). The
partitions are disjoint and the cost is a sum over partitions, so the sum of these bounds is a lower
bound of the subtree, like SPEC §5.7's per-partition bounds; :func:`~.partitions.lower_bounds` keeps
the larger of the two per partition.

Every order of the open attributes gives such a relaxation, and they differ: the first attribute's
choice is shared by the whole partition, a later one's is made per box. So the recursion is run in each
rotation of the order (every open attribute first once, up to ``ORDERS``) and the largest value is
kept, still a lower bound of every cut of the subtree. The rotations share the boxes and their prices;
only the recursion's steps over the boxes repeat.

Why: at l = 2 the §5.7 bound of a partition with open values is about the rows its *current* coarse
partition must delete (few) plus the LM of its locked values; the cost that its finer cuts must pay
(deletions where the open values are specialized, generalization where they are not) is invisible to
it, and the search visits 7× the cuts of l = 3 on small-domain tables (decision 0030).

The recursion runs over the lattice of relative depths t (per open attribute, how many levels below
X's node; deeper than a cell's leaf means its leaf), so its work is the partition's cells times the
lattice's points: partitions whose lattice has more than ``MAX_POINTS`` points keep the §5.7 bound
alone. A partition's bound depends only on X and which of its values are open, so it is kept in a
memo for the whole search (and its sub-searches, whose merged cells hold the same rows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...taxonomy.arrays import IntArray
from . import joint, known
from .partitions import Parts, recursive_deletions, scheme_counts, split
from .problem import Metric, Scheme

if TYPE_CHECKING:
    from .index import TreeIndex
    from .merge import MergeableSearch

#: the most lattice points (relative-depth vectors) a partition's recursion may take
MAX_POINTS = 64
#: the most (cell, point) pairs one evaluation may spend on it
MAX_WORK = 400_000
#: the most orders of the open attributes a partition's recursion is run in (each attribute first once:
#: the rotations of one order), the largest of their values kept
ORDERS = 64
#: the most (cell, point) pairs priced in one grouping: fewer points at once are dominated by numpy's
#: per-call cost, more sort slower than apart
GROUPING = 32_768
#: the joint cuts of every partition of the cut (:meth:`BoxBound.whole`) only on histograms of at most
#: this many cells: larger cuts hold too many partitions to gather at every check
WHOLE_CELLS = 200_000
#: the boxes' keys (point, partition key, SA value) stay below this, or the partition keys are ranked
KEY_LIMIT = 2**62


def applies(s: MergeableSearch) -> bool:
    """Whether the search takes the recursion's bound: LM or DM (CM's boxes would need their classes)
    with a suppression scheme (under NoSupp a violating box is infeasible, which the flags track), and
    memo keys that fit 64 bits."""
    p = s.p
    if MAX_POINTS < 2 or p.metric == "cm" or p.scheme == "nosupp":
        return False
    return int(s.stride[0]) * s.trees[0].n * (1 << s.d) < 2**62


class BoxBound:
    """The memo of partition bounds of one search and the constants that price a box."""

    def __init__(
        self, s: MergeableSearch, metric: Metric, scheme: Scheme, cs: int, lmu: list[IntArray]
    ) -> None:
        self.metric, self.scheme, self.cs, self.lmu = metric, scheme, cs, lmu
        self.tp, self.tq = s.tp, s.tq
        self.memo = Memo()
        # each evaluated partition's figures (:mod:`.evaluation`), on small histograms
        self.known = known.Known() if s.C <= known.MAX_CELLS else None
        self.depth = [t.depth.astype(np.int64) for t in s.trees]
        self.anc = [t.anc for t in s.trees]
        self.computed = 0
        #: the last evaluation's (partition of ``P``, forest node, value) entries for :mod:`.joint`,
        #: its candidates' figures (:meth:`gain`), and every computed partition's entries by memo key
        self.entries: list[tuple[IntArray, IntArray, IntArray]] = []
        self.last: tuple[IntArray, ...] | None = None
        self.store = joint.Store()
        self.whole_ran: int | None = None  # the last :meth:`whole` computed (None: the gate answered)
        self.forest = joint.Forest(s.trees)

    def bounds(
        self, s: MergeableSearch, P: Parts, rep: IntArray, spec_s: IntArray, lb: IntArray, cost: IntArray
    ) -> IntArray:
        """Per partition of ``P``, its recursion's bound, or -1 where it was not computed. Only where it can
        raise the §5.7 bound ``lb``: not where the partition has one Cut_spec image (``spec_s``: the sorted
        cells' images; then ``lb`` is exact) or no open value, nor where its ``cost`` at the cut, which the
        recursion never exceeds, is not above ``lb``."""
        out = np.full(P.G, -1, dtype=np.int64)
        self.entries, self.last = [], None
        first = P.first_cell
        homog = np.minimum.reduceat(spec_s, first) == np.maximum.reduceat(spec_s, first)
        cand = np.flatnonzero(~homog & (cost > lb))
        if cand.size == 0:
            return out
        d = s.d
        X, mbits, keys = memo_keys(s, s.ks[rep[cand]] // s.m)
        memo = self.memo
        got = memo.get(keys)
        out[cand] = np.maximum(got, -1)
        self.last = (cand, X, mbits, keys, got, cost, lb, out)  # (``got`` is marked where computed)
        miss = np.flatnonzero((got == -2) & (mbits != 0))
        if miss.size == 0:
            return out
        # per open attribute, how many levels the partition's deepest leaf lies below X's node
        seg = np.diff(np.append(first, P.idx_s.size))
        H = np.zeros((d, miss.size), dtype=np.int64)
        for a in range(d):
            on = (mbits[miss] >> a) & 1 == 1
            if on.any():
                deepest = np.maximum.reduceat(self.depth[a][s.leaf[a][P.idx_s]], first)[cand[miss]]
                H[a] = np.where(on, deepest - self.depth[a][X[a][miss]], 0)
        points = np.prod(H + 1, axis=0)
        big = points > MAX_POINTS
        memo.put(keys[miss[big]], np.full(int(big.sum()), -1, dtype=np.int64))  # never computed
        keep = np.flatnonzero(~big)
        # in the partitions' order, within the evaluation's budget
        keep = keep[np.cumsum(points[keep] * seg[cand[miss[keep]]]) <= MAX_WORK]
        groups: dict[tuple[int, ...], list[int]] = {}
        for i, h in zip(keep.tolist(), map(tuple, H[:, keep].T.tolist()), strict=True):
            groups.setdefault(h, []).append(i)
        for h, at in groups.items():
            j = miss[np.asarray(at, dtype=np.int64)]
            vals = self._solve(s, P, X[:, j], h, cand[j], seg)
            out[cand[j]] = vals
            memo.put(keys[j], vals)
            got[j] = vals
            self.computed += j.size
        if self.entries:
            new = [np.concatenate(c) for c in zip(*self.entries, strict=True)]
            key_of = np.zeros(P.G, dtype=np.int64)
            key_of[cand] = keys
            self.store.put(key_of[new[0]], new[1], new[2])
        return out

    def gain(self, s: MergeableSearch, need: int) -> int:
        """What the joint cuts (:mod:`.joint`) of the last evaluation's partitions add to the sum of their
        bounds; 0 when even the most they could add (each partition's cost at the cut less its bound, over
        the groups of two or more of one attribute) is below ``need``."""
        if self.last is None or need <= 0:
            return 0
        cand, X, mbits, keys, got, cost, lb57, out = self.last
        lb = np.maximum(lb57, out)
        slack = (cost - lb)[cand]
        has = got >= 0  # a recursion's value: its entries are in the store or were just made
        if int(slack[has].sum()) < need:
            return 0
        if X.shape[0] == 0:  # an answered evaluation's partitions: decoded once past the gate
            X, mbits = decode(s.d, s.trees, keys)
        members = np.zeros(cand.size, dtype=bool)
        most = 0
        for a, t in enumerate(s.trees):
            on = np.flatnonzero(has & ((mbits >> a) & 1 == 1))
            if on.size < 2:
                continue
            x = X[a][on]
            at = on[np.bincount(x, minlength=t.n)[x] >= 2]
            members[at] = True
            most = max(most, int(slack[at].sum()))
        if most < need:
            return 0
        inP = np.zeros(lb.size, dtype=bool)
        inP[cand[members]] = True
        fresh = np.zeros(lb.size, dtype=bool)
        entries = []
        for e in self.entries:
            fresh[e[0]] = True
            keep = inP[e[0]]
            entries.append((e[0][keep], e[1][keep], e[2][keep]))
        old = np.flatnonzero(members & ~fresh[cand])
        if old.size:
            entries.append(self.store.get(keys[old], cand[old]))
        return joint.gain(self.forest, entries, lb)

    def whole(self, s: MergeableSearch, need: int, known: int | None = None) -> int:
        """What the joint cuts of every partition of the cut add to the sum of the bounds (the groups
        of :meth:`gain` hold only the partitions one evaluation touched; a partition the evaluation left
        alone often shares the open node). 0 when the most they could add, the cut's cost less its
        bound, is below ``need``, and on histograms of more than ``WHOLE_CELLS`` cells. ``known``: the
        value computed on this same cut before (a visited child's check, then its first stage); it is
        kept in ``whole_ran`` when computed here (None when the gate answered)."""
        self.whole_ran = None
        if need <= 0 or s.C > WHOLE_CELLS or s.cost_t - s.lb_t < need:
            return 0
        if known is not None:
            return known
        self.whole_ran = self._whole(s)
        return self.whole_ran

    def _whole(self, s: MergeableSearch) -> int:
        """:meth:`whole` past its gate."""
        # one cell per partition holds its figures; a partition that costs nothing has every value at a
        # leaf (LM), so no open value and no entries to miss
        rep = np.flatnonzero(s.cc)
        keys = s.mk[rep] if s.mk is not None else memo_keys(s, s.ks[rep] // s.m)[2]
        entries = self.store.get(keys, np.arange(rep.size))
        if entries[0].size == 0:
            return 0
        return joint.gain(self.forest, [entries], s.lc[rep])

    def answered(self, keys: IntArray, cost: IntArray, lb: IntArray, ran: IntArray) -> None:
        """Make an evaluation answered from :mod:`.known` (``keys``: its partitions' memo keys; their cost,
        final bound and whether their recursion ran) the one :meth:`gain` reads: each partition whose
        recursion ran joins its groups, its values from the store (its node vector and open bits are
        decoded from its key when :meth:`gain` needs them)."""
        has = np.flatnonzero(ran > 0)
        self.entries = []
        zero, none = np.zeros(has.size, dtype=np.int64), np.full(cost.size, -1, dtype=np.int64)
        later = np.empty((0, has.size), dtype=np.int64)
        self.last = (has, later, np.empty(0, dtype=np.int64), keys[has], zero, cost, lb, none)

    def _solve(
        self, s: MergeableSearch, P: Parts, Xr: IntArray, h: tuple[int, ...], roots: IntArray, seg: IntArray
    ) -> IntArray:
        """The recursion over the lattice ``h`` for the partitions ``roots`` (of ``P``): every point's
        boxes priced in one grouping (the point's number leads the key), then the recursion over the
        boxes' values, one depth of one attribute at a time for every point."""
        lens = seg[roots]
        cells = np.concatenate(
            [P.idx_s[P.first_cell[g] : P.first_cell[g] + n] for g, n in zip(roots, lens, strict=True)]
        )
        root_of = np.repeat(np.arange(roots.size), lens)
        n = cells.size
        attrs = [a for a, x in enumerate(h) if x > 0]
        dims = [h[a] + 1 for a in attrs]
        nodes = []
        # per attribute and relative depth, each cell's key and LM offsets from its root's node; the
        # points' keys by broadcasting (the points in itertools.product order, the last attribute fastest)
        key = (Xr * s.stride[:, None]).sum(axis=0)[root_of].reshape((1,) * len(attrs) + (n,))
        lm = np.zeros_like(key)
        for i, a in enumerate(attrs):
            anc, x = self.anc[a], Xr[a][root_of]
            want = self.depth[a][x][None, :] + np.arange(dims[i])[:, None]
            node = anc[np.minimum(want, anc.shape[0] - 1), s.leaf[a][cells][None, :]]
            nodes.append((node, self.depth[a][node] == want))
            shape = [1] * len(attrs) + [n]
            shape[i] = dims[i]
            key = key + ((node - x) * s.stride[a]).reshape(shape)
            if self.metric == "lm":
                lm = lm + (self.lmu[a][node] - self.lmu[a][x]).reshape(shape)
        npts = int(np.prod(dims))
        part = key.reshape(npts, n)
        span = int(s.stride[0]) * s.trees[0].n
        if npts * span * s.m >= KEY_LIMIT:  # the point's number would overflow the keys: ranks instead
            part = np.unique(part, return_inverse=True)[1].reshape(npts, n)
            span = int(part.max()) + 1
        full = ((np.arange(npts)[:, None] * span + part) * s.m + s.ks[cells] % s.m).reshape(-1)
        lm_all = np.broadcast_to(lm, key.shape).reshape(-1)
        cnt = np.tile(s.cnt[cells], npts)
        box = np.empty(npts * n, dtype=np.int64)
        values = []
        G = 0
        step = max(1, GROUPING // n) * n  # whole points per grouping
        for lo in range(0, npts * n, step):
            rows = np.arange(lo, min(lo + step, npts * n))
            Q = split(rows, full, cnt, s.m, self.tp, self.tq, exact=False)
            D, _ = recursive_deletions(Q, self.scheme in ("viorec", "allrec"))
            kept, dele, supp, _ = scheme_counts(Q, self.scheme, D)
            first = Q.idx_s[Q.first_cell]
            gen = kept * (s.gc[cells[first % n]] + lm_all[first]) if self.metric == "lm" else kept * kept
            values.append(gen + (supp + dele) * self.cs)
            box[Q.idx_s] = G + np.repeat(np.arange(Q.G), np.diff(np.append(Q.first_cell, Q.idx_s.size)))
            G += Q.G
        priced = np.concatenate(values)  # per box: best(box, k + 1)
        box = box.reshape(*dims, n)
        k = len(attrs)
        root_box = box[(0,) * k][np.searchsorted(root_of, np.arange(roots.size))]
        links = _links(box, G)
        out: IntArray = np.zeros(roots.size, dtype=np.int64)
        for r in range(max(1, min(k, ORDERS))):  # each open attribute first once: the largest bound
            value = priced.copy()
            for j in reversed([(i + r) % k for i in range(k)]):
                if j == r:  # attrs[r] first: its boxes' values at (t, 0, …, 0) are best(P ∩ node, 2)
                    self._keep(attrs[r], roots, root_of, box, j, nodes[j], value)
                for kids, parents in links[j]:
                    sums = np.zeros(G, dtype=np.int64)
                    np.add.at(sums, parents, value[kids])
                    value[parents] = np.minimum(value[parents], sums[parents])
            out = np.maximum(out, value[root_box])
        return out

    def _keep(
        self,
        a: int,
        roots: IntArray,
        root_of: IntArray,
        box: IntArray,
        j: int,
        node: tuple[IntArray, IntArray],
        value: IntArray,
    ) -> None:
        """Keep, for :mod:`.joint`, each root partition's value of the box under every node of attribute
        ``a`` (axis ``j`` of ``box``) with the other attributes at the root's nodes: the cells' box at
        lattice points (0, …, t, …, 0), where the cell's node lies exactly t levels below the root's."""
        at, exact = node  # (t, cell): the cell's node t levels below its root's, and whether it lies there
        k = box.ndim - 1
        b = np.stack([box[tuple(t if x == j else 0 for x in range(k))] for t in range(box.shape[j])])
        bx = b[exact]  # a box at such a point is one (partition, node): one entry per box
        pos = np.full(value.size, -1, dtype=np.int64)
        pos[bx] = np.arange(bx.size)
        one = pos[pos >= 0]
        part, here = np.broadcast_to(roots[root_of], b.shape)[exact][one], at[exact][one].astype(np.int64)
        self.entries.append((part, self.forest.offset[a] + here, value[bx[one]]))


class Memo:
    """Partition bounds by key (-1: never computed): the older ones in sorted arrays, looked up for a
    whole evaluation at once; the newest in a dict, moved to the arrays when there are ``PENDING``."""

    PENDING = 4096

    def __init__(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.vals = np.zeros(0, dtype=np.int64)
        self.new: dict[int, int] = {}

    def __len__(self) -> int:
        return int(self.keys.size) + len(self.new)

    def get(self, keys: IntArray) -> IntArray:
        """The bound of every key, -2 where unknown."""
        out = np.full(keys.size, -2, dtype=np.int64)
        if self.keys.size:
            pos = np.minimum(np.searchsorted(self.keys, keys), self.keys.size - 1)
            hit = self.keys[pos] == keys
            out[hit] = self.vals[pos[hit]]
        if self.new:
            rest = np.flatnonzero(out == -2)
            out[rest] = [self.new.get(k, -2) for k in keys[rest].tolist()]
        return out

    def put(self, keys: IntArray, vals: IntArray) -> None:
        """Keep the bounds of ``keys`` (distinct keys, none known yet: the ones :meth:`get` missed)."""
        self.new.update(zip(keys.tolist(), vals.tolist(), strict=True))
        if len(self.new) >= self.PENDING:
            k = np.concatenate([self.keys, np.fromiter(self.new.keys(), np.int64, len(self.new))])
            v = np.concatenate([self.vals, np.fromiter(self.new.values(), np.int64, len(self.new))])
            o = np.argsort(k, kind="stable")
            self.keys, self.vals, self.new = k[o], v[o], {}


def memo_keys(s: MergeableSearch, pkey: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The partitions' node vectors, open bits and memo keys (partition key · 2^d + open bits) from
    their partition keys."""
    X = np.empty((s.d, pkey.size), dtype=np.int64)
    mbits = np.zeros(pkey.size, dtype=np.int64)
    rest = pkey
    for a in range(s.d - 1, -1, -1):  # the mixed radix digits, last first: one division each
        rest, X[a] = np.divmod(rest, s.trees[a].n)
        mbits |= s.open_node[a][X[a]].astype(np.int64) << a
    return X, mbits, pkey * (1 << s.d) + mbits


def cell_keys(s: MergeableSearch) -> IntArray:
    """Every cell's partition's memo key at the search's cut and open values."""
    return memo_keys(s, s.ks // s.m)[2]


def move_keys(
    s: MergeableSearch, a: int, idx: IntArray, old: int | IntArray, new: int | IntArray, bit: IntArray
) -> None:
    """The search's per-cell memo keys (``s.mk``) of cells ``idx`` moved at attribute ``a`` from nodes
    ``old`` to ``new``, their open bit of ``a`` changed by ``bit``."""
    assert s.mk is not None
    step = int(s.stride[a]) << s.d
    s.mk[idx] += (np.asarray(new, dtype=np.int64) - old) * step + (bit << a)


def decode(d: int, trees: list[TreeIndex], keys: IntArray) -> tuple[IntArray, IntArray]:
    """The node vectors and open bits of memo ``keys`` (:func:`memo_keys` backwards)."""
    X = np.empty((d, keys.size), dtype=np.int64)
    rest = keys >> d
    for a in range(d - 1, -1, -1):
        rest, X[a] = np.divmod(rest, trees[a].n)
    return X, keys & ((1 << d) - 1)


def _links(box: IntArray, G: int) -> list[list[tuple[IntArray, IntArray]]]:
    """Per attribute (an axis of ``box``: each cell's box per lattice point, the cells last), per relative
    depth from the deepest up, every box one level deeper along it and its parent box there: the
    recursion's steps, the same in every order, then run over boxes instead of cells."""
    out = []
    for j in range(box.ndim - 1):
        steps = []
        for tj in range(box.shape[j] - 2, -1, -1):
            pb = np.take(box, tj, axis=j).reshape(-1)
            cb = np.take(box, tj + 1, axis=j).reshape(-1)
            at = np.full(G, -1, dtype=np.int64)
            at[cb] = np.arange(cb.size)  # one cell of every child box
            kids = np.flatnonzero(at >= 0)
            steps.append((kids, pb[at[kids]]))
        out.append(steps)
    return out


def starts_of(b: IntArray) -> IntArray:
    """One cell of every box number in ``b`` (numbers 0..max, each present), by number: a scatter, no
    sort. Which cell of a box does not matter: the caller reads the box's value and its parent box, the
    same for all its cells."""
    first = np.empty(int(b.max()) + 1, dtype=np.int64)
    first[b] = np.arange(b.size)
    return first
