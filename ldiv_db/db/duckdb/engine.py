"""The DuckDB engine (the embedded default) and the interface every engine provides (:mod:`ldiv_db.db`).
Other engines subclass :class:`Database` and register their opener (:func:`register_engine`)."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import numpy as np
import pandas as pd

from ...errors import BadInput, InternalError, LdivError, StorageError
from ...schema.state import prepare
from ...sqlgen.render import Query, TableRef, quote, render
from ...util import interrupts
from ..engine_errors import engine_error, first_line
from ..owners import RunOwners
from ..targets import database_target
from ..urls import check_database_file
from . import sharing
from .memory import memory_bound

T = TypeVar("T")

WORK_SCHEMA = "ldiv_work"
# the schema of one run's work tables on an engine that gives each run its own (PostgreSQL's parallel_work)
RUN_WORK_SCHEMA = re.compile(r"ldiv_work_(\d+)_[0-9a-f]{8}", re.IGNORECASE)


def ldiv_schema_name(name: str) -> bool:
    """Whether ``name`` is one of ldiv_db's own schemas, closed to user commands: ``ldiv`` (its records),
    ``ldiv_work`` (work tables kept with ``--keep-work``) or a run's own work schema."""
    return name.lower() in ("ldiv", WORK_SCHEMA) or RUN_WORK_SCHEMA.fullmatch(name) is not None


# a run over a source of at most this many rows uses one DuckDB thread (:meth:`Database.threads_for`)
SMALL_SOURCE_ROWS = 100_000


@dataclass(frozen=True)
class Step:
    template: str
    sql_hash: str
    rows: int
    ms: float


EngineOpener = Callable[..., "Database"]
_ENGINES: list[tuple[Callable[[str], bool], EngineOpener]] = []


def register_engine(accepts: Callable[[str], bool], opener: EngineOpener) -> None:
    """Let :meth:`Database.open` hand a ``DB`` string that ``accepts`` to ``opener`` (called with the
    string and the keywords ``mode``, ``attach``, ``migrate``); anything no engine accepts is a DuckDB
    file."""
    _ENGINES.append((accepts, opener))


class Database(RunOwners):
    """One DuckDB connection plus ldiv_db's bookkeeping (the embedded default engine)."""

    dialect = "duckdb"
    default_schema = "main"
    transactional = True
    embedded = True  # the data sits in this process: frames and Python work beside the SQL move for free
    lists_only_granted_tables = False  # the catalog lists only what this role may read (PostgreSQL)
    reads_files = True  # table functions read files beside the database (read_parquet, read_csv)
    driver_error: type[Exception] = duckdb.Error
    stats_from_source = (
        False  # group statistics from the source (partition/source_stats.sql) cost DuckDB more
    )
    # the first provisional row id of a row an open transaction wrote (DuckDB's MAX_ROW_ID; renumbered
    # at commit): catalog.require_row_ids refuses such rows. None: an engine's row ids are final at once
    local_row_base: int | None = 36_028_797_018_960_000

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str | None, *, owned: bool) -> None:
        self.con = con
        self.path = path
        self._owned = owned
        self.queries = 0
        self.rows_fetched = 0  # rows that crossed into Python (fetches, not statements' own work)
        self.steps: list[Step] = []
        self.keep_work = False
        self._in_tx = False
        self._committing: list[str] = []  # what the open transaction wrote (on_commit)
        self._work_tables: list[TableRef] = []
        self._last_t0 = 0.0
        self._scratch: list[str] = []
        self._search_path: str | None = None
        self._attached: dict[str, Path] = {}
        self._threads_before: int | None = None  # the setting threads_for lowered, to put back
        self._thread: int | None = None  # the thread it serves (:mod:`.sharing`; None: whichever uses it)
        self._own_cursor = False  # a cursor for another thread's call: closed with it, the instance not
        self._created = False  # open created the file: removed by close when the disk filled first
        self._created_file = False  # open created the file: removed by close(failed=True)
        self._disk_failed = False
        self._path_set: str | None = None  # the search path ldiv_db set here (a cursor gets it too)

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(
        cls,
        target: Any,
        *,
        mode: str = "write",
        attach: Mapping[str, str] | None = None,
        migrate: bool = True,
    ) -> Database:
        """Open a database file, or wrap an existing connection (a Database is returned as it is, to the
        thread that opened it; another thread's call gets a cursor of its own: :mod:`.sharing`).

        ``mode="write"`` (load, hierarchy import/build, anonymize, release append, run): the file is
        created if missing and migrated. ``mode="read"`` (every other command): the file must exist and
        is opened read-only; nothing is created or migrated (:func:`ldiv_db.schema.state.prepare`). ``migrate=
        False`` skips the schema rule (tests, doctor). Objects: :func:`.targets.database_target`."""
        if isinstance(target, Database):
            return target if target._thread in (None, threading.get_ident()) else target.for_thread()
        if mode not in ("read", "write"):
            raise ValueError(f"mode must be 'read' or 'write', not {mode!r}")
        target = database_target(target)  # a tool's wrapper unwrapped; an unknown object refused
        if isinstance(target, str):
            for accepts, opener in _ENGINES:
                if accepts(target):
                    opened: Database = opener(target, mode=mode, attach=attach, migrate=migrate)
                    opened._thread = threading.get_ident()
                    return opened
        created = isinstance(target, str) and target != ":memory:" and not Path(target).exists()
        if isinstance(target, duckdb.DuckDBPyConnection):
            if sharing.first_caller(target):
                db = cls(target, None, owned=False)
            else:
                db = cls(sharing.own_cursor(target, None), None, owned=True)
                db._own_cursor = True
        else:
            db = cls(sharing.connect_file(target, mode), target, owned=True)
        db._thread = threading.get_ident()
        try:
            for alias, file in (attach or {}).items():
                db.attach(alias, file)
            if migrate:
                prepare(db, mode)
        except BaseException:
            db._created = db._created_file = created
            db.close(failed=True)
            raise
        db._created = db._created_file = created  # the migrations' commits are ldiv_db's own
        return db

    def for_thread(self) -> Database:
        """This database for a call from a thread other than the one it serves: a cursor of its own
        (:mod:`.sharing`), closed when the call ends. Engines without cursors refuse."""
        if self.dialect != "duckdb":
            raise sharing.other_thread_refused(self.dialect)
        db = type(self)(sharing.own_cursor(self.con, self._path_set), self.path, owned=True)
        db._own_cursor, db._thread, db.keep_work = True, threading.get_ident(), self.keep_work
        return db

    @contextlib.contextmanager
    def scratch_catalog(self, alias: str, *, keep: bool = False) -> Iterator[None]:
        """Run the block with a new in-memory catalog ``alias`` as the current database (this works on a
        read-only connection too). It is detached afterwards, unless ``keep``: then it stays attached
        until :meth:`close` (which detaches it from a connection we do not own)."""
        current = self.con.execute("SELECT current_database()").fetchall()[0][0]
        self._remember_search_path()
        self.con.execute(f"ATTACH ':memory:' AS {quote(alias)} (READ_WRITE)")
        self.con.execute(f"USE {quote(alias)}")
        try:
            yield
        finally:
            self.con.execute(f"USE {quote(str(current))}")
            if keep:
                self._scratch.append(alias)
            else:
                self.con.execute(f"DETACH {quote(alias)}")
                self._restore_search_path()

    def _remember_search_path(self) -> None:
        if self._search_path is None:
            self._search_path = str(
                self.con.execute("SELECT current_setting('search_path')").fetchall()[0][0]
            )

    def set_search_path(self, path: str) -> None:
        self._remember_search_path()
        self.con.execute("SET search_path = " + "'" + path.replace("'", "''") + "'")
        self._path_set = path

    def _restore_search_path(self) -> None:
        if self._search_path == "":
            self.con.execute("RESET search_path")
        elif self._search_path is not None:
            self.con.execute("SET search_path = " + "'" + self._search_path.replace("'", "''") + "'")
        self._search_path = self._path_set = None

    def _undo_scratch(self) -> None:
        """Leave a connection we do not own as we found it."""
        with contextlib.suppress(duckdb.Error):
            self._restore_search_path()
            for alias in [*self._scratch, *self._attached]:
                self.con.execute(f"DETACH {quote(alias)}")
        self._scratch.clear()
        self._attached.clear()

    def attach(self, alias: str, file: str, read_only: bool = True) -> None:
        """Attach ``file`` as ``alias`` (the one place --attach is checked): the file is a DuckDB
        database, not the main one nor one attached already, and the alias names no catalog or schema
        the connection knows (nor one ldiv_db reserves: ldiv...), so no name becomes ambiguous."""
        if not Path(file).exists():
            raise BadInput(f"cannot attach {file}: no such file", "check the PATH of --attach NAME=PATH")
        check_database_file(file, f"file attached as {alias}:")
        real = Path(file).resolve()
        if self.path not in (None, ":memory:") and real == Path(self.path).resolve():
            raise BadInput(
                f"cannot attach {file} as {alias}: it is the main database of this command",
                "name its tables directly (without an alias); attach only other databases",
            )
        if real in self._attached.values():
            other = next(a for a, f in self._attached.items() if f == real)
            raise BadInput(
                f"cannot attach {file} as {alias}: it is attached already as {other}",
                f"attach each file once and name its tables {other}.schema.table",
            )
        taken = {
            str(r[0]).lower()
            for r in self.con.execute(
                "SELECT database_name FROM duckdb_databases() UNION SELECT schema_name FROM duckdb_schemas()"
            ).fetchall()
        }
        if alias.lower() in taken | {"system", "temp"} or alias.lower().startswith("ldiv"):
            raise BadInput(
                f"cannot attach {file} as {alias!r}: that name is taken by a database or schema "
                "(or reserved for ldiv_db's own schemas: ldiv...)",
                "choose another NAME in --attach NAME=PATH",
            )
        opts = " (READ_ONLY)" if read_only else ""
        try:
            self.con.execute(f"ATTACH $path AS {quote(alias)}{opts}", {"path": file})
        except duckdb.Error as exc:
            raise BadInput(f"cannot attach {file} as {alias}: {first_line(exc)}") from None
        self._attached[alias] = real

    def close(self, *, failed: bool = False) -> None:
        """``failed``: the command failed: a file this open created goes once no other connection of
        this process holds it (:mod:`.sharing`), as does one whose disk filled before a user commit."""
        if not self._owned or self._own_cursor:  # the instance stays: leave it as it was
            self.restore_threads()
        if self._scratch or self._attached:  # catalogs are the instance's: another connection may stay
            self._undo_scratch()
        if not self._owned:
            return
        try:
            with self._engine("closing the database"):  # a close writes a checkpoint
                self.con.close()
        finally:
            last = sharing.release(self.con)
            if last and ((failed and self._created_file) or (self._created and self._disk_failed)):
                sharing.remove_database_file(str(self.path))

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.drop_work_tables()
        self.close(failed=exc[0] is not None)

    # ------------------------------------------------------------------ executing
    def _execute(self, query: Query) -> Any:
        """Send one statement; returns the driver's cursor (``fetchall``, ``description``)."""
        t0 = time.perf_counter()
        cur = self._send(query)
        self.queries += 1
        self._last_t0 = t0
        return cur

    def _send(self, query: Query) -> Any:
        with self._engine(f"query {query.name}"):
            return self.con.execute(query.sql, dict(query.params) if query.params else None)

    @contextlib.contextmanager
    def _engine(self, what: str) -> Iterator[None]:
        """Run DuckDB calls (``what``: for the message), their errors told apart by the one mapping,
        :func:`~ldiv_db.db.engine_errors.engine_error`: the user's Ctrl-C, the user's environment (a full
        disk, a directory that may not be written), a busy connection, or a failed statement (a bug)."""
        try:
            yield
        except LdivError:
            raise
        except (duckdb.Error, RuntimeError, self.driver_error) as exc:
            mapped = engine_error(exc, what, self.path)
            self._disk_failed |= isinstance(mapped, StorageError)
            if mapped is exc:
                raise
            raise mapped from (exc if type(mapped) is LdivError else None)

    def _frame(self, cur: Any) -> pd.DataFrame:
        frame: pd.DataFrame = cur.df()
        return frame

    def _arrays(self, cur: Any) -> dict[str, Any]:
        """DuckDB hands numpy columns over without building a pandas frame (~5 ms less on 30,000 rows of
        ten integers); a NULL arrives masked."""
        out: dict[str, Any] = {}
        for name, col in cur.fetchnumpy().items():
            if isinstance(col, np.ma.MaskedArray):
                if col.mask.any():
                    raise InternalError(f"column {name} of a numeric result holds NULL")
                col = col.data
            out[name] = col
        return out

    def _log(self, query: Query, rows: int) -> None:
        ms = (time.perf_counter() - self._last_t0) * 1000.0
        digest = hashlib.sha1(query.sql.encode()).hexdigest()[:12]
        self.steps.append(Step(query.name, digest, rows, ms))
        self.rows_fetched += max(rows, 0)

    def run(self, query: Query) -> None:
        """Execute a statement that returns nothing of interest (DDL, INSERT)."""
        self._execute(query)
        self._log(query, -1)

    def rows(self, query: Query, *, bulk: bool = False) -> list[tuple[Any, ...]]:
        cur = self._execute(query)
        with self._engine(f"query {query.name}"):
            out: list[tuple[Any, ...]] = cur.fetchall()
        self._log(query, len(out))
        return out

    def one(self, query: Query) -> tuple[Any, ...]:
        out = self.rows(query)
        if len(out) != 1:
            raise LdivError(f"query {query.name} returned {len(out)} rows, expected one")
        return out[0]

    def scalar(self, query: Query) -> Any:
        return self.one(query)[0]

    def records(self, query: Query, *, bulk: bool = False) -> list[dict[str, Any]]:
        cur = self._execute(query)
        cols = [d[0] for d in cur.description or []]
        with self._engine(f"query {query.name}"):
            out = [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
        self._log(query, len(out))
        return out

    def fetch(self, query: Query, cls: type[T]) -> list[T]:
        """Rows mapped onto a dataclass by column name (extra columns are an error)."""
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        out: list[T] = []
        for rec in self.records(query):
            unknown = rec.keys() - names
            if unknown:
                raise LdivError(f"query {query.name} returned unexpected columns {sorted(unknown)}")
            out.append(cls(**rec))
        return out

    def df(self, query: Query, *, bulk: bool = False) -> pd.DataFrame:
        """The result as a pandas frame. ``bulk``: a result that grows with the source, which an engine may
        fetch by another path (PostgreSQL: ``COPY``; Spark: in batches); DuckDB hands every frame over."""
        cur = self._execute(query)
        with self._engine(f"query {query.name}"):
            frame = self._frame(cur)
        self._log(query, len(frame))
        return frame

    def arrays(self, query: Query, *, bulk: bool = False) -> dict[str, Any]:
        """The columns of a result without NULLs as numpy arrays, by column name (``bulk``: as :meth:`df`)."""
        cur = self._execute(query)
        with self._engine(f"query {query.name}"):
            out = self._arrays(cur)
        self._log(query, len(next(iter(out.values()))) if out else 0)
        return out

    def insert_frame(self, table: TableRef, frame: pd.DataFrame) -> None:
        """Append a pandas frame to an existing table (columns matched by name)."""
        view = f"ldiv_frame_{id(frame)}"
        self.con.register(view, frame)
        try:
            cols = ", ".join(quote(str(c)) for c in frame.columns)
            with self._engine(f"inserting rows into {table.sql()}"):
                self.con.execute(f"INSERT INTO {table.sql()} ({cols}) SELECT {cols} FROM {quote(view)}")  # noqa: S608
            self.queries += 1
        finally:
            self.con.unregister(view)

    def batches(self, query: Query, size: int = 50_000) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of ``query`` in batches of at most ``size`` (a bulk transfer without one big list)."""
        cur = self._execute(query)
        n = 0
        while True:
            with self._engine(f"query {query.name}"):
                batch = cur.fetchmany(size)
            if not batch:
                break
            n += len(batch)
            yield batch
        self._log(query, n)

    def load_file(self, query: Query, target: TableRef) -> None:
        """Create ``target`` from a file-reading template (``catalog/load_csv.sql`` /
        ``load_parquet.sql``, rendered with ``target``): DuckDB reads the file itself."""
        self.run(query)

    def execute_script(self, name: str, sql: str) -> None:
        """Run a multi-statement script (migrations only)."""
        with self._engine(name):
            self.con.execute(sql)
        self.queries += 1

    def raw_rows(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Fixed bookkeeping SQL with bound values (migrations); user names never reach it."""
        self.queries += 1
        with self._engine("a bookkeeping query"):
            return self.con.execute(sql, params).fetchall()

    # ------------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing: commit on success, roll back on any exception (Ctrl-C included) before the
        COMMIT completed. Nested calls join the outer one. The COMMIT is THE commit point
        (:func:`ldiv_db.util.interrupts.atomic`): Ctrl-C is held across it, and what the block wrote
        (:meth:`on_commit`) is noted as committed before a held Ctrl-C is raised."""
        if self._in_tx:
            yield
            return
        self._in_tx = True
        try:
            with interrupts.atomic(self._tx_statement, self.driver_error) as self._committing:
                yield
            self._created = False  # the user's data is committed to the file now: close keeps it
        finally:
            self._in_tx = False

    def _tx_statement(self, sql: str) -> None:
        """BEGIN or COMMIT with its error mapped (a full disk at COMMIT is the user's); ROLLBACK bare."""
        if sql == "ROLLBACK":
            self.con.execute(sql)
            return
        with self._engine(sql):
            self.con.execute(sql)

    def on_commit(self, what: str) -> None:
        """Note ``what`` (a release) as committed once the open transaction commits (at once outside one)."""
        if self._in_tx:
            self._committing.append(what)
        else:
            interrupts.note_committed(what)

    @contextlib.contextmanager
    def threads_for(self, rows: int) -> Iterator[None]:
        """Run the block with DuckDB's thread count suited to a source of ``rows`` rows: one thread up to
        :data:`SMALL_SOURCE_ROWS` (a release of a small table is ~50 statements of a few ms each, where
        handing work between threads costs more than it saves: bench/README.md, issue 12), the setting
        as it was above that, with the buffer pool bounded (:mod:`.memory`). PostgreSQL: above that, the block's work tables are made where it scans
        them with parallel workers (``PostgresDatabase.parallel_work``); Spark: unchanged.

        A change of the setting costs 2-5 ms (DuckDB stops or starts its worker threads), so after a small
        source the setting stays at one thread for the next small one: it is put back before a large
        source's block and when this :class:`Database` is closed (:meth:`restore_threads`); a connection
        ldiv_db was handed (``Database.open(connection)``) gets its setting back when ldiv_db is done."""
        if self.dialect != "duckdb":
            yield
            return
        if rows > SMALL_SOURCE_ROWS:  # every thread, and a bounded buffer pool (:mod:`.memory`)
            self.restore_threads()
            with memory_bound(self.con):
                yield
            return
        if self._threads_before is None:
            before = int(self.con.execute("SELECT current_setting('threads')").fetchall()[0][0])
            if before != 1:
                self.con.execute("SET threads = 1")
                self._threads_before = before
        yield

    def restore_threads(self) -> None:
        """Put DuckDB's thread setting back as it was before :meth:`threads_for` lowered it."""
        before, self._threads_before = self._threads_before, None
        if before is not None:
            with contextlib.suppress(duckdb.Error):
                self.con.execute(f"SET threads = {before}")

    # ------------------------------------------------------------------ a second reader
    def side_reader(self, rows: int | None = None) -> Database | None:
        """A second connection to the same database, for reads of committed tables that run in another
        thread beside this connection's statements (its own work tables; closed by :meth:`close`); None
        where the engine has none (``rows``: the source's size, for an engine that opens one only for a
        large source). It sees what this connection has committed, with the same current
        database and search path (names resolve as here); its step log and statement count are this one's to merge (:meth:`absorb`)."""
        if self.dialect != "duckdb":
            return None
        current, path = self.con.execute(
            "SELECT current_database(), current_setting('search_path')"
        ).fetchall()[0]
        cur = self.con.cursor()
        cur.execute(f"USE {quote(str(current))}")
        if path:
            cur.execute("SET search_path = '" + str(path).replace("'", "''") + "'")
        return type(self)(cur, self.path, owned=True)

    def warm_conversions(self) -> None:
        """Convert one small result to pandas and numpy in this thread: the libraries import modules on
        first use, and a Ctrl-C that lands in such an import in one thread while another thread waits
        for the same module can leave both waiting for good. Called before a second thread starts."""
        if self.dialect == "duckdb":
            self.con.execute("SELECT 'x' AS s, 1 AS n, 1.5 AS f").df()
            self.con.execute("SELECT 'x' AS s, 1 AS n").fetchnumpy()

    def absorb(self, side: Database) -> None:
        """Count a side reader's statements and log its steps as this connection's."""
        self.queries += side.queries
        self.rows_fetched += side.rows_fetched
        self.steps.extend(side.steps)
        side.steps.clear()

    def snapshot_sessions(
        self, rows: int, *, split: bool = True
    ) -> contextlib.AbstractContextManager[list[Database]]:
        """Sessions reading one snapshot, among which a read of ``rows`` source rows is split by group
        (``check``; ``split=False``: one session, for a read that cannot be split); here this one alone,
        as DuckDB runs each statement on all its threads. PostgreSQL opens more for a large source
        (:meth:`PostgresDatabase.snapshot_sessions`)."""
        return contextlib.nullcontext([self])

    def interrupt(self) -> None:
        """Cancel the statement this session runs in another thread."""
        self.con.interrupt()

    def sharing_cores(self) -> contextlib.AbstractContextManager[None]:
        """A block whose statements run beside other sessions' (a split check's parts)."""
        return contextlib.nullcontext()

    # ------------------------------------------------------------------ work tables
    def work_table(self, name: str) -> TableRef:
        """A name for an intermediate table: temporary by default, schema ldiv_work with keep_work."""
        if self.keep_work:
            with self._engine(f"creating schema {WORK_SCHEMA}"):
                self.con.execute(f"CREATE SCHEMA IF NOT EXISTS {quote(WORK_SCHEMA)}")
            ref = TableRef(name, WORK_SCHEMA)
        else:
            ref = self._temp_ref(name)
        if ref not in self._work_tables:
            self._work_tables.append(ref)
        return ref

    def _temp_ref(self, name: str) -> TableRef:
        return TableRef(name, "main", "temp")

    def refuse_table_name(self, ref: TableRef, release: TableRef) -> None:
        """Refuse, before any work, a table of ``release`` whose name this engine's catalog cannot hold
        (any name here)."""

    def private_ref(self, name: str) -> TableRef:
        """ldiv_db's own table ``name`` in the ``ldiv`` schema (a stream's kept-back rows, its row keys),
        spelled as this engine's catalog accepts it (any name here)."""
        return TableRef(name, "ldiv")

    def require(self, command: str, detail: str | None = None) -> None:
        """Refuse, with the reason, a command this engine cannot run (every command runs on DuckDB)."""

    def drop_work_tables(self) -> None:
        if self.keep_work:
            return
        for ref in self._work_tables:
            with contextlib.suppress(self.driver_error):
                self.con.execute(f"DROP TABLE IF EXISTS {ref.sql()}")
        self._work_tables.clear()

    # ------------------------------------------------------------------ audit
    def flush_steps(self, run_id: int) -> None:
        """Write the collected step log to ldiv.run_step (one batched insert) and reset it."""
        if not self.steps:
            return
        frame = pd.DataFrame(
            {
                "run_id": run_id,
                "step_no": range(1, len(self.steps) + 1),
                "template": [s.template for s in self.steps],
                "sql_hash": [s.sql_hash for s in self.steps],
                "rows": [s.rows for s in self.steps],
                "ms": [round(s.ms, 3) for s in self.steps],
            }
        )
        self.insert_frame(TableRef("run_step", "ldiv"), frame)
        self.steps.clear()

    def exists(self, ref: TableRef) -> bool:
        key = {"catalog": ref.catalog, "schema": ref.schema or "main", "name": ref.name}
        return bool(self.scalar(render("catalog/table_exists.sql", key)))
