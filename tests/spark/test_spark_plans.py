"""Plans Spark picks for statements whose naive join degenerates: the metrics' cover of interval labels
(num between lo and hi) must not be a nested loop over every label and value of an attribute."""

from __future__ import annotations

import re

import pytest

from ldiv_db.db import Database
from ldiv_db.sqlgen.render import TableRef, render
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
