"""l+-Optimize's problem and result types (SPEC §5.5–5.7): the compressed histogram, the QI taxonomies
(the store's :class:`~ldiv_db.taxonomy.arrays.TaxonomyArrays`, plus full-domain levels), and the exact
integer helpers the search and its tests share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from ...taxonomy.arrays import IntArray, TaxonomyArrays

Metric = Literal["lm", "dm", "cm"]
Scheme = Literal["nosupp", "viosa", "allsa", "viorec", "allrec"]
Space = Literal["full-subtree", "full-domain"]
Order = Literal["occurrences", "taxonomy"]
# a cut's decisions per cell (Search.apply): generalized node per QI (QI × cells), partition number,
# rows deleted, SA suppressed; and the cut's cost
Decisions = tuple[IntArray, IntArray, IntArray, npt.NDArray[np.bool_], int]

SCHEMES: tuple[Scheme, ...] = ("nosupp", "viosa", "allsa", "viorec", "allrec")
METRICS: tuple[Metric, ...] = ("lm", "dm", "cm")
#: SPEC §5.4: DM and CM only with NoSupp, vioRec and allRec.
ALLOWED: dict[Metric, tuple[Scheme, ...]] = {
    "lm": SCHEMES,
    "dm": ("nosupp", "viorec", "allrec"),
    "cm": ("nosupp", "viorec", "allrec"),
}


INF = 1 << 62


@dataclass(frozen=True)
class Taxonomy:
    """One QI taxonomy: the store's preorder arrays (``parent[0] = -1``, subtree of v = ``v..last[v]``).
    ``levels[k][leaf]`` (full-domain only) is the node a leaf generalizes to at ARX level k."""

    arrays: TaxonomyArrays
    levels: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(
        cls, parent: Sequence[int], labels: Sequence[str] = (), levels: tuple[tuple[int, ...], ...] = ()
    ) -> Taxonomy:
        """A taxonomy given by its preorder parent ids (hand-made problems; labels default to the ids)."""
        names = list(labels) if labels else [str(i) for i in range(len(parent))]
        return cls(TaxonomyArrays.from_parent(names, parent), levels)

    @property
    def parent(self) -> IntArray:
        return self.arrays.parent

    @property
    def labels(self) -> tuple[str, ...]:
        return self.arrays.labels

    @property
    def size(self) -> int:
        return self.arrays.size


@dataclass
class Problem:
    taxonomies: Sequence[Taxonomy]
    leaf: IntArray  # (d, C) leaf node id per attribute and cell
    sa: IntArray  # (C,) SA code 0..m-1
    count: IntArray  # (C,) rows per cell
    theta: Sequence[tuple[int, int]]  # per SA code: θ = p/q
    metric: Metric = "lm"
    scheme: Scheme = "nosupp"
    klass: IntArray | None = None  # (C,) class code (CM)
    total_rows: int | None = None  # |T| (defaults to the histogram's sum)


@dataclass
class Result:
    cost: int | None  # None: every cut is infeasible
    cut: tuple[tuple[int, ...], ...] | None  # per attribute, the sorted cut node ids
    lower_bound: int | None  # proven global lower bound (equals cost when optimal)
    optimal: bool
    visited: int
    pruned: int  # exact: a count of cuts can pass any float (2 ** 2000 under 2,000 groups of leaves)
    total_cuts: int
    seconds: float
    unit: int  # cost = value / unit (LM: L; DM, CM: 1)
    top: list[tuple[int, tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    timed_out: bool = False
    sub_searches: int = 0  # frames run over merged cells (the search's merge module) ...
    merge_counts: int = 0  # ... of the times a frame counted its merged cells
    merge_seconds: float = 0.0  # counting and building them

    @property
    def pruned_share(self) -> float:
        return self.pruned / self.total_cuts if self.total_cuts else 0.0


def starts(sorted_values: IntArray) -> IntArray:
    """Start positions of the runs of equal values in a sorted array."""
    flag = np.empty(sorted_values.size, dtype=bool)
    if sorted_values.size:
        flag[0] = True
        np.not_equal(sorted_values[1:], sorted_values[:-1], out=flag[1:])
    return np.flatnonzero(flag)


def min_rm(n_s: int, n: int, p: int, q: int) -> int:
    """Lemma 3 (SPEC §5.7): the fewest rows of value s to delete from a partition of n rows holding n_s of
    them so that s is no longer violated under θ = p/q, exactly ⌈(n_s − θ·n)/(1 − θ)⌉ (0 if not violated).
    The search computes the same expression vectorized."""
    if n_s * q <= p * n:
        return 0
    if p == q:
        return 0
    return -((p * n - n_s * q) // (q - p))


def least_deletions(counts: Sequence[int], thetas: Sequence[tuple[int, int]]) -> list[int]:
    """vioRec's deletions per value (SPEC §5.3): the least fixed point of d_s = max(0, ⌈n_s − θ_s·(n − D)⌉),
    D = Σ d_s, reached by iterating from D = 0 (the search runs the same iteration over all partitions)."""
    n = sum(counts)
    total = 0
    while True:
        kept = n - total
        dels = [max(0, -((p * kept - c * q) // q)) for c, (p, q) in zip(counts, thetas, strict=True)]
        if sum(dels) == total:
            return dels
        total = sum(dels)
