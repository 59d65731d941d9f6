"""Entropy l-diversity: -Σ p ln p ≥ ln l per group, natural log, 1e-12 tolerance (Machanavajjhala et al., ICDE 2006 / TKDD 2007;
SPEC §0.2)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .base import PrivacyModel, VerdictSql

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef

TOLERANCE = 1e-12


def entropy(counts: Mapping[str, int] | list[int]) -> float:
    values = [n for n in (counts.values() if isinstance(counts, Mapping) else counts) if n > 0]
    total = sum(values)
    return math.log(total) - sum(n * math.log(n) for n in values) / total if total else 0.0


class Entropy(PrivacyModel):
    name = "entropy"
    per_part = True

    def __init__(self, ls: tuple[int, ...]) -> None:
        self.ls = ls

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        self.verdict_sql(ev).create(ev, target)

    def verdict_sql(self, ev: SqlEvaluator) -> VerdictSql:
        return VerdictSql("privacy/entropy.sql", {"ls": list(self.ls)}, {"stats": ev.stats})

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        return entropy(counts) >= math.log(self.ls[s - 1]) - TOLERANCE
