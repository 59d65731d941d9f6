"""The PostgreSQL engine behind ``Database.open``: URLs, errors that never show the password, bound
parameters, COPY, transactions, work tables, read mode, locks and privileges, on a real server."""

from __future__ import annotations

import re
import threading

import numpy as np
import pandas as pd
import pytest

from ldiv_db.db import Database
from ldiv_db.db.postgres.frames import binary_rows
from ldiv_db.db.urls import display_url, is_postgres_url, scrub
from ldiv_db.errors import BadInput, LdivError
from ldiv_db.sqlgen.render import Query, TableRef, render


def test_urls_pick_the_engine_and_lose_the_password() -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("POSTGRES://u@h/db")
    assert not is_postgres_url("postgres.duckdb") and not is_postgres_url("/tmp/x.duckdb")
    assert display_url("postgresql://alice:s3cr%40t@db.example:5433/prod?sslmode=require") == (
        "postgresql://alice@db.example:5433/prod"
    )
    assert scrub("failed for postgresql://bob:hunter2@h:1/d and postgres://c:x@h/d") == (
        "failed for postgresql://bob@h:1/d and postgres://c@h/d"
    )
    assert scrub("echo hunter2 here", "hunter2") == "echo *** here"


def test_migrations_apply_once_with_their_checksums(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        first = db.raw_rows("SELECT version, checksum FROM ldiv.schema_migration ORDER BY version")
        assert [v for v, _ in first] == [1, 2, 3, 4]
        assert db.path is not None and ":" + pg_url.split(":")[2].split("@")[0] not in db.path
    with Database.open(pg_url) as db:  # a second open applies nothing
        assert db.raw_rows("SELECT version, checksum FROM ldiv.schema_migration ORDER BY version") == first


def test_a_changed_migration_is_refused(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        db.raw_rows("UPDATE ldiv.schema_migration SET checksum = 'x' WHERE version = 2")
    with pytest.raises(LdivError, match="does not match the shipped file"):
        Database.open(pg_url)


def test_wrong_password_is_a_clear_error_without_the_password(pg_server) -> None:  # type: ignore[no-untyped-def]
    url = pg_server.url("postgres", with_password=False).replace("@", ":Wr0ngPassw0rd@")
    with pytest.raises(BadInput) as info:
        Database.open(url)
    text = str(info.value)
    assert "refused the login" in text and "Wr0ngPassw0rd" not in text
    assert "PGPASSWORD" in (info.value.hint or "")


def test_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(
        BadInput, match=re.escape("cannot reach the PostgreSQL server at postgresql://u@127.0.0.1:1/x")
    ):
        Database.open("postgresql://u:pw@127.0.0.1:1/x")


def test_missing_database_is_named(pg_server) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInput, match="does not exist"):
        Database.open(pg_server.url("no_such_db"))


def test_password_from_pgpassword(pg_server, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PGPASSWORD", pg_server.password)
    with Database.open(pg_server.url(pg_server.new_database(), with_password=False)) as db:
        assert db.scalar(render("catalog/row_count.sql", source=TableRef("run", "ldiv"))) == 0


def _people(db: Database) -> TableRef:
    db.raw_rows('CREATE TABLE public."Pe ople" (id INTEGER, "zip code" VARCHAR, "it\'s" DOUBLE)')
    ref = TableRef("Pe ople", "public")
    frame = pd.DataFrame({"id": [1, 2, 3], "zip code": ["a\tb", None, "50%"], "it's": [1.5, None, 3.0]})
    db.insert_frame(ref, frame)
    return ref


def test_copy_frames_round_trip_hostile_values(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        ref = _people(db)
        back = db.df(Query("t", f"SELECT * FROM {ref.sql()} ORDER BY id"))
    assert back["zip code"].tolist()[0] == "a\tb" and back["zip code"].tolist()[2] == "50%"
    assert pd.isna(back["zip code"][1]) and pd.isna(back["it's"][1])
    assert back["it's"].tolist()[2] == 3.0


def test_integer_frames_go_in_binary_and_come_back_exact(pg_url: str) -> None:
    """An all-integer/boolean frame is sent in COPY's binary format (pg_frames.binary_rows); the
    extremes of every width, negatives and both booleans must arrive as sent, a value too wide for its
    column must be refused by the server (not wrapped), and a frame with a NULL takes the text path."""
    big = np.iinfo(np.int64)
    frame = pd.DataFrame(
        {
            "a": np.array([big.min, -1, 0, big.max], dtype=np.int64),
            "b": np.array([np.iinfo(np.int32).min, -7, 0, np.iinfo(np.int32).max], dtype=np.int32),
            "c": np.array([-32768, 1, 2, 32767], dtype=np.int64),  # int64 values into SMALLINT
            "d": [True, False, True, False],
            "k": np.arange(4, dtype=np.uint8),
        }
    )
    types = {"a": "BIGINT", "b": "INTEGER", "c": "SMALLINT", "d": "BOOLEAN", "k": "BIGINT"}
    assert binary_rows(frame, [20, 23, 21, 16, 20]) is not None
    with Database.open(pg_url) as db:
        db.raw_rows(f"CREATE TEMP TABLE ints ({', '.join(f'{c} {t}' for c, t in types.items())})")
        ref = TableRef("ints", "pg_temp")
        db.insert_frame(ref, frame[["k", "d", "c", "b", "a"]])  # columns matched by name
        back = pd.DataFrame(
            db.raw_rows("SELECT a, b, c, d, k FROM pg_temp.ints ORDER BY k"), columns=list(types)
        )
        for col in types:
            assert back[col].tolist() == frame[col].tolist(), col
        with pytest.raises(LdivError, match="out of range for type smallint"):
            db.insert_frame(ref, frame.assign(c=[0, 0, 0, 40_000]))
        q0 = db.queries
        db.insert_frame(ref, pd.DataFrame({"a": [5.0, np.nan], "k": [9, 10]}))  # NaN: the text path
        assert db.queries - q0 == 1  # the COPY alone: a float frame never asks for the column types
        assert db.raw_rows("SELECT a FROM pg_temp.ints WHERE k >= 9 ORDER BY k") == [(5,), (None,)]
        db.insert_frame(ref, frame.iloc[:0])
        assert db.raw_rows("SELECT count(*) FROM pg_temp.ints")[0][0] == 6


def test_bound_params_and_percent_literals(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        q = Query("t", "SELECT $a + 1 AS x, '50%' AS p, 7 % 3 AS m, $s AS s", {"a": 41, "s": "it's %(a)s"})
        assert db.records(q) == [{"x": 42, "p": "50%", "m": 1, "s": "it's %(a)s"}]


def test_any_value_and_arg_max_skip_nulls_as_on_duckdb(pg_url: str) -> None:
    """DuckDB's any_value takes a non-NULL value when a group has one, and arg_max skips rows where
    either argument is NULL; the PostgreSQL rendering must answer the same."""
    sql = (
        "SELECT g, any_value(c) AS c, arg_max(a, b) AS m, arg_max(a2, b) AS m2 FROM (VALUES "
        "(1, NULL, 1, NULL, NULL), (1, 'x', 2, 5, NULL), (1, NULL, 3, 4, 9), (2, NULL, NULL, 1, NULL)) "
        "AS t(g, c, a, b, a2) GROUP BY g ORDER BY g"
    )
    with Database.open(":memory:") as duck:
        want = duck.records(Query("t", sql))
    with Database.open(pg_url) as db:
        got = db.records(Query("t", sql))
    assert want == [{"g": 1, "c": "x", "m": 2, "m2": 9}, {"g": 2, "c": None, "m": None, "m2": None}]
    assert got == want


def test_hash_ids_separate_positions_and_nulls_and_the_second_hash_is_independent(pg_url: str) -> None:
    rows = [
        ("a", "b"),
        ("b", "a"),
        ("ab", ""),
        ("", "ab"),
        (None, "x"),
        ("x", None),
        (None, None),
        ("", None),
    ]
    values = ", ".join(f"({i}, ?, ?)" for i in range(len(rows)))
    sql = (
        f"SELECT i, hash(p, q) >> 1 AS h1, hash(p, q, 'ldiv') >> 1 AS h2 FROM (VALUES {values}) AS t(i, p, q) "
        "ORDER BY i"
    )
    with Database.open(pg_url) as db:
        got = db.raw_rows(sql, [v for r in rows for v in r])
    h1 = [h for _, h, _ in got]
    h2 = [h for _, _, h in got]
    assert len(set(h1)) == len(rows) and len(set(h2)) == len(rows)
    assert all(0 <= h < 2**62 for h in h1 + h2)
    # the second hash is no affine image of the first (an appended element would make it 31 * h + c)
    assert len({(b - 31 * a) % 2**62 for a, b in zip(h1, h2, strict=True)}) == len(rows)


def test_rowid_is_page_times_65536_plus_tuple_minus_one_across_pages(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        db.raw_rows(
            "CREATE TABLE public.wide AS SELECT g AS id, repeat('x', 500) AS pad FROM generate_series(1, 400) AS g"
        )
        got = db.raw_rows("SELECT rowid AS r, CAST(ctid AS VARCHAR) AS c FROM public.wide")
    want = []
    for _, c in got:
        page, tup = (int(x) for x in c.strip("()").split(","))
        want.append(page * 65536 + tup - 1)
    assert [r for r, _ in got] == want and max(want) > 65536


def test_min_and_max_rowid_per_group_are_those_of_the_rows(pg_url: str) -> None:
    """min(rowid) / max(rowid) decode min(ctid) / max(ctid) once per group: the same numbers as taking
    the extreme of every row's rowid (a window min keeps the per-row form)."""
    with Database.open(pg_url) as db:
        db.raw_rows(
            "CREATE TABLE public.wide2 AS SELECT g AS id, g % 7 AS k, repeat('x', 500) AS pad "
            "FROM generate_series(1, 400) AS g"
        )
        got = db.raw_rows(
            "SELECT k, min(rowid) AS lo, max(rowid) AS hi, min(rowid + 0) AS lo2, max(rowid + 0) AS hi2 "
            "FROM public.wide2 GROUP BY k ORDER BY k"
        )
        win = db.raw_rows(
            "SELECT DISTINCT k, min(rowid) OVER (PARTITION BY k) AS lo FROM public.wide2 ORDER BY k"
        )
    assert len(got) == 7 and all(lo == lo2 and hi == hi2 for _, lo, hi, lo2, hi2 in got)
    assert max(hi for _, _, hi, _, _ in got) > 65536
    assert win == [(k, lo) for k, lo, _, _, _ in got]


def test_digest_by_record_hash_and_its_fallbacks(pg_url: str) -> None:
    """A table whose column types all hash gets an r: digest; a json column, or a digest recorded in the
    older text form, gets the text form; each stays equal while the table is unchanged."""
    from ldiv_db.core.ownership import fingerprint

    with Database.open(pg_url) as db:
        db.raw_rows(
            "CREATE TABLE main.fp AS SELECT g AS id, CAST(g AS VARCHAR) AS v FROM generate_series(1, 50) AS g"
        )
        db.raw_rows("CREATE TABLE main.fpj AS SELECT 1 AS id, CAST('{\"a\": 1}' AS json) AS j")
        fast = fingerprint(db, TableRef("fp", "main"))
        text = fingerprint(db, TableRef("fp", "main"), like="12345")
        other = fingerprint(db, TableRef("fpj", "main"))
        assert fast[0] == text[0] == 50 and fast[1].startswith("r:") and not text[1].startswith("r:")
        assert fingerprint(db, TableRef("fp", "main"), like=fast[1]) == fast
        assert (
            not other[1].startswith("r:") and fingerprint(db, TableRef("fpj", "main"), like=other[1]) == other
        )
        db.raw_rows("UPDATE main.fp SET v = 'changed' WHERE id = 7")
        assert fingerprint(db, TableRef("fp", "main"), like=fast[1]) != fast
        assert fingerprint(db, TableRef("fp", "main"), like=text[1]) != text


def test_a_table_filled_by_copy_has_statistics(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        work = db.work_table("filled")
        db.run(Query("t", f"CREATE OR REPLACE TABLE {work.sql()} (a INTEGER)"))
        db.copy_rows(work, ["a"], ((i,) for i in range(5000)))
        rows = db.raw_rows(
            "SELECT reltuples FROM pg_class WHERE relname = ? AND relpersistence = 't'", (work.name,)
        )
    assert rows == [(5000.0,)]


def test_integer_sums_stay_integers(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        ref = _people(db)
        got = db.one(Query("t", f"SELECT sum(id) AS s, avg(id) AS a FROM {ref.sql()}"))
    assert got == (6, 2.0) and isinstance(got[0], int)


def test_a_many_groups_hint_sorts_for_its_statement_only(pg_url: str) -> None:
    hinted = Query("t", "SELECT current_setting('enable_hashagg')", hints=frozenset({"many-groups"}))
    failing = Query("t", "SELECT 1 / 0", hints=frozenset({"many-groups"}))
    with Database.open(pg_url) as db:
        plain = Query("t", "SELECT current_setting('enable_hashagg')")
        assert db.scalar(plain) == "on"
        assert db.scalar(hinted) == "off"
        assert db.scalar(plain) == "on"
        with pytest.raises(LdivError):
            db.scalar(failing)
        assert db.scalar(plain) == "on"
        with pytest.raises(RuntimeError), db.transaction():
            with pytest.raises(LdivError):
                db.scalar(failing)  # the transaction is aborted here; its rollback undoes the SET
            raise RuntimeError("stop")
        assert db.scalar(plain) == "on"


def test_a_joins_in_order_hint_keeps_the_written_join_order_for_its_statement_only(pg_url: str) -> None:
    hinted = Query("t", "SELECT current_setting('join_collapse_limit')", hints=frozenset({"joins-in-order"}))
    plain = Query("t", "SELECT current_setting('join_collapse_limit')")
    with Database.open(pg_url) as db:
        before = db.scalar(plain)
        assert db.scalar(hinted) == "1" and before != "1"
        assert db.scalar(plain) == before
        # a bulk fetch (COPY) runs under the hint's settings too
        sql = "SELECT CAST(current_setting('join_collapse_limit') AS bigint) AS v"
        bulk = db.df(Query("t", sql, hints=frozenset({"joins-in-order"})), bulk=True)
        assert bulk["v"].tolist() == [1] and db.scalar(plain) == before


def test_the_many_groups_hint_applies_over_a_large_source_only(pg_url: str) -> None:
    """Over a small source no plan is parallel, and in one process hashing aggregates faster."""
    hinted = Query("t", "SELECT current_setting('enable_hashagg')", hints=frozenset({"many-groups"}))
    with Database.open(pg_url) as db:
        with db.threads_for(30_000):
            assert db.scalar(hinted) == "on"
        with db.snapshot_sessions(30_000):
            assert db.scalar(hinted) == "on"
        with db.threads_for(1_000_000):
            assert db.scalar(hinted) == "off"
        assert db.scalar(hinted) == "off"  # size unknown: the hint holds


def test_transaction_rolls_back_ddl_and_rows(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        ref = _people(db)
        with pytest.raises(RuntimeError), db.transaction():
            db.run(Query("t", "CREATE TABLE main.half_written AS SELECT 1 AS x"))
            db.run(Query("t", f"DELETE FROM {ref.sql()}"))
            raise RuntimeError("killed")
        assert not db.exists(TableRef("half_written", "main"))
        assert db.scalar(render("catalog/row_count.sql", source=ref)) == 3


def test_work_tables_are_session_temporary(pg_url: str) -> None:
    with Database.open(pg_url) as db:
        work = db.work_table("w x's")
        db.run(Query("t", f"CREATE OR REPLACE TABLE {work.sql()} AS SELECT 1 AS a"))
        db.run(Query("t", f"CREATE OR REPLACE TABLE {work.sql()} AS SELECT 2 AS a"))
        assert db.scalar(Query("t", f"SELECT a FROM {work.sql()}")) == 2
    with Database.open(pg_url) as db:
        n = db.raw_rows("SELECT count(*) FROM pg_tables WHERE tablename = 'w x''s'")
    assert n == [(0,)]


def test_read_mode_writes_nothing_and_refuses_writes(pg_server) -> None:  # type: ignore[no-untyped-def]
    url = pg_server.url(pg_server.new_database())
    with Database.open(url, mode="read") as db:
        assert db.scalar(Query("t", "SELECT count(*) FROM ldiv.release")) == 0  # stand-in, empty
        work = db.work_table("scratch")
        db.run(Query("t", f"CREATE OR REPLACE TABLE {work.sql()} AS SELECT 1 AS a"))
        with pytest.raises(LdivError, match="read-only"):
            db.run(Query("t", "CREATE TABLE public.sneaky AS SELECT 1 AS a"))
    with Database.open(url, mode="read", migrate=False) as db:
        schemas = db.raw_rows(
            "SELECT count(*) FROM information_schema.schemata WHERE schema_name IN ('ldiv', 'main')"
        )
    assert schemas == [(0,)]


def test_a_locked_table_is_named(pg_url: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import psycopg

    monkeypatch.setenv("LDIV_LOCK_TIMEOUT", "300ms")
    with Database.open(pg_url) as db:
        ref = _people(db)
        holder = psycopg.connect(pg_url)
        holder.execute('LOCK TABLE public."Pe ople" IN ACCESS EXCLUSIVE MODE')
        try:
            with (
                Database.open(pg_url) as other,
                pytest.raises(BadInput, match="Pe ople is locked by another"),
            ):
                other.scalar(render("catalog/row_count.sql", source=ref))
        finally:
            holder.rollback()
            holder.close()


def test_missing_privileges_are_named(pg_server) -> None:  # type: ignore[no-untyped-def]
    name = pg_server.new_database()
    with pg_server.admin(name) as admin:
        admin.execute("CREATE TABLE public.secret (a int)")
        admin.execute("CREATE ROLE ldiv_weak LOGIN PASSWORD 'weakpw'")
        admin.execute(f'REVOKE CREATE ON DATABASE "{name}" FROM PUBLIC')
    weak = pg_server.url(name, user="ldiv_weak").replace(pg_server.password, "weakpw")
    with pytest.raises(BadInput) as info:
        Database.open(weak)  # a write needs CREATE on the database for the ldiv schema
    assert "permission denied for database" in str(info.value) and "weakpw" not in str(info.value)
    assert "CREATE" in (info.value.hint or "")
    with Database.open(weak, mode="read") as db, pytest.raises(BadInput) as info2:
        db.scalar(render("catalog/row_count.sql", source=TableRef("secret", "public")))
    assert "permission denied for table secret" in str(info2.value)
    assert "GRANT SELECT" in (info2.value.hint or "")


def test_concurrent_reader_sees_no_half_release(pg_url: str) -> None:
    seen: list[int] = []
    with Database.open(pg_url) as db:
        with db.transaction():
            db.run(Query("t", "CREATE TABLE main.r AS SELECT 1 AS x"))

            def look() -> None:
                with Database.open(pg_url, mode="read") as r:
                    seen.append(
                        int(
                            r.scalar(
                                render(
                                    "catalog/table_exists.sql",
                                    {"catalog": None, "schema": "main", "name": "r"},
                                )
                            )
                        )
                    )

            t = threading.Thread(target=look)
            t.start()
            t.join()
        assert seen == [0]
        assert db.exists(TableRef("r", "main"))


def test_parallel_work_tables_are_unlogged_and_go_with_the_block(pg_url: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ldiv_db.db import RUN_WORK_SCHEMA

    with Database.open(pg_url) as db:
        with db.parallel_work():
            ref = db.work_table("w")
            assert RUN_WORK_SCHEMA.fullmatch(ref.schema or "")
            db.run(Query("t", f"CREATE OR REPLACE TABLE {ref.sql()} AS SELECT 1 AS x"))
            kind = db.raw_rows(
                "SELECT c.relpersistence FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace "
                "WHERE n.nspname = ? AND c.relname = 'w'",
                (ref.schema,),
            )
            assert kind == [("u",)]
        assert not db.raw_rows("SELECT 1 FROM pg_namespace WHERE nspname = ?", (ref.schema,))
        assert db.work_table("w").schema == "pg_temp"  # outside the block: temporary again

        refused = type(db).raw_rows

        def no_create(self, sql, params=None):  # type: ignore[no-untyped-def]
            if "CREATE SCHEMA" in sql:
                raise BadInput("PostgreSQL refused bookkeeping query: permission denied for database")
            return refused(self, sql, params)

        monkeypatch.setattr(type(db), "raw_rows", no_create)
        with db.parallel_work():  # without CREATE on the database: temporary work tables
            assert db.work_table("w").schema == "pg_temp"


def test_a_bulk_frame_is_the_ordinary_frame(pg_url: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Integer results come by COPY as CSV: the same frame as row by row (int64; float64 with NaN where a
    column holds NULL; empty); another type takes the ordinary path."""
    ints = [
        "SELECT g AS a, g * 3000000000 AS b, CAST(g % 7 AS SMALLINT) AS c FROM generate_series(1, 5000) AS g "
        "ORDER BY g",
        "SELECT g AS a, CASE WHEN g % 3 = 0 THEN NULL ELSE g END AS b FROM generate_series(1, 50) AS g ORDER BY g",
        "SELECT g AS a FROM generate_series(1, 0) AS g",
    ]
    text = "SELECT g AS a, CAST(g AS VARCHAR) AS t FROM generate_series(1, 20) AS g ORDER BY g"
    with Database.open(pg_url) as db:
        plain = {sql: db.df(Query("t", sql)) for sql in [*ints, text]}
        ordinary = Database.df
        used: list[str] = []

        def counted(self, query, *, bulk=False):  # type: ignore[no-untyped-def]
            used.append(query.sql)
            return ordinary(self, query)

        monkeypatch.setattr(Database, "df", counted)
        for sql, want in plain.items():
            got = db.df(Query("t", sql), bulk=True)
            pd.testing.assert_frame_equal(got, want, check_dtype=len(want) > 0)
    assert used == [text]  # only the text result took the ordinary path
