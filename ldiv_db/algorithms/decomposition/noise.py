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
S_i multiset in distance mode); the rows stay in numpy arrays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .coding import Distances

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


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
class NoisySA:
    """One non-primary SA S_i as noise reads it: its codes (row-aligned), its l_i, ``cooccur[p, v]``
    (primary code p and S_i code v co-occur in the marginals), ``distance[a, b]`` (the hierarchical
    distance of two S_i codes), ``order[v]`` (the rank of code v in value order) and its index among all
    SAs (1 for the first non-primary one)."""

    codes: IntArray
    l: int
    cooccur: BoolArray
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
    cooccur = [sa.cooccur for sa in sas]
    distance = [sa.distance for sa in sas]
    order = [sa.order for sa in sas]
    ls = [sa.l for sa in sas]
    sa_index = [sa.index for sa in sas]
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
    for i, codes in enumerate(result.codes):
        l_i = int(ls[i])
        nv = cooccur[i].shape[1]
        # distinct values per group, vectorized; only the groups below l_i go on
        pairs = np.unique(g_sorted * nv + codes[by_group])
        distinct = np.bincount(pairs // nv)
        needy = np.nonzero(distinct[g_sorted[starts]] < l_i)[0]
        domain = np.asarray(cooccur[i].any(axis=0), dtype=bool)
        cache: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, int]]] = {}
        for k in needy.tolist():
            rows = by_group[starts[k] : ends[k]]
            g = int(g_sorted[starts[k]])
            values = codes[rows]
            prims = tuple(sorted(set(primary[rows].tolist())))
            key = (prims, tuple(sorted(values.tolist())))
            plan = cache.get(key) if mode == "distance" else None
            if plan is None:
                plan = _plan(
                    values.tolist(), prims, l_i, cooccur[i], domain, distance[i], order[i], mode, rng
                )
                if mode == "distance":
                    cache[key] = plan
            for replaced, new in plan:
                at = rows[np.nonzero(codes[rows] == replaced)[0][-1]]
                codes[at] = new
                result.added.append(
                    NoiseValue(g, sa_index[i], replaced, new, float(distance[i][replaced, new]))
                )
            noised.add(g)
            if len(set(codes[rows].tolist())) < l_i:
                result.unresolved.append((g, sa_index[i]))
    result.groups_noised = len(noised)
    return result


def linkable_values(primary_values: Sequence[int], cooccur: BoolArray) -> set[int]:
    """LSV(G, S_i): the S_i codes that co-occur in the marginals with any of G's primary codes (SPEC §4.4)."""
    return set(np.nonzero(cooccur[list(primary_values)].any(axis=0))[0].tolist())


def _plan(
    values: list[int],
    prims: tuple[int, ...],
    l_i: int,
    cooccur: BoolArray,
    domain: BoolArray,
    distance: FloatArray | Distances,
    order: IntArray,
    mode: str,
    rng: random.Random,
) -> list[tuple[int, int]]:
    """The (replaced, noise) code pairs for one group and one SA (SPEC §4.4)."""
    counts = Counter(values)
    candidates = linkable_values(prims, cooccur) - counts.keys()
    fallback = set(np.nonzero(domain)[0].tolist()) - counts.keys() - candidates
    plan: list[tuple[int, int]] = []
    while len(counts) < l_i:
        surplus = [v for v, c in counts.items() if c > 1]
        if not surplus:
            break
        offending = min(surplus, key=lambda v: (-counts[v], int(order[v])))
        pool = candidates or fallback
        if not pool:
            break
        if mode == "random":
            new = rng.choice(sorted(pool, key=lambda v: int(order[v])))
        else:
            new = min(pool, key=lambda v: (float(distance[offending, v]), int(order[v])))
        pool.discard(new)
        counts[offending] -= 1
        counts[new] += 1
        plan.append((offending, new))
    return plan
