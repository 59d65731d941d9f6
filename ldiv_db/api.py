"""The public API, mirroring the CLI. Every function accepts a database path, a PostgreSQL URL, a
``spark://`` session, a duckdb connection (or dbt-duckdb's session) or a :class:`~ldiv_db.db.Database`,
and returns a result object with ``to_dict()`` and ``render_text()``; ``check`` and ``anonymize`` also take
a pandas/Polars/Arrow table (:mod:`ldiv_db.commands.frames`), and their results have ``to_pandas()``,
``to_polars()`` and ``to_arrow()``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .commands.anonymize import AnonymizeResult
from .commands.compose import compose
from .commands.frames import anonymize, check  # a DataFrame in the database's place: an in-memory DuckDB
from .commands.load import LoadResult, load
from .commands.metrics import MetricsResult, metrics
from .commands.releases import ReleaseList, releases
from .core.options import parse_flag
from .db import Database
from .pipeline.append import append
from .pipeline.compose import Composition
from .pipeline.publication import publish_release
from .pipeline.stream import history
from .reporting import CompareResult, ReportResult, compare, report
from .risks import RiskResult, risk
from .verify.check import CheckResult
from .verify.suggest import SuggestResult, suggest_for


def suggest_l(db: Any, table: str, sa: str | Sequence[str]) -> SuggestResult:
    """The largest feasible l per model for the SA(s) of ``table``, with the reason."""
    return suggest_for(db, table, sa)


def publish(db: Any, release: str, *, accept_composition: bool = False) -> Any:
    """Publish the draft ``release`` after checking how it composes with the published releases of its
    source (:mod:`ldiv_db.pipeline.publication`); refuses (:class:`~ldiv_db.errors.PrivacyViolation`)
    below l unless ``accept_composition``."""

    accept = parse_flag(accept_composition, "accept_composition", text=True)
    database = Database.open(db, mode="write")
    try:
        return publish_release(database, release, accept=accept)
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


# ---------------------------------------------------------------------------- release streams (Decomposition+)
def release_append(
    db: Any, release: str, source: str, *, quiet: bool = True, key: str | Sequence[str] | None = None
) -> AnonymizeResult:
    """Publish the next release of a Decomposition+ stream from the rows of table ``source`` plus the
    rows kept back so far; the row-key and inference-channel checks run before anything is written.
    ``key`` (optional) must name the stream's key columns."""

    with Database.writing(db) as database:
        return append(database, release, source, quiet=quiet, key=key)


def release_history(db: Any, release: str) -> Any:
    """The releases of a Decomposition+ stream: rows published, rows waiting and their starvation."""

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
    "Composition",
    "LoadResult",
    "MetricsResult",
    "ReleaseList",
    "ReportResult",
    "RiskResult",
    "SuggestResult",
    "anonymize",
    "check",
    "compare",
    "compose",
    "load",
    "metrics",
    "publish",
    "release_append",
    "release_history",
    "releases",
    "report",
    "risk",
    "suggest_l",
]
