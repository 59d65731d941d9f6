"""An independent brute force for the optimal full-domain search: every level vector is enumerated, the
rows are grouped by their generalized labels in plain Python, each group is judged by the privacy model's
own pure-Python test (``group_ok``), the rows of violating groups are deleted, and each metric is priced
from its definition with Fractions (entropy in floating point). It shares no code with ldiv_db.algorithms.optimal."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction

from ldiv_db.privacy import LPlus, PrivacyModel
from ldiv_db.privacy.baseline import DistributionModel
from ldiv_db.taxonomy import Hierarchy

Row = tuple[tuple[str, ...], tuple[str, ...], str | None]  # (leaf per QI, value per SA, class)


def _price(
    metric: str,
    rows: Sequence[Row],
    hierarchies: Sequence[Hierarchy],
    levels: tuple[int, ...],
    published: list[list[Row]],
    deleted: int,
) -> Fraction | float:
    """The exact cost; for loss the product Π(1 + v_j), which orders nodes as the geometric mean does."""
    n, d = len(rows), len(hierarchies)
    if metric in ("loss", "lm"):
        total = Fraction(1) if metric == "loss" else Fraction(0)
        for j, h in enumerate(hierarchies):
            a = h.domain_size
            if a <= 1:
                continue
            covers = [h.n_leaves(h.level_label(r[0][j], levels[j])) for g in published for r in g]
            if metric == "loss":
                total *= 1 + Fraction(sum(covers) + deleted * a - n, n * (a - 1))
            else:
                total += Fraction(sum(c - 1 for c in covers), a - 1)
        return total if metric == "loss" else total + 2 * d * deleted
    if metric == "dm":
        return Fraction(sum(len(g) ** 2 for g in published) + deleted * n)
    if metric == "aecs":
        return Fraction(n, max(1, len(published) + (1 if deleted else 0)))
    if metric == "entropy":
        return _entropy(rows, hierarchies, levels, published)
    minority = sum(len(g) - max(Counter(r[2] for r in g).values()) for g in published)
    return Fraction(minority + deleted)


def _entropy(
    rows: Sequence[Row], hierarchies: Sequence[Hierarchy], levels: tuple[int, ...], published: list[list[Row]]
) -> float:
    """ARX's non-uniform entropy in bits, row by row: every row pays −log2 P(its leaf | its node) over the
    whole table; a deleted row also pays −log2 P(its node | deleted) over the deleted rows."""
    gone = list((Counter(rows) - Counter(r for g in published for r in g)).elements())
    terms: list[float] = []
    for j, h in enumerate(hierarchies):
        node = [h.level_label(r[0][j], levels[j]) for r in rows]
        leaf = Counter(r[0][j] for r in rows)
        under = Counter(node)
        terms.extend(-math.log2(leaf[r[0][j]] / under[u]) for r, u in zip(rows, node, strict=True))
        hidden = Counter(h.level_label(r[0][j], levels[j]) for r in gone)
        terms.extend(-math.log2(hidden[h.level_label(r[0][j], levels[j])] / len(gone)) for r in gone)
    return math.fsum(terms)


def brute_force(
    rows: Sequence[Row],
    hierarchies: Sequence[Hierarchy],
    model: PrivacyModel,
    metric: str,
    limit: Fraction,
) -> tuple[Fraction | float, tuple[int, ...], int] | None:
    """(exact cost, levels, deleted rows) of the best node by (cost, sum of levels, levels), or None; entropy
    costs (floating point) within 1e-9 (relative, at least 1 bit) of the least one count as equal to it."""
    n_sa = len(rows[0][1])
    for part in model.components():  # the whole table's SA counts: l+ thresholds, distribution baselines
        if isinstance(part, (LPlus, DistributionModel)):
            part.resolve({s + 1: list(Counter(r[1][s] for r in rows).items()) for s in range(n_sa)})
    found: list[tuple[Fraction | float, int, tuple[int, ...], int]] = []
    for levels in itertools.product(*(range(h.levels) for h in hierarchies)):
        groups: dict[tuple[str, ...], list[Row]] = defaultdict(list)
        for r in rows:
            key = tuple(h.level_label(v, k) for h, v, k in zip(hierarchies, r[0], levels, strict=True))
            groups[key].append(r)
        published, deleted = [], 0
        for members in groups.values():
            if all(model.group_ok(Counter(m[1][s] for m in members), s + 1) for s in range(n_sa)):
                published.append(members)
            else:
                deleted += len(members)
        if deleted > limit * len(rows):
            continue
        found.append(
            (_price(metric, rows, hierarchies, levels, published, deleted), sum(levels), levels, deleted)
        )
    if not found:
        return None
    least = min(c[0] for c in found)
    tol = 1e-9 * max(1.0, float(least)) if metric == "entropy" else 0
    best = min((c for c in found if c[0] <= least + tol), key=lambda c: c[1:3])
    return best[0], best[2], best[3]
