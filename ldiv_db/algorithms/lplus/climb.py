"""A ceiling for the l+-Optimize search: a cheaper cut near the warm start, found by a local search.

The full-subtree search prunes a subtree when its lower bound reaches the best cost known, so the
closer that cost is to the optimum from the start, the fewer cuts it visits. The full-domain warm start
gives a cut; single-node moves from it — specialize one cut node into its children, or generalize a
full set of siblings into their parent — often reach a cheaper one (first improvement, each cut
evaluated on the cells the move changes, within ``MAX_WORK`` cell evaluations; on histograms of at most
``MAX_CELLS`` cells). A search still running at its ``AGAIN_AT``-th visit climbs again from the best
cut known, now also through pairs of moves where single moves stop (:func:`again`).

The cut found is **not** offered as a result: the search prunes against its cost plus one (a
*ceiling*: only subtrees whose every cut costs more than it are skipped), so the first cut of the
optimal cost in the search's order is still visited and is the one released, as without the ceiling
(a tie of the climbed cut never replaces it). A cost found here that the search then cannot reach
would mean the two evaluations disagree; :meth:`~.search.Search.run` searches again without the
ceiling in that case (it never happens in the tests).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, TypeAlias

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
    order_a: list[IntArray]  # per attribute, the cells in leaf order: those under node v are lo[v]..hi[v]
    lo: list[IntArray]
    hi: list[IntArray]
    heap: list[tuple[int, int, Cut]]
    seq: int
    ceiling: int
    climbed: tuple[int, Cut] | None  # the cheapest cut the climbs found, which set the ceiling
    again_at: int  # the visit at which to climb again, or -1

    @property
    def best_cost(self) -> int | None: ...

    def bound(self) -> int: ...


#: the most cells the climb may evaluate in all (its cuts × the histogram's cells) ...
MAX_WORK = 6_000_000
#: ... on histograms of at most this many cells (on larger ones a cut's evaluation costs more than the
#: search's visits it could save)
MAX_CELLS = 200_000
#: the search's visit at which it climbs again, with pairs of moves, from the best cut known (a
#: search that has come this far is long enough for the pairs' evaluations to pay)
AGAIN_AT = 200


def cut_cost(s: Search, cut: Cut) -> int:
    """The cost of ``cut`` over every cell (INF when infeasible under NoSupp), from the leaves: the
    search's running state is neither read nor changed."""
    return _At(s, cut).cost


Move = tuple[int, int, bool]  # the attribute, the node whose cells move, whether it is specialized
# a move's cost, its cells, and at one cell of each partition they form after it its cost (None: one
# of them is infeasible)
Moved: TypeAlias = "tuple[int, IntArray, IntArray | None]"


class _At:
    """One cut over every cell: each cell's partition key (· m + SA code), generalized node per
    attribute and LM per row, and each partition's cost at one of its cells (``part``). A move changes
    the partitions of the cells under one node only, so a neighbour is priced on those cells alone."""

    def __init__(self, s: Search, cut: Cut, part: IntArray | None = None, cost: int = INF) -> None:
        self.cut = cut
        self.g = [t.cut_map(cut[a])[s.leaf[a]] for a, t in enumerate(s.trees)]
        key = np.zeros(s.C, dtype=np.int64)
        self.gc = np.zeros(s.C, dtype=np.int64)
        for a in range(len(s.trees)):
            key += self.g[a] * s.stride[a]
            if s.lm:
                self.gc += s.lmu[a][self.g[a]]
        self.ks = key * s.m + s.sa
        self.part, self.cost = (np.zeros(s.C, dtype=np.int64), INF) if part is None else (part, cost)
        if part is not None:
            return
        at, costs = _price(s, self.ks, self.gc, s.cnt, s.klass)
        if costs is not None:
            self.part[at] = costs
            self.cost = int(costs.sum())

    def after(self, s: Search, move: Move, idx: IntArray) -> IntArray | None:
        """The partitions of cells ``idx`` (whole partitions of this cut, all under the move's node) once
        ``move`` is made: each one's cost at one of its cells, ``None`` when one is infeasible."""
        if idx.size == 0:  # no row under the node: nothing changes
            return np.zeros(0, dtype=np.int64)
        a, new, old = self._nodes(s, move, idx)
        ks = self.ks[idx] + (new - old) * (s.stride[a] * s.m)
        gc = self.gc[idx] + (s.lmu[a][new] - s.lmu[a][old]) if s.lm else self.gc
        klass = None if s.klass is None else s.klass[idx]
        at, costs = _price(s, ks, gc, s.cnt[idx], klass)
        if costs is None:
            return None
        out = np.zeros(idx.size, dtype=np.int64)
        out[at] = costs
        return out

    def _nodes(self, s: Search, move: Move, idx: IntArray) -> tuple[int, IntArray, IntArray]:
        """The move's attribute, and the new and old nodes there of cells ``idx``."""
        a, w, specialize = move
        t = s.trees[a]
        new = (
            t.anc[int(t.depth[w]) + 1][s.leaf[a][idx]] if specialize else np.full(idx.size, w, dtype=np.int64)
        )
        return a, new, self.g[a][idx]

    def floor(self, s: Search, move: Move, idx: IntArray) -> int:
        """At most what :meth:`after` sums to: under LM every row is kept (its LM) or deleted (the
        suppression cost), so it costs at least the smaller of the two; 0 under DM and CM."""
        if not s.lm or idx.size == 0:
            return 0
        a, new, old = self._nodes(s, move, idx)
        gc = self.gc[idx] + (s.lmu[a][new] - s.lmu[a][old])
        return int((s.cnt[idx] * np.minimum(gc, s.cs)).sum())

    def moved(self, s: Search, move: Move) -> Moved:
        """The cost of this cut after ``move``, its cells and their partitions' costs (:meth:`after`)."""
        a, w, _ = move
        idx = s.order_a[a][s.lo[a][w] : s.hi[a][w]]
        out = self.after(s, move, idx)
        if out is None:
            return INF, idx, None
        return self.cost - int(self.part[idx].sum()) + int(out.sum()), idx, out


def _price(
    s: Search, ks: IntArray, gc: IntArray, cnt: IntArray, klass: IntArray | None
) -> tuple[IntArray, IntArray | None]:
    """Each partition of the cells (their keys ``ks``, whole partitions only) and its cost, at one of
    its cells; ``None`` for the costs when one is infeasible."""
    metric, scheme = s.p.metric, s.p.scheme
    P = split(np.arange(ks.size), ks, cnt, s.m, s.tp, s.tq, exact=False)
    D, pdel = recursive_deletions(P, scheme in ("viorec", "allrec"))
    kept, dele, supp, feasible = scheme_counts(P, scheme, D)
    at = P.idx_s[P.first_cell]
    if not feasible.all():
        return at, None
    if metric == "lm":
        gen = kept * gc[at]
    elif metric == "dm":
        gen = kept * kept
    else:
        assert klass is not None
        gen, _ = cm_minority(P, klass[P.idx_s], s.ncls, scheme, pdel)
    return at, gen + (supp + dele) * s.cs


def _moves(s: Search, cut: Cut) -> Iterator[Move]:
    """The moves from ``cut``: a cut node specialized into its children, or the children of a node, all
    in the cut, generalized into it. Only the move: its cut (:func:`_apply`) is made where it is kept, as
    making each costs the cut's size and most are priced and dropped."""
    for a, t in enumerate(s.trees):
        have = set(cut[a])
        for v in cut[a]:
            if not t.is_leaf[v]:
                yield a, v, True
        # a node whose children are all in the cut is a cut node's parent (ascending: the nodes' order)
        for u in sorted({int(t.parent[v]) for v in cut[a] if t.depth[v] > 0}):
            if have.issuperset(t.children[u]):
                yield a, u, False


def _apply(s: Search, cut: Cut, move: Move) -> Cut:
    """The cut ``move`` makes of ``cut``."""
    a, v, specialize = move
    have, kids = set(cut[a]), set(s.trees[a].children[v])
    return _with(cut, a, (have - {v}) | kids if specialize else (have - kids) | {v})


def neighbours(s: Search, cut: Cut) -> Iterator[Cut]:
    """The cuts one move from ``cut`` (see :func:`_moves`)."""
    return (_apply(s, cut, move) for move in _moves(s, cut))


def _with(cut: Cut, a: int, nodes: set[int]) -> Cut:
    return tuple(tuple(sorted(nodes)) if b == a else c for b, c in enumerate(cut))


def climb(s: Search, cut: Cut, cost: int, pairs: bool = False) -> tuple[int, Cut] | None:
    """A cheaper cut than ``cut`` (of cost ``cost``) and its cost, or ``None``. Single moves (first
    improvement); with ``pairs``, where none improves, pairs of moves, the cheapest first move first (a
    cut one move from a local minimum is often one move from a cheaper cut)."""
    budget = MAX_WORK
    best = _At(s, cut)
    while budget > 0:
        near: dict[Move, Moved] = {}
        improved = None
        for move in _moves(s, best.cut):
            if budget <= 0:
                break
            got = best.moved(s, move)
            budget -= got[1].size
            if got[0] < best.cost:
                improved = (_apply(s, best.cut, move), got[0])
                break
            near[move] = got
        if improved is None and budget > 0 and pairs:
            improved, budget = _pair(s, best, near, budget)
        if improved is None:
            break
        budget -= s.C
        best = _At(s, improved[0])
    return (best.cost, best.cut) if best.cost < cost else None


def _pair(s: Search, best: _At, near: dict[Move, Moved], budget: int) -> tuple[tuple[Cut, int] | None, int]:
    """A cut two moves from ``best`` cheaper than it, through its neighbours ``near`` (every one, none
    cheaper; the cheapest first), and the budget left.

    A second move that ``best`` also has (another attribute's, or the same attribute's elsewhere)
    changes the cells B under its node, the first the cells A: the partitions of A ∩ B, A − B and B − A
    stay apart in all four cuts, so the pair costs the two moves' changes plus, on A ∩ B only, its
    price after both less after each plus before. Only A ∩ B is priced (nothing when it is empty: the
    changes add up, and neither is negative)."""
    order = sorted(near, key=lambda mv: near[mv][0])  # stable: ties in the moves' order
    for first in order:
        c1, A, partA = near[first]
        if c1 >= INF or budget <= 0:
            break
        nb = _apply(s, best.cut, first)
        assert partA is not None  # a finite cost: every partition feasible
        part = best.part.copy()
        part[A] = partA
        at = _At(s, nb, part, c1)
        budget -= s.C
        pos = np.full(s.C, -1, dtype=np.int64)
        pos[A] = np.arange(A.size)
        for move in _moves(s, nb):
            if budget <= 0:
                break
            if move[:2] == first[:2]:  # the first move undone (or its node's other move): no pair
                continue
            known = near.get(move)
            if known is None or known[0] >= INF:
                c, idx, _ = at.moved(s, move)
                budget -= idx.size
            else:
                c2, B, partB = known
                inA = pos[B]
                both = inA >= 0
                if not both.any():
                    continue
                AB = B[both]
                budget -= AB.size
                assert partB is not None
                rest = c1 + (c2 - best.cost) - int(partA[inA[both]].sum()) - int(partB[both].sum())
                rest += int(best.part[AB].sum())
                if rest + at.floor(s, move, AB) >= best.cost:
                    continue
                after = at.after(s, move, AB)
                if after is None:
                    continue
                c = rest + int(after.sum())
            if c < best.cost:
                return (_apply(s, nb, move), c), budget
    return None, budget


def start(s: Search, incumbents: Sequence[tuple[int, Cut]], climbing: bool) -> None:
    """Take the best of the ``incumbents`` as the search's best cut and, when ``climbing`` (full-subtree
    space), set the ceiling of a cheaper cut climbed from it (``s.climbed``), and the visit at which to
    climb again (``s.again_at``)."""
    s.climbed, s.again_at = None, -1
    for known, known_cut in incumbents:
        if known < s.bound():
            s.seq += 1
            s.heap[:] = [(-known, -s.seq, tuple(tuple(c) for c in known_cut))]
    if not (climbing and incumbents and s.heap and s.space == "full-subtree" and s.C <= MAX_CELLS):
        return
    _lower(s, climb(s, s.heap[0][2], -s.heap[0][0]))
    # under DM and CM no floor skips pairs (on Adult's CM grid cases they cost more than they saved)
    s.again_at = AGAIN_AT if s.lm else -1


def again(s: Search) -> None:
    """Climb with pairs of moves from the cheapest cut known (the search's best or the climbed one), and
    lower the ceiling to what that finds. Sound at any point of the search: a lower ceiling prunes only
    subtrees whose every cut costs more than a cut known to exist, so the first optimal cut in the
    search's order is still visited."""
    best = s.best_cost
    start_at = s.climbed if s.climbed is not None and (best is None or s.climbed[0] < best) else None
    if start_at is None:
        if best is None:
            return
        start_at = (best, max(s.heap)[2])  # the cheapest entry (costs are negated)
    _lower(s, climb(s, start_at[1], start_at[0], pairs=True))


def _lower(s: Search, climbed: tuple[int, Cut] | None) -> None:
    if climbed is not None and climbed[0] + 1 < s.ceiling:
        s.climbed, s.ceiling = climbed, climbed[0] + 1


def missed(s: Search, timed_out: bool) -> bool:
    """After the search: whether it must run again without the ceiling (it finished without reaching the
    climbed cost). A search stopped by its time limit takes the climbed cut when nothing better was found."""
    best = s.best_cost
    climbed = s.climbed
    if climbed is None or (best is not None and best <= climbed[0]):
        return False
    if not timed_out:
        return True
    s.seq += 1
    s.heap[:] = [(-climbed[0], -s.seq, climbed[1])]
    return False
