"""Adding an engine means adding one folder: tests/integration/fake_engine/ (its dialect and its class,
registered through ldiv_db.db.register_engine, nothing else changed) anonymizes and checks the
hostile-names table end to end, with the same results as DuckDB."""

from __future__ import annotations

import ldiv_db
import tests.integration.fake_engine as fake
from fixtures.hostile import HOSTILE_SA, create_sql
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query
from tests.integration.fake_engine.dialect import WRITTEN

QI = ["it's", "Zip Code"]


def _release(db: Database) -> tuple[bool, int, int, int, list[tuple[object, ...]], bool]:
    for stmt in create_sql():
        db.execute_script("hostile table", stmt)
    result = ldiv_db.anonymize(
        db, "select", QI, HOSTILE_SA, algorithm="mondrian", model="distinct", l=2, output="rel"
    )
    rows = db.rows(Query("release", 'SELECT "ünï", count(*) FROM main.rel GROUP BY ALL ORDER BY ALL'))
    check = ldiv_db.check(db, "rel", QI, HOSTILE_SA, model="distinct", l=2)
    out = (result.verified, result.rows_in, result.rows_published, result.classes)
    return (*out, rows, bool(check.satisfied))


def test_a_registered_engine_folder_runs_a_release_as_duckdb_does() -> None:
    written = WRITTEN["count"]
    with Database.open(f"{fake.SCHEME}test") as db:
        assert type(db).__name__ == "FakeDatabase" and db.dialect == "fakeduck"
        got = _release(db)
    assert WRITTEN["count"] > written  # its statements went through its own dialect
    with Database.open(":memory:") as duck:
        want = _release(duck)
    assert got == want
    verified, rows_in, published, classes, rows, satisfied = got
    assert verified and satisfied and rows_in > 0 and classes > 0
    assert sum(int(str(n)) for _, n in rows) == published  # read back from the release table itself
