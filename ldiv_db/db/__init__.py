"""The engine layer: the only package that talks to a database driver (migrations go through it too).

:class:`Database` (:mod:`ldiv_db.db.base`) is the abstract engine: what the rest of ldiv_db calls on a
database, its capability flags, and the bookkeeping every engine shares. Each engine is a folder:

* ``duckdb/`` — :class:`ldiv_db.db.duckdb.engine.DuckDBDatabase`, the embedded default (a file, ``:memory:``,
  a connection); the templates run as written;
* ``postgres/`` — :class:`ldiv_db.db.postgres.engine.PostgresDatabase` for a ``postgresql://`` URL;
* ``spark/`` — :class:`ldiv_db.db.spark.engine.SparkDatabase` for a ``spark://`` URL.

Each is registered below with :func:`register_engine`; :meth:`Database.open` hands a ``DB`` to the engine
that accepts it. The PostgreSQL and Spark drivers are optional: their folders are imported only when a
URL names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import RUN_WORK_SCHEMA, Database, Step, ldiv_schema_name, register_engine
from .duckdb.engine import open_duckdb
from .urls import is_postgres_url, is_spark_url

__all__ = ["RUN_WORK_SCHEMA", "Database", "Step", "ldiv_schema_name", "register_engine"]


def _open_postgres(url: str, *, mode: str, attach: Mapping[str, str] | None, migrate: bool) -> Any:
    from .postgres.engine import PostgresDatabase

    return PostgresDatabase.connect(url, mode=mode, attach=attach, migrate=migrate)


def _open_spark(url: str, *, mode: str, attach: Mapping[str, str] | None, migrate: bool) -> Any:
    from .spark.engine import SparkDatabase

    return SparkDatabase.connect(url, mode=mode, attach=attach, migrate=migrate)


register_engine(is_postgres_url, _open_postgres)
register_engine(is_spark_url, _open_spark)
register_engine(None, open_duckdb)  # the default: a file path, :memory:, a duckdb connection
