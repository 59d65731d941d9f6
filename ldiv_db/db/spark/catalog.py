"""Spark's answers to the catalog templates: ``information_schema`` on DuckDB and PostgreSQL, which Spark
lacks, read from Spark's catalog API in the templates' columns; and how Spark SQL spells a table."""

from __future__ import annotations

from typing import Any

from ...sqlgen.render import Ident, Query, TableRef, render
from .schema import type_name

ROWID = "ldiv_rowid"  # the row id column of a table loaded on Spark (``rowid`` in the templates)
# Spark's own catalog statements, names bound (IDENTIFIER takes a qualified, back-quoted name as a value)
_SHOW_TABLES = "SHOW TABLES IN IDENTIFIER(:schema)"
_SHOW_VIEWS = "SHOW VIEWS IN IDENTIFIER(:schema)"


def answer(db: Any, query: Query) -> list[tuple[Any, ...]] | None:
    """The rows of a catalog template on the Spark engine ``db``, or None for any other statement."""
    p, spark = query.params, db.spark
    if query.name == "catalog/tables.sql":
        current = spark.catalog.currentDatabase()
        # the catalog column is what current_database() says, so resolved names need no catalog
        rows = [
            (current, sch, name, kind, sch == current)
            for sch in sorted(str(d.name) for d in spark.catalog.listDatabases())
            if sch != "ldiv" and not sch.startswith("ldiv_work")
            for name, kind in tables_of(spark, sch, listed=True)
        ]
        return sorted(rows, key=lambda r: (not r[4], r[1], r[2]))
    if query.name == "ownership/schema_info.sql":
        # one lookup (listDatabases reads every schema's metadata); the catalog keeps names in
        # lower case, which is how it spells them back
        wanted = str(p["schema"]).lower()
        found = spark.catalog.databaseExists(wanted)
        return [(wanted if found else None, False, False)]
    if query.name == "catalog/table_info.sql":
        sch, name = str(p["schema"]), str(p["name"])
        return [(sch, n, k) for n, k in tables_of(spark, sch) if n.lower() == name.lower()]
    if query.name == "catalog/table_exists.sql":
        sch, name = str(p["schema"]), str(p["name"])
        return [(any(n.lower() == name.lower() for n, _ in tables_of(spark, sch)),)]
    if query.name == "catalog/columns.sql":
        ref = TableRef(str(p["name"]), str(p["schema"]))
        fields = spark.table(spark_ref(ref)).schema.fields
        cols = [f for f in fields if f.name != ROWID]
        return [(f.name, type_name(f.dataType.simpleString()), i + 1) for i, f in enumerate(cols)]
    if query.name == "catalog/row_ids.sql":
        return [(row_id_problem(db, TableRef(str(p["name"]), str(p["schema"]))),)]
    return None


def row_id_problem(db: Any, ref: TableRef) -> str | None:
    """What keeps a table's rows from having ids of their own: no ``ldiv_rowid`` column, one that is
    not an integer, or one whose values repeat or are NULL (one pass, only when the column is there)."""
    fields = {f.name: f for f in db.spark.table(spark_ref(ref)).schema.fields}
    if ROWID not in fields:
        return "missing"
    if fields[ROWID].dataType.simpleString() not in ("bigint", "int", "smallint", "tinyint"):
        return "not integer"
    row = db._fixed(render("catalog/repeated_values.sql", column=Ident(ROWID), source=ref))[0]
    db.queries += 1
    return "repeated" if int(row[0]) else None


def tables_of(spark: Any, schema: str, *, listed: bool = False) -> list[tuple[str, str]]:
    """The schema's tables and views: two listings (``catalog.listTables`` reads every table's
    metadata from the metastore, one call per table). ``listed``: the schema was just listed by the
    catalog, so it is not asked whether it exists (a metastore call per schema)."""
    if not listed and not spark.catalog.databaseExists(schema):
        return []
    where = {"schema": bq(schema)}
    views = {str(r[1]) for r in spark.sql(_SHOW_VIEWS, args=where).collect() if not r[2]}
    return [
        (str(r[1]), "VIEW" if str(r[1]) in views else "BASE TABLE")
        for r in spark.sql(_SHOW_TABLES, args=where).collect()
        if not r[2]
    ]


def bq(name: str) -> str:
    """A name back-quoted for Spark SQL."""
    return "`" + name.replace("`", "``") + "`"


def spark_ref(ref: TableRef) -> str:
    """``ref`` as Spark SQL and the DataFrame API name it (back-quoted parts)."""
    return ".".join(bq(p) for p in ref.parts)
