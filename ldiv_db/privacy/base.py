"""The privacy-model interface. A model renders its per-group verdict into a work table (``apply``) and
answers the same question in pure Python for one group's SA counts (``group_ok``), which the
algorithms use for decisions on small candidate sets."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from ..sqlgen.render import render
from ..util.words import model_phrase

if TYPE_CHECKING:
    from ..core.evaluator import SqlEvaluator
    from ..db import Database
    from ..sqlgen.render import TableRef


def sql_text(value: Any) -> str | None:
    """A user's SA value as the partition statistics spell it: CAST(value AS VARCHAR) in DuckDB
    (True -> 'true'); None is the NULL value (meaningful with --null-as-value)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class VerdictSql:
    """A model's verdict statement: its template, bound params and context but the ``target``. ``apply``
    renders it creating the verdict table; a check reads its rows inline (``partition/shapes.sql``)."""

    template: str
    params: Mapping[str, Any]
    context: Mapping[str, Any]

    def create(self, ev: SqlEvaluator, target: TableRef) -> None:
        ev.db.run(render(self.template, dict(self.params), target=target, **self.context))


class PrivacyModel(ABC):
    """One privacy model with its parameters; ``ls`` holds one l per SA (SPEC §4.1)."""

    name: str = ""
    ls: tuple[int, ...] = ()
    # the verdict reads only the evaluator's own tables, so a check split by group among sessions
    # (ldiv_db/verify/check.py) may apply it on each part; a model reading other tables leaves this False
    per_part: bool = False

    @abstractmethod
    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        """Create ``target(gid, ok, severity, ...)`` from the evaluator's partition."""

    def verdict_sql(self, ev: SqlEvaluator) -> VerdictSql | None:
        """The verdict as one SELECT over the evaluator's tables that nothing reads again but the check's
        summary, so that it may be read inline (:meth:`SqlEvaluator.judge`); None: :meth:`apply` writes a
        table that others read (a combination's parts, the largest t / δ / β)."""
        return None

    @abstractmethod
    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        """The model's test on one group's SA value counts (SA number ``s``)."""

    def params(self) -> dict[str, Any]:
        return {"l": list(self.ls)} if self.ls else {}

    def describe(self) -> str:
        """The model for people, as every command and page names it (``recursive (c=3, l=4)``)."""
        return model_phrase(self.name, self.params())

    def fixed(self, value_counts: Callable[[], Mapping[int, list[tuple[str | None, int]]]]) -> PrivacyModel:
        """The model as a release is verified and recorded: parameters derived from the source (per SA,
        its values with their counts, read on demand) made explicit, so that a check of the published
        table applies the same ones. Most models have none."""
        return self

    def components(self) -> list[PrivacyModel]:
        """The models this one requires at once (itself; a combination its parts)."""
        return [self]

    def prepare(self, db: Database) -> None:
        """Read what the model needs besides the counts before an algorithm judges with it (the SA
        hierarchy of t-closeness's hierarchical distance); most models need nothing."""
        return None

    def on_unions(self) -> PrivacyModel:
        """The model that holds on every union of classes that satisfy this one: an attacker who groups a
        release more coarsely (by its QI labels, where several classes share one label vector) sees such
        unions. Every model here is preserved by merging classes (SPEC §0.2: sizes, distinct values, SA
        counts and category weights add up; entropy is concave; recursive (c,l) holds since the merged top
        count is at most the sum of the tops and the merged tail at least the sum of the tails; a merged
        distribution is a mixture of the classes', so its EMD to a fixed baseline (convex), its largest
        log ratio and its largest relative gain stay within the parts') except Unique Distinct, which
        overrides this."""
        return self


def check_ls(ls: Sequence[int], n_sa: int) -> tuple[int, ...]:
    if len(ls) == 1 and n_sa > 1:
        ls = list(ls) * n_sa
    if len(ls) != n_sa:
        raise BadInput(
            f"{len(ls)} values of l for {n_sa} sensitive attributes", "give one l per SA, e.g. --l 5,3,2"
        )
    for value in ls:
        if int(value) != value or value < 2:
            raise BadInput(f"l must be an integer of at least 2, got {value}", "l = 1 gives no protection")
    return tuple(int(v) for v in ls)
