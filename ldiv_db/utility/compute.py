"""``compute_metrics``: every utility metric of a written release, in a bounded number of SQL statements.

Release format: one VARCHAR column per QI (named like the source's QI column) holding a label (see
:mod:`.covers`), the SA column(s) unchanged or NULL where the SA was suppressed, and optionally a group
column (default ``group_id``). Every class-level figure (classes, k, risk, DM, CAVG, CM) is on the
classes of :func:`ldiv_db.core.classes.class_keys`: the group column with the QI labels where the release
publishes one, else the QI labels. Rows deleted by suppression are absent: ``deleted = source rows −
release rows``.

Statements issued: the source row count, four work tables (attrs, domain, labels, cover), the
per-attribute summary, the row counts with the class sizes in one (and with a class column the CM
count), KL, and the drops of the work tables. The
release pipeline passes a :class:`ReleaseAggregate` of the written release (its distinct rows with
counts) and the source's row count: every statement then reads the aggregate, not the release.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..core.catalog import Column, Table
from ..core.classes import ClassFacts, Risk, class_keys
from ..db import Database
from ..errors import BadInput, InternalError, LdivError
from ..sqlgen.render import Ident, TableRef, render
from ..util.background import Background
from .arx_loss import arx_loss
from .covers import CoverTables, attribute_summaries, build_covers, drop_covers
from .groups import RowCounts, cavg, discernibility, minority_rows, row_counts_and_classes
from .il import information_loss
from .kl import DELETED_CAUSE, UNREAD_CAUSE, KlInputs, KlQuery, KlResult, kl_fetch
from .lm import loss_metric
from .source_side import SourceSide, taken


@dataclass(frozen=True)
class Metrics:
    """Utility metrics of one release (SPEC §0.7, §5.4). Exact values are Fractions; ``to_dict`` gives floats.

    ``il``: Σ_G |G|·Σ_i w_i NCP_i(G); ``ncp`` = il/(|T*|·Σw); ``il_pct`` = 100·ncp. ``lm``: total LM cost
    (published cells + |QI| per SA-suppressed row + 2·|QI| per deleted row). ``dm``: Σ|G|² + deleted·|T|.
    ``cavg``: (|T*|/#classes)/l, None without l. ``classes``, ``k``, ``risk``: the classes'
    (:mod:`ldiv_db.core.classes`) count, smallest size and re-identification risk. ``kl``: None when infinite (see ``kl_note``).
    ``arx_loss``: ARX's Loss metric (gs 0.5, geometric mean). ``cm``: None without a class column.
    ``rows`` = |T*| (published rows); ``deleted_rows`` = source rows − |T*|. ``cells_suppressed``: the
    stars plus the SA cells published as unknown; ``rows_with_suppressed_cells``: published rows with
    either (the words: :mod:`ldiv_db.util.words`).
    """

    il: Fraction
    il_pct: Fraction
    ncp: Fraction
    lm: Fraction
    dm: int
    cavg: Fraction | None
    kl: float | None
    kl_note: str | None
    stars: int
    starred_rows: int
    deleted_rows: int
    rows: int
    cells_suppressed: int
    rows_with_suppressed_cells: int
    classes: int
    k: int
    risk: Risk
    avg_class_size: Fraction
    arx_loss: float
    cm: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: Fractions as floats; ``cm`` only when a class column was given."""
        out: dict[str, Any] = {}
        for key in (
            "il", "il_pct", "ncp", "lm", "dm", "cavg", "kl", "kl_note", "stars", "starred_rows",
            "cells_suppressed", "rows_with_suppressed_cells", "deleted_rows", "rows", "classes", "k", "avg_class_size", "arx_loss",
        ):  # fmt: skip
            value = getattr(self, key)
            out[key] = float(value) if isinstance(value, Fraction) else value
        out["risk"] = self.risk.to_dict()
        if self.cm is not None:
            out["cm"] = self.cm
        return out


def _weights(weights: Sequence[Fraction] | None, d: int) -> list[Fraction]:
    if weights is None:
        return [Fraction(1)] * d
    if len(weights) != d:
        raise BadInput(
            f"{len(weights)} weights given for {d} QI attributes", "give one weight per QI attribute"
        )
    out = [Fraction(w) for w in weights]
    if any(w < 0 for w in out) or sum(out) == 0:
        raise BadInput(
            f"weights {[str(w) for w in out]} are not usable", "weights must be >= 0 with a positive sum"
        )
    return out


def _ratio(num: Fraction, den: Fraction) -> Fraction:
    return num / den if den else Fraction(0)


@dataclass(frozen=True)
class ReleaseAggregate:
    """A written release reduced to its distinct rows with their counts (``sql/release/aggregate.sql``:
    columns ``gid``, ``q1..qd``, ``s1..sk``, ``k`` with a class column, ``n``), built once by the release
    pipeline; the metrics read it instead of the release. ``has_group``: the release publishes its group
    column (else ``gid`` is no published column, and the classes are the label vectors). ``source_rows``: the source's row count, as
    the reconciliation found it or as the assignment has it (the reconciliation then proves it);
    ``published_rows``: the rows the release was to publish. ``pairs``: the row counts also count the
    classes' distinct group ids and label vectors (:class:`.groups.RowCounts`), for the verification.
    ``by_group``: the release was written with one label vector per group id (pipeline/verify.py
    ``one_vector_per_group``), so its classes are its group ids and are counted by ``gid`` alone (a
    duplicated label row would add rows, which the metrics' row count against ``published_rows`` and the
    reconciliation refuse)."""

    ref: TableRef
    source_rows: int
    has_class: bool = False
    published_rows: int | None = None
    has_group: bool = True
    pairs: bool = False
    by_group: bool = False


@dataclass(frozen=True)
class _Columns:
    """Where the metrics read the release: the table and its QI, SA, group and class columns."""

    table: TableRef
    qi: list[Ident]
    sa: list[Ident]
    group: Ident | None
    klass: Ident | None
    counted: bool
    pairs: bool = False  # the counts with the classes' distinct group ids and label vectors
    by_group: bool = False  # one label vector per group id: the classes are the group ids
    # a NULL SA cell is the source's NULL value, published as it is, not a suppressed one
    sa_null_values: bool = False


def _columns(
    release: Table,
    qi: Sequence[Column],
    sa: Sequence[Column],
    group_column: str | None,
    class_column: str | None,
    aggregate: ReleaseAggregate | None,
) -> _Columns:
    if aggregate is not None:
        return _Columns(
            aggregate.ref,
            [Ident(f"q{i}") for i in range(1, len(qi) + 1)],
            [Ident(f"s{i}") for i in range(1, len(sa) + 1)],
            Ident("gid") if aggregate.has_group else None,
            Ident("k") if aggregate.has_class else None,
            True,
            aggregate.pairs and aggregate.has_group,
            aggregate.by_group and aggregate.has_group,
        )
    group: Ident | None = None
    if group_column is not None and any(c.name.lower() == group_column.lower() for c in release.columns):
        group = release.column(group_column).ident
    return _Columns(
        release.ref,
        [release.column(c.name).ident for c in qi],
        [release.column(c.name).ident for c in sa],
        group,
        release.column(class_column).ident if class_column is not None else None,
        False,
    )


@dataclass(frozen=True)
class Measured:
    """What the metrics measure: ``release`` against ``source``. ``qi``/``sa`` are source columns; the
    release's columns of the same names (matched like the catalog matches names) hold the published
    labels. ``group_column``: the release's group column, used when the release has it (its classes are
    then by it and the labels, else by the labels); ``class_column``: the class column of CM."""

    source: Table
    release: Table
    qi: Sequence[Column]
    sa: Sequence[Column]
    group_column: str | None = "group_id"
    class_column: str | None = None


@dataclass(frozen=True)
class MetricsOptions:
    """How: ``l`` of CAVG; the QIs' ``weights`` of IL/NCP (1 each by default); ``interval_labels[i]``:
    QI i's range labels ``lo-hi`` are intervals even where a hierarchy node has the same text
    (:func:`.covers.build_covers`); ``flat_labels``: a suppression release, whose labels are values and
    ``*`` alone, read with no hierarchy node (``build_covers``' ``flat``); ``kl=False`` skips KL (None). ``sa_null_values``: the release was
    made with NULL a value of its own and the source's SA holds NULL (:attr:`Inputs.sa_null_values`): a NULL SA
    cell of the release is that value, not a suppressed one (l+-Optimize refuses to suppress SA values
    there: the two would be published alike)."""

    l: int | None = None
    weights: Sequence[Fraction] | None = None
    interval_labels: Sequence[bool] | None = None
    kl: bool = True
    sa_null_values: bool = False
    flat_labels: bool = False


def compute_metrics(
    db: Database,
    what: Measured,
    how: MetricsOptions = MetricsOptions(),
    *,
    aggregate: ReleaseAggregate | None = None,
    meanwhile: Callable[[], None] | None = None,
    counted: Callable[[RowCounts], None] | None = None,
    source_side: Background[SourceSide | None] | None = None,
) -> Metrics:
    """Compute IL/NCP, LM, DM, CAVG, KL, CM, stars and ARX's Loss of ``what`` (:class:`Measured`) as
    ``how`` says. With ``aggregate`` (the pipeline's), every statement reads it instead of the release.
    ``meanwhile``: the caller's statements, run on the connection while KL's arrays are solved in a
    thread (the pipeline's verification), once; ``counted``: told the row counts before it runs.
    ``source_side``: the domain and KL's source points, read
    beside this connection (:func:`.source_side.start_source_side`).
    """
    source, release, qi, sa = what.source, what.release, list(what.qi), list(what.sa)
    l, interval_labels = how.l, how.interval_labels
    if not qi:
        raise BadInput("no QI attributes given", "name at least one quasi-identifier column")
    if l is not None and l < 1:
        raise BadInput(f"l = {l} is not a positive integer", "CAVG uses k = l >= 1")
    w = _weights(how.weights, len(qi))
    cols = replace(
        _columns(release, qi, sa, what.group_column, what.class_column, aggregate),
        sa_null_values=how.sa_null_values,
    )
    source_rows = aggregate.source_rows if aggregate is not None else _row_count(db, source)
    known, counts = _published_rows(db, cols, release, source, aggregate, source_rows)
    deleted = source_rows - known
    side = taken(db, source_side, source_rows)
    tables = _covers(db, source, release, qi, cols, interval_labels, side, how.flat_labels)
    kl_job: Background[KlResult] | KlResult | None = None
    try:
        # KL's arrays are solved in a thread from here on: what does not feed them runs meanwhile
        points = None if side is None else side.points
        kl_job = _start_kl(db, source, tables, qi, sa, cols, known, points) if how.kl else None
        if counts is None:
            counts = _row_counts_of_aggregate(db, cols, known)
        rc, facts = counts
        if counted is not None:
            counted(rc)
        summaries = attribute_summaries(db, tables, source, release, qi)
        cm = _minority(db, cols)
        if meanwhile is not None:
            meanwhile()
        kl_result = kl_job.result() if isinstance(kl_job, Background) else kl_job or KlResult(None, NOT_ASKED)
    except BaseException:
        _abandon(db, tables, kl_job)
        raise
    drop_covers(db, tables)

    il = information_loss(summaries, w)
    ncp = _ratio(il, rc.rows * sum(w, Fraction(0)))
    return Metrics(
        il=il,
        il_pct=100 * ncp,
        ncp=ncp,
        lm=loss_metric(summaries, sa_suppressed_rows=rc.sa_suppressed_rows, deleted_rows=deleted),
        dm=discernibility(facts, deleted_rows=deleted, source_rows=source_rows),
        cavg=cavg(rc.rows, facts.classes, l),
        kl=kl_result.kl,
        kl_note=_kl_note(kl_result.note, deleted),
        stars=sum(s.stars for s in summaries),
        starred_rows=rc.starred_rows,
        deleted_rows=deleted,
        rows=rc.rows,
        cells_suppressed=sum(s.stars for s in summaries) + rc.sa_unknown_cells,
        rows_with_suppressed_cells=rc.rows_with_suppressed_cells,
        classes=facts.classes,
        k=facts.k,
        risk=facts.risk,
        avg_class_size=_ratio(Fraction(rc.rows), Fraction(facts.classes)),
        arx_loss=arx_loss(summaries, source_rows=source_rows, deleted_rows=deleted, weights=w),
        cm=None if cm is None else cm + deleted,
    )


NOT_ASKED = "not computed (KL was not asked for)"


def _kl_note(note: str | None, deleted: int) -> str | None:
    """KL's note; with no row deleted, its cause is not suppression."""
    return note.replace(DELETED_CAUSE, UNREAD_CAUSE) if note and not deleted else note


def _counts(db: Database, cols: _Columns) -> tuple[RowCounts, ClassFacts]:
    """The release's row counts and its classes (:func:`ldiv_db.core.classes.class_keys`: group column
    and labels, or labels; the group column alone where it carries one label vector each), in one
    statement."""
    keys = _class_keys(cols)
    sa = [] if cols.sa_null_values else cols.sa  # the SA columns whose NULL cells are suppressed ones
    return row_counts_and_classes(db, cols.table, cols.qi, sa, keys, counted=cols.counted, pairs=cols.pairs)


def _class_keys(cols: _Columns) -> list[Ident]:
    """The columns the classes are grouped by: :func:`~ldiv_db.core.classes.class_keys`, or the group
    column alone where each group id carries one label vector (the same classes)."""
    if cols.by_group and cols.group is not None:
        return [cols.group]
    return class_keys(cols.group, cols.qi)


def _minority(db: Database, cols: _Columns) -> int | None:
    """With a class column, the published rows outside their class's majority value (CM)."""
    if cols.klass is None:
        return None
    keys = _class_keys(cols)
    return minority_rows(db, cols.table, keys, cols.klass, counted=cols.counted)


def _abandon(db: Database, tables: CoverTables, kl_job: Background[KlResult] | KlResult | None) -> None:
    """On an error's way out: KL's thread stopped and waited for (no thread may be left in numpy when the
    error ends the process), the cover tables dropped where the connection still can."""
    if isinstance(kl_job, Background):
        kl_job.cancel()
    with contextlib.suppress(LdivError):  # e.g. an aborted transaction: keep the original error
        drop_covers(db, tables)


def _covers(
    db: Database,
    source: Table,
    release: Table,
    qi: Sequence[Column],
    cols: _Columns,
    interval_labels: Sequence[bool] | None,
    side: SourceSide | None,
    flat: bool,
) -> CoverTables:
    """The cover work tables, on the domain a second reader built where there is one."""
    return build_covers(
        db,
        source,
        release,
        qi,
        cols.qi,
        interval_labels,
        read=cols.table,
        counted=cols.counted,
        domain_rows=None if side is None else side.domain,
        flat=flat,
    )


def _published_rows(
    db: Database,
    cols: _Columns,
    release: Table,
    source: Table,
    aggregate: ReleaseAggregate | None,
    source_rows: int,
) -> tuple[int, tuple[RowCounts, ClassFacts] | None]:
    """The published row count: the one given with the aggregate (the row counts and classes then wait
    until KL is started, and must agree with it), else from the row counts, read here with the classes."""
    counts = None
    if aggregate is not None and aggregate.published_rows is not None:
        known = aggregate.published_rows
    else:
        counts = _counts(db, cols)
        known = counts[0].rows
    if known > source_rows:
        raise BadInput(
            f"release {release.name} has {known} rows, more than the {source_rows} rows of {source.name}",
            "compute metrics of a release against the table it was made from",
        )
    return known, counts


def _row_counts_of_aggregate(db: Database, cols: _Columns, published: int) -> tuple[RowCounts, ClassFacts]:
    """The aggregate's row counts and classes (taken while KL is solved); the rows must agree with the
    rows the release was to publish."""
    rc, facts = _counts(db, cols)
    if rc.rows != published:
        raise InternalError(f"the written release holds {rc.rows} rows, {published} were to be published")
    return rc, facts


def _row_count(db: Database, source: Table) -> int:
    return int(db.scalar(render("catalog/row_count.sql", source=source.ref)))


def _start_kl(
    db: Database,
    source: Table,
    tables: CoverTables,
    qi: Sequence[Column],
    sa: Sequence[Column],
    cols: _Columns,
    published_rows: int,
    points: dict[str, Any] | None,
) -> Background[KlResult] | KlResult:
    """KL's queries on this connection, then its arrays solved in a thread of their own (the result
    itself when there is nothing to solve)."""
    query = KlQuery(
        source.ref,
        cols.table,
        tables.domain,
        tables.labels,
        tables.cover,
        [c.ident for c in qi],
        [c.ident for c in sa],
        cols.qi,
        cols.sa,
        published_rows,
        cols.counted,
    )
    fetched = kl_fetch(db, query, points)
    if isinstance(fetched, KlInputs):
        return Background(fetched.solve, name="ldiv-kl", helper=fetched.help, interrupt=fetched.stop)
    return fetched
