"""``ldiv risk`` on Spark local gives DuckDB's figures on the paper fixture, against a population table
too, and writes the same per-row table (``--rows-out``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ldiv_db
from fixtures.papers import PAPER_TABLES
from ldiv_db import api
from ldiv_db.core.catalog import resolve_table
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query

pytestmark = pytest.mark.spark


def test_risk_matches_duckdb(tmp_path: Path, spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    table = PAPER_TABLES["bsgi_table1"]
    duck = str(tmp_path / "paper.duckdb")
    qi = list(table.qi)
    results, rows = {}, {}
    for target in (duck, spark_url):
        api.load(target, str(table.path), "risk_pop")
        api.load(target, str(table.path), "risk_sample")
        res = ldiv_db.risk(
            target, "risk_sample", qi=qi, population_table="risk_pop", rows_out="risk_rows_out"
        )
        results[target] = [(f.key, None if f.value is None else float(f.value)) for f in res.figures()]
        with Database.open(target, mode="read") as db:
            ref = resolve_table(db, "risk_rows_out").ref
            rows[target] = sorted(
                db.rows(Query("rows", "SELECT class_size, population_size, sample_unique FROM " + ref.sql()))
            )
    assert results[spark_url] == results[duck]
    assert rows[spark_url] == rows[duck] and len(rows[duck]) == table.rows
