"""The expected schema's rows kept in the user's cache (``ldiv_db/schema/kept.py``): a process that finds
them builds the same expected schema as one that derives it, a damaged or foreign entry is derived
again, and a damaged file is still refused when the expected schema comes from the cache."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ldiv_db import Database
from ldiv_db.errors import MigrationError
from ldiv_db.schema import kept, state


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "schema_cache"
    monkeypatch.setenv(kept.SCHEMA_CACHE_ENV, str(folder))
    held = list(state._CACHE)
    state._CACHE.clear()
    yield folder
    state._CACHE[:] = held


def _expected(db: Database) -> state.Expected:
    state._CACHE.clear()
    return state.expected(db)


def test_kept_rows_give_the_derived_expected_schema(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Database.open(":memory:") as db:
        first = _expected(db)  # derived, and kept
        (entry,) = cache.glob("expected_*.json")
        calls: list[int] = []
        derive = state._derived_rows
        monkeypatch.setattr(state, "_derived_rows", lambda d: calls.append(1) or derive(d))
        assert _expected(db) == first and calls == []  # from the entry, nothing derived
        for damage in ("{", json.dumps({"snapshots": [], "ddl": []}), json.dumps([1, 2])):
            entry.write_text(damage)
            assert _expected(db) == first  # derived again
        assert len(calls) == 3
        os.chmod(cache, 0o777)  # a folder others may write: its entry is not read
        assert _expected(db) == first and len(calls) == 4
        os.chmod(cache, 0o700)
        monkeypatch.setenv(kept.SCHEMA_CACHE_ENV, "off")
        assert _expected(db) == first and len(calls) == 5 and kept.entry(["x"]) is None


def test_a_damaged_file_is_refused_with_the_kept_rows(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.duckdb"
    with Database.open(path) as db:  # the schema made, the expected rows kept
        db.con.execute("CREATE TABLE t AS SELECT 1 AS a")
    assert list(cache.glob("expected_*.json"))
    with Database.open(path, migrate=False) as db:  # the damage done behind ldiv_db's back
        db.con.execute("DROP TABLE ldiv.run_step")
    state._CACHE.clear()
    with pytest.raises(MigrationError, match=r"ldiv\.run_step: the table is missing"):
        Database.open(path, mode="read")
