"""How an engine's error reaches the user. DuckDB's errors pass through :func:`engine_error` (every call
of :class:`~ldiv_db.db.Database` on its connection); its classifier :func:`environment_error` is shared
with the PostgreSQL engine and the CLI's last line of defence:

* the user's Ctrl-C (DuckDB's InterruptException, a RuntimeError "Query interrupted") is a
  KeyboardInterrupt;
* a cause in the user's environment is a :class:`~ldiv_db.errors.StorageError` (exit 2) that names the
  path and what to change: no space left on the device holding it, a file or a directory this user may
  not write (DuckDB creates its write-ahead log ``DB.wal`` beside the database file), a read-only file
  system. The engine rolled the statement's transaction back, so nothing of the command was written;
* a connection that another thread is using names the rule (one connection, one thread at a time); a
  write that meets another connection's write of the same table is a WriteConflict (exit 2);
* anything else is a statement of ldiv_db's that failed: an :class:`~ldiv_db.errors.LdivError` asking
  for a report.

Only the engine's message is read (DuckDB gives no error codes for these), so the phrases below are the
operating system's, as DuckDB and PostgreSQL quote them.
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

from ..errors import BadInput, LdivError, StorageError, WriteConflict, interrupt_requested

BUG_HINT = "this is a bug in ldiv_db if the input passed validation; please report it with the query name"

_DISK_FULL = ("no space left on device", "disk quota exceeded", "disk full")
_DENIED = ("permission denied", "operation not permitted", "access is denied")
_READ_ONLY_FS = ("read-only file system",)
# the file an OS error names: DuckDB quotes it with "...", Python's OSError with '...'
_FILE = re.compile(r"""(?:file|directory)\s+"([^"]+)"|"([^"]+)"|'([^']+)'""", re.IGNORECASE)


def shared_connection() -> BadInput:
    return BadInput(
        "the DuckDB connection is busy with a call of another thread",
        "a connection runs one call at a time: give each thread its own (the database path, or "
        "con.cursor() per thread); ldiv_db gives its calls from another thread a cursor of their own",
    )


def write_conflict(text: str) -> WriteConflict:
    """DuckDB's "write-write conflict on create with "Schema\\0main\\0Table\\0main\\0t"": name t."""
    m = re.search(r'with "([^"]+)"', text)
    name = re.split(r"\\0|\x00", m.group(1))[-1] if m else None
    what = f"table {name}" if name else "a table it writes"
    return WriteConflict(
        f"another connection is writing {what} at the same time; nothing of this command was written",
        "run it again once the other write has ended: DuckDB lets one transaction at a time change a table",
    )


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _named_file(text: str) -> str | None:
    m = _FILE.search(text)
    return next((g for g in m.groups() if g), None) if m else None


def environment_error(
    exc: BaseException | str, path: str | None = None, *, owner: str = ""
) -> StorageError | None:
    """The StorageError for an engine or OS error caused by the user's environment, else None. ``path``
    is the database the command uses (named when the message names no file); ``owner`` prefixes a path
    that is not on this machine ("the PostgreSQL server's ")."""
    text = str(exc)
    low = text.lower()
    named = _named_file(text)
    where = f"{owner}{named or path or 'the database'}"
    if any(p in low for p in _DISK_FULL):
        return StorageError(
            f"no space left on the device holding {where}",
            "free space on that device (or move the database, or the file written, to a disk with room), "
            "then run the command again; nothing of this command was written",
        )
    if any(p in low for p in _READ_ONLY_FS):
        return StorageError(
            f"cannot write {where}: its file system is mounted read-only",
            "copy the database to a writable disk to write to it; the read commands (check, metrics, "
            "report, ...) open a database read-only and work where it is",
        )
    if not any(p in low for p in _DENIED):
        return None
    folder = str(Path(named or path or ".").parent)
    beside = named is not None and (named.endswith(".wal") or ".tmp/" in named)  # DB.wal, DB.tmp/...
    if beside or (named and path and Path(named).name != Path(path).name):  # made beside the file
        return StorageError(
            f"cannot create {where}: the directory {owner}{folder} is not writable for this user",
            "a write to a DuckDB database needs its directory writable, for the write-ahead log DB.wal "
            "DuckDB keeps beside the file: make the directory writable (or move the database to one "
            "that is); to read only, use a read command or Database.open(path, mode='read'), which "
            "open the file read-only",
        )
    return StorageError(
        f"cannot write {where}: permission denied",
        f"give this user write permission on the file and its directory {owner}{folder}, or work on a "
        "copy in a writable directory; the read commands open a database read-only",
    )


def os_or_engine_cause(exc: BaseException, path: str | None) -> StorageError | None:
    """:func:`environment_error` for an OS error or a DuckDB error that reached the CLI unclassified."""
    return environment_error(exc, path) if isinstance(exc, (OSError, duckdb.Error)) else None


def _interrupted(exc: BaseException) -> bool:
    return (
        isinstance(exc, duckdb.InterruptException)
        or "interrupted" in str(exc).lower()
        or interrupt_requested()
    )


def engine_error(exc: BaseException, what: str, path: str | None) -> BaseException:
    """What to raise for DuckDB's ``exc`` (raised by ``what``, e.g. "query x.sql") on the database
    ``path``: see the module docstring. A non-DuckDB error that is neither an interrupt nor caused by the
    environment is returned as it is."""
    if isinstance(exc, (duckdb.InterruptException, RuntimeError)) and _interrupted(exc):
        return KeyboardInterrupt()
    env = environment_error(exc, path)
    if env is not None:
        return env
    if not isinstance(exc, duckdb.Error):
        return exc
    if "connection is busy" in str(exc).lower():
        return shared_connection()
    if "conflict" in str(exc).lower() and isinstance(exc, duckdb.TransactionException):
        return write_conflict(str(exc))
    return LdivError(f"{what} failed: {first_line(exc)}", BUG_HINT)
