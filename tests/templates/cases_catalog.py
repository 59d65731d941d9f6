"""Template cases: sql/catalog/."""

from __future__ import annotations

from dataclasses import dataclass

from ldiv_db.sqlgen.render import Ident

from .harness import Case, HostileEnv


@dataclass(frozen=True)
class _Col:
    name: str
    data_type: str


_COLUMNS = [
    _Col("it's", "VARCHAR"),
    _Col('a"b', "DECIMAL(18,3)"),
    _Col("ünï", "DOUBLE"),
    _Col("when", "TIMESTAMP"),
]

_FRAME_COPY = "frame's copy"


def _cols(env: HostileEnv) -> dict[str, object]:
    return {"source": env.source, "columns": [*env.qi, env.sa]}


CASES = {
    "catalog/tables.sql": Case(lambda env: {}),
    "catalog/databases.sql": Case(lambda env: {}, engines=("duckdb",)),
    "catalog/columns.sql": Case(lambda env: {}, {"catalog": "memory", "schema": "main", "name": "select"}),
    "catalog/table_exists.sql": Case(lambda env: {}, {"catalog": None, "schema": "main", "name": "select"}),
    "catalog/row_ids.sql": Case(lambda env: {}, {"schema": "main", "name": "select"}),
    # DuckDB's temporary objects hiding a table of the file (PostgreSQL's sit in a schema of their own)
    "catalog/temp_shadow.sql": Case(
        lambda env: {}, {"schema": "main", "name": "select"}, engines=("duckdb",)
    ),
    "catalog/null_counts.sql": Case(_cols),
    "catalog/non_finite_counts.sql": Case(_cols),
    "catalog/sa_spellings.sql": Case(_cols),
    # the hostile names matched in DuckDB's catalog (PostgreSQL and Spark count the spellings instead)
    "catalog/bytes_only.sql": Case(
        lambda env: {}, {"catalog": None, "schema": "main", "name": "select"}, engines=("duckdb",)
    ),
    "catalog/row_count.sql": Case(lambda env: {"source": env.source}),
    "catalog/uncommitted_rows.sql": Case(
        lambda env: {"source": env.source}, {"local_base": 36028797018960000}
    ),
    "catalog/all_rows.sql": Case(lambda env: {"source": env.source}),
    # a frame is registered on the connection by name; here the hostile table stands in for it
    "catalog/load_frame.sql": Case(
        lambda env: {"frame": env.source, "target": env.named(_FRAME_COPY)},
        prepare=lambda env: env.con.execute(f"DROP TABLE IF EXISTS {env.named(_FRAME_COPY).sql()}"),
    ),
    # the rows of the hostile table (standing in for the frame) appended to an empty copy of two columns
    "catalog/append_frame.sql": Case(
        lambda env: {"frame": env.source, "target": env.work("appended"), "columns": [env.qi[0], env.sa]},
        prepare=lambda env: env.run(
            "catalog/create_columns.sql",
            target=env.work("appended"),
            columns=[_Col(env.qi[0].name, "VARCHAR"), _Col(env.sa.name, "VARCHAR")],
        ),
    ),
    "catalog/drop_work_schema.sql": Case(
        lambda env: {"schema": Ident(env.catalog_name("wk sch'ema"))},
        prepare=lambda env: env.run(
            "catalog/create_schema.sql", schema=Ident(env.catalog_name("wk sch'ema"))
        ),
    ),
    "catalog/next_id.sql": Case(lambda env: {"column": env.group, "source": env.source}),
    "catalog/repeated_values.sql": Case(lambda env: {"column": env.sa, "source": env.source}),
    # a DuckDB table read to be sent elsewhere (the file ldiv load reads for Spark)
    "catalog/rows_with_ids.sql": Case(
        lambda env: {"id_column": Ident("row id's"), "source": env.source}, engines=("duckdb",)
    ),
    "catalog/create_schema.sql": Case(lambda env: {"schema": Ident(env.catalog_name("sch'ema"))}),
    "catalog/drop_work_table.sql": Case(
        lambda env: {"target": env.work("dropme")},
        prepare=lambda env: env.run(
            "catalog/create_columns.sql", target=env.work("dropme"), columns=_COLUMNS[:1]
        ),
    ),
    "catalog/create_columns.sql": Case(
        lambda env: {"target": env.work("created"), "columns": _COLUMNS},
        prepare=lambda env: env.con.execute(f"DROP TABLE IF EXISTS {env.work('created').sql()}"),
    ),
}
