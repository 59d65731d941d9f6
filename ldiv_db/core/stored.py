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
    rows = db.rows(render("taxonomy/categories_for.sql", column_key(table, column)))
    own = [r for r in rows if r[2]]
    return {str(v): int(r) for v, r, _ in own or rows} if rows else None
