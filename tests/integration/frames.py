"""Small table helpers shared by the integration tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pytest

from ldiv_db.db import Database
from ldiv_db.pipeline import opaque

# a file's table t(age, sex, disease) for the checks of a file opened read-only: 8 ages x 2 sexes, 1 to 4
# diseases per age (one repeated), so classes differ in size and in distinct values
CHECK_ROWS = [
    (a, s, d) for a in range(8) for s in ("f", "m") for d in ("flu", "hiv", "cold", "flu")[: 1 + (a % 4)]
]


def check_file(folder: Path, rows: list[tuple[int, str, str]] = CHECK_ROWS) -> Path:
    """A DuckDB file ``t.duckdb`` in ``folder`` holding ``main.t(age, sex, disease)`` of ``rows``, closed."""
    p = folder / "t.duckdb"
    con = duckdb.connect(str(p))
    con.execute("CREATE TABLE t (age INTEGER, sex VARCHAR, disease VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    con.close()
    return p


def make_table(db: Database, name: str, frame: pd.DataFrame) -> None:
    """Create (or replace) table ``name`` in the main schema holding ``frame``."""
    db.con.register("__frame", frame)
    db.con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM __frame')
    db.con.unregister("__frame")


# ---------------------------------------------------------------------------- the seeded tie key
# Every algorithm breaks ties among rows by the seeded key of their row ids (sql/_macros/seeded_key.sql:
# a 6-round Feistel permutation of the row id keyed by 21-bit slices of the seed), never by row id. The
# tests compute the key here from that definition and derive what a release must be from it: the rows in
# key order, or a seed whose key orders a small table's rows as their row ids do (the order the papers'
# worked examples break their ties by).
_ROUNDS = (
    (0, 1103515245, 12345),
    (21, 1664525, 1013904223),
    (42, 22695477, 2531011),
    (11, 134775813, 1),
    (32, 1588635695, 7),
    (53, 1340134909, 11),
)


def seeded_key(x: Any, seed: Any) -> Any:
    """The key of row key(s) ``x`` under ``seed`` (ints, or numpy int64 arrays broadcast together)."""
    left, right = x >> 31, x % 2**31
    for shift, a, b in _ROUNDS:
        k = (seed >> shift) % 2**21
        left, right = right, left ^ ((((right ^ k) * a + b) >> 15) % 2**31)
    return left * 2**31 + right


def key_order(db: Database, name: str, seed: int) -> list[int]:
    """The row ids of table ``name`` in the order of the seeded key of ``seed``."""
    rids = [int(r[0]) for r in db.con.execute(f'SELECT rowid FROM "{name}"').fetchall()]
    return sorted(rids, key=lambda r: (seeded_key(r, seed), r))


def identity_seeds(db: Database, name: str, count: int = 1, search: int = 4_000_000) -> list[int]:
    """The first ``count`` seeds whose key orders the rows of table ``name`` (a few rows) by row id."""
    rids = np.array(
        [int(r[0]) for r in db.con.execute(f'SELECT rowid FROM "{name}" ORDER BY rowid').fetchall()],
        dtype=np.int64,
    )
    found: list[int] = []
    chunk = 200_000
    for lo in range(0, search, chunk):
        seeds = np.arange(lo, lo + chunk, dtype=np.int64)[:, None]
        keys = seeded_key(rids[None, :], seeds)
        ok = np.flatnonzero((keys[:, 1:] > keys[:, :-1]).all(axis=1))
        found += [lo + int(i) for i in ok[: count - len(found)]]
        if len(found) == count:
            return found
    raise AssertionError(f"fewer than {count} seeds below {search} order {name} by row id")


def fix_drawn_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Runs without ``seed`` use ``seed`` instead of drawing one (as a test fixes a random generator):
    their ties fall by its key, while the algorithms keep their unseeded choices."""
    monkeypatch.setattr(opaque, "run_seed", lambda given: seed if given is None else given)


def as_large_source(monkeypatch: pytest.MonkeyPatch, db: Database, seen: list[tuple[str, str]]) -> None:
    """Treat every source above 100 rows as large (DuckDB's lowered bound, the eviction before the write),
    and record each eviction in ``seen`` as ("freed", DuckDB's memory_limit at the time), or ("trimmed",
    the limit) where it skips the garbage collection (Algorithm.leaves_cycles)."""
    from ldiv_db.commands import anonymize
    from ldiv_db.db.duckdb import engine as embedded

    monkeypatch.setattr(embedded, "SMALL_SOURCE_ROWS", 100)
    monkeypatch.setattr(anonymize, "LARGE_ROWS", 100)
    monkeypatch.setattr(
        anonymize,
        "release_freed",
        lambda *, collect=True: seen.append(
            ("freed" if collect else "trimmed", db.raw_rows("SELECT current_setting('memory_limit')")[0][0])
        ),
    )
