"""l-eligibility (frequency l-diversity): l·h(G) ≤ |G| in integers (Xiao & Tao, Anatomy, VLDB 2006;
the TP paper; SPEC §0.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .base import PrivacyModel, VerdictSql

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef


def l_eligible(counts: Mapping[str, int] | list[int], l: int) -> bool:
    values = list(counts.values()) if isinstance(counts, Mapping) else list(counts)
    return l * max(values, default=0) <= sum(values)


class Frequency(PrivacyModel):
    name = "frequency"
    per_part = True

    def __init__(self, ls: tuple[int, ...]) -> None:
        self.ls = ls

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        self.verdict_sql(ev).create(ev, target)

    def verdict_sql(self, ev: SqlEvaluator) -> VerdictSql:
        return VerdictSql("privacy/frequency.sql", {"ls": list(self.ls)}, {"stats": ev.stats})

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        return l_eligible(counts, self.ls[s - 1])
