"""The expected schema's catalog rows, kept in the user's cache between processes.

:func:`ldiv_db.schema.state.expected` derives the expected ``ldiv`` schema by applying every shipped
migration to a scratch catalog, once per process: a fixed cost of every command that opens a DuckDB file.
What it reads there (the snapshot query's rows after each migration, and the tables' DDL) depends on the
migrations' text, the queries' text and the DuckDB version alone; those rows are kept in
``$XDG_CACHE_HOME/ldiv_db/schema`` or ``~/.cache/ldiv_db/schema`` (``LDIV_SCHEMA_CACHE=DIR``: in that
folder; ``=off``: none), in a file named by a SHA-256 of all of them, and a later process builds the same
:class:`~ldiv_db.schema.state.Expected` from them. The comparison with the file is made as before, every
open. An entry is written to a temporary file and renamed into place (a reader sees a whole entry or
none); one that cannot be read, or that holds anything but the rows' shape, is derived again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..util.cache import cache_folder

SCHEMA_CACHE_ENV = "LDIV_SCHEMA_CACHE"
Rows = list[list[Any]]


def entry(parts: Sequence[str]) -> Path | None:
    """The cache file of the rows derived from ``parts`` (the migrations' and queries' text, the DuckDB
    version), or None when the cache is off or has no folder (no home directory)."""
    try:
        root = cache_folder(SCHEMA_CACHE_ENV, "schema")
    except RuntimeError:  # Path.home() without a home directory
        return None
    if root is None:
        return None
    digest = hashlib.sha256(json.dumps(list(parts)).encode()).hexdigest()
    return root / f"expected_{digest}.json"


def read(path: Path | None) -> tuple[list[Rows], Rows] | None:
    """The snapshots' rows (one list per migration, the bookkeeping table's first) and the DDL rows kept
    at ``path``, or None (no entry, or one that is not of that shape)."""
    if path is None:
        return None
    try:
        held = json.loads(path.read_text())
        folder = path.parent.stat()
    except (OSError, ValueError):
        return None
    if folder.st_uid != os.getuid() or folder.st_mode & 0o022:
        return None  # the rows decide what a file is compared with: a folder this user alone may write
    if not isinstance(held, dict) or not _rows_list(held.get("snapshots")) or not _rows(held.get("ddl")):
        return None
    return held["snapshots"], held["ddl"]


def write(path: Path | None, snapshots: list[Rows], ddl: Rows) -> None:
    """Keep the rows at ``path`` (a failed write costs a derivation next time, never the open)."""
    if path is None:
        return
    with contextlib.suppress(OSError, TypeError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".expected_", suffix=".tmp")
        try:
            with os.fdopen(fd, "w") as out:
                json.dump({"snapshots": snapshots, "ddl": ddl}, out)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _rows(rows: Any) -> bool:
    return isinstance(rows, list) and all(isinstance(r, list) for r in rows)


def _rows_list(x: Any) -> bool:
    return isinstance(x, list) and len(x) > 0 and all(_rows(rows) for rows in x)
