"""The database files this process creates: a write command that fails leaves none of them behind
(README, "Reads write nothing": a write command that fails leaves no database file it created), on every
path into ldiv_db alike (the CLI, a job file, the Python API).

Every open of a DuckDB file is counted per path, so a file that another connection of this process still
uses (a second thread, DuckDB's shared instance) is never removed under it."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

_LOCK = threading.Lock()
_OPEN: dict[str, int] = {}  # resolved path -> connections of this process open on it


def _key(path: str) -> str:
    return str(Path(path).resolve())


def open_counted(path: str, connect: Callable[[], T]) -> tuple[T, bool]:
    """``connect()`` to the file at ``path``, counted; also whether this open created the file."""
    key = _key(path)
    with _LOCK:
        created = _OPEN.get(key, 0) == 0 and not Path(path).exists()
        _OPEN[key] = _OPEN.get(key, 0) + 1
    try:
        return connect(), created
    except BaseException:
        closed(path, created=created, failed=True)
        raise


def closed(path: str, *, created: bool, failed: bool) -> None:
    """One connection to ``path`` was closed. The command failed and its open created the file: remove
    the file (and DuckDB's write-ahead log) once no other connection of this process has it open."""
    key = _key(path)
    with _LOCK:
        left = _OPEN.get(key, 1) - 1
        if left > 0:
            _OPEN[key] = left
        else:
            _OPEN.pop(key, None)
        if failed and created and left <= 0:
            for f in (Path(path), Path(f"{path}.wal")):
                with contextlib.suppress(OSError):
                    f.unlink()
