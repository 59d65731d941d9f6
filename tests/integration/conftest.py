from __future__ import annotations

import shutil
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


@pytest.fixture(scope="session")
def _hostile_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile-names database file, built once per test process; each test opens a copy of it."""
    from ldiv_db import taxonomy

    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "hostile.duckdb"
    db = Database.open(path)
    for stmt in create_sql():
        db.con.execute(stmt)
    for col, rows in HIERARCHIES.items():
        f = folder / f"h_{abs(hash(col))}.csv"
        f.write_text("\n".join(";".join(r) for r in rows) + "\n", encoding="utf-8")
        taxonomy.import_hierarchy(db, "select", col, f)
    db.close()
    return path


@pytest.fixture
def hostile_db(_hostile_file: Path, tmp_path: Path) -> Iterator[Database]:
    """A database file holding the hostile-names table and hierarchies for its categorical QIs: a fresh
    copy of one built once (building it takes ~4x as long as copying it)."""
    path = tmp_path / "hostile.duckdb"
    shutil.copyfile(_hostile_file, path)
    db = Database.open(path)
    yield db
    db.close()
