"""DataFrames in: a pandas, Polars or Arrow table copied into a DuckDB table (the only engine that reads
one in place). A view of a frame has no row ids, which ``anonymize`` needs to link published rows to
source rows (``ldiv.release_row``); the copy has them, in the frame's row order."""

from __future__ import annotations

import itertools
from typing import Any

from ..errors import BadInput
from ..sqlgen.render import TableRef, render
from .duckdb.engine import Database

_NAMES = itertools.count()


def copy_frame(db: Database, frame: Any, target: TableRef) -> None:
    """Create ``target`` from ``frame`` (in the caller's transaction, if one is open)."""
    if db.dialect != "duckdb":
        raise BadInput(
            f"a DataFrame cannot be loaded into a {db.dialect} database here",
            "write it to a file (e.g. Parquet) and `ldiv load` it, or anonymize the frame in DuckDB",
        )
    view = f"ldiv_frame_{next(_NAMES)}"
    try:
        db.con.register(view, frame)
    except Exception as exc:  # duckdb names the type it cannot scan; an error, not a traceback
        raise BadInput(
            f"cannot read a {type(frame).__module__}.{type(frame).__qualname__} as a table: {exc}",
            "give a pandas DataFrame, a Polars DataFrame or a pyarrow Table",
        ) from None
    try:
        db.run(render("catalog/load_frame.sql", frame=TableRef(view), target=target))
    finally:
        db.con.unregister(view)
