"""``ldiv load`` on Spark: a file read by DuckDB with the same template as on DuckDB (the same type
detection), sent to Spark in Arrow batches with the row id column."""

from __future__ import annotations

from typing import Any

import duckdb

from ...errors import LdivError
from ...sqlgen.render import Ident, Query, TableRef, render
from .catalog import ROWID, spark_ref


def load_file(db: Any, query: Query, target: TableRef) -> int | None:
    """The table reaches Spark (``db``, a :class:`~ldiv_db.db.spark.engine.SparkDatabase`) in Arrow batches
    of at most ``fetch_rows`` rows (the first creates it, the others append), with the row id column
    ``ldiv_rowid`` (0..n-1 in file order, what ``rowid`` means in the templates on Spark): the driver holds
    one batch at a time. Returns the rows written (the batches' sum: the table holds those and no others,
    so no count is asked of Spark)."""
    import pyarrow as pa  # an extra of ldiv_db[spark]

    sch, name = target.schema, target.name
    ref = spark_ref(TableRef(name, sch or db.default_schema))
    written: int | None = None  # no batch, no table: the caller's own lookups say so
    db.listings.forget()
    local = duckdb.connect()
    try:
        if sch:
            local.execute(render("catalog/create_schema.sql", schema=Ident(sch)).sql)
        local.execute(query.sql, dict(query.params))
        rows = render("catalog/rows_with_ids.sql", id_column=Ident(ROWID), source=TableRef(name, sch or None))
        batches = local.sql(rows.sql).fetch_record_batch(db.fetch_rows)
        with db._engine(query.name):
            for i, batch in enumerate(batches):
                frame = db.spark.createDataFrame(pa.Table.from_batches([batch]))
                frame.write.format("parquet").mode("append" if i else "errorifexists").saveAsTable(ref)
                written = (written or 0) + batch.num_rows
                db.queries += 1
    except duckdb.Error as exc:
        raise LdivError(f"query {query.name} failed: {str(exc).splitlines()[0]}") from None
    finally:
        local.close()
    return written
