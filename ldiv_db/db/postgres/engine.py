"""PostgreSQL as an engine: the only module that talks to psycopg (``pip install 'ldiv_db[postgres]'``).

:class:`PostgresDatabase` implements :class:`ldiv_db.db.base.Database`; what differs from DuckDB:

* statements are rendered in DuckDB's dialect and translated through :data:`.dialect.POSTGRES` by
  :func:`ldiv_db.sqlgen.dialects.translate` (cached), bound parameters become psycopg's ``%(name)s``;
* the password (URL, ``PGPASSWORD`` or ``~/.pgpass``, as libpq reads them) never appears in a message:
  every error text goes through :func:`ldiv_db.db.urls.scrub`, and :attr:`path` is the URL without it;
* work tables are session-temporary (``pg_temp``), except within :meth:`parallel_work` (a write
  command's run): there they are unlogged tables of a schema of the connection's own,
  ``ldiv_work_<backend pid>_<hex>``, which PostgreSQL scans with parallel workers (it never scans a
  temporary table in parallel) — dropped at the end of the block, and by the next write command's
  connection when a killed run left one behind; :meth:`insert_frame` sends frames with ``COPY``;
* transactions are real (PostgreSQL's DDL is transactional): a release is all-or-nothing;
* ``mode="read"`` refuses, in :meth:`_send`, every statement that writes outside ``pg_temp``;
* :meth:`snapshot_sessions`: a large ``check`` splits its groups among sessions on one snapshot;
* each statement waits at most ``lock_timeout`` (``LDIV_LOCK_TIMEOUT``, default 10 s) for a lock another
  session holds, then fails with a :class:`~ldiv_db.errors.BadInput` naming the tables involved.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd
import psycopg
from psycopg import errors as pgerr
from psycopg import sql as pgsql
from psycopg.adapt import Loader

from ...errors import BadInput, ConnectionLost, LdivError
from ...schema.state import prepare
from ...sqlgen.dialects import translate, written_tables
from ...sqlgen.render import Ident, Query, TableRef, render
from ..base import RUN_WORK_SCHEMA, SMALL_SOURCE_ROWS, WORK_SCHEMA, Database
from ..engine_errors import environment_error
from ..urls import display_url, scrub, url_password
from .dialect import PG_HASH_FUNCTIONS, POSTGRES, param_kind
from .errors import connect_error, error_message, privilege_hint
from .frames import binary_candidate, binary_rows, csv_frame, frame_rows, numeric_columns
from .owners import PgRunOwners
from .settings import ANALYZE_MIN_ROWS, HINT_SETTINGS, session_options, unlogged_work

TEMP_SCHEMA = "pg_temp"
# result types a bulk frame may come in by COPY as CSV: the integers (int2, int4, int8, oid), whose text
# pandas reads back exactly as the ordinary path builds them (int64; float64 with NaN where NULL)
_COPY_TYPES = frozenset({21, 23, 20, 26})
READ_SESSIONS_MIN_ROWS = 200_000  # a check of this many rows splits its groups among sessions
MIN_SERVER_VERSION = 140000  # hash_record_extended (table digests)


_TRANSLATING = threading.Lock()


def _read_sessions() -> int:
    text = os.environ.get("LDIV_PG_READ_SESSIONS", "2")
    if text.isdigit() and 1 <= int(text) <= 64:
        return int(text)
    what = f"LDIV_PG_READ_SESSIONS is {text!r}; it is the number of PostgreSQL sessions a large check uses"
    raise BadInput(what, "set a whole number from 1 (one session) to 64, at most the server's cores")


class _NumericLoader(Loader):
    """NUMERIC arrives as int when integral (sum/count of integers, as DuckDB's HUGEINT does), else float."""

    def load(self, data: Any) -> int | float:
        text = bytes(data).decode()
        if "." not in text and "e" not in text.lower() and text not in ("NaN", "Infinity", "-Infinity"):
            return int(text)
        value = float(Decimal(text))
        return int(value) if value.is_integer() and "." not in text else value


def _bound(query: Query) -> dict[str, Any] | None:
    """The values a statement binds (a NULL is written into its text by the translation), or None."""
    return {k: v for k, v in query.params.items() if v is not None} or None


class PostgresDatabase(PgRunOwners, Database):
    """One psycopg connection (autocommit; :meth:`transaction` issues BEGIN/COMMIT) plus the bookkeeping."""

    dialect = "postgres"
    max_columns = 1600  # a table's, and so a CREATE TABLE AS's, column limit
    target = POSTGRES
    default_schema = "main"  # unqualified releases go to schema main, as on DuckDB (created on write)
    transactional = True
    embedded = False
    lists_only_granted_tables = True
    reads_files = False
    local_row_base = None  # row ids are final when written (ctid)
    driver_error = psycopg.Error
    stats_from_source = True  # measured in bench/README.md (Engines)
    ldiv_schema = "ldiv"  # pg_temp when a read stands in for a missing ldiv schema (ldiv_db/schema/server.py)

    def __init__(
        self, con: psycopg.Connection[Any], url: str, *, read_only: bool, secret: str | None
    ) -> None:
        super().__init__(display_url(url))
        self.pg: psycopg.Connection[Any] = con
        self.read_only = read_only
        self._secret = secret
        self._url = url  # for snapshot_sessions' sessions; never shown (path is without the password)
        self._work_schema: str | None = None  # set within parallel_work
        self._source_rows: int | None = None  # the rows of the source the current block works on, if known
        self._hash_refusal: str | None = "not made"  # why pg_temp.ldiv_hash is missing (None: made, connect)

    # ------------------------------------------------------------------ opening
    @classmethod
    def connect(
        cls,
        url: str,
        *,
        mode: str = "write",
        attach: Mapping[str, str] | None = None,
        migrate: bool = True,
    ) -> PostgresDatabase:
        """Connect to ``url`` (``postgresql://user[:password]@host[:port]/dbname``) and prepare the
        ``ldiv`` schema as :meth:`Database.open` does for a file."""
        if attach:
            raise BadInput(
                "--attach works with DuckDB files only",
                "on PostgreSQL, name a table of another schema as schema.table",
            )
        secret = url_password(url) or os.environ.get("PGPASSWORD")
        where = display_url(url)
        try:
            con = psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=10,
                application_name="ldiv_db",
                options=session_options(),
            )
        except psycopg.OperationalError as exc:
            raise connect_error(where, error_message(exc, secret)) from None
        if con.info.server_version < MIN_SERVER_VERSION:
            found = con.info.parameter_status("server_version") or str(con.info.server_version)
            con.close()
            raise BadInput(
                f"the PostgreSQL server at {where} runs version {found}; ldiv_db needs PostgreSQL 14 or later",
                "upgrade the server, or anonymize in a DuckDB file (ldiv load) and copy the release back",
            )
        con.adapters.register_loader("numeric", _NumericLoader)
        con.prepare_threshold = None  # work tables are replaced under the same statement text
        db = cls(con, url, read_only=mode == "read", secret=secret)
        try:
            # outside any transaction, so that no rollback takes them away; refused (no TEMP on the
            # database, a read-only standby), a statement that hashes says why when it comes (_statements)
            con.execute(";".join(PG_HASH_FUNCTIONS).encode())
            db._hash_refusal = None
        except psycopg.Error as exc:
            db._hash_refusal = error_message(exc, secret)
        try:
            if migrate:
                prepare(db, mode)
        except BaseException:
            db.close()
            raise
        return db

    def close(self, *, failed: bool = False) -> None:
        with contextlib.suppress(psycopg.Error):
            self.pg.close()

    def _work_ref(self, name: str) -> TableRef:
        if self.keep_work:
            self._bare(render("catalog/create_schema.sql", schema=Ident(WORK_SCHEMA)))
            return TableRef(name, WORK_SCHEMA)
        if self._work_schema is not None:
            return TableRef(name, self._work_schema)
        return TableRef(name, TEMP_SCHEMA)

    @contextlib.contextmanager
    def threads_for(self, rows: int) -> Iterator[None]:
        """A run over more than :data:`SMALL_SOURCE_ROWS` rows makes its work tables in
        :meth:`parallel_work`; a smaller one keeps them temporary (its tables are too small for parallel
        workers to pay: the release of a 30,000-row table got slower, not faster)."""
        with self._sized(rows):
            if rows > SMALL_SOURCE_ROWS:
                with self.parallel_work():
                    yield
            else:
                yield

    @contextlib.contextmanager
    def _sized(self, rows: int) -> Iterator[None]:  # the block works on a source of rows rows (plan hints)
        before, self._source_rows = self._source_rows, rows
        try:
            yield
        finally:
            self._source_rows = before

    @contextlib.contextmanager
    def parallel_work(self) -> Iterator[None]:
        """Work tables of the block in a schema of this connection's own, as unlogged tables (no WAL, and
        PostgreSQL scans, joins and aggregates them with parallel workers, which it never does for a
        temporary table: history.md, "Figures moved out of the code"). The schema is dropped with its tables at the end of the block; a killed run's schema
        (its backend gone) is dropped by the next block of any connection of a role that owns it. Without
        ``CREATE`` on the database the block keeps temporary work tables. Read commands never enter this
        block: they write nothing outside ``pg_temp``."""
        if self.read_only or self.keep_work or self._work_schema is not None:
            yield
            return
        pid = int(self.raw_rows("SELECT pg_backend_pid()")[0][0])
        schema = f"ldiv_work_{pid}_{secrets.token_hex(4)}"  # RUN_WORK_SCHEMA: the pid tells leftovers
        try:
            self._drop_leftover_work()
            self.raw_rows(render("catalog/create_schema.sql", schema=Ident(schema)).sql)
            made = True
        except BadInput:  # no CREATE on the database: temporary work tables, as for a small source
            made = False
        if not made:
            yield
            return
        self._work_schema = schema
        try:
            yield
        finally:
            self._work_schema = None
            self._work_tables = [t for t in self._work_tables if t.schema != schema]
            with contextlib.suppress(LdivError):
                self.raw_rows(render("catalog/drop_work_schema.sql", schema=Ident(schema)).sql)

    @contextlib.contextmanager
    def snapshot_sessions(self, rows: int, *, split: bool = True) -> Iterator[list[Database]]:
        """For a read (``split``) of at least :data:`READ_SESSIONS_MIN_ROWS` rows: this session and
        ``LDIV_PG_READ_SESSIONS - 1`` more (default 2 in all), each in a REPEATABLE READ transaction on
        the snapshot this one exports, so all of them read the same committed data; the transactions are
        rolled back at the end (a read writes nothing; its temporary tables go with them). Fewer if the
        server refuses a connection; only this one for a write connection or a smaller source."""
        large = split and self.read_only and not self._in_tx and rows >= READ_SESSIONS_MIN_ROWS
        more = _read_sessions() - 1 if large else 0
        others: list[PostgresDatabase] = []
        with self._sized(rows):
            if more < 1:  # this session alone, and any transaction it is in stays as it is
                yield [self]
                return
            try:  # the transaction begun here (by _open_sessions) is rolled back here
                others = self._open_sessions(more, rows)
                yield [self, *others]
            finally:
                for other in others:  # idle: a part's failure cancelled the others' statements (check._each)
                    other.close()
                    self.absorb(other)
                self._in_tx = False
                if self.pg.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    with contextlib.suppress(psycopg.Error):
                        self.pg.execute(b"ROLLBACK")

    def _open_sessions(self, n: int, rows: int) -> list[PostgresDatabase]:
        try:
            self.pg.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ")
            self._in_tx = True
            snapshot = str(self.pg.execute(b"SELECT pg_export_snapshot()").fetchone()[0])  # type: ignore[index]
        except psycopg.Error as exc:
            raise self._error("snapshot_sessions", "SELECT pg_export_snapshot()", exc) from None
        others: list[PostgresDatabase] = []
        for _ in range(n):
            try:
                other = type(self).connect(self._url, mode="read", migrate=False)
            except LdivError:
                break  # e.g. too many connections: the sessions opened so far do the work
            try:
                other.pg.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ")
                other.pg.execute(pgsql.SQL("SET TRANSACTION SNAPSHOT {}").format(snapshot))
            except psycopg.Error:
                other.close()
                break
            other._in_tx, other._source_rows = True, rows
            others.append(other)
        return others

    def side_reader(self, rows: int | None = None) -> Database | None:
        """Another session on the same database in read mode (its work tables temporary), for a source of
        at least :data:`READ_SESSIONS_MIN_ROWS` rows, the size from which ``check`` splits too: the
        metrics' domain of a large source is read beside the release's session. A smaller
        release keeps one session (and one connection). None for a smaller source, or if the server
        refuses the connection."""
        if rows is None or rows < READ_SESSIONS_MIN_ROWS:
            return None
        try:
            other = type(self).connect(self._url, mode="read", migrate=False)
        except LdivError:
            return None
        other._source_rows = rows
        return other

    def interrupt(self) -> None:
        with contextlib.suppress(psycopg.Error):
            getattr(self.pg, "cancel_safe", self.pg.cancel)()

    @contextlib.contextmanager
    def sharing_cores(self) -> Iterator[None]:
        """No parallel workers while other sessions of the same work keep the server's cores busy: with
        a split check's two sessions on two cores the workers only added the cost of gathering their
        rows."""
        self.pg.execute(b"SET max_parallel_workers_per_gather = 0")
        try:
            yield
        finally:  # in a failed transaction the rollback that follows undoes the SET
            with contextlib.suppress(psycopg.Error):
                self.pg.execute(b"RESET max_parallel_workers_per_gather")

    def _drop_leftover_work(self) -> None:
        """Drop the work schemas of runs whose backend is gone (killed), where this role may."""
        rows = self.raw_rows(
            "SELECT n.nspname FROM pg_catalog.pg_namespace AS n "
            "WHERE n.nspname LIKE 'ldiv_work_%' AND pg_has_role(n.nspowner, 'USAGE')"
        )
        found = [(str(r[0]), m) for r in rows if (m := RUN_WORK_SCHEMA.fullmatch(str(r[0])))]
        if not found:
            return
        alive = {int(r[0]) for r in self.raw_rows("SELECT pid FROM pg_catalog.pg_stat_activity")}
        for name, m in found:
            if int(m.group(1)) not in alive:
                with contextlib.suppress(LdivError):
                    self.raw_rows(render("catalog/drop_work_schema.sql", schema=Ident(name)).sql)

    def exists(self, ref: TableRef) -> bool:
        """As on DuckDB; a session-temporary table (schema ``pg_temp``, which the information schema
        lists under ``pg_temp_N``) is looked up by its exact name."""
        if (ref.schema or "").lower() != TEMP_SCHEMA:
            return super().exists(ref)
        return bool(self.raw_rows("SELECT to_regclass(?) IS NOT NULL", [ref.sql()])[0][0])

    # ------------------------------------------------------------------ executing
    def _statements(self, query: Query) -> list[str]:
        kinds = tuple(sorted((k, param_kind(v)) for k, v in query.params.items()))
        names = frozenset(k for k, kind in kinds if kind != "null")
        sql = query.sql_for(self.dialect)
        # a check's sessions run in threads: the first translates a statement, the others find it cached
        with _TRANSLATING:
            out = translate(sql, self.target, names, ldiv_schema=self.ldiv_schema, kinds=kinds)
        if self._work_schema is not None:  # work tables of parallel_work: unlogged, no autovacuum
            out = unlogged_work(out, self._work_schema)
        if self._hash_refusal is not None and any("pg_temp.ldiv_hash" in st for st in out):
            raise BadInput(
                f"{query.name} hashes with session-temporary functions, which the server refused: "
                f"{self._hash_refusal}",
                privilege_hint(self._hash_refusal)
                if "permission denied" in self._hash_refusal.lower()
                else "ldiv_db keeps its work in temporary objects: use a primary server, not a read-only "
                "standby, and a role without default_transaction_read_only",
            )
        return out

    def _send(self, query: Query) -> Any:
        statements = self._statements(query)
        if self.read_only:
            self._refuse_writes(query.name, query.sql)
        params = _bound(query)
        cur = self.pg.cursor()
        created = -1  # rows of the table the previous statement created from a query
        try:
            with self._hinted(query):
                for sql in statements:
                    if sql.startswith("ANALYZE ") and (
                        (0 <= created < ANALYZE_MIN_ROWS and "lookup" not in query.hints)
                        or "read-whole" in query.hints
                    ):
                        continue  # a small or wholly read work table: statistics would cost more than they save
                    cur.execute(sql.encode(), params if "%(" in sql else None)
                    created = cur.rowcount if (cur.statusmessage or "").startswith("SELECT") else -1
        except psycopg.Error as exc:
            cur.close()
            raise self._error(query.name, query.sql, exc) from None
        return cur

    @contextlib.contextmanager
    def _hinted(self, query: Query) -> Iterator[None]:
        """The settings of the statement's plan hints (:data:`HINT_SETTINGS`) for the block: none over a
        source of at most :data:`SMALL_SOURCE_ROWS` rows."""
        small = self._source_rows is not None and self._source_rows <= SMALL_SOURCE_ROWS
        settings = [] if small else [HINT_SETTINGS[h] for h in sorted(query.hints) if h in HINT_SETTINGS]
        try:
            for name, value in settings:
                self.pg.execute(pgsql.SQL("SET {} = {}").format(pgsql.Identifier(name), pgsql.Literal(value)))
            yield
        finally:  # in a failed transaction block the rollback undoes the SET
            if settings and self.pg.info.transaction_status != psycopg.pq.TransactionStatus.INERROR:
                for name, _ in settings:
                    self.pg.execute(pgsql.SQL("RESET {}").format(pgsql.Identifier(name)))

    def _refuse_writes(self, name: str, sql: str, tables: list[TableRef] | None = None) -> None:
        """Refuse a statement of a read-only command that writes outside ``pg_temp`` (``tables``: what it
        writes, where ``sql`` does not say it)."""
        named = written_tables(sql) if tables is None else [".".join(t.parts[-2:]) for t in tables]
        outside = [t for t in named if not t.lower().startswith(TEMP_SCHEMA + ".")]
        if outside:
            raise LdivError(
                f"{name} would write {', '.join(outside)} in a read-only command",
                "a read writes nothing but session-temporary work tables; please report this",
            )

    def _error(self, name: str, sql: str, exc: psycopg.Error) -> LdivError:
        text = error_message(exc, self._secret)
        if isinstance(exc, pgerr.LockNotAvailable):
            tables = ", ".join(sorted(set(written_tables(sql, reads=True)))) or "a table it uses"
            tables = scrub(tables)
            return BadInput(
                f"{name}: {tables} is locked by another session (waited lock_timeout, then gave up)",
                "wait for the other session to finish (see pg_locks / pg_stat_activity), or raise "
                "LDIV_LOCK_TIMEOUT",
            )
        if isinstance(exc, pgerr.InsufficientPrivilege):
            return BadInput(f"PostgreSQL refused {name}: {text}", privilege_hint(text))
        if str(getattr(exc, "sqlstate", None) or "")[:2] in ("53", "58"):  # resources, the server's files
            env = environment_error(text, "data directory", owner="the PostgreSQL server's ")
            if env is not None:
                return env
        if isinstance(exc, psycopg.OperationalError):
            return ConnectionLost(f"lost the PostgreSQL connection during {name}: {text}", "check the server")
        return LdivError(
            f"query {name} failed: {text}",
            "this is a bug in ldiv_db if the input passed validation; please report it with the query name",
        )

    def df(self, query: Query, *, bulk: bool = False) -> pd.DataFrame:
        """As on DuckDB; a ``bulk`` result whose columns are all integers arrives by ``COPY ... TO
        STDOUT`` as CSV, parsed by pandas, an order of magnitude faster than Python tuples
        and a frame made of them (the same frame: int64, or float64 with NaN where a column holds NULL). Any other result takes the ordinary path."""
        if bulk:
            t0 = time.perf_counter()
            frame = self._copy_frame(query)
            if frame is not None:
                self._last_t0 = t0
                self._log(query, len(frame))
                return frame
        return super().df(query)

    def _copy_frame(self, query: Query) -> pd.DataFrame | None:
        statements = self._statements(query)
        if len(statements) != 1:
            return None
        if self.read_only:
            self._refuse_writes(query.name, query.sql)
        # a rendered template, translated (render.py quotes every name and binds every value)
        sql = pgsql.SQL(statements[0])
        params = _bound(query) if "%(" in statements[0] else None
        try:
            with self.pg.cursor() as cur:
                cur.execute(pgsql.SQL("SELECT * FROM ({}) AS ldiv_bulk LIMIT 0").format(sql), params)
                described = cur.description or []
            self.queries += 1
            if not described or any(d.type_code not in _COPY_TYPES for d in described):
                return None
            copy = pgsql.SQL("COPY ({}) TO STDOUT WITH (FORMAT csv)").format(sql).as_string(self.pg)
            if params:
                copy = psycopg.ClientCursor(self.pg).mogrify(copy, params)
            buf = io.BytesIO()
            with self._hinted(query), self.pg.cursor() as cur, cur.copy(copy.encode()) as out:
                for chunk in out:
                    buf.write(chunk)
            self.queries += 1
        except psycopg.Error as exc:
            raise self._error(query.name, query.sql, exc) from None
        return csv_frame(buf, [d.name for d in described])

    def arrays(self, query: Query, *, bulk: bool = False) -> dict[str, Any]:
        """As on DuckDB; a ``bulk`` result by :meth:`df`'s ``COPY`` path."""
        return numeric_columns(self.df(query, bulk=True)) if bulk else super().arrays(query)

    def _frame(self, cur: Any) -> pd.DataFrame:
        cols = [d.name for d in cur.description or []]
        return pd.DataFrame(cur.fetchall(), columns=cols)

    def _arrays(self, cur: Any) -> dict[str, Any]:
        return numeric_columns(self._frame(cur))

    def insert_frame(self, table: TableRef, frame: pd.DataFrame) -> None:
        """Append a frame to an existing table with COPY (columns matched by name, NaN/None as NULL): in
        the binary format where every column is integer or boolean (pg_frames), else row by row."""
        names, binary = [str(c) for c in frame.columns], None
        cols = pgsql.SQL(", ").join(pgsql.Identifier(c) for c in names)
        sql = pgsql.SQL("SELECT {} FROM {} LIMIT 0").format(cols, pgsql.Identifier(*table.parts))
        try:  # the target's column types, asked only for a frame that could go binary
            with self.pg.cursor() as cur:
                if binary_candidate(frame):
                    described = cur.execute(sql).description or []
                    binary = binary_rows(frame, [d.type_code for d in described])
                    self.queries += 1
        except psycopg.Error as exc:
            raise self._error("insert_frame", sql.as_string(self.pg), exc) from None
        rows = frame_rows(frame) if binary is None else [binary]
        self.copy_rows(table, names, rows, binary=binary is not None)

    def load_file(self, query: Query, target: TableRef) -> int | None:
        """DuckDB (in memory) reads the file with the same template and type detection as a DuckDB
        database; the table is created here with those types and the rows arrive by COPY in batches."""
        with Database.open(":memory:", migrate=False) as duck:
            if target.schema and target.schema != "main":
                duck.run(render("catalog/create_schema.sql", schema=Ident(target.schema)))
            duck.run(query)
            cols = duck.fetch(
                render(
                    "catalog/columns.sql",
                    {"catalog": "memory", "schema": target.schema or "main", "name": target.name},
                ),
                _Col,
            )
            self.run(render("catalog/create_columns.sql", target=target, columns=cols))
            names = [c.name for c in cols]
            for batch in duck.batches(render("catalog/all_rows.sql", source=target)):
                self.copy_rows(target, names, batch)
        return None

    def copy_rows(
        self, table: TableRef, columns: list[str], rows: Iterable[Any], *, binary: bool = False
    ) -> int:
        """Stream rows into a table with COPY (``write_row`` escapes every value), or with ``binary``
        one encoded stream (:func:`binary_rows`); returns the count of rows, or of streams."""
        if self.read_only and (table.schema or "").lower() != TEMP_SCHEMA:
            self._refuse_writes("copy_rows", render("catalog/all_rows.sql", source=table).sql, [table])
        n = 0
        name = pgsql.Identifier(*table.parts)
        cols = pgsql.SQL(", ").join(pgsql.Identifier(c) for c in columns)
        copy_in = pgsql.SQL(
            "COPY {} ({}) FROM STDIN (FORMAT binary)" if binary else "COPY {} ({}) FROM STDIN"
        )
        try:
            with self.pg.cursor() as cur, cur.copy(copy_in.format(name, cols)) as copy:
                send = copy.write if binary else copy.write_row
                for row in rows:
                    send(row)
                    n += 1
            if n:
                # Statistics at once, as for a table created from a query: autovacuum never analyzes
                # temporary work tables, and a table analyzed while empty (created, then filled here)
                # would be planned as tiny — a nested loop against a million-row source.
                with self.pg.cursor() as cur:
                    cur.execute(pgsql.SQL("ANALYZE {}").format(name))
        except psycopg.Error as exc:
            raise self._error("copy_rows", render("catalog/all_rows.sql", source=table).sql, exc) from None
        self.queries += 1
        return n

    def execute_script(self, name: str, sql: str) -> None:
        """Run a fixed multi-statement script (migrations), each statement translated."""
        try:
            with self.pg.cursor() as cur:
                for stmt in translate(sql, self.target, ldiv_schema=self.ldiv_schema):
                    cur.execute(stmt.encode())
        except psycopg.Error as exc:
            raise self._error(name, sql, exc) from None
        self.queries += 1

    def raw_rows(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        """Fixed bookkeeping SQL with bound values; ``?`` placeholders become ``%s``."""
        self.queries += 1
        text = translate(sql, self.target, positional=True, ldiv_schema=self.ldiv_schema)
        try:
            with self.pg.cursor() as cur:
                for stmt in text[:-1]:
                    cur.execute(stmt.encode())
                cur.execute(text[-1].encode(), params)
                return cur.fetchall() if cur.description else []
        except psycopg.Error as exc:
            raise self._error("bookkeeping query", sql, exc) from None

    def set_search_path(self, path: str) -> None:
        raise LdivError("the PostgreSQL engine keeps the server's search_path")

    def _tx_statement(self, sql: str) -> None:
        """BEGIN or COMMIT with its error mapped; ROLLBACK bare."""
        if sql == "ROLLBACK":
            self.pg.execute(b"ROLLBACK")
            return
        with self._engine(sql):
            self.pg.execute(sql.encode())

    def drop_work_tables(self) -> None:
        if self.keep_work:
            return
        for ref in self._work_tables:
            with contextlib.suppress(psycopg.Error):
                self._bare(render("catalog/drop_work_table.sql", target=ref))
        self._work_tables.clear()

    def _bare(self, query: Query) -> None:
        """A fixed statement of the engine's own (work tables), translated, neither counted nor checked."""
        for stmt in translate(query.sql, self.target, ldiv_schema=self.ldiv_schema):
            self.pg.execute(stmt.encode())


@dataclass(frozen=True)
class _Col:
    name: str
    data_type: str
    position: int
