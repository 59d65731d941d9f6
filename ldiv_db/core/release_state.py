"""Is a release's table still the table that was verified? The one answer every read that shows a
recorded verdict asks first (``ldiv releases``, ``ldiv report``, ``ldiv compare --release``,
:func:`ldiv_db.api.releases`).

The rule (issue 51, class 6): a recorded verdict is shown only for a release whose tables are, row count
and content digest (the rows and the column names), as recorded when the release was written and
verified (``ldiv.release_table``, :func:`ldiv_db.core.ownership.fingerprint`, taken in the release's
transaction). Otherwise the reader says
the table changed, or is missing, instead of the verdict. A release has one table, or Decomposition+'s
three: every one of them is checked. The check only reads (a read-only DuckDB file, PostgreSQL, Spark).

States, worst first: ``missing`` (a recorded table no longer exists, or none is recorded any more),
``changed`` (row count or digest differ, or the table became a view), ``unknown`` (same row count, but
recorded before ldiv_db kept digests), ``intact``. ``superseded``: a later release of the same name
replaced it, so its verdict is about a table that is gone; nothing is read for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..sqlgen.render import TableRef, render
from . import ownership

if TYPE_CHECKING:
    from ..db import Database

INTACT = "intact"
CHANGED = "changed"
MISSING = "missing"
UNKNOWN = "unknown"
SUPERSEDED = "superseded"


@dataclass(frozen=True)
class TableState:
    """What a reader may say about a release's recorded verdict."""

    state: str
    detail: str = ""  # for people: which table, and what differs

    @property
    def intact(self) -> bool:
        return self.state == INTACT

    def headline(self, model: str) -> str:
        """The phrase a reader shows instead of the verdict when the table is not intact."""
        if self.state == MISSING:
            return f"MISSING: the verdict ({model}) is about a table that no longer exists ({self.detail})"
        if self.state == CHANGED:
            return (
                f"CHANGED since verification: the verdict ({model}) no longer describes this table "
                f"({self.detail})"
            )
        if self.state == UNKNOWN:
            return (
                f"UNCONFIRMED: {model} was verified when written, but the table cannot be checked against "
                f"it ({self.detail}; re-run the release to record a digest)"
            )
        if self.state == SUPERSEDED:
            return f"superseded: {self.detail}"
        return f"{model} holds"

    def to_dict(self) -> dict[str, str]:
        return {"table_state": self.state, "table_detail": self.detail}


def release_states(db: Database, releases: Iterable[Mapping[str, Any]]) -> dict[int, TableState]:
    """THE check, for each release (a row of ``ldiv.release`` with ``release_id`` and ``superseded_by``):
    its tables now against the row count and digest recorded when it was written."""
    recorded: dict[int, list[dict[str, Any]]] = {}
    for row in db.records(render("ownership/recorded_tables.sql")):
        recorded.setdefault(int(row["release_id"]), []).append(row)
    out: dict[int, TableState] = {}
    for rel in releases:
        rid = int(rel["release_id"])
        if rel.get("superseded_by") is not None:
            out[rid] = TableState(SUPERSEDED, "replaced by a later release of the same name")
        else:
            out[rid] = _state(db, recorded.get(rid, []))
    return out


def release_state(db: Database, release: Mapping[str, Any]) -> TableState:
    """:func:`release_states` of one release."""
    return release_states(db, [release])[int(release["release_id"])]


def _state(db: Database, tables: list[dict[str, Any]]) -> TableState:
    if not tables:
        return TableState(MISSING, "no table of it is recorded any more: dropped, or loaded over")
    missing: list[str] = []
    changed: list[str] = []
    unknown: list[str] = []
    for t in tables:
        ref = TableRef(str(t["table_name"]), str(t["schema_name"]))
        found = ownership.existing(db, ref)
        if found is None:
            missing.append(f"{ref.display()} was dropped")
            continue
        if found.is_view:
            changed.append(f"{ref.display()} is now a {found.kind.lower()}")
            continue
        rows, digest = t["rows"], t["digest"]
        n, now = ownership.fingerprint(db, found.ref, like=None if digest is None else str(digest))
        if rows is not None and n != int(rows):
            changed.append(f"{ref.display()}: {int(rows):,} rows when verified, {n:,} now")
        elif digest is None:
            unknown.append(f"{ref.display()} was recorded before ldiv_db kept content digests")
        elif now != str(digest):
            changed.append(f"{ref.display()}: its content differs from the verified table")
    if missing:
        return TableState(MISSING, "; ".join(missing + changed))
    if changed:
        return TableState(CHANGED, "; ".join(changed))
    if unknown:
        return TableState(UNKNOWN, "; ".join(unknown))
    return TableState(INTACT)
