"""What resolving the inputs reads of ldiv_db's own store about a source's columns: the (table, column) key
of the stored hierarchies and categories, and the sensitivity categories stored for an SA column (written
by :mod:`ldiv_db.taxonomy.categories`)."""

from __future__ import annotations

from ..db import Database
from ..sqlgen.render import render
from .catalog import Column, Table


def column_key(table: Table, column: Column) -> dict[str, str]:
    """The (table, column) key of the stored hierarchies and categories."""
    return {"table_name": table.name, "column_name": column.name}


def stored_categories(db: Database, table: Table, column: Column) -> dict[str, int] | None:
    """The categories stored for (table, column); for a recorded release without its own, those of the
    release's source table (the release keeps the SA column's name). None when there are none."""
    key = column_key(table, column)
    rows = db.rows(render("taxonomy/categories_of.sql", key))
    if not rows:
        src = db.rows(render("taxonomy/release_source.sql", {"name": table.name}))
        if src:
            key = {"table_name": str(src[0][0]), "column_name": column.name}
            rows = db.rows(render("taxonomy/categories_of.sql", key))
    return {str(v): int(r) for v, r in rows} if rows else None
