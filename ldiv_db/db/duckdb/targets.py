"""What ``DB`` may be when :meth:`Database.open` is handed an object rather than a path: a duckdb
connection as it is, a wrapper another tool hands its users around one (dbt-duckdb gives a Python
model a cursor wrapper) unwrapped, and anything else refused by name. Never ``str(obj)`` as a file name:
an unknown object's text would create a database file named after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from ...errors import BadInput

# the attributes under which tools keep the duckdb connection they wrap (dbt-duckdb: ``_cursor``; its
# environments hand out wrappers of wrappers, so unwrapping goes a few levels deep)
_WRAPPED = ("_cursor", "_conn", "cursor_")
_DEPTH = 4


def connection_of(target: Any) -> duckdb.DuckDBPyConnection | None:
    """The duckdb connection ``target`` is or wraps, else None."""
    for _ in range(_DEPTH):
        if isinstance(target, duckdb.DuckDBPyConnection):
            return target
        inner = next((vars(target)[a] for a in _WRAPPED if a in getattr(target, "__dict__", {})), None)
        if inner is None:
            return None
        target = inner
    return None


def database_target(target: Any) -> str | duckdb.DuckDBPyConnection:
    """``target`` as :meth:`Database.open` opens it: a path (str or Path) as text, a connection (or a
    tool's wrapper of one) as the connection; anything else is refused with what it was."""
    if isinstance(target, str):
        return target
    if isinstance(target, Path):
        return str(target)
    con = connection_of(target)
    if con is not None:
        return con
    kind = f"{type(target).__module__}.{type(target).__qualname__}"
    raise BadInput(
        f"cannot use a {kind} as a database",
        "give a database file path, a postgresql:// or spark:// URL, a duckdb connection, an "
        "ldiv_db.Database, dbt-duckdb's session, or a pandas/Polars/Arrow table (check, anonymize)",
    )
