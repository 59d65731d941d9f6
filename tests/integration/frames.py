"""Small table helpers shared by the integration tests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ldiv_db.db import Database
from ldiv_db.pipeline import opaque


def make_table(db: Database, name: str, frame: pd.DataFrame) -> None:
    """Create (or replace) table ``name`` in the main schema holding ``frame``."""
    db.con.register("__frame", frame)
    db.con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM __frame')
    db.con.unregister("__frame")


# ---------------------------------------------------------------------------- the seeded tie key
# Every algorithm breaks ties among rows by the key hash(rowid XOR seed) (sql/_macros/seeded_key.sql),
# never by row id. The tests derive what a release must be from that definition, on DuckDB: the rows in
# key order, or a seed whose key orders a small table's rows as their row ids do (the order the papers'
# worked examples break their ties by).
_KEY = "hash(xor(CAST(rowid AS BIGINT), CAST(? AS BIGINT)))"


def key_order(db: Database, name: str, seed: int) -> list[int]:
    """The row ids of table ``name`` in the order of the seeded key of ``seed``."""
    rows = db.con.execute(f'SELECT rowid FROM "{name}" ORDER BY {_KEY}, rowid', [seed]).fetchall()
    return [int(r[0]) for r in rows]


def identity_seeds(db: Database, name: str, count: int = 1, search: int = 4_000_000) -> list[int]:
    """The first ``count`` seeds whose key orders the rows of table ``name`` (a few rows) by row id."""
    rids = [int(r[0]) for r in db.con.execute(f'SELECT rowid FROM "{name}" ORDER BY rowid').fetchall()]
    found: list[int] = []
    chunk = 100_000
    for lo in range(0, search, chunk):
        keys = db.con.execute(
            "SELECT hash(xor(CAST(r.rid AS BIGINT), CAST(s.seed AS BIGINT))) AS k "
            "FROM range(?, ?) AS s(seed), unnest(CAST(? AS BIGINT[])) AS r(rid) ORDER BY s.seed, r.rid",
            [lo, lo + chunk, rids],
        ).fetchnumpy()["k"]
        by_seed = np.asarray(keys, dtype=np.uint64).reshape(chunk, len(rids))
        ok = np.flatnonzero((by_seed[:, 1:] > by_seed[:, :-1]).all(axis=1))
        found += [lo + int(i) for i in ok[: count - len(found)]]
        if len(found) == count:
            return found
    raise AssertionError(f"fewer than {count} seeds below {search} order {name} by row id")


def fix_drawn_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Runs without ``seed`` use ``seed`` instead of drawing one (as a test fixes a random generator):
    their ties fall by its key, while the algorithms keep their unseeded choices."""
    monkeypatch.setattr(opaque, "run_seed", lambda given: seed if given is None else given)
