"""A temporary table or view of a DuckDB connection hides a table of the file that has its schema and
name: a statement naming ``main.t`` reads, replaces or drops the temporary one. ldiv_db refuses such a
name, for its sources (ldiv_db/core/catalog.py: resolve_table) and for what it writes
(ldiv_db/core/ownership.py: existing), and leaves the user's temporary object as it was."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

QI = ["a", "b"]


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "shadow.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE people AS SELECT 20 + i % 12 AS a, ['x', 'y', 'z'][1 + i % 3] AS b, 'v' || (i // 12) AS s "
        "FROM range(48) t(i)"
    )
    con.close()
    return path


def test_a_source_hidden_by_a_temporary_table_is_refused(tmp_path: Path) -> None:
    con = duckdb.connect(str(_file(tmp_path)))
    db = Database.open(con)
    assert ldiv_db.check(db, "people", QI, "s", model="distinct", l=2).satisfied  # nothing hides it yet
    con.execute("CREATE TEMP TABLE people AS SELECT 1 AS a, 'x' AS b, 'v0' AS s")  # one row, one value
    with pytest.raises(BadInput) as e:
        ldiv_db.check(db, "people", QI, "s", model="distinct", l=2)
    assert "hidden by a temporary table or view" in str(e.value), e.value
    assert "drop or rename the temporary table" in str(e.value.hint)
    # named as the temporary one, it is that one that is read: one row, one SA value
    assert not ldiv_db.check(db, "temp.main.people", QI, "s", model="distinct", l=2).satisfied
    con.execute("DROP TABLE temp.main.people")
    assert ldiv_db.check(db, "people", QI, "s", model="distinct", l=2).satisfied
    db.close()


def test_a_temporary_view_hides_a_source_too(tmp_path: Path) -> None:
    con = duckdb.connect(str(_file(tmp_path)))
    db = Database.open(con)
    con.execute("CREATE TEMP VIEW people AS SELECT 1 AS a, 'x' AS b, 'v0' AS s")
    with pytest.raises(BadInput, match="hidden by a temporary"):
        ldiv_db.anonymize(db, "people", QI, "s", algorithm="mondrian", l=2, output="people_anon")
    db.close()


def test_an_output_hidden_by_a_temporary_table_is_refused_and_kept(tmp_path: Path) -> None:
    con = duckdb.connect(str(_file(tmp_path)))
    db = Database.open(con)
    con.execute("CREATE TEMP TABLE people_anon AS SELECT 'mine' AS note")
    for replace in (False, True):
        with pytest.raises(BadInput, match="hidden by a temporary"):
            ldiv_db.anonymize(
                db, "people", QI, "s", algorithm="mondrian", l=2, output="people_anon", replace=replace
            )
    assert con.execute("SELECT * FROM temp.main.people_anon").fetchall() == [("mine",)]
    listed = con.execute("SELECT database_name, table_name FROM duckdb_tables() ORDER BY 1, 2").fetchall()
    assert ("shadow", "people_anon") not in listed  # nothing was written under the hidden name
    con.execute("DROP TABLE temp.main.people_anon")
    r = ldiv_db.anonymize(db, "people", QI, "s", algorithm="mondrian", l=2, output="people_anon")
    assert r.verified
    db.close()
