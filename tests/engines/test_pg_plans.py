"""Plans PostgreSQL picks for statements whose naive join degenerates: a join over an SA's values must
match each value on its key, not compare every pair (quadratic in the SA's distinct values)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Ident, Query, TableRef, render

pytestmark = pytest.mark.postgres


def _most_filtered(node: dict[str, Any]) -> int:
    """The most rows any join of the plan removed by its join filter (pairs compared and dropped)."""
    own = int(node.get("Rows Removed by Join Filter", 0))
    return max([own, *(_most_filtered(child) for child in node.get("Plans", []))])


def _most_rows(node: dict[str, Any]) -> int:
    """The most rows any node of the plan produced, over all its loops."""
    own = int(node.get("Actual Rows", 0)) * int(node.get("Actual Loops", 1))
    return max([own, *(_most_rows(child) for child in node.get("Plans", []))])


def test_mondrian_codes_each_sa_value_on_one_join_key(pg_url: str) -> None:
    """mondrian/vectors.sql joins its (vector, value) counts to the values' codes. With the SA's position
    and the spelling as two equalities, PostgreSQL merged on the position (one value for one SA) and
    filtered every pair: 8,000 unique values removed 63,992,000 rows (6.8 s of a 7.3 s run)."""
    n = 3000
    make = (
        "CREATE TEMPORARY TABLE pg_temp.mrows AS SELECT i AS rid, CAST(i % 37 AS DOUBLE PRECISION) AS o1, "
        "'v' || i AS s1 FROM generate_series(1, {n}) AS i"
    )
    with Database.open(pg_url, mode="read") as db:
        db.run(Query("rows", make.format(n=n)))
        q = render(
            "mondrian/vectors.sql", rows=TableRef("mrows", "pg_temp"), ords=[Ident("o1")], sas=[Ident("s1")]
        )
        [sql] = db._statements(q)  # type: ignore[attr-defined]
        plan = db.raw_rows("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)[0][0]
        coded = db.rows(q)
    assert len(coded) == n and sorted(int(r[3]) for r in coded) == list(range(n))  # each value its own code
    assert _most_filtered(plan[0]["Plan"]) < n


def test_metrics_cover_reads_each_interval_by_its_ranks(pg_url: str) -> None:
    """metrics/cover.sql's interval branch is a range join (num between lo and hi); PostgreSQL ran it as a
    nested loop over every label and value of the attribute (8,000 rows of a unique QI: 2.9 s of a 3.4 s
    ``metrics``). Its variant ranks the values and reads each interval's ranks by equality."""
    n = 3000
    with Database.open(pg_url, mode="read") as db:
        db.run(
            Query(
                "domain",
                "CREATE TEMPORARY TABLE pg_temp.dom AS SELECT 1 AS attr, CAST(i AS VARCHAR) AS value, "
                f"CAST(i AS DOUBLE PRECISION) AS num FROM generate_series(0, {n - 1}) AS i",
            )
        )
        db.run(  # intervals of two values each, one of them also as a wider one, and a point interval
            Query(
                "labels",
                "CREATE TEMPORARY TABLE pg_temp.lab AS SELECT 1 AS attr, (2 * i) || '-' || (2 * i + 1) AS label, "
                "'interval' AS kind, CAST(NULL AS BIGINT) AS hierarchy_id, CAST(2 * i AS DOUBLE PRECISION) AS lo, "
                f"CAST(2 * i + 1 AS DOUBLE PRECISION) AS hi FROM generate_series(0, {n // 2 - 1}) AS i "
                "UNION ALL SELECT 1, '10-19', 'interval', NULL, 10, 19 UNION ALL SELECT 1, '7', 'interval', NULL, 7, 7",
            )
        )
        q = render(
            "metrics/cover.sql",
            target=TableRef("cov", "pg_temp"),
            labels=TableRef("lab", "pg_temp"),
            domain=TableRef("dom", "pg_temp"),
            n_attrs=1,
        )
        [create] = [s for s in db._statements(q) if "CREATE TABLE" in s]  # type: ignore[attr-defined]
        select = re.split(r"CREATE TABLE \S+ AS\s", create, maxsplit=1)[1]  # its query alone
        plan = db.raw_rows("EXPLAIN (ANALYZE, FORMAT JSON) " + select)[0][0]
        cover = {(label, int(value)) for _, label, value, _ in db.raw_rows(select)}
    want = {(f"{2 * i}-{2 * i + 1}", v) for i in range(n // 2) for v in (2 * i, 2 * i + 1)}
    assert cover == want | {("10-19", v) for v in range(10, 20)} | {("7", 7)}
    assert _most_filtered(plan[0]["Plan"]) < n


def test_uncategorized_values_anti_join_on_hashable_keys(pg_url: str) -> None:
    """attack/uncategorized.sql finds the SA values without a category by ``NOT EXISTS`` on a null-safe
    equality. Left as ``IS NOT DISTINCT FROM``, PostgreSQL can only run the anti-join as a nested loop over
    every pair of source row and category (4,000 unique values: 7,998,000 rows removed, 1.36 s); the
    dialect rewrites it to hashable equalities, as in a join's ``ON``."""
    n = 3000
    with Database.open(pg_url, mode="read") as db:
        db.run(  # every value categorized but 'x' and NULL (twice each)
            Query(
                "source",
                "CREATE TEMPORARY TABLE pg_temp.usrc AS SELECT 'v' || i AS sa FROM generate_series(1, "
                f"{n}) AS i UNION ALL SELECT 'x' FROM generate_series(1, 2) UNION ALL "
                "SELECT CAST(NULL AS TEXT) FROM generate_series(1, 2)",
            )
        )
        db.run(
            Query(
                "categories",
                "CREATE TEMPORARY TABLE pg_temp.ucat AS SELECT 1 AS s, 'v' || i AS v, 0 AS p, 1 AS q, "
                f"1 + i % 3 AS category FROM generate_series(1, {n}) AS i",
            )
        )
        q = render(
            "attack/uncategorized.sql",
            source=TableRef("usrc", "pg_temp"),
            sa=Ident("sa"),
            categories=TableRef("ucat", "pg_temp"),
        )
        [sql] = db._statements(q)  # type: ignore[attr-defined]
        plan = db.raw_rows("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)[0][0]
        missing = db.rows(q)
    assert [tuple(r) for r in missing] == [("x", 2), (None, 2)]
    assert _most_filtered(plan[0]["Plan"]) < n


def _ordered_inputs(db: Database, schema: str, n: int, groups: int) -> dict[str, TableRef]:
    """Groups of many values each (one SA): value i in group i % groups, once; the baseline ranks them."""
    temp = "TEMPORARY " if schema == "pg_temp" else ""
    rows = f"FROM generate_series(0, {n - 1}) AS g(i)"
    made = {
        "hist": f"CAST(i % {groups} AS BIGINT) AS gid, 1 AS s, CAST(i AS VARCHAR) AS v, CAST(1 AS BIGINT) AS n, "
        f"false AS unknown {rows}",
        "stats": f"CAST(i AS BIGINT) AS gid, 1 AS s, CAST({n // groups} AS BIGINT) AS size, CAST({n // groups} AS BIGINT) "
        f"AS n_values, CAST({n // groups} AS BIGINT) AS known FROM generate_series(0, {groups - 1}) AS g(i)",
        "baseline": f"1 AS s, CAST(i AS VARCHAR) AS v, CAST(1 AS BIGINT) AS n, CAST(i + 1 AS BIGINT) AS r, "
        f"CAST(0 AS BIGINT) AS pt {rows}",
    }
    for name, select in made.items():
        db.run(Query(name, f"CREATE {temp}TABLE {schema}.ord_{name} AS SELECT {select}"))
    return {name: TableRef(f"ord_{name}", schema) for name in made}


def test_ordered_closeness_reads_prefix_sums_on_one_key(pg_url: str) -> None:
    """privacy/t_ordered.sql joined each step back to the rank it found on (gid, s, a) and read the prefix
    sums on (s, r) as two equalities; with one SA PostgreSQL merged or hashed on the position alone and
    filtered every pair (500 rows: 250 million pairs, 102 s of a ``check --distance ordered``)."""
    n, groups = 150, 5  # the pairs grew as n³: small enough to fail fast without the fix
    params = {"t_num": 1, "t_den": 5}
    out: list[list[tuple[Any, ...]]] = []
    for url, schema in ((pg_url, "pg_temp"), (":memory:", "main")):
        with Database.open(url, mode="write" if url == ":memory:" else "read") as db:
            tables = _ordered_inputs(db, schema, n, groups)
            q = render(
                "privacy/t_ordered.sql", params, target=TableRef("ord_out", schema), one_sa=True, **tables
            )
            if schema == "pg_temp":
                [create] = [s for s in db._statements(q) if "CREATE TABLE" in s]  # type: ignore[attr-defined]
                select = re.split(r"CREATE TABLE \S+ AS\s", create, maxsplit=1)[1]
                plan = db.raw_rows("EXPLAIN (ANALYZE, FORMAT JSON) " + select, params)[0][0]
                assert _most_filtered(plan[0]["Plan"]) < n
                assert _most_rows(plan[0]["Plan"]) < 4 * n  # no pairs of a group's values
            db.run(q)
            out.append(sorted(tuple(r) for r in db.rows(Query("read", f"SELECT * FROM {schema}.ord_out"))))
    assert len(out[0]) == groups and out[0] == out[1]
