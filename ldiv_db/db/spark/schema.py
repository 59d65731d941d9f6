"""The ``ldiv`` schema on Spark: the shipped migrations, translated, with the Spark variants in
``migrations/spark/`` (checksums are always those of the shipped files); and Spark's column types as
the catalog lookups spell them."""

from __future__ import annotations

import hashlib
from typing import Protocol

import sqlglot
from sqlglot import exp

from ...schema.database import SchemaDatabase
from ...schema.migrate import BOOKKEEPING, Migration, shipped_migrations, verify_applied
from ...sqlgen.render import TableRef, render
from ...util.resources import migrations_dir


class SparkSchemaDatabase(SchemaDatabase, Protocol):
    """What the open-time rule on Spark needs of the Spark engine beyond :class:`SchemaDatabase`."""

    def use_stand_in_schema(self) -> None: ...

    def table_property(self, ref: TableRef, key: str) -> str | None: ...

    def set_table_property(self, ref: TableRef, key: str, value: str) -> None: ...


_CREATES = ("TABLE", "SCHEMA", "SEQUENCE")  # what a re-runnable migration may create
_RECORD = TableRef("schema_migration", "ldiv")
# ldiv.schema_migration's table property: the digest of its rows as ldiv_db last recorded them
MARK = "ldiv.migrations"


def digest(applied: dict[int, tuple[str, str]]) -> str:
    """The digest of recorded migrations (version, name, checksum), in version order."""
    text = "\n".join(f"{v}:{n}:{c}" for v, (n, c) in sorted(applied.items()))
    return hashlib.sha256(text.encode()).hexdigest()


def spark_variant(name: str) -> str | None:
    """The Spark text of migration ``NNNN_name`` when ``migrations/spark/`` holds one."""
    path = migrations_dir() / "spark" / f"{name}.sql"
    return path.read_text(encoding="utf-8") if path.exists() else None


def rerunnable(text: str) -> str | None:
    """``text`` (a migration, DuckDB's dialect) with every ``CREATE`` made ``IF NOT EXISTS``, so that running
    it again after an interruption changes nothing; None when it holds any other kind of statement."""
    out = []
    for stmt in sqlglot.parse(text, read="duckdb"):
        if stmt is None:
            continue
        if not isinstance(stmt, exp.Create) or str(stmt.args.get("kind", "")).upper() not in _CREATES:
            return None
        stmt.set("exists", True)
        out.append(stmt.sql(dialect="duckdb"))
    return ";\n".join(out)


def prepare_spark(db: SparkSchemaDatabase, mode: str) -> None:
    """The open-time rule on Spark: verify the recorded migrations (names, checksums of the shipped
    files); a write applies the pending ones. When the table's mark (:data:`MARK`, written after the
    records) is the digest of every shipped migration, that is the whole check: one catalog read instead
    of a Spark job on the table. Any other mark, or none, reads the records themselves. Spark has no
    transaction, so a migration is recorded only after it ran, and one interrupted half-way runs again
    at the next open: the pending migrations that only create (:func:`rerunnable`) run as re-runnable and
    are recorded together in one statement after the last of them; any other is recorded on its own
    right after it ran (the ones before it first)."""
    shipped = {m.version: (m.name, m.checksum) for m in shipped_migrations()}
    has = db.exists(_RECORD)
    if has and db.table_property(_RECORD, MARK) == digest(shipped):
        return
    applied = (
        {
            int(v): (n, c)
            for v, n, c in db.raw_rows("SELECT version, name, checksum FROM ldiv.schema_migration")
        }
        if has
        else {}
    )
    verify_applied(db, applied)
    pending = [m for m in shipped_migrations() if m.version not in applied]
    if pending and mode != "write":
        db.use_stand_in_schema()
        for mig in [None, *shipped_migrations()]:
            text = BOOKKEEPING if mig is None else spark_variant(f"{mig.version:04d}_{mig.name}") or mig.sql
            db.execute_script("ldiv schema stand-in", text)
        return
    if pending:
        _migrate(db, pending)
    if mode == "write":  # every shipped migration is recorded now: the mark says so from here on
        db.set_table_property(_RECORD, MARK, digest(shipped))


def _migrate(db: SparkSchemaDatabase, pending: list[Migration]) -> None:
    db.execute_script("ldiv bookkeeping", BOOKKEEPING)
    db.execute_script("ldiv release schema", "CREATE SCHEMA IF NOT EXISTS main")
    ran: list[Migration] = []
    for mig in pending:
        text = spark_variant(f"{mig.version:04d}_{mig.name}") or mig.sql
        again = rerunnable(text)
        if again is None:  # recorded on its own: the ones before it first
            _record(db, ran)
            ran = []
        db.execute_script(f"migration {mig.version:04d}_{mig.name}", again or text)
        ran.append(mig)
        if again is None:
            _record(db, ran)
            ran = []
    _record(db, ran)


def _record(db: SchemaDatabase, ran: list[Migration]) -> None:
    """One row of ``ldiv.schema_migration`` per migration in ``ran``, in one statement (one table write)."""
    if not ran:
        return
    values = {
        "versions": [m.version for m in ran],
        "names": [m.name for m in ran],
        "checksums": [m.checksum for m in ran],
    }
    db.run(render("meta/migrations_record.sql", values, count=len(ran)))


# the catalog lookups' column types (catalog/columns.sql on Spark)
TYPES = {
    "tinyint": "TINYINT",
    "smallint": "SMALLINT",
    "int": "INTEGER",
    "bigint": "BIGINT",
    "float": "FLOAT",
    "double": "DOUBLE",
    "string": "VARCHAR",
    "boolean": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMP WITH TIME ZONE",
    "timestamp_ntz": "TIMESTAMP",
}


def type_name(spark_type: str) -> str:
    """Spark's type name in the catalog's (DuckDB's) spelling, which the rest of ldiv_db reads."""
    if spark_type.startswith("decimal"):
        return spark_type.upper()
    return TYPES.get(spark_type, spark_type.upper())
