"""The ``ldiv`` schema on Spark: the shipped migrations, translated, with the Spark variants in
``migrations/spark/`` (checksums are always those of the shipped files); and Spark's column types as
the catalog lookups spell them."""

from __future__ import annotations

from typing import Protocol

from ...schema.database import SchemaDatabase
from ...schema.migrate import BOOKKEEPING, shipped_migrations, verify_applied
from ...sqlgen.render import TableRef
from ...util.resources import migrations_dir


class SparkSchemaDatabase(SchemaDatabase, Protocol):
    """What the open-time rule on Spark needs of the Spark engine beyond :class:`SchemaDatabase`."""

    def use_stand_in_schema(self) -> None: ...


def spark_variant(name: str) -> str | None:
    """The Spark text of migration ``NNNN_name`` when ``migrations/spark/`` holds one."""
    path = migrations_dir() / "spark" / f"{name}.sql"
    return path.read_text(encoding="utf-8") if path.exists() else None


def prepare_spark(db: SparkSchemaDatabase, mode: str) -> None:
    """The open-time rule on Spark: verify the recorded migrations (names, checksums of the shipped
    files); a write applies the pending ones (each recorded after it ran: Spark has no transaction, so
    a migration interrupted half-way is re-run, and every statement of a Spark variant is idempotent)."""
    has = db.exists(TableRef("schema_migration", "ldiv"))
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
    if not pending:
        return
    if mode != "write":
        db.use_stand_in_schema()
        for mig in [None, *shipped_migrations()]:
            text = BOOKKEEPING if mig is None else spark_variant(f"{mig.version:04d}_{mig.name}") or mig.sql
            db.execute_script("ldiv schema stand-in", text)
        return
    db.execute_script("ldiv bookkeeping", BOOKKEEPING)
    db.execute_script("ldiv release schema", "CREATE SCHEMA IF NOT EXISTS main")
    for mig in pending:
        text = spark_variant(f"{mig.version:04d}_{mig.name}") or mig.sql
        db.execute_script(f"migration {mig.version:04d}_{mig.name}", text)
        db.raw_rows(
            "INSERT INTO ldiv.schema_migration (version, name, checksum, applied_at) "
            "VALUES (?, ?, ?, current_timestamp)",
            [mig.version, mig.name, mig.checksum],
        )


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
