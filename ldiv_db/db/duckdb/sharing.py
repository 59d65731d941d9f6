"""How one DuckDB database is shared inside a process (:class:`~ldiv_db.db.duckdb.engine.DuckDBDatabase` asks here).

* Files. DuckDB keeps one instance per file and process, opened read-only or read-write by its first
  connection. A read joins whatever instance there is (it writes nothing either way). A write that finds
  the file open read-only by reads of other threads waits for them to close (at most
  :data:`READERS_WAIT` seconds), then opens it read-write; one that a read of its own thread blocks is
  refused at once. A file a write open created is removed again
  when the disk filled before anything was committed to it (:meth:`Database.close`), but only once no
  other ``Database`` of this process has it open.
* Threads. A connection runs one call at a time, and a call's statements (its transaction, temporary
  work tables, ``USE`` of a scratch catalog) belong together. So a connection, or a ``Database``, serves
  the thread that first handed it to ldiv_db; a call from any other thread runs on a cursor of its own
  (DuckDB's second connection to the same database: it sees what is committed, not the other thread's
  temporary tables or open transaction), closed when the call ends. Two threads with a path each, or
  with one path, open connections of their own anyway.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
import weakref
from collections import Counter
from pathlib import Path

import duckdb

from ...errors import BadInput, LdivError
from ..engine_errors import environment_error, first_line
from ..urls import check_database_file

READERS_WAIT = 120.0  # seconds a write waits for this process's read-only connections to the file

_FIRST_CALLER: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, int] = weakref.WeakKeyDictionary()
_OPEN: Counter[str] = Counter()  # real path of a file -> ldiv_db's connections to it in this process
# each counted connection: its file's key, whether its instance is read-only, the thread that opened it
_COUNTED: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, tuple[str, bool, int]] = (
    weakref.WeakKeyDictionary()
)
_CHANGED = threading.Condition()


def _key(path: str) -> str:
    return os.path.realpath(path)


def connect_file(path: str, mode: str) -> duckdb.DuckDBPyConnection:
    """A connection to the DuckDB file ``path`` (``:memory:``: a new in-memory database), read-only for
    ``mode="read"``, where the file must exist; count it until :func:`release`."""
    if path == ":memory:":
        return duckdb.connect(path)
    read = mode == "read"
    if read and not Path(path).exists():
        raise BadInput(
            f"database file {path} does not exist",
            "check the path; a read creates nothing (ldiv load DB FILE --table T creates a database)",
        )
    check_database_file(path, "database")
    key, deadline, existed = _key(path), time.monotonic() + READERS_WAIT, Path(path).exists()
    with _CHANGED:
        while True:
            try:
                con, read_only = _connect(path, read)
                break
            except duckdb.ConnectionException as exc:
                left = deadline - time.monotonic()
                if read or "different configuration" not in str(exc) or not _others_read(key) or left <= 0:
                    raise _open_error(exc, path, existed) from None
                _CHANGED.wait(min(left, 1.0))  # other threads' reads hold the file read-only
            except duckdb.Error as exc:
                raise _open_error(exc, path, existed) from None
        _OPEN[key] += 1
        _COUNTED[con] = (key, read_only, threading.get_ident())
    return con


def _others_read(key: str) -> bool:
    """Whether reads of other threads, and none of this one (it would wait for itself), hold the file
    ``key`` read-only."""
    holders = {t for k, ro, t in _COUNTED.values() if k == key and ro}
    return bool(holders) and threading.get_ident() not in holders


def _connect(path: str, read: bool) -> tuple[duckdb.DuckDBPyConnection, bool]:
    if not read:
        return duckdb.connect(path), False
    try:
        con = duckdb.connect(path, read_only=True)
    except duckdb.ConnectionException as exc:
        if "different configuration" not in str(exc):
            raise
        # this process has the file open for writing: share that instance; a read writes nothing
        return duckdb.connect(path), False
    # DuckDB would spill beside the file (DB.tmp/); a read creates nothing there
    spill = str(Path(tempfile.gettempdir()) / f"ldiv_db_spill_{os.getpid()}")
    con.execute("SET temp_directory = $spill", {"spill": spill})
    return con, True


def _open_error(exc: duckdb.Error, path: str, existed: bool) -> LdivError:
    env = environment_error(exc, path)
    if env is not None:
        if not existed and not _OPEN[_key(path)]:  # the header DuckDB began on a full disk
            remove_database_file(path)
        return env
    return BadInput(
        f"cannot open database {path}: {first_line(exc)}",
        "check the path and that no other process holds a lock on it (a write needs the file alone: "
        "close other connections to it, also read-only ones in this process)",
    )


def read_only(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` is a connection :func:`connect_file` opened on a read-only instance of its file: then
    nothing writes the file while it is open (no connection of this process can, and DuckDB's file lock
    keeps other processes' writes out)."""
    with _CHANGED:
        counted = _COUNTED.get(con)
    return counted is not None and counted[1]


def release(con: duckdb.DuckDBPyConnection) -> bool:
    """Count ``con`` closed, if :func:`connect_file` counted it; whether it was this process's last
    connection to its file."""
    with _CHANGED:
        counted = _COUNTED.pop(con, None)
        if counted is None:
            return False
        key = counted[0]
        _OPEN[key] -= 1
        last = _OPEN[key] <= 0
        if last:
            del _OPEN[key]
        _CHANGED.notify_all()
    return last


def remove_database_file(path: str) -> None:
    """Remove a database file ldiv_db created, with its write-ahead log."""
    for f in (Path(path), Path(f"{path}.wal")):
        with contextlib.suppress(OSError):
            f.unlink()


def first_caller(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether this thread is the first (or only) one that handed ``con`` to ldiv_db."""
    me = threading.get_ident()
    with _CHANGED:
        return _FIRST_CALLER.setdefault(con, me) == me


def own_cursor(con: duckdb.DuckDBPyConnection, search_path: str | None) -> duckdb.DuckDBPyConnection:
    """A connection of this thread's own to the database of ``con``, with ``search_path`` (the one ldiv_db
    set on ``con``, e.g. a read's stand-in for missing ``ldiv`` objects)."""
    cur = con.cursor()
    if search_path:
        cur.execute("SET search_path = $path", {"path": search_path})
    return cur


def other_thread_refused(dialect: str) -> BadInput:
    return BadInput(
        f"this {dialect} Database was opened in another thread",
        "a Database serves the thread that opened it: open one per thread (pass the URL to each call)",
    )
