"""The anonymize contract end to end on the hostile-names table: one transaction, reconciliation,
verification on the written table, audit records, --replace, and clear errors for bad input."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import ldiv_db
from fixtures.hostile import HOSTILE_QI, HOSTILE_SA
from ldiv_db.algorithms import REGISTRY, Algorithm, AnonymizeRequest, Partitioning, register
from ldiv_db.algorithms.full_domain import FullDomain
from ldiv_db.db import Database
from ldiv_db.errors import BadInput, PrivacyViolation
from ldiv_db.sqlgen.render import Query

QI = ["it's", "select"]


def _anon(db: Database, **kw):  # type: ignore[no-untyped-def]
    args = {
        "algorithm": "full-domain",
        "output": "rel 1",
        "l": 2,
        "model": "distinct",
        "levels": {"it's": 1, "select": 0},
    }
    args.update(kw)
    return ldiv_db.anonymize(db, "select", QI, HOSTILE_SA, **args)


def _count(db: Database, sql: str) -> int:
    return int(db.raw_rows(sql)[0][0])


def test_release_written_recorded_and_verified(hostile_db: Database) -> None:
    res = _anon(hostile_db)
    d = res.to_dict()
    for key in (
        "run_id",
        "algorithm",
        "model",
        "l",
        "rows_in",
        "rows_published",
        "rows_deleted",
        "rows_waiting",
        "rows_with_suppressed_cells",
        "cells_suppressed",
        "classes",
        "k",
        "risk",
        "seconds",
        "queries",
        "output",
        "verified",
        "metrics",
    ):
        assert key in d
    for key in ("il", "lm", "dm", "cavg", "kl", "stars", "avg_class_size"):
        assert key in d["metrics"]
    assert res.verified and res.rows_in == 12 and res.rows_published + res.rows_deleted == 12
    cols = [r[0] for r in hostile_db.raw_rows('DESCRIBE "rel 1"')]
    assert cols == [*QI, HOSTILE_SA, "group_id"]
    assert (
        _count(hostile_db, f"SELECT count(*) FROM ldiv.release_row WHERE release_id = {res.release_id}") == 12
    )
    status = hostile_db.raw_rows("SELECT status FROM ldiv.run WHERE run_id = ?", [res.run_id])[0][0]
    assert status == "done"
    assert _count(hostile_db, f"SELECT count(*) FROM ldiv.run_step WHERE run_id = {res.run_id}") > 5
    # the published table passes the independent check, grouped by its group id and by its labels
    chk = ldiv_db.check(hostile_db, "rel 1", QI, HOSTILE_SA, model="distinct", l=2)
    assert chk.satisfied


def test_existing_output_needs_replace_and_replace_supersedes(hostile_db: Database) -> None:
    first = _anon(hostile_db)
    with pytest.raises(BadInput, match="already exists"):
        _anon(hostile_db)
    second = _anon(hostile_db, replace=True, levels={"it's": 2, "select": 0})
    sup = hostile_db.raw_rows(
        "SELECT superseded_by FROM ldiv.release WHERE release_id = ?", [first.release_id]
    )
    assert sup[0][0] == second.release_id


def test_failure_inside_the_transaction_leaves_nothing(hostile_db: Database, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    first = _anon(hostile_db)
    before = hostile_db.raw_rows('SELECT * FROM "rel 1" ORDER BY ALL')

    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise RuntimeError("disk full")

    monkeypatch.setattr(sys.modules["ldiv_db.utility"], "compute_metrics", boom)
    with pytest.raises(RuntimeError):
        _anon(hostile_db, replace=True, levels={"it's": 2, "select": 1})
    assert hostile_db.raw_rows('SELECT * FROM "rel 1" ORDER BY ALL') == before
    assert _count(hostile_db, "SELECT count(*) FROM ldiv.release") == 1
    rows = hostile_db.raw_rows("SELECT status FROM ldiv.run ORDER BY run_id")
    assert [r[0] for r in rows] == ["done", "failed"]
    assert first.verified


@pytest.mark.parametrize("fails", ["algorithm", "write"])
def test_a_failed_release_leaves_no_reader_running_beside_the_connection(
    hostile_db: Database, monkeypatch: pytest.MonkeyPatch, fails: str
) -> None:
    """The metrics' source side is read on a second connection from before the algorithm runs; a run
    that fails in the algorithm or after it stops and waits for that reader, published or not."""
    import threading
    import time

    from ldiv_db.pipeline.one_table import OneTable
    from ldiv_db.utility import source_side

    started: list[object] = []
    real_start, real_domain = source_side.start_source_side, source_side.build_domain

    def start(*args: object, **kw: object) -> object:
        pending = real_start(*args, **kw)  # type: ignore[arg-type]
        started.append(pending)
        return pending

    def slow_domain(*args: object, **kw: object) -> None:  # the reader is still at work at the failure
        time.sleep(0.5)
        real_domain(*args, **kw)  # type: ignore[arg-type]

    def boom(*args: object) -> None:
        raise RuntimeError("disk full")

    anonymize_module = importlib.import_module(
        "ldiv_db.commands.anonymize"
    )  # the package's name is the function's
    monkeypatch.setattr(anonymize_module, "start_source_side", start)
    monkeypatch.setattr(source_side, "build_domain", slow_domain)
    with monkeypatch.context() as m:
        if fails == "write":
            m.setattr(OneTable, "write", boom)
        else:
            m.setattr(FullDomain, "run", boom)
        with pytest.raises(RuntimeError, match="disk full"):
            _anon(hostile_db)
    assert started and started[0] is not None  # the reader was started, then stopped
    assert not [t for t in threading.enumerate() if t.name.startswith("ldiv-source")]
    assert _anon(hostile_db).verified  # and the next release is published


class _Leaky(Algorithm):
    """A deliberately wrong algorithm: every row in its own group (never l-diverse)."""

    name = "leaky-test"
    options = (FullDomain.options[0],)  # it takes (and ignores) the full-domain --levels of _anon

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t = request.db.work_table("leaky")
        request.db.run(
            Query(
                "test/leaky",
                f"CREATE TEMP TABLE {t.sql()} AS SELECT rowid AS rid, rowid AS gid, false AS deleted, "
                f"false AS sa_suppressed FROM {request.inputs.table.ref.sql()}",
            )
        )
        return Partitioning(assignment=t, recoding="suppress")


def test_a_release_that_fails_verification_is_never_published(hostile_db: Database) -> None:
    register(_Leaky)
    try:
        with pytest.raises(PrivacyViolation, match="nothing was published"):
            _anon(hostile_db, algorithm="leaky-test", output="leak")
        assert not hostile_db.raw_rows("SELECT * FROM information_schema.tables WHERE table_name = 'leak'")
        assert _count(hostile_db, "SELECT count(*) FROM ldiv.release") == 0
    finally:
        REGISTRY.pop("leaky-test")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"table": "nope"}, "unknown table 'nope'"),
        ({"qi": ["it's", "zip"]}, "(?s)unknown column 'zip'.*columns are: it's, a\"b, Zip Code"),
        ({"qi": ["it's", HOSTILE_SA]}, "both as QI and as SA"),
        ({"l": 1}, "at least 2"),
        ({"l": 9}, "(?s)infeasible.*only 4 distinct values"),
        ({"algorithm": "magic"}, "unknown algorithm"),
        ({"output": "SELECT"}, "is the source table"),
        ({"model": "frequency", "l": 4}, "(?s)infeasible.*largest feasible l is"),
    ],
)
def test_bad_input_is_named(hostile_db: Database, kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    args = {"table": "select", "qi": QI}
    args.update(kwargs)
    table, qi = args.pop("table"), args.pop("qi")
    with pytest.raises(BadInput, match=message):
        ldiv_db.anonymize(
            hostile_db,
            table,
            qi,
            HOSTILE_SA,
            **{"algorithm": "full-domain", "output": "o", "l": 2, "levels": {}, **args},
        )


def test_nulls_are_counted_and_null_as_value_handles_them(hostile_db: Database) -> None:
    hostile_db.raw_rows('CREATE TABLE withnull AS SELECT * FROM "select"')
    hostile_db.raw_rows('UPDATE withnull SET "ünï" = NULL WHERE "a""b" < 32')
    with pytest.raises(BadInput, match=r"(?s)'ünï' has 2 NULL\(s\).*--null-as-value"):
        ldiv_db.check(hostile_db, "withnull", HOSTILE_QI, HOSTILE_SA)
    res = ldiv_db.check(hostile_db, "withnull", ["it's"], HOSTILE_SA, null_as_value=True)
    assert res.rows == 12


def test_check_on_every_hostile_identifier(hostile_db: Database) -> None:
    res = ldiv_db.check(hostile_db, '"select"', HOSTILE_QI, [HOSTILE_SA, "order"], model="distinct", l=[2, 2])
    assert res.rows == 12
    assert set(res.to_dict()["per_sa"]) == {HOSTILE_SA, "order"}


def test_l_one_is_refused_in_check(hostile_db: Database) -> None:
    with pytest.raises(BadInput, match="at least 2"):
        ldiv_db.check(hostile_db, "select", QI, HOSTILE_SA, model="distinct", l=1)


def _threads(db: Database) -> int:
    return int(db.raw_rows("SELECT current_setting('threads')")[0][0])


def test_a_small_source_runs_on_one_thread_and_the_setting_is_restored(
    hostile_db: Database, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from ldiv_db.db.duckdb import engine as embedded

    hostile_db.raw_rows("SET threads = 3")
    seen: list[int] = []
    original = FullDomain.run

    def run(self, request):  # type: ignore[no-untyped-def]
        seen.append(_threads(request.db))
        return original(self, request)

    monkeypatch.setattr(FullDomain, "run", run)
    assert _anon(hostile_db).verified
    # the next small source needs one thread too: the setting waits for a large source or the close
    assert seen == [1] and _threads(hostile_db) == 1
    # above the bound the setting is the one from before; a failure inside the block leaves it right
    monkeypatch.setattr(embedded, "SMALL_SOURCE_ROWS", 11)
    assert _anon(hostile_db, replace=True).verified
    assert seen == [1, 3] and _threads(hostile_db) == 3
    with pytest.raises(RuntimeError), hostile_db.threads_for(12):
        assert _threads(hostile_db) == 3
        raise RuntimeError("inside")
    monkeypatch.setattr(embedded, "SMALL_SOURCE_ROWS", 100_000)
    with pytest.raises(RuntimeError), hostile_db.threads_for(11):
        assert _threads(hostile_db) == 1
        raise RuntimeError("inside")
    assert _threads(hostile_db) == 1
    hostile_db.restore_threads()
    assert _threads(hostile_db) == 3


def test_a_connection_handed_to_ldiv_db_gets_its_thread_setting_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A DuckDB connection of the caller's: the setting one-thread runs lowered is put back when the call
    returns, and when a Database wrapping it is closed."""
    import duckdb

    con = duckdb.connect(str(tmp_path / "own.duckdb"))
    try:
        con.execute("SET threads = 3")
        con.execute(
            "CREATE TABLE t AS SELECT i % 7 AS a, i % 3 AS b, 'v' || (i % 4) AS s FROM range(40) r(i)"
        )
        result = ldiv_db.anonymize(con, "t", ["a", "b"], "s", algorithm="mondrian", l=2, output="rel")
        assert result.verified
        assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 3
        wrapped = Database.open(con)
        with wrapped.threads_for(40):
            assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 1
        wrapped.close()
        assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 3
    finally:
        con.close()


def test_a_second_reader_resolves_names_as_the_connection_does(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The reader KL's source points are read on uses the connection's current database and search
    path: after USE of another catalog, both see that catalog's table of the same name."""
    db = Database.open(tmp_path / "a.duckdb")
    try:
        db.con.execute("CREATE TABLE t AS SELECT 1 AS x")
        db.con.execute(f"ATTACH '{tmp_path / 'b.duckdb'}' AS other")
        db.con.execute("CREATE TABLE other.main.t AS SELECT 2 AS x")
        db.con.execute("USE other")
        side = db.side_reader()
        assert side is not None
        try:
            assert (
                side.con.execute("SELECT x FROM t").fetchall() == db.con.execute("SELECT x FROM t").fetchall()
            )
            assert side.con.execute("SELECT x FROM t").fetchall() == [(2,)]
        finally:
            side.close()
    finally:
        db.close()


def test_the_order_within_a_group_carries_nothing_of_the_source_order(
    hostile_db: Database, tmp_path: Path
) -> None:
    """The same rows in the opposite source order give every group's rows in the same published order:
    within a group the order is the published values' own (rows in source order would let whoever knows
    that order tell a group's rows apart)."""
    from fixtures.hostile import HIERARCHIES
    from ldiv_db import taxonomy

    cols = [r[0] for r in hostile_db.raw_rows('DESCRIBE "select"')]
    hostile_db.raw_rows('CREATE TABLE "select reversed" AS SELECT * FROM "select" LIMIT 0')
    marks = ", ".join("?" for _ in cols)
    for row in hostile_db.raw_rows('SELECT * FROM "select" ORDER BY rowid DESC'):
        hostile_db.raw_rows(f'INSERT INTO "select reversed" VALUES ({marks})', list(row))
    for col in QI:
        f = tmp_path / f"h{QI.index(col)}.csv"
        f.write_text("\n".join(";".join(r) for r in HIERARCHIES[col]) + "\n", encoding="utf-8")
        taxonomy.import_hierarchy(hostile_db, "select reversed", col, f)
    orders = []
    for table in ("select", "select reversed"):
        out = f"out of {table}"
        ldiv_db.anonymize(
            hostile_db,
            table,
            QI,
            HOSTILE_SA,
            algorithm="full-domain",
            output=out,
            l=2,
            model="distinct",
            levels={"it's": 1, "select": 0},
        )
        groups: dict[tuple[object, ...], list[tuple[object, ...]]] = {}
        for r in hostile_db.raw_rows(f'SELECT * EXCLUDE (group_id) FROM "{out}"'):
            groups.setdefault(tuple(r[: len(QI)]), []).append(tuple(r))
        orders.append(groups)
    assert orders[0] == orders[1]
    assert any(len(set(g)) > 1 for g in orders[0].values())  # some group has rows to order


def _memory(db: Database) -> str:
    return str(db.raw_rows("SELECT current_setting('memory_limit')")[0][0])


def test_a_large_source_runs_with_duckdbs_buffer_pool_bounded_and_the_setting_is_restored(
    hostile_db: Database, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """Above SMALL_SOURCE_ROWS a run holds DuckDB's memory_limit at RUN_MEMORY_LIMIT (512 MiB) while the
    algorithm runs and the release is written and verified, then puts the user's setting back; a lower
    setting is left as it is; a small source's run does not touch it."""
    from ldiv_db.db.duckdb import engine as embedded

    seen: list[str] = []
    original = FullDomain.run

    def run(self, request):  # type: ignore[no-untyped-def]
        seen.append(_memory(request.db))
        return original(self, request)

    monkeypatch.setattr(FullDomain, "run", run)
    hostile_db.raw_rows("SET memory_limit = '3GiB'")
    assert _anon(hostile_db).verified  # small: untouched
    monkeypatch.setattr(embedded, "SMALL_SOURCE_ROWS", 11)
    assert _anon(hostile_db, replace=True).verified
    assert seen == ["3.0 GiB", "512.0 MiB"] and _memory(hostile_db) == "3.0 GiB"
    with pytest.raises(RuntimeError), hostile_db.threads_for(12):
        assert _memory(hostile_db) == "512.0 MiB"
        raise RuntimeError("inside")
    assert _memory(hostile_db) == "3.0 GiB"
    hostile_db.raw_rows("SET memory_limit = '100MiB'")
    with hostile_db.threads_for(12):
        assert _memory(hostile_db) == "100.0 MiB"
    assert _memory(hostile_db) == "100.0 MiB"
