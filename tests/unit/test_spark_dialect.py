"""The Spark side of the engine layer that needs no Spark: spark:// URLs and the Spark SQL rewrites."""

from __future__ import annotations

import pytest
import sqlglot

from ldiv_db.db.spark.dialect import SPARK, spark_next_id
from ldiv_db.db.spark.engine import parse_url
from ldiv_db.errors import BadInput
from ldiv_db.sqlgen.dialects import translate


def test_urls_name_a_local_session_or_a_master() -> None:
    assert parse_url("spark://local[2]") == ("local[2]", {})
    master, conf = parse_url("spark://h.example:7077?warehouse=/tmp/w&spark.sql.shuffle.partitions=8")
    assert master == "spark://h.example:7077"
    assert conf == {"spark.sql.warehouse.dir": "/tmp/w", "spark.sql.shuffle.partitions": "8"}
    for bad in ("spark://", "spark://local[2]?colour=red"):
        try:
            parse_url(bad)
        except BadInput as exc:
            assert exc.hint
        else:
            raise AssertionError(f"{bad} was accepted")


def test_a_plus_in_a_url_option_stays_a_plus() -> None:
    """A form's ``+`` for a space would turn ``-XX:+UseG1GC`` into ``-XX: UseG1GC`` (the JVM then refuses to
    start) and a warehouse ``/tmp/a+b`` into another folder; ``%XX`` still decodes."""
    _, conf = parse_url(
        "spark://local[2]?warehouse=/tmp/a+b&spark.driver.extraJavaOptions=-XX:+UseG1GC%20-Dx=%2B1"
    )
    assert conf["spark.sql.warehouse.dir"].endswith("/tmp/a+b")
    assert conf["spark.driver.extraJavaOptions"] == "-XX:+UseG1GC -Dx=+1"


def test_values_stay_bound_and_names_quoted() -> None:
    (sql,) = translate('SELECT "it\'s" + $l AS x FROM "we ird"."t`b"', SPARK, frozenset({"l"}))
    assert ":l" in sql and "`it's`" in sql and "`t``b`" in sql
    assert sqlglot.parse_one(sql, read="spark") is not None


def test_create_or_replace_becomes_drop_and_create() -> None:
    out = translate('CREATE OR REPLACE TABLE s."t" AS SELECT 1 AS a', SPARK)
    assert [s.split()[0] for s in out] == ["DROP", "CREATE"] and "IF EXISTS" in out[0]


def test_hash_is_63_bit_xxhash_of_the_values_with_null_flags_constants_first() -> None:
    (sql,) = translate("SELECT hash(a, b) >> 1, hash(a, 'ldiv') FROM t", SPARK)
    assert sql.count("XXHASH64") == 2 and sql.count("9223372036854775807") == 2
    # every value with its NULL flag (xxhash64 skips a NULL); the constant seeds the second hash's chain
    assert "XXHASH64(a, (a) IS NULL, b, (b) IS NULL)" in sql
    assert "XXHASH64('ldiv', a, (a) IS NULL)" in sql
    # no text encoding (tests/spark: NULL places and split strings hash apart)
    assert "CONCAT" not in sql.upper()


def test_rowid_lists_and_types() -> None:
    (sql,) = translate(
        "SELECT s.rowid, list_extract(c, 2), len(counts), list_sum(list_slice(counts, 2, 3)), "
        "CAST(x AS HUGEINT), CAST($j AS JSON) FROM t AS s",
        SPARK,
        frozenset({"j"}),
    )
    assert "`s`.`ldiv_rowid`" in sql and "ELEMENT_AT" in sql and "SIZE(counts)" in sql
    assert "SLICE((counts), (2), (3) - (2) + 1)" in sql and "AGGREGATE" in sql
    assert "BIGINT" in sql and "JSON" not in sql.upper().replace("TO_JSON", "")


def test_migration_ddl_loses_sequences_and_constraints() -> None:
    ddl = (
        "CREATE SEQUENCE IF NOT EXISTS ldiv.run_seq START 1; CREATE TABLE ldiv.t (a INTEGER PRIMARY KEY, "
        "b VARCHAR NOT NULL, c JSON, d TIMESTAMP NOT NULL DEFAULT current_timestamp, UNIQUE (a, b))"
    )
    (sql,) = translate(ddl, SPARK)
    assert "PRIMARY" not in sql and "NOT NULL" not in sql and "UNIQUE" not in sql
    assert "c STRING" in sql and "DEFAULT" in sql


def test_nextval_becomes_a_bound_id_and_returning_goes() -> None:
    (sql,) = translate(
        "INSERT INTO ldiv.run (run_id, command) VALUES (nextval('ldiv.run_seq'), $c) RETURNING run_id",
        SPARK,
        frozenset({"c"}),
    )
    text, seq = spark_next_id(sql)
    assert seq == "run_seq" and ":ldiv_next_id" in text and "RETURNING" not in text.upper()


def test_ordered_lists_series_and_single_argument_least() -> None:
    (sql,) = translate(
        "SELECT list(n ORDER BY n DESC) AS c, least(min(h)) AS m FROM s CROSS JOIN range(0, $l) AS j(j)",
        SPARK,
        frozenset({"l"}),
    )
    # collect_list has no order: values travel with their keys and are sorted (descending here)
    assert "SORT_ARRAY((COLLECT_LIST(STRUCT(n AS k0, n AS v))), (FALSE))" in sql
    assert "(SELECT id AS `j` FROM RANGE((0), (:l))) AS `j`" in sql
    assert "LEAST" not in sql.upper()
    (inclusive,) = translate("SELECT * FROM generate_series(1, 3) AS g(v)", SPARK)
    assert "RANGE((1), ((3) + 1))" in inclusive


def test_equal_to_any_of_a_list_is_array_contains() -> None:
    # Spark's own translation, exists(l, x -> gid = x), evaluates a lambda on every row of the scan
    (sql,) = translate(
        "SELECT gid FROM t WHERE gid = ANY($gids) AND s = ANY([1, 2])", SPARK, frozenset({"gids"})
    )
    assert "ARRAY_CONTAINS(:gids, gid)" in sql and "ARRAY_CONTAINS(ARRAY(1, 2), s)" in sql
    assert "EXISTS" not in sql.upper() and "->" not in sql
    assert sqlglot.parse_one(sql, read="spark") is not None


def test_list_slices_become_slice_with_a_length() -> None:
    (sql,) = translate("SELECT l[2:5] AS a, l[3:] AS b FROM t", SPARK)
    assert sql.count("SLICE(") == 2 and "ELEMENT_AT" not in sql
    assert "(5) - (2) + 1" in sql and "SIZE((l))" in sql
    assert sqlglot.parse_one(sql, read="spark") is not None


def test_an_overwrite_that_reads_its_target_goes_through_the_scratch_table() -> None:
    from ldiv_db.db.spark.dialect import emulate_dml

    def no_columns(table: str) -> list[str]:
        raise AssertionError("an overwrite needs no column list")

    out = emulate_dml(
        "INSERT OVERWRITE TABLE ldiv.stream SELECT * FROM ldiv.stream WHERE name <> :n UNION ALL SELECT :n",
        no_columns,
        "w.scratch",
    )
    assert out is not None and [s.split()[0] for s in out] == ["DROP", "CREATE", "INSERT", "DROP"]
    assert "ldiv.stream" in out[1] and out[2] == "INSERT OVERWRITE TABLE ldiv.stream SELECT * FROM w.scratch"
    assert emulate_dml("INSERT OVERWRITE TABLE a.b SELECT * FROM a.c", no_columns, "w.scratch") is None


def test_an_update_or_delete_is_probed_for_a_row_it_would_change() -> None:
    from ldiv_db.db.spark.dialect import dml_probe

    probe = dml_probe(
        "DELETE FROM ldiv.release_table WHERE lower(schema_name) = lower(:s) AND table_name = :n"
    )
    assert probe == (
        "SELECT 1 FROM ldiv.release_table WHERE COALESCE(LOWER(schema_name) = LOWER(:s) AND table_name = :n, "
        "FALSE) LIMIT 1"
    )
    # an UPDATE's probe keeps its condition only (the SET values are not needed to know whether it hits)
    assert dml_probe("UPDATE ldiv.run SET status = :st WHERE run_id = :r") == (
        "SELECT 1 FROM ldiv.run WHERE COALESCE(run_id = :r, FALSE) LIMIT 1"
    )
    assert dml_probe("DELETE FROM a.b") == "SELECT 1 FROM a.b LIMIT 1"  # an empty table: nothing to do
    assert dml_probe("INSERT INTO a.b SELECT 1") is None
    assert dml_probe("CREATE TABLE a.b AS SELECT 1") is None


def test_a_local_master_gets_one_shuffle_partition_per_core() -> None:
    import os

    from ldiv_db.db.spark.session import local_defaults

    key, icu = "spark.sql.shuffle.partitions", {"spark.sql.icu.caseMappings.enabled": "false"}
    assert local_defaults("local[2]") == {key: "2", **icu}
    assert local_defaults("local") == {key: "1", **icu}
    assert local_defaults("local[3,2]") == {key: "3", **icu}  # local[N, retries]
    assert local_defaults("local[*]") == {key: str(os.cpu_count() or 1), **icu}
    assert local_defaults("spark://host:7077") == {}  # a cluster's own defaults stand


def test_a_local_driver_jvm_gets_the_client_compiler_and_the_serial_collector_unless_the_user_says() -> None:
    from ldiv_db.db.spark.session import java_options, local_jvm

    c1, serial, cache = "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=240m"
    for master in ("local", "local[2]", "local[*]", "local[3,2]"):
        assert local_jvm(master) == [c1, serial, cache]
    assert local_jvm("spark://host:7077") == []  # a cluster's driver keeps the JVM's defaults
    ours = ["-Dx=1", *local_jvm("local[2]")]
    assert java_options(ours, "").split() == ["-Dx=1", c1, serial, cache, "-XX:+ExitOnOutOfMemoryError"]
    # the user's compiler level comes later and wins; a collector of the user's replaces ours (the JVM
    # refuses to start with two)
    got = java_options(ours, "-XX:TieredStopAtLevel=4 -XX:+UseG1GC").split()
    assert got == [
        "-Dx=1",
        c1,
        cache,
        "-XX:TieredStopAtLevel=4",
        "-XX:+UseG1GC",
        "-XX:+ExitOnOutOfMemoryError",
    ]


def test_a_migration_that_only_creates_runs_twice_as_once() -> None:
    """On Spark a migration is recorded after it ran; one that only creates is made re-runnable, so a
    run cut short before its record is run again at the next open without an error. Checked on DuckDB:
    the shipped 0001 twice gives the tables of 0001 once; any other statement keeps a migration as it is."""
    import duckdb

    from ldiv_db.db.spark.schema import rerunnable
    from ldiv_db.schema.migrate import shipped_migrations

    first = shipped_migrations()[0]
    again = rerunnable(first.sql)
    assert again is not None
    con, plain = duckdb.connect(), duckdb.connect()
    con.execute(again)
    con.execute(again)
    plain.execute(first.sql)
    listing = "SELECT table_name, column_name, data_type FROM information_schema.columns ORDER BY ALL"
    assert con.execute(listing).fetchall() == plain.execute(listing).fetchall() != []
    with pytest.raises(duckdb.CatalogException):
        plain.execute(first.sql)  # as shipped, not re-runnable
    assert rerunnable("CREATE TABLE ldiv.a (x INT); INSERT INTO ldiv.a VALUES (1)") is None
    assert rerunnable("ALTER TABLE ldiv.a ADD COLUMN y INT") is None


def test_the_users_jvm_options_come_after_ldivs_and_keep_them() -> None:
    from ldiv_db.db.spark.session import java_options

    ours = ["-Dlog4j2.configurationFile=/q.properties"]
    assert java_options(ours, "") == "-Dlog4j2.configurationFile=/q.properties -XX:+ExitOnOutOfMemoryError"
    got = java_options(ours, " -XX:TieredStopAtLevel=1 -Dlog4j2.configurationFile=/mine ").split()
    assert got == [
        "-Dlog4j2.configurationFile=/q.properties",
        "-XX:TieredStopAtLevel=1",
        "-Dlog4j2.configurationFile=/mine",  # later: the user's wins
        "-XX:+ExitOnOutOfMemoryError",
    ]
