"""Migrations: applied once on first use, recorded with checksums, edited migrations refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from ldiv_db.db import Database
from ldiv_db.errors import MigrationError
from ldiv_db.schema.migrate import apply_migrations, shipped_migrations


def test_first_use_applies_and_records(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    db = Database.open(path)
    rows = db.raw_rows("SELECT version, name, checksum FROM ldiv.schema_migration ORDER BY version")
    assert [r[0] for r in rows] == [m.version for m in shipped_migrations()]
    assert rows[0][2] == shipped_migrations()[0].checksum
    tables = {
        r[0]
        for r in db.raw_rows("SELECT table_name FROM information_schema.tables WHERE table_schema='ldiv'")
    }
    assert {"hierarchy", "hierarchy_node", "run", "run_step", "release", "release_row"} <= tables
    db.close()
    db = Database.open(path)  # second open: nothing to apply, checksums verified
    assert apply_migrations(db) == []
    db.close()


def test_changed_migration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    Database.open(path).close()
    db = Database.open(path, migrate=False)
    db.raw_rows("UPDATE ldiv.schema_migration SET checksum = 'tampered' WHERE version = 1")
    db.close()
    with pytest.raises(MigrationError, match="does not match the shipped file"):
        Database.open(path)


def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.duckdb"
    Database.open(path).close()
    db = Database.open(path, migrate=False)
    db.raw_rows("INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (999, 'future', 'x')")
    db.close()
    with pytest.raises(MigrationError, match="newer ldiv_db"):
        Database.open(path)


def test_migration_files_are_well_named(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="without gaps"):
        shipped_migrations(tmp_path)
