"""Distinct l-diversity: at least l distinct SA values per group (Machanavajjhala et al., ICDE 2006 / TKDD 2007; SPEC §0.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .base import PrivacyModel, VerdictSql

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef


class Distinct(PrivacyModel):
    name = "distinct"
    per_part = True

    def __init__(self, ls: tuple[int, ...]) -> None:
        self.ls = ls

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        self.verdict_sql(ev).create(ev, target)

    def verdict_sql(self, ev: SqlEvaluator) -> VerdictSql:
        return VerdictSql("privacy/distinct.sql", {"ls": list(self.ls)}, {"stats": ev.stats})

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        return sum(1 for n in counts.values() if n > 0) >= self.ls[s - 1]
