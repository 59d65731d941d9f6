"""DataFrames in and out of the API: ``ldiv_db.check(df, ...)`` and ``ldiv_db.anonymize(df, ...)`` take a
pandas or Polars DataFrame or an Arrow table in the database's place, copy it into a table of an
in-memory DuckDB (its row ids are the frame's row positions, so a release links its rows to the frame's
rows) and answer as for any table; ``ldiv_db.load(db, df, "name")`` puts a frame into a database of the
user's. Results come back with ``to_pandas()``, ``to_polars()`` and ``to_arrow()``; a release's
``to_pandas()`` is the published table."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..core.catalog import output_ref, resolve_table
from ..core.sources import for_anonymize, for_check
from ..db import Database
from ..errors import BadInput
from ..pipeline.result import AnonymizeResult
from ..sqlgen.render import render
from ..util.frame_convert import is_frame
from ..util.lazy import library
from ..verify.check import CheckResult
from ..verify.check import check as check_table
from .anonymize import AnonymizeCall
from .anonymize import anonymize as anonymize_table

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

FRAME_TABLE = "frame"  # the frame's table in the in-memory database, unless named
DEFAULT_OUTPUT = "release"


@contextlib.contextmanager
def frame_database(frame: Any, name: str | None) -> Iterator[tuple[Database, str]]:
    """An in-memory DuckDB holding ``frame`` as the table ``name`` (default ``frame``), closed after."""
    if name is not None and not isinstance(name, str):
        raise BadInput(f"the frame's table name must be text, not {type(name).__name__}", "e.g. 'patients'")
    name = name or FRAME_TABLE
    database = Database.open(":memory:", mode="write")
    try:
        if type(frame).__name__ == "LazyFrame":
            frame = frame.collect()
        with database.transaction():
            database.load_frame(frame, output_ref(name))
        yield database, name
    finally:
        database.close()


def _refuse_frame_table(db: Any, table: Any) -> None:
    if is_frame(table):
        raise BadInput(
            "a DataFrame is given as the table of a database",
            "load it first: ldiv_db.load(db, df, 'name'), then name the table; or give the frame alone "
            "(ldiv_db.check(df, qi=..., sa=...)) to work in an in-memory DuckDB",
        )
    if table is None:
        raise BadInput(
            "no table given", "name the table to read: ldiv_db.check(db, 'patients', qi=..., sa=...)"
        )


def _require_sa(sa: Any) -> str | Sequence[str]:
    if sa is None:
        raise BadInput("no sensitive attribute given", "pass sa='diagnosis' (or a list of columns)")
    return sa  # type: ignore[no-any-return]


def check(
    db: Any,
    table: Any = None,
    qi: str | Sequence[str] | None = None,
    sa: str | Sequence[str] | None = None,
    *,
    from_: str | None = None,
    **options: Any,
) -> CheckResult:
    """:func:`ldiv_db.verify.check.check`, where ``db`` may also be a DataFrame (then ``table`` names its table,
    default ``frame``), or the rows may come from a DuckDB table function (``from_="read_parquet('x/*')"``,
    in place of ``table``). ``result.violations()`` lists the violating classes (``worst=None``: all)."""
    sa = _require_sa(sa)
    if is_frame(db):
        with frame_database(db, table) as (database, name):
            return check_table(database, name, qi, sa, **options)
    if from_ is not None:
        if table is not None:
            raise BadInput("both a table and --from are given", "name the rows once: --table T or --from ...")
        database = Database.open(db, mode="read")
        try:
            return check_table(database, for_check(database, from_), qi, sa, **options)
        finally:
            if database is not db:
                database.close()
    _refuse_frame_table(db, table)
    return check_table(db, table, qi, sa, **options)


def anonymize(
    db: Any,
    table: Any = None,
    qi: str | Sequence[str] | None = None,
    sa: str | Sequence[str] | None = None,
    *,
    algorithm: str,
    output: str | None = None,
    from_: str | None = None,
    **options: Any,
) -> AnonymizeResult:
    """:func:`ldiv_db.commands.anonymize.anonymize`, where ``db`` may also be a DataFrame (an in-memory DuckDB;
    ``output`` defaults to ``release``). ``result.to_pandas()`` (``to_polars()``, ``to_arrow()``) is the
    published table: read before the in-memory database closes, else read from ``db`` when asked. With
    ``from_`` (a DuckDB table function), its rows are first kept in the new table ``table``, the source.
    ``options``: the model (``model``, ``l``, ``model_options``), the run flags
    (:class:`~ldiv_db.core.run_flags.AnonymizeFlags`) and the algorithm's options, validated here."""
    sa = _require_sa(sa)
    if qi is None:
        raise BadInput("no quasi-identifiers given", "pass qi=['age', 'sex', 'zip']")
    if not is_frame(db):
        _refuse_frame_table(db, table)
        if output is None:
            raise BadInput("no output table given", "pass output='patients_release' (the new table's name)")
    name = FRAME_TABLE if table is None else table  # only a frame's table may be unnamed
    call = AnonymizeCall.from_api(name, qi, sa, output or DEFAULT_OUTPUT, {"algorithm": algorithm, **options})
    return run_call(db, call, from_)


def run_call(db: Any, call: AnonymizeCall, from_: str | None = None) -> AnonymizeResult:
    """Run a validated call on ``db`` (a database or a DataFrame); ``from_``: read the rows with a DuckDB
    table function into the call's table first."""
    if is_frame(db):
        with frame_database(db, call.table) as (database, name):
            result = anonymize_table(database, dataclasses.replace(call, table=name))
            rows = read_table(database, result.output)
        result.release_rows = lambda: rows
        return result
    if from_ is not None:
        database = Database.open(db, mode="write")
        try:
            table = for_anonymize(database, from_, call.table)
            result = anonymize_table(database, dataclasses.replace(call, table=table))
        finally:
            if database is not db:
                database.close()
        result.release_rows = lambda: read_table(db, result.output)
        return result
    result = anonymize_table(db, call)
    result.release_rows = lambda: read_table(db, result.output)
    return result


def read_table(db: Any, table: str) -> pd.DataFrame:
    """Every row of ``table`` as a pandas frame, in storage order."""
    database = Database.open(db, mode="read")
    try:
        return database.df(render("catalog/all_rows.sql", source=resolve_table(database, table).ref))
    finally:
        if database is not db:
            database.close()
