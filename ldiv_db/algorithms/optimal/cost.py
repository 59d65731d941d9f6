"""The loss metrics the optimal search minimizes, exactly, per lattice node, each equal to the figure the
release reports (``metrics`` of the anonymize result) for the published node.

* ``loss``: ARX's Loss (:mod:`ldiv_db.utility.arx_loss`: gs = 0.5, geometric mean over the QIs, a deleted
  row counts as fully generalized). With N rows, |A_j| leaves and S_j = Σ over published rows of the
  leaves under the row's node, ``v_j + 1 = (S_j + deleted·|A_j| + N·(|A_j| − 2)) / (N·(|A_j| − 1))``; the
  denominators are constant, so the search compares the product of the numerators (an exact integer).
* ``lm``: Iyengar's LM as :mod:`ldiv_db.utility.lm` reports it: Σ_j Σ_published (#leaves − 1)/(|A_j| − 1)
  plus 2·|QI| per deleted row (scaled by lcm(|A_j| − 1) to stay integral).
* ``dm``: Σ over published groups of |G|² plus |T| per deleted row.
* ``aecs``: |T| / classes, where the deleted rows form one class (as ARX keeps them: one class of all-``*``
  records) — the average class size.
* ``cm``: published rows outside their group's majority class plus the deleted rows (``--class-column``).
* ``entropy``: ARX's non-uniform entropy (ARX's ``createPrecomputedEntropyMetric(…, false)``: the
  non-monotonic variant, gs = 0.5, summed over the QIs), in bits. With n_v the rows of leaf v and N_u the
  rows under node u at the QI's level (over the whole table: ``gen_j``), and c_u the deleted rows under u,
  S the deleted rows: ``Σ_j [Σ_v n_v·log2(N_{u(v)} / n_v) + Σ_u c_u·log2(S / c_u)]``. Every row, published
  or deleted, pays its generalization; a deleted row also pays for its generalized value being hidden
  among the deleted rows. Floating point (``math.fsum`` over the terms); two costs within
  :data:`ENTROPY_TIE` (relative) of each other count as equal, so the tie-break decides.

Lower bounds (all monotone up the lattice, which is what the best-first search needs): for loss, LM and
entropy the cost of the node with nothing deleted (``static``: a deleted row costs at least as much as its
generalized cell; computed without grouping); for DM, AECS and CM the cost of a judged node with nothing
deleted (``bound``), which holds for the node and every generalization of it (merging groups never lowers
Σ|G|², the number of minority rows or the class size; deleting a group of g rows costs g·|T| ≥ g², g ≥ its
minority rows, and never adds a class beyond the one of the deleted rows).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from .judge import Groups

MetricName = Literal["loss", "lm", "dm", "aecs", "cm", "entropy"]
METRICS: tuple[MetricName, ...] = ("loss", "lm", "dm", "aecs", "cm", "entropy")
Cost = int | Fraction | float
ENTROPY_TIE = 1e-9  # entropy costs this close (relative to the best one found, at least 1 bit) are equal


@dataclass
class Metric:
    """``cover[j][k]`` holds the leaves under each histogram row's node of QI j at level k; ``domain[j]`` =
    |A_j|; ``base`` is the finest partition (the rows); ``codes[j][k]`` each row's node of QI j at level k
    (dense codes, :class:`.lattice.Space`; the entropy metric needs them)."""

    name: MetricName
    base: Groups
    cover: Sequence[Sequence[np.ndarray]]
    domain: Sequence[int]
    codes: Sequence[Sequence[np.ndarray]] = ()

    def __post_init__(self) -> None:
        self.rows = int(self.base.size.sum())
        self.d = len(self.domain)
        self.sums = [[int(self.base.size @ c) for c in per_level] for per_level in self.cover]
        ones = [a - 1 for a in self.domain if a > 1]
        self.lm_scale = math.lcm(*ones) if ones else 1
        # the most leaves under one row's node, per QI and level (a deleted row adds at least |A| − this)
        self.cmax = [[int(c.max()) if len(c) else 1 for c in per_level] for per_level in self.cover]
        self._static: dict[
            tuple[int, ...], Cost
        ] = {}  # the search asks for a node's bound once per predecessor
        self.gen = [[_entropy_of(c[0], c[k], self.base.size) for k in range(len(c))] for c in self.codes]
        if self.name == "entropy" and len(self.gen) != self.d:
            raise ValueError("the entropy metric needs the rows' codes")

    @property
    def separable(self) -> bool:
        """The cost is a function of per-QI sums over the published rows (loss, LM)."""
        return self.name in ("loss", "lm")

    @property
    def static_bound(self) -> bool:
        """The cost with nothing deleted needs no grouping and bounds the node's cost from below (loss,
        LM, entropy)."""
        return self.name in ("loss", "lm", "entropy")

    def tolerance(self, cost: Cost) -> float:
        """How far another cost may be from ``cost`` and still be equal to it (0: costs are exact)."""
        return ENTROPY_TIE * max(1.0, abs(float(cost))) if self.name == "entropy" else 0.0

    def static(self, levels: Sequence[int]) -> Cost:
        """The node's cost with nothing deleted (loss, LM, entropy), else 0."""
        if not self.static_bound:
            return 0
        node = tuple(levels)
        out = self._static.get(node)
        if out is None:
            if self.name == "entropy":
                out = math.fsum(self.gen[j][k] for j, k in enumerate(levels))
            else:
                out = self._generalization(levels, [self.sums[j][k] for j, k in enumerate(levels)], 0)
            self._static[node] = out
        return out

    def static_all(self, heights: Sequence[int]) -> list[Cost]:
        """:meth:`static` of every node, in the order of ``itertools.product`` over the levels (outer
        products of the per-QI factors, exact integers for loss and LM)."""
        if self.name == "entropy":
            nodes = itertools.product(*(range(h) for h in heights))
            return [math.fsum(self.gen[j][k] for j, k in enumerate(node)) for node in nodes]
        loss, n = self.name == "loss", self.rows
        acc = np.array([1 if loss else 0], dtype=object)
        for j, (a, h) in enumerate(zip(self.domain, heights, strict=True)):
            if a <= 1:
                f = [1 if loss else 0] * h
            elif loss:
                f = [self.sums[j][k] + n * (a - 2) for k in range(h)]
            else:
                f = [(self.sums[j][k] - n) * (self.lm_scale // (a - 1)) for k in range(h)]
            factor = np.array(f, dtype=object)
            acc = np.multiply.outer(acc, factor) if loss else np.add.outer(acc, factor)
        return list(acc.ravel().tolist())

    def static_deleting(self, levels: Sequence[int], deleted: int) -> Cost:
        """A lower bound of the node's cost when at least ``deleted`` rows are deleted (loss, LM): each
        deleted row adds at least |A_j| − max #leaves on QI j (loss), 2·|QI| − Σ_j its LM share (LM)."""
        if not self.separable or deleted <= 0:
            return self.static(levels)
        n = self.rows
        if self.name == "loss":
            prod = 1
            for j, (a, k) in enumerate(zip(self.domain, levels, strict=True)):
                if a > 1:
                    prod *= self.sums[j][k] + deleted * (a - self.cmax[j][k]) + n * (a - 2)
            return prod
        share = sum(
            (self.cmax[j][k] - 1) * (self.lm_scale // (a - 1))
            for j, (a, k) in enumerate(zip(self.domain, levels, strict=True))
            if a > 1
        )
        return self.static(levels) + deleted * (2 * self.d * self.lm_scale - share)

    def _generalization(self, levels: Sequence[int], sums: Sequence[int], deleted: int) -> int:
        n = self.rows
        if self.name == "loss":
            prod = 1
            for a, s in zip(self.domain, sums, strict=True):
                if a > 1:
                    prod *= s + deleted * a + n * (a - 2)
            return prod
        total = 0
        for a, s in zip(self.domain, sums, strict=True):
            if a > 1:
                total += (s - (n - deleted)) * (self.lm_scale // (a - 1))
        return total + 2 * self.d * deleted * self.lm_scale

    def bound(self, g: Groups) -> Cost:
        """The node's cost with nothing deleted, from its groups (DM, AECS, CM); a bound for every node
        above it too."""
        if self.name == "dm":
            return int((g.size * g.size).sum())
        if self.name == "aecs":
            return Fraction(self.rows, max(1, len(g.size)))
        if self.name == "cm":
            return int(self._minority(g).sum())
        return 0

    @staticmethod
    def _minority(g: Groups) -> np.ndarray:
        assert g.klass is not None
        return np.asarray(g.size - g.klass.max(axis=1))

    def cost(self, levels: Sequence[int], g: Groups, ok: np.ndarray) -> Cost:
        """The exact cost of the node when the rows of the groups not ``ok`` are deleted."""
        deleted = int(g.size[~ok].sum())
        if self.separable:
            gone = ~ok
            size, rep = g.size[gone], g.rep[gone]
            sums = [
                self.sums[j][k] - (int(size @ self.cover[j][k][rep]) if deleted else 0)
                for j, k in enumerate(levels)
            ]
            return self._generalization(levels, sums, deleted)
        if self.name == "dm":
            published = g.size[ok]
            return int((published * published).sum()) + deleted * self.rows
        if self.name == "aecs":
            return Fraction(self.rows, max(1, int(ok.sum()) + (1 if deleted else 0)))
        if self.name == "entropy":
            return self._entropy(levels, g, ~ok, deleted)
        return int(self._minority(g)[ok].sum()) + deleted

    def _entropy(self, levels: Sequence[int], g: Groups, gone: np.ndarray, deleted: int) -> float:
        """The generalization terms of every row plus, per QI, Σ_u c_u·log2(S / c_u) over the deleted
        rows' nodes u (c_u of the S deleted rows lie under u; a group's rows share its nodes)."""
        terms = [self.gen[j][k] for j, k in enumerate(levels)]
        if deleted:
            size, rep = g.size[gone], g.rep[gone]
            for j, k in enumerate(levels):
                c = np.bincount(self.codes[j][k][rep], weights=size)
                c = c[c > 0]
                terms.extend((c * np.log2(deleted / c)).tolist())
        return math.fsum(terms)

    def value(self, cost: Cost) -> float:
        """The reported figure for an exact cost."""
        if self.name == "loss":
            den = 1
            for a in self.domain:
                if a > 1:
                    den *= self.rows * (a - 1)
            return math.exp((math.log(cost) - math.log(den)) / self.d) - 1.0 if self.d else 0.0
        if self.name == "lm":
            assert isinstance(cost, int)
            return float(Fraction(cost, self.lm_scale))
        return float(cost)


def _entropy_of(leaf: np.ndarray, node: np.ndarray, size: np.ndarray) -> float:
    """Σ_v n_v·log2(N_u(v) / n_v) over the leaves v present: n_v rows have leaf v, N_u rows lie under its
    node u at the level (``leaf``/``node``: each histogram row's codes, ``size`` its rows)."""
    n_v = np.bincount(leaf, weights=size)
    n_u = np.bincount(node, weights=size)
    parent = np.zeros(len(n_v), dtype=np.int64)
    parent[leaf] = node
    present = n_v > 0
    n, big = n_v[present], n_u[parent[present]]
    return math.fsum((n * np.log2(big / n)).tolist())
