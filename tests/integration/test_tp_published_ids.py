"""TP+ numbers its groups by the group-id rule itself (``Partitioning.ids_published``: the QI-groups that
keep rows and R's groups, ranked by the run's seeded key): its release is the one the pipeline's renumbering
gives (``order/group_ids.sql``, ``order/renumber.sql``) — the same rows in the same stored order, the same
group ids, the same private link — with no statement grouping the assignment to find its groups."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

import ldiv_db
from ldiv_db.algorithms.tp import TPPlus
from ldiv_db.db import Database
from tests.integration.frames import make_table
from tests.integration.test_keyed_ties import _frame, _nocase


def _release(
    db: Database, table: str, seed: int, l: int
) -> tuple[list[Any], list[Any], list[str], dict[str, Any]]:
    r = ldiv_db.anonymize(
        db, table, ["a", "b", "c"], "s", algorithm="tp+", output="o", replace=True, l=l, seed=seed
    )
    assert r.verified
    rows = db.con.execute('SELECT * FROM "o" ORDER BY rowid').fetchall()
    link = db.con.execute(
        "SELECT source_rowid, group_id, suppressed FROM ldiv.release_row WHERE release_id = ? ORDER BY 1",
        [int(r.release_id)],
    ).fetchall()
    steps = db.con.execute("SELECT template FROM ldiv.run_step WHERE run_id = ?", [int(r.run_id)])
    return rows, link, [str(t) for (t,) in steps.fetchall()], r.details


@pytest.mark.parametrize(
    ("table", "rows", "seed", "l"),
    [
        ("plain", 500, 7, 3),
        ("plain", 300, 1, 3),
        ("plain", 900, 3, 2),
        ("plain", 64, 3, 2),
        ("nocase", 900, 7, 3),
    ],
)
def test_tp_plus_publishes_the_pipelines_ids(
    db: Database, monkeypatch: pytest.MonkeyPatch, table: str, rows: int, seed: int, l: int
) -> None:
    if table == "nocase":  # a column folding spellings: TP+ reads the seeded copy, mapped back
        _nocase(db, "b", rows, seed)
        name = "ci"
    else:
        make_table(db, "t", _frame(rows, seed))
        name = "t"
    mine = _release(db, name, seed, l)
    monkeypatch.setattr(TPPlus, "publishes_ids", False)
    theirs = _release(db, name, seed, l)
    assert mine[3]["residue_rows"] > 0
    assert "order/group_ids.sql" not in mine[2] and "order/renumber.sql" not in mine[2]
    assert "order/group_ids.sql" in theirs[2]
    assert mine[:2] == theirs[:2]


def test_r_kept_whole_is_published_by_the_rule_too(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """R kept whole (TP+'s guard: its split would star as many cells): one group under the rule's id."""
    rows = [(20, "x", "p", "u")] * 30 + [(21, "y", "q", "v")] * 30 + [(22, "z", "r", "w")] * 30
    rows += [(23, "w", "p", v) for v in "uvwst" * 4]
    make_table(db, "t", pd.DataFrame(rows, columns=["a", "b", "c", "s"]))
    mine = _release(db, "t", 2, 3)
    assert mine[3]["residue_rows"] == 90 and mine[3]["residue_split"] is False
    monkeypatch.setattr(TPPlus, "publishes_ids", False)
    theirs = _release(db, "t", 2, 3)
    assert "order/group_ids.sql" not in mine[2] and "order/group_ids.sql" in theirs[2]
    assert mine[:2] == theirs[:2]
