"""Guarantees an algorithm promises beyond the privacy model, verified on the written release; the rule
that the model asked for is the model published (:func:`refuse_weakened`); and the empty-release rule
every release obeys.

An algorithm declares them in its :class:`~ldiv_db.algorithms.base.Partitioning` (``guarantees``); the
release pipeline (:func:`ldiv_db.pipeline.publish.publish`) checks every one inside the release transaction,
after the output table and the private link ``ldiv.release_row`` are written, and a guarantee that does
not hold rolls the release back exactly like a privacy violation. An algorithm that cannot keep a
guarantee refuses the run before anything is written; this check is the independent proof on what was
actually written.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from ..sqlgen.render import Ident, TableRef, render
from .suggest import suggest_l

if TYPE_CHECKING:
    from ..core.catalog import Column
    from ..core.inputs import Inputs
    from ..db import Database
    from ..privacy import PrivacyModel


@dataclass(frozen=True)
class Written:
    """What the pipeline wrote: the release id (its ``ldiv.release_row`` link), source and output."""

    db: Database
    release_id: int
    source: TableRef
    output: TableRef
    group_column: Ident
    rows_in: int
    output_rows: int


@dataclass(frozen=True)
class Outcome:
    guarantee: str
    kept: bool
    found: str

    def to_dict(self) -> dict[str, Any]:
        return {"guarantee": self.guarantee, "kept": self.kept, "found": self.found}


class Guarantee(ABC):
    """One promise, stated for the user, with its check on the written release."""

    @property
    @abstractmethod
    def description(self) -> str: ...

    @abstractmethod
    def verify(self, written: Written) -> Outcome: ...


@dataclass(frozen=True)
class OnePerGroup(Guarantee):
    """No published group holds two rows with the same value of a source column (BSGI's individuals)."""

    column: Column
    what: str = "individual"

    @property
    def description(self) -> str:
        return f"no class holds two rows of one {self.what} ({self.column.name!r})"

    def verify(self, written: Written) -> Outcome:
        rec = written.db.records(
            render(
                "release/guarantee_one_per_group.sql",
                {"release_id": written.release_id},
                source=written.source,
                output=written.output,
                group_column=written.group_column,
                column=self.column.ident,
            )
        )[0]
        groups, extra, worst = (
            int(rec["groups_with_repeats"]),
            int(rec["repeated_rows"]),
            int(rec["most_in_one_group"]),
        )
        links = int(rec["link_mismatches"])
        found = (
            f"{groups} classes hold two or more rows of one {self.what} ({extra} rows too many, up to {worst} "
            f"in one class)"
            if groups
            else f"every class holds at most one row per {self.what}"
        )
        if links:
            found += f"; {links} classes differ in size between the written table and the row link"
        return Outcome(self.description, groups == 0 and links == 0, found)


@dataclass(frozen=True)
class MaxDeleted(Guarantee):
    """At most ``limit`` of the source rows are left out of the written table (full-domain suppression)."""

    limit: Fraction

    @property
    def description(self) -> str:
        return f"at most {float(self.limit) * 100:g}% of the rows deleted (--suppression-limit)"

    def verify(self, written: Written) -> Outcome:
        deleted = written.rows_in - written.output_rows
        kept = deleted >= 0 and deleted <= self.limit * written.rows_in
        share = 100 * deleted / written.rows_in if written.rows_in else 0.0
        return Outcome(self.description, kept, f"{deleted} of {written.rows_in} rows deleted ({share:.2f}%)")


def verify_all(
    guarantees: Sequence[Guarantee], written: Written, verification: dict[str, Any], model_verified: bool
) -> list[Outcome]:
    """Inside the release transaction: check every declared guarantee on the written release, store the
    outcomes with the verdict (``ldiv.release.verification.guarantees``) and return the broken ones (the
    pipeline then rolls the release back)."""
    if not guarantees:
        return []
    outcomes = [g.verify(written) for g in guarantees]
    broken = [o for o in outcomes if not o.kept]
    verification["guarantees"] = [o.to_dict() for o in outcomes]
    written.db.run(
        render(
            "meta/release_verification.sql",
            {
                "release_id": written.release_id,
                "verified": model_verified and not broken,
                "verification": json.dumps(verification, default=str, sort_keys=True),
            },
        )
    )
    return broken


# ---------------------------------------------------------------------------- the model delivered
def refuse_weakened(
    db: Database,
    inputs: Inputs,
    requested: PrivacyModel,
    delivered: PrivacyModel | None,
    algo_name: str,
    why: str,
) -> None:
    """THE rule that a guarantee is never silently weakened, for every algorithm, before anything is
    written: a run publishes the model that was asked for — by name, or as the algorithm's default model
    by choosing the algorithm — or is refused, saying why and the largest feasible l. ``delivered``: the
    model the algorithm's partition holds where it is not ``requested`` (None: ``requested``). A weaker
    model is published only when the user names it (``--model distinct``): then it is the request."""
    if delivered is None or delivered.describe() == requested.describe():
        return
    raise BadInput(
        f"{algo_name} cannot deliver {requested.describe()} on this table, only {delivered.describe()}: "
        f"{why or 'the partition it found holds the weaker model only'}"
        f"{_largest_l(db, inputs, requested)}; nothing was written",
        "lower l (ldiv suggest-l gives the largest feasible l per model), or ask for the weaker model by "
        f"name to publish it as such: --model {delivered.name}",
    )


# ---------------------------------------------------------------------------- empty releases
def refuse_empty(
    db: Database,
    inputs: Inputs,
    privacy: PrivacyModel,
    algo_name: str,
    published: int,
    rows_in: int,
    allow_empty: bool,
) -> None:
    """THE empty-release rule, for every algorithm, before anything is written: a release without rows
    is refused, saying why it is empty, unless the user asked for one (``--allow-empty``)."""
    if published or allow_empty:
        return
    if rows_in:
        why = f"{algo_name} deleted all {rows_in} rows to satisfy {privacy.describe()}"
    else:
        why = f"the source table {inputs.table.name} has no rows"
    raise BadInput(
        f"the release would be empty: {why}{_largest_l(db, inputs, privacy)}; nothing was written",
        "lower l or relax the model (ldiv suggest-l gives the largest feasible l), allow more generalization "
        "or suppression, or pass --allow-empty (job file: allow_empty = true; API: allow_empty=True) to "
        "publish an empty release",
    )


def _largest_l(db: Database, inputs: Inputs, privacy: PrivacyModel) -> str:
    """' (l = 500 is above 6, the largest l ...: reason)' when the model's l exceeds suggest-l's bound."""
    if not privacy.ls or not inputs.rows:
        return ""

    result = suggest_l(db, inputs)
    key = {"lplus": "frequency", "distinct-alpha": "distinct"}.get(privacy.name, privacy.name)
    match = [s for s in result.suggestions if s.model == key]
    if not match:
        return ""
    best = match[0]
    l_max = max(int(x) for x in privacy.ls)
    if l_max <= best.l:
        return ""
    return f" (l = {l_max} is above {best.l}, the largest feasible l for {best.model}: {best.reason})"
