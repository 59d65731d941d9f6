"""Columns in and out without a pandas frame (decision 0033, "Round 9: TP+"): on DuckDB
``Database.columns`` hands numpy columns (masked where NULL) and ``insert_columns`` appends them as
DuckDB scans them; the same rows go in as through a frame (``insert_frame``, the other engines' path)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ldiv_db.db import Database
from ldiv_db.db.base import Database as BaseDatabase
from ldiv_db.sqlgen.render import TableRef, render

ROWS = "SELECT * FROM src ORDER BY k"


def _rows(db: Database, table: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in db.con.execute(f"SELECT * FROM {table} ORDER BY k").fetchall()]  # type: ignore[attr-defined]


def test_columns_with_nulls_go_back_in_as_through_a_frame(tmp_path: Path) -> None:
    with Database.open(tmp_path / "t.duckdb", mode="write") as db:
        con = db.con  # type: ignore[attr-defined]
        con.execute("CREATE TABLE src (k INTEGER, value VARCHAR, num DOUBLE, n BIGINT)")
        con.execute(
            "INSERT INTO src VALUES (1, 'a', NULL, 3), (2, NULL, 2.5, 4), (3, 'é', NULL, NULL), (4, '', 0.0, 0)"
        )
        for t in ("by_columns", "by_frame", "by_base"):
            con.execute(f"CREATE TABLE {t} AS SELECT * FROM src LIMIT 0")
        query = render("catalog/all_rows.sql", source=TableRef("src"))
        columns = db.columns(query)
        assert isinstance(columns["k"], np.ndarray) and isinstance(columns["value"], np.ma.MaskedArray)
        db.insert_columns(TableRef("by_columns"), columns)
        db.insert_frame(TableRef("by_frame"), db.df(query))
        BaseDatabase.insert_columns(db, TableRef("by_base"), columns)  # the frame the other engines get
        expected = _rows(db, "src")
        assert _rows(db, "by_columns") == expected
        assert _rows(db, "by_frame") == expected
        assert _rows(db, "by_base") == expected


def test_the_step_log_goes_in_as_numpy_columns(tmp_path: Path) -> None:
    with Database.open(tmp_path / "t.duckdb", mode="write") as db:
        db.rows(render("catalog/all_rows.sql", source=TableRef("release", "ldiv")))
        steps = [(s.template, s.sql_hash, s.rows) for s in db.steps]
        db.flush_steps(7)
        got = db.con.execute(  # type: ignore[attr-defined]
            "SELECT run_id, step_no, template, sql_hash, rows, ms FROM ldiv.run_step ORDER BY step_no"
        ).fetchall()
    assert [(r[2], r[3], r[4]) for r in got] == steps
    assert [(r[0], r[1]) for r in got] == [(7, i) for i in range(1, len(steps) + 1)]
    assert all(r[5] >= 0 for r in got) and not db.steps
