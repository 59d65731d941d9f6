"""Spark under a small driver (issue 52): nothing that grows with the table reaches the driver at once.

The census fixture (400 rows) is loaded on Spark and in a DuckDB file; the Spark database's fetch bound
is set far below the table's size (``fetch_rows`` = 60 rows), so a result that grows with the table and
was not declared bulk is refused, and a declared one goes through the batched path. The algorithms run
under that bound and must give DuckDB's release (the reference engine: same classes up to renumbering,
same counts). The slow module-level run (``test_every_algorithm_under_a_tiny_bound``) covers every
algorithm Spark runs; the fast ones cover TP+ (the issue's case) and Mondrian, plus the guard itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.db.spark.engine import ALGORITHMS
from ldiv_db.errors import LdivError
from ldiv_db.sqlgen.render import Query, TableRef

pytestmark = pytest.mark.spark

ROWS, BOUND = 400, 60
QI, SA = ["age", "sex", "race"], "occupation"


@pytest.fixture(scope="module")
def census_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("census") / "census.csv"
    census.generate(n=ROWS).to_csv(path, sep=";", index=False)
    return path


@pytest.fixture(scope="module")
def both(spark_session, spark_url, census_csv, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    duck = Database.open(str(tmp_path_factory.mktemp("driver") / "d.duckdb"))
    spark = Database.open(spark_url)
    for db in (duck, spark):
        ldiv_db.load(db, census_csv, "census_small", sep=";", replace=True)
    spark.fetch_rows = BOUND  # type: ignore[attr-defined]
    yield duck, spark
    duck.close()
    spark.drop_work_tables()
    spark.close()


def _classes(db: Database, table: str) -> Counter[str]:
    by: dict[Any, list[str]] = {}
    for r in db.records(Query("read", f"SELECT * FROM {TableRef(table, 'main').sql()}"), bulk=True):
        by.setdefault(r.pop("group_id"), []).append(json.dumps(r, sort_keys=True, default=str))
    return Counter(json.dumps(sorted(rows)) for rows in by.values())


def _same_release(
    both: tuple[Database, Database], algorithm: str, table: str = "census_small", **options: Any
) -> dict[str, Any]:
    duck, spark = both
    out = f"{table}_{algorithm.replace('+', 'p').replace('-', '_')}"
    want, got = (
        ldiv_db.anonymize(db, table, QI, SA, algorithm=algorithm, output=out, replace=True, **options)
        for db in (duck, spark)
    )
    assert got.verified and want.verified
    w, g = want.to_dict(), got.to_dict()
    for key in (
        "rows_in",
        "rows_published",
        "rows_deleted",
        "cells_suppressed",
        "rows_with_suppressed_cells",
        "classes",
    ):
        assert g[key] == w[key], key
    assert _classes(spark, out) == _classes(duck, out)
    return g


def test_an_undeclared_fetch_above_the_bound_is_refused_naming_the_statement(both) -> None:  # type: ignore[no-untyped-def]
    _, spark = both
    # a column name Parquet would not store as it is: the batches are written under names of their own
    q = Query(
        "probe/all_ages.sql", 'SELECT age AS "age, in years (a=b)" FROM main.census_small ORDER BY rowid'
    )
    with pytest.raises(LdivError) as caught:
        spark.rows(q)
    assert "probe/all_ages.sql" in caught.value.message and "fetch_rows" in (caught.value.hint or "")
    # declared bulk: every row, in the statement's order, through batches of at most BOUND rows
    before = spark.queries
    ages = [r[0] for r in spark.rows(q, bulk=True)]
    assert ages == census.generate(n=ROWS)["age"].tolist()
    frame = spark.df(q, bulk=True)
    assert list(frame.columns) == ["age, in years (a=b)"] and frame.iloc[:, 0].tolist() == ages
    assert spark.queries - before >= ROWS // BOUND  # one read per batch


def test_zipped_unnests_give_one_row_per_position(both) -> None:  # type: ignore[no-untyped-def]
    _, spark = both
    q = Query("z", "SELECT unnest($a) AS x, unnest($b) AS y", {"a": [1, 2, 3], "b": [40, 50, 60]})
    assert sorted(spark.rows(q)) == [(1, 40), (2, 50), (3, 60)]  # DuckDB's reading of the statement


def test_tp_plus_the_issues_case_under_a_tiny_bound(both) -> None:  # type: ignore[no-untyped-def]
    _same_release(both, "tp+", l=4)


def test_mondrian_under_a_tiny_bound(both) -> None:  # type: ignore[no-untyped-def]
    _same_release(both, "mondrian", l=4)


SLOW_RUNS: list[tuple[str, dict[str, Any]]] = [
    ("tp", {"l": 4}),
    ("hilbert", {"l": 4}),
    ("bsgi", {"l": 4}),
]
# the algorithms that generalize by the QIs' hierarchies run on a copy with the census hierarchies
HIERARCHY_RUNS: list[tuple[str, dict[str, Any]]] = [
    ("lplus", {"l": 4}),
    ("topdown", {"l": 4, "model": "distinct"}),
    ("optimal", {"l": 4}),
    ("full-domain", {"l": 4, "levels": {"age": 2, "sex": 1, "race": 1}, "suppression_limit": "0.5"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("algorithm", "options"), SLOW_RUNS, ids=[a for a, _ in SLOW_RUNS])
def test_every_algorithm_under_a_tiny_bound(both, algorithm: str, options: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    assert algorithm in ALGORITHMS
    _same_release(both, algorithm, **options)


@pytest.fixture(scope="module")
def with_hierarchies(both, tmp_path_factory) -> tuple[Database, Database]:  # type: ignore[no-untyped-def]
    files = census.write(tmp_path_factory.mktemp("census_h"), n=ROWS)
    for db in both:
        ldiv_db.load(db, files["data"], "census_h", sep=";", replace=True)
        for col in QI:
            taxonomy.import_hierarchy(db, "census_h", col, files[col])
    return both  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.parametrize(("algorithm", "options"), HIERARCHY_RUNS, ids=[a for a, _ in HIERARCHY_RUNS])
def test_every_hierarchy_algorithm_under_a_tiny_bound(  # type: ignore[no-untyped-def]
    with_hierarchies, algorithm: str, options: dict[str, Any]
) -> None:
    assert {a for a, _ in SLOW_RUNS + HIERARCHY_RUNS} | {"tp+", "mondrian", "decomposition"} == set(
        ALGORITHMS
    )
    _same_release(with_hierarchies, algorithm, table="census_h", **options)
