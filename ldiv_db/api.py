"""The public API, mirroring the CLI. Every function accepts a database path, a PostgreSQL URL, a
``spark://`` session, a duckdb connection (or dbt-duckdb's session) or a :class:`~ldiv_db.db.Database`,
and returns a result object with ``to_dict()`` and ``render_text()``; ``check`` and ``anonymize`` also take
a pandas/Polars/Arrow table (:mod:`ldiv_db.commands.frames`), and their results have ``to_pandas()``,
``to_polars()`` and ``to_arrow()``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .commands.anonymize import AnonymizeResult
from .commands.frames import anonymize, check  # a DataFrame in the database's place: an in-memory DuckDB
from .commands.load import LoadResult, load
from .core import release_state
from .core.catalog import resolve_table
from .core.inputs import as_list, resolve_inputs
from .core.options import parse_flag
from .core.run_flags import MetricsFlags, api_flags
from .db import Database
from .pipeline.append import append
from .pipeline.compose import Composition, release_ids
from .pipeline.compose import compose as _compose
from .pipeline.publication import DRAFT, publish_release
from .pipeline.publication import states as publication_states
from .pipeline.stream import history
from .reporting import CompareResult, ReportResult, compare, report
from .reporting.gather import INTERVAL_ALGORITHMS, recorded_release
from .risks import RiskResult, risk
from .sqlgen.render import render
from .util.progress import Progress
from .util.words import METRICS, model_phrase, number, percent, show
from .utility import Measured, MetricsOptions, compute_metrics
from .verify.check import CheckResult
from .verify.suggest import SuggestResult
from .verify.suggest import suggest_l as _suggest
from .verify.verdicts import partitions_of, verdict_brief


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
    database = Database.open(db, mode="read")
    try:
        return _suggest(database, resolve_inputs(database, table, None, sa, require_qi=False))
    finally:
        if database is not db:
            database.close()


@dataclass
class ReleaseList:
    """``ldiv releases``: every recorded release, newest first. ``verified`` is the recorded verdict
    where it still holds (the table is as verified: ``table_state`` intact), else None; the verdict
    as recorded is ``verified_when_written`` (:mod:`ldiv_db.core.release_state`). ``verification`` of each:
    per partition the published table reveals, the model verified there and its verdict
    (:mod:`ldiv_db.verify.verdicts`)."""

    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"releases": self.rows}

    def render_text(self) -> str:
        if not self.rows:
            return "no releases recorded"
        table = [RELEASE_COLUMNS]
        for r in self.rows:
            pub = r.get("publication", "draft") + (" (accepted below l)" if r.get("accepted_below_l") else "")
            models = verdict_brief({"partitions": r["verification"]}) if r.get("verified") else ""
            table.append(
                (
                    str(r["release_id"]),
                    str(r["name"]),
                    str(r["source"]),
                    str(r["algorithm"]),
                    _model_of(r),
                    f"{number(r['rows_published'])}/{number(r['rows_in'])}",
                    number(r["classes"]),
                    number(r["k"]),
                    pub,
                    str(r["created_at"])[:19],
                    _shown_state(r) + (f" ({models})" if models else ""),
                )
            )
        widths = [max(len(row[i]) for row in table) for i in range(len(RELEASE_COLUMNS) - 1)]
        return "\n".join(
            "  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]]).rstrip()
            for row in table
        )


# the header row of ``ldiv releases`` (the last column, the verdict, is as long as it needs)
RELEASE_COLUMNS = (
    "id", "release", "source", "algorithm", "model", "rows published/in", "classes", "k", "publication",
    "created", "verdict",
)  # fmt: skip


def _model_of(r: dict[str, Any]) -> str:
    """The model the release claims, with every parameter (``recursive (c=3, l=4)``): from the verdict
    of its finest partition, else from its record's model and l."""
    parts = r.get("verification") or []
    if parts and parts[0].get("model"):
        return model_phrase(parts[0]["model"], parts[0].get("params"))
    l = json.loads(r["l"]) if isinstance(r.get("l"), str) else r.get("l")
    return model_phrase(r["model"], {"l": l} if l else None)


def _shown_state(r: dict[str, Any]) -> str:
    """The verdict where it still holds; otherwise what happened to the table instead of it."""
    state, detail = r["table_state"], r["table_detail"]
    if not r["verified_when_written"]:
        return "NOT VERIFIED"
    if state == release_state.INTACT:
        return "verified"
    if state == release_state.SUPERSEDED:
        return f"superseded by {r['superseded_by']}"
    word = {release_state.UNKNOWN: "UNCONFIRMED"}.get(state, state.upper() + " since verification")
    return f"{word} ({detail})"


def _release_row(r: dict[str, Any]) -> dict[str, Any]:
    """A recorded release as listed: its class count, k and re-identification risk as anonymize measured
    them on the written table (:mod:`ldiv_db.core.classes`; k and risk None for a release recorded before they
    were kept)."""
    text = r.pop("metrics")
    metrics = json.loads(text) if text else {}
    # the audit column rows_suppressed is not shown: the words of ldiv_db/util/words.py instead (decision 0011)
    out = {k: v for k, v in r.items() if k not in ("groups", "rows_suppressed")}
    waiting = int(metrics.get("rows_waiting") or 0)
    out.update(
        classes=r["groups"],
        k=metrics.get("k"),
        risk=metrics.get("risk"),
        rows_deleted=int(r["rows_in"]) - int(r["rows_published"]) - waiting,
        rows_waiting=waiting,
        cells_suppressed=metrics.get("cells_suppressed"),
        rows_with_suppressed_cells=metrics.get("rows_with_suppressed_cells"),
    )
    return out


def releases(db: Any) -> ReleaseList:
    """Every recorded release, each with the state of its tables (:func:`release_state.release_states`)
    and its publication state (:mod:`ldiv_db.pipeline.publication`: draft, candidate, published)."""

    database = Database.open(db, mode="read")
    try:
        rows = [_release_row(r) for r in database.records(render("meta/releases.sql"))]
        states = release_state.release_states(database, rows)
        published = publication_states(database)
        for r in rows:
            st = states[int(r["release_id"])]
            written = bool(r.pop("verified"))
            r.update(st.to_dict())
            r["verified"] = written if st.intact or not written else None
            r["verified_when_written"] = written
            r["publication"], r["accepted_below_l"] = published.get(int(r["release_id"]), (DRAFT, False))
            r["verification"] = partitions_of(json.loads(r["verification"]) if r["verification"] else None)
        return ReleaseList(rows)
    finally:
        if database is not db:
            database.close()


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
