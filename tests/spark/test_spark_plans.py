"""Plans Spark picks for statements whose naive join degenerates: the metrics' cover of interval labels
(num between lo and hi) must not be a nested loop over every label and value of an attribute, nor the LCA
labels' lookup one over every group's span and every node of the hierarchy."""

from __future__ import annotations

import re

import pytest

from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Ident, TableRef, render
from tests.spark.conftest import statements_sent

pytestmark = pytest.mark.spark


def test_metrics_cover_reads_each_interval_by_its_ranks(spark_session, spark_url, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Spark ran metrics/cover.sql's range join as a broadcast nested loop: 32,000 rows of a unique QI
    12.5 s of a 20.1 s ``metrics`` (8,000 rows: 1.5 s). Its variant reads each interval's ranks by
    equality; the cover is the same (the intervals: adjacent pairs, a wider one, a point, an empty one)."""
    n = 60
    with Database.open(spark_url) as db:
        db.raw_rows("CREATE SCHEMA IF NOT EXISTS t_cover")
        db.raw_rows("DROP TABLE IF EXISTS t_cover.dom")
        db.raw_rows("DROP TABLE IF EXISTS t_cover.lab")
        db.raw_rows(
            "CREATE TABLE t_cover.dom AS SELECT 1 AS attr, CAST(i AS VARCHAR) AS value, "
            f"CAST(i AS DOUBLE) AS num FROM range({n}) AS r(i)"
        )
        db.raw_rows(
            "CREATE TABLE t_cover.lab AS SELECT 1 AS attr, CAST(2 * i AS VARCHAR) || '-' || CAST(2 * i + 1 AS VARCHAR) "
            "AS label, 'interval' AS kind, CAST(NULL AS BIGINT) AS hierarchy_id, CAST(2 * i AS DOUBLE) AS lo, "
            f"CAST(2 * i + 1 AS DOUBLE) AS hi FROM range({n // 2}) AS r(i) "
            "UNION ALL SELECT 1, '10-19', 'interval', NULL, 10.0, 19.0 "
            "UNION ALL SELECT 1, '7', 'interval', NULL, 7.0, 7.0 "
            "UNION ALL SELECT 1, '100-109', 'interval', NULL, 100.0, 109.0"
        )
        sent = statements_sent(spark_session, monkeypatch)
        target = TableRef("cov", "t_cover")
        db.run(render("metrics/cover.sql", target=target, labels=TableRef("lab", "t_cover"),
                      domain=TableRef("dom", "t_cover"), n_attrs=1))  # fmt: skip
        cover = {(label, int(value)) for _, label, value, _ in db.raw_rows("SELECT * FROM t_cover.cov")}
        [create] = [s for s in sent if "CREATE" in s and "cov" in s]
        select = re.split(r" AS (?=WITH |SELECT )", create, maxsplit=1)[1]
        plan = "\n".join(r[0] for r in db.raw_rows("EXPLAIN " + select))
    want = {(f"{2 * i}-{2 * i + 1}", v) for i in range(n // 2) for v in (2 * i, 2 * i + 1)}
    assert cover == want | {("10-19", v) for v in range(10, 20)} | {("7", 7)}
    assert "NestedLoopJoin" not in plan, plan


def _plan(session: object, sent: list[str], target: TableRef, params: dict[str, object]) -> str:
    """The plan of the query that made ``target`` (the last statement naming it, as Spark was sent it)."""
    bare = [re.sub(r"/\*.*?\*/", "", s).strip() for s in sent]
    [create] = [s for s in bare if s.startswith("CREATE TABLE") and target.name in s][-1:]
    select = re.split(r" AS (?=WITH |SELECT )", create, maxsplit=1)[1]
    return "\n".join(r[0] for r in session.sql("EXPLAIN " + select, args=params or None).collect())  # type: ignore[attr-defined]


def _nested_loops(plan: str) -> list[str]:
    """A plan's joins that pair rows by no key: every row of one side with every row of the other."""
    return [
        line.strip() for line in plan.splitlines() if "NestedLoopJoin" in line or "CartesianProduct" in line
    ]


def test_lca_labels_climb_from_each_span_s_first_leaf(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch, tmp_path
) -> None:
    """release/labels_lca.sql found each group's LCA among the nodes whose preorder range holds its span
    (node_id <= lo AND last_leaf >= hi): on Spark a broadcast nested loop (the hierarchy id is a bound
    value), every span against every node. It climbs from the span's first leaf by equalities instead;
    the labels are DuckDB's (groups within a leaf, a subtree of each level, all)."""
    n = 120
    arx = tmp_path / "q.csv"
    arx.write_text("".join(f"c{i};d{i // 10};h{i // 40};*\n" for i in range(n)))
    # a leaf (c), a tens (d), a forty (h), every value (*)
    gid = "CASE i % 4 WHEN 0 THEN 1000 + i WHEN 1 THEN 2000 + floor(i / 10) WHEN 2 THEN 3000 + floor(i / 40) ELSE 4000 + i % 8 END"
    out = TableRef("out", "t_lca")
    rows, plan = {}, ""
    for url in (str(tmp_path / "lca.duckdb"), spark_url):
        with Database.open(url, mode="write") as db:
            db.raw_rows("CREATE SCHEMA IF NOT EXISTS t_lca")
            for name in ("src", "asg", "out"):
                db.raw_rows(f"DROP TABLE IF EXISTS t_lca.{name}")
            rowid = ", CAST(i AS BIGINT) AS ldiv_rowid" if url == spark_url else ""
            db.raw_rows(
                f"CREATE TABLE t_lca.src AS SELECT 'c' || CAST(i AS VARCHAR) AS q{rowid} FROM range({n}) AS r(i)"
            )
            db.raw_rows(
                f"CREATE TABLE t_lca.asg AS SELECT CAST({gid} AS BIGINT) AS gid, CAST(i AS BIGINT) AS rid, "
                f"false AS deleted FROM range({n}) AS r(i)"
            )
            hid = taxonomy.import_hierarchy(db, "t_lca.src", "q", arx).hierarchy_id
            sent = statements_sent(spark_session, monkeypatch) if url == spark_url else []
            db.run(render("release/labels_lca.sql", {"hids": [hid]}, target=out, assignment=TableRef("asg", "t_lca"),
                          source=TableRef("src", "t_lca"), qi=[Ident("q")], kinds=["hierarchy"]))  # fmt: skip
            rows[url] = sorted(tuple(r) for r in db.raw_rows("SELECT * FROM t_lca.out"))
            if sent:
                plan = _plan(spark_session, sent, out, {"hids": [hid]})
    assert rows[spark_url] == rows[str(tmp_path / "lca.duckdb")]
    assert {r[1][0] for r in rows[spark_url]} == {"c", "d", "h", "*"}
    assert not _nested_loops(plan), plan
