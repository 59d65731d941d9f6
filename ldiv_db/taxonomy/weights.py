"""The weight schemes of sensitivity categories (SPEC §3.1): uniform, sensitivity with β, or explicit.
Used by the (l,α)-diversity models (:mod:`ldiv_db.privacy.l_alpha`) and by ``ldiv hierarchy show``."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..core.options import exact, match_names
from ..errors import BadInput


def uniform_weights(k: int) -> dict[int, Fraction]:
    """SPEC §3.1 uniform scheme: w(S_j) = (j−1)/(k−1); k = 4 gives 0, 1/3, 2/3, 1."""
    if k < 2:
        return {1: Fraction(1)}
    return {j: Fraction(j - 1, k - 1) for j in range(1, k + 1)}


def sensitivity_weights(k: int, beta: Any = 2) -> dict[int, Fraction]:
    """SPEC §3.1 sensitivity scheme, the literal formula: gaps w_{i,i−1} = 1/(i−1)^β, so
    w(S_j) = Σ_{i=2..j} (i−1)^−β / Σ_{i=2..k} (i−1)^−β (β = 2, k = 4: 0, 36/49, 45/49, 1). The paper's printed
    9/61, 45/61, 115/61 do not follow from it; pass them as explicit weights instead."""
    b = exact(2 if beta is None else beta, "beta")
    if not 1 <= b <= 16:
        raise BadInput(
            f"--beta must be a number in [1, 16] for the sensitivity weights, got {beta}",
            "give --beta in [1, 16] (default 2)",
        )
    if k < 2:
        return {1: Fraction(1)}

    def gap(i: int) -> Fraction:
        if b.denominator == 1:
            return Fraction(1, (i - 1) ** int(b))
        return Fraction((i - 1) ** -float(b)).limit_denominator(10**12)

    total = sum(gap(i) for i in range(2, k + 1))
    return {j: sum((gap(i) for i in range(2, j + 1)), Fraction(0)) / total for j in range(1, k + 1)}


def category_weights(categories: Mapping[Any, int], weights: Any, beta: Any) -> dict[int, Fraction]:
    ranks = sorted(set(categories.values()))
    if not ranks or ranks[0] < 1:
        raise BadInput(
            f"sensitivity categories must be positive integer ranks, found {ranks}",
            "1 = most sensitive; check the categories file",
        )
    k = ranks[-1]  # categories 1..K; a category may hold no value of this table
    if weights is None or weights == "uniform":
        return uniform_weights(k)
    if weights == "sensitivity":
        return sensitivity_weights(k, beta)
    if isinstance(weights, Mapping):
        real = [str(j) for j in range(1, k + 1)]
        match_names(
            [str(r) for r in weights], real, "a category rank", "--category-weights", real_are="the ranks are"
        )
        out = {int(r): exact(w, f"weight of category {r}") for r, w in weights.items()}
        missing = [r for r in ranks if r not in out]
        if missing:
            raise BadInput(
                f"explicit weights miss categories {missing}", "give a weight for every rank: 1=0,2=1/3,..."
            )
        return out
    raise BadInput(f"unknown weight scheme {weights!r}", "use uniform, sensitivity or an explicit map")
