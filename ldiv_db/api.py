"""The public API, mirroring the CLI. Every function accepts a database path, a PostgreSQL URL, a
``spark://`` session, a duckdb connection or a :class:`~ldiv_db.db.Database`, and returns a result
object with ``to_dict()`` and ``render_text()``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .anonymize import AnonymizeResult, anonymize
from .catalog import resolve_table
from .check import CheckResult, check
from .db import Database
from .inputs import as_list, resolve_inputs
from .load import LoadResult, load
from .render import render
from .report import CompareResult, ReportResult, compare, report
from .suggest import SuggestResult
from .suggest import suggest_l as _suggest


@dataclass
class MetricsResult:
    source: str
    release: str
    values: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "release": self.release, **self.values}

    def render_text(self) -> str:
        lines = [f"release {self.release} of {self.source}"]
        for k, v in self.values.items():
            lines.append(f"  {k:<16} {v:.6g}" if isinstance(v, float) else f"  {k:<16} {v}")
        return "\n".join(lines)


def metrics(
    db: Any,
    source: str,
    release: str,
    qi: str | Sequence[str],
    sa: str | Sequence[str],
    *,
    l: int | None = None,
    class_column: str | None = None,
    group_column: str | None = "group_id",
    weights: Sequence[Any] | None = None,
    interval_labels: bool | None = None,
    kl: bool = True,
) -> MetricsResult:
    """Utility metrics (IL/NCP, LM, DM, CAVG, KL, CM, stars, ARX loss) of ``release`` against ``source``.
    A release ldiv_db recorded is read as it was measured when written: its numeric 'lo-hi' labels as
    intervals where its algorithm publishes them so (``interval_labels`` None), its l for CAVG."""
    from fractions import Fraction

    from .metrics import compute_metrics
    from .report.gather import INTERVAL_ALGORITHMS, recorded_release

    database = Database.open(db, mode="read")
    try:
        src = resolve_inputs(database, source, qi, sa)
        rel = resolve_table(database, release)
        rec = recorded_release(database, release)
        if interval_labels is None:
            interval_labels = rec is not None and rec["algorithm"] in INTERVAL_ALGORITHMS
        if l is None and rec is not None and rec["l"] and len(set(rec["l"])) == 1:
            l = int(rec["l"][0])
        for name in [*as_list(qi), *as_list(sa)]:
            rel.column(name)
        group = None
        if group_column:
            names = {c.name.lower() for c in rel.columns}
            group = rel.column(group_column).name if group_column.lower() in names else None
        values = compute_metrics(
            database,
            src.table,
            rel,
            list(src.qi),
            list(src.sa),
            l=l,
            class_column=rel.column(class_column).name if class_column else None,
            weights=[Fraction(str(w)) for w in weights] if weights else None,
            group_column=group,
            interval_labels=[c.is_numeric for c in src.qi] if interval_labels else None,
            kl=kl,
        ).to_dict()
        return MetricsResult(src.table.name, rel.name, values)
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


def suggest_l(db: Any, table: str, sa: str | Sequence[str]) -> SuggestResult:
    """The largest feasible l per model for the SA(s) of ``table``, with the reason."""
    database = Database.open(db, mode="read")
    try:
        return _suggest(database, resolve_inputs(database, table, None, sa, require_qi=False))
    finally:
        if database is not db:
            database.close()


@dataclass
class ReleaseList:
    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"releases": self.rows}

    def render_text(self) -> str:
        if not self.rows:
            return "no releases recorded"
        out = []
        for r in self.rows:
            state = "verified" if r["verified"] else "NOT VERIFIED"
            sup = f", superseded by {r['superseded_by']}" if r["superseded_by"] else ""
            out.append(
                f"{r['release_id']:>4}  {r['name']}  <- {r['source']}  {r['algorithm']}/{r['model']} l={r['l']}  "
                f"{r['rows_published']}/{r['rows_in']} rows, {r['groups']} groups, {state}{sup}  {r['created_at']}"
            )
        return "\n".join(out)


def releases(db: Any) -> ReleaseList:
    database = Database.open(db, mode="read")
    try:
        return ReleaseList(database.records(render("meta/releases.sql")))
    finally:
        if database is not db:
            database.close()


# ---------------------------------------------------------------------------- release streams (Decomposition+)
def release_append(
    db: Any, release: str, source: str, *, quiet: bool = True, key: str | Sequence[str] | None = None
) -> AnonymizeResult:
    """Publish the next release of a Decomposition+ stream from the rows of table ``source`` plus the
    rows kept back so far; the row-key and inference-channel checks run before anything is written.
    ``key`` (optional) must name the stream's key columns."""
    from .pipeline.append import append

    database = Database.open(db, mode="write")
    failed = False  # a failed command leaves no database file it created
    try:
        return append(database, release, source, quiet=quiet, key=key)
    except BaseException:
        failed = True
        raise
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close(failed=failed)


def release_history(db: Any, release: str) -> Any:
    """The releases of a Decomposition+ stream: rows published, rows waiting and their starvation."""
    from .pipeline.stream import history

    database = Database.open(db, mode="read")
    try:
        return history(database, release)
    finally:
        if database is not db:
            database.close()


__all__ = [
    "AnonymizeResult",
    "CheckResult",
    "CompareResult",
    "LoadResult",
    "MetricsResult",
    "ReleaseList",
    "ReportResult",
    "SuggestResult",
    "anonymize",
    "check",
    "compare",
    "load",
    "metrics",
    "release_append",
    "release_history",
    "releases",
    "report",
    "suggest_l",
]
