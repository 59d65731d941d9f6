"""Recursive (c,l)-diversity: r1 < c·(r_l + … + r_q) on the descending counts; q < l fails
(Machanavajjhala et al., ICDE 2006 / TKDD 2007; SPEC §0.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.options import exact
from ..errors import BadInput
from .base import PrivacyModel, VerdictSql

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef


def recursive_holds(counts: Sequence[int], l: int, c: Fraction) -> bool:
    r = sorted((n for n in counts if n > 0), reverse=True)
    if len(r) < l:
        return False
    return r[0] < c * sum(r[l - 1 :])


class Recursive(PrivacyModel):
    name = "recursive"
    per_part = True

    def __init__(self, ls: tuple[int, ...], c: Any) -> None:
        if c is None:
            raise BadInput(
                "the recursive model needs c", "give --c, e.g. --c 4 (ARX's benchmark uses c = 4, l = 3)"
            )
        self.ls = ls
        self.c = exact(c, "c")
        if self.c <= 0:
            raise BadInput(f"c must be positive, got {c}")

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        self.verdict_sql(ev).create(ev, target)

    def verdict_sql(self, ev: SqlEvaluator) -> VerdictSql:
        least = min(self.ls)  # the counts table holds exactly the groups with at least this many values
        params = {
            "ls": list(self.ls),
            "c_num": self.c.numerator,
            "c_den": self.c.denominator,
            "min_values": least,
        }
        counts, ordered = ev.counts_for(least)
        context = {"stats": ev.stats, "counts": counts, "sorted_counts": ordered, "one_sa": len(self.ls) == 1}
        return VerdictSql("privacy/recursive.sql", params, context)

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        return recursive_holds(list(counts.values()), self.ls[s - 1], self.c)

    def params(self) -> dict[str, Any]:
        return {"l": list(self.ls), "c": str(self.c)}
