"""The PostgreSQL session settings taken from the environment: a bad value is an error that names the
variable (before, it reached the server and came back as "cannot reach the PostgreSQL server")."""

from __future__ import annotations

import pytest

from ldiv_db.db.postgres.settings import session_options, unlogged_work
from ldiv_db.errors import BadInput


def test_defaults() -> None:
    opts = session_options().split()
    assert "lock_timeout=10s" in opts and "work_mem=256MB" in opts and "temp_buffers=256MB" in opts


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("LDIV_PG_WORK_MEM", "512MB"),
        ("LDIV_PG_TEMP_BUFFERS", "64MB"),
        ("LDIV_PG_TEMP_BUFFERS", "8192"),
        ("LDIV_LOCK_TIMEOUT", "300ms"),
        ("LDIV_LOCK_TIMEOUT", "2min"),
    ],
)
def test_a_good_value_is_passed_on(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    monkeypatch.setenv(variable, value)
    name = {"LDIV_PG_WORK_MEM": "work_mem", "LDIV_PG_TEMP_BUFFERS": "temp_buffers"}.get(
        variable, "lock_timeout"
    )
    assert f"-c {name}={value}" in session_options()


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("LDIV_PG_WORK_MEM", "lots"),
        ("LDIV_PG_WORK_MEM", "0"),
        ("LDIV_PG_TEMP_BUFFERS", "1GB -c default_transaction_read_only=off"),
        ("LDIV_PG_TEMP_BUFFERS", "-5MB"),
        ("LDIV_LOCK_TIMEOUT", "abc"),
        ("LDIV_LOCK_TIMEOUT", "10 s"),
    ],
)
def test_a_bad_value_names_the_variable(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(BadInput, match=variable) as err:
        session_options()
    assert err.value.hint and "unset it" in err.value.hint


def test_work_tables_are_unlogged_and_out_of_autovacuums_reach() -> None:
    ws = 'ldiv_work_1_"x'
    out = unlogged_work(
        [
            'DROP TABLE IF EXISTS "ldiv_work_1_""x"."a""b AS c"',
            '/* purpose: x */ CREATE TABLE "ldiv_work_1_""x"."a""b AS c" AS SELECT 1 AS n',
            'ANALYZE "ldiv_work_1_""x"."a""b AS c"',
            'CREATE TABLE "ldiv_work_1_""x"."t" (gid BIGINT)',
            'CREATE TABLE "main"."release" AS SELECT 1 AS n',
        ],
        ws,
    )
    assert out == [
        'DROP TABLE IF EXISTS "ldiv_work_1_""x"."a""b AS c"',
        '/* purpose: x */ CREATE UNLOGGED TABLE "ldiv_work_1_""x"."a""b AS c" WITH (autovacuum_enabled = false, '
        "toast.autovacuum_enabled = false) AS SELECT 1 AS n",
        'ANALYZE "ldiv_work_1_""x"."a""b AS c"',
        'CREATE UNLOGGED TABLE "ldiv_work_1_""x"."t" (gid BIGINT)',
        'ALTER TABLE "ldiv_work_1_""x"."t" SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)',
        'CREATE TABLE "main"."release" AS SELECT 1 AS n',  # not a work table: as it was
    ]
