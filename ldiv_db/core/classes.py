"""The class: the partition every count, k, re-identification risk, DM and CAVG of a published table is
computed on (DESIGN §6). ``ldiv anonymize``, ``ldiv releases``, ``ldiv check``, ``ldiv metrics``, the
report and the comparison all take it from here.

A published table reveals its QI labels and, where it publishes one, its group column: whoever reads it
tells apart two rows whose labels differ or whose group ids differ. A row's class is therefore the rows
with its (group id, QI label vector) where the group column is published, else the rows with its QI
label vector — the finest partition the table reveals. :func:`class_keys` is that rule (the one
enforcement point: every statement that groups a release into classes takes its keys from it), and
:class:`ClassFacts` turns the class-size histogram into the figures shown (class count, k, risk, DM).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..sqlgen.render import Ident, TableRef, render
from . import ownership

if TYPE_CHECKING:
    from ..db import Database
    from .catalog import Column, Table
    from .inputs import Inputs

DEFAULT_GROUP_COLUMN = "group_id"
# the shares of rows shown whose risk 1/|class| exceeds 5 %, 10 % and 20 %
RISK_THRESHOLDS = (Fraction(1, 20), Fraction(1, 10), Fraction(1, 5))


def class_keys(group: Ident | None, labels: Sequence[Ident]) -> list[Ident]:
    """THE class rule: the columns a release's rows are grouped by into classes — the published group
    column together with the QI labels where the group column is published, else the QI labels. (With
    one label vector per group the classes are the groups; the labels never split them less finely.)"""
    return [group, *labels] if group is not None else list(labels)


def partition_columns(inputs: Inputs) -> list[Column]:
    """The columns a check groups resolved inputs by: a release's classes (as :func:`class_keys`) where
    ``inputs.group`` is its published group column, a group column the caller named alone (``ldiv check
    --group-column``), else the QI values (the classes of a table that publishes only them)."""
    if inputs.group is not None and not inputs.published_group:
        return [inputs.group]
    return [*([inputs.group] if inputs.group is not None else []), *inputs.qi]


def partition_keys(inputs: Inputs) -> list[Ident]:
    """:func:`partition_columns` as identifiers; for a release, ``class_keys`` of its group column and labels."""
    if inputs.group is not None and inputs.published_group:
        return class_keys(inputs.group.ident, [c.ident for c in inputs.qi])
    return [c.ident for c in partition_columns(inputs)]


def describe(group: str | None, labels: Sequence[str]) -> str:
    """The partition in words, as the outputs name it (a release's QI values are its published labels)."""
    qi = ", ".join(labels)
    if group is None:
        return f"QI values ({qi})" if qi else "no columns"
    return f"{group} and QI values ({qi})" if qi else group


@dataclass(frozen=True)
class Risk:
    """Re-identification risk 1/|class| per published row (the prosecutor model)."""

    max: Fraction
    average: Fraction
    above: dict[str, Fraction]  # threshold (as text, e.g. '1/20') -> share of rows whose risk exceeds it

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"highest": float(self.max), "average": float(self.average)}
        for t, v in self.above.items():
            out[f"above_{float(Fraction(t)) * 100:g}pct"] = float(v)
        return out


@dataclass(frozen=True)
class ClassFacts:
    """The figures of a partition into classes, from its class-size histogram ((size, classes) pairs)."""

    sizes: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, sizes: Sequence[tuple[int, int]]) -> ClassFacts:
        merged: dict[int, int] = {}
        for s, c in sizes:
            merged[int(s)] = merged.get(int(s), 0) + int(c)
        return cls(tuple(sorted((s, c) for s, c in merged.items() if c)))

    @property
    def classes(self) -> int:
        return sum(c for _, c in self.sizes)

    @property
    def rows(self) -> int:
        return sum(s * c for s, c in self.sizes)

    @property
    def k(self) -> int:
        """The smallest class (0 for an empty table)."""
        return min((s for s, _ in self.sizes), default=0)

    @property
    def dm(self) -> int:
        """Σ |class|² (DM of the published rows)."""
        return sum(s * s * c for s, c in self.sizes)

    @property
    def risk(self) -> Risk:
        rows, classes = self.rows, self.classes
        if not rows:
            return Risk(Fraction(0), Fraction(0), {str(t): Fraction(0) for t in RISK_THRESHOLDS})
        above = {
            str(t): Fraction(sum(s * c for s, c in self.sizes if Fraction(1, s) > t), rows)
            for t in RISK_THRESHOLDS
        }
        return Risk(Fraction(1, self.k), Fraction(classes, rows), above)

    def to_dict(self) -> dict[str, Any]:
        """``classes``, ``k`` and ``risk`` as every JSON output shows them."""
        return {"classes": self.classes, "k": self.k, "risk": self.risk.to_dict()}


def class_sizes(
    db: Database, source: TableRef, keys: Sequence[Ident], *, counted: bool = False
) -> ClassFacts:
    """The class-size histogram of ``source`` grouped by ``keys`` (from :func:`class_keys`). ``counted``:
    ``source`` is a release aggregate whose rows stand for ``n`` rows each."""
    q = render("release/class_sizes.sql", source=source, keys=list(keys), counted=counted)
    return ClassFacts.of([(int(s), int(c)) for s, c in db.rows(q)])


def published_group_column(db: Database, table: Table) -> str | None:
    """The group column ``table`` publishes when it is a release ldiv_db recorded (None for a release
    written without one, and for any other table: its columns are not known to be a group id)."""

    own = ownership.owner(db, table.ref)
    return None if own is None else recorded_group_column(db, own.release_id, table)


def recorded_group_column(db: Database, release_id: int, table: Table) -> str | None:
    """The group column release ``release_id`` wrote to ``table``: as its record names it
    (``details.group_column``; null for a release written without one), or for a release recorded
    before that was kept, the written table's last column where it is named ``group_id`` (``_`` appended
    while a published column had that name: the pipeline's naming, which puts it last)."""

    rows = db.rows(render("meta/release_details.sql", {"release_id": release_id}))
    details = json.loads(rows[0][0]) if rows and rows[0][0] is not None else {}
    if isinstance(details, dict) and "group_column" in details:
        name = details["group_column"]
        return None if name is None else table.column(str(name)).name
    last = table.columns[-1].name if table.columns else ""
    return last if last.lower().rstrip("_") == DEFAULT_GROUP_COLUMN else None
