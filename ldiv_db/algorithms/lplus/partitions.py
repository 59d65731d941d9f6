"""The partition arithmetic of one l+-Optimize evaluation (SPEC §5.3, §5.7), vectorized with numpy and
free of search state: the touched cells are sorted into (partition, SA value) pairs; each partition's
violations, the rows a scheme deletes or suppresses, its minority rows (CM) and the DM/CM lower bounds
of non-homogeneous partitions follow from those pairs. :class:`~.search.Search` keeps the running totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...taxonomy.arrays import IntArray
from ...util.lazy import library
from .problem import Metric, Scheme, starts
from .spec_sizes import sizes_of

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

BoolArray = npt.NDArray[np.bool_]

FAST_GROUPING_MIN = 4096  # fewer keys: numpy's argsort is as quick as hashing them first
FAST_GROUPING_SHARE = 0.5  # more distinct keys than this share of the keys: hashing them saves nothing
SAMPLE = 2048  # keys sampled to tell many distinct values beforehand (``_many_distinct``)


def grouping_order(keys: IntArray) -> IntArray:
    """A permutation that sorts ``keys`` ascending, for the places where only the grouping of equal keys
    matters, not their order among themselves. When the keys repeat (a search's partition and
    sub-partition keys do: few distinct values over many cells), they are hashed into codes
    (``pandas.factorize``, linear), the distinct keys alone are sorted into ranks, and the ranks are
    sorted by numpy's 16-bit radix sort: 1.6–2.9× faster than ``np.argsort`` on 100k–1M random keys
    with 2,000–60,000 distinct values. Otherwise ``np.argsort``: under ``FAST_GROUPING_MIN`` keys, or
    when more than 65,535 or more than ``FAST_GROUPING_SHARE`` of the keys are distinct."""
    if keys.size < FAST_GROUPING_MIN or _many_distinct(keys):
        return np.argsort(keys)
    codes, uniq = pd.factorize(keys)
    if uniq.size > min(65_535, keys.size * FAST_GROUPING_SHARE):
        return np.argsort(keys)
    rank = np.empty(uniq.size, dtype=np.uint16)
    rank[np.argsort(uniq)] = np.arange(uniq.size, dtype=np.uint16)
    return np.argsort(rank[codes], kind="stable")


def _many_distinct(keys: IntArray) -> bool:
    """Whether ``keys`` (at least ``2 · 65,536``) surely hold more than 65,535 distinct values, judged from
    an evenly spaced sample of ``SAMPLE`` of them: u distinct values spread evenly give a sample about
    SAMPLE² / (2u) repeats, so fewer than ``SAMPLE² / (2 · 65,536)`` repeats mean more. Uneven values
    repeat more, which keeps hashing (the other answer only skips a hashing whose result
    :func:`grouping_order` would throw away)."""
    if keys.size < 2 * 65_536:
        return False
    sample = keys[:: keys.size // SAMPLE][:SAMPLE]
    repeats = SAMPLE - np.unique(sample).size
    return repeats * 2 * 65_536 < SAMPLE * SAMPLE


@dataclass
class Parts:
    """The partitions over a set of cells (unions of whole partitions), cells sorted by partition key
    and SA value."""

    idx_s: IntArray  # the cells, sorted
    c_s: IntArray  # their row counts
    pstart: IntArray  # per (partition, SA value) pair: its first sorted cell
    pn: IntArray  # per pair: rows
    pv: IntArray  # per pair: SA code
    pg: IntArray  # per pair: its partition
    tp: IntArray  # per pair: θ = tp / tq of its value
    tq: IntArray
    viol: BoolArray  # per pair: the value is violated
    first_cell: IntArray  # per partition: its first sorted cell
    n: IntArray  # per partition: rows
    gviol: BoolArray  # per partition: some value is violated

    @property
    def G(self) -> int:
        return int(self.n.size)

    def cell_pairs(self) -> IntArray:
        """The pair of every sorted cell."""
        return np.repeat(np.arange(self.pstart.size), np.diff(np.append(self.pstart, self.idx_s.size)))


def split(
    idx: IntArray, ks: IntArray, cnt: IntArray, m: int, tp: IntArray, tq: IntArray, *, exact: bool = True
) -> Parts:
    """Sort the cells ``idx`` by ``ks`` (partition key · m + SA code) into pairs and partitions. The
    figures of the pairs and partitions do not depend on the order of the cells within a pair, but the
    rows a release deletes do (SPEC §5.3: a pair's deletions are taken in cell order): with ``exact``
    (the release's evaluation) the cells are ordered by ``np.argsort`` as they always were; the search's
    evaluations pass ``exact=False`` and take the faster :func:`grouping_order`."""
    comp = ks[idx]
    order = np.argsort(comp) if exact else grouping_order(comp)
    comp_s = comp[order]
    idx_s = idx[order]
    c_s = cnt[idx_s]
    pstart = starts(comp_s)
    pn = np.add.reduceat(c_s, pstart)
    pcomp = comp_s[pstart]
    pkey = pcomp // m
    pv = pcomp - pkey * m
    gflag = np.empty(pkey.size, dtype=bool)
    gflag[0] = True
    np.not_equal(pkey[1:], pkey[:-1], out=gflag[1:])
    gstart_p = np.flatnonzero(gflag)  # first pair of each partition
    pg = np.cumsum(gflag) - 1
    n = np.add.reduceat(pn, gstart_p)
    ptp, ptq = tp[pv], tq[pv]
    viol = pn * ptq > ptp * n[pg]
    gviol = np.bincount(pg, weights=viol, minlength=gstart_p.size) > 0
    return Parts(idx_s, c_s, pstart, pn, pv, pg, ptp, ptq, viol, pstart[gstart_p], n, gviol)


def min_removals(P: Parts, metric: Metric, scheme: Scheme) -> IntArray:
    """#MinRm per pair (Lemma 3), non-recursive: ceil((n_s - θ n)/(1 - θ)) = ceil((n_s q - p n)/(q - p));
    zero where the bounds do not use it."""
    if (metric == "lm" and scheme in ("viosa", "allsa")) or (metric == "cm" and scheme == "viorec"):
        num = P.pn * P.tq - P.tp * P.n[P.pg]
        den = P.tq - P.tp
        return np.asarray(np.where(P.viol, np.where(den > 0, -((-num) // np.maximum(den, 1)), P.pn), 0))
    return np.zeros(P.pn.size, dtype=np.int64)


def recursive_deletions(P: Parts, rec: bool) -> tuple[IntArray, IntArray]:
    """vioRec's deletions per partition and per pair: the least fixed point D = Σ_s max(0, ceil(n_s -
    θ_s (n - D))); zeros unless ``rec`` and a partition violates."""
    G = P.G
    if not (rec and P.gviol.any()):
        return np.zeros(G, dtype=np.int64), np.zeros(P.pn.size, dtype=np.int64)
    sel = np.flatnonzero(P.gviol[P.pg])  # only the pairs of violating partitions can lose rows
    spg, spn, stp, stq = P.pg[sel], P.pn[sel], P.tp[sel], P.tq[sel]
    D = np.zeros(G, dtype=np.int64)
    while True:
        N = P.n - D
        dd = np.maximum(0, -((stp * N[spg] - spn * stq) // stq))
        h = np.bincount(spg, weights=dd, minlength=G).astype(np.int64)
        if np.array_equal(h, D):
            break
        D = h
    pdel = np.zeros(P.pn.size, dtype=np.int64)
    pdel[sel] = dd
    return D, pdel


def scheme_counts(P: Parts, scheme: Scheme, D: IntArray) -> tuple[IntArray, IntArray, IntArray, BoolArray]:
    """Per partition under the scheme: rows kept, rows deleted, SA values suppressed, and feasibility
    (NoSupp: a violating partition makes the cut infeasible)."""
    G, n, gviol = P.G, P.n, P.gviol
    zero = np.zeros(G, dtype=np.int64)
    if scheme == "nosupp":
        return n, zero, zero, ~gviol
    feasible = np.ones(G, dtype=bool)
    if scheme == "viosa":
        supp = np.bincount(P.pg, weights=np.where(P.viol, P.pn, 0), minlength=G).astype(np.int64)
        return n, zero, supp, feasible
    if scheme == "allsa":
        return n, zero, np.where(gviol, n, 0), feasible
    if scheme == "allrec":
        dele = np.where(gviol, n, 0)
        return n - dele, dele, zero, feasible
    return n - D, D, zero, feasible  # viorec


def cm_minority(
    P: Parts, klass_s: IntArray, ncls: int, scheme: Scheme, pdel: IntArray
) -> tuple[IntArray, IntArray | None]:
    """CM at the cut: minority rows of each kept partition after the scheme's deletions, and (vioRec with
    deletions) the rows deleted from each sorted cell. vioRec takes a value's deletions from the rows
    outside the partition's majority class first (class-code order), then from the majority class
    (SPEC §5.3 [D])."""
    k, c, G = klass_s, P.c_s, P.G
    cells_pair = P.cell_pairs()
    cells_g = P.pg[cells_pair]
    gc = np.bincount(cells_g * ncls + k, weights=c, minlength=G * ncls).astype(np.int64).reshape(G, ncls)
    cell_del = None
    if scheme == "viorec" and pdel.any():
        major = np.argmax(gc, axis=1)  # ties: the smallest class code
        is_major = (k == major[cells_g]).astype(np.int64)
        # within each pair: non-majority classes first (class-code order), then the majority class
        o = np.lexsort((k, is_major, cells_pair))
        cp = cells_pair[o]
        co = c[o]
        cum = np.cumsum(co)
        start = starts(cp)
        base = np.repeat(cum[start] - co[start], np.diff(np.append(start, cp.size)))
        before = cum - co - base
        take = np.clip(pdel[cp] - before, 0, co)
        kept_c = np.zeros(c.size, dtype=np.int64)
        kept_c[o] = co - take
        cell_del = c - kept_c
        gc = (
            np.bincount(cells_g * ncls + k, weights=kept_c, minlength=G * ncls)
            .astype(np.int64)
            .reshape(G, ncls)
        )
    kept = gc.sum(axis=1)
    minority = kept - gc.max(axis=1)
    if scheme == "allrec":
        minority = np.where(P.gviol, 0, minority)
    return np.asarray(minority, dtype=np.int64), cell_del


def _dm_spec_bound(P: Parts, size_s: IntArray, D: IntArray, scheme: Scheme, total: int) -> IntArray:
    """DM lower bounds of non-homogeneous partitions from their Cut_spec sub-partitions, given each sorted
    cell's sub-partition size ``size_s``: a sub-partition's size squared is the sum over its cells of
    rows × size, and each of its rows costs its size, so the cells stand for the sub-partitions."""
    G, n, c = P.G, P.n, P.c_s
    if scheme == "viorec":  # the safe bound [D]: d·|T| + (n - d)
        return D * total + (n - D)
    cells_g = np.repeat(np.arange(G), np.diff(np.append(P.first_cell, P.idx_s.size)))
    sq = np.bincount(cells_g, weights=c * size_s, minlength=G).astype(np.int64)  # exact below 2**53
    if scheme == "nosupp" or not D.any():
        return sq
    # allRec, Cor 7: d·|T| + the n - d smallest per-row costs, over the cells of the partitions losing rows
    sel = np.flatnonzero(D[cells_g] > 0)
    g2, s2, c2 = cells_g[sel], size_s[sel], c[sel]
    o2 = grouping_order(g2 * (int(s2.max()) + 1) + s2)  # equal keys: equal sizes, any order
    g2, s2, c2 = g2[o2], s2[o2], c2[o2]
    cum = np.cumsum(c2)
    st2 = starts(g2)
    base = np.repeat(cum[st2] - c2[st2], np.diff(np.append(st2, g2.size)))
    before = cum - c2 - base
    take = np.clip((n - D)[g2] - before, 0, c2)
    smallest = np.bincount(g2, weights=take * s2, minlength=G).astype(np.int64)
    return np.asarray(np.where(D > 0, D * total + smallest, sq))


def _cm_spec_bound(
    P: Parts, spec_s: IntArray, D: IntArray, sum_minrm: IntArray, scheme: Scheme, klass_s: IntArray, ncls: int
) -> IntArray:
    """CM lower bounds of non-homogeneous partitions: the minority of each Cut_spec sub-partition."""
    G, n = P.G, P.n
    cells_g = np.repeat(np.arange(G), np.diff(np.append(P.first_cell, P.idx_s.size)))
    o = grouping_order(spec_s * ncls + klass_s)  # sums per (sub-partition, class)
    sg, sp, sk, sc = cells_g[o], spec_s[o], klass_s[o], P.c_s[o]
    newsub = np.ones(sp.size, dtype=bool)
    np.not_equal(sp[1:], sp[:-1], out=newsub[1:])
    newcls = newsub.copy()
    newcls[1:] |= sk[1:] != sk[:-1]
    cst = np.flatnonzero(newcls)
    ccount = np.add.reduceat(sc, cst)
    sub_of_cls = np.cumsum(newsub)[cst] - 1
    nsub = int(newsub.sum())
    sub_size = np.bincount(sub_of_cls, weights=ccount, minlength=nsub).astype(np.int64)
    sub_max = np.zeros(nsub, dtype=np.int64)
    np.maximum.at(sub_max, sub_of_cls, ccount)
    sub_grp = sg[np.flatnonzero(newsub)]
    minority = np.bincount(sub_grp, weights=sub_size - sub_max, minlength=G).astype(np.int64)
    majority = np.bincount(sub_grp, weights=sub_max, minlength=G).astype(np.int64)
    if scheme == "nosupp":
        return minority
    if scheme == "allrec":  # Cor 7: d + max(0, (n - d) - Σ majority)
        return np.asarray(D + np.maximum(0, n - D - majority), dtype=np.int64)
    return np.asarray(np.maximum(sum_minrm, minority), dtype=np.int64)  # vioRec: Thm 4 (safe for CM)


@dataclass(frozen=True)
class Pricing:
    """The search's constants that price a partition and bound it: the metric and scheme, the cost of one
    removed row (``cs``), |T| and the number of classes (CM)."""

    metric: Metric
    scheme: Scheme
    cs: int
    total: int
    ncls: int


@dataclass
class AtSpec:
    """The touched cells (sorted as in :class:`Parts`) as the subtree's most specific cut Cut_spec sees them:
    their Cut_spec images, each partition's exact cost at Cut_spec, its LM per row at Cut_spec (LM only),
    the cells' classes (CM only) and the rows of each cell's Cut_spec sub-partition (DM, when the search keeps
    them: :mod:`.spec_sizes`)."""

    spec_s: IntArray
    exact: IntArray
    gsp: IntArray | None = None
    klass_s: IntArray | None = None
    size_s: IntArray | None = None


def lower_bounds(P: Parts, at: AtSpec, D: IntArray, minrm: IntArray, price: Pricing) -> IntArray:
    """Each partition's lower bound (SPEC §5.7): its exact cost at Cut_spec when homogeneous there, else the
    metric's bound (``price.cs``: the cost of one removed row)."""
    metric, scheme, spec_s = price.metric, price.scheme, at.spec_s
    first = P.first_cell
    homog = np.minimum.reduceat(spec_s, first) == np.maximum.reduceat(spec_s, first)
    sum_minrm = np.bincount(P.pg, weights=minrm, minlength=P.G).astype(np.int64)
    bound: Any
    if metric == "lm":
        gsp = at.gsp
        assert gsp is not None
        if scheme == "nosupp":
            bound = P.n * gsp
        elif scheme in ("viosa", "allsa"):  # Thm 5
            bound = sum_minrm * price.cs + P.n * gsp
        else:  # Cor 7 (independence holds for LM): d·c + (n - d)·cost_g at Cut_spec
            bound = D * price.cs + (P.n - D) * gsp
    elif metric == "dm":
        size_s = sizes_of(spec_s, P.c_s) if at.size_s is None else at.size_s
        bound = _dm_spec_bound(P, size_s, D, scheme, price.total)
    else:
        assert at.klass_s is not None
        bound = _cm_spec_bound(P, spec_s, D, sum_minrm, scheme, at.klass_s, price.ncls)
    return np.asarray(np.where(homog, at.exact, bound), dtype=np.int64)


def cell_detail(
    P: Parts, metric: Metric, scheme: Scheme, pdel: IntArray, cm_cell_del: IntArray
) -> tuple[IntArray, IntArray, IntArray, BoolArray]:
    """Per sorted cell: the cell, its partition number, rows deleted, SA suppressed (the release)."""
    c = P.c_s
    cells_pair = P.cell_pairs()
    cells_g = P.pg[cells_pair]
    deleted = np.zeros(P.idx_s.size, dtype=np.int64)
    suppressed = np.zeros(P.idx_s.size, dtype=bool)
    if scheme == "viosa":
        suppressed = P.viol[cells_pair]
    elif scheme == "allsa":
        suppressed = P.gviol[cells_g]
    elif scheme == "allrec":
        deleted = np.where(P.gviol[cells_g], c, 0)
    elif scheme == "viorec" and pdel.any():
        if metric == "cm":
            deleted = cm_cell_del
        else:  # a pair's deletions from its cells in cell order (any rows cost the same, SPEC §5.3)
            cum = np.cumsum(c)
            before = cum - c - (cum - c)[P.pstart][cells_pair]
            deleted = np.clip(pdel[cells_pair] - before, 0, c)
    return P.idx_s, cells_g, deleted, suppressed
