"""The source's side of a release's metrics, read on a second connection while the algorithm runs.

The metrics' domain (``sql/metrics/domain.sql``: every QI value with its source rows and its code) and
KL's source points (``kl_inputs.sql`` with ``parts='points'``) depend on the source table and its stored
hierarchies only, not on the release. The release pipeline therefore starts them on a second reader
(:meth:`ldiv_db.db.Database.side_reader`) before the algorithm runs, in a thread of their own; once the
release is written, the connection adopts the reader's domain as its own work table (a transfer of the
QIs' distinct values instead of a scan of the source) and the points, which carry that domain's codes.

The reader sees the source as committed when it started. A source that another writer changed in
between is caught by its row count (the one the metrics are given: the assignment's, which the
reconciliation proves is the source's as the release transaction sees it): the connection then builds
the domain and reads the points itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.catalog import Column, Table
from ..db import Database
from ..errors import LdivError
from ..sqlgen.render import render
from ..util.background import Background
from .covers import build_domain


@dataclass(frozen=True)
class SourceSide:
    """What the second reader read: the source's row count as it saw it, the rows of the metrics'
    domain table and KL's source points coded by that domain (None when KL was not asked for), each as
    numpy columns by name (:meth:`Database.columns`, :meth:`Database.arrays`: no frame is built), and the
    reader, whose statements the caller counts (:meth:`Database.absorb`)."""

    rows: int
    domain: dict[str, Any]
    points: dict[str, Any] | None
    reader: Database


def start_source_side(
    db: Database,
    source: Table,
    qi: Sequence[Column],
    sa: Sequence[Column],
    *,
    points: bool,
    rows: int | None = None,
) -> Background[SourceSide | None] | None:
    """Read the domain (and with ``points`` KL's source points) of ``source`` (of ``rows`` rows) on a
    second connection in a thread of its own. None where the engine has no second reader; the thread's
    result is None if the reader failed (the connection then does the work itself)."""
    side = db.side_reader(rows)
    if side is None:
        return None
    db.warm_conversions()  # the lazy imports happen here, before two threads could need them at once

    def work() -> SourceSide | None:
        try:
            domain = side.work_table("metrics_domain")
            rows = int(side.scalar(render("catalog/row_count.sql", source=source.ref)))
            build_domain(side, domain, source, qi)
            frame = side.columns(render("catalog/all_rows.sql", source=domain), bulk=True)
            found = None
            if points:
                q = render(
                    "metrics/kl_inputs.sql",
                    source=source.ref,
                    domain=domain,
                    qi=[c.ident for c in qi],
                    sa=[c.ident for c in sa],
                    parts="points",
                )
                found = side.arrays(q, bulk=True)
            return SourceSide(rows, frame, found, side)
        except LdivError:
            return None
        finally:
            side.drop_work_tables()
            side.close()

    return Background(work, name="ldiv-source-side", interrupt=side.interrupt)


def taken(db: Database, pending: Background[SourceSide | None] | None, source_rows: int) -> SourceSide | None:
    """The reader's result, its statements counted as this connection's; None if there is none, the
    reader failed, or it saw another source (a row count other than ``source_rows``)."""
    found = pending.result() if pending is not None else None
    if found is None:
        return None
    db.absorb(found.reader)
    return found if found.rows == source_rows else None
