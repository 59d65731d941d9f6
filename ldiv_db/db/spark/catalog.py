"""Spark's answers to the catalog templates: ``information_schema`` on DuckDB and PostgreSQL, which Spark
lacks, read from Spark's catalog API in the templates' columns; and how Spark SQL spells a table."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ...sqlgen.render import Ident, Query, TableRef, render
from .schema import type_name

ROWID = "ldiv_rowid"  # the row id column of a table loaded on Spark (``rowid`` in the templates)
# Spark's own catalog statements, names bound (IDENTIFIER takes a qualified, back-quoted name as a value)
_SHOW_TABLES = "SHOW TABLES IN IDENTIFIER(:schema)"
_SHOW_VIEWS = "SHOW VIEWS IN IDENTIFIER(:schema)"
_SHOW_SCHEMAS = "SHOW SCHEMAS"
DROP_TABLE = "DROP TABLE IF EXISTS IDENTIFIER(:table)"
RENAME = "ALTER TABLE IDENTIFIER(:old) RENAME TO IDENTIFIER(:new)"
SHOW_PROPERTIES = "SHOW TBLPROPERTIES IDENTIFIER(:table)"
SET_PROPERTY = "ALTER TABLE IDENTIFIER(:table) SET TBLPROPERTIES (:key = :value)"


def answer(db: Any, query: Query) -> list[tuple[Any, ...]] | None:
    """The rows of a catalog template on the Spark engine ``db``, or None for any other statement.
    Schemas and their tables come from ``db.listings`` (:class:`Listings`: one listing per schema a
    command)."""
    p, spark, listings = query.params, db.spark, db.listings
    if query.name == "catalog/tables.sql":
        current = spark.catalog.currentDatabase()
        # the catalog column is what current_database() says, so resolved names need no catalog
        rows = [
            (current, sch, name, kind, sch == current)
            for sch in listings.schemas()
            if sch != "ldiv" and not sch.startswith("ldiv_work")
            for name, kind in listings.tables(sch)
        ]
        return sorted(rows, key=lambda r: (not r[4], r[1], r[2]))
    if query.name == "ownership/schema_info.sql":
        # the catalog keeps names in lower case, which is how it spells them back
        wanted = str(p["schema"]).lower()
        return [(wanted if listings.exists(wanted) else None, False, False)]
    if query.name == "catalog/table_info.sql":
        sch, name = str(p["schema"]), str(p["name"])
        return [(sch, n, k) for n, k in listings.table(sch, name)]
    if query.name == "catalog/table_exists.sql":
        sch, name = str(p["schema"]), str(p["name"])
        return [(bool(listings.table(sch, name)),)]
    if query.name == "catalog/columns.sql":
        ref = TableRef(str(p["name"]), str(p["schema"]))
        fields = spark.table(db.spark_ref(ref)).schema.fields
        cols = [f for f in fields if f.name != ROWID]
        return [(f.name, type_name(f.dataType.simpleString()), i + 1) for i, f in enumerate(cols)]
    if query.name == "catalog/row_ids.sql":
        return [(row_id_problem(db, TableRef(str(p["name"]), str(p["schema"]))),)]
    return None


def row_id_problem(db: Any, ref: TableRef) -> str | None:
    """What keeps a table's rows from having ids of their own: no ``ldiv_rowid`` column, one that is
    not an integer, or one whose values repeat or are NULL (one pass, only when the column is there)."""
    fields = {f.name: f for f in db.spark.table(db.spark_ref(ref)).schema.fields}
    if ROWID not in fields:
        return "missing"
    if fields[ROWID].dataType.simpleString() not in ("bigint", "int", "smallint", "tinyint"):
        return "not integer"
    row = db._fixed(render("catalog/repeated_values.sql", column=Ident(ROWID), source=ref))[0]
    db.queries += 1
    return "repeated" if int(row[0]) else None


class Listings:
    """What Spark's catalog listed, kept while nothing can have changed it: the schemas, whether a schema
    exists, and each schema's tables and views (two statements and a metastore call per schema; name
    resolution, the ownership checks and the publish ask the same schemas several times a command). Kept
    only within one command (:meth:`forget` at a command's start and end) and forgotten whole by any
    statement or catalog operation that may create, drop or rename a table or schema outside the
    connection's work schema, which is never kept (its work tables come and go with every statement)."""

    def __init__(self, spark: Any, work_schema: str) -> None:
        self.spark, self.work_schema = spark, work_schema.lower()
        self._schemas: list[str] | None = None
        self._exists: dict[str, bool] = {}
        self._tables: dict[str, list[tuple[str, str]]] = {}

    def forget(self) -> None:
        self._schemas = None
        self._exists.clear()
        self._tables.clear()

    def table(self, schema: str, name: str) -> list[tuple[str, str]]:
        """The table or view ``schema.name`` as (name, kind) (none when absent): from the schema's listing
        when this command keeps one, else by a lookup of that one table in the metastore (one or two
        calls, not kept: a listing is two statements and a call, for a command that often asks of one
        table only)."""
        key = schema.lower()
        if key in self._tables or name != name.lower():  # a listing spells a name as the catalog does
            return [(n, k) for n, k in self.tables(schema) if n.lower() == name.lower()]
        ref = spark_ref(TableRef(name, schema))
        if not self.spark.catalog.tableExists(ref):
            return []
        found = self.spark.catalog.getTable(ref)
        if found.isTemporary:  # a listing leaves temporary views out
            return []
        return [(str(found.name), "VIEW" if str(found.tableType).upper() == "VIEW" else "BASE TABLE")]

    def kept(self, schema: str) -> list[tuple[str, str]] | None:
        """The schema's tables as listed this command, or None when it is not listed."""
        found = self._tables.get(schema.lower())
        return None if found is None else list(found)

    def schemas(self) -> list[str]:
        """Every schema's name, sorted: ``SHOW SCHEMAS``, one metastore call for the names (the catalog
        API's ``listDatabases`` reads every schema's metadata besides)."""
        if self._schemas is None:
            self._schemas = sorted(str(r[0]) for r in self.spark.sql(_SHOW_SCHEMAS).collect())
        return list(self._schemas)

    def exists(self, schema: str) -> bool:
        key = schema.lower()
        if key == self.work_schema:
            return bool(self.spark.catalog.databaseExists(schema))
        if self._schemas is not None:
            return key in {s.lower() for s in self._schemas}
        if key not in self._exists:
            self._exists[key] = bool(self.spark.catalog.databaseExists(schema))
        return self._exists[key]

    def tables(self, schema: str) -> list[tuple[str, str]]:
        """The schema's tables and views, (name, 'BASE TABLE' or 'VIEW'); none when it does not exist."""
        key = schema.lower()
        if key == self.work_schema:
            return tables_of(self.spark, schema)
        if key not in self._tables:
            self._tables[key] = tables_of(self.spark, schema) if self.exists(schema) else []
        return list(self._tables[key])


def tables_of(spark: Any, schema: str) -> list[tuple[str, str]]:
    """The tables and views of an existing schema: two listings, one for a schema without any
    (``catalog.listTables`` reads every table's metadata from the metastore, one call per table)."""
    where = {"schema": bq(schema)}
    names = [str(r[1]) for r in spark.sql(_SHOW_TABLES, args=where).collect() if not r[2]]
    if not names:  # SHOW TABLES lists the views too: none to tell apart
        return []
    views = {str(r[1]) for r in spark.sql(_SHOW_VIEWS, args=where).collect() if not r[2]}
    return [(n, "VIEW" if n in views else "BASE TABLE") for n in names]


def catalog_name(name: str) -> str:
    """A work table's name as the catalog accepts it (letters, digits, _), distinct per original name."""
    safe = re.sub(r"[^A-Za-z0-9_]", "_", name).lower()
    if safe == name:
        return name
    return f"{safe}_{hashlib.sha1(name.encode()).hexdigest()[:8]}"


def bq(name: str) -> str:
    """A name back-quoted for Spark SQL."""
    return "`" + name.replace("`", "``") + "`"


def spark_ref(ref: TableRef) -> str:
    """``ref`` as Spark SQL and the DataFrame API name it (back-quoted parts)."""
    return ".".join(bq(p) for p in ref.parts)
