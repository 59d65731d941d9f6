"""δ-disclosure privacy (Brickell & Shmatikov, KDD 2008, Def. 4): in every class and for every SA value s
of the baseline, |ln(p(s|class) / p(s))| < δ. A value absent from a class makes the ratio 0 and the
logarithm infinite, so the class fails (the paper's definition, the default). The reference tool's
variant (``--delta-variant arx``) takes log₂ and ignores the values absent from a class. A logarithm is
no fraction, so the test runs in floating point."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..core.options import exact
from ..errors import BadInput
from ..util.lazy import library
from .baseline import DistributionModel, ValueCounts

if TYPE_CHECKING:
    import numpy as np
else:
    np = library("numpy")

VARIANTS = ("paper", "arx")


class DeltaDisclosure(DistributionModel):
    name = "delta-disclosure"
    template = "privacy/delta_disclosure.sql"

    def __init__(
        self, n_sa: int, delta: Any, variant: str = "paper", baseline: ValueCounts | None = None
    ) -> None:
        super().__init__(n_sa, baseline)
        if delta is None:
            raise BadInput("the delta-disclosure model needs δ", "give --delta, e.g. --delta 1.2 (δ > 0)")
        self.delta = exact(delta, "delta")
        if self.delta <= 0:
            raise BadInput(f"delta must be positive, got {delta}", "e.g. --delta 1.2")
        if variant not in VARIANTS:
            raise BadInput(
                f"unknown δ-disclosure variant {variant!r}", f"use --delta-variant {'|'.join(VARIANTS)}"
            )
        self.variant = variant

    @property
    def union_closed(self) -> bool:  # type: ignore[override]
        """Not in the reference tool's variant: a value absent from a class is ignored there, and merging
        such a class with one where the value is rare can bring it below p(s)·2^-δ."""
        return self.variant != "arx"

    def with_baseline(self, baseline: ValueCounts) -> DeltaDisclosure:
        return DeltaDisclosure(self.n_sa, self.delta, self.variant, baseline)

    def own_params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"delta": str(self.delta)}
        if self.variant != "paper":
            out["variant"] = self.variant
        return out

    def template_params(self) -> dict[str, Any]:
        return {"delta": float(self.delta)}

    def template_context(self, ev: Any) -> dict[str, Any]:
        return {"arx": self.variant == "arx"}

    def measures(self, s: int, counts: np.ndarray) -> np.ndarray:
        """Per class: the largest |log ratio| over the baseline's values (inf where one is absent, paper)."""
        b, big_n = self.totals(s)
        m = counts.sum(axis=1).astype(np.float64)
        present = counts > 0
        with np.errstate(divide="ignore"):
            ratio = np.abs(  # the log of one rounded quotient: a ratio of exactly 2 gives log 2 exactly
                np.log((np.where(present, counts, 1).astype(np.float64) * big_n) / (b[None, :] * m[:, None]))
            )
        if self.variant == "arx":
            ratio = np.where(present, ratio / math.log(2), 0.0)
            return np.asarray(ratio.max(axis=1, initial=0.0))
        ratio = np.where(present, ratio, np.inf)
        return np.asarray(ratio.max(axis=1, initial=0.0))

    def cells_ok(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int
    ) -> np.ndarray | None:
        # an absent value: inf (paper, the class fails) or 0 (arx, ignored); each cell's ratio as measures'
        b, big_n = self.totals(s)
        m = np.bincount(group, weights=n, minlength=n_groups).astype(np.int64)
        ratio = np.abs(np.log((n.astype(np.float64) * big_n) / (b[value] * m.astype(np.float64)[group])))
        if self.variant == "arx":
            ratio = ratio / math.log(2)
        top = np.zeros(n_groups, dtype=np.float64)
        np.maximum.at(top, group, ratio)
        ok = (top < float(self.delta)) & (m > 0)
        if self.variant != "arx":
            ok &= np.bincount(group, minlength=n_groups) == len(b)  # every value present
        return np.asarray(ok, dtype=bool)

    def removals_ok(self, s: int, row: np.ndarray, at: np.ndarray) -> np.ndarray | None:
        # every candidate has m − 1 rows: a column it leaves alone has the same ratio in all of them, so
        # each candidate's measure is the larger of the others' largest (the top two) and its own column's
        b, big_n = self.totals(s)
        m = float(int(row.sum()) - 1)
        with np.errstate(divide="ignore"):
            ratio = np.abs(np.log((np.where(row > 0, row, 1).astype(np.float64) * big_n) / (b * m)))
            less = row[at] - 1
            own = np.abs(np.log((np.where(less > 0, less, 1).astype(np.float64) * big_n) / (b[at] * m)))
        if self.variant == "arx":
            ratio = np.where(row > 0, ratio / math.log(2), 0.0)
            own = np.where(less > 0, own / math.log(2), 0.0)
        else:
            ratio = np.where(row > 0, ratio, np.inf)
            own = np.where(less > 0, own, np.inf)
        first = int(np.argmax(ratio)) if len(ratio) else 0
        top = float(ratio[first]) if len(ratio) else 0.0
        second = float(np.max(np.delete(ratio, first), initial=0.0)) if len(ratio) else 0.0
        others = np.where(at == first, second, top)
        measure = np.maximum(np.maximum(others, own), 0.0)
        return np.asarray((measure < float(self.delta)) & (m > 0), dtype=bool)

    def rows_ok(self, s: int, counts: np.ndarray) -> np.ndarray:
        ok = (self.measures(s, counts) < float(self.delta)) & (counts.sum(axis=1) > 0)
        return np.asarray(ok, dtype=bool)
