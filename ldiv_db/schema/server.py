"""The open-time rule of :func:`ldiv_db.schema.state.prepare` for a database server (PostgreSQL).

* ``write``: the recorded migrations are checked against the shipped files (names and checksums, as
  for a file) and the pending ones are applied, each in its own transaction with its record; the
  schema ``main`` (where unqualified releases go, as on DuckDB) is created when missing (only then:
  creating it needs ``CREATE`` on the database, which a role needs only for the first write).
* ``read``: nothing persistent is written. When the database lacks the ``ldiv`` schema (or is at an
  older migration), the whole schema is created empty as session-temporary tables and the engine
  reads ``ldiv.x`` from there (:attr:`ldiv_db.db.postgres.engine.PostgresDatabase.ldiv_schema`).

* ``write`` also ends the ``running`` runs whose session is gone (a run's session holds an advisory
  lock on it: :mod:`ldiv_db.db.postgres.owners`), as ``failed`` (``done`` when their release was committed);
  runs of live sessions are left alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .migrate import BOOKKEEPING, applied_migrations, apply_migrations, shipped_migrations, verify_applied
from .runs import mark_stale_runs

if TYPE_CHECKING:
    from .database import SchemaDatabase


def prepare_server(db: SchemaDatabase, mode: str) -> None:
    applied = applied_migrations(db)
    if not applied and db.raw_rows("SELECT to_regclass('ldiv.schema_migration') IS NOT NULL")[0][0]:
        # the catalog hides a table the role holds no privilege on: read it, so that the refusal names
        # the missing privilege instead of a migration that would try to create what exists
        db.raw_rows("SELECT version FROM ldiv.schema_migration")
    verify_applied(db, applied)
    latest = len(shipped_migrations())
    if mode == "write":
        # PostgreSQL checks CREATE on the database before IF NOT EXISTS: a role with USAGE, CREATE on
        # an existing main (README's privileges after the first run) must not need more
        main = db.raw_rows(
            "SELECT count(*) FROM information_schema.schemata "
            "WHERE catalog_name = current_database() AND schema_name = 'main'"
        )
        if not main[0][0]:
            with db.transaction():
                db.execute_script("ldiv release schema", "CREATE SCHEMA IF NOT EXISTS main")
        apply_migrations(db)

        mark_stale_runs(db)
        return
    if len(applied) < latest:
        db.ldiv_schema = "pg_temp"
        for i, sql in enumerate([BOOKKEEPING, *(m.sql for m in shipped_migrations())]):
            db.execute_script(f"ldiv schema stand-in {i}", sql)
