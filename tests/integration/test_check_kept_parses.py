"""A check's statements (``PURE_READS`` in ldiv_db/db/duckdb/engine.py) are parsed once per DuckDB connection
and the parse is kept (``DuckDBDatabase._statement``; docs/decisions/0031-check-statements.md, Round 6).
A parse names no table, so what a kept statement reads is decided when it runs: a temporary table made
on the connection between two runs is read as a new statement would read it. And a parser setting
changed on the connection cannot make a kept statement read otherwise than a new one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import ldiv_db
from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.db import Database
from ldiv_db.db.duckdb.engine import PURE_READS, DuckDBDatabase
from ldiv_db.errors import BadInput
from ldiv_db.sqlgen.render import Ident, Query, TableRef
from tests.integration.frames import CHECK_ROWS, check_file

ROWS = CHECK_ROWS
FEW = [r for r in ROWS if r[0] >= 5]  # the rows of the temporary table that hides t


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return check_file(tmp_path)


def _brute(rows: list[tuple[int, str, str]]) -> tuple[int, int, int, int]:
    """(classes, rows, k, distinct l) of ``rows`` grouped by age and sex, from the rows themselves."""
    groups: dict[tuple[int, str], Counter[str]] = {}
    for a, s, d in rows:
        groups.setdefault((a, s), Counter())[d] += 1
    sizes = [sum(c.values()) for c in groups.values()]
    return len(groups), len(rows), min(sizes), min(len(c) for c in groups.values())


def _summary(database: Database) -> tuple[int, int, int, int]:
    """The statistics of main.t by age and sex as a check reads them (partition/source_shapes.sql)."""
    ev = SqlEvaluator(
        database,
        TableRef("t", "main"),
        [Ident("age"), Ident("sex")],
        [Ident("disease")],
        stats_only=True,
        rows=1,
    )
    s = ev.summary()[0]
    return s.groups, s.rows, s.k, s.distinct_l


def test_a_kept_statement_reads_the_table_its_name_finds_now(path: Path) -> None:
    """The same statement text, its parse kept, run before and after a temporary table named like the
    source is made on ``Database.con``: the second run reads the temporary rows, as a new statement would."""
    with Database.open(str(path), mode="read") as database:
        assert isinstance(database, DuckDBDatabase)
        assert _summary(database) == _brute(ROWS)
        first = database.steps[-1]
        assert first.template == "partition/source_shapes.sql" and first.template in PURE_READS
        kept = dict(database._parsed)
        database.con.execute("CREATE TEMP TABLE t AS SELECT * FROM main.t WHERE age >= 5")
        assert _summary(database) == _brute(FEW)
        assert database.steps[-1].sql_hash == first.sql_hash  # the same text: its kept parse ran
        assert database._parsed == kept
        database.con.execute("DROP TABLE temp.main.t")
        assert _summary(database) == _brute(ROWS)


def test_a_check_after_a_temporary_table_hides_its_source_refuses(path: Path) -> None:
    """At the level of ``check``: the first check keeps its parses, a temporary t made on ``con`` makes the
    second refuse (it would judge other rows under the file's table's name), and once it is dropped the
    third gives the first one's answer."""
    with Database.open(str(path), mode="read") as database:
        first = ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
        assert (first.groups, first.rows, first.k, first.distinct_l) == _brute(ROWS)
        database.con.execute("CREATE TEMP TABLE t AS SELECT * FROM main.t WHERE age >= 5")  # type: ignore[attr-defined]
        with pytest.raises(BadInput, match="hidden by a temporary table"):
            ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
        database.con.execute("DROP TABLE temp.main.t")  # type: ignore[attr-defined]
        again = ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
    ignored = ("seconds", "queries")
    assert {k: v for k, v in again.to_dict().items() if k not in ignored} == {
        k: v for k, v in first.to_dict().items() if k not in ignored
    }


def test_a_parser_setting_changed_on_the_connection_is_not_read(path: Path) -> None:
    """DuckDB's parser reads ``integer_division``: set on ``con``, it makes 7 / 2 an integer there. A kept
    statement, and one parsed after the setting changed, still read ``/`` as written (3.5, 4.5)."""
    with Database.open(str(path), mode="read") as database:
        con = database.con  # type: ignore[attr-defined]
        seven = Query("partition/shapes.sql", "SELECT 7 / 2 AS x")  # a name of PURE_READS: its parse is kept
        assert database.rows(seven) == [(3.5,)]
        con.execute("SET integer_division = true")
        assert con.execute("SELECT 7 / 2").fetchall() == [(3,)]
        assert database.rows(seven) == [(3.5,)]
        assert database.rows(Query("partition/shapes.sql", "SELECT 9 / 2 AS x")) == [(4.5,)]
