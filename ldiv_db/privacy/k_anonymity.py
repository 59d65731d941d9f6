"""k-anonymity: every class has at least k rows (Sweeney, IJUFKS 2002)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from ..sqlgen.render import render
from .base import PrivacyModel

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef


class KAnonymity(PrivacyModel):
    name = "k-anonymity"
    per_part = True

    def __init__(self, k: int) -> None:
        if int(k) != k or k < 1:
            raise BadInput(f"k must be a positive integer, got {k}")
        self.k = int(k)

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        ev.db.run(render("privacy/k_anonymity.sql", {"k": self.k}, target=target, stats=ev.stats))

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        return sum(counts.values()) >= self.k

    def params(self) -> dict[str, Any]:
        return {"k": self.k}
