"""The engine layer: the only package that talks to a database driver (migrations go through it too).

A :class:`Database` runs rendered :class:`~ldiv_db.sqlgen.render.Query` objects, maps rows onto frozen
dataclasses by column name, counts the statements it issued, keeps an in-memory step log (template,
SQL hash, rows, milliseconds) that :meth:`flush_steps` writes to ``ldiv.run_step``, and owns the work
tables (temporary tables, or schema ``ldiv_work`` with ``keep_work``).

:meth:`Database.open` picks the engine from ``DB``: a ``postgresql://`` URL opens
:class:`ldiv_db.db.postgres.engine.PostgresDatabase`, a ``spark://`` URL :class:`ldiv_db.db.spark.engine.SparkDatabase`
(each registered below with :func:`register_engine`); anything else is a DuckDB file. The interface every
engine provides:

* ``dialect`` (sqlglot's name; templates are written in DuckDB's and :func:`ldiv_db.sqlgen.render.translate`
  turns them into the engine's), ``default_schema`` (where an unqualified release goes) and
  ``transactional`` (whether :meth:`transaction` is all-or-nothing across DDL; an engine without it must
  publish releases through staging tables and a rename);
* executing: :meth:`run`, :meth:`rows`, :meth:`one`, :meth:`scalar`, :meth:`records`, :meth:`fetch`
  (dataclasses), :meth:`df` (pandas), all taking a rendered :class:`~ldiv_db.sqlgen.render.Query` with bound
  parameters; :meth:`raw_rows` / :meth:`execute_script` for fixed bookkeeping SQL (migrations);
* bulk transfer: :meth:`insert_frame` (DuckDB: the frame is scanned in place; PostgreSQL: ``COPY``);
* :meth:`transaction`, :meth:`work_table` / :meth:`drop_work_tables`, :meth:`exists`, :meth:`close`;
* :meth:`require` refuses, before anything is written, a command the engine cannot run (Spark: the
  algorithms it does not run); an engine without transactions also provides ``rename``, ``drop_table``
  and ``table_names`` (:class:`ldiv_db.pipeline.staged.StagingEngine`);
* read mode (``mode="read"``) writes nothing but work tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .duckdb.engine import RUN_WORK_SCHEMA, Database, Step, ldiv_schema_name, register_engine
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
