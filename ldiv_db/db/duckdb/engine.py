"""The DuckDB engine, the embedded default: one DuckDB connection (a file, ``:memory:``, or a connection
another tool hands over) behind :class:`ldiv_db.db.base.Database`. Templates run as written (they are in
DuckDB's dialect); frames are read in place; threads share a connection through cursors (:mod:`.sharing`)."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Hashable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from ...errors import BadInput, InternalError
from ...schema.state import prepare
from ...sqlgen.render import Ident, Query, TableRef, render
from ...util.lazy import library
from ..base import SMALL_SOURCE_ROWS, WORK_SCHEMA, Database
from ..engine_errors import first_line
from ..urls import check_database_file
from . import sharing
from .memory import IDLE_MEMORY_LIMIT, memory_bound
from .targets import database_target

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:
    np = library("numpy")
    pd = library("pandas")

# DuckDB's first provisional row id of a row an open transaction wrote (MAX_ROW_ID; renumbered at commit)
_LOCAL_ROW_BASE = 36_028_797_018_960_000
_FRAMES = itertools.count()  # names of the views of frames being read
# lookups whose answer is a fact of the file alone: the columns of one of its tables, and ldiv_db's records in
# it (a table's owner, an SA's categories, a release's details). On a file open read-only they are kept for
# the connection's life (:meth:`DuckDBDatabase._fact_key`): a check in a loop reads them once
FILE_FACTS = frozenset(
    {"catalog/columns.sql", "ownership/owner.sql", "taxonomy/categories_for.sql", "meta/release_details.sql"}
)
# lookups whose answer holds while the catalog this connection sees is unchanged: the table list, and a
# table's NULL counts where every table listed is a base table of the read-only file
# (:meth:`DuckDBDatabase._catalog_rows`)
CATALOG_FACTS = frozenset({"catalog/tables.sql", "catalog/null_counts.sql"})
_TABLES_KEY = "catalog/tables.sql"  # the table list's key among the CATALOG_FACTS kept (it has no params)
# statements that change nothing (plain SELECTs, no target): any other statement may create, drop or attach
# something, and the CATALOG_FACTS kept are forgotten when it is sent
PURE_READS = (
    FILE_FACTS
    | CATALOG_FACTS
    | {"catalog/databases.sql", "partition/source_shapes.sql", "partition/source_profile.sql"}
    | {"partition/shapes.sql", "partition/group_keys.sql"}
)
KEPT_PARSES = 32  # PURE_READS statements kept parsed per connection (a check of one table issues 3 to 8)


def open_duckdb(target: Any, *, mode: str, attach: Mapping[str, str] | None, migrate: bool) -> DuckDBDatabase:
    """The default engine's opener (:func:`ldiv_db.db.base.register_engine`): a file path (created if
    missing in write mode), ``:memory:``, or a connection / a tool's wrapper of one
    (:func:`.targets.database_target`; anything else is refused by name)."""
    return DuckDBDatabase.connect(database_target(target), mode=mode, attach=attach, migrate=migrate)


class DuckDBDatabase(Database):
    """One DuckDB connection plus ldiv_db's bookkeeping."""

    dialect = "duckdb"
    embedded = True  # the data sits in this process: frames and Python work beside the SQL move for free
    reads_files = True  # table functions read files beside the database (read_parquet, read_csv)
    keys_row_ids = True  # order/seeded_source.sql keys the row id itself
    temp_catalog = "temp"
    driver_error: type[Exception] = duckdb.Error
    stats_from_source: bool | int = SMALL_SOURCE_ROWS  # above it they cost DuckDB more
    inline_statistics = True  # what stats_from_source serves is small: its statistics are never stored
    local_row_base = _LOCAL_ROW_BASE
    byte_collation = True  # COLLATE C (binary) overrides a column's NOCASE
    collations_in_catalog = True  # a table's definition, a view's query or default_collation
    bitmap_count_range = 1 << 27  # bitstring_agg: a bitmap of at most 16 MiB per thread

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str | None, *, owned: bool) -> None:
        super().__init__(path)
        self.con = con
        self._owned = owned
        self._scratch: list[str] = []
        self._search_path: str | None = None
        self._attached: dict[str, Path] = {}
        self._threads_before: int | None = None  # the setting threads_for lowered, to put back
        self._large_run = False  # inside threads_for's block for a large source (holding_little acts)
        self._own_cursor = False  # a cursor for another thread's call: closed with it, the instance not
        self._created = False  # open created the file: removed by close when the disk filled first
        self._created_file = False  # open created the file: removed by close(failed=True)
        self._path_set: str | None = None  # the search path ldiv_db set here (a cursor gets it too)
        self._file_catalog: str | None = None  # the file's catalog, where nothing writes it while open
        self._facts: dict[Hashable, tuple[Any, ...]] = {}  # FILE_FACTS answers read so far
        self._catalog: dict[Hashable, tuple[Any, ...]] = {}  # CATALOG_FACTS answers, until a change
        self._catalog_state: str | None = None  # catalog/databases.sql's path row, when the list is kept
        self._parser: duckdb.DuckDBPyConnection | None = None  # a cursor that parses PURE_READS (_statement)
        self._parsed: dict[str, duckdb.Statement] = {}  # their parses, by text

    # ------------------------------------------------------------------ opening
    @classmethod
    def connect(
        cls,
        target: str | duckdb.DuckDBPyConnection,
        *,
        mode: str = "write",
        attach: Mapping[str, str] | None = None,
        migrate: bool = True,
    ) -> DuckDBDatabase:
        """Open a database file, or wrap an existing connection (another thread's call on one that ldiv_db
        already serves gets a cursor of its own: :mod:`.sharing`). ``mode="read"``: the file must exist
        and is opened read-only."""
        created = isinstance(target, str) and target != ":memory:" and not Path(target).exists()
        if isinstance(target, duckdb.DuckDBPyConnection):
            if sharing.first_caller(target):
                db = cls(target, None, owned=False)
            else:
                db = cls(sharing.own_cursor(target, None), None, owned=True)
                db._own_cursor = True
        else:
            db = cls(sharing.connect_file(target, mode), target, owned=True)
            if sharing.read_only(db.con):
                db._file_catalog = str(db.con.execute("SELECT current_database()").fetchall()[0][0])
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
        """This database for another thread's call: a cursor of its own (:mod:`.sharing`), closed with it."""
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
        self._session("session/attach.sql", {"path": ":memory:"}, alias=Ident(alias), mode="read_write")
        self._session("session/use.sql", catalog=Ident(alias))
        try:
            yield
        finally:
            self._session("session/use.sql", catalog=Ident(str(current)))
            if keep:
                self._scratch.append(alias)
            else:
                self._session("session/detach.sql", alias=Ident(alias))
                self._restore_search_path()

    def _session(self, name: str, params: Mapping[str, Any] | None = None, **ctx: Any) -> None:
        """A statement about the connection itself (``sql/session/``): not counted, not in the step log."""
        q = render(name, params, **ctx)
        self._catalog.clear()  # an attach, a detach or a USE changes what names resolve to
        self.con.execute(q.sql, dict(q.params) or None)

    def _remember_search_path(self) -> None:
        if self._search_path is None:
            self._search_path = str(
                self.con.execute("SELECT current_setting('search_path')").fetchall()[0][0]
            )

    def set_search_path(self, path: str) -> None:
        self._catalog.clear()
        self._remember_search_path()
        self.con.execute("SET search_path = $path", {"path": path})
        self._path_set = path

    def _restore_search_path(self) -> None:
        self._catalog.clear()
        if self._search_path == "":
            self.con.execute("RESET search_path")
        elif self._search_path is not None:
            self.con.execute("SET search_path = $path", {"path": self._search_path})
        self._search_path = self._path_set = None

    def _undo_scratch(self) -> None:
        """Leave a connection we do not own as we found it."""
        with contextlib.suppress(duckdb.Error):
            self._restore_search_path()
            for alias in [*self._scratch, *self._attached]:
                self._session("session/detach.sql", alias=Ident(alias))
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
        mode = "read_only" if read_only else None
        try:
            self._session("session/attach.sql", {"path": file}, alias=Ident(alias), mode=mode)
        except duckdb.Error as exc:
            raise BadInput(f"cannot attach {file} as {alias}: {first_line(exc)}") from None
        self._attached[alias] = real

    def close(self, *, failed: bool = False) -> None:
        """``failed``: the command failed: a file this open created goes once no other connection of
        this process holds it (:mod:`.sharing`), as does one whose disk filled before a user commit."""
        if not self._owned or self._own_cursor:  # the instance stays: leave it as it was
            self.restore_threads()
        if self._parser is not None:
            with contextlib.suppress(duckdb.Error):
                self._parser.close()
            self._parser = None
            self._parsed.clear()
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

    # ------------------------------------------------------------------ executing
    def _send(self, query: Query) -> Any:
        if query.name not in PURE_READS:
            self._catalog.clear()
        with self._engine(f"query {query.name}"):
            return self.con.execute(self._statement(query), dict(query.params) if query.params else None)

    def _statement(self, query: Query) -> duckdb.Statement | str:
        """What :meth:`_send` runs: a PURE_READS statement parsed once per connection and kept by its text (a
        repeated check skips DuckDB's parser); any other one as text. A parse names no table: DuckDB binds
        and plans a kept parse on every run as it does a text, so a temporary table, an attach or a search
        path changed since is seen as it would be (a prepared plan would be no shortcut: DuckDB binds again
        one that scans a table). Parses are made on a cursor of their own, on DuckDB's default session
        settings, so a parser setting changed on ``con`` (integer_division) cannot make a kept parse read
        otherwise than a new one: these statements always read as written (docs/decisions/0031, Round 6)."""
        if query.name not in PURE_READS:
            return query.sql
        parsed = self._parsed.get(query.sql)
        if parsed is None:
            if self._parser is None:
                self._parser = self.con.cursor()
            statements = self._parser.extract_statements(query.sql)
            if len(statements) != 1:
                return query.sql
            if len(self._parsed) >= KEPT_PARSES:
                del self._parsed[next(iter(self._parsed))]  # the oldest
            parsed = self._parsed[query.sql] = statements[0]
        return parsed

    def _fact_key(self, query: Query) -> Hashable | None:
        """The key under which the answer of ``query`` is kept, or None where it is read anew: only a
        :data:`FILE_FACTS` lookup on a file open read-only (no write reaches the file, nor ldiv_db's records
        in it or in a read's empty stand-in for them, while this connection is open), and a table's
        columns only in the file's own catalog (an attached or temporary one may change)."""
        if self._file_catalog is None or query.name not in FILE_FACTS:
            return None
        params = tuple(sorted(query.params.items()))
        if query.name == "catalog/columns.sql" and dict(params).get("catalog") != self._file_catalog:
            return None
        key = (query.name, query.sql, params)
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def _catalog_rows(self, query: Query) -> list[tuple[Any, ...]] | None:
        """A CATALOG_FACTS lookup's rows kept from before, or None where it is read anew (and kept where it
        may be). Kept only on a file ldiv_db opened read-only, while ``catalog/databases.sql`` shows that
        file alone but for the in-memory catalogs this connection attached for itself
        (:meth:`scratch_catalog`: a read's stand-in for ldiv_db's records) — no other database attached:
        another connection of this process can attach one, and an attached one may be written — and no
        statement but a PURE_READS one went out on this connection since (a temporary table, a view of a
        frame, a USE or a search path changes the list); as SQL sent on ``con`` itself passes by that
        tracking, the same statement also shows, on every call, that no temporary table or view exists and
        that the schema and search path are the ones the list was kept under. Then nothing can add, drop or change a table the
        list shows: DuckDB's lock keeps other processes' writes out of the file. A table's NULL counts are
        kept where every table listed is a base table (no view, whose rows may come from a file, and no
        temporary table): the rows of any table the statement can name cannot change while it is open."""
        if self._file_catalog is None:
            return None
        tables = _TABLES_KEY
        if query.name == "catalog/tables.sql":
            found = super().rows(render("catalog/databases.sql"))
            seen = {(str(n), bool(ro)) for kind, n, ro in found if kind == "database"}
            # SQL sent on the connection itself (``Database.con``) passes by _send: what it can change on a
            # read-only file (a temporary object, a USE, the search path) is read here on every call
            temporary = any(kind == "temporary" for kind, _, _ in found)
            state = next(str(n) for kind, n, _ in found if kind == "path")
            if temporary or seen - {(a, False) for a in self._scratch} != {(self._file_catalog, True)}:
                self._catalog.clear()
                return None
            if state != self._catalog_state:  # another schema or search path: the list read anew
                self._catalog.clear()
                self._catalog_state = state
            key: Hashable = tables
        else:
            listed = self._catalog.get(tables)
            if query.params or listed is None or any(r[3] != "BASE TABLE" for r in listed):
                return None
            key = (query.name, query.sql)  # the statement names its table and columns; it has no params
        if key not in self._catalog:
            self._catalog[key] = tuple(super().rows(query))
        return list(self._catalog[key])

    def _unmade(self, refs: Sequence[TableRef]) -> list[TableRef]:
        """The temporary work tables of ``refs`` that the table list kept (:meth:`_catalog_rows`) does not
        show: none of them exists, as every statement that could have made one since would have dropped
        the list, so there is nothing to drop (a check names its statistics' tables and builds none)."""
        listed = self._catalog.get(_TABLES_KEY)
        if listed is None:
            return []
        temporary = {(str(r[1]).lower(), str(r[2]).lower()) for r in listed if r[0] == self.temp_catalog}
        return [
            r
            for r in refs
            if r.catalog == self.temp_catalog and ((r.schema or "").lower(), r.name.lower()) not in temporary
        ]

    def rows(self, query: Query, *, bulk: bool = False) -> list[tuple[Any, ...]]:
        if query.name in CATALOG_FACTS:
            kept = self._catalog_rows(query)
            if kept is not None:
                return kept
        key = self._fact_key(query)
        if key is None:
            return super().rows(query, bulk=bulk)
        if key not in self._facts:
            self._facts[key] = tuple(super().rows(query))
        return list(self._facts[key])

    def records(self, query: Query, *, bulk: bool = False) -> list[dict[str, Any]]:
        key = self._fact_key(query)
        if key is None:
            return super().records(query, bulk=bulk)
        key = ("records", key)
        if key not in self._facts:
            self._facts[key] = tuple(super().records(query))
        return [dict(r) for r in self._facts[key]]

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

    def columns(self, query: Query, *, bulk: bool = False) -> dict[str, Any]:
        """As on every engine, straight from DuckDB's numpy conversion (no pandas frame is built)."""
        cur = self._execute(query)
        with self._engine(f"query {query.name}"):
            out: dict[str, Any] = dict(cur.fetchnumpy())
        self._log(query, len(next(iter(out.values()))) if out else 0)
        return out

    def insert_frame(self, table: TableRef, frame: pd.DataFrame | Mapping[str, Any]) -> None:
        """Append a pandas frame or a dict of numpy arrays (a masked value NULL) to an existing table."""
        view = f"ldiv_frame_{id(frame)}"
        self._catalog.clear()
        self.con.register(view, frame)
        try:
            cols = [Ident(str(c)) for c in frame]  # a frame's or a dict's column names
            q = render("catalog/append_frame.sql", target=table, columns=cols, frame=TableRef(view))
            with self._engine(f"inserting rows into {table.sql()}"):
                self.con.execute(q.sql)
            self.queries += 1
        finally:
            self.con.unregister(view)
            self._catalog.clear()

    def insert_columns(self, table: TableRef, columns: Mapping[str, Any]) -> None:
        self.insert_frame(table, columns)  # DuckDB scans the arrays themselves: no frame is built

    def load_frame(self, frame: Any, target: TableRef) -> None:
        """Create ``target`` from ``frame`` (in the caller's transaction, if one is open). A view of a frame
        has no row ids, which ``anonymize`` needs to link published rows to source rows
        (``ldiv.release_row``); the copy has them, in the frame's row order."""
        view = f"ldiv_frame_{next(_FRAMES)}"
        self._catalog.clear()
        try:
            self.con.register(view, frame)
        except Exception as exc:  # duckdb names the type it cannot scan; an error, not a traceback
            raise BadInput(
                f"cannot read a {type(frame).__module__}.{type(frame).__qualname__} as a table: {exc}",
                "give a pandas DataFrame, a Polars DataFrame or a pyarrow Table",
            ) from None
        try:
            self.run(render("catalog/load_frame.sql", frame=TableRef(view), target=target))
        finally:
            self.con.unregister(view)
            self._catalog.clear()

    def load_file(self, query: Query, target: TableRef) -> int | None:
        """Create ``target`` from a file-reading template (``catalog/load_csv.sql`` /
        ``load_parquet.sql``, rendered with ``target``): DuckDB reads the file itself."""
        self.run(query)
        return None

    def execute_script(self, name: str, sql: str) -> None:
        """Run a multi-statement script (migrations only)."""
        self._catalog.clear()
        with self._engine(name):
            self.con.execute(sql)
        self.queries += 1

    def raw_rows(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Fixed bookkeeping SQL with bound values (migrations); user names never reach it."""
        self._catalog.clear()
        self.queries += 1
        with self._engine("a bookkeeping query"):
            return self.con.execute(sql, params).fetchall()

    # ------------------------------------------------------------------ transactions
    def _committed(self) -> None:
        self._created = False  # the user's data is committed to the file now: close keeps it

    def _tx_statement(self, sql: str) -> None:
        """BEGIN or COMMIT with its error mapped (a full disk at COMMIT is the user's); ROLLBACK bare."""
        if sql == "ROLLBACK":
            self._catalog.clear()  # what the transaction created is gone
            self.con.execute(sql)
            return
        with self._engine(sql):
            self.con.execute(sql)

    @contextlib.contextmanager
    def threads_for(self, rows: int) -> Iterator[None]:
        """Run the block with DuckDB's thread count suited to a source of ``rows`` rows: one thread up to
        :data:`SMALL_SOURCE_ROWS` (a release of a small table is ~50 statements of a few ms each, where
        handing work between threads costs more than it saves: bench/README.md, issue 12), the setting
        as it was above that, with the buffer pool bounded (:mod:`.memory`).

        A change of the setting stops or starts DuckDB's worker threads, so after a small
        source the setting stays at one thread for the next small one: it is put back before a large
        source's block and when this :class:`Database` is closed (:meth:`restore_threads`); a connection
        ldiv_db was handed (``Database.open(connection)``) gets its setting back when ldiv_db is done."""
        if rows > SMALL_SOURCE_ROWS:  # every thread, and a bounded buffer pool (:mod:`.memory`)
            self.restore_threads()
            with memory_bound(self.con):
                self._large_run = True
                try:
                    yield
                finally:
                    self._large_run = False
            return
        if self._threads_before is None:
            before = int(self.con.execute("SELECT current_setting('threads')").fetchall()[0][0])
            if before != 1:
                self.con.execute("SET threads = 1")
                self._threads_before = before
        yield

    @contextlib.contextmanager
    def snapshot_sessions(self, rows: int, *, split: bool = True) -> Iterator[list[Database]]:
        """This connection alone (a DuckDB read needs no second session for a snapshot); a source of at
        most :data:`SMALL_SOURCE_ROWS` rows read on one thread, as :meth:`threads_for` runs a small
        source's release: a check's few statements of a few ms each lose more handing work between
        threads than they gain (bench/README.md, the in-process check)."""
        if rows > SMALL_SOURCE_ROWS:
            yield [self]
            return
        with self.threads_for(rows):
            yield [self]

    @contextlib.contextmanager
    def holding_little(self) -> Iterator[None]:
        """In a large source's run (:meth:`threads_for`), the buffer pool bounded to
        :data:`~.memory.IDLE_MEMORY_LIMIT` for the block: DuckDB writes its blocks out at once."""
        if not self._large_run:
            yield
            return
        with memory_bound(self.con, IDLE_MEMORY_LIMIT, best_effort=True):
            yield

    @contextlib.contextmanager
    def storing_incompressible(self) -> Iterator[None]:
        """The block's writes stored without compression (``force_compression``), put back as it was
        afterwards: for high-entropy text such as hex digests, DuckDB's analysis of its string encodings
        costs about as much as computing the values (the stored values are the same, in about twice the
        space; what a later statement or checkpoint writes is compressed as the setting then says).
        ``disabled_compression_methods`` would spare the other columns, but its method names differ
        between DuckDB versions, and a refused ``SET`` aborts the open transaction."""
        before = str(self.con.execute("SELECT current_setting('force_compression')").fetchall()[0][0])
        self.con.execute("SET force_compression = 'uncompressed'")
        try:
            yield
        finally:
            with contextlib.suppress(duckdb.Error):
                self.con.execute("SET force_compression = $before", {"before": before})

    def restore_threads(self) -> None:
        """Put DuckDB's thread setting back as it was before :meth:`threads_for` lowered it."""
        before, self._threads_before = self._threads_before, None
        if before is not None:
            with contextlib.suppress(duckdb.Error):
                self.con.execute("SET threads = $threads", {"threads": before})

    # ------------------------------------------------------------------ a second reader
    def side_reader(self, rows: int | None = None) -> Database | None:
        """A second connection to the same database, for reads of committed tables that run in another
        thread beside this connection's statements (its own work tables; closed by :meth:`close`); None
        where the engine has none (``rows``: the source's size, for an engine that opens one only for a
        large source). It sees what this connection has committed, with the same current
        database and search path (names resolve as here); its step log and statement count are this one's to merge (:meth:`absorb`)."""
        current, path = self.con.execute(
            "SELECT current_database(), current_setting('search_path')"
        ).fetchall()[0]
        cur = self.con.cursor()
        cur.execute(render("session/use.sql", catalog=Ident(str(current))).sql)
        if path:
            cur.execute("SET search_path = $path", {"path": str(path)})
        return type(self)(cur, self.path, owned=True)

    def warm_conversions(self) -> None:
        """Convert a small result to numpy (masked too) in this thread, before a second thread starts: a
        Ctrl-C that lands in a first-use import in one thread while another thread waits for the same
        module can leave both waiting. The second reader reads numpy only; pandas is not loaded here."""
        self.con.execute("SELECT 'x' AS s, 1 AS n, 1.5 AS f, NULL::INTEGER AS m").fetchnumpy()

    def interrupt(self) -> None:
        """Cancel the statement this session runs in another thread."""
        self.con.interrupt()

    # ------------------------------------------------------------------ work tables
    def _work_ref(self, name: str) -> TableRef:
        """Temporary by default, schema ldiv_work with keep_work."""
        if not self.keep_work:
            return TableRef(name, "main", "temp")
        self._catalog.clear()
        with self._engine(f"creating schema {WORK_SCHEMA}"):
            self.con.execute(render("catalog/create_schema.sql", schema=Ident(WORK_SCHEMA)).sql)
        return TableRef(name, WORK_SCHEMA)

    def drop_work_table(self, ref: TableRef) -> None:
        if self.keep_work or ref not in self._work_tables:
            return  # listed still: dropped again (IF EXISTS) at the end, should a rollback bring it back
        self._catalog.clear()
        with contextlib.suppress(self.driver_error):
            self.con.execute(render("catalog/drop_work_table.sql", target=ref).sql)

    def drop_work_tables(self) -> None:
        if self.keep_work:
            return
        for ref in self._unmade(self._work_tables):
            self._work_tables.remove(ref)
        if self._work_tables:
            self._catalog.clear()
        for ref in self._work_tables:
            with contextlib.suppress(self.driver_error):
                self.con.execute(render("catalog/drop_work_table.sql", target=ref).sql)
        self._work_tables.clear()
