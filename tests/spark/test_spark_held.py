"""Work tables held as checkpointed views in a small run on a local master (``ldiv_db/db/spark/held.py``,
decision 0032 "Round 10"): none reaches the metastore, each reads as the table would, a write makes it a
catalog table first, and a release made with them is the release made without."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from fixtures.papers import paper_tables
from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.db.spark import engine
from ldiv_db.sqlgen.render import Query, TableRef, render
from tests.spark.conftest import statements_sent

pytestmark = pytest.mark.spark


def test_a_held_work_table_reads_as_written_and_a_write_makes_it_a_table(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    with Database.open(spark_url) as d:
        src, held = d.work_table("held_src"), d.work_table("held_t")
        d.run(Query("t", f"CREATE OR REPLACE TABLE {src.sql()} AS SELECT 1 AS a"))  # outside a run: a table
        assert spark_session.catalog.tableExists(f"`{src.schema}`.`held_src`")
        sent = statements_sent(spark_session, monkeypatch)
        with d.threads_for(10):
            d.run(Query("t", f"CREATE OR REPLACE TABLE {held.sql()} AS SELECT a, 'x' AS b FROM {src.sql()}"))
            assert not [q for q in sent if q.startswith("CREATE TABLE")]  # no catalog table made
            assert not spark_session.catalog.tableExists(f"`{held.schema}`.`held_t`")
            assert d.exists(held) and "held_t" in d.table_names(str(held.schema))
            where = {"catalog": None, "schema": held.schema, "name": held.name}
            cols = d.rows(render("catalog/columns.sql", where))
            assert [c[0] for c in cols] == ["a", "b"]
            # its rows are those computed: a later write to its input does not reach it
            d.run(Query("t", f"INSERT INTO {src.sql()} VALUES (2)"))
            assert d.scalar(Query("t", f"SELECT count(*) FROM {held.sql()}")) == 1
            # a write to it makes it a catalog table with its rows first
            d.run(Query("t", f"INSERT INTO {held.sql()} VALUES (3, 'y')"))
            assert spark_session.catalog.tableExists(f"`{held.schema}`.`held_t`")
            assert d.scalar(Query("t", f"SELECT sum(a) FROM {held.sql()}")) == 4
            again = d.work_table("held_again")
            d.run(Query("t", f"CREATE OR REPLACE TABLE {again.sql()} AS SELECT 5 AS a"))
            d.run(render("catalog/drop_work_table.sql", target=again))
            assert not d.exists(again)
            view = d.held.view("held_again")
            assert not [t for t in spark_session.catalog.listTables() if t.name == view]
        d.drop_work_tables()


def test_an_empty_held_table_filled_by_frame_inserts_reads_as_the_catalog_table(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    """``CREATE TABLE ws.t (a DOUBLE, b BIGINT)`` in a small run is held as an empty frame, and frame
    inserts extend it (each column cast to its type, a missing one NULL, checkpointed) without a catalog
    table or the work schema: the rows read as those of the same table made outside a run."""
    frames = [
        pd.DataFrame({"a": [1.5, 2.0], "b": np.array([7, 8], dtype=np.int64)}),
        pd.DataFrame({"b": np.array([9], dtype=np.int32)}),
    ]
    rows = {}
    for hold in (True, False):
        with Database.open(spark_url) as d:
            sent = statements_sent(spark_session, monkeypatch)
            t = d.work_table("filled")
            with d.threads_for(10 if hold else 10**9):
                d.run(Query("t", f"CREATE OR REPLACE TABLE {t.sql()} (a DOUBLE, b BIGINT)"))
                for frame in frames:
                    d.insert_frame(t, frame)
                rows[hold] = d.rows(Query("t", f"SELECT a, b FROM {t.sql()} ORDER BY b"))
                where = {"catalog": None, "schema": t.schema, "name": t.name}
                types = [c[1] for c in d.rows(render("catalog/columns.sql", where))]
                if hold:  # the rows fixed once, in the checkpoint: no plan of the batches to read again
                    plan = d.held.frames["filled"]._jdf.queryExecution().analyzed()
                    assert plan.getClass().getSimpleName() == "LogicalRDD"
            assert types == ["DOUBLE", "BIGINT"]
            assert ("filled" in d.held) is hold
            # held: no statement made the work schema or a table in it
            assert bool([q for q in sent if "ldiv_work_" in q and "CREATE" in q]) is not hold
    assert rows[True] == rows[False] == [(1.5, 7), (2.0, 8), (None, 9)]


def _groups(db: Database, table: str) -> Counter[str]:
    by: dict[Any, list[str]] = {}
    for r in db.records(Query("read", f"SELECT * FROM {TableRef(table, 'main').sql()}")):
        by.setdefault(r.pop("group_id"), []).append(json.dumps(r, sort_keys=True, default=str))
    return Counter(json.dumps(sorted(rows)) for rows in by.values())


@pytest.mark.slow
def test_a_release_made_with_held_work_tables_is_the_release_made_without(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    t = paper_tables()["tp_example4"]
    with Database.open(spark_url) as db:
        ldiv_db.load(db, t.path, "held_tp4", sep=";", replace=True)
        for col, path in t.hierarchies.items():
            taxonomy.import_hierarchy(db, "held_tp4", col, path)
        results, made = {}, {}
        for hold in (True, False):
            if not hold:  # every source is then too large to hold
                monkeypatch.setattr(engine, "SMALL_SOURCE_ROWS", 0)
            sent = statements_sent(spark_session, monkeypatch)
            out = f"held_out_{hold}".lower()
            r = ldiv_db.anonymize(
                db, "held_tp4", ["Age", "Gender", "Education"], "Disease", algorithm="mondrian", l=2,
                output=out, replace=True,
            )  # fmt: skip
            made[hold] = [
                q for q in sent if re.search(r"(CREATE TABLE|SCHEMA IF NOT EXISTS) `?ldiv_work_\w+", q)
            ]
            results[hold] = (r, _groups(db, out))
        db.drop_work_tables()
    (held, g_held), (plain, g_plain) = results[True], results[False]
    assert held.verified and plain.verified and g_held == g_plain
    numbers = ("rows_in", "rows_published", "rows_deleted", "rows_with_suppressed_cells", "classes")
    assert [getattr(held, k) for k in numbers] == [getattr(plain, k) for k in numbers]
    assert held.metrics == plain.metrics and held.verification == plain.verification
    assert len(made[True]) + 5 < len(made[False])  # the work tables went to the metastore only without
    assert made[True] == []  # held, Mondrian's work tables need no work schema: none is made or dropped
