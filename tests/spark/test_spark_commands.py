"""Commands end to end on Spark local against DuckDB, on the paper fixtures: load and check give the
same results; an algorithm the engine does not list is refused with the reason, and tp publishes DuckDB's
release."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures.papers import PAPER_TABLES
from ldiv_db import api
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

pytestmark = pytest.mark.spark

_TIMING = {"seconds", "queries", "table"}


def test_load_and_check_match_duckdb(tmp_path: Path, spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    table = PAPER_TABLES["bsgi_table1"]
    duck = str(tmp_path / "paper.duckdb")
    loaded = {
        "duckdb": api.load(duck, str(table.path), "bsgi_check").to_dict(),
        "spark": api.load(spark_url, str(table.path), "bsgi_check").to_dict(),
    }
    assert loaded["spark"]["rows"] == loaded["duckdb"]["rows"] == table.rows
    assert loaded["spark"]["columns"] == loaded["duckdb"]["columns"]  # same names and types, no ldiv_rowid
    checks = {
        db: {
            k: v
            for k, v in api.check(db, "bsgi_check", list(table.qi), list(table.sa)).to_dict().items()
            if k not in _TIMING
        }
        for db in (duck, spark_url)
    }
    assert checks[spark_url] == checks[duck]
    assert checks[duck]["rows"] == table.rows

    # an algorithm the Spark engine does not list is refused before anything is written (none today)
    with (
        Database.open(spark_url) as spark,
        pytest.raises(BadInput, match="does not run on the Spark engine") as info,
    ):
        spark.require("anonymize", "an-algorithm-not-on-spark")
    assert info.value.hint and "DuckDB" in info.value.hint

    # one release through the staged writer in the default run (every algorithm: test_spark_algorithms.py)
    released = {
        db: api.anonymize(
            db, "bsgi_check", list(table.qi), list(table.sa), algorithm="tp", output="t", l=2
        ).to_dict()
        for db in (duck, spark_url)
    }
    got, want = released[spark_url], released[duck]
    for key in ("verified", "rows_in", "rows_published", "rows_deleted", "cells_suppressed", "classes"):
        assert got[key] == want[key], key
    assert got["verified"] is True
    for key, value in want["metrics"].items():
        if isinstance(value, float):
            assert got["metrics"][key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
    assert spark_session.catalog.tableExists("main.t")


def test_a_table_without_row_ids_is_refused_before_anything_is_written(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    """A Spark table made without ``ldiv load`` has no ``ldiv_rowid``: anonymize names that and the fix
    instead of failing inside a statement; a row id column that repeats or is not an integer is refused
    too; ``check`` needs no row ids; a table given unique ids releases and is verified."""
    rows = (
        "VALUES (30,'a','flu'),(31,'b','hiv'),(32,'a','cold'),(33,'b','flu'),(34,'a','hiv'),(35,'b','cold')"
    )
    spark_session.sql("CREATE SCHEMA IF NOT EXISTS main")
    made = {
        "plain": f"SELECT * FROM {rows} AS t(age, zip, disease)",
        "twice": f"SELECT *, CAST(age % 3 AS BIGINT) AS ldiv_rowid FROM {rows} AS t(age, zip, disease)",
        "texts": f"SELECT *, CAST(age AS STRING) AS ldiv_rowid FROM {rows} AS t(age, zip, disease)",
        "given": f"SELECT *, monotonically_increasing_id() AS ldiv_rowid FROM {rows} AS t(age, zip, disease)",
    }
    for name, select in made.items():
        spark_session.sql(f"DROP TABLE IF EXISTS main.{name}")
        spark_session.sql(f"CREATE TABLE main.{name} USING parquet AS {select}")
    refused = {
        "plain": ("has no row id column ldiv_rowid", "monotonically_increasing_id() AS ldiv_rowid FROM"),
        "twice": ("whose values repeat or are NULL", "its own integer ldiv_rowid"),
        "texts": ("that is not an integer column", "its own integer ldiv_rowid"),
    }
    for name, (message, hint) in refused.items():
        for algorithm in ("tp", "bsgi"):
            with pytest.raises(BadInput, match=message) as info:
                api.anonymize(
                    spark_url, name, ["age", "zip"], ["disease"], algorithm=algorithm, output=f"r_{name}", l=2
                )
            assert info.value.hint and hint in info.value.hint
            assert not spark_session.catalog.tableExists(f"main.r_{name}")
    assert api.check(spark_url, "plain", ["age", "zip"], ["disease"]).rows == 6
    done = api.anonymize(
        spark_url, "given", ["age", "zip"], ["disease"], algorithm="tp", output="r_given", l=2
    )
    assert done.verified
    assert spark_session.table("main.r_given").count() + done.rows_deleted == done.rows_in == 6


def test_a_collated_string_column_is_refused_with_its_binary_copy(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    """A QI or SA of Spark's ``STRING COLLATE UTF8_LCASE`` ('flu' = 'FLU', but not once cast: Spark drops
    the collation in a cast) ended tp, tp+ and mondrian in 'the release does not reconcile with its source'
    (18,488 assignments for 400 rows). It is refused, naming the column and type; the copy the hint
    spells (the column cast to its binary form) releases and is verified."""
    rows = (
        "VALUES (30,'a','flu'),(31,'b','FLU'),(32,'a','cold'),(33,'b','Flu'),(34,'a','hiv'),(35,'b','cold'),"
        "(36,'a','HIV'),(37,'b','cold')"
    )
    spark_session.sql("CREATE SCHEMA IF NOT EXISTS main")
    spark_session.sql("DROP TABLE IF EXISTS main.lcase")
    spark_session.sql(
        "CREATE TABLE main.lcase (age INT, zip STRING, disease STRING COLLATE UTF8_LCASE, ldiv_rowid BIGINT) "
        "USING parquet"
    )
    spark_session.sql(
        f"INSERT INTO main.lcase SELECT *, monotonically_increasing_id() FROM {rows} AS t(age, zip, disease)"
    )
    for algorithm in ("tp", "mondrian"):
        with pytest.raises(BadInput, match="'disease' is of type STRING COLLATE UTF8_LCASE") as info:
            api.anonymize(
                spark_url, "lcase", ["age", "zip"], ["disease"], algorithm=algorithm, output="r_lc", l=2
            )
        assert not spark_session.catalog.tableExists("main.r_lc")
    assert info.value.hint
    copy = info.value.hint.split(": ", 1)[1].replace("CREATE TABLE t2", "CREATE TABLE main.lcase_binary")
    spark_session.sql("DROP TABLE IF EXISTS main.lcase_binary")
    spark_session.sql(copy)
    done = api.anonymize(
        spark_url, "lcase_binary", ["age", "zip"], ["disease"], algorithm="tp", output="r_lc", l=2
    )
    assert done.verified
    assert spark_session.table("main.r_lc").count() + done.rows_deleted == done.rows_in == 8


def test_classes_and_no_group_column_match_duckdb(tmp_path: Path, spark_url) -> None:  # type: ignore[no-untyped-def]
    """One definition of class on Spark: check on a recorded release groups by its group column and
    labels, with DuckDB's classes, k and risk; a release without its group column is written without it
    and checked on its labels."""
    table = PAPER_TABLES["bsgi_table1"]
    duck = str(tmp_path / "classes.duckdb")
    qi, sa = list(table.qi), list(table.sa)
    found = {}
    for db in (duck, spark_url):
        api.load(db, str(table.path), "bsgi_classes")
        res = api.anonymize(db, "bsgi_classes", qi, sa, algorithm="mondrian", output="cls", l=2).to_dict()
        chk = api.check(db, "cls", qi, sa).to_dict()
        assert chk["keys"] == ["group_id", *qi] and (chk["classes"], chk["k"]) == (res["classes"], res["k"])
        assert chk["risk"] == pytest.approx(res["risk"], rel=1e-12)
        bare = api.anonymize(
            db, "bsgi_classes", qi, sa, algorithm="tp", output="cls_bare", l=2, no_group_column=True
        ).to_dict()
        bare_chk = api.check(db, "cls_bare", qi, sa).to_dict()
        assert bare["details"]["group_column"] is None and bare_chk["keys"] == qi
        assert (bare_chk["classes"], bare_chk["k"]) == (bare["classes"], bare["k"])
        found[db] = ((chk["classes"], chk["k"], bare_chk["classes"]), chk["risk"], bare_chk["risk"])
    assert found[spark_url][0] == found[duck][0]
    for i in (1, 2):
        assert found[spark_url][i] == pytest.approx(found[duck][i], rel=1e-12)
