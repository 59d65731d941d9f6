"""Apache Spark as an engine: the only module that talks to pyspark (``pip install 'ldiv_db[spark]'``).

``DB`` is ``spark://local[N]?warehouse=PATH`` (a local session in this process; it needs the warehouse)
or ``spark://HOST:PORT`` (a standalone master), with options after ``?``: ``warehouse=PATH`` (the
catalog's warehouse; the metastore lives beside it, so a later run sees the same tables), ``fetch_rows=N``
and any Spark conf key (``spark.sql...=v``); sessions and conf: :mod:`ldiv_db.db.spark.session`.

:class:`SparkDatabase` implements :class:`ldiv_db.db.base.Database`; what differs from DuckDB:

* statements are rendered in DuckDB's dialect and translated to Spark SQL through :data:`.dialect.SPARK`
  (:func:`ldiv_db.sqlgen.dialects.translate`); bound values go to ``spark.sql(..., args=...)`` (``:name`` markers), never into the text;
* results come back through Arrow, each through the bounded fetch of :mod:`ldiv_db.db.spark.jobs` (a
  result over ``fetch_rows`` rows only where the caller declared it bulk, then in batches);
  :meth:`insert_frame` sends a frame as one DataFrame and one ``INSERT ... SELECT`` per batch of at most
  ``fetch_rows`` rows (never row by row); every statement runs in a job group Ctrl-C cancels;
* the ``ldiv`` audit tables live in the Spark schema ``ldiv`` (the shipped migrations, translated; a
  migration with a Spark variant in ``migrations/spark/`` runs that instead); ids that DuckDB draws from
  sequences are the table's largest id plus one (one writer per Spark catalog at a time);
* work tables live in a schema of their own per connection (``ldiv_work_<hex>``), dropped on close; a
  small run's ``CREATE TABLE ... AS`` of one is held by the session instead (:mod:`.held`);
* there are no multi-statement transactions (``transactional = False``): :meth:`transaction` is only a
  bracket, and the release pipeline publishes through staging tables and a rename
  (:mod:`ldiv_db.pipeline.staged`); :meth:`require` refuses the algorithms not in :data:`ALGORITHMS`;
* a template with a Spark variant (``x.spark.sql``) runs that variant, translated;
* ``mode="read"`` refuses every statement that writes outside the connection's work schema.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from ...errors import BadInput, InternalError, LdivError
from ...sqlgen.dialects import translate, written_tables
from ...sqlgen.render import Ident, Query, TableRef, render
from ..base import SMALL_SOURCE_ROWS, Database
from . import catalog as cat
from .catalog import Listings, answer, catalog_name, spark_ref
from .dialect import SPARK, dml_probe, emulate_dml, spark_next_id
from .held import Held
from .jobs import cancel_thread, job, statement_error
from .loading import load_file
from .results import Result, insert_batch
from .schema import prepare_spark
from .session import (  # noqa: F401 - the engine's session API, as before
    DEFAULTS,
    FETCH_ROWS,
    SCHEME,
    fetch_rows_of,
    first_line,
    parse_url,
    session_for,
    stop_sessions,
)

# the algorithms whose every statement runs on Spark, each tested against DuckDB (tests/spark); the others
# are refused before anything is written, with the reason
_ONE_TABLE = ("tp", "tp+", "mondrian", "hilbert", "bsgi", "lplus", "topdown", "full-domain", "optimal")
ALGORITHMS = frozenset((*_ONE_TABLE, "decomposition"))  # every algorithm today
NOT_YET = "its templates are not all tested on Spark yet (docs/concepts/engines.md, Spark)"
# ids DuckDB draws from ldiv's sequences: (table, id column)
SEQUENCES = {
    "hierarchy_seq": ("hierarchy", "hierarchy_id"),
    "run_seq": ("run", "run_id"),
    "release_seq": ("release", "release_id"),
}


class SparkDatabase(Database):
    """One Spark session plus the bookkeeping; statements through ``spark.sql`` with bound ``args``."""

    dialect = "spark"
    target = SPARK
    default_schema = "default"
    transactional = False
    embedded = False
    reads_files = False
    local_row_base = None  # rows are identified by ldiv_rowid, final when written
    stats_from_source = False  # a check builds the histogram (partition/source_stats.sql is not run on Spark)

    def owners_gone(self, run_ids: list[int]) -> list[int]:
        return []  # nothing tells a live run from a dead one (ldiv_db/db/owners.py)

    driver_error = Exception
    ldiv_schema = "ldiv"

    def __init__(self, session: Any, url: str, *, read_only: bool) -> None:
        super().__init__(url)
        self.spark = session
        self.read_only = read_only
        self.work_schema = f"ldiv_work_{uuid.uuid4().hex[:10]}"
        self._work_ready = False
        self._made: set[str] = set()  # work tables a statement of this connection may have created
        self._pending: set[str] = set()  # work tables dropped by name, not yet by Spark (_defer_drop)
        # the work tables a statement names (``ws.t``, back-quoted or not): each may exist after it
        self._work_names = re.compile(rf"`?{self.work_schema}`?\.`?(\w+)`?", re.IGNORECASE)
        self.fetch_rows = fetch_rows_of(url)  # the most rows one fetch brings into the driver
        self.bulk_fetch = False  # the fetch running now was declared bulk (rows, records, df, arrays)
        self.listings = Listings(session, self.work_schema)  # the catalog as listed this command
        self.held = Held(session, self.work_schema)  # work tables held as views (threads_for)
        self._local, self._hold = parse_url(url)[0].startswith("local"), False
        self._statement_thread: int | None = None  # the thread of its latest statement (interrupt)

    # ------------------------------------------------------------------ opening
    @classmethod
    def connect(
        cls, url: str, *, mode: str = "write", attach: Mapping[str, str] | None = None, migrate: bool = True
    ) -> SparkDatabase:
        if attach:
            raise BadInput("--attach works with DuckDB files only", "on Spark, name a table as schema.table")
        db = cls(session_for(url), url, read_only=mode == "read")
        if migrate:
            prepare_spark(db, mode)
        return db

    def attach(self, alias: str, file: str, read_only: bool = True) -> None:
        raise BadInput("--attach works with DuckDB files only", "on Spark, name a table as schema.table")

    def use_stand_in_schema(self) -> None:
        """A read writes nothing: the whole ldiv schema stands in, empty, in the work schema."""
        self.ldiv_schema = self.work_table("ldiv_stand_in").schema or self.work_schema
        self._work_tables.clear()
        self._need_work_schema()

    def require(self, command: str, detail: str | None = None) -> None:
        """An algorithm that does not run on Spark (yet) is refused before anything is written."""
        if command == "anonymize" and detail not in ALGORITHMS:
            raise BadInput(
                f"anonymize --algorithm {detail} does not run on the Spark engine: {NOT_YET}",
                f"run it on a DuckDB file or a PostgreSQL database; on Spark, anonymize with "
                f"{', '.join(sorted(ALGORITHMS))}",
            )

    @contextlib.contextmanager
    def scratch_catalog(self, alias: str, *, keep: bool = False) -> Iterator[None]:
        raise LdivError("scratch catalogs are a DuckDB feature; the Spark engine does not use them")
        yield  # pragma: no cover

    def set_search_path(self, path: str) -> None:
        raise LdivError("the Spark engine keeps the session's current schema")

    def __exit__(self, *exc: object) -> None:
        """The work schema is dropped whole by :meth:`close` (one catalog call, not one per table)."""
        if not self.keep_work and self._work_ready:
            self._work_tables.clear()
        self.close(failed=exc[0] is not None)

    def close(self, *, failed: bool = False) -> None:
        """Drop this connection's work schema (the session itself stays for the process)."""
        if self._work_ready and not self.keep_work:
            self._drop_work_schema()

    def _drop_work_schema(self) -> None:
        """The work schema with every table in it: one catalog operation (made again when next needed)."""
        self.held.clear()
        with contextlib.suppress(Exception):
            self._fixed(render("catalog/drop_work_schema.sql", schema=Ident(self.work_schema)))
        self._work_ready = False
        self._made.clear()
        self._pending.clear()

    # ------------------------------------------------------------------ executing
    def _send(self, query: Query) -> Any:
        answer = self._catalog(query)
        if answer is not None:
            return answer
        if self.read_only:
            self._refuse_writes(query.name, query.sql)
        self._catalog_changes(query.sql)
        params = dict(query.params) if query.params else {}
        statements = translate(
            query.sql_for(self.dialect), self.target, frozenset(params), ldiv_schema=self.ldiv_schema
        )
        result: Any = Result()
        with self._engine(query.name):
            for sql in statements:
                result = self._statement(query.name, sql, params, probe="changes-a-row" not in query.hints)
        return result

    @contextlib.contextmanager
    def _engine(self, what: str) -> Iterator[None]:
        """Spark calls as one statement's job (:func:`ldiv_db.db.spark.jobs.job`): cancelled on Ctrl-C or by
        :meth:`interrupt`, its failure named with what to tune."""
        self._statement_thread = threading.get_ident()
        with job(self.spark, what.removeprefix("query "), statement_error):
            yield

    @contextlib.contextmanager
    def _declared(self, bulk: bool) -> Iterator[None]:
        self.bulk_fetch = bulk
        try:
            yield
        finally:
            self.bulk_fetch = False

    def rows(self, query: Query, *, bulk: bool = False) -> list[tuple[Any, ...]]:
        with self._declared(bulk):
            return super().rows(query)

    def records(self, query: Query, *, bulk: bool = False) -> list[dict[str, Any]]:
        with self._declared(bulk):
            return super().records(query)

    def df(self, query: Query, *, bulk: bool = False) -> pd.DataFrame:
        with self._declared(bulk):
            return super().df(query)

    def arrays(self, query: Query, *, bulk: bool = False) -> dict[str, Any]:
        with self._declared(bulk):
            return super().arrays(query)

    def _statement(self, name: str, sql: str, params: Mapping[str, Any], *, probe: bool = True) -> Result:
        """One translated statement. An ``UPDATE``/``DELETE`` is emulated by rewriting its table, after a
        probe for a row it would change (none: nothing is rewritten) unless ``probe`` is False (the caller
        knows one is there; a rewrite that changes nothing leaves the table as it was)."""
        fixed: list[tuple[Any, ...]] | None = None
        if "nextval(" in sql.lower():
            sql, params, new_id = self._next_id(name, sql, params)
            fixed = [(new_id,)]
        used = {k: v for k, v in params.items() if f":{k}" in sql}
        dml = None
        bare = _LEADING_COMMENTS.sub("", sql)
        if self.held.dropped(bare, _DROP_IF_EXISTS):
            return Result()  # a held work table: its view goes now
        if self._needless_drop(bare):
            return Result()  # a work table no statement made: nothing to drop
        if self._defer_drop(bare):
            return Result()  # dropped with the work schema, or before a statement names it again
        named = {n.lower() for n in self._work_names.findall(bare)}
        self._drop_pending(named)
        for name_held in self.held.written(bare):
            self._release(name_held)
        if self._holding() and self.held.create(bare, dict(params), self._made):
            return Result()
        self._made.update(named)
        self._need_work_schema(named)
        sql = self.held.rewrite(sql)
        head = bare[:16].upper()
        if head[:6] in ("UPDATE", "DELETE") or head == "INSERT OVERWRITE":
            ask = dml_probe(sql) if probe else None
            if ask is not None and not self._any_row(ask, params):
                return Result()  # it would change no row: the table is not rewritten
            dml = emulate_dml(sql, self._columns, spark_ref(self.work_table("ldiv_dml")))
        for stmt in dml or []:
            self._emulated(stmt, used)
        frame = None if dml else self.spark.sql(sql, args=used or None)
        if fixed is not None:
            return Result(rows=fixed)
        return Result(frame, db=self, name=name)

    def _emulated(self, stmt: str, used: Mapping[str, Any]) -> None:
        """One statement of an emulated ``UPDATE``/``DELETE`` (:func:`.dialect.emulate_dml`): its scratch
        table's drops go the way of every work table's (not sent before the scratch table was made, the
        one after the rewrite deferred to the work schema's drop), so a rewrite is two statements."""
        if self.held.dropped(stmt, _DROP_IF_EXISTS) or self._needless_drop(stmt) or self._defer_drop(stmt):
            return
        named = {n.lower() for n in self._work_names.findall(stmt)}
        self._drop_pending(named)
        if self._holding() and self.held.create(stmt, dict(used), self._made):
            return  # the scratch copy held: its lineage is cut, so it may overwrite the table it copies
        self._made.update(named)
        self._need_work_schema(named)
        stmt = self.held.rewrite(stmt)
        self.spark.sql(stmt, args=(used or None) if ":" in stmt else None)

    @contextlib.contextmanager
    def threads_for(self, rows: int) -> Iterator[None]:
        """A run over a source of at most :data:`SMALL_SOURCE_ROWS` rows on a local master holds its work
        tables (:mod:`.held`); a larger source's would crowd the driver's memory, so they are written."""
        before, self._hold = self._hold, self._local and rows <= SMALL_SOURCE_ROWS
        try:
            yield
        finally:
            self._hold = before

    def _holding(self) -> bool:
        """Whether a work table's ``CREATE TABLE ... AS`` may be held (:mod:`.held`): in a small run on a
        local master (:meth:`threads_for`), not kept for inspection, not where the ldiv stand-in lives."""
        return self._hold and not self.keep_work and self.ldiv_schema != self.work_schema

    def _release(self, name: str) -> None:
        """A held work table made a catalog table with its rows, before something writes it."""
        self._need_work_schema()
        self.held.release(name, f"CREATE TABLE {spark_ref(TableRef(name, self.work_schema))} AS")
        self._made.add(name.lower())

    def _catalog_changes(self, sql: str) -> None:
        """Forget the catalog's listings (:class:`.catalog.Listings`) before a statement that may create,
        drop or rename a table or schema outside the work schema (DuckDB's text, as rendered)."""
        if not _DDL.match(_LEADING_COMMENTS.sub("", sql)):
            return
        written = written_tables(sql)
        if not written or any(not t.lower().startswith(self.work_schema + ".") for t in written):
            self.listings.forget()

    def forget_catalog(self) -> None:
        self.listings.forget()

    def _outside_work(self, *refs: TableRef) -> None:
        """A catalog operation on ``refs``: the listings are forgotten unless all are work tables."""
        if any((r.schema or "").lower() != self.work_schema for r in refs):
            self.listings.forget()

    def _needless_drop(self, sql: str) -> bool:
        """``DROP TABLE IF EXISTS`` of a table of the work schema that no statement of this connection has
        named: the schema is this connection's own, so the table is not there (the DROP half of a
        ``CREATE OR REPLACE``, a drop after a run). Not while the ldiv stand-in lives in the work schema
        (its tables are made by scripts)."""
        m = _DROP_IF_EXISTS.fullmatch(sql.strip())
        if m is None or self.ldiv_schema == self.work_schema:
            return False
        schema, name = m.group(1).strip("`").lower(), m.group(2).strip("`").lower()
        return schema == self.work_schema and name not in self._made

    def _defer_drop(self, sql: str) -> bool:
        """``DROP TABLE IF EXISTS`` of a work table once its work is done (the metrics' covers, a
        composition's parts): not sent now (a catalog operation and a Spark job each) but remembered,
        since the work schema is dropped whole at the end (:meth:`close`, :meth:`drop_work_tables`); a
        later statement or catalog call that names the table drops it first (:meth:`_drop_pending`).
        Not with ``--keep-work`` (nothing is dropped at the end) nor while the ldiv stand-in lives in the
        work schema (dropped table by table)."""
        m = _DROP_IF_EXISTS.fullmatch(sql.strip())
        if m is None or self.keep_work or self.ldiv_schema == self.work_schema:
            return False
        schema, name = m.group(1).strip("`").lower(), m.group(2).strip("`").lower()
        if schema != self.work_schema:
            return False
        self._pending.add(name)
        return True

    def _drop_pending(self, names: set[str]) -> None:
        """The remembered drops (:meth:`_defer_drop`) of these work tables, sent now."""
        for name in sorted(names & self._pending):
            self._pending.discard(name)
            self.spark.sql(cat.DROP_TABLE, args={"table": spark_ref(TableRef(name, self.work_schema))})

    def _pending_ref(self, ref: TableRef) -> None:
        if (ref.schema or "").lower() == self.work_schema:
            self._drop_pending({ref.name.lower()})

    def _any_row(self, sql: str, params: Mapping[str, Any]) -> bool:
        used = {k: v for k, v in params.items() if f":{k}" in sql}
        return bool(self.spark.sql(sql, args=used or None).take(1))

    # ------------------------------------------------------------------ catalog lookups
    def _catalog(self, query: Query) -> Result | None:
        """A catalog template answered from Spark's catalog (:func:`.catalog.answer`), else None."""
        if self._pending:  # a remembered drop of a table it names is sent first
            named = {n.lower() for n in self._work_names.findall(query.sql)}
            params = dict(query.params) if query.params else {}
            if str(params.get("schema", "")).lower() == self.work_schema:
                named.add(str(params.get("name", "")).lower())
            self._drop_pending(named)
        rows = self.held.answer(query) or answer(self, query)
        return None if rows is None else Result(rows=rows)

    def load_file(self, query: Query, target: TableRef) -> int | None:
        """``ldiv load`` on Spark (:func:`.loading.load_file`): the rows written."""
        return load_file(self, query, target)

    def _fixed(self, query: Query) -> list[Any]:
        """A statement of the engine's own bookkeeping (work schema, ids), translated; its rows collected."""
        out: list[Any] = []
        for stmt in translate(query.sql, self.target):  # its tables are named in full (no ldiv stand-in)
            out = self.spark.sql(self.held.rewrite(stmt)).collect()
        return out

    def spark_ref(self, ref: TableRef) -> str:
        """``ref`` as Spark SQL and the DataFrame API name it (back-quoted parts); a remembered drop of it
        is sent first (its caller reads or writes it). A catalog work table's schema is made first: the
        DataFrame API may create the table (a bulk fetch's, :func:`.jobs._batches`), outside :meth:`_statement`."""
        self._pending_ref(ref)
        if (ref.schema or "").lower() == self.work_schema:
            if ref.name in self.held:
                return f"`{self.held.view(ref.name)}`"
            self._need_work_schema()
        return spark_ref(ref)

    def _columns(self, table: str) -> list[str]:
        return [str(c) for c in self.spark.table(table).columns]

    def _next_id(self, name: str, sql: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any], int]:
        """``nextval('ldiv.x_seq')``: the table's largest id plus one, bound as a value; a ``RETURNING``
        clause (which Spark lacks) is answered with that id."""

        sql, seq = spark_next_id(sql)
        table, column = SEQUENCES[seq]
        ref = TableRef(table, self.ldiv_schema)
        rows = self._fixed(render("catalog/next_id.sql", column=Ident(column), source=ref))
        new_id = int(rows[0][0])
        return sql, {**params, "ldiv_next_id": new_id}, new_id

    def _refuse_writes(self, name: str, sql: str, tables: list[TableRef] | None = None) -> None:
        """Refuse a statement of a read-only command that writes outside the work schema (``tables``: what
        it writes, where ``sql`` does not say it)."""
        named = written_tables(sql) if tables is None else [".".join(t.parts[-2:]) for t in tables]
        outside = [t for t in named if not t.lower().startswith(self.work_schema + ".")]
        if outside:
            raise LdivError(
                f"{name} would write {', '.join(outside)} in a read-only command",
                "a read writes nothing but its own work tables; please report this",
            )

    def _frame(self, cur: Any) -> pd.DataFrame:
        frame: pd.DataFrame = cur.df()
        return frame

    def _arrays(self, cur: Any) -> dict[str, Any]:
        frame = self._frame(cur)
        if frame.isna().to_numpy().any():
            raise InternalError("a numeric result holds NULL")
        return {str(c): frame[c].to_numpy() for c in frame.columns}

    def insert_frame(self, table: TableRef, frame: pd.DataFrame) -> None:
        """Append a frame to an existing table: per batch of at most ``fetch_rows`` rows one DataFrame
        (through Arrow) and one INSERT ... SELECT, so the driver never holds more than a batch of it."""
        if self.read_only and (table.schema or "") != self.work_schema:
            self._refuse_writes("insert_frame", render("catalog/all_rows.sql", source=table).sql, [table])
        self._pending_ref(table)
        held = (table.schema or "").lower() == self.work_schema and table.name in self.held
        with self._engine("insert_frame"):
            for start in range(0, len(frame), self.fetch_rows):
                batch = frame.iloc[start : start + self.fetch_rows]
                if held:  # a held table stays held: its rows and the batch's
                    self.held.append(table.name, batch)
                else:
                    insert_batch(self.spark, spark_ref(table), batch)
                self.queries += 1

    def execute_script(self, name: str, sql: str) -> None:
        """A fixed multi-statement script (migrations), each statement translated."""
        self.listings.forget()
        with self._engine(name):
            for stmt in translate(sql, self.target, ldiv_schema=self.ldiv_schema):
                self.spark.sql(stmt)
        self.queries += 1

    def raw_rows(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Fixed bookkeeping SQL with bound values (``?`` positions)."""
        self.queries += 1
        if sql.strip().lower() == "select current_database()":  # the catalog's answer, without a job
            return [(self.spark.catalog.currentDatabase(),)]
        self._catalog_changes(sql)
        statements = translate(sql, self.target, positional=True, ldiv_schema=self.ldiv_schema)
        out: list[tuple[Any, ...]] = []
        with self._engine("bookkeeping query"):
            for i, stmt in enumerate(statements):
                args = list(params) if params is not None and i == len(statements) - 1 else None
                frame = self.spark.sql(self.held.rewrite(stmt), args=args or None)
                out = Result(frame, db=self, name="bookkeeping query").fetchall()
        return out

    # ------------------------------------------------------------------ transactions, work tables
    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Only a bracket: Spark has no multi-statement transactions (``transactional`` is False)."""
        yield

    def _work_ref(self, name: str) -> TableRef:
        return TableRef(catalog_name(name), self.work_schema)

    def _need_work_schema(self, named: set[str] | None = None) -> None:
        """The work schema made in the catalog before the first statement that may make or name a catalog
        table in it (``named``: the work tables a statement names; held ones need none), so a run whose
        work tables are all held makes none and has none to drop."""
        if not self._work_ready and (named is None or named.difference(self.held.frames)):
            self._fixed(render("catalog/create_schema.sql", schema=Ident(self.work_schema)))
            self._work_ready = True

    def side_reader(self, rows: int | None = None) -> Database | None:
        """Another connection on this session whose statements run in another thread beside this one's
        (each thread's statements are jobs of its own group, :mod:`.jobs`): the metrics' domain and KL's
        source points are read while the algorithm runs. Only where this run's work tables are held
        (:meth:`threads_for`: a small source on a local master), as the reader's are; it reads committed
        tables and writes only its own held work tables."""
        if not self._holding():
            return None
        other = type(self)(self.spark, self.path or "", read_only=True)
        other._hold = True
        other.ldiv_schema = self.ldiv_schema
        return other

    def interrupt(self) -> None:
        """Cancel the statement this connection runs in another thread (a second reader's, from the
        connection's thread; a Ctrl-C cancels every running job group itself, :mod:`.jobs`)."""
        if self._statement_thread is not None:
            cancel_thread(self._statement_thread)

    def refuse_table_name(self, ref: TableRef, release: TableRef) -> None:
        if any(not re.fullmatch(r"[A-Za-z0-9_]+", p) for p in ref.parts):
            raise BadInput(
                f"the release {release.display()} would write the table {ref.display()}, but Spark's catalog "
                "takes table and schema names of letters, digits and _ only",
                "name the release with those, e.g. --output "
                + ".".join(re.sub(r"[^A-Za-z0-9_]", "_", p) for p in release.parts),
            )

    def private_ref(self, name: str) -> TableRef:
        """ldiv_db's own table ``name`` in ``ldiv``: letters, digits and ``_`` (``retained:main.out`` is
        ``retained_main_out_`` and 8 hex digits of the name's hash), as Spark's catalog requires."""
        return TableRef(catalog_name(name), self.ldiv_schema)

    def drop_work_tables(self) -> None:
        """The work schema dropped whole (one catalog operation, not one per table), made again when
        next needed; table by table while the ldiv stand-in lives there."""
        self.listings.forget()  # a command's end
        self.held.clear()
        if self.keep_work:
            return
        if self.ldiv_schema != self.work_schema:
            if self._work_ready:  # else every work table was held: nothing in the catalog
                self._drop_work_schema()
        else:
            for ref in self._work_tables:
                with contextlib.suppress(Exception):
                    self.spark.sql(cat.DROP_TABLE, args={"table": spark_ref(ref)})
        self._work_tables.clear()

    def exists(self, ref: TableRef) -> bool:
        """From the schema's listing when this command keeps one, else one metastore call (listing the
        schema is two statements: the open's migrations check asks of one table only)."""
        self._pending_ref(ref)
        if (ref.schema or "").lower() == self.work_schema and ref.name in self.held:
            return True
        kept = self.listings.kept(ref.schema) if ref.catalog is None and ref.schema else None
        if kept is not None and ref.schema and ref.schema.lower() != self.work_schema:
            return any(n.lower() == ref.name.lower() for n, _ in kept)
        return bool(self.spark.catalog.tableExists(spark_ref(ref)))

    def table_property(self, ref: TableRef, key: str) -> str | None:
        """A property of an existing table (a catalog read, no Spark job), None when it has none."""
        self.queries += 1
        rows = self.spark.sql(cat.SHOW_PROPERTIES, args={"table": spark_ref(ref)}).collect()
        return next((str(r[1]) for r in rows if r[0] == key), None)

    def set_table_property(self, ref: TableRef, key: str, value: str) -> None:
        self.queries += 1
        self.spark.sql(cat.SET_PROPERTY, args={"table": spark_ref(ref), "key": key, "value": value})

    def table_names(self, schema: str) -> list[str]:
        """The tables of ``schema`` as the catalog spells them (none when it does not exist)."""
        if schema.lower() == self.work_schema:
            self._drop_pending(set(self._pending))
            listed = self.listings.tables(schema) if self._work_ready else []
            return [n for n, _ in listed] + sorted(self.held.frames)
        return [name for name, _ in self.listings.tables(schema)]

    def drop_table(self, ref: TableRef) -> None:
        if (ref.schema or "").lower() == self.work_schema:
            self._pending.discard(ref.name.lower())  # dropped now
            if self.held.drop(ref.name) or not self._work_ready:
                return  # a held table's view went; or no work table was made in the catalog
        self._outside_work(ref)
        with self._engine("drop_table"):
            self.spark.sql(cat.DROP_TABLE, args={"table": spark_ref(ref)})
        self.queries += 1

    def rename(self, old: TableRef, new: TableRef) -> None:
        """``ALTER TABLE old RENAME TO new``: one catalog operation (the publish step of a release)."""
        t0 = time.perf_counter()
        self._pending_ref(old)
        self._pending_ref(new)
        if (old.schema or "").lower() == self.work_schema and old.name in self.held:
            self._release(old.name)
        if (new.schema or "").lower() == self.work_schema:
            self._need_work_schema()
        self._outside_work(old, new)
        with self._engine("rename"):
            self.spark.sql(cat.RENAME, args={"old": spark_ref(old), "new": spark_ref(new)})
        if (new.schema or "").lower() == self.work_schema:
            self._made.add(new.name.lower())
        self.queries += 1
        self._last_t0 = t0


_DDL = re.compile(r"(CREATE|DROP|ALTER)\b", re.IGNORECASE)  # what may change the catalog's listings
_LEADING_COMMENTS = re.compile(r"^(\s|/\*.*?\*/|--[^\n]*)*", re.DOTALL)  # a template's header lines too
_DROP_IF_EXISTS = re.compile(r"DROP TABLE IF EXISTS (`\w+`|\w+)\.(`\w+`|\w+)", re.IGNORECASE)
