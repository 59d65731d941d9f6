"""Which statements turn a held Spark work table back into a catalog table first
(``ldiv_db/db/spark/held.py``): every write, a create of its name and a plain drop, so that no statement
is rewritten to name the unqualified view (a ``CREATE TABLE`` of it would land outside the work schema)."""

from __future__ import annotations

import pytest

from ldiv_db.db.spark.held import Held

WS = "ldiv_work_ab12"


def _held(*names: str) -> Held:
    h = Held(None, WS)
    for n in names:
        h.frames[n] = object()
    return h


@pytest.mark.parametrize(
    "sql",
    [
        f"INSERT INTO {WS}.t VALUES (1)",
        f"INSERT OVERWRITE TABLE `{WS}`.`t` SELECT 1",
        f"ALTER TABLE {WS}.t ADD COLUMNS (b INT)",
        f"UPDATE {WS}.t SET a = 1",
        f"DELETE FROM {WS}.T WHERE a = 1",
        f"CREATE TABLE {WS}.t (a INT)",
        f"CREATE TABLE IF NOT EXISTS `{WS}`.t (a INT)",
        f"create or replace table {WS}.t AS SELECT 1",
        f"DROP TABLE {WS}.t",
    ],
)
def test_a_statement_that_writes_makes_or_drops_a_held_table_names_it(sql: str) -> None:
    assert _held("t").written(sql) == ["t"]


@pytest.mark.parametrize(
    "sql",
    [
        f"SELECT * FROM {WS}.t",
        f"CREATE TABLE {WS}.u AS SELECT * FROM {WS}.t",
        f"INSERT INTO other.t SELECT * FROM {WS}.t",
        f"DROP TABLE {WS}.u",
    ],
)
def test_a_statement_that_only_reads_a_held_table_leaves_it_held(sql: str) -> None:
    assert _held("t").written(sql) == []


def test_reads_name_the_view_and_other_tables_stay_qualified() -> None:
    h = _held("t")
    out = h.rewrite(f"SELECT * FROM {WS}.t JOIN `{WS}`.`u` USING (a)")
    assert out == f"SELECT * FROM `{WS}__t` JOIN `{WS}`.`u` USING (a)"
