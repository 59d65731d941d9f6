"""The Spark engine behind ``Database.open`` on a local session: migrations in schema ``ldiv``, bound
parameters, frames in and out, work tables, read mode, and releases published through staging."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ldiv_db.db import Database
from ldiv_db.db.spark.results import arrow_ready
from ldiv_db.errors import BadInput, LdivError
from ldiv_db.pipeline.staged import previous_ref, publish_staged, recover, staging_ref
from ldiv_db.sqlgen.render import Query, TableRef, render
from tests.spark.conftest import statements_sent

pytestmark = pytest.mark.spark


@pytest.fixture
def db(spark_session, spark_url):  # type: ignore[no-untyped-def]
    d = Database.open(spark_url)
    yield d
    d.drop_work_tables()
    d.close()


def test_migrations_apply_once_with_checksums(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    with Database.open(spark_url) as first:
        rows = first.raw_rows("SELECT version, checksum FROM ldiv.schema_migration ORDER BY version")
    assert [v for v, _ in rows] == [1, 2, 3, 4]
    with Database.open(spark_url) as again:
        assert again.raw_rows("SELECT version, checksum FROM ldiv.schema_migration ORDER BY version") == rows
        assert again.dialect == "spark" and not again.transactional


def test_bound_values_and_hostile_names(db) -> None:  # type: ignore[no-untyped-def]
    db.raw_rows("CREATE SCHEMA IF NOT EXISTS t_bound")
    db.raw_rows('CREATE TABLE t_bound.people ("zip code" VARCHAR, "it\'s" DOUBLE)')
    ref = TableRef("people", "t_bound")
    db.insert_frame(ref, pd.DataFrame({"zip code": ["a'b", None, "50%"], "it's": [1.5, None, 3.0]}))
    evil = 'x\'); DROP TABLE t_bound."pe ople"; --'
    q = Query(
        "t",
        'SELECT count(*) AS n FROM t_bound.people WHERE "zip code" = $z OR "zip code" = $e',
        {"z": "a'b", "e": evil},
    )
    assert db.scalar(q) == 1
    frame = db.df(Query("t", 'SELECT * FROM t_bound.people ORDER BY "it\'s"'))
    assert list(frame.columns) == ["zip code", "it's"] and len(frame) == 3
    assert db.scalar(render("catalog/row_count.sql", source=ref)) == 3
    with pytest.raises(BadInput, match="letters, digits and _"):
        db.raw_rows('CREATE TABLE t_bound."pe ople" (a INT)')


def test_insert_frame_keeps_every_kind_of_column(db) -> None:  # type: ignore[no-untyped-def]
    """Native integer and boolean columns go through Arrow as they are; the others as Python values:
    63-bit ints beside NULLs stay exact, categories arrive as their labels, NaN arrives as NULL."""
    db.raw_rows("CREATE SCHEMA IF NOT EXISTS t_kinds")
    db.raw_rows("CREATE TABLE t_kinds.k (i BIGINT, n INT, b BOOLEAN, big BIGINT, c VARCHAR, f DOUBLE)")
    big = 2**62 + 1
    frame = pd.DataFrame(
        {
            "i": np.array([2**40, -5, 7], dtype=np.int64),
            "n": np.array([1, 2, 3], dtype=np.int32),
            "b": np.array([True, False, True]),
            "big": pd.Series([big, None, -big], dtype=object),
            "c": pd.Categorical(["x", "y", "x"]),
            "f": [0.5, np.nan, 2.0],
        }
    )
    db.insert_frame(TableRef("k", "t_kinds"), frame)
    got = db.raw_rows("SELECT i, n, b, big, c, f FROM t_kinds.k ORDER BY n")
    assert [tuple(r) for r in got] == [
        (2**40, 1, True, big, "x", 0.5),
        (-5, 2, False, None, "y", None),
        (7, 3, True, -big, "x", 2.0),
    ]
    # a frame of integers and booleans only (an algorithm's assignment) is handed over as it is, not
    # converted to Python objects (a 10M-row assignment of four columns took 1.1 GB more that way)
    native = frame[["i", "n", "b"]]
    assert arrow_ready(native) is native


def test_hash_tells_null_places_and_splits_apart_and_its_second_hash_is_its_own(db) -> None:  # type: ignore[no-untyped-def]
    rows = [("x", None), (None, "x"), ("ab", "c"), ("a", "bc"), (None, None), ("", None), (None, "")]
    values = ", ".join("(" + ", ".join("NULL" if v is None else f"'{v}'" for v in r) + ")" for r in rows)
    q = Query(
        "t",
        f"SELECT hash(a, b) AS h, hash(a, b, 'ldiv') AS h2 FROM (VALUES {values}) AS v(a, b)",
    )
    got = [tuple(r) for r in db.rows(q)]
    first = [h for h, _ in got]
    second = [h2 for _, h2 in got]
    assert len(set(first)) == len(rows) and len(set(second)) == len(rows)
    assert all(h >= 0 for h in first + second)  # masked to 63 bits
    assert not set(first) & set(second)
    # the same values hash alike in another statement (ids name groups across statements)
    again = [tuple(r) for r in db.rows(q)]
    assert again == got


def test_ids_from_the_largest_plus_one(db) -> None:  # type: ignore[no-untyped-def]
    ids = [
        db.scalar(
            render(
                "meta/run_start.sql",
                {"command": "check", "algorithm": None, "source": "s", "output": None, "params": "{}"},
            )
        )
        for _ in range(2)
    ]
    assert ids[1] == ids[0] + 1
    assert db.scalar(Query("t", "SELECT command FROM ldiv.run WHERE run_id = $i", {"i": ids[1]})) == "check"


def test_list_slices_as_on_duckdb(db) -> None:  # type: ignore[no-untyped-def]
    """DuckDB's ``l[lo:hi]`` (1-based, both ends included, an open end) on Spark gives DuckDB's lists."""
    sql = (
        "SELECT [1, 2, 3, 4, 5, 6, 7][2:5] AS a, [1, 2, 3][2:] AS b, [1, 2, 3][:2] AS c, "
        "(SELECT list(x ORDER BY x DESC)[1:3] FROM range(10) AS t(x)) AS d, [1, 2][1:9] AS e"
    )
    with Database.open(":memory:", migrate=False) as duck:
        want = duck.rows(Query("t", sql))
    got = db.rows(Query("t", sql))
    assert [tuple(list(v) for v in r) for r in got] == [tuple(list(v) for v in r) for r in want]
    assert want == [([2, 3, 4, 5], [2, 3], [1, 2], [9, 8, 7], [1, 2])]


def test_stream_state_is_saved_by_name_and_replaced(db) -> None:  # type: ignore[no-untyped-def]
    """``decomposition/stream_save.sql`` (an upsert on DuckDB and PostgreSQL): on Spark the table is
    rewritten without the name's row plus the new one, through a scratch table."""

    def save(name: str, releases: int) -> None:
        params = {
            "name": name,
            "source": "main.s",
            "config": '{"a": 1}',
            "releases": releases,
            "first_release": 1,
            "next_key": 10 * releases,
            "retained": "ldiv.r",
        }
        db.run(render("decomposition/stream_save.sql", params))

    save("t_save.one", 1)
    save("t_save.two", 1)
    save("t_save.one", 2)
    rows = db.rows(
        Query(
            "t", "SELECT name, releases, next_key FROM ldiv.stream WHERE name LIKE 't_save.%' ORDER BY name"
        )
    )
    assert rows == [("t_save.one", 2, 20), ("t_save.two", 1, 10)]
    db.run(Query("t", "DELETE FROM ldiv.stream WHERE name LIKE 't_save.%'"))


def test_an_update_or_delete_that_matches_no_row_leaves_the_table_unwritten(db) -> None:  # type: ignore[no-untyped-def]
    """An emulated UPDATE/DELETE rewrites the whole table (a scratch copy, then INSERT OVERWRITE); one
    that would change no row is skipped after one probe: the table keeps its very files. One that matches
    rewrites it, with DuckDB's result."""
    db.run(Query("t", "CREATE TABLE default.t_probe (k INTEGER, v VARCHAR)"))
    db.run(Query("t", "INSERT INTO default.t_probe VALUES (1, 'a'), (2, NULL), (3, 'c')"))

    def files() -> set[str]:
        return set(db.spark.table("default.t_probe").inputFiles())

    try:
        before = files()
        db.run(Query("t", "DELETE FROM default.t_probe WHERE k = $k", {"k": 9}))
        db.run(Query("t", "UPDATE default.t_probe SET v = 'x' WHERE v = $v", {"v": "zz"}))
        db.run(Query("t", "UPDATE default.t_probe SET v = 'x' WHERE v = NULL"))  # NULL: no row
        assert files() == before
        db.run(Query("t", "UPDATE default.t_probe SET v = 'x' WHERE k = $k", {"k": 2}))
        db.run(Query("t", "DELETE FROM default.t_probe WHERE k = $k", {"k": 3}))
        assert files() != before
        got = db.rows(Query("t", "SELECT k, v FROM default.t_probe ORDER BY k"))
        assert got == [(1, "a"), (2, "x")]
    finally:
        db.run(Query("t", "DROP TABLE IF EXISTS default.t_probe"))


def test_the_metastore_runs_without_direct_sql(spark_session) -> None:  # type: ignore[no-untyped-def]
    # the Hive client of the running session got it (its own conf, not only Spark's)
    client = spark_session._jsparkSession.sharedState().externalCatalog().unwrapped().client()  # type: ignore[attr-defined]
    assert client.getConf("hive.metastore.try.direct.sql", "unset") == "false"
    assert client.getConf("javax.jdo.option.ConnectionURL", "").startswith("jdbc:derby:")


def test_the_metastore_gives_new_directories_no_inherited_permissions(spark_session) -> None:  # type: ignore[no-untyped-def]
    # Hive 2 would copy the parent's group and mode onto each new table directory through ls and chmod
    # processes (decision 0032, "Round 17"); the directory still gets the mode a plain mkdir gives
    client = spark_session._jsparkSession.sharedState().externalCatalog().unwrapped().client()  # type: ignore[attr-defined]
    assert client.getConf("hive.warehouse.subdir.inherit.perms", "unset") == "false"


def test_case_mapping_without_icu_answers_the_templates_as_icu_does(spark_session) -> None:  # type: ignore[no-untyped-def]
    """A local session lowers and uppers by the JVM's mapping under a pinned English locale (decision
    0032, "Round 8"), not ICU's: the templates' uses (lowered names compared, values tested against
    ASCII words) give ICU's answers, Turkish dotted and dotless I and the Kelvin sign included."""
    assert spark_session.conf.get("spark.sql.icu.caseMappings.enabled") == "false"  # type: ignore[attr-defined]
    assert spark_session._jvm.java.lang.System.getProperty("user.language") == "en"  # type: ignore[attr-defined]
    words = "('nan', 'inf', '-inf', 'infinity', '-infinity')"
    values = [
        "NaN",
        "-INF",
        "Infinity",
        "\u0130nf",
        "\u0131nf",
        "\u212aelvin",
        "STRASSE",
        "\u03a3\u03a3",
        "main",
    ]
    cases = ", ".join(f"('{v}')" for v in values)
    query = (
        f"SELECT v, lower(v), upper(v), lower(v) IN {words}, lower(v) = lower('MAIN') "
        f"FROM VALUES {cases} AS t(v)"
    )
    jvm = spark_session.sql(query).collect()  # type: ignore[attr-defined]
    spark_session.conf.set("spark.sql.icu.caseMappings.enabled", "true")  # type: ignore[attr-defined]
    try:
        icu = spark_session.sql(query).collect()  # type: ignore[attr-defined]
    finally:
        spark_session.conf.set("spark.sql.icu.caseMappings.enabled", "false")  # type: ignore[attr-defined]
    assert [tuple(r) for r in jvm] == [tuple(r) for r in icu]
    assert [r[3] for r in jvm] == [True, True, True, False, False, False, False, False, False]


def test_work_tables_live_in_their_own_schema_and_go(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    with Database.open(spark_url) as d:
        ref = d.work_table("wk x's")
        d.run(Query("t", f"CREATE TABLE {ref.sql()} AS SELECT 1 AS a"))
        schema = ref.schema
        assert d.exists(ref)
    names = [r[0] for r in spark_session.sql("SHOW SCHEMAS").collect()]
    assert schema not in names


def test_a_work_table_no_statement_made_is_not_dropped_and_the_work_schema_goes_in_one(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    """The work schema is the connection's own: a DROP TABLE IF EXISTS of a work table no statement named
    is not sent (the table cannot be there: the DROP half of a first CREATE OR REPLACE, a drop after a
    run); one that a statement made is remembered and sent before the next statement or catalog call
    that names the table, else dropped with the schema. drop_work_tables drops the schema in one
    statement; the next work table makes it again."""
    sent: list[str] = []
    real = type(spark_session).sql

    def spy(self, query, args=None, **kwargs):  # type: ignore[no-untyped-def]
        sent.append(" ".join(query.split()) + f" {args!r}")
        return real(self, query, args, **kwargs)

    def drops(name: str) -> int:
        return len([q for q in sent if "DROP TABLE" in q and name in q])

    monkeypatch.setattr(type(spark_session), "sql", spy)
    with Database.open(spark_url) as d:
        never, made = d.work_table("never_made"), d.work_table("made_twice")
        d.run(render("catalog/drop_work_table.sql", target=never))
        assert not [q for q in sent if "never_made" in q]
        for v in (1, 2):
            d.run(Query("t", f"CREATE OR REPLACE TABLE {made.sql()} AS SELECT {v} AS a"))
        assert d.scalar(Query("t", f"SELECT a FROM {made.sql()}")) == 2
        # the second CREATE OR REPLACE dropped the first table; the first had nothing to drop
        assert drops("made_twice") == 1
        d.run(render("catalog/drop_work_table.sql", target=made))
        assert drops("made_twice") == 1  # remembered, not sent
        # a plain CREATE (it fails on an existing table) works: the drop is sent before it
        d.run(Query("t", f"CREATE TABLE {made.sql()} AS SELECT 3 AS a"))
        assert drops("made_twice") == 2
        assert d.scalar(Query("t", f"SELECT a FROM {made.sql()}")) == 3
        d.run(render("catalog/drop_work_table.sql", target=made))
        assert not d.exists(made) and drops("made_twice") == 3  # the catalog asked: sent first
        with pytest.raises(LdivError):  # a statement reading a dropped table fails as it did
            d.scalar(Query("t", f"SELECT a FROM {made.sql()}"))
        last = d.work_table("dropped_with_the_schema")
        d.run(Query("t", f"CREATE OR REPLACE TABLE {last.sql()} AS SELECT 5 AS a"))
        d.run(render("catalog/drop_work_table.sql", target=last))
        schema = made.schema
        before = len(sent)
        d.drop_work_tables()
        assert len(sent) - before == 1 and "DROP SCHEMA" in sent[-1]
        assert schema not in [r[0] for r in real(spark_session, "SHOW SCHEMAS").collect()]
        again = d.work_table("after")
        d.run(Query("t", f"CREATE OR REPLACE TABLE {again.sql()} AS SELECT 4 AS a"))
        assert d.scalar(Query("t", f"SELECT a FROM {again.sql()}")) == 4


def test_read_mode_refuses_writes(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    with Database.open(spark_url, mode="read") as d, pytest.raises(LdivError, match="read-only"):
        d.run(Query("t", "CREATE TABLE default.nope AS SELECT 1 AS a"))
    assert not spark_session.catalog.tableExists("default.nope")


def _write(db, rows: int):  # type: ignore[no-untyped-def]
    def write(ref: TableRef) -> None:
        db.run(Query("w", f"CREATE TABLE {ref.sql()} (v BIGINT)"))
        db.insert_frame(ref, pd.DataFrame({"v": range(rows)}))

    return write


def _build(db, rows: int, check=lambda ref: None):  # type: ignore[no-untyped-def]
    """A staged build: write each staging table, then run ``check`` on it (raising refuses)."""

    def build(stages) -> str:  # type: ignore[no-untyped-def]
        for stage in stages.values():
            _write(db, rows)(stage)
            check(stage)
        return "built"

    return build


def _content(db, ref: TableRef) -> int:  # type: ignore[no-untyped-def]
    return int(db.scalar(Query("c", f"SELECT count(*) FROM {ref.sql()}")))


def test_staged_publish_replaces_only_after_verification(db) -> None:  # type: ignore[no-untyped-def]
    db.raw_rows("CREATE SCHEMA IF NOT EXISTS t_stage")
    out, other = TableRef("rel", "t_stage"), TableRef("rel_b", "t_stage")
    assert publish_staged(db, [out, other], 1, build=_build(db, 3), record=lambda b: b + " ok") == "built ok"
    assert _content(db, out) == 3 and _content(db, other) == 3

    def refuse(ref: TableRef) -> None:
        assert _content(db, ref) == 5  # the checks see the staging table, not the name
        raise LdivError("verification failed")

    with pytest.raises(LdivError, match="verification failed"):
        publish_staged(db, [out, other], 2, build=_build(db, 5, refuse), record=lambda b: "no")
    assert _content(db, out) == 3 and not db.exists(staging_ref(out, 2))

    def broken_record(built: str) -> str:
        assert _content(db, out) == 7 and _content(db, other) == 7  # recorded after the renames
        raise LdivError("record failed")

    with pytest.raises(LdivError, match="record failed"):
        publish_staged(db, [out, other], 3, build=_build(db, 7), record=broken_record)
    assert _content(db, out) == 3 and _content(db, other) == 3 and not db.exists(previous_ref(out, 3))
    assert sorted(db.table_names("t_stage")) == ["rel", "rel_b"]


def test_recover_puts_the_previous_release_back(db) -> None:  # type: ignore[no-untyped-def]
    db.raw_rows("CREATE SCHEMA IF NOT EXISTS t_recover")
    out = TableRef("rel", "t_recover")
    _write(db, 4)(out)
    db.rename(out, previous_ref(out, 9))  # a process killed between 'aside' and 'publish'
    _write(db, 2)(staging_ref(out, 9))
    done = recover(db, out)
    assert _content(db, out) == 4 and sorted(db.table_names("t_recover")) == ["rel"] and len(done) == 2
    # killed between 'publish' and 'record': run 10's table under the name, not recorded
    db.rename(out, previous_ref(out, 10))
    _write(db, 6)(out)
    assert recover(db, out, recorded=lambda run: run != 10) and _content(db, out) == 4
    # ... and when run 11 did record its release, its table stays and the previous one goes
    db.rename(out, previous_ref(out, 11))
    _write(db, 8)(out)
    recover(db, out, recorded=lambda run: run == 11)
    assert _content(db, out) == 8 and sorted(db.table_names("t_recover")) == ["rel"]


def test_migrations_mark_is_the_records_digest(spark_session, spark_url, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The open reads the mark on ldiv.schema_migration, not the records, when the mark is the digest of
    every shipped migration; a mark that is not reads the records (and refuses a migration it does not
    ship), then writes the mark again."""
    import hashlib

    from ldiv_db.db.spark.engine import SparkDatabase
    from ldiv_db.db.spark.schema import MARK
    from ldiv_db.errors import MigrationError

    record = TableRef("schema_migration", "ldiv")
    with Database.open(spark_url) as db:
        rows = db.raw_rows("SELECT version, name, checksum FROM ldiv.schema_migration ORDER BY version")
        mark = db.table_property(record, MARK)
    expected = hashlib.sha256("\n".join(f"{v}:{n}:{c}" for v, n, c in rows).encode()).hexdigest()
    assert [v for v, _, _ in rows] == [1, 2, 3, 4] and mark == expected

    def no_read(self, sql, params=None):  # type: ignore[no-untyped-def]
        raise AssertionError(f"the open read the records: {sql}")

    with monkeypatch.context() as m:
        m.setattr(SparkDatabase, "raw_rows", no_read)
        Database.open(spark_url).close()  # the mark alone: no read of the records

    with Database.open(spark_url) as db:
        db.set_table_property(record, MARK, "stale")
        db.raw_rows("INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (999, 'future', 'y')")
    try:
        with pytest.raises(MigrationError, match="0999_future which this ldiv_db does not ship"):
            Database.open(spark_url)
    finally:
        with Database.open(spark_url, migrate=False) as db:
            db.run(Query("t", "DELETE FROM ldiv.schema_migration WHERE version = 999"))
    with Database.open(spark_url) as db:
        assert db.table_property(record, MARK) == expected  # read, verified, marked again


def test_catalog_listings_are_kept_within_a_command_and_forgotten_by_its_ddl(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    """A schema is listed once a command (SHOW TABLES and SHOW VIEWS): name lookups, exists and
    table_names answer from that listing until a statement or catalog operation creates, drops or renames
    something outside the work schema; a work table's statement forgets nothing; a command's start
    (Database.open of a connection) forgets it all, so a table made meanwhile by another session is seen.
    exists() of a schema not listed asks the metastore for that one table and lists nothing."""
    real = type(spark_session).sql
    sent = statements_sent(spark_session, monkeypatch)

    def listings() -> int:
        return len([q for q in sent if q.startswith("SHOW TABLES")])

    one, two = TableRef("t_listed", "default"), TableRef("t_listed_2", "default")
    with Database.open(spark_url) as d:
        sent.clear()  # what the open asked (the migrations' check) is not counted
        try:
            first = d.table_names("default")
            assert d.table_names("default") == first and not d.exists(one) and listings() == 1
            work = d.work_table("listed_work")
            d.run(Query("t", f"CREATE OR REPLACE TABLE {work.sql()} AS SELECT 1 AS a"))
            assert not d.exists(one) and listings() == 1  # a work table's DDL forgets nothing
            d.run(Query("t", "CREATE TABLE default.t_listed (k INTEGER)"))
            assert d.exists(one) and "t_listed" in d.table_names("default") and listings() == 2
            d.rename(one, two)
            assert not d.exists(one) and d.exists(two) and listings() == 2  # not listed: asked by name
            assert "t_listed_2" in d.table_names("default") and listings() == 3
            d.drop_table(two)
            assert d.table_names("default") == first and not d.exists(two) and listings() == 4
            real(spark_session, "CREATE TABLE default.t_listed (k INTEGER)")  # behind its back
            assert not d.exists(one) and listings() == 4  # one writer per catalog: not seen this command
            assert Database.open(d) is d  # the next command
            assert d.exists(one) and listings() == 4
        finally:
            real(spark_session, "DROP TABLE IF EXISTS default.t_listed")
            real(spark_session, "DROP TABLE IF EXISTS default.t_listed_2")


def test_an_emulated_update_is_two_statements_its_scratch_dropped_with_the_work_schema(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    """An UPDATE that matches rows: a probe, the scratch copy and the INSERT OVERWRITE; the scratch table's
    drop waits for the next rewrite (sent before it) or the work schema's drop."""
    real = type(spark_session).sql
    sent = statements_sent(spark_session, monkeypatch)
    with Database.open(spark_url) as d:
        d.run(Query("t", "CREATE TABLE default.t_dml (k INTEGER, v VARCHAR)"))
        try:
            d.run(Query("t", "INSERT INTO default.t_dml VALUES (1, 'a'), (2, 'b')"))
            for k, v in ((1, "x"), (2, "y")):
                before = len(sent)
                d.run(Query("t", "UPDATE default.t_dml SET v = $v WHERE k = $k", {"k": k, "v": v}))
                kinds = [
                    q.split(" ")[0] for q in sent[before:] if "CREATE SCHEMA" not in q
                ]  # the work schema's
                # the first rewrite made the scratch table; the second drops it first
                assert kinds == (
                    ["SELECT", "CREATE", "INSERT"] if k == 1 else ["SELECT", "DROP", "CREATE", "INSERT"]
                )
            assert d.rows(Query("t", "SELECT k, v FROM default.t_dml ORDER BY k")) == [(1, "x"), (2, "y")]
            scratch = d.work_table("ldiv_dml")
            d.drop_work_tables()
            assert scratch.schema not in [r[0] for r in real(spark_session, "SHOW SCHEMAS").collect()]
        finally:
            real(spark_session, "DROP TABLE IF EXISTS default.t_dml")


def test_load_counts_what_it_writes_and_keeps_the_listing(  # type: ignore[no-untyped-def]
    tmp_path, spark_session, spark_url, monkeypatch
) -> None:
    """``ldiv load`` on Spark: the rows are the batches' sum (no count(*) after the write), and the target
    is looked up by name, before and after the write, without listing its schema; the table holds
    exactly those rows, and a second load into the same name is refused as before."""
    from ldiv_db.api import load

    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n" + "".join(f"{i},x{i % 3}\n" for i in range(25)), encoding="utf-8")
    with Database.open(spark_url) as d:
        try:
            sent = statements_sent(spark_session, monkeypatch)
            done = load(d, csv, "t_loaded")
            monkeypatch.undo()
            assert done.rows == 25 and [c for c, _ in done.columns] == ["a", "b"]
            assert not [q for q in sent if "COUNT(" in q.upper() or q.startswith("SHOW ")]
            assert d.rows(render("catalog/table_info.sql", {"schema": "main", "name": "t_loaded"})) == [
                ("main", "t_loaded", "BASE TABLE")
            ]
            assert spark_session.sql("SELECT count(*) FROM main.t_loaded").collect()[0][0] == 25
            with pytest.raises(LdivError):
                load(d, csv, "t_loaded")
        finally:
            spark_session.sql("DROP TABLE IF EXISTS main.t_loaded")


def test_a_run_end_rewrites_the_run_table_without_a_probe_and_as_with_one(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    """``meta/run_finish.sql`` is hinted changes-a-row: the emulated UPDATE is sent without its probe
    (a rewrite that matched nothing would leave the table as it was), and the row reads back as the
    same statement with its probe leaves it."""
    params = {"command": "t", "algorithm": None, "source": "s", "output": "o", "params": None}
    end = {"status": "done", "seconds": 1.5, "queries": 3, "metrics": None, "error": None}
    with Database.open(spark_url) as d:
        ids = [int(d.scalar(render("meta/run_start.sql", params))) for _ in range(2)]
        hinted = render("meta/run_finish.sql", {"run_id": ids[0], **end})
        assert "changes-a-row" in hinted.hints
        sent = statements_sent(spark_session, monkeypatch)
        d.run(hinted)
        d.run(Query(hinted.name, hinted.sql, {**hinted.params, "run_id": ids[1]}))  # no hint: probed
        monkeypatch.undo()
        probes = [q for q in sent if q.startswith("SELECT 1 FROM ldiv.run")]
        assert len(probes) == 1
        got = d.rows(
            Query("t", f"SELECT run_id, status, seconds, queries FROM ldiv.run WHERE run_id >= {ids[0]}")
        )
        assert sorted(got) == [(ids[0], "done", 1.5, 3), (ids[1], "done", 1.5, 3)]


def test_a_table_looked_up_by_name_answers_as_its_schema_listed_does(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    """table_info and table_exists of a schema not listed look the one table up in the metastore; the
    answer is the listing's: a table, a view, a name in other case, a missing table or schema, a
    temporary view (never listed). The schemas come from SHOW SCHEMAS, as the catalog API lists them."""
    spark_session.sql("CREATE TABLE IF NOT EXISTS default.t_named (a INT) USING parquet")
    spark_session.sql("CREATE OR REPLACE VIEW default.v_named AS SELECT 1 AS a")
    spark_session.sql("CREATE OR REPLACE TEMPORARY VIEW t_temp_named AS SELECT 1 AS a")
    try:
        with Database.open(spark_url) as d:
            names = [("default", "t_named"), ("default", "T_Named"), ("default", "v_named"), ("default", "nope"),
                     ("no_schema", "t_named"), ("default", "t_temp_named")]  # fmt: skip
            for sch, name in names:
                key = {"schema": sch, "name": name}
                one = d.rows(render("catalog/table_info.sql", key))
                there = d.rows(render("catalog/table_exists.sql", {**key, "catalog": None}))
                d.listings.tables(sch)  # listed now: the same questions answered from the listing
                assert d.rows(render("catalog/table_info.sql", key)) == one, (sch, name)
                assert d.rows(render("catalog/table_exists.sql", {**key, "catalog": None})) == there
                assert there == [(bool(one),)] and bool(one) == (
                    sch == "default" and name.lower() in ("t_named", "v_named")
                )
                d.listings.forget()
            assert one == [] and d.listings.schemas() == sorted(
                str(s.name) for s in spark_session.catalog.listDatabases()
            )
    finally:
        spark_session.sql("DROP VIEW IF EXISTS default.v_named")
        spark_session.sql("DROP TABLE IF EXISTS default.t_named")
        spark_session.catalog.dropTempView("t_temp_named")


def test_an_empty_schema_is_listed_in_one_statement(spark_session, spark_url, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """SHOW TABLES lists views too: a schema it finds empty is not asked for its views."""
    spark_session.sql("CREATE SCHEMA IF NOT EXISTS empty_listed")
    try:
        with Database.open(spark_url) as d:
            sent = statements_sent(spark_session, monkeypatch)
            assert d.table_names("empty_listed") == []
            monkeypatch.undo()
            assert [q.split(" IN ")[0] for q in sent if q.startswith("SHOW")] == ["SHOW TABLES"]
    finally:
        spark_session.sql("DROP SCHEMA IF EXISTS empty_listed CASCADE")
