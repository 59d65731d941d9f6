"""Check a release once it is written, inside the release transaction: its rows and SA values reconcile
with the source, the privacy model holds on every partition the written table reveals (its classes, by
group id and QI labels; its label classes, as an attacker groups them: the model per partition is
:func:`ldiv_db.verify.verdicts.partition_models`'s; a release written without its group column reveals
its label classes alone, which must hold the model itself), and its utility metrics.

One pass over the written table (``release/aggregate.sql``) reduces it to its distinct rows — group id,
QI labels, SA values (and class) — with their counts. Everything else reads that aggregate, never the
release again: the reconciliation's published counts, the partitions the models are verified on
(``release/verify_hist.sql``: per class and per QI label vector, the count of every SA value), the
verdicts of all partitions in one summary (``release/verify_summary.sql``), and the metrics
(:class:`~ldiv_db.utility.compute.ReleaseAggregate`). The aggregate is the written table with equal
rows counted once, so every check is exactly as strong as on the table itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import utility
from ..algorithms.base import Partitioning, lca_kinds
from ..core.catalog import Column, Table
from ..core.evaluator import SqlEvaluator, summary_of
from ..core.inputs import Inputs
from ..core.run_flags import AnonymizeFlags
from ..db import Database
from ..errors import InternalError
from ..privacy import PrivacyModel
from ..sqlgen.render import Ident, TableRef, render
from ..util.background import Background
from ..util.progress import Progress
from ..utility.compute import ReleaseAggregate
from ..utility.groups import RowCounts
from ..utility.source_side import SourceSide
from ..verify.check import CheckResult, SaStats
from ..verify.verdicts import (
    CLASSES,
    PartitionModel,
    entry,
    partition_models,
    partition_name,
    record,
    verdict_of,
)

WORST = 5  # violating groups named in a failed verification
# a release whose groups hold at most this many rows on average has nearly as many distinct rows as rows
# (every group brings its own label vector and several SA values): its aggregate is computed by sorting
# (plan hint many-groups; measured in bench/README.md, Engines)
FEW_ROWS = 8


@dataclass(frozen=True)
class Checked:
    """What the checks of one written release found: per partition it reveals (finest first), the model
    verified there and its result (none for an empty release)."""

    reconciliation: dict[str, int]
    results: list[tuple[PartitionModel, CheckResult]]
    verified: bool
    verification: dict[str, Any]
    metrics: dict[str, Any]

    @property
    def classes(self) -> int:
        """The number of classes of the finest partition."""
        return self.results[0][1].groups if self.results else 0

    def violation(self) -> str:
        """The partitions whose model does not hold, for the refusal."""
        bad = [
            f"{part.model.describe()} by {partition_name(part.partition, part.keys)}: "
            f"{r.violating_groups} violating classes"
            for part, r in self.results
            if not r.satisfied
        ]
        return ", ".join(bad) or "unknown"


@dataclass(frozen=True)
class Publishing:
    """How the pipeline publishes a partitioning: the release name, the columns published unchanged (the
    kept ones and the class column), the QIs' hierarchies, the run's flags (class column, NULL handling,
    KL, group column), and the source's side of the metrics as a second reader reads it while the
    algorithm runs (:func:`ldiv_db.utility.source_side.start_source_side`, started and stopped by the
    caller; None: read on the connection), and ``folded``: whether a QI, SA or kept column of the source
    folds spellings (:func:`ldiv_db.core.inputs.folds_spellings`), where the caller counted it already
    (None: the suppression write counts it)."""

    out: TableRef
    keep_columns: Sequence[str]
    hids: Mapping[str, int]
    flags: AnonymizeFlags
    progress: Progress
    source_side: Background[SourceSide | None] | None = None
    folded: bool | None = None


@dataclass(frozen=True)
class WrittenRelease:
    """A release just written to ``out``: its inputs, the partitioning written, the group column's name
    (None: written without it, its classes are its label vectors), the model it is verified for and the
    model asked for (whose l is CAVG's)."""

    inputs: Inputs
    part: Partitioning
    out: TableRef
    group_column: str | None
    verify_model: PrivacyModel
    privacy: PrivacyModel


def check_written(
    db: Database,
    written: WrittenRelease,
    how: Publishing,
    *,
    meanwhile: Callable[[], None] | None = None,
    expected: tuple[int, int] | None = None,
    groups: int | None = None,
    rid_range: tuple[int, int] | None = None,
) -> Checked:
    """Reconcile, verify and measure the release just written. A release that does not reconcile raises
    :class:`InternalError`; a failed verification is reported in ``verified`` (the caller refuses to
    publish it). ``meanwhile``: the caller's statements on the written table, run after the verification
    while KL is still being solved.

    ``expected``: the (published, assigned) row counts of the partition's assignment. With them the
    metrics start on the aggregate at once (KL's arrays are then solved in a thread) and the
    reconciliation runs beside KL, before the verification; the metrics' own row count of the
    aggregate must equal ``published``, and the reconciliation proves ``assigned`` is the source's row
    count. Without them the reconciliation runs first. ``groups``: the number of groups, if known;
    ``rid_range``: the least and greatest row id of the assignment, if known (:func:`reconcile`)."""
    inputs, part, out, group_column = written.inputs, written.part, written.out, written.group_column
    class_column, progress = how.flags.class_column, how.progress
    null_as_value = inputs.sa_null_values  # else a NULL SA cell of the release is a suppressed value
    few = groups is not None and expected is not None and groups * FEW_ROWS >= expected[0]
    agg = aggregate(db, inputs, out, group_column, class_column, many_groups=few)
    recs: list[dict[str, int]] = []
    if expected is None:
        recs.append(reconcile(db, inputs, part, agg, rid_range))
        expected = (recs[0]["output_rows"], recs[0]["rows_in"])
    progress.update(2, 5, "written; reconciling, verifying and measuring")
    parts = partition_models(written.verify_model, [c.name for c in inputs.qi], group_column)
    found: list[CheckResult] = []
    told: list[RowCounts] = []  # the metrics' counts, with the classes' group ids and label vectors

    def verify() -> None:
        if not recs:
            recs.append(reconcile(db, inputs, part, agg, rid_range))
        if recs[0]["published"]:
            found[:] = verify_written(
                db, inputs, out, None if group_column is None else Ident(group_column), agg, parts,
                null_as_value, not one_vector_per_group(part), classed=class_column is not None,
                pairs=_pairs(told),
            )  # fmt: skip
        if meanwhile is not None:
            meanwhile()

    table = written_table(out, inputs, group_column, class_column)
    metrics = utility.compute_metrics(
        db,
        utility.Measured(inputs.table, table, inputs.qi, inputs.sa, group_column, class_column),
        utility.MetricsOptions(
            l=written.privacy.ls[0] if written.privacy.ls else None,
            weights=part.metric_weights,
            interval_labels=interval_labels(inputs, part, how.hids),
            flat_labels=part.recoding == "suppress",
            kl=how.flags.kl,
            sa_null_values=null_as_value,
        ),
        aggregate=ReleaseAggregate(
            agg,
            expected[1],
            class_column is not None,
            expected[0],
            has_group=group_column is not None,
            pairs=not one_vector_per_group(part),
            by_group=one_vector_per_group(part),
        ),
        meanwhile=verify,  # reconciled and verified while KL is solved
        counted=told.append,
        source_side=how.source_side,
    ).to_dict()
    progress.update(3, 5, "verified and measured")
    return _checked(recs[0], parts, found, metrics)


def _checked(
    rec: dict[str, int],
    parts: Sequence[PartitionModel],
    found: Sequence[CheckResult],
    metrics: dict[str, Any],
) -> Checked:
    """The verdict of every partition, and the verification record (an empty release has no classes: it
    records the models it would be verified for, with no verdicts)."""
    results = list(zip(parts, found, strict=True)) if found else []
    entries = [entry(p, verdict_of(r)) for p, r in results]
    verification = {**record(entries), "reconciliation": dict(rec)}
    if not entries:
        verification.update(model=parts[0].model.describe(), partition=parts[0].partition)
    return Checked(rec, results, all(r.satisfied for _, r in results), verification, metrics)


def _pairs(told: Sequence[RowCounts]) -> tuple[int, int, int] | None:
    """release/same_partition.sql's (pairs, groups, label vectors) where the metrics' statement counted
    them on the same aggregate (its classes are the pairs), else None."""
    if not told:
        return None
    c = told[0]
    if c.pairs is None or c.groups is None or c.label_vectors is None:
        return None
    return c.pairs, c.groups, c.label_vectors


def one_vector_per_group(part: Partitioning) -> bool:
    """Whether the written table carries one QI label vector per group id by a check already made: labels
    joined by group id (local recoding 'lca', or 'labels' with one row per group: release/write.sql), where
    a duplicated label row would fail the reconciliation, which runs before the verification. The classes
    are then the group ids, with no statement to find it out (:func:`verify_written`,
    ``try_one_partition``). A suppression release labels each group over its rows
    (release/write_suppress.sql), but only by the statement's construction: release/same_partition.sql
    checks it on the written table, as the verification must not take the writer's word."""
    return part.recoding == "lca" or (part.recoding == "labels" and part.labels is None)


def interval_labels(inputs: Inputs, part: Partitioning, hids: Mapping[str, int]) -> list[bool] | None:
    """Which QIs' range labels are intervals for the metrics: the numeric ones of a local recoding."""
    return [k == "numeric" for k in lca_kinds(inputs.qi, hids)] if part.recoding == "lca" else None


def _positional(prefix: str, n: int) -> list[Ident]:
    return [Ident(f"{prefix}{i}") for i in range(1, n + 1)]


def aggregate(
    db: Database,
    inputs: Inputs,
    out: TableRef,
    group_column: str | None,
    class_column: str | None,
    *,
    many_groups: bool = False,
) -> TableRef:
    """The one pass over the written table: its distinct rows with their counts (``gid``, ``q1..qd``,
    ``s1..sk``, ``k`` with a class column, ``n``). ``many_groups``: the release's groups hold a few rows
    each (:data:`FEW_ROWS`), so its distinct rows are nearly as many as its rows (plan hint many-groups)."""
    target = db.work_table("release_aggregate")
    query = render(
        "release/aggregate.sql",
        target=target,
        output=out,
        group_column=None if group_column is None else Ident(group_column),
        qi=[c.ident for c in inputs.qi],
        sa=[c.ident for c in inputs.sa],
        klass=None if class_column is None else Ident(class_column),
    )
    db.run(query.hinted("many-groups") if many_groups else query)
    return target


def written_table(out: TableRef, inputs: Inputs, group_column: str | None, class_column: str | None) -> Table:
    """The written table as ``release/write.sql`` creates it (QI labels as text, the SA columns, the
    class column, the group id), without asking the catalog."""
    cols = [Column(c.name, "VARCHAR", 0) for c in inputs.qi] + [
        Column(c.name, c.data_type, 0) for c in inputs.sa
    ]
    if class_column is not None:
        cols.append(
            Column(inputs.table.column(class_column).name, inputs.table.column(class_column).data_type, 0)
        )
    if group_column is not None:
        cols.append(Column(group_column, "BIGINT", 0))
    return Table(out, "BASE TABLE", tuple(Column(c.name, c.data_type, i) for i, c in enumerate(cols, 1)))


def reconcile(
    db: Database, inputs: Inputs, part: Partitioning, agg: TableRef, rid_range: tuple[int, int] | None = None
) -> dict[str, int]:
    """Rows and SA value counts of the written release (its aggregate) against its source and the
    assignment. ``rid_range``: the least and greatest row id of the assignment; where the engine counts
    that range as a bitmap (:attr:`Database.bitmap_count_range`) its distinct row ids are counted so."""
    bits = rid_range is not None and 0 <= rid_range[1] - rid_range[0] < db.bitmap_count_range
    found = db.records(
        render(
            "release/reconcile.sql",
            source=inputs.table.ref,
            assignment=part.assignment,
            aggregate=agg,
            sa=[c.ident for c in inputs.sa],
            rid_bits=rid_range if bits else None,
        )
    )[0]
    rec = {k: int(v) for k, v in found.items()}
    problems = []
    if rec["assigned"] != rec["rows_in"] or rec["distinct_assigned"] != rec["rows_in"]:
        problems.append(
            f"{rec['assigned']} assignments ({rec['distinct_assigned']} rows) for {rec['rows_in']} rows"
        )
    if rec["published"] + rec["deleted"] != rec["rows_in"] or rec["output_rows"] != rec["published"]:
        problems.append(f"published {rec['published']} + deleted {rec['deleted']} != {rec['rows_in']}")
    if rec["sa_mismatches"]:
        problems.append(f"{rec['sa_mismatches']} SA values whose counts do not reconcile")
    if problems:
        raise InternalError("the release does not reconcile with its source: " + "; ".join(problems))
    return rec


@dataclass(frozen=True)
class Keys:
    """What a partition of the written release groups by: ``keys``, its columns in the written table,
    and ``agg_keys``, the same columns in the aggregate (by labels); ``n_sa`` SAs; ``prefix`` names its
    tables; ``one_row_each``: the aggregate has one row per group id and SA value already."""

    keys: Sequence[Ident]
    n_sa: int
    by_labels: bool
    prefix: str
    agg_keys: Sequence[Ident] = ()
    one_row_each: bool = False


class WrittenPartition(SqlEvaluator):
    """A partition of the written release (by its group id, by its QI label vector, or by both), built from
    the release aggregate (``release/verify_hist.sql``): the models verify it with their usual templates.
    Group ids: the group id as written; for label vectors (with or without the group id) the hashes
    check's histogram uses, with its collision check (a collision rebuilds the partition with exact
    ranks). ``keys`` name the partition's columns in the written table, ``agg_keys`` the same columns in
    the aggregate (by labels)."""

    def __init__(
        self,
        db: Database,
        out: TableRef,
        agg: TableRef,
        by: Keys,
        *,
        null_as_value: bool,
        same_as: WrittenPartition | None = None,
    ) -> None:
        keys, n_sa, by_labels, agg_keys, one_row_each = (
            by.keys,
            by.n_sa,
            by.by_labels,
            by.agg_keys,
            by.one_row_each,
        )
        super().__init__(
            db,
            out,
            keys,
            _positional("s", n_sa),
            null_as_value=null_as_value,
            prefix=by.prefix,
            stats_only=True,
        )
        self.aggregate = agg
        self.by_labels = by_labels
        self.agg_keys = list(agg_keys) if by_labels else []
        # by group id: the id itself; by labels: hashes of the label vector, as check's histogram has
        # them (exact ranks when two vectors collide, see build)
        self.exact_ids = not by_labels
        self.raw_id = None if by_labels else self.keys[0]
        self.same_as = same_as
        # the aggregate has one row per group id and SA value already (one SA, and every group id
        # carries one label vector): the histogram by group id is those rows, not an aggregation of them
        self.one_row_each = one_row_each and not by_labels and n_sa == 1
        # where the histogram would be a copy of the aggregate's rows, or is an aggregation of them by label
        # vector, the statistics are computed from those rows in one statement (release/verify_stats.sql,
        # not listed) and the histogram is stored when a model reads it
        self._hist_later = (self.one_row_each or by_labels) and not self._from_source
        if same_as is not None:  # the same partition: its statistics (and histogram), its group ids
            self._hist, self.stats, self.raw_id = same_as._hist, same_as.stats, same_as.raw_id
            self._from_source, self._hist_later = same_as._from_source, same_as._hist_later
            self.exact_ids = True

    def build(self) -> SqlEvaluator:
        """The statistics: straight from the aggregate where the engine takes statistics from the source
        (release/verify_stats.sql; the histogram is stored only if a model reads it) or where the histogram
        would be the aggregate's rows as they are (``one_row_each``) or their aggregation by label vector
        (release/verify_stats.sql without the counts' lists, the histogram stored only if a model reads
        it), else from the histogram (release/verify_hist.sql, partition/group_stats.sql). A hash
        collision of two label vectors rebuilds both with exact ranks."""
        if self.same_as is not None:
            self.same_as.build()
            self._built = True
        if not self._built:
            if self._from_source:
                self.db.run(render("release/verify_stats.sql", **self._rows_ctx(self.stats)))
            elif self._hist_later:  # the histogram's rows are not stored for the statistics alone
                self.db.run(render("release/verify_stats.sql", **self._rows_ctx(self.stats), listed=False))
            else:
                self._histogram()
                self.db.run(render("partition/group_stats.sql", target=self.stats, hist=self._hist))
            if not self.exact_ids and self.db.scalar(render("partition/gid_check.sql", stats=self.stats)):
                self.exact_ids, self._from_source = True, False  # two label vectors share a hash
                self._histogram()
                self.db.run(render("partition/group_stats.sql", target=self.stats, hist=self._hist))
            self._built = True
        return self

    def _rows_ctx(self, target: TableRef) -> dict[str, Any]:
        """The context of the verification's histogram rows (_macros/verify_rows.sql)."""
        return {
            "target": target,
            "aggregate": self.aggregate,
            "qi": self.agg_keys,
            "sa": self.sa,
            "by_labels": self.by_labels,
            "one_row_each": self.one_row_each,
            "hash_ids": not self.exact_ids,
            "null_as_value": self.null_as_value,
        }

    def _histogram(self) -> None:
        """Store the histogram (where the statistics came from the aggregate: when a model reads it); the
        same partition's where there is one."""
        if self.same_as is not None:
            self._hist = self.same_as.hist
        else:
            self.db.run(render("release/verify_hist.sql", **self._rows_ctx(self._hist)))
        self._hist_built = True


def verify_written(
    db: Database,
    inputs: Inputs,
    out: TableRef,
    group: Ident | None,
    agg: TableRef,
    parts: Sequence[PartitionModel],
    null_as_value: bool,
    try_one_partition: bool = True,
    *,
    classed: bool = False,
    pairs: tuple[int, int, int] | None = None,
) -> list[CheckResult]:
    """Each partition's model (:func:`~ldiv_db.verify.verdicts.partition_models`) on the written release,
    in the order of ``parts``. The classes (group id and labels) are the partition by group id where
    every group id carries exactly one QI label vector (``release/same_partition.sql``), else by group id
    and label vector. When the classes and the label classes are one partition (moreover no two group ids
    share a label vector), one histogram serves both: the label classes' model is applied to the
    partition by group id, whose groups are then named by their labels. When every group id carries one
    label vector, there is one SA and the aggregate has no class column (``classed``), the aggregate
    (grouped by group id, labels and SA) has one row per group id and SA value, and the histogram by
    group id takes its rows as they are, without aggregating them again.
    Without ``try_one_partition`` (the caller wrote one label vector per group id,
    :func:`one_vector_per_group`) the partitions are built apart, the classes by group id, and with one SA
    and no class column from the aggregate's rows as they are. ``pairs``: release/same_partition.sql's
    figures where a statement on the same aggregate counted them already (the metrics' class sizes)."""
    qi = [c.ident for c in inputs.qi]
    agg_q = _positional("q", len(qi))
    n_sa = len(inputs.sa)
    kw: dict[str, Any] = {"null_as_value": null_as_value}
    with_classes = any(p.partition == CLASSES for p in parts)
    same, one_vector_each = False, not try_one_partition
    one_row_each = one_vector_each and not classed
    if try_one_partition and with_classes:
        if pairs is None:
            found = db.records(render("release/same_partition.sql", aggregate=agg, qi=agg_q))[0]
            pairs = int(found["pairs"]), int(found["groups"]), int(found["label_vectors"])
        one_vector_each = pairs[1] == pairs[0]
        same = one_vector_each and pairs[2] == pairs[0]
        one_row_each = one_vector_each and not classed
    evaluators: dict[str, WrittenPartition] = {}
    if with_classes:
        if group is None:
            raise InternalError("the classes partition needs the release's group column")
        if one_vector_each:
            by = Keys([group], n_sa, False, "verify_g", one_row_each=one_row_each)
            evaluators[CLASSES] = WrittenPartition(db, out, agg, by, **kw)
        else:  # a group id with several label vectors: the classes are (group id, label vector)
            by = Keys([group, *qi], n_sa, True, "verify_c", [Ident("gid"), *agg_q])
            evaluators[CLASSES] = WrittenPartition(db, out, agg, by, **kw)
    same_as = evaluators[CLASSES] if same else None
    by = Keys(qi, n_sa, True, "verify_q", agg_q)
    evaluators["labels"] = WrittenPartition(db, out, agg, by, same_as=same_as, **kw)
    chosen = [(evaluators[p.partition], p.model) for p in parts]
    verdicts = []
    for ev, m in chosen:
        ev.build()
        target = ev.verdict_table(m)
        m.apply(ev, target)
        verdicts.append(target)
    q = render(
        "release/verify_summary.sql",
        {"worst": WORST},
        stats=[ev.stats for ev, _ in chosen],
        verdicts=verdicts,
    )
    rows = db.records(q)
    results = []
    for i, (ev, m) in enumerate(chosen, 1):
        mine = [r for r in rows if int(r["part"]) == i]
        results.append(_result(ev, m, mine, [c.name for c in inputs.sa]))
    return results


def _result(ev: SqlEvaluator, model: PrivacyModel, rows: list[dict[str, Any]], sa: list[str]) -> CheckResult:
    per_sa = []
    for rec, name in zip(rows, sa, strict=True):
        summary = summary_of(rec)
        per_sa.append(SaStats(name, summary, []))
    first = rows[0]
    violating = int(first["violating_groups"])
    return CheckResult(
        table=ev.source.display(),
        keys=[k.name for k in ev.keys],
        sa=sa,
        rows=int(first["rows"]),
        groups=int(first["groups"]),
        k=int(first["k"]),
        per_sa=per_sa,
        model=model,
        satisfied=violating == 0,
        violating_groups=violating,
        violating_rows=int(first["violating_rows"]),
        worst=ev.group_keys([int(g) for g in first["worst_gids"]]),
    )
