"""What the Spark engine's statements return: :class:`Result`, a DataFrame (or fixed rows) read like a
cursor through the bounded fetch (:func:`ldiv_db.db.spark.jobs.fetch`); frames made ready for Arrow, and
appended to a table."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from .catalog import bq
from .jobs import fetch


def arrow_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame for ``createDataFrame`` through Arrow: integer and boolean numpy columns as they are (no
    NULL there); the others as Python values, None for NULL (exact ints beside NULLs, categories as labels).
    As objects, a 10M-row assignment of four columns (two of them integers) took 1.1 GB more on the driver."""
    other = [str(c) for c, t in frame.dtypes.items() if not (isinstance(t, np.dtype) and t.kind in "biu")]
    if not other:
        return frame
    out = frame.astype(dict.fromkeys(other, object))
    out[other] = out[other].where(out[other].notna(), None)
    return out


class Result:
    """What :meth:`SparkDatabase._send` returns: a DataFrame (or fixed rows) read like a cursor, through
    the bounded fetch (:func:`ldiv_db.db.spark.jobs.fetch`)."""

    def __init__(
        self, frame: Any = None, rows: list[tuple[Any, ...]] | None = None, db: Any = None, name: str = ""
    ) -> None:
        self.frame = frame
        self.fixed = rows
        self.db, self.name = db, name
        self.description = [(c,) for c in frame.columns] if frame is not None else [("id",)] if rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        if self.fixed is not None:
            return self.fixed
        if self.frame is None:
            return []
        pieces = fetch(self.db, self.frame, self.name, bulk=self.db.bulk_fetch, convert=_rows, size=len)
        return [r for piece in pieces for r in piece]

    def df(self) -> pd.DataFrame:
        if self.frame is None:
            return pd.DataFrame(self.fixed or [])
        pieces = fetch(self.db, self.frame, self.name, bulk=self.db.bulk_fetch, convert=_pandas, size=len)
        return pieces[0] if len(pieces) == 1 else pd.concat(pieces, ignore_index=True)


def _rows(frame: Any) -> list[tuple[Any, ...]]:
    to_arrow = getattr(frame, "toArrow", None)
    if to_arrow is None:
        return [tuple(r) for r in frame.collect()]
    table = to_arrow()  # exact Python values (ints stay ints beside NULLs), through Arrow
    cols = [table.column(i).to_pylist() for i in range(table.num_columns)]
    return list(zip(*cols, strict=True)) if cols else []


def _pandas(frame: Any) -> pd.DataFrame:
    pdf: pd.DataFrame = frame.toPandas()
    return pdf


def insert_batch(spark: Any, table: str, frame: pd.DataFrame) -> None:
    """Append ``frame`` to the Spark table ``table`` (as Spark SQL names it): one DataFrame through Arrow
    under a temporary view, and one ``INSERT ... SELECT`` casting each column to the table's type."""
    types = {f.name.lower(): f.dataType for f in spark.table(table).schema.fields}
    names = ", ".join(bq(str(c)) for c in frame.columns)
    with frame_view(spark, frame, types) as select:
        spark.sql(f"INSERT INTO {table} ({names}) {select}")


@contextlib.contextmanager
def frame_view(spark: Any, frame: pd.DataFrame, types: dict[str, Any]) -> Iterator[str]:
    """``frame`` as a DataFrame through Arrow under a temporary view while the block runs, and the
    ``SELECT`` of its columns from it, each cast to its type in ``types`` (by lower-case name) where
    that names it: what an ``INSERT`` of the frame into a table of those types stores."""
    data = spark.createDataFrame(arrow_ready(frame))
    view = f"ldiv_frame_{uuid.uuid4().hex[:12]}"
    cols = [str(c) for c in frame.columns]
    data.createOrReplaceTempView(view)
    try:
        select = ", ".join(
            f"CAST({bq(c)} AS {types[c.lower()].simpleString()}) AS {bq(c)}" if c.lower() in types else bq(c)
            for c in cols
        )
        yield f"SELECT {select} FROM {bq(view)}"  # noqa: S608 - names, no values
    finally:
        spark.catalog.dropTempView(view)
