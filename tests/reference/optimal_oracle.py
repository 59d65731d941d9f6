"""An independent brute force for the optimal full-domain search: every level vector is enumerated, the
rows are grouped by their generalized labels in plain Python, each group is judged by the privacy model's
own pure-Python test (``group_ok``), the rows of violating groups are deleted, and each metric is priced
from its definition with Fractions. It shares no code with ldiv_db.algorithms.optimal."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction

from ldiv_db.privacy import LPlus, PrivacyModel
from ldiv_db.taxonomy import Hierarchy

Row = tuple[tuple[str, ...], tuple[str, ...], str | None]  # (leaf per QI, value per SA, class)


def _price(
    metric: str,
    rows: Sequence[Row],
    hierarchies: Sequence[Hierarchy],
    levels: tuple[int, ...],
    published: list[list[Row]],
    deleted: int,
) -> Fraction:
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
    minority = sum(len(g) - max(Counter(r[2] for r in g).values()) for g in published)
    return Fraction(minority + deleted)


def brute_force(
    rows: Sequence[Row],
    hierarchies: Sequence[Hierarchy],
    model: PrivacyModel,
    metric: str,
    limit: Fraction,
) -> tuple[Fraction, tuple[int, ...], int] | None:
    """(exact cost, levels, deleted rows) of the best node by (cost, sum of levels, levels), or None."""
    n_sa = len(rows[0][1])
    if isinstance(model, LPlus):
        model.resolve({s + 1: list(Counter(r[1][s] for r in rows).items()) for s in range(n_sa)})
    best: tuple[Fraction, int, tuple[int, ...], int] | None = None
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
        cost = _price(metric, rows, hierarchies, levels, published, deleted)
        cand = (cost, sum(levels), levels, deleted)
        if best is None or cand[:3] < best[:3]:
            best = cand
    return None if best is None else (best[0], best[2], best[3])
