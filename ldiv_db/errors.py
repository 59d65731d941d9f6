"""The exceptions ldiv_db raises. Every user-facing failure is an :class:`LdivError` with a message that
names the problem and a hint that names the fix; the CLI prints both and exits with ``exit_code``."""

from __future__ import annotations


class LdivError(Exception):
    """Base class: a clear, user-facing error (never a traceback)."""

    exit_code = 2

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"


class BadInput(LdivError):
    """The user's input cannot be used: unknown names, NULLs, infeasible parameters, bad files."""


class HierarchyError(BadInput):
    """A generalization hierarchy is malformed or does not cover the data."""


class MigrationError(LdivError):
    """The ldiv schema in a database file does not match the migrations this version ships."""


class ConnectionLost(LdivError):
    """The connection to the database server was lost mid-command (a terminated session, a stopped
    server): nothing of the command's open transaction was kept."""


class StorageError(LdivError):
    """The user's environment stops a command: no space left on a device, a file or directory this user
    may not write, a read-only file system (ldiv_db/db/engine_errors.py). Nothing was written."""


class WriteConflict(LdivError):
    """Another connection writes the same table at the same time (DuckDB lets one transaction at a time
    change a table); this command's transaction was rolled back: nothing was written."""


class EngineResources(LdivError):
    """The database engine ran out of a resource the user sizes (a Spark driver's memory, its result
    size limit) or its process stopped: the message names the statement and the setting to change."""


class PrivacyViolation(LdivError):
    """A release failed verification on the written table; nothing was published."""

    exit_code = 1


class InternalError(LdivError):
    """An invariant of an algorithm did not hold (a bug): nothing was published."""

    exit_code = 3


_INTERRUPT = {"requested": False}


def note_interrupt() -> None:
    """The user pressed Ctrl-C (the command's SIGINT handler): whatever the database engine raises from
    now on is that interrupt, not an error (DuckDB may surface it as an odd RuntimeError)."""
    _INTERRUPT["requested"] = True


def interrupt_requested() -> bool:
    return _INTERRUPT["requested"]


def clear_interrupt() -> None:
    _INTERRUPT["requested"] = False
