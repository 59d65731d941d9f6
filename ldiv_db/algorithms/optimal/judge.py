"""Judging one lattice node per privacy model, on the node's groups of the compressed histogram (numpy,
exact: integer cross-multiplication for every threshold; entropy in floating point with the models'
1e-12 tolerance, as the SQL verdict computes it).

A :class:`Judge` also says which monotonicity the model admits, which is all the search may use to tag
nodes without judging them:

* ``monotone``: without suppression, a node that satisfies the model stays satisfied when any QI is
  generalized further (merging groups that pass gives a group that passes). True for k-anonymity and
  the distinct, entropy (concavity of entropy), recursive (c,l) (Machanavajjhala et al. §4), frequency,
  l+ (a linear test) and (l,α) models; false for unique-distinct (a merge repeats values).
* ``merge_safe``: a group that passes still passes after any other rows join it. Then the rows in
  violating groups never increase upward in the lattice, so feasibility under a suppression limit is
  monotone too. True only for k-anonymity, distinct-l and distinct (l,α) (more values, more weight).
  Entropy, recursive, frequency, l+ and the other (l,α) variants are **not** monotone with suppression:
  merging a passing group with a violating one can make all of its rows violate (ARX says the same of
  its l-diversity criteria).
* ``relax``: a merge-safe test that every passing group passes (a necessary condition): distinct-l for
  the l-diversity models (entropy ≥ ln l, r1 < c·(r_l+…), l·h(G) ≤ |G| and l+ with θ ≤ 1/l all need l
  values), distinct-l with weight ≥ α for the (l,α) family. Rows the relaxation rejects are deleted by
  the model too, so a node whose relaxation already deletes more than the limit is infeasible, and so
  is every node below it. That is how tagging stays exact where the model itself is not monotone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ...errors import BadInput
from ...privacy import (
    AllOf,
    Distinct,
    Entropy,
    Frequency,
    KAnonymity,
    LAlpha,
    LPlus,
    Recursive,
    UniqueDistinct,
)
from ...privacy.base import PrivacyModel, sql_text
from ...privacy.baseline import DistributionModel
from ...privacy.entropy import TOLERANCE
from ...util.lazy import library

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

SIZES, PRESENCE, COUNTS = 0, 1, 2  # what a judge reads of the SA values: nothing, the values present, counts


@dataclass(frozen=True)
class Groups:
    """One node's partition of the histogram: ``rep`` names one histogram row of each group (all rows of a
    group share the node's generalized vector); ``size`` holds the rows per group; ``counts[s]`` the rows
    per (group, value code) of SA ``s`` (unknown values left out); ``klass`` the rows per (group, class).

    A partition rolled up by the search keeps its SA counts sparse (``cells``: the non-zero (group, code,
    rows) cells per SA, ``widths``: the codes per SA) and builds the dense ``counts`` only when a model
    asks for them; ``dense`` holds the matrices given up front (the histogram's rows)."""

    rep: np.ndarray
    size: np.ndarray
    dense: tuple[np.ndarray, ...] = ()
    klass: np.ndarray | None = None
    cells: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...] = ()
    widths: tuple[int, ...] = ()
    _triplets: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)
    _present: dict[int, np.ndarray] = field(default_factory=dict)
    _counts: list[tuple[np.ndarray, ...]] = field(default_factory=list)

    @property
    def n_sa(self) -> int:
        return len(self.dense) if self.dense else len(self.cells)

    def width(self, s: int) -> int:
        return int(self.dense[s].shape[1]) if self.dense else self.widths[s]

    @property
    def counts(self) -> tuple[np.ndarray, ...]:
        """The dense count matrices per SA (built once from the cells of a sparse partition)."""
        if self.dense:
            return self.dense
        if not self._counts:
            mats = []
            for (gi, vi, tn), width in zip(self.cells, self.widths, strict=True):
                m = np.zeros((len(self.size), width), dtype=np.int64)
                m[gi, vi] = tn
                mats.append(m)
            self._counts.append(tuple(mats))
        return self._counts[0]

    def triplets(self, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The non-zero cells (group, code, rows) of ``counts[s]`` (``klass`` for −1), computed once."""
        if s >= 0 and not self.dense:
            return self.cells[s]
        out = self._triplets.get(s)
        if out is None:
            m = self.dense[s] if s >= 0 else self.klass
            assert m is not None
            flat = m.ravel()
            at = np.flatnonzero(flat != 0)  # on a boolean mask: much faster than on the integers
            gi, vi = np.divmod(at, max(1, m.shape[1]))
            out = (gi, vi, flat[at].astype(np.float64))
            self._triplets[s] = out
        return out

    def present(self, s: int) -> np.ndarray:
        """The number of distinct values of SA ``s`` per group, computed once (the model's test and its
        relaxation both need it)."""
        out = self._present.get(s)
        if out is None:
            if self.dense:
                out = np.count_nonzero(self.dense[s], axis=1)
            else:
                out = np.bincount(self.cells[s][0], minlength=len(self.size))
            self._present[s] = out
        return out


GroupTest = Callable[[Groups], np.ndarray]


@dataclass(frozen=True)
class Judge:
    test: GroupTest
    monotone: bool
    merge_safe: bool
    relax: GroupTest | None = None
    detail: int = COUNTS  # what the test reads of the SA values
    relax_detail: int = PRESENCE  # what the relaxation reads


def _distinct(ls: Sequence[int]) -> GroupTest:
    def test(g: Groups) -> np.ndarray:
        ok = np.ones(len(g.size), dtype=bool)
        for s, l in enumerate(ls):
            ok &= g.present(s) >= l
        return ok

    return test


def _xlogx(rows: int) -> np.ndarray:
    """n·ln n for every count n in 0..rows (0 for 0), the terms of the entropy sums looked up, not logged."""
    n = np.arange(rows + 1, dtype=np.float64)
    return n * np.log(np.where(n > 0, n, 1.0))


def _entropy_ok(
    m: np.ndarray, l: int, present: np.ndarray | None = None, xlogx: np.ndarray | None = None
) -> np.ndarray:
    """−Σ p ln p ≥ ln l − tolerance per row of the count matrix ``m`` (computed only for the rows with at
    least l values: fewer values cannot reach ln l); ``xlogx`` (:func:`_xlogx`) covers every count."""
    ok: np.ndarray = np.asarray((np.count_nonzero(m, axis=1) if present is None else present) >= l)
    idx = np.flatnonzero(ok)
    if len(idx):
        sub = m[idx]
        total = sub.sum(axis=1).astype(np.float64)
        terms = _xlogx(int(sub.max())) if xlogx is None else xlogx
        h = np.log(total) - terms[sub].sum(axis=1) / total
        ok[idx] = h >= math.log(l) - TOLERANCE
    return ok


def _recursive_ok(m: np.ndarray, l: int, c: Fraction, present: np.ndarray | None = None) -> np.ndarray:
    """r1 < c·(r_l + … + r_q) on the descending counts, exactly; fewer than l values fail."""
    ok: np.ndarray = np.asarray((np.count_nonzero(m, axis=1) if present is None else present) >= l)
    idx = np.flatnonzero(ok)
    if len(idx):
        r = -np.sort(-m[idx], axis=1)
        ok[idx] = r[:, 0] * c.denominator < c.numerator * r[:, l - 1 :].sum(axis=1)
    return ok


# a sparse partition's counts are made dense (groups × SA values) up to this many cells; past it the plain
# models are judged on the non-zero cells (a QI and the SA with a value per row: 20,000 × 20,000 cells)
DENSE_CELLS = 2**24
BLOCK_CELLS = 2**22  # a distribution model then judges it by blocks of groups of at most this many cells
Cells = tuple[np.ndarray, np.ndarray, np.ndarray]
SparseTest = Callable[[Cells, int, int, np.ndarray], np.ndarray]


def _per_sa(
    ls: Sequence[int],
    one: Callable[[np.ndarray, int, np.ndarray], np.ndarray],
    sparse: SparseTest | None = None,
) -> GroupTest:
    """The test of a per-SA model: ``one(counts, l, values present per group)``; ``sparse(cells, groups, l,
    values present per group)`` the same test on the non-zero cells, for a partition too wide to make
    dense."""

    def test(g: Groups) -> np.ndarray:
        ok = np.ones(len(g.size), dtype=bool)
        for s, l in enumerate(ls):
            if sparse is not None and _wide(g, s):
                ok &= sparse(g.cells[s], len(g.size), l, g.present(s))
            else:
                ok &= one(g.counts[s], l, g.present(s))
        return ok

    return test


def _ranked(cells: Cells, n_groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cells' groups and counts (integers) ordered by group, then count descending, each cell's rank
    within its group (0: its largest count), and per group its rows and its largest count."""
    gi, _, tn = cells
    n = tn.astype(np.int64)
    order = np.lexsort((-n, gi))
    g, n = gi[order], n[order]
    rank = np.arange(len(g)) - np.searchsorted(g, np.arange(n_groups))[g]
    total = np.bincount(g, weights=n, minlength=n_groups).astype(np.int64)
    first = np.zeros(n_groups, dtype=np.int64)
    first[g[rank == 0]] = n[rank == 0]
    return g, n, rank, total, first


def _recursive_sparse(c: Fraction) -> SparseTest:
    """:func:`_recursive_ok` on the non-zero cells: r1 < c·(total − r_1 − … − r_(l−1)), exactly."""

    def test(cells: Cells, n_groups: int, l: int, present: np.ndarray) -> np.ndarray:
        g, n, rank, total, first = _ranked(cells, n_groups)
        top = np.zeros(n_groups, dtype=np.int64)
        np.add.at(top, g[rank < l - 1], n[rank < l - 1])
        return np.asarray((present >= l) & (first * c.denominator < c.numerator * (total - top)))

    return test


def _frequency_sparse(cells: Cells, n_groups: int, l: int, present: np.ndarray) -> np.ndarray:
    """:func:`_frequency_ok` on the non-zero cells: l·(largest count) ≤ rows."""
    _, _, _, total, first = _ranked(cells, n_groups)
    return np.asarray(l * first <= total)


def _entropy_sparse(xlogx: np.ndarray) -> SparseTest:
    """:func:`_entropy_ok` on the non-zero cells (the same terms, summed in the cells' order rather than
    along a dense row: the last bits may differ, well inside the models' tolerance)."""

    def test(cells: Cells, n_groups: int, l: int, present: np.ndarray) -> np.ndarray:
        gi, _, tn = cells
        n = tn.astype(np.int64)
        total = np.bincount(gi, weights=tn, minlength=n_groups)
        terms = np.bincount(gi, weights=xlogx[n], minlength=n_groups)
        h = np.log(np.where(total > 0, total, 1.0)) - terms / np.where(total > 0, total, 1.0)
        return np.asarray((present >= l) & (h >= math.log(l) - TOLERANCE))

    return test


def _unique_sparse(cells: Cells, n_groups: int, l: int, present: np.ndarray) -> np.ndarray:
    """:func:`_unique_ok` on the non-zero cells: no value twice, at least l values."""
    gi, _, tn = cells
    repeated = np.zeros(n_groups, dtype=bool)
    repeated[gi[tn > 1]] = True
    return np.asarray(~repeated & (present >= l))


def _frequency_ok(m: np.ndarray, l: int) -> np.ndarray:
    top = m.max(axis=1) if m.shape[1] else np.zeros(len(m), dtype=np.int64)
    return np.asarray(l * top <= m.sum(axis=1))


def _unique_ok(m: np.ndarray, l: int) -> np.ndarray:
    return np.asarray(((m <= 1).all(axis=1)) & ((m > 0).sum(axis=1) >= l))


def _lplus(model: LPlus, values: Sequence[Sequence[str | None]], totals: Sequence[np.ndarray]) -> Judge:
    """l+: G(v)·q_v ≤ p_v·|G| for every value v with θ_v = p_v/q_v (resolved on the table's counts)."""
    theta = model.resolve(
        {
            s + 1: [(v, int(t)) for v, t in zip(vals, tot, strict=True)]
            for s, (vals, tot) in enumerate(zip(values, totals, strict=True))
        }
    )
    ps, qs, floors = [], [], []
    for s, vals in enumerate(values):
        ths = [theta[(s + 1, v)] for v in vals]
        ps.append(np.array([t.numerator for t in ths], dtype=np.int64))
        qs.append(np.array([t.denominator for t in ths], dtype=np.int64))
        top = max(ths, default=Fraction(1))
        floors.append(math.ceil(1 / top) if top > 0 else len(vals) + 1)

    def test(g: Groups) -> np.ndarray:
        ok = np.ones(len(g.size), dtype=bool)
        for s, (p, q) in enumerate(zip(ps, qs, strict=True)):
            if _wide(g, s):  # an absent value passes (0 ≤ p·|G|): the cells decide
                gi, vi, tn = g.cells[s]
                bad = tn.astype(np.int64) * q[vi] > p[vi] * g.size[gi]
                ok[gi[bad]] = False
            else:
                m = g.counts[s]
                ok &= (m * q[None, :] <= p[None, :] * g.size[:, None]).all(axis=1)
        return ok

    # Σ_v G(v) = |G| ≤ (values present)·max θ·|G| when no SA value is unknown: ≥ ⌈1/max θ⌉ values
    relax = _distinct(floors) if max(floors, default=1) >= 2 else None
    return Judge(test, monotone=True, merge_safe=False, relax=relax)


def _lalpha(model: LAlpha, values: Sequence[str | None]) -> Judge:
    missing = sorted(str(v) for v in values if sql_text(v) not in model.categories)
    if missing:
        raise BadInput(
            f"{len(missing)} SA value(s) have no sensitivity category: {', '.join(missing[:10])}",
            "add them to the categories file (value;category)",
        )
    den, num = model.scaled_weights()
    wnum = np.array([num[model.categories[sql_text(v)]] for v in values], dtype=np.int64)
    cats = sorted(set(model.categories.values()))
    onehot = np.zeros((len(values), len(cats)), dtype=np.int64)
    for i, v in enumerate(values):
        onehot[i, cats.index(model.categories[sql_text(v)])] = 1
    l, alpha = model.ls[0], model.alpha

    def base(g: Groups) -> np.ndarray:
        if _wide(g, 0):
            gi, vi, tn = g.cells[0]
            weight = np.zeros(len(g.size), dtype=np.int64)
            np.add.at(weight, gi, tn.astype(np.int64) * wnum[vi])
        else:
            weight = g.counts[0] @ wnum
        return np.asarray((g.present(0) >= l) & (weight * alpha.denominator >= alpha.numerator * den))

    def test(g: Groups) -> np.ndarray:
        ok = base(g)
        if model.variant == "distinct":
            return ok
        over_values = model.variant == "entropy" and model.entropy_over == "values"
        if _wide(g, 0) and not over_values:  # the rows per (group, category), from the cells
            gi, vi, tn = g.cells[0]
            units = np.zeros((len(g.size), len(cats)), dtype=np.int64)
            np.add.at(units, (gi, onehot[vi].argmax(axis=1)), tn.astype(np.int64))
        else:
            m = g.counts[0]
            units = m if over_values else m @ onehot
        if model.variant == "entropy":
            return np.asarray(ok & _entropy_ok(units, l))
        assert model.c is not None
        return np.asarray(ok & _recursive_ok(units, l, model.c))

    if model.variant == "distinct":
        return Judge(test, monotone=True, merge_safe=True)
    return Judge(test, monotone=True, merge_safe=False, relax=base, relax_detail=COUNTS)


def _distribution(
    model: DistributionModel, values: Sequence[Sequence[str | None]], totals: Sequence[np.ndarray]
) -> Judge:
    """t-closeness, δ-disclosure, β-likeness against the baseline of the whole input (``totals``: the
    histogram's rows per value, suppressed rows included). Monotone without suppression where the model
    is closed under union (:attr:`~ldiv_db.privacy.baseline.DistributionModel.union_closed`: a merged
    class's distribution is a mixture of its parts', whose EMD to the baseline, log ratios and relative
    gains stay within theirs; not δ-disclosure's reference-tool variant); not merge-safe, and no cheap
    relaxation."""
    model.resolve(
        {
            s + 1: [(v, int(t)) for v, t in zip(vals, tot, strict=True)]
            for s, (vals, tot) in enumerate(zip(values, totals, strict=True))
        }
    )
    perms = []
    for s, vals in enumerate(values):
        code = {v: i for i, v in enumerate(vals)}
        perms.append(np.array([code[v] for v, _ in model.baseline(s + 1)], dtype=np.int64))
    rank = [np.argsort(p) for p in perms]  # per SA code: its position in the baseline's order

    def test(g: Groups) -> np.ndarray:
        ok = np.ones(len(g.size), dtype=bool)
        for s, perm in enumerate(perms):
            cells = _cells_to_read(g, s)
            if cells is not None:  # from the cells where the model has that form
                gi, vi, tn = cells
                got = model.cells_ok(s + 1, gi, rank[s][vi], tn.astype(np.int64), len(g.size))
                if got is not None:
                    ok &= got
                    continue
            if _wide(g, s):  # by blocks
                for lo, block in _blocks(g.cells[s], len(g.size), g.width(s)):
                    ok[lo : lo + len(block)] &= model.rows_ok(s + 1, block[:, perm])
            else:
                ok &= model.rows_ok(s + 1, g.counts[s][:, perm])
        return ok

    return Judge(test, monotone=model.union_closed, merge_safe=False)


def _wide(g: Groups, s: int) -> bool:
    """A sparse partition too wide to make SA ``s``'s counts dense (:data:`DENSE_CELLS`)."""
    return not g.dense and len(g.size) * g.width(s) > DENSE_CELLS


def _cells_to_read(g: Groups, s: int) -> Cells | None:
    """SA ``s``'s non-zero cells where a distribution model should judge from them (the same verdicts)
    rather than from the matrix: a partition too wide to make dense, or one whose non-zero cells are at
    most a quarter of its counts (the histogram's own rows, given dense, included)."""
    if not g.dense:
        sparse = 4 * len(g.cells[s][0]) <= len(g.size) * g.width(s)
        return g.cells[s] if sparse or _wide(g, s) else None
    counts = g.dense[s]
    if 4 * np.count_nonzero(counts) > counts.size:
        return None
    gi, vi = np.nonzero(counts)
    return gi, vi, counts[gi, vi]


def _blocks(cells: Cells, n_groups: int, width: int) -> Iterator[tuple[int, np.ndarray]]:
    """The dense counts of a wide partition, a block of consecutive groups at a time (each row is judged
    alone: the same verdicts as on the whole matrix)."""
    gi, vi, tn = cells
    order = np.argsort(gi, kind="stable")
    gi, vi, n = gi[order], vi[order], tn[order].astype(np.int64)
    step = max(1, min(DENSE_CELLS, BLOCK_CELLS) // max(width, 1))
    for lo in range(0, n_groups, step):
        hi = min(lo + step, n_groups)
        a, b = np.searchsorted(gi, [lo, hi])
        block = np.zeros((hi - lo, width), dtype=np.int64)
        block[gi[a:b] - lo, vi[a:b]] = n[a:b]
        yield lo, block


def _all_of(judges: Sequence[Judge]) -> Judge:
    """A class passes every part; a part's relaxation (or a merge-safe part's own test) is necessary."""
    relaxes = [(j.relax, j.relax_detail) if j.relax is not None else (j.test, j.detail) for j in judges]
    relaxes = [r for r, j in zip(relaxes, judges, strict=True) if j.relax is not None or j.merge_safe]

    def test(g: Groups) -> np.ndarray:
        ok = np.ones(len(g.size), dtype=bool)
        for j in judges:
            ok &= j.test(g)
        return ok

    def relax(g: Groups) -> np.ndarray:
        ok = np.ones(len(g.size), dtype=bool)
        for r, _ in relaxes:
            assert r is not None
            ok &= r(g)
        return ok

    return Judge(
        test,
        monotone=all(j.monotone for j in judges),
        merge_safe=all(j.merge_safe for j in judges),
        relax=relax if relaxes else None,
        detail=max(j.detail for j in judges),
        relax_detail=max((d for _, d in relaxes), default=PRESENCE),
    )


def build_judge(
    model: PrivacyModel, values: Sequence[Sequence[str | None]], totals: Sequence[np.ndarray]
) -> Judge:
    """The numpy judge of ``model``; ``values[s]`` are SA ``s``'s values by code, ``totals[s]`` their rows."""
    ls = list(model.ls)
    if isinstance(model, AllOf):
        return _all_of([build_judge(p, values, totals) for p in model.parts])
    if isinstance(model, DistributionModel):
        return _distribution(model, values, totals)
    if isinstance(model, KAnonymity):
        k = model.k
        return Judge(lambda g: np.asarray(g.size >= k), monotone=True, merge_safe=True, detail=SIZES)
    if isinstance(model, Distinct):
        return Judge(_distinct(ls), monotone=True, merge_safe=True, detail=PRESENCE)
    if isinstance(model, Entropy):
        xlogx = _xlogx(max((int(t.sum()) for t in totals), default=0))
        return Judge(
            _per_sa(ls, lambda m, l, p: _entropy_ok(m, l, p, xlogx), _entropy_sparse(xlogx)),
            monotone=True,
            merge_safe=False,
            relax=_distinct(ls),
        )
    if isinstance(model, Recursive):
        c = model.c
        return Judge(
            _per_sa(ls, lambda m, l, p: _recursive_ok(m, l, c, p), _recursive_sparse(c)),
            monotone=True,
            merge_safe=False,
            relax=_distinct(ls),
        )
    if isinstance(model, Frequency):
        return Judge(
            _per_sa(ls, lambda m, l, p: _frequency_ok(m, l), _frequency_sparse),
            monotone=True,
            merge_safe=False,
            relax=_distinct(ls),
        )
    if isinstance(model, UniqueDistinct):
        return Judge(
            _per_sa(ls, lambda m, l, p: _unique_ok(m, l), _unique_sparse),
            monotone=False,
            merge_safe=False,
            relax=_distinct(ls),
        )
    if isinstance(model, LPlus):
        return _lplus(model, values, totals)
    if isinstance(model, LAlpha):
        if len(values) != 1:
            raise BadInput("the (l,α) models take one sensitive attribute", "name one column with --sa")
        return _lalpha(model, values[0])
    raise BadInput(f"the optimal search cannot judge {model.describe()}", "choose another --model")


def value_codes(column: pd.Series) -> tuple[np.ndarray, list[str | None]]:
    """Dense codes of an SA (or class) column in the order of the values (NULL last, a value of its own),
    and the values by code."""
    codes, uniques = pd.factorize(column, sort=True, use_na_sentinel=False)
    values = [None if (isinstance(v, float) and math.isnan(v)) or v is None else str(v) for v in uniques]
    return np.asarray(codes, dtype=np.int64), values
