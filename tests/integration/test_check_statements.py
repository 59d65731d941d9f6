"""The statements ``check`` issues on DuckDB (issue 57 item 1, docs/decisions/0023-start-up.md): on a
source of at most ``Database.stats_from_source`` rows (a number on DuckDB) the group statistics come straight from the source in one
statement and the summary carries the class sizes; a larger source builds the histogram as before. Both
give the statistics and the verdict a brute force over the rows gives."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.db.duckdb.engine import CATALOG_FACTS, FILE_FACTS, DuckDBDatabase
from tests.integration.frames import check_file

ROWS = [
    (a, s, d)
    for a in range(6)
    for s in ("f", "m")
    for d in ("flu", "hiv", "flu", "cold")[: 1 + (a + len(s)) % 4]
]
SMALL_PATH = [
    "catalog/databases.sql",  # on a file open read-only: whether the table list may be kept (CATALOG_FACTS)
    "catalog/tables.sql",
    "catalog/columns.sql",
    "ownership/owner.sql",
    "catalog/null_counts.sql",  # no taxonomy/categories_for.sql: a model without categories reads none
    # the statistics from the source, the shapes and the model's verdict (privacy/distinct.sql) in one
    # statement, the statistics never stored
    "partition/source_shapes.sql",
    "partition/group_keys.sql",
]
# a check on a file open read-only reads the file's facts (a table's columns, its owner, the SA's categories)
# once per connection (ldiv_db/db/duckdb/engine.py: FILE_FACTS), and the table list and the NULL counts while
# nothing is attached and nothing changed the catalog (CATALOG_FACTS); the calls after the first issue the rest
REPEATED = [t for t in SMALL_PATH if t not in FILE_FACTS | CATALOG_FACTS]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return check_file(tmp_path, ROWS)


def _brute() -> tuple[int, int, int, int]:
    """(classes, k, distinct l, classes with fewer than 2 values) from the rows themselves."""
    groups: dict[tuple[int, str], Counter[str]] = {}
    for a, s, d in ROWS:
        groups.setdefault((a, s), Counter())[d] += 1
    sizes = [sum(c.values()) for c in groups.values()]
    return (
        len(groups),
        min(sizes),
        min(len(c) for c in groups.values()),
        sum(len(c) < 2 for c in groups.values()),
    )


@pytest.mark.parametrize("limit", [None, 3])
def test_check_statements_and_numbers(db: Path, limit: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    if limit is not None:  # a source above the limit: the histogram path
        monkeypatch.setattr(DuckDBDatabase, "stats_from_source", limit)
    with Database.open(str(db), mode="read") as database:
        first = ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
        issued_first = [s.template for s in database.steps]
        database.steps.clear()
        r = ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
        issued = [s.template for s in database.steps]
    assert {k: v for k, v in r.to_dict().items() if k not in ("seconds", "queries")} == {
        k: v for k, v in first.to_dict().items() if k not in ("seconds", "queries")
    }
    classes, k, distinct_l, violating = _brute()
    assert (r.groups, r.k, r.distinct_l, r.violating_groups) == (classes, k, distinct_l, violating)
    assert r.satisfied is False and r.sizes is not None and r.sizes.classes == classes and r.sizes.k == k
    if limit is None:
        assert issued_first == SMALL_PATH and first.queries == len(SMALL_PATH)
        assert issued == REPEATED and r.queries == len(REPEATED) == 3
    else:
        assert "partition/histogram.sql" in issued
        assert not {"partition/source_stats.sql", "partition/source_shapes.sql"} & set(issued)


def test_a_small_check_runs_on_one_thread_and_gives_the_setting_back(db: Path) -> None:
    """A check of at most SMALL_SOURCE_ROWS rows runs its statements with DuckDB at one thread; a
    connection passed in gets its own setting back when the call returns, a Database kept open keeps one
    thread until it is closed (as a small release does: docs/how-to/python-api.md)."""
    seen: list[int] = []
    statistics = "partition/source_shapes.sql"  # the group statistics' statement
    with duckdb.connect(str(db), read_only=True) as con:
        con.execute("SET threads = 3")
        send = DuckDBDatabase._send

        def spy(self: DuckDBDatabase, query: Any) -> Any:
            if query.name == statistics:
                seen.append(int(self.con.execute("SELECT current_setting('threads')").fetchall()[0][0]))
            return send(self, query)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(DuckDBDatabase, "_send", spy)
            ldiv_db.check(con, "t", "age,sex", "disease", model="distinct", l=2)
            assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 3
            database = Database.open(con, mode="read")
            ldiv_db.check(database, "t", "age,sex", "disease", model="distinct", l=2)
            assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 1
            database.close()
        assert seen == [1, 1]
        assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 3
