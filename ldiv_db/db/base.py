"""The abstract engine: what the rest of ldiv_db calls on a database, and the bookkeeping every engine shares.

An engine is one folder of :mod:`ldiv_db.db` (``duckdb/``, ``postgres/``, ``spark/``) whose class derives
from :class:`Database` — never from another engine — and is registered with :func:`register_engine`
(``ldiv_db/db/__init__.py``). It declares what it can do as class attributes (the capability flags, with
the defaults below), implements the abstract methods, and overrides only what differs. The SQL it runs
is rendered in DuckDB's dialect and translated through its :attr:`Database.target` (a sqlglot dialect of
its own folder, ``dialect.py``). How to add one: docs/concepts/engines.md, "Adding an engine".

Shared here: the statement count, the step log (template, SQL hash, rows, milliseconds; written to
``ldiv.run_step`` by :meth:`flush_steps`), the fetch helpers built on :meth:`Database._send`
(:meth:`rows`, :meth:`records`, :meth:`fetch`, :meth:`df`, :meth:`arrays`, :meth:`batches`) and the list
of work tables.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import BadInput, InternalError, LdivError, StorageError
from ..sqlgen.dialects import Target
from ..sqlgen.render import Query, TableRef, render
from ..util import interrupts
from ..util.lazy import library
from .engine_errors import engine_error
from .owners import RunOwners

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:
    np = library("numpy")
    pd = library("pandas")

T = TypeVar("T")

WORK_SCHEMA = "ldiv_work"
# the schema of one run's work tables on an engine that gives each run its own (PostgreSQL's parallel_work)
RUN_WORK_SCHEMA = re.compile(r"ldiv_work_(\d+)_[0-9a-f]{8}", re.IGNORECASE)
# a run over a source of at most this many rows is small (:meth:`Database.threads_for`)
SMALL_SOURCE_ROWS = 100_000


def ldiv_schema_name(name: str) -> bool:
    """Whether ``name`` is one of ldiv_db's own schemas, closed to user commands: ``ldiv`` (its records),
    ``ldiv_work`` (work tables kept with ``--keep-work``) or a run's own work schema."""
    return name.lower() in ("ldiv", WORK_SCHEMA) or RUN_WORK_SCHEMA.fullmatch(name) is not None


@dataclass(frozen=True)
class Step:
    template: str
    sql_hash: str
    rows: int
    ms: float


EngineOpener = Callable[..., "Database"]
_ENGINES: list[tuple[Callable[[str], bool], EngineOpener]] = []
_DEFAULT: list[EngineOpener] = []


def register_engine(accepts: Callable[[str], bool] | None, opener: EngineOpener) -> None:
    """Let :meth:`Database.open` hand a ``DB`` string that ``accepts`` to ``opener`` (called with the
    target and the keywords ``mode``, ``attach``, ``migrate``). ``accepts=None`` registers the default
    engine, which gets everything no other engine accepts (a file path, a connection object)."""
    if accepts is None:
        _DEFAULT[:] = [opener]
    else:
        _ENGINES.append((accepts, opener))


class Database(RunOwners, abc.ABC):
    """A connection to one database plus ldiv_db's bookkeeping: the interface every engine provides."""

    # ---- capability flags (class attributes; an engine overrides those that differ)
    dialect: str  # the engine's name: its template variants (x.<dialect>.sql) and messages
    target: Target | None = None  # how the templates become its SQL (None: run as written)
    default_schema = "main"  # where an unqualified release goes
    transactional = True  # transaction() is all-or-nothing across DDL (else: staging and a rename)
    embedded = False  # the data sits in this process: frames and Python work beside the SQL move for free
    lists_only_granted_tables = False  # the catalog lists only what this role may read (PostgreSQL)
    reads_files = False  # table functions read files beside the database (read_parquet, read_csv)
    # the seeded copy (order/seeded_source.sql) keys a row by its row id itself, as an algorithm with
    # keyed_ties does, so that algorithm may skip the copy (PostgreSQL keys a row's position among its
    # physical row ids: order/seeded_source.postgres.sql; Spark not yet examined)
    keys_row_ids = False
    # the catalog of this connection's temporary tables and views, where a statement naming schema.table
    # looks first (DuckDB's "temp"); None: a temporary object never hides a table so named
    temp_catalog: str | None = None
    # group statistics straight from the source (partition/source_stats.sql, one statement for three):
    # True always, False never, a number for a read of a source of at most that many rows (check's)
    stats_from_source: bool | int = False
    # a check's statistics from the source computed inside the statements that read them, never stored
    # (partition/source_shapes.sql, partition/source_profile.sql): where a table's write, scan and drop
    # cost more than computing them again for the rare second read (a small DuckDB source)
    inline_statistics = False
    # the first provisional row id of a row an open transaction wrote (DuckDB's); None: row ids are
    # final at once (catalog.require_row_ids refuses provisional ones)
    local_row_base: int | None = None
    # text is compared byte by byte under ``COLLATE C`` whatever the column's own collation: a large text
    # column can be fetched as integer codes of its exact spellings plus the few spellings (DuckDB)
    byte_collation = False
    # the catalog shows every collation a text comparison may take, so catalog/bytes_only.sql can prove that
    # no column of a table folds spellings without counting them on its rows (core/inputs.py: folded_columns)
    collations_in_catalog = False
    # a distinct count of integers within a known range of at most this many values as a bitmap (DuckDB's
    # bitstring_agg: no hash table of the values; release/reconcile.sql's row ids); 0: never
    bitmap_count_range = 0
    # the most columns a table or a result may have (PostgreSQL's 1,600); None: no limit a statement meets
    max_columns: int | None = None
    driver_error: type[Exception] = Exception  # the driver's error class (errors of a failed statement)
    ldiv_schema = "ldiv"  # where ldiv_db's records are read (a read's stand-in schema otherwise)

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.queries = 0
        self.rows_fetched = 0  # rows that crossed into Python (fetches, not statements' own work)
        self.steps: list[Step] = []
        self.keep_work = False
        self._in_tx = False
        self._work_tables: list[TableRef] = []
        self._last_t0 = 0.0
        self._thread: int | None = None  # the thread it serves (None: whichever uses it)
        self._committing: list[str] = []  # what the open transaction wrote (on_commit)
        self._disk_failed = False  # a statement failed for want of disk space

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
        """Open ``target`` with the engine registered for it: a ``postgresql://`` or ``spark://`` URL, else
        the default engine (DuckDB: a file path, ``:memory:``, a connection). A Database is returned as it
        is to the thread that opened it; another thread's call gets :meth:`for_thread`.

        ``mode="write"`` (load, anonymize, ...): created if missing and migrated. ``mode="read"`` (every
        other command): nothing is created or migrated (:func:`ldiv_db.schema.state.prepare`).
        ``migrate=False`` skips the schema rule (tests, doctor)."""
        if isinstance(target, Database):
            target.forget_catalog()  # a command begins: what it remembers of the catalog may be stale
            return target if target._thread in (None, threading.get_ident()) else target.for_thread()
        if mode not in ("read", "write"):
            raise ValueError(f"mode must be 'read' or 'write', not {mode!r}")
        opener = next((o for accepts, o in _ENGINES if isinstance(target, str) and accepts(target)), None)
        if opener is None:
            opener = _DEFAULT[0]
        opened = opener(target, mode=mode, attach=attach, migrate=migrate)
        opened._thread = threading.get_ident()
        return opened

    @classmethod
    @contextlib.contextmanager
    def writing(cls, target: Any, *, attach: Mapping[str, str] | None = None) -> Iterator[Database]:
        """``target`` opened for a write command: its work tables dropped at the end, and a database this
        call opened closed with the outcome, so a failed command leaves no database file it created
        (:meth:`close`); a :class:`Database` handed in stays open."""
        database = cls.open(target, mode="write", attach=attach)
        failed = False
        try:
            yield database
        except BaseException:
            failed = True
            raise
        finally:
            database.drop_work_tables()
            if database is not target:
                database.close(failed=failed)

    def forget_catalog(self) -> None:
        """Forget what the connection remembers of the catalog's listings (Spark: :class:`Listings` of
        ``ldiv_db.db.spark.catalog``), at a command's start."""

    def for_thread(self) -> Database:
        """This database for a call from a thread other than the one it serves (DuckDB: a cursor of its
        own); refused where the engine has no such thing."""
        raise BadInput(
            f"this {self.dialect} Database was opened in another thread",
            "a Database serves the thread that opened it: open one per thread (pass the URL to each call)",
        )

    def attach(self, alias: str, file: str, read_only: bool = True) -> None:
        """Attach another database file as ``alias`` (DuckDB only)."""
        raise BadInput("--attach works with DuckDB files only", "name another schema's table as schema.table")

    def scratch_catalog(self, alias: str, *, keep: bool = False) -> contextlib.AbstractContextManager[None]:
        """Run a block with a new in-memory catalog ``alias`` as the current database (DuckDB only)."""
        raise LdivError(f"scratch catalogs are a DuckDB feature; the {self.dialect} engine does not use them")

    def set_search_path(self, path: str) -> None:
        raise LdivError(f"the {self.dialect} engine keeps the session's own search path")

    @abc.abstractmethod
    def close(self, *, failed: bool = False) -> None:
        """Close the connection (``failed``: the command failed)."""

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.drop_work_tables()
        self.close(failed=exc[0] is not None)

    # ------------------------------------------------------------------ executing
    @abc.abstractmethod
    def _send(self, query: Query) -> Any:
        """Send one rendered statement (translated here); returns a cursor-like object with
        ``fetchall()``, ``description`` and what :meth:`_frame` / :meth:`_arrays` read."""

    @contextlib.contextmanager
    def _engine(self, what: str) -> Iterator[None]:
        """A block of driver calls (``what``: for the message) whose errors are told apart by the one
        mapping, :func:`~ldiv_db.db.engine_errors.engine_error`: the user's Ctrl-C, the user's environment
        (a full disk, a directory that may not be written), a busy connection, or a failed statement."""
        try:
            yield
        except LdivError:
            raise
        except (RuntimeError, self.driver_error) as exc:
            mapped = engine_error(exc, what, self.path)
            self._disk_failed |= isinstance(mapped, StorageError)
            if mapped is exc:
                raise
            raise mapped from (exc if type(mapped) is LdivError else None)

    def _execute(self, query: Query) -> Any:
        t0 = time.perf_counter()
        cur = self._send(query)
        self.queries += 1
        self._last_t0 = t0
        return cur

    def _frame(self, cur: Any) -> pd.DataFrame:
        cols = [d[0] for d in cur.description or []]
        return pd.DataFrame(cur.fetchall(), columns=cols)

    def _arrays(self, cur: Any) -> dict[str, Any]:
        frame = self._frame(cur)
        if frame.isna().to_numpy().any():
            raise InternalError("a numeric result holds NULL")
        return {str(c): frame[c].to_numpy() for c in frame.columns}

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
        """The rows of a result; ``bulk``: a result that grows with the source (an engine may fetch it by
        another path: PostgreSQL ``COPY``, Spark in batches)."""
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
        """The result as a pandas frame (``bulk``: as :meth:`rows`)."""
        cur = self._execute(query)
        with self._engine(f"query {query.name}"):
            frame = self._frame(cur)
        self._log(query, len(frame))
        return frame

    def arrays(self, query: Query, *, bulk: bool = False) -> dict[str, Any]:
        """The columns of a result without NULLs as numpy arrays, by column name (``bulk``: as :meth:`rows`)."""
        cur = self._execute(query)
        with self._engine(f"query {query.name}"):
            out = self._arrays(cur)
        self._log(query, len(next(iter(out.values()))) if out else 0)
        return out

    def columns(self, query: Query, *, bulk: bool = False) -> dict[str, Any]:
        """The columns of a result as numpy arrays by column name, a column holding NULL as a masked array
        (``numpy.ma``; ``bulk``: as :meth:`rows`): for reading with numpy and for :meth:`insert_columns`,
        where no frame is wanted. Here from :meth:`df`'s frame (a column with NULL as objects); DuckDB
        hands them over without pandas."""
        frame = self.df(query, bulk=bulk)
        out: dict[str, Any] = {}
        for c in frame.columns:
            null = frame[c].isna().to_numpy(dtype=bool)
            if null.any():
                out[str(c)] = np.ma.MaskedArray(frame[c].to_numpy(dtype=object), mask=null)
            else:
                out[str(c)] = frame[c].to_numpy()
        return out

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

    @abc.abstractmethod
    def insert_frame(self, table: TableRef, frame: pd.DataFrame) -> None:
        """Append a pandas frame to an existing table (columns matched by name)."""

    def insert_columns(self, table: TableRef, columns: Mapping[str, Any]) -> None:
        """Append rows given as numpy arrays of one length by column name (a masked value is NULL) to an
        existing table (columns matched by name): as :meth:`insert_frame` of the frame they make."""
        self.insert_frame(table, pd.DataFrame(dict(columns)))

    def load_frame(self, frame: Any, target: TableRef) -> None:
        """Create ``target`` from a pandas, Polars or Arrow table, with row ids (only an embedded engine
        reads one in place)."""
        raise BadInput(
            f"a DataFrame cannot be loaded into a {self.dialect} database here",
            "write it to a file (e.g. Parquet) and `ldiv load` it, or anonymize the frame in DuckDB",
        )

    @abc.abstractmethod
    def load_file(self, query: Query, target: TableRef) -> int | None:
        """Create ``target`` from a file-reading template (``catalog/load_csv.sql`` / ``load_parquet.sql``);
        the rows it wrote when the engine counted them on the way (else None: the caller counts)."""

    @abc.abstractmethod
    def execute_script(self, name: str, sql: str) -> None:
        """Run a fixed multi-statement script (migrations)."""

    @abc.abstractmethod
    def raw_rows(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """Fixed bookkeeping SQL with bound values (``?`` positions); user names never reach it."""

    # ------------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing: commit on success, roll back on any exception (Ctrl-C included) before the
        COMMIT completed. Nested calls join the outer one. The COMMIT is THE commit point
        (:func:`ldiv_db.util.interrupts.atomic`): Ctrl-C is held across it, and what the block wrote
        (:meth:`on_commit`) is noted as committed before a held Ctrl-C is raised. Without
        :attr:`transactional` only a bracket (the release pipeline publishes through staging then)."""
        if self._in_tx or not self.transactional:
            yield
            return
        self._in_tx = True
        try:
            with interrupts.atomic(self._tx_statement, self.driver_error) as self._committing:
                yield
            self._committed()
        finally:
            self._in_tx = False

    def _tx_statement(self, sql: str) -> None:
        """Send BEGIN, COMMIT or ROLLBACK (an engine with :attr:`transactional` overrides this)."""
        raise InternalError(f"the {self.dialect} engine has no transactions ({sql})")

    def _committed(self) -> None:
        """The block's transaction committed (DuckDB: the user's data is in the file now)."""

    def on_commit(self, what: str) -> None:
        """Note ``what`` (a release) as committed once the open transaction commits (at once outside one)."""
        if self._in_tx:
            self._committing.append(what)
        else:
            interrupts.note_committed(what)

    # ------------------------------------------------------------------ sizes, sessions, threads
    def threads_for(self, rows: int) -> contextlib.AbstractContextManager[None]:
        """A block of work over a source of ``rows`` rows, run as suits the engine (DuckDB: one thread up
        to :data:`SMALL_SOURCE_ROWS`; PostgreSQL: parallel work tables above it)."""
        return contextlib.nullcontext()

    def restore_threads(self) -> None:
        """Put back any setting :meth:`threads_for` changed."""

    def holding_little(self) -> contextlib.AbstractContextManager[None]:
        """A block of a run in which the algorithm works on its own arrays and issues no statement: an
        engine in this process holds as little memory as it can meanwhile (DuckDB, in a run over a large
        source: :mod:`ldiv_db.db.duckdb.memory`); elsewhere nothing changes."""
        return contextlib.nullcontext()

    def storing_incompressible(self) -> contextlib.AbstractContextManager[None]:
        """A block whose statements write text whose compression costs more than the space it saves is
        worth (digests in a private table): an engine that would try its encodings on it stores it as it
        is (DuckDB); elsewhere nothing changes."""
        return contextlib.nullcontext()

    def side_reader(self, rows: int | None = None) -> Database | None:
        """A second connection reading committed tables beside this one (merged back by :meth:`absorb`);
        None where the engine has none."""
        return None

    def warm_conversions(self) -> None:
        """Import the result conversions in this thread before a second thread starts."""

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
        (``check``); here this one alone."""
        return contextlib.nullcontext([self])

    @abc.abstractmethod
    def interrupt(self) -> None:
        """Cancel the statement this session runs in another thread."""

    def sharing_cores(self) -> contextlib.AbstractContextManager[None]:
        """A block whose statements run beside other sessions' (a split check's parts)."""
        return contextlib.nullcontext()

    # ------------------------------------------------------------------ work tables, names
    def work_table(self, name: str) -> TableRef:
        """A name for an intermediate table (dropped by :meth:`drop_work_tables` unless ``keep_work``)."""
        ref = self._work_ref(name)
        if ref not in self._work_tables:
            self._work_tables.append(ref)
        return ref

    @abc.abstractmethod
    def _work_ref(self, name: str) -> TableRef:
        """Where the work table ``name`` lives on this engine (and with ``keep_work``)."""

    @abc.abstractmethod
    def drop_work_tables(self) -> None:
        """Drop the work tables made so far, unless ``keep_work``."""

    def drop_work_table(self, ref: TableRef) -> None:
        """Drop the work table ``ref`` that no later statement reads, where that frees memory the next
        statements need (DuckDB's temporary tables live in its buffer pool). Elsewhere, and with
        ``keep_work``, it stays until :meth:`drop_work_tables`."""

    def refuse_table_name(self, ref: TableRef, release: TableRef) -> None:
        """Refuse, before any work, a table of ``release`` whose name this engine's catalog cannot hold."""

    def private_ref(self, name: str) -> TableRef:
        """ldiv_db's own table ``name`` in the ``ldiv`` schema, spelled as this engine's catalog accepts it."""
        return TableRef(name, "ldiv")

    def require(self, command: str, detail: str | None = None) -> None:
        """Refuse, with the reason, a command this engine cannot run."""

    def exists(self, ref: TableRef) -> bool:
        key = {"catalog": ref.catalog, "schema": ref.schema or "main", "name": ref.name}
        return bool(self.scalar(render("catalog/table_exists.sql", key)))

    # ------------------------------------------------------------------ audit
    def flush_steps(self, run_id: int) -> None:
        """Write the collected step log to ldiv.run_step (one batched insert) and reset it."""
        if not self.steps:
            return
        n = len(self.steps)
        columns = {
            "run_id": np.full(n, run_id, dtype=np.int64),
            "step_no": np.arange(1, n + 1, dtype=np.int64),
            "template": np.array([s.template for s in self.steps], dtype=object),
            "sql_hash": np.array([s.sql_hash for s in self.steps], dtype=object),
            "rows": np.array([s.rows for s in self.steps], dtype=np.int64),
            "ms": np.array([round(s.ms, 3) for s in self.steps], dtype=np.float64),
        }
        self.insert_columns(TableRef("run_step", "ldiv"), columns)
        self.steps.clear()
