"""Several models at once (``--model distinct,t-closeness``): a class passes when it passes every one
(docs/decisions/0014-distribution-models.md). Verdicts, unions and fixed parameters are the parts'."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from ..sqlgen.render import render
from .base import PrivacyModel

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..db import Database
    from ..sqlgen.render import TableRef


class AllOf(PrivacyModel):
    """The conjunction of ``parts`` (at least two, each named once)."""

    def __init__(self, parts: Sequence[PrivacyModel]) -> None:
        names = [p.name for p in parts]
        if len(parts) < 2:
            raise BadInput("a combination of models needs at least two", "e.g. --model distinct,t-closeness")
        if len(set(names)) != len(names):
            raise BadInput(f"a model is named twice in {','.join(names)}", "name each model once")
        self.parts = tuple(parts)
        self.name = "+".join(names)
        self.ls = next((p.ls for p in parts if p.ls), ())
        self.per_part = all(p.per_part for p in parts)

    def components(self) -> list[PrivacyModel]:
        return list(self.parts)

    def prepare(self, db: Database) -> None:
        for p in self.parts:
            p.prepare(db)

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        tables = []
        for i, p in enumerate(self.parts):
            table = ev.work(f"verdict_part{i}")
            p.apply(ev, table)
            tables.append(table)
        ev.db.run(render("privacy/all_of.sql", target=target, verdicts=tables))
        self.verdicts = tables

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        return all(p.group_ok(counts, s) for p in self.parts)

    def params(self) -> dict[str, Any]:
        return {"models": [{"model": p.name, "params": p.params()} for p in self.parts]}

    def describe(self) -> str:
        return " and ".join(p.describe() for p in self.parts)

    def fixed(self, value_counts: Callable[[], Mapping[int, list[tuple[str | None, int]]]]) -> PrivacyModel:
        return AllOf([p.fixed(value_counts) for p in self.parts])

    def on_unions(self) -> PrivacyModel:
        return AllOf([p.on_unions() for p in self.parts])
