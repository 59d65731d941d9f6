"""Guarantees an algorithm promises beyond the privacy model, verified on the written release.

An algorithm declares them in its :class:`~ldiv_db.algorithms.base.Partitioning` (``guarantees``); the
release pipeline (:func:`ldiv_db.anonymize.publish`) checks every one inside the release transaction,
after the output table and the private link ``ldiv.release_row`` are written, and a guarantee that does
not hold rolls the release back exactly like a privacy violation. An algorithm that cannot keep a
guarantee refuses the run before anything is written; this check is the independent proof on what was
actually written.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .render import Ident, TableRef, render

if TYPE_CHECKING:
    from .catalog import Column
    from .db import Database


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
