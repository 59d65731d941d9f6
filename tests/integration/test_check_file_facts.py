"""The facts of a file a check reads (a table's columns, its owner, the SA's categories, a release's details:
``FILE_FACTS`` in ldiv_db/db/duckdb/engine.py) are kept for a connection's life only where nothing can
change them while it is open: a file ldiv_db opened read-only. A read that shares this process's
read-write instance of the file, and a write, read them anew on every call, so a release written or a
column renamed between two checks is seen: the owner decides the partition a check judges (the
published group column), and a stale one would judge the wrong classes."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.db.duckdb.engine import CATALOG_FACTS, FILE_FACTS, PURE_READS, DuckDBDatabase
from ldiv_db.errors import BadInput
from ldiv_db.sqlgen.render import Query, TableRef, render
from tests.integration.frames import CHECK_ROWS, check_file

ROWS = CHECK_ROWS


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return check_file(tmp_path)


def _brute(keys: tuple[int, ...]) -> tuple[int, int, int]:
    """(classes, k, distinct l) of ROWS grouped by the columns at ``keys``, from the rows themselves."""
    groups: dict[tuple[object, ...], Counter[str]] = {}
    for row in ROWS:
        groups.setdefault(tuple(row[i] for i in keys), Counter())[row[2]] += 1
    return len(groups), min(sum(c.values()) for c in groups.values()), min(len(c) for c in groups.values())


def _facts_read(database: Database) -> list[str]:
    return [s.template for s in database.steps if s.template in FILE_FACTS]


def _three_checks(path: Path, read: Any) -> list[tuple[tuple[int, int, int], list[str]]]:
    """Three checks of t by age and sex on the file open read-only: each one's answer, and which of its
    statements ``read`` picks out of the step log."""
    with Database.open(str(path), mode="read") as database:
        seen = []
        for _ in range(3):
            database.steps.clear()
            r = ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
            seen.append(((r.groups, r.k, r.distinct_l), read(database)))
    return seen


def test_a_read_only_file_reads_its_facts_once(path: Path) -> None:
    answers = _three_checks(path, _facts_read)
    assert [a[0] for a in answers] == [_brute((0, 1))] * 3
    # no taxonomy/categories_for.sql: the distinct model takes no sensitivity categories
    assert answers[0][1] == ["catalog/columns.sql", "ownership/owner.sql"]
    assert answers[1][1] == answers[2][1] == []


def test_a_read_sharing_a_write_reads_them_anew(path: Path) -> None:
    """A read that finds the file open for writing in this process joins that instance: a column renamed
    and a release written through the writer between two checks are seen by the next check."""
    with Database.open(str(path)) as writer, Database.open(str(path), mode="read") as reader:
        r = ldiv_db.check(reader, "t", "age,sex", "disease", model="distinct", l=2)
        assert (r.groups, r.k, r.distinct_l) == _brute((0, 1))
        writer.con.execute("ALTER TABLE t RENAME COLUMN disease TO illness")  # type: ignore[attr-defined]
        with pytest.raises(BadInput, match="unknown column 'disease'"):
            ldiv_db.check(reader, "t", "age,sex", "disease", model="distinct", l=2)
        r = ldiv_db.check(reader, "t", "age,sex", "illness", model="distinct", l=2)
        assert (r.groups, r.k, r.distinct_l) == _brute((0, 1))

        # a table the reader checked as a plain table becomes a release: the owner is read again, and
        # the check judges the release's own classes (its group column with the QI labels)
        writer.con.execute("CREATE TABLE r AS SELECT * FROM t")  # type: ignore[attr-defined]
        plain = ldiv_db.check(reader, "r", "age,sex", "illness", model="distinct", l=2)
        assert plain.partition == "QI values (age, sex)"
        writer.con.execute("DROP TABLE r")  # type: ignore[attr-defined]
        ldiv_db.anonymize(writer, "t", "age,sex", "illness", algorithm="mondrian", output="r", l=2)
        reader.steps.clear()
        owned = ldiv_db.check(reader, "r", "age,sex", "illness", model="distinct", l=2)
        assert "ownership/owner.sql" in _facts_read(reader)
        assert owned.partition.startswith("group_id and QI values")
        assert owned.satisfied is True and owned.distinct_l >= 2


# The table list and a table's NULL counts (CATALOG_FACTS) are kept on a file open read-only while nothing
# else is attached and no statement but a plain read went out on the connection; the cases below change
# each of those between two checks and expect the second check to see the change.


def _catalog_read(database: Database) -> list[str]:
    return [s.template for s in database.steps if s.template in CATALOG_FACTS]


def test_the_table_list_and_null_counts_are_kept_while_nothing_changes(path: Path) -> None:
    seen = _three_checks(path, _catalog_read)
    assert [s[0] for s in seen] == [_brute((0, 1))] * 3
    assert seen[0][1] == ["catalog/tables.sql", "catalog/null_counts.sql"]
    assert seen[1][1] == seen[2][1] == []


def test_a_temporary_table_made_between_two_checks_is_seen(path: Path) -> None:
    """A temporary table named like the checked one hides it from every statement naming main.t: the
    second check must refuse, not judge the temporary rows under the file's table's name."""
    with Database.open(str(path), mode="read") as database:
        ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
        shadow = render(
            "decomposition/copy.sql", target=TableRef("t", "main", "temp"), source=TableRef("t", "main")
        )
        database.run(shadow)
        with pytest.raises(BadInput, match="hidden by a temporary table"):
            ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)


def test_sql_sent_on_the_connection_itself_is_seen(path: Path) -> None:
    """SQL sent on ``Database.con`` passes by ldiv_db's statements: a temporary table made there still
    makes the next check refuse, any temporary object there has the list read anew, and so has a USE."""
    with Database.open(str(path), mode="read") as database:
        con = database.con  # type: ignore[attr-defined]

        def check() -> tuple[tuple[int, int, int], list[str]]:
            database.steps.clear()
            r = ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
            return (r.groups, r.k, r.distinct_l), _catalog_read(database)

        check()
        assert check()[1] == []  # kept
        con.execute("CREATE TEMP TABLE t AS SELECT * FROM main.t LIMIT 1")
        with pytest.raises(BadInput, match="hidden by a temporary table"):
            check()
        con.execute("DROP TABLE temp.main.t")
        con.execute("CREATE TEMP VIEW elsewhere AS SELECT 1 AS a")  # a temporary object of another name
        assert check() == (_brute((0, 1)), ["catalog/tables.sql", "catalog/null_counts.sql"])
        con.execute("DROP VIEW elsewhere")
        check()
        assert check()[1] == []
        con.execute("SET search_path = 'main,main'")  # another search path: the list is read anew
        assert check() == (_brute((0, 1)), ["catalog/tables.sql", "catalog/null_counts.sql"])


def test_a_database_attached_by_another_connection_is_seen(path: Path, tmp_path: Path) -> None:
    """Another connection of this process to the same read-only instance attaches a database, then
    detaches it: the next check finds its table, the one after does not."""
    elsewhere = tmp_path / "elsewhere.duckdb"
    con = duckdb.connect(str(elsewhere))
    con.execute("CREATE TABLE u (age INTEGER, sex VARCHAR, disease VARCHAR)")
    con.executemany("INSERT INTO u VALUES (?, ?, ?)", ROWS)
    con.close()
    with Database.open(str(path), mode="read") as database:
        ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
        other = duckdb.connect(str(path), read_only=True)  # DuckDB's instance of the file: the same one
        try:
            other.execute(f"ATTACH '{elsewhere}' AS elsewhere (READ_ONLY)")  # a test's own file name
            database.steps.clear()
            r = ldiv_db.check(database, "u", "age,sex", "disease", model="distinct", l=2)
            assert (r.groups, r.k, r.distinct_l) == _brute((0, 1))
            assert _catalog_read(database) == ["catalog/tables.sql", "catalog/null_counts.sql"]
            other.execute("DETACH elsewhere")
            with pytest.raises(BadInput, match="unknown table 'u'"):
                ldiv_db.check(database, "u", "age,sex", "disease", model="distinct", l=2)
        finally:
            other.close()


def test_a_view_s_null_counts_are_read_on_every_check(path: Path, tmp_path: Path) -> None:
    """A view of a file on disk: its rows change while the database file stays open read-only, so a NULL
    written into the CSV file between two checks is seen by the second."""
    csv = tmp_path / "rows.csv"
    csv.write_text("age,sex,disease\n" + "".join(f"{a},{s},{d}\n" for a, s, d in ROWS))
    con = duckdb.connect(str(path))
    con.execute(f"CREATE VIEW v AS SELECT * FROM read_csv('{csv}')")  # a test's own file name: no quote
    con.close()
    with Database.open(str(path), mode="read") as database:
        r = ldiv_db.check(database, "v", "age,sex", "disease", model="distinct", l=2)
        assert (r.groups, r.k, r.distinct_l) == _brute((0, 1))
        csv.write_text(csv.read_text() + "3,,flu\n")
        with pytest.raises(BadInput, match="NULL"):
            ldiv_db.check(database, "v", "age,sex", "disease", model="distinct", l=2)


def test_the_statements_that_keep_the_catalog_facts_write_nothing(path: Path) -> None:
    """PURE_READS are the statements after which the kept table list still holds: each, as a check
    renders it (with every template it includes), is one query with no target to create and nothing that
    changes a catalog."""
    writes = re.compile(r"\b(CREATE|DROP|INSERT|UPDATE|DELETE|ATTACH|DETACH|ALTER|USE)\b", re.IGNORECASE)
    sent: dict[str, str] = {}
    send = DuckDBDatabase._send

    def spy(self: DuckDBDatabase, query: Query) -> Any:
        sent[query.name] = query.sql
        return send(self, query)

    with pytest.MonkeyPatch.context() as mp, Database.open(str(path), mode="read") as database:
        mp.setattr(DuckDBDatabase, "_send", spy)
        for model, params in (("distinct", {"l": 2}), ("recursive", {"l": 2, "c": 3}), ("entropy", {"l": 2})):
            for qi in ("age,sex", "sex"):  # by sex alone the distinct l is 3: the recursive profile is read
                ldiv_db.check(database, "t", qi, "disease", model=model, worst=None, **params)
    assert {
        "catalog/databases.sql",
        "partition/source_shapes.sql",
        "partition/source_profile.sql",
        "partition/group_keys.sql",
    } <= sent.keys()
    for name, sql in sent.items():
        if name in PURE_READS:
            body = "\n".join(line.split("--")[0] for line in sql.splitlines())
            assert body.lstrip().upper().startswith(("SELECT", "WITH")), name
            assert not writes.search(body), name
