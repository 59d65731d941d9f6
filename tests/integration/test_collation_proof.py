"""Whether a table's columns fold spellings is read from DuckDB's catalog only where the catalog proves they
cannot (``catalog/bytes_only.sql``: a DuckDB base table whose definition names no COLLATE, no
``default_collation``); anywhere a collation may come from, the spellings are still counted on the data
(``catalog/sa_spellings.sql``) and answer right."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db.algorithms.tp import TPPlus
from ldiv_db.core.catalog import resolve_table
from ldiv_db.core.inputs import bytes_only, folded_columns
from ldiv_db.db import Database
from tests.integration.test_keyed_ties import _frame, _nocase

SPELLED = "CREATE TABLE plain AS SELECT * FROM (VALUES (1, 'flu'), (2, 'FLU'), (3, 'hiv')) AS v(a, s)"


def _counted(db: Database, spelled: str) -> tuple[bool, list[bool], int]:
    """bytes_only, folded_columns of every column, and how many spelling counts they took."""
    table = resolve_table(db, spelled)
    before = len(db.steps)
    proof = bytes_only(db, table)
    folds = folded_columns(db, table, list(table.columns))
    counts = [s.template for s in db.steps[before:]].count("catalog/sa_spellings.sql")
    return proof, folds, counts


def _nocase_column(db: Database) -> str:
    db.con.execute("CREATE TABLE ci (a INTEGER, s VARCHAR COLLATE NOCASE)")
    db.con.execute("INSERT INTO ci SELECT * FROM plain")
    return "ci"


def _altered(db: Database) -> str:
    db.con.execute("ALTER TABLE plain ALTER s SET DATA TYPE VARCHAR COLLATE NOCASE")
    return "plain"


def _copied(db: Database) -> str:  # CREATE TABLE AS of a collated expression keeps the collation
    db.con.execute("CREATE TABLE cc AS SELECT a, s COLLATE NOCASE AS s FROM plain")
    return "cc"


def _view(db: Database) -> str:
    db.con.execute("CREATE VIEW vc AS SELECT a, s COLLATE NOCASE AS s FROM plain")
    return "vc"


def _default(db: Database) -> str:
    db.con.execute("SET default_collation = 'nocase'")
    return "plain"


def _attached(db: Database, tmp: Path) -> str:
    """The name main.plain also names a NOCASE table of an attached database: not proven for either."""
    db.con.execute(f"ATTACH '{tmp / 'other.duckdb'}' AS other")
    db.con.execute("CREATE TABLE other.main.plain (a INTEGER, s VARCHAR COLLATE NOCASE)")
    db.con.execute("INSERT INTO other.main.plain SELECT * FROM main.plain")
    return "plain"


FOLDING: dict[str, Callable[[Database], str]] = {
    "column": _nocase_column,
    "altered": _altered,
    "created as": _copied,
    "view": _view,
    "default_collation": _default,
}


def test_a_plain_table_is_proven_from_the_catalog(db: Database) -> None:
    db.con.execute(SPELLED)
    assert _counted(db, "plain") == (True, [False, False], 0)


@pytest.mark.parametrize("how", sorted(FOLDING))
def test_a_collation_anywhere_is_counted_on_the_data(db: Database, how: str) -> None:
    db.con.execute(SPELLED)
    name = FOLDING[how](db)
    assert _counted(db, name) == (False, [False, True], 1)


def test_a_plain_view_and_a_namesake_are_counted(db: Database, tmp_path: Path) -> None:
    db.con.execute(SPELLED)
    db.con.execute("CREATE VIEW vp AS SELECT * FROM plain")
    assert _counted(db, "vp") == (False, [False, False], 1)  # a view is never proven
    _attached(db, tmp_path)
    assert _counted(db, "main.plain") == (False, [False, False], 1)
    assert _counted(db, "other.main.plain") == (False, [False, True], 1)


def _release(db: Database, table: str) -> tuple[list[Any], list[Any], list[str]]:
    r = ldiv_db.anonymize(
        db, table, ["a", "b", "c"], "s", algorithm="tp+", output="o", replace=True, l=3, seed=5
    )
    assert r.verified
    rows = db.con.execute('SELECT * FROM "o" ORDER BY rowid').fetchall()
    link = db.con.execute(
        "SELECT source_rowid, group_id FROM ldiv.release_row WHERE release_id = ? ORDER BY 1",
        [int(r.release_id)],
    ).fetchall()
    steps = db.con.execute("SELECT template FROM ldiv.run_step WHERE run_id = ?", [int(r.run_id)])
    return rows, link, [str(t) for (t,) in steps.fetchall()]


def test_a_run_on_a_plain_table_counts_no_spellings(db: Database) -> None:
    db.con.register("f", _frame(400, 2))
    db.con.execute("CREATE TABLE t AS SELECT * FROM f")
    steps = _release(db, "t")[2]
    assert "catalog/bytes_only.sql" in steps
    assert "catalog/sa_spellings.sql" not in steps


def test_a_default_collation_gives_the_seeded_copys_release(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under default_collation NOCASE a column with no COLLATE folds spellings: the run counts them, finds
    the fold, and its release is the one the seeded copy's path gives (as for a NOCASE column)."""
    _nocase(db, "none", 700, 5)  # no column collated
    db.con.execute("SET default_collation = 'nocase'")
    keyed = _release(db, "ci")
    assert keyed[2].count("catalog/sa_spellings.sql") == 1
    assert "order/seeded_source.sql" in keyed[2]  # the fold is seen: the seeded copy
    monkeypatch.setattr(TPPlus, "keyed_ties", False)
    copied = _release(db, "ci")
    assert keyed[:2] == copied[:2]
