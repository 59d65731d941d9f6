"""One evaluation of the l+-Optimize search: the partitions over some cells priced (:func:`price`, with
:mod:`.partitions`' arithmetic and :mod:`.boxes`' bound), or answered from :mod:`.known` where they
were priced before (:func:`known`, :func:`relock`). :meth:`~.search.Search._eval` keeps the figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ...taxonomy.arrays import IntArray
from ...util.lazy import library
from .boxes import BoxBound
from .merge import MergeableSearch
from .partitions import (
    AtSpec,
    Parts,
    Pricing,
    cell_detail,
    cm_minority,
    lower_bounds,
    min_removals,
    recursive_deletions,
    scheme_counts,
    split,
)

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

BoolArray = npt.NDArray[np.bool_]


class Search(MergeableSearch):
    """What an evaluation reads and sets of a search (:class:`~.search.Search` derives from it) beyond
    what merging does."""

    cs: int
    pricing: Pricing
    boxes: BoxBound | None
    detail: tuple[IntArray, IntArray, IntArray, BoolArray]
    _want_detail: bool


def price(s: Search, idx: IntArray) -> tuple[Parts, IntArray, IntArray, BoolArray, IntArray]:
    """The partitions over ``idx`` (unions of whole partitions), each one's first sorted cell, cost,
    feasibility and LB (and, for the release, each cell's fate in ``s.detail``)."""
    metric, scheme = s.p.metric, s.p.scheme
    P = split(idx, s.ks, s.cnt, s.m, s.tp, s.tq, exact=s._want_detail)
    minrm = min_removals(P, metric, scheme)
    D, pdel = recursive_deletions(P, scheme in ("viorec", "allrec"))
    kept, dele, supp, feasible = scheme_counts(P, scheme, D)
    rep = P.idx_s[P.first_cell]
    klass_s = None if s.klass is None else s.klass[P.idx_s]
    gsp = None
    if metric == "lm":
        gsp = s.gs[rep]
        gen, gen_spec = kept * s.gc[rep], kept * gsp
    elif metric == "dm":
        gen = gen_spec = kept * kept
    else:
        assert klass_s is not None
        gen, cell_del = cm_minority(P, klass_s, s.ncls, scheme, pdel)
        gen_spec = gen
        if cell_del is not None:
            s._cell_del = cell_del
    removed = (supp + dele) * s.cs
    part_cost = gen + removed
    spec_s = s.spec[P.idx_s]
    size_s = None if s.sizes is None else s.sizes.size[P.idx_s]
    at = AtSpec(spec_s, gen_spec + removed, gsp, klass_s, size_s)
    lb_part = lower_bounds(P, at, D, minrm, s.pricing)
    if s._want_detail:
        s.detail = cell_detail(P, metric, scheme, pdel, s._cell_del)
    elif s.boxes is not None:
        lb_part = np.maximum(lb_part, s.boxes.bounds(s, P, rep, spec_s, lb_part, part_cost))
    return P, rep, part_cost, feasible, lb_part


def answers(s: Search) -> bool:
    """Whether the search answers known partitions from :mod:`.known`: the full-subtree space with the
    boxes' bound (a suppression scheme: every partition feasible) on a histogram small enough."""
    return s.space == "full-subtree" and s.boxes is not None and s.boxes.known is not None


def known(s: Search, idx: IntArray) -> tuple[int, int, int, int]:
    """:meth:`~.search.Search._eval` answering the partitions priced before from :mod:`.known` (the
    full-subtree space with a suppression scheme: every partition feasible), pricing only the others.
    The joint cuts (:meth:`~.boxes.BoxBound.gain`) then see every partition whose recursion has run."""
    bb = s.boxes
    assert bb is not None and bb.known is not None and s.mk is not None
    codes, keys = pd.factorize(s.mk[idx])
    cost, lb, ran = bb.known.get(keys)
    miss = cost < 0
    if miss.all():  # none known: priced as without the memo (the joint cuts read the pricing's own)
        P, rep, cost, _, lb = price(s, idx)
        keys = s.mk[rep]
        ran, final = _outcome(bb, P.G)
        bb.known.put(keys[final], cost[final], lb[final], ran[final])
    else:
        rep = np.empty(keys.size, dtype=np.int64)
        rep[codes] = idx  # any cell of a partition may hold its figures
        if miss.any():
            P, srep, scost, _, slb = price(s, idx[miss[codes]])
            if s._code.size != s.C:
                s._code = np.zeros(s.C, dtype=np.int64)
            s._code[idx] = codes
            g = s._code[srep]
            sran, final = _outcome(bb, P.G)
            cost[g], lb[g], ran[g] = scost, slb, sran
            bb.known.put(keys[g[final]], scost[final], slb[final], sran[final])
        bb.answered(keys, cost, lb, ran)
    s.cc[idx], s.lc[idx] = 0, 0
    s.cc[rep], s.lc[rep] = cost, lb
    return int(cost.sum()), 0, int(lb.sum()), 0


def _outcome(bb: BoxBound, G: int) -> tuple[IntArray, BoolArray]:
    """Per partition of the last pricing: whether its boxes' recursion has run (1), and whether its
    figures are final (not where the evaluation's budget left the recursion out: a later evaluation
    may run it, as it would without the memo)."""
    ran = np.zeros(G, dtype=np.int64)
    final = np.ones(G, dtype=bool)
    if bb.last is not None:  # the recursion's candidates, and what they got (-2: left out)
        cand, got = bb.last[0], bb.last[4]
        ran[cand] = got >= 0
        final[cand] = got != -2
    return ran, final


def relock(s: Search, idx: IntArray, held: IntArray) -> tuple[int, int, int, int]:
    """:meth:`~.search.Search._eval` of the cells ``idx`` of a value just locked, whose partitions are
    unchanged (only their open bits): ``held`` are the cells holding their figures before the lock (one
    per partition whose cost or bound is not zero; a partition that costs nothing at the cut keeps a
    zero bound, the cut being in the subtree it bounds). Answered from :mod:`.known` when it knows every
    one; else priced."""
    if not answers(s):
        return s._eval(idx)
    assert s.boxes is not None and s.boxes.known is not None and s.mk is not None
    cost, lb, _ = s.boxes.known.get(s.mk[held])
    if (cost < 0).any():
        return s._eval(idx)
    s.lc[held] = lb  # the costs stay
    return int(cost.sum()), 0, int(lb.sum()), 0
