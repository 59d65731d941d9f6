"""Unique Distinct l-diversity (BSGI, SPEC §2.1): no SA value repeats inside a class and the class has at
least l distinct values. BSGI's selected classes hold exactly l; classes that received an incorporated
residual row hold l+1 ("Unique Distinct (l+1)"), which this check accepts; a repeated value fails."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..sqlgen.render import render
from .base import PrivacyModel
from .distinct import Distinct

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef


class UniqueDistinct(PrivacyModel):
    name = "unique-distinct"
    per_part = True

    def __init__(self, ls: tuple[int, ...]) -> None:
        self.ls = ls

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        ev.db.run(render("privacy/unique_distinct.sql", {"ls": list(self.ls)}, target=target, stats=ev.stats))

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        present = [n for n in counts.values() if n > 0]
        return all(n == 1 for n in present) and len(present) >= self.ls[s - 1]

    def on_unions(self) -> PrivacyModel:
        """Two classes holding one value each merge into a class holding it twice: on unions of classes only
        the distinct l-diversity core survives."""
        return Distinct(self.ls)
