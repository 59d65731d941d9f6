"""The (l,α)-diversity family (Sun, Li, Wang; SPEC §3): SA values fall into ordered sensitivity
categories (1 = most sensitive) with weights; a group needs ≥ l distinct values and a total row weight
≥ α, plus (entropy variant) entropy ≥ ln l or (recursive variant) r1 < c·(r_l+…) over category counts."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.options import exact
from ..errors import BadInput
from ..sqlgen.render import render
from ..taxonomy.weights import category_weights
from ..util.lazy import library
from .base import PrivacyModel, sql_text
from .entropy import TOLERANCE, entropy
from .recursive import recursive_holds

if TYPE_CHECKING:
    import pandas as pd

    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef
else:
    pd = library("pandas")

VARIANTS = ("distinct", "entropy", "recursive")


class LAlpha(PrivacyModel):
    def __init__(
        self,
        variant: str,
        ls: tuple[int, ...],
        alpha: Any,
        categories: Mapping[Any, int],
        weights: Any = None,
        beta: Any = 2,
        c: Any = None,
        entropy_over: str = "categories",
    ) -> None:
        if variant not in VARIANTS:
            raise BadInput(f"unknown (l,α) variant {variant!r}", f"use one of {', '.join(VARIANTS)}")
        if len(ls) != 1:
            raise BadInput("the (l,α) models take one sensitive attribute", "name one column with --sa")
        if alpha is None:
            raise BadInput(
                f"the {variant}-alpha model needs --alpha",
                "e.g. --alpha 1 (the least total row weight of a group)",
            )
        if entropy_over not in ("categories", "values"):
            raise BadInput(f"entropy_over must be 'categories' or 'values', not {entropy_over!r}")
        if variant == "recursive" and c is None:
            raise BadInput("the recursive-alpha model needs --c", "e.g. --c 3")
        self.variant = variant
        self.name = f"{variant}-alpha"
        self.ls = ls
        self.alpha = exact(alpha, "alpha")
        self.categories = {sql_text(v): int(r) for v, r in categories.items()}
        self.weights = category_weights(self.categories, weights, beta)
        self.c = exact(c, "c") if c is not None else None
        self.entropy_over = entropy_over
        self.weight_scheme = (
            "uniform" if weights is None else weights if isinstance(weights, str) else "explicit"
        )

    def scaled_weights(self) -> tuple[int, dict[int, int]]:
        """The weights as integers over one denominator: (den, each category's numerator). The values of a
        category share its weight, so callers map values through their category, not a product each."""
        den = math.lcm(*(w.denominator for w in self.weights.values()))
        return den, {r: int(w * den) for r, w in self.weights.items()}

    def group_weight(self, counts: Mapping[str, int]) -> Fraction:
        by_cat: Counter[int] = Counter()  # the rows per category, then one product per category
        for v, n in counts.items():
            by_cat[self.categories[sql_text(v)]] += n
        return sum((n * self.weights[r] for r, n in by_cat.items()), Fraction(0))

    def _check_covered(self, values: list[Any]) -> None:
        missing = sorted(str(v) for v in values if sql_text(v) not in self.categories)
        if missing:
            raise BadInput(
                f"{len(missing)} SA value(s) have no sensitivity category: {', '.join(missing[:10])}"
                + (" ..." if len(missing) > 10 else ""),
                "add them to the categories file (value;category)",
            )

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        self.verdict(ev, target, self.category_table(ev))

    def category_table(self, ev: SqlEvaluator) -> TableRef:
        """Check that every SA value of the evaluator's partition has a category, and write the work table
        (s, v, p, q, category) of the values' weights p/q that :meth:`verdict` joins."""
        values = [v for v, _ in ev.value_counts().get(1, [])]
        self._check_covered(values)
        den, num = self.scaled_weights()
        table = ev.work("categories")
        ev.db.run(render("privacy/value_table.sql", target=table))
        frame = pd.DataFrame(
            [(1, v, num[r], den, r) for v, r in self.categories.items()],
            columns=["s", "v", "p", "q", "category"],
        )
        ev.db.insert_frame(table, frame)
        return table

    def verdict(self, ev: SqlEvaluator, target: TableRef, table: TableRef) -> None:
        """``target(gid, size, ok, severity, weight_num)`` for the evaluator's groups, given the table of
        :meth:`category_table`."""
        den = self.scaled_weights()[0]
        c = self.c or Fraction(1)
        params = {
            "ls": list(self.ls),
            "a_num": self.alpha.numerator,
            "a_den": self.alpha.denominator,
            "w_den": den,
            "c_num": c.numerator,
            "c_den": c.denominator,
        }
        q = render(
            "privacy/l_alpha.sql",
            params,
            target=target,
            hist=ev.hist,
            stats=ev.stats,
            categories=table,
            variant=self.variant,
            over=self.entropy_over if self.variant == "entropy" else "categories",
        )
        ev.db.run(q)

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        present = {v: n for v, n in counts.items() if n > 0}
        self._check_covered(list(present))
        if len(present) < self.ls[0] or self.group_weight(present) < self.alpha:
            return False
        if self.entropy_over == "categories" or self.variant == "recursive":
            by_cat: Counter[int] = Counter()
            for v, n in present.items():
                by_cat[self.categories[sql_text(v)]] += n
            units = list(by_cat.values())
        else:
            units = list(present.values())
        if self.variant == "entropy":
            return entropy(units) >= math.log(self.ls[0]) - TOLERANCE
        if self.variant == "recursive":
            assert self.c is not None
            return recursive_holds(units, self.ls[0], self.c)
        return True

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"l": list(self.ls), "alpha": str(self.alpha), "weights": self.weight_scheme}
        if self.c is not None:
            out["c"] = str(self.c)
        if self.variant == "entropy":
            out["entropy_over"] = self.entropy_over
        return out
