"""Decomposition+ noise: make every non-primary SA of every group l_i-diverse by replacing surplus
copies of a repeated value with linkable sensitive values (SPEC §4.4; Das & Bhattacharyya 2012).

For a group G and a non-primary SA S_i with fewer than l_i distinct values:

- the linkable values ``LSV(G, S_i)`` are the S_i values that co-occur in the marginals with any primary
  value of G; the candidates are those not yet in G (fallback, [D]: every S_i value of the marginals not
  in G);
- the offending value ``R_V`` is the value with the most copies (ties: the smallest value, [D]); one of its
  surplus copies is replaced by a candidate N, so the group keeps its size; repeat until G has l_i
  distinct values;
- ``distance``: N minimizes the hierarchical distance ``d(R_V, N) = height(LCA) / H`` (ties: the smallest
  value); ``random``: N is drawn uniformly from the candidates with a seeded generator (Decomposition).

Decisions are pure Python on the few groups that need noise (cached by the group's primary values and
S_i multiset in distance mode); the rows stay in numpy arrays. The co-occurrences are kept sparse, the
codes linked to each primary code (:class:`Links`): a primary × S_i matrix is quadratic where both have
a value per row. A group's candidates and fallback are views of sorted code arrays less the few codes
it holds or drew (:class:`_Draw`), not sets of every linkable value per group.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .coding import Distances

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
KEPT = 4_000_000  # linked codes kept per SA for the groups of the same primary values


@dataclass(frozen=True)
class NoiseValue:
    """One replaced copy: in group ``group`` (0-based), SA ``sa`` (index among all SAs), the value code
    ``replaced`` became ``noise`` at hierarchical distance ``distance``."""

    group: int
    sa: int
    replaced: int
    noise: int
    distance: float


@dataclass
class Noise:
    codes: list[IntArray]  # per non-primary SA: the codes after noise, row-aligned with the input
    added: list[NoiseValue] = field(default_factory=list)
    unresolved: list[tuple[int, int]] = field(default_factory=list)  # (group, sa) left below l_i
    groups_noised: int = 0

    @property
    def count(self) -> int:
        return len(self.added)

    def mean_distance(self) -> float | None:
        return sum(a.distance for a in self.added) / len(self.added) if self.added else None


@dataclass(frozen=True)
class Links:
    """The S_i codes that co-occur with each primary code in the marginals: those of primary code p are
    ``codes[start[p] : start[p + 1]]``, ascending; ``domain``: every linked S_i code, ascending."""

    start: IntArray
    codes: IntArray
    domain: IntArray

    @classmethod
    def of(cls, primary: IntArray, values: IntArray, n_primary: int) -> Links:
        """The links of the (primary, S_i) code pairs given (repeats allowed)."""
        p = np.asarray(primary, dtype=np.int64)
        v = np.asarray(values, dtype=np.int64)
        order = np.lexsort((v, p))
        p, v = p[order], v[order]
        keep = np.ones(len(p), dtype=bool)
        keep[1:] = (p[1:] != p[:-1]) | (v[1:] != v[:-1])
        p, v = p[keep], v[keep]
        return cls(np.searchsorted(p, np.arange(n_primary + 1)), v, np.unique(v))

    def linked(self, primary_values: Sequence[int]) -> IntArray:
        """LSV: the codes linked to any of ``primary_values``, ascending."""
        parts = [self.codes[self.start[p] : self.start[p + 1]] for p in primary_values]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class NoisySA:
    """One non-primary SA S_i as noise reads it: its codes (row-aligned), its l_i, ``links`` (which
    primary and S_i codes co-occur in the marginals), ``distance[a, b]`` (the hierarchical
    distance of two S_i codes), ``order[v]`` (the rank of code v in value order) and its index among all
    SAs (1 for the first non-primary one)."""

    codes: IntArray
    l: int
    links: Links
    distance: FloatArray | Distances
    order: IntArray
    index: int


def add_noise(
    gid: IntArray,
    primary: IntArray,
    sas: Sequence[NoisySA],
    *,
    mode: str = "distance",
    seed: int | None = None,
) -> Noise:
    """Noise for the rows ``gid >= 0`` (rows of other groups are not touched) on every non-primary SA."""
    rng = random.Random(seed)
    result = Noise([np.array(sa.codes, dtype=np.int64, copy=True) for sa in sas])
    sel = np.nonzero(gid >= 0)[0]
    if not len(sel):
        return result
    by_group = sel[np.argsort(gid[sel], kind="stable")]
    g_sorted = gid[by_group]
    bounds = np.flatnonzero(np.diff(g_sorted)) + 1
    starts = np.concatenate([[0], bounds])
    ends = np.concatenate([bounds, [len(by_group)]])
    noised: set[int] = set()
    for sa, codes in zip(sas, result.codes, strict=True):
        nv = int(codes.max()) + 1 if len(codes) else 1
        # distinct values per group, vectorized; only the groups below l_i go on
        pairs = np.unique(g_sorted * nv + codes[by_group])
        distinct = np.bincount(pairs // nv)
        needy = np.nonzero(distinct[g_sorted[starts]] < sa.l)[0]
        draws = _Draws(sa)
        cache: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, int]]] = {}
        for k in needy.tolist():
            rows = by_group[starts[k] : ends[k]]
            g = int(g_sorted[starts[k]])
            values = codes[rows]
            prims = tuple(sorted(set(primary[rows].tolist())))
            key = (prims, tuple(sorted(values.tolist())))
            plan = cache.get(key) if mode == "distance" else None
            if plan is None:
                plan = _plan(values.tolist(), prims, sa, draws, mode, rng)
                if mode == "distance":
                    cache[key] = plan
            for replaced, new in plan:
                at = rows[np.nonzero(codes[rows] == replaced)[0][-1]]
                codes[at] = new
                result.added.append(NoiseValue(g, sa.index, replaced, new, float(sa.distance[replaced, new])))
            noised.add(g)
            if len(set(codes[rows].tolist())) < sa.l:
                result.unresolved.append((g, sa.index))
    result.groups_noised = len(noised)
    return result


def linkable_values(primary_values: Sequence[int], links: Links) -> set[int]:
    """LSV(G, S_i): the S_i codes that co-occur in the marginals with any of G's primary codes (SPEC §4.4)."""
    return set(links.linked(primary_values).tolist())


class _Draw:
    """The codes ``ranked`` (in value order; ``ranks`` their ranks in it, ascending) less those drawn or
    excluded: a candidate pool, read by position in value order (``random.choice``) or in full
    (distance), without copying ``ranked``."""

    def __init__(self, ranked: tuple[IntArray, IntArray], order: IntArray, out: Iterable[int]) -> None:
        self.ranked, self.ranks = ranked
        self.order = order
        self.gone: list[int] = []
        for v in out:
            self.discard(v)

    def discard(self, v: int) -> None:
        at = int(np.searchsorted(self.ranks, self.order[v]))
        if at < len(self.ranked) and self.ranked[at] == v and at not in self.gone:
            bisect.insort(self.gone, at)

    def __len__(self) -> int:
        return len(self.ranked) - len(self.gone)

    def __getitem__(self, k: int) -> int:
        if not 0 <= k < len(self):
            raise IndexError(k)
        for at in self.gone:  # ascending: each one at or before the k-th kept code moves it on
            if at > k:
                break
            k += 1
        return int(self.ranked[k])

    def __iter__(self) -> Iterator[int]:
        gone = set(self.gone)
        return (int(v) for at, v in enumerate(self.ranked.tolist()) if at not in gone)


class _Draws:
    """One SA's pools: the codes linked to a group's primary values in value order (kept per primary
    values, up to :data:`KEPT` codes in all) and the domain in value order."""

    def __init__(self, sa: NoisySA) -> None:
        self.sa = sa
        self.domain = self._ranked(sa.links.domain)
        self.kept: dict[tuple[int, ...], tuple[IntArray, IntArray]] = {}
        self.size = 0

    def _ranked(self, codes: IntArray) -> tuple[IntArray, IntArray]:
        ranks = self.sa.order[codes]
        by = np.argsort(ranks, kind="stable")
        return codes[by], ranks[by]

    def linked(self, prims: tuple[int, ...]) -> tuple[IntArray, IntArray]:
        ranked = self.kept.get(prims)
        if ranked is None:
            ranked = self._ranked(self.sa.links.linked(prims))
            if self.size + len(ranked[0]) > KEPT:
                self.kept.clear()
                self.size = 0
            self.kept[prims] = ranked
            self.size += len(ranked[0])
        return ranked


def _plan(
    values: list[int],
    prims: tuple[int, ...],
    sa: NoisySA,
    draws: _Draws,
    mode: str,
    rng: random.Random,
) -> list[tuple[int, int]]:
    """The (replaced, noise) code pairs for one group and one SA (SPEC §4.4)."""
    counts = Counter(values)
    order, distance = sa.order, sa.distance
    linked = draws.linked(prims)
    candidates = _Draw(linked, order, counts)
    fallback: _Draw | None = None
    plan: list[tuple[int, int]] = []
    while len(counts) < sa.l:
        surplus = [v for v, c in counts.items() if c > 1]
        if not surplus:
            break
        offending = min(surplus, key=lambda v: (-counts[v], int(order[v])))
        if not candidates and fallback is None:
            # every value of the domain not held at the start nor linked (few: the candidates ran out)
            fallback = _Draw(draws.domain, order, [*values, *linked[0].tolist()])
        pool = candidates or fallback
        if not pool:
            break
        if mode == "random":
            new = rng.choice(pool)
        else:
            new = min(pool, key=lambda v: (float(distance[offending, v]), int(order[v])))
        pool.discard(new)
        counts[offending] -= 1
        counts[new] += 1
        plan.append((offending, new))
    return plan
