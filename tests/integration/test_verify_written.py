"""The checks of a written release read one aggregate of it (ldiv_db/pipeline/verify.py). Each is compared
with the independent path that reads the written table itself: the models' verdicts on the classes (by
group id and QI labels) and on the label classes against ``check.evaluate``, the metrics against ``compute_metrics`` on the table, and the
reconciliation against tampered tables. Hostile names throughout. Every test runs on both paths a
partition is built by: its histogram, then its statistics; and (PostgreSQL's, ``stats_from_source``) its
statistics straight from the aggregate, the histogram stored only if a model reads it."""

from __future__ import annotations

import pytest

import ldiv_db
from fixtures.hostile import HOSTILE_CLASS, HOSTILE_GROUP, HOSTILE_QI, HOSTILE_SA
from ldiv_db.algorithms import Partitioning
from ldiv_db.core.catalog import resolve_table, table_at
from ldiv_db.core.inputs import Inputs
from ldiv_db.db import Database
from ldiv_db.db.duckdb.engine import DuckDBDatabase
from ldiv_db.errors import InternalError
from ldiv_db.pipeline.verify import aggregate, reconcile, verify_written
from ldiv_db.privacy import PrivacyModel
from ldiv_db.privacy.spec import model_spec
from ldiv_db.sqlgen.render import Ident, TableRef, render
from ldiv_db.utility import Measured, MetricsOptions, compute_metrics
from ldiv_db.utility.groups import row_counts_and_classes
from ldiv_db.verify.check import CheckResult, evaluate
from ldiv_db.verify.verdicts import PartitionModel, partition_models

WRITTEN = 'written "it\'s"'
# the statements that build a partition of the written release: its histogram (then its statistics), or
# its statistics straight from the aggregate where the engine takes statistics from the source
BUILDS = ("release/verify_hist.sql", "release/verify_stats.sql")
# the statements that compute a partition's statistics: one per partition built (its histogram, where it
# is stored, may come before or, read by a model, after them)
STATISTICS = ("partition/group_stats.sql", "release/verify_stats.sql")


def _spy_one_row_each(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The ``one_row_each`` of every by-group-id histogram the verification builds, in order."""
    import ldiv_db.pipeline.verify as verify_module

    real = verify_module.render
    seen: list[object] = []

    def spy(name: str, params: object = None, **ctx: object) -> object:
        if name in BUILDS and not ctx.get("by_labels"):
            seen.append(ctx.get("one_row_each"))
        return real(name, params, **ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_module, "render", spy)
    return seen


@pytest.fixture(autouse=True, params=[False, True], ids=["histogram", "from_aggregate"])
def from_aggregate(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Every test on both paths: DuckDB made to take PostgreSQL's (statistics from the aggregate)."""
    monkeypatch.setattr(DuckDBDatabase, "stats_from_source", request.param)
    return bool(request.param)


def _builds(db: Database, since: int, *, from_aggregate: bool) -> int:
    """Partitions built since step ``since``; on the aggregate path, checks no histogram was stored."""
    steps = [s.template for s in db.steps[since:]]
    if from_aggregate:
        assert "release/verify_hist.sql" not in steps
    return sum(1 for t in steps if t in STATISTICS)


def _written(db: Database, null_sa: bool, one_partition: bool | str = False) -> Inputs:
    """The hostile table as a written release: its QIs, SA and group column; groups 1..3 by "group",
    QI label vectors shared across groups (rows of one group id carry several label vectors). With
    ``one_partition`` the group id is instead the rank of the label vector (it's, select) in descending
    order: both partitions are one, with group ids unlike the labels' ranks. With ``one_partition =
    "vector each"`` the group id is the rank of (it's, select, a"b > 40): every group id carries one
    label vector, and some label vectors are carried by two group ids."""
    ref = TableRef(WRITTEN, "main")
    db.raw_rows(f'CREATE OR REPLACE TABLE {ref.sql()} AS SELECT * FROM "select"')
    if one_partition:
        split = ', "a""b" > 40' if one_partition == "vector each" else ""
        db.raw_rows(
            f'UPDATE {ref.sql()} AS w SET "{HOSTILE_GROUP}" = r.g FROM (SELECT DISTINCT "it\'s", "select"'
            f'{split + " AS hi" if split else ""}, dense_rank() OVER (ORDER BY "it\'s" DESC, "select" DESC'
            f'{split}) AS g FROM {ref.sql()}) AS r WHERE r."it\'s" = w."it\'s" AND r."select" = w."select"'
            + (' AND r.hi = (w."a""b" > 40)' if split else "")
        )
    if null_sa:
        db.raw_rows(f'UPDATE {ref.sql()} SET "ünï" = NULL WHERE "a""b" IN (30, 47)')
    table = table_at(db, ref)
    qi = tuple(table.column(c) for c in HOSTILE_QI[::3])  # it's, select: labels shared across groups
    return Inputs(table, qi, (table.column(HOSTILE_SA),), table.column(HOSTILE_GROUP), 12)


def _same(found: CheckResult, expected: CheckResult) -> None:
    for key in ("satisfied", "groups", "rows", "k", "violating_groups", "violating_rows"):
        assert getattr(found, key) == getattr(expected, key), key
    # the worst groups: ties (same severity and size) are broken by group id, which differs (exact ids
    # here, hashed ids in check), so compare the groups named when every violator is named
    assert len(found.worst) == len(expected.worst)
    if expected.violating_groups <= len(expected.worst):
        named = sorted((w["size"], sorted(w["key"].items())) for w in found.worst)
        assert named == sorted((w["size"], sorted(w["key"].items())) for w in expected.worst)
    assert found.distinct_l == expected.distinct_l
    assert found.entropy_l == pytest.approx(expected.entropy_l)
    assert found.frequency_l == expected.frequency_l


def _parts(inputs: Inputs, privacy: PrivacyModel) -> list[PartitionModel]:
    return partition_models(privacy, [c.name for c in inputs.qi], HOSTILE_GROUP)


def _classes(db: Database, inputs: Inputs, privacy: PrivacyModel) -> CheckResult:
    """``check`` on the classes: by group id where every group id carries one label vector, else by
    group id and labels."""
    ref = inputs.table.ref.sql()
    labels = ", ".join(f'"{c.name.replace(chr(34), chr(34) * 2)}"' for c in inputs.qi)
    one_each = db.raw_rows(
        f'SELECT count(DISTINCT "{HOSTILE_GROUP}") = count(*) FROM '
        f'(SELECT DISTINCT "{HOSTILE_GROUP}", {labels} FROM {ref})'
    )[0][0]
    if one_each:
        return evaluate(db, inputs, privacy, prefix="t_g")
    both = Inputs(
        inputs.table, (inputs.table.column(HOSTILE_GROUP), *inputs.qi), inputs.sa, None, inputs.rows
    )
    return evaluate(db, both, privacy, prefix="t_g")


@pytest.mark.parametrize(
    ("model", "params"),
    [
        ("distinct", {"l": 2}),
        ("distinct", {"l": 3}),
        ("entropy", {"l": 2}),
        ("recursive", {"l": 2, "c": 2}),
        ("frequency", {"l": 3}),
        ("k-anonymity", {"k": 4}),
        ("unique-distinct", {"l": 2}),
    ],
)
@pytest.mark.parametrize("null_sa", [False, True])
@pytest.mark.parametrize("one_partition", [False, True, "vector each"])
def test_verdicts_from_the_aggregate_match_check_on_the_written_table(
    hostile_db: Database,
    model: str,
    params: dict[str, int],
    null_sa: bool,
    one_partition: bool | str,
    from_aggregate: bool,
) -> None:
    inputs = _written(hostile_db, null_sa, one_partition)
    spec = model_spec(model, params.get("l"), {k: v for k, v in params.items() if k != "l"})
    privacy: PrivacyModel | None = spec.build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    steps = len(hostile_db.steps)
    by_group, by_labels = verify_written(
        hostile_db, inputs, inputs.table.ref, Ident(HOSTILE_GROUP), agg, _parts(inputs, privacy), False
    )
    built = _builds(hostile_db, steps, from_aggregate=from_aggregate)
    assert built == (1 if one_partition is True else 2)  # one partition: built once, verifies both
    _same(by_group, _classes(hostile_db, inputs, privacy))
    labels = Inputs(inputs.table, inputs.qi, inputs.sa, None, inputs.rows)
    _same(by_labels, evaluate(hostile_db, labels, privacy.on_unions(), prefix="t_q"))


@pytest.mark.parametrize("one_partition", [False, True, "vector each"])
def test_the_metrics_class_counts_stand_for_same_partition(
    hostile_db: Database, one_partition: bool | str, from_aggregate: bool
) -> None:
    """The metrics' class statement with pairs counts what release/same_partition.sql counts on the same
    aggregate, and the verification given those figures runs no same_partition statement and finds the
    verdicts it finds without them: on a release whose group ids carry several label vectors, one each,
    and one each with vectors shared by two group ids."""
    inputs = _written(hostile_db, False, one_partition)
    privacy = model_spec("distinct", 2, None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    q = [Ident(f"q{i}") for i in range(1, len(inputs.qi) + 1)]
    counts, facts = row_counts_and_classes(
        hostile_db, agg, q, [Ident("s1")], [Ident("gid"), *q], counted=True, pairs=True
    )
    found = hostile_db.records(render("release/same_partition.sql", aggregate=agg, qi=q))[0]
    expected = (int(found["pairs"]), int(found["groups"]), int(found["label_vectors"]))
    assert (counts.pairs, counts.groups, counts.label_vectors) == expected
    assert counts.pairs == facts.classes
    assert (expected[0] == expected[1]) == (one_partition is not False)  # the three kinds of release
    assert (expected[0] == expected[1] == expected[2]) == (one_partition is True)
    verdicts = []
    for pairs in (None, expected):
        steps = len(hostile_db.steps)
        verdicts.append(
            verify_written(
                hostile_db,
                inputs,
                inputs.table.ref,
                Ident(HOSTILE_GROUP),
                agg,
                _parts(inputs, privacy),
                False,
                pairs=pairs,
            )
        )
        ran = [s.template for s in hostile_db.steps[steps:]]
        assert ("release/same_partition.sql" in ran) == (pairs is None)
    for asked, told in zip(*verdicts, strict=True):
        _same(told, asked)


def test_a_violation_is_found_on_the_classes_and_by_labels(hostile_db: Database) -> None:
    """Group ids that carry several label vectors: the classes are (group id, label vector), finer than
    the group ids (groups 1 and 2 hold 3 distinct SA values, group 3 holds 4, yet its classes fewer)."""
    inputs = _written(hostile_db, False)
    privacy = model_spec("distinct", 4, None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    by_group, by_labels = verify_written(
        hostile_db, inputs, inputs.table.ref, Ident(HOSTILE_GROUP), agg, _parts(inputs, privacy), False
    )
    ref = inputs.table.ref.sql()
    by_id = hostile_db.raw_rows(f'SELECT "{HOSTILE_GROUP}", count(DISTINCT "ünï") FROM {ref} GROUP BY 1')
    assert sorted(by_id) == [(1, 3), (2, 3), (3, 4)]
    classes, bad, bad_rows = hostile_db.raw_rows(
        f"SELECT count(*), count(*) FILTER (WHERE d < 4), sum(n) FILTER (WHERE d < 4) FROM (SELECT "
        f'count(DISTINCT "ünï") AS d, count(*) AS n FROM {ref} GROUP BY "{HOSTILE_GROUP}", "it\'s", "select")'
    )[0]
    assert classes > 3 and bad > 2  # group 3's classes violate too
    assert (by_group.satisfied, by_group.groups) == (False, classes)
    assert (by_group.violating_groups, by_group.violating_rows) == (bad, bad_rows)
    assert by_group.keys == [HOSTILE_GROUP, *(c.name for c in inputs.qi)]
    assert by_labels.satisfied is False and by_labels.violating_groups > 0


def test_one_partition_verified_once_gives_the_verdicts_of_both(
    hostile_db: Database, from_aggregate: bool
) -> None:
    inputs = _written(hostile_db, False, one_partition=True)
    privacy = model_spec("distinct", 3, None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    found = []
    for once in (True, False):
        steps = len(hostile_db.steps)
        found.append(
            verify_written(
                hostile_db,
                inputs,
                inputs.table.ref,
                Ident(HOSTILE_GROUP),
                agg,
                _parts(inputs, privacy),
                False,
                once,
            )
        )
        assert _builds(hostile_db, steps, from_aggregate=from_aggregate) == (1 if once else 2)
    (group_once, labels_once), (group_both, labels_both) = found
    assert not group_both.satisfied and not labels_both.satisfied  # violations, named in both partitions
    _same(group_once, group_both)
    _same(labels_once, labels_both)
    assert labels_once.keys == labels_both.keys == [c.name for c in inputs.qi]


def _assignment(db: Database) -> TableRef:
    t = db.work_table("asg it's")
    db.raw_rows(
        f'CREATE OR REPLACE TEMP TABLE {t.sql()} AS SELECT rowid AS rid, CAST("group" AS BIGINT) AS gid, '
        'false AS deleted, false AS sa_suppressed FROM "select"'
    )
    return t


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        (None, None),
        ('UPDATE {t} SET "ünï" = \'Flu\' WHERE "a""b" = 30', "SA values whose counts do not reconcile"),
        ('DELETE FROM {t} WHERE "a""b" = 30', "published 12 \\+ deleted 0"),
        ('INSERT INTO {t} SELECT * FROM {t} WHERE "a""b" = 30', "published 12 \\+ deleted 0"),
    ],
)
def test_reconciliation_reads_the_written_table(
    hostile_db: Database, tamper: str | None, problem: str | None
) -> None:
    inputs = _written(hostile_db, False)
    source = resolve_table(hostile_db, "select")
    src_inputs = Inputs(source, (), (source.column(HOSTILE_SA),), None, 12)
    if tamper:
        hostile_db.raw_rows(tamper.format(t=inputs.table.ref.sql()))
    part = Partitioning(assignment=_assignment(hostile_db), recoding="suppress")
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    if problem is None:
        rec = reconcile(hostile_db, src_inputs, part, agg)
        assert (rec["rows_in"], rec["published"], rec["output_rows"], rec["sa_mismatches"]) == (12, 12, 12, 0)
    else:
        with pytest.raises(InternalError, match=problem):
            reconcile(hostile_db, src_inputs, part, agg)


@pytest.mark.parametrize(
    ("algorithm", "qi", "kw"),
    [
        ("full-domain", ["it's", "select"], {"levels": {"it's": 1, "select": 0}}),
        ("mondrian", ["it's", 'a"b', "select"], {}),
        ("tp", ["it's", 'a"b', "select"], {}),
    ],
)
def test_pipeline_metrics_equal_the_metrics_of_the_written_table(
    hostile_db: Database, algorithm: str, qi: list[str], kw: dict[str, object]
) -> None:
    res = ldiv_db.anonymize(
        hostile_db, "select", qi, HOSTILE_SA, algorithm=algorithm, l=2, output="out it's",
        class_column=HOSTILE_CLASS, **kw,
    )  # fmt: skip
    source = resolve_table(hostile_db, "select")
    written = table_at(hostile_db, TableRef("out it's", "main"))
    expected = compute_metrics(
        hostile_db,
        Measured(
            source,
            written,
            source.columns_of(qi),
            source.columns_of([HOSTILE_SA]),
            class_column=HOSTILE_CLASS,
        ),
        MetricsOptions(l=2, interval_labels=[c == 'a"b' and algorithm == "mondrian" for c in qi]),
    ).to_dict()
    assert res.metrics == expected
    assert res.metrics["cm"] is not None
    assert res.groups == int(
        hostile_db.raw_rows(f"SELECT count(DISTINCT group_id) FROM {written.ref.sql()}")[0][0]
    )


def test_a_hash_collision_of_label_vectors_rebuilds_them_with_exact_ids(
    hostile_db: Database, monkeypatch: pytest.MonkeyPatch, from_aggregate: bool
) -> None:
    """The label vectors' hashed ids (forced to collide here: the first hash keeps 1 bit) are caught by
    the collision check and rebuilt with exact ranks; the verdicts are those without the collision."""
    import ldiv_db.pipeline.verify as verify_module

    inputs = _written(hostile_db, False)
    privacy = model_spec("distinct", 4, None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    reference = verify_written(
        hostile_db, inputs, inputs.table.ref, Ident(HOSTILE_GROUP), agg, _parts(inputs, privacy), False
    )
    real = verify_module.render

    def colliding(name: str, params: object = None, **ctx: object) -> object:
        q = real(name, params, **ctx)  # type: ignore[arg-type]
        if name in BUILDS and ctx.get("hash_ids") and ctx.get("by_labels"):
            sql = q.sql.replace(") >> 1 AS BIGINT) AS gid,", ") >> 63 AS BIGINT) AS gid,", 1)
            assert sql != q.sql
            return type(q)(q.name, sql, q.params)
        return q

    monkeypatch.setattr(verify_module, "render", colliding)
    steps = len(hostile_db.steps)
    by_group, by_labels = verify_written(
        hostile_db, inputs, inputs.table.ref, Ident(HOSTILE_GROUP), agg, _parts(inputs, privacy), False
    )
    built = [s.template for s in hostile_db.steps[steps:] if s.template in BUILDS]
    # the classes (group id and labels: group ids carry several label vectors here) and the labels, each
    # hashed (collided: their statistics straight from the aggregate on both paths, no histogram stored),
    # then ranked (always from a stored histogram)
    first = "release/verify_stats.sql"
    assert built == [first, "release/verify_hist.sql", first, "release/verify_hist.sql"], from_aggregate
    _same(by_group, reference[0])
    _same(by_labels, reference[1])
    assert by_labels.groups > 2  # the collision did not merge the label vectors


@pytest.mark.parametrize("classed", [False, True])
def test_one_label_vector_per_group_takes_the_aggregate_rows_as_the_histogram(
    hostile_db: Database, monkeypatch: pytest.MonkeyPatch, classed: bool
) -> None:
    """Every group id carries one label vector (some vectors two group ids): with one SA the aggregate
    has one row per group id and SA value, and the histogram by group id is its rows, not an aggregation
    of them — unless a class column splits them. Either way the verdicts are check's on the table."""
    inputs = _written(hostile_db, False, "vector each")
    # every row again with a"b one higher (same side of 40, so the same group id): each group's SA value
    # has two rows, which a class column of a"b keeps apart in the aggregate
    ref = inputs.table.ref
    hostile_db.raw_rows(
        f'INSERT INTO {ref.sql()} SELECT * REPLACE ("a""b" + 1 AS "a""b") FROM {ref.sql()} WHERE "a""b" <> 40'
    )
    rows = int(hostile_db.raw_rows(f"SELECT count(*) FROM {ref.sql()}")[0][0])
    inputs = Inputs(table_at(hostile_db, ref), inputs.qi, inputs.sa, inputs.group, rows)
    privacy = model_spec("distinct", 2, None).build(inputs)
    assert privacy is not None
    klass = 'a"b' if classed else None  # a class column whose values vary within a group's SA value
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, klass)
    seen = _spy_one_row_each(monkeypatch)
    by_group, by_labels = verify_written(
        hostile_db,
        inputs,
        inputs.table.ref,
        Ident(HOSTILE_GROUP),
        agg,
        _parts(inputs, privacy),
        False,
        classed=classed,
    )
    assert seen == [not classed]
    agg_rows = hostile_db.raw_rows(f"SELECT count(*) FROM {agg.sql()}")[0][0]
    pairs = hostile_db.raw_rows(f"SELECT count(*) FROM (SELECT DISTINCT gid, s1 FROM {agg.sql()})")[0][0]
    assert (agg_rows == pairs) is (not classed)  # the class column splits a group's SA value into rows
    _same(by_group, _classes(hostile_db, inputs, privacy))
    labels = Inputs(inputs.table, inputs.qi, inputs.sa, None, inputs.rows)
    _same(by_labels, evaluate(hostile_db, labels, privacy.on_unions(), prefix="t_q"))


def test_one_partition_with_a_class_column_is_still_verified_once(hostile_db: Database) -> None:
    """A class column keeps the histogram an aggregation, but not two partitions apart: when the group
    ids and the label vectors are one partition, one histogram verifies both, as without it."""
    inputs = _written(hostile_db, False, one_partition=True)
    privacy = model_spec("distinct", 2, None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, 'a"b')
    steps = len(hostile_db.steps)
    by_group, by_labels = verify_written(
        hostile_db,
        inputs,
        inputs.table.ref,
        Ident(HOSTILE_GROUP),
        agg,
        _parts(inputs, privacy),
        False,
        classed=True,
    )
    assert sum(1 for s in hostile_db.steps[steps:] if s.template in BUILDS) == 1
    _same(by_group, _classes(hostile_db, inputs, privacy))
    labels = Inputs(inputs.table, inputs.qi, inputs.sa, None, inputs.rows)
    _same(by_labels, evaluate(hostile_db, labels, privacy.on_unions(), prefix="t_q"))


@pytest.mark.parametrize(
    ("algorithm", "qi", "kw", "sorted_aggregate"),
    [
        ("tp", ["it's", "select"], {}, True),  # the algorithm counts its groups: a few rows each
        ("mondrian", ["it's", 'a"b'], {}, True),  # its labels table counts them
        # labels by row: no count, no hint
        ("full-domain", ["it's", "select"], {"levels": {"it's": 1, "select": 0}}, False),
    ],
)
def test_the_release_aggregate_is_sorted_for_a_release_of_small_groups(
    hostile_db: Database,
    monkeypatch: pytest.MonkeyPatch,
    algorithm: str,
    qi: list[str],
    kw: dict[str, object],
    sorted_aggregate: bool,
) -> None:
    """The release aggregate carries the many-groups plan hint (aggregate by sorting) when the release's
    groups hold at most FEW_ROWS rows on average, as the algorithm or the labels table counts them."""
    from ldiv_db.pipeline import verify as verify_module

    hints: list[frozenset[str]] = []
    real = Database.run

    def spy(self: Database, query: object) -> object:
        if getattr(query, "name", None) == "release/aggregate.sql":
            hints.append(query.hints)  # type: ignore[attr-defined]
        return real(self, query)  # type: ignore[arg-type]

    monkeypatch.setattr(Database, "run", spy)
    res = ldiv_db.anonymize(
        hostile_db, "select", qi, HOSTILE_SA, algorithm=algorithm, l=2, output="out it's", **kw
    )  # type: ignore[arg-type]
    assert res.groups * verify_module.FEW_ROWS >= res.rows_published  # every release here has small groups
    assert hints == [frozenset({"many-groups"}) if sorted_aggregate else frozenset()]


@pytest.mark.parametrize(
    ("algorithm", "qi"),
    [("mondrian", ["it's", 'a"b']), ("tp", ["it's", "select"]), ("tp", ["it's", 'a"b', "select"])],
)
def test_a_release_written_with_one_label_vector_per_group_is_verified_by_its_rows(
    hostile_db: Database, monkeypatch: pytest.MonkeyPatch, algorithm: str, qi: list[str]
) -> None:
    """Local recoding writes one label vector per group id, held by the reconciliation
    (pipeline/verify.py: one_vector_per_group): no statement asks again. Suppression writes one as well,
    but by the statement's construction only, so it is checked on the written table: by the metrics'
    class statement (metrics/rows.sql with pairs), not release/same_partition.sql again. Either way the histogram by group id is the aggregate's rows, and the verdict on the classes is
    a brute force's over the written table's rows."""
    seen = _spy_one_row_each(monkeypatch)
    res = ldiv_db.anonymize(
        hostile_db, "select", qi, HOSTILE_SA, algorithm=algorithm, l=2, output="out it's", seed=3
    )  # type: ignore[arg-type]
    assert seen == [True]
    ran = hostile_db.raw_rows(f"SELECT template FROM ldiv.run_step WHERE run_id = {int(res.run_id)}")
    assert "release/aggregate.sql" in {t for (t,) in ran}
    assert "release/same_partition.sql" not in {t for (t,) in ran}
    assert "metrics/rows.sql" in {t for (t,) in ran}
    written = hostile_db.con.execute('SELECT * FROM "out it\'s"').df()
    classes = written.groupby(["group_id", *qi], dropna=False)[HOSTILE_SA]
    assert written.groupby("group_id")[qi].nunique(dropna=False).max().max() == 1  # one vector per group
    found = next(p for p in res.verification["partitions"] if p["partition"] == "classes")
    assert found["classes"] == classes.ngroups == res.classes
    assert found["k"] == int(classes.size().min())
    assert found["distinct_l"] == int(classes.nunique().min())
    assert found["violating_classes"] == 0 and res.verified


@pytest.mark.parametrize(("model", "reads_histogram"), [("distinct", False), ("recursive", True)])
def test_the_histogram_by_group_id_is_stored_only_when_a_model_reads_it(
    hostile_db: Database,
    monkeypatch: pytest.MonkeyPatch,
    model: str,
    reads_histogram: bool,
    from_aggregate: bool,
) -> None:
    """Where the histogram by group id would be the aggregate's rows as they are (one label vector per
    group id, one SA, no class column), its statistics are computed from those rows and the histogram is
    stored only for a model that reads it (the recursive model's counts): the verdicts are check's."""
    import ldiv_db.pipeline.verify as verify_module

    inputs = _written(hostile_db, False, "vector each")
    privacy = model_spec(model, 2, {"c": 2} if model == "recursive" else None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    real = verify_module.render
    by_group_id: list[tuple[str, object]] = []

    def spy(name: str, params: object = None, **ctx: object) -> object:
        if name in BUILDS and not ctx.get("by_labels"):
            by_group_id.append((name, ctx.get("listed", True)))
        return real(name, params, **ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_module, "render", spy)
    by_group, by_labels = verify_written(
        hostile_db, inputs, inputs.table.ref, Ident(HOSTILE_GROUP), agg, _parts(inputs, privacy), False
    )
    if from_aggregate:  # the statistics from the source, with their counts' lists: no histogram
        assert by_group_id == [("release/verify_stats.sql", True)]
    else:
        stored = [("release/verify_hist.sql", True)] if reads_histogram else []
        assert by_group_id == [("release/verify_stats.sql", False), *stored]
    _same(by_group, _classes(hostile_db, inputs, privacy))
    labels = Inputs(inputs.table, inputs.qi, inputs.sa, None, inputs.rows)
    _same(by_labels, evaluate(hostile_db, labels, privacy.on_unions(), prefix="t_q"))


@pytest.mark.parametrize(("model", "reads_histogram"), [("distinct", False), ("recursive", True)])
def test_the_label_classes_histogram_is_stored_only_when_a_model_reads_it(
    hostile_db: Database, monkeypatch: pytest.MonkeyPatch, model: str, reads_histogram: bool
) -> None:
    """By label vector the statistics are computed from the aggregate's rows in one statement (hashed
    ids, no counts' lists) on both paths, and the histogram is stored only for a model that reads it:
    the verdicts are check's on the label classes."""
    import ldiv_db.pipeline.verify as verify_module

    inputs = _written(hostile_db, False, "vector each")
    privacy = model_spec(model, 2, {"c": 2} if model == "recursive" else None).build(inputs)
    assert privacy is not None
    agg = aggregate(hostile_db, inputs, inputs.table.ref, HOSTILE_GROUP, None)
    real, by_label = verify_module.render, []

    def spy(name: str, params: object = None, **ctx: object) -> object:
        if name in BUILDS and ctx.get("by_labels"):
            by_label.append((name, ctx.get("listed", True), ctx.get("hash_ids")))
        return real(name, params, **ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_module, "render", spy)
    _, by_labels = verify_written(
        hostile_db, inputs, inputs.table.ref, Ident(HOSTILE_GROUP), agg, _parts(inputs, privacy), False
    )
    # statistics from the source keep the counts' lists a recursive model reads: no histogram
    from_aggregate = DuckDBDatabase.stats_from_source is True
    stored = [("release/verify_hist.sql", True, True)] if reads_histogram and not from_aggregate else []
    assert by_label == [("release/verify_stats.sql", from_aggregate, True), *stored]
    labels = Inputs(inputs.table, inputs.qi, inputs.sa, None, inputs.rows)
    _same(by_labels, evaluate(hostile_db, labels, privacy.on_unions(), prefix="t_q"))
