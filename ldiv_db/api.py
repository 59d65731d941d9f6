"""The public API, mirroring the CLI. Every function accepts a database path, a PostgreSQL URL, a
``spark://`` session, a duckdb connection (or dbt-duckdb's session) or a :class:`~ldiv_db.db.Database`,
and returns a result object with ``to_dict()`` and ``render_text()``; ``check`` and ``anonymize`` also take
a pandas/Polars/Arrow table (:mod:`ldiv_db.commands.frames`), and their results have ``to_pandas()``,
``to_polars()`` and ``to_arrow()``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .commands.anonymize import AnonymizeResult
from .commands.frames import anonymize, check  # a DataFrame in the database's place: an in-memory DuckDB
from .commands.load import LoadResult, load
from .commands.releases import ReleaseList, releases
from .core.catalog import resolve_table
from .core.inputs import as_list, resolve_inputs
from .core.options import parse_flag
from .core.run_flags import MetricsFlags, api_flags
from .db import Database
from .pipeline.append import append
from .pipeline.compose import Composition, release_ids
from .pipeline.compose import compose as _compose
from .pipeline.publication import publish_release
from .pipeline.stream import history
from .reporting import CompareResult, ReportResult, compare, report
from .reporting.gather import INTERVAL_ALGORITHMS, recorded_release
from .risks import RiskResult, risk
from .util.progress import Progress
from .util.words import METRICS, percent, show
from .utility import Measured, MetricsOptions, compute_metrics
from .verify.check import CheckResult
from .verify.suggest import SuggestResult, suggest_for


@dataclass
class MetricsResult:
    source: str
    release: str
    values: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "release": self.release, **self.values}

    def render_text(self) -> str:
        """One line per figure in its unit (:mod:`ldiv_db.util.words`); a note only where there is one."""
        v = self.values
        lines = [f"release {self.release} of {self.source}"]
        shown = [k for k in METRIC_LINES if k in v]
        lines += [f"  {METRICS[k].label:<26} {show(k, v[k])}" for k in shown]
        risk = v.get("risk")
        if risk:
            lines.append(
                f"  {'re-identification risk':<26} highest {percent(risk['highest'])}, average "
                f"{percent(risk['average'])}, rows above 5/10/20 %: {percent(risk['above_5pct'])} / "
                f"{percent(risk['above_10pct'])} / {percent(risk['above_20pct'])}"
            )
        if v.get("kl_note"):
            lines.append(f"  KL: {v['kl_note']}")
        return "\n".join(lines)


# the figures of ``ldiv metrics``' text, in this order (the rows first, in the words of ldiv_db/util/words.py)
METRIC_LINES = (
    "rows", "deleted_rows", "cells_suppressed", "rows_with_suppressed_cells", "classes", "k",
    "ncp", "il", "lm", "dm", "cavg", "kl", "stars", "arx_loss", "cm",
)  # fmt: skip


def metrics(
    db: Any,
    source: str,
    release: str,
    qi: str | Sequence[str],
    sa: str | Sequence[str],
    *,
    flags: MetricsFlags | None = None,
    **kw: Any,
) -> MetricsResult:
    """Utility metrics (IL/NCP, LM, DM, CAVG, KL, CM, stars, ARX loss) of ``release`` against ``source``.
    ``kw``: the keywords of :class:`~ldiv_db.core.run_flags.MetricsFlags` (``l``, ``class_column``,
    ``group_column``, ``weights``, ``interval_labels``, ``kl``), or ``flags`` validated. A release
    ldiv_db recorded is read as it was measured when written: its numeric 'lo-hi' labels as intervals
    where its algorithm publishes them so (``interval_labels`` None), its l for CAVG."""
    f = api_flags(MetricsFlags, flags, kw, "ldiv_db.metrics")
    l, class_column, group_column, interval_labels = f.l, f.class_column, f.group_column, f.interval_labels
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
        klass = rel.column(class_column).name if class_column else None
        how = MetricsOptions(
            l=l,
            weights=list(f.weights) if f.weights else None,
            interval_labels=[c.is_numeric for c in src.qi] if interval_labels else None,
            kl=f.kl,
        )
        values = compute_metrics(
            database, Measured(src.table, rel, src.qi, src.sa, group, klass), how
        ).to_dict()
        return MetricsResult(src.table.name, rel.name, values)
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


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


def compose(db: Any, releases: Sequence[str | int], *, worst: int = 5, quiet: bool = True) -> Composition:
    """The composition check of several releases of one source (``ldiv compose``): the rows an attacker
    who knows their QI values narrows below a release's l by intersecting the releases. ``releases``:
    release tables (the release written last to each) or release ids. A read: opens read-only.
    ``quiet=False``: progress on stderr for work over 2 s."""

    database = Database.open(db, mode="read")
    try:
        names = [r for r in releases if not isinstance(r, int)]
        found = iter(release_ids(database, names))
        ids = [r if isinstance(r, int) else next(found) for r in releases]
        return _compose(database, ids, worst=worst, progress=Progress("compose", quiet=quiet))
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
