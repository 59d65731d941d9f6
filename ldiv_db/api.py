"""The public API, mirroring the CLI. Every function accepts a database path, a PostgreSQL URL, a
``spark://`` session, a duckdb connection or a :class:`~ldiv_db.db.Database`, and returns a result
object with ``to_dict()`` and ``render_text()``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .commands.anonymize import AnonymizeResult, anonymize
from .commands.load import LoadResult, load
from .core import release_state
from .core.catalog import resolve_table
from .core.inputs import as_list, resolve_inputs
from .core.options import parse_flag
from .db import Database
from .pipeline.append import append
from .pipeline.compose import Composition, release_ids
from .pipeline.compose import compose as _compose
from .pipeline.publication import DRAFT, publish_release
from .pipeline.publication import states as publication_states
from .pipeline.stream import history
from .reporting import CompareResult, ReportResult, compare, report
from .reporting.gather import INTERVAL_ALGORITHMS, recorded_release
from .sqlgen.render import render
from .util.progress import Progress
from .utility import compute_metrics
from .verify.check import CheckResult, check
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
        out = []
        for r in self.rows:
            pub = r.get("publication", "draft") + (" (accepted below l)" if r.get("accepted_below_l") else "")
            models = verdict_brief({"partitions": r["verification"]}) if r.get("verified") else ""
            out.append(
                f"{r['release_id']:>4}  {r['name']}  <- {r['source']}  {r['algorithm']}/{r['model']} l={r['l']}  "
                f"{r['rows_published']}/{r['rows_in']} rows, {r['classes']} classes (k {r['k']}), {pub}, "
                f"{_shown_state(r)}{f' ({models})' if models else ''}  {r['created_at']}"
            )
        return "\n".join(out)


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
    out = {k: v for k, v in r.items() if k != "groups"}
    out.update(classes=r["groups"], k=metrics.get("k"), risk=metrics.get("risk"))
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
    "suggest_l",
]
