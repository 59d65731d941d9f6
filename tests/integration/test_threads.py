"""The Python API from two threads at once (issue 52): with a path each, with one path, with one shared
``Database`` and with one shared DuckDB connection. Every call succeeds and every release is there.

Rule: a connection (or a ``Database``) serves the thread that first handed it to ldiv_db; a call from
another thread runs on a cursor of its own; scratch catalogs (instance-wide in DuckDB) get names of their
own; a write waits for this process's read-only connections to its file. Enforcement point:
``Database.open`` (ldiv_db/db/duckdb/engine.py, with ldiv_db/db/duckdb/sharing.py).

Each round starts the two calls together (a barrier) and forgets the expected ldiv schema first, so that
both threads derive it at once, as two threads of a fresh process do.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
import pytest

import ldiv_db
from ldiv_db import api
from ldiv_db.db import Database
from ldiv_db.errors import BadInput, WriteConflict
from ldiv_db.schema import state as schema

ROUNDS = 20


def _table(path: Path) -> None:
    lines = [f"1007{i % 5};{'FM'[i % 2]};{'abcd'[i % 4]}" for i in range(40)]
    csv = path.parent / f"{path.stem}.csv"
    csv.write_text("zip;sex;disease\n" + "\n".join(lines) + "\n", encoding="utf-8")
    api.load(str(path), str(csv), "people", sep=";")


def _anonymize(target: Any, output: str) -> None:
    ldiv_db.anonymize(
        target, "people", "zip,sex", "disease", algorithm="mondrian", l=2, output=output, kl=False
    )


def _check(target: Any) -> None:
    res = api.check(target, "people", "zip,sex", "disease", model="distinct", l=3)
    # (zip, sex) is i mod 10 and the disease i mod 4: each of the 10 groups holds 2 diseases, not 3
    assert (res.satisfied, res.violating_groups) == (False, 10)


def _together(monkeypatch: pytest.MonkeyPatch, *calls: Callable[[], None]) -> list[str]:
    """Run ``calls`` in threads of their own, started at once; the errors they raised."""
    monkeypatch.setattr(schema, "_CACHE", [])
    start = threading.Barrier(len(calls))
    errors: list[str] = []

    def run(call: Callable[[], None]) -> None:
        try:
            start.wait()
            call()
        except BaseException as exc:  # every failure is the test's finding
            errors.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    return errors


def _releases(path: Path) -> list[str]:
    return sorted(r["name"] for r in api.releases(str(path)).rows)


def test_two_api_calls_on_one_path_for_20_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "one.duckdb"
    _table(db)
    p = str(db)
    for i in range(ROUNDS):
        second = partial(_check, p) if i % 2 else partial(_anonymize, p, f"b{i}")
        errors = _together(monkeypatch, partial(_anonymize, p, f"a{i}"), second)
        assert errors == [], f"round {i}"
    want = [f"main.a{i}" for i in range(ROUNDS)] + [f"main.b{i}" for i in range(0, ROUNDS, 2)]
    assert _releases(db) == sorted(want)


def test_a_path_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    _table(a)
    _table(b)
    for i in range(3):
        errors = _together(
            monkeypatch, partial(_anonymize, str(a), f"r{i}"), partial(_anonymize, str(b), f"r{i}"),
            partial(_check, str(a)),
        )  # fmt: skip
        assert errors == [], f"round {i}"
    assert _releases(a) == _releases(b) == ["main.r0", "main.r1", "main.r2"]


def test_one_shared_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "shared.duckdb"
    _table(path)
    db = Database.open(path)
    try:
        for i in range(3):
            errors = _together(
                monkeypatch,
                partial(_anonymize, db, f"a{i}"),
                partial(_anonymize, db, f"b{i}"),
                partial(_check, db),
            )
            assert errors == [], f"round {i}"
        names = sorted(r[0] for r in db.con.execute("SELECT name FROM ldiv.release").fetchall())
    finally:
        db.close()
    assert names == sorted(f"main.{x}{i}" for x in "ab" for i in range(3))


def test_one_shared_duckdb_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "con.duckdb"
    _table(path)
    con = duckdb.connect(str(path))
    try:
        for i in range(3):
            errors = _together(
                monkeypatch,
                partial(_anonymize, con, f"a{i}"),
                partial(_anonymize, con, f"b{i}"),
                partial(_check, con),
            )
            assert errors == [], f"round {i}"
        con.execute("SELECT 1").fetchall()  # the connection is the caller's, open and usable
    finally:
        con.close()
    assert len(_releases(path)) == 6


def test_two_writers_of_one_release_take_turns_or_are_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both threads replace the same release: each call succeeds, or it is refused as a WriteConflict
    naming the table (never "a bug"); the release then holds a complete, verified result."""
    path = tmp_path / "same.duckdb"
    _table(path)
    caught: list[str] = []

    def replace() -> None:
        try:
            ldiv_db.anonymize(str(path), "people", "zip,sex", "disease", algorithm="mondrian", l=2,
                              output="same", replace=True, kl=False)  # fmt: skip
        except WriteConflict as exc:
            caught.append(str(exc))

    for i in range(3):
        assert _together(monkeypatch, replace, replace) == [], f"round {i}"
    print(f"{len(caught)} of 6 calls met the other's write")
    assert all(m.startswith("another connection is writing table same at the same time") for m in caught)
    assert len(caught) <= 3  # at most one of each round's two
    con = duckdb.connect(str(path), read_only=True)
    try:
        verified = con.execute(
            "SELECT verified FROM ldiv.release WHERE name = 'main.same' AND superseded_by IS NULL"
        ).fetchall()
        rows = con.execute("SELECT count(*) FROM main.same").fetchall()
    finally:
        con.close()
    assert verified == [(True,)] and rows == [(40,)]


def test_a_write_beside_its_own_threads_read_is_refused_at_once(tmp_path: Path) -> None:
    """A write cannot wait for a read-only connection its own thread holds: refused at once, naming it."""
    path = tmp_path / "own.duckdb"
    _table(path)
    reader = Database.open(path, mode="read")
    try:
        t0 = time.monotonic()
        with pytest.raises(BadInput, match="different configuration") as caught:
            _anonymize(str(path), "r")
        assert time.monotonic() - t0 < 30
        assert "read-only ones in this process" in str(caught.value.hint)
    finally:
        reader.close()
    _anonymize(str(path), "r")  # once the read is closed
