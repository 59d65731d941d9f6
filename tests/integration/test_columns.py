"""``Database.columns`` and ``Database.insert_columns``: a result as numpy arrays (a NULL masked) and rows
given as arrays appended to a table, on DuckDB without a pandas frame; the rows the same as through
``df`` / ``insert_frame``, NULLs, texts, integers and floats included."""

from __future__ import annotations

import numpy as np

import ldiv_db
from ldiv_db.sqlgen.render import Query, TableRef

ROWS = "SELECT * FROM (VALUES (1, 'a', 1.5, 7::BIGINT), (NULL, NULL, NULL, NULL), (3, 'c', -0.25, 9)) t(i, s, f, b)"


def _query(sql: str) -> Query:
    return Query("test/rows", sql, {})


def test_columns_mask_nulls_and_insert_back_as_the_frame_does() -> None:
    with ldiv_db.Database.open(":memory:") as db:
        cols = db.columns(_query(ROWS))
        assert list(cols) == ["i", "s", "f", "b"]
        assert [np.ma.getmaskarray(c).tolist() for c in cols.values()] == [[False, True, False]] * 4
        assert np.asarray(cols["i"])[[0, 2]].tolist() == [1, 3]
        made = []
        for name, rows in (("by_columns", cols), ("by_frame", None)):
            ref = TableRef(name)
            db.con.execute(f"CREATE TABLE {name} (i INTEGER, s VARCHAR, f DOUBLE, b BIGINT)")
            if rows is None:
                db.insert_frame(ref, db.df(_query(ROWS)))
            else:
                db.insert_columns(ref, rows)
            made.append(db.con.execute(f"SELECT * FROM {name} ORDER BY i NULLS LAST").fetchall())
        assert made[0] == made[1] == [(1, "a", 1.5, 7), (3, "c", -0.25, 9), (None, None, None, None)]


def test_base_columns_from_a_frame_mask_the_same_nulls() -> None:
    """The engines without a numpy conversion of their own (PostgreSQL, Spark) derive the arrays from
    their frame: the same values and the same mask."""
    with ldiv_db.Database.open(":memory:") as db:
        native = db.columns(_query(ROWS))
        derived = ldiv_db.Database.columns(db, _query(ROWS))
        for name, col in native.items():
            assert np.ma.getmaskarray(derived[name]).tolist() == np.ma.getmaskarray(col).tolist()
            keep = ~np.ma.getmaskarray(col)
            assert np.asarray(derived[name])[keep].tolist() == np.asarray(col)[keep].tolist()
