"""Applies ``migrations/NNNN_*.sql`` to a database file on first use and records each with a checksum.

A database whose applied migrations differ from the shipped files (edited after the fact, or written
by a newer ldiv_db) is refused with a clear error instead of being silently used.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import MigrationError
from ..util.resources import migrations_dir

if TYPE_CHECKING:
    from .database import SchemaDatabase

_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_]+)\.sql$")

BOOKKEEPING = """
CREATE SCHEMA IF NOT EXISTS ldiv;
CREATE TABLE IF NOT EXISTS ldiv.schema_migration (
    version    INTEGER PRIMARY KEY,
    name       VARCHAR NOT NULL,
    checksum   VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def shipped_migrations(folder: Path | None = None) -> list[Migration]:
    out = []
    for path in sorted((folder or migrations_dir()).glob("*.sql")):
        m = _NAME.match(path.name)
        if not m:
            raise MigrationError(f"migration file {path.name} is not named NNNN_description.sql")
        out.append(Migration(int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    versions = [m.version for m in out]
    if versions != list(range(1, len(out) + 1)):
        raise MigrationError(f"migration versions must be 1..n without gaps, found {versions}")
    return out


def applied_migrations(db: SchemaDatabase) -> dict[int, tuple[str, str]]:
    rows = db.raw_rows(
        "SELECT count(*) FROM information_schema.tables "
        "WHERE table_schema = 'ldiv' AND table_name = 'schema_migration' AND table_catalog = current_database()"
    )
    if not rows[0][0]:
        return {}
    return {v: (n, c) for v, n, c in db.raw_rows("SELECT version, name, checksum FROM ldiv.schema_migration")}


def migration_problems(
    where: str, applied: dict[int, tuple[str, str]], folder: Path | None = None
) -> list[tuple[str, int, MigrationError]]:
    """The recorded migrations this ldiv_db cannot accept, as (kind, version, error): ``newer`` (one it
    does not ship) or ``changed`` (its checksum differs from the shipped file's)."""
    shipped = {m.version: m for m in shipped_migrations(folder)}
    out: list[tuple[str, int, MigrationError]] = []
    for version, (name, checksum) in sorted(applied.items()):
        mig = shipped.get(version)
        if mig is None:
            out.append(
                (
                    "newer",
                    version,
                    MigrationError(
                        f"{where} has migration {version:04d}_{name} which this ldiv_db does not ship",
                        "the file was written by a newer ldiv_db; upgrade ldiv_db to use it",
                    ),
                )
            )
        elif mig.checksum != checksum:
            out.append(
                (
                    "changed",
                    version,
                    MigrationError(
                        f"{where}: applied migration {version:04d}_{name} does not match the shipped file "
                        f"(checksum {checksum[:12]} in the database, {mig.checksum[:12]} shipped)",
                        "the ldiv schema was changed after it was applied; restore the database from a "
                        "backup or export your data to a new file (`ldiv doctor DB` lists what differs)",
                    ),
                )
            )
    return out


def verify_applied(
    db: SchemaDatabase, applied: dict[int, tuple[str, str]], folder: Path | None = None
) -> dict[int, Migration]:
    """Refuse a database with a migration this ldiv_db does not ship or one whose checksum differs."""
    problems = migration_problems(str(db.path or "this database"), applied, folder)
    if problems:
        raise problems[0][2]
    return {m.version: m for m in shipped_migrations(folder)}


def apply_migrations(db: SchemaDatabase, folder: Path | None = None) -> list[int]:
    """Verify applied migrations and apply pending ones; returns the versions applied now."""
    applied = applied_migrations(db)
    shipped = verify_applied(db, applied, folder)
    done = []
    for version in sorted(shipped):
        if version in applied:
            continue
        mig = shipped[version]
        with db.transaction():
            db.execute_script("ldiv bookkeeping", BOOKKEEPING)
            db.execute_script(f"migration {version:04d}_{mig.name}", mig.sql)
            db.raw_rows(
                "INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (?, ?, ?)",
                [version, mig.name, mig.checksum],
            )
        done.append(version)
    return done
