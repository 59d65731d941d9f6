"""β-likeness (Cao & Karras, VLDB 2012): in every class, every SA value whose share rises above its
baseline share p rises by at most β relatively: (p(s|class) − p) / p ≤ β (basic, Def. 2); enhanced
(Def. 3) also caps the gain at −ln p, so that a frequent value cannot rise to certainty. The relative
gain is the fraction (n·N − N_s·m)/(N_s·m), compared with β exactly; −ln p in floating point."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.options import exact
from ..errors import BadInput
from ..util.lazy import library
from .baseline import DistributionModel, ValueCounts

if TYPE_CHECKING:
    import numpy as np
else:
    np = library("numpy")

VARIANTS = ("basic", "enhanced")


class BetaLikeness(DistributionModel):
    name = "beta-likeness"
    template = "privacy/beta_likeness.sql"

    def __init__(
        self, n_sa: int, beta: Any, variant: str = "basic", baseline: ValueCounts | None = None
    ) -> None:
        super().__init__(n_sa, baseline)
        if beta is None:
            raise BadInput("the beta-likeness model needs β", "give --beta, e.g. --beta 1 (β > 0)")
        self.beta = exact(beta, "beta")
        if self.beta <= 0:
            raise BadInput(f"beta must be positive, got {beta}", "e.g. --beta 1")
        if variant not in VARIANTS:
            raise BadInput(f"unknown β-likeness variant {variant!r}", f"use --likeness {'|'.join(VARIANTS)}")
        self.variant = variant

    def with_baseline(self, baseline: ValueCounts) -> BetaLikeness:
        return BetaLikeness(self.n_sa, self.beta, self.variant, baseline)

    def own_params(self) -> dict[str, Any]:
        return {"beta": str(self.beta), "likeness": self.variant}

    def template_params(self) -> dict[str, Any]:
        return {"b_num": self.beta.numerator, "b_den": self.beta.denominator}

    def template_context(self, ev: Any) -> dict[str, Any]:
        return {"enhanced": self.variant == "enhanced"}

    def cells_ok(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int
    ) -> np.ndarray | None:
        # an absent value gains nothing (D = −N_v·m ≤ 0): the cells decide
        got = self.cell_diff(s, group, value, n, n_groups, factor=self.beta.numerator * self.beta.denominator)
        if got is None:
            return None
        d, m, base, b, big_n = got
        bad = (d > 0) & (d * self.beta.denominator > base * self.beta.numerator)
        if self.variant == "enhanced":
            cap = -np.log(np.asarray(b, dtype=np.float64) / big_n)
            gain = np.asarray(d, dtype=np.float64) / np.maximum(np.asarray(base, dtype=np.float64), 1.0)
            bad |= (d > 0) & (gain > cap[value])
        failed = np.zeros(n_groups, dtype=bool)
        failed[group[bad]] = True
        return np.asarray(~failed & (m > 0), dtype=bool)

    def rows_ok(self, s: int, counts: np.ndarray) -> np.ndarray:
        d, m, big_n, b = self.diff(s, counts, factor=self.beta.numerator * self.beta.denominator)
        base = b[None, :] * m[:, None]
        ok = ((d <= 0) | (d * self.beta.denominator <= base * self.beta.numerator)).all(axis=1)
        if self.variant == "enhanced":
            cap = -np.log(np.asarray(b, dtype=np.float64) / big_n)
            gain = np.asarray(d, dtype=np.float64) / np.maximum(np.asarray(base, dtype=np.float64), 1.0)
            ok &= ((np.asarray(d) <= 0) | (gain <= cap[None, :])).all(axis=1)
        return np.asarray(ok & (np.asarray(m) > 0), dtype=bool)
