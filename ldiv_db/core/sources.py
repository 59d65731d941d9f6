"""Sources DuckDB reads itself: ``check --from "read_parquet('data/*.parquet')"`` and ``anonymize --from
... --table NAME``. The rows are materialized into a table (its row ids are the rows' positions in the
read: files in name order, rows in file order), since ``anonymize`` links a release to its source rows by
row id and a table function has none: for ``check`` a temporary work table, for ``anonymize`` the new table
NAME (the release's source, kept beside it)."""

from __future__ import annotations

from ..db import Database
from ..errors import BadInput, LdivError
from ..sqlgen.render import TableRef, render
from ..sqlgen.table_function import TableFunction
from . import ownership
from .catalog import output_ref


def materialize(db: Database, source: str, target: TableRef) -> None:
    """Create ``target`` from the table function call ``source`` (checked by :class:`TableFunction`)."""
    call = TableFunction.parse(source)
    if not db.reads_files:
        raise BadInput(
            f"--from reads with DuckDB's table functions; this is a {db.dialect} database",
            "load the files first (ldiv load DB 'data/*.parquet' --table T), then --table T",
        )
    try:
        db.run(render("catalog/load_function.sql", source=call, target=target))
    except BadInput:
        raise
    except LdivError as exc:
        raise BadInput(
            f"cannot read --from {source}: {exc.message.split(': ', 1)[-1]}",
            "check the paths (a glob must match a file) and the function's options",
        ) from None


def for_check(db: Database, source: str) -> str:
    """The rows of ``source`` in a work table (dropped when the check ends); its name, as check reads it."""
    ref = db.work_table("from")
    materialize(db, source, ref)
    return ref.display()


def for_anonymize(db: Database, source: str, table: str) -> str:
    """The rows of ``source`` in the new table ``table`` of ``db``, committed (the release's source)."""
    target = ownership.check_load_target(db, output_ref(table), replace=False)
    with db.transaction():
        materialize(db, source, target)
    return target.display()
