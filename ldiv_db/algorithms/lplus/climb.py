"""A ceiling for the l+-Optimize search: a cheaper cut near the warm start, found by a local search.

The full-subtree search prunes a subtree when its lower bound reaches the best cost known, so the
closer that cost is to the optimum from the start, the fewer cuts it visits. The full-domain warm start
gives a cut; single-node moves from it — specialize one cut node into its children, or generalize a
full set of siblings into their parent — often reach a cheaper one (first improvement, each cut
evaluated on its own, within ``MAX_WORK`` cell evaluations; on histograms of at most ``MAX_CELLS`` cells).

The cut found is **not** offered as a result: the search prunes against its cost plus one (a
*ceiling*: only subtrees whose every cut costs more than it are skipped), so the first cut of the
optimal cost in the search's order is still visited and is the one released, as without the ceiling
(a tie of the climbed cut never replaces it). A cost found here that the search then cannot reach
would mean the two evaluations disagree; :meth:`~.search.Search.run` searches again without the
ceiling in that case (it never happens in the tests).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

import numpy as np

from ...taxonomy.arrays import IntArray
from .index import TreeIndex
from .partitions import cm_minority, recursive_deletions, scheme_counts, split
from .problem import INF, Problem, Space

Cut = tuple[tuple[int, ...], ...]


class Search(Protocol):
    """What the climb reads of a search (:class:`~.search.Search`), and its incumbent and ceiling."""

    p: Problem
    space: Space
    C: int
    m: int
    ncls: int
    cs: int
    lm: bool
    trees: list[TreeIndex]
    leaf: IntArray
    stride: IntArray
    lmu: list[IntArray]
    sa: IntArray
    cnt: IntArray
    tp: IntArray
    tq: IntArray
    klass: IntArray | None
    all_cells: IntArray
    heap: list[tuple[int, int, Cut]]
    seq: int
    ceiling: int

    @property
    def best_cost(self) -> int | None: ...

    def bound(self) -> int: ...


#: the most cells the climb may evaluate in all (its cuts × the histogram's cells) ...
MAX_WORK = 6_000_000
#: ... on histograms of at most this many cells (on larger ones a cut's evaluation costs more than the
#: search's visits it could save)
MAX_CELLS = 200_000


def cut_cost(s: Search, cut: Cut) -> int:
    """The cost of ``cut`` over every cell (INF when infeasible under NoSupp), from the leaves: the
    search's running state is neither read nor changed."""
    key = np.zeros(s.C, dtype=np.int64)
    gc = np.zeros(s.C, dtype=np.int64)
    for a, t in enumerate(s.trees):
        g = t.cut_map(cut[a])[s.leaf[a]]
        key += g * s.stride[a]
        if s.lm:
            gc += s.lmu[a][g]
    metric, scheme = s.p.metric, s.p.scheme
    P = split(s.all_cells, key * s.m + s.sa, s.cnt, s.m, s.tp, s.tq, exact=False)
    D, pdel = recursive_deletions(P, scheme in ("viorec", "allrec"))
    kept, dele, supp, feasible = scheme_counts(P, scheme, D)
    if not feasible.all():
        return INF
    if metric == "lm":
        gen = kept * gc[P.idx_s[P.first_cell]]
    elif metric == "dm":
        gen = kept * kept
    else:
        assert s.klass is not None
        gen, _ = cm_minority(P, s.klass[P.idx_s], s.ncls, scheme, pdel)
    return int((gen + (supp + dele) * s.cs).sum())


def neighbours(s: Search, cut: Cut) -> Iterator[Cut]:
    """The cuts one move from ``cut``: a cut node specialized into its children, or the children of a
    node, all in the cut, generalized into it."""
    for a, t in enumerate(s.trees):
        have = set(cut[a])
        for v in cut[a]:
            if not t.is_leaf[v]:
                yield _with(cut, a, (have - {v}) | set(t.children[v]))
        for u in range(t.n):
            kids = t.children[u]
            if kids and have.issuperset(kids):
                yield _with(cut, a, (have - set(kids)) | {u})


def _with(cut: Cut, a: int, nodes: set[int]) -> Cut:
    return tuple(tuple(sorted(nodes)) if b == a else c for b, c in enumerate(cut))


def climb(s: Search, cut: Cut, cost: int) -> tuple[int, Cut] | None:
    """A cheaper cut than ``cut`` (of cost ``cost``) and its cost, or ``None``."""
    budget = MAX_WORK // max(s.C, 1)
    best, best_cost = cut, cost
    moved = True
    while moved and budget > 0:
        moved = False
        for nb in neighbours(s, best):
            if budget <= 0:
                break
            budget -= 1
            c = cut_cost(s, nb)
            if c < best_cost:
                best, best_cost, moved = nb, c, True
                break
    return (best_cost, best) if best_cost < cost else None


def start(s: Search, incumbents: Sequence[tuple[int, Cut]], climbing: bool) -> tuple[int, Cut] | None:
    """Take the best of the ``incumbents`` as the search's best cut and, when ``climbing`` (full-subtree
    space), set the ceiling of a cheaper cut climbed from it; returns that cut and its cost."""
    for known, known_cut in incumbents:
        if known < s.bound():
            s.seq += 1
            s.heap[:] = [(-known, -s.seq, tuple(tuple(c) for c in known_cut))]
    if not (climbing and incumbents and s.heap and s.space == "full-subtree" and s.C <= MAX_CELLS):
        return None
    climbed = climb(s, s.heap[0][2], -s.heap[0][0])
    s.ceiling = INF if climbed is None else climbed[0] + 1
    return climbed


def missed(s: Search, climbed: tuple[int, Cut] | None, timed_out: bool) -> bool:
    """After the search: whether it must run again without the ceiling (it finished without reaching the
    climbed cost). A search stopped by its time limit takes the climbed cut when nothing better was found."""
    best = s.best_cost
    if climbed is None or (best is not None and best <= climbed[0]):
        return False
    if not timed_out:
        return True
    s.seq += 1
    s.heap[:] = [(-climbed[0], -s.seq, climbed[1])]
    return False
