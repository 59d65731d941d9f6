from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fixtures.hostile import HIERARCHIES, create_sql
from ldiv_db.db import Database

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


@pytest.fixture
def db() -> Iterator[Database]:
    """An empty in-memory database with the ldiv schema."""
    database = Database.open(":memory:")
    yield database
    database.close()


@pytest.fixture
def hostile_db(tmp_path: Path) -> Iterator[Database]:
    """A database file holding the hostile-names table and hierarchies for its categorical QIs."""
    from ldiv_db import taxonomy

    db = Database.open(tmp_path / "hostile.duckdb")
    for stmt in create_sql():
        db.con.execute(stmt)
    for col, rows in HIERARCHIES.items():
        f = tmp_path / f"h_{abs(hash(col))}.csv"
        f.write_text("\n".join(";".join(r) for r in rows) + "\n", encoding="utf-8")
        taxonomy.import_hierarchy(db, "select", col, f)
    yield db
    db.close()
