"""l+-Optimize's sub-searches over merged cells through the whole pipeline: on a histogram above the
merging threshold (20,000 cells) the release is the one the search gives with merging off — the same
cut, cost, counts and published rows — its details count the sub-searches, and it is verified."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from ldiv_db.algorithms.lplus import merge
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

QI = ["a", "b", "c"]


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """40,000 rows over three QIs of 4 groups × 5 leaves each and a skewed 4-value SA: most of the 8,000
    leaf vectors × 4 values occur, so the histogram has more than 20,000 cells."""
    rng = np.random.default_rng(20261125)
    n = 40_000
    frame = pd.DataFrame({q: [f"{q}{v}" for v in rng.integers(0, 20, n)] for q in QI})
    frame["sa"] = rng.choice(["flu", "cold", "ulcer", "gastritis"], n, p=[0.4, 0.3, 0.2, 0.1])
    database = Database.open(str(tmp_path / "merge.duckdb"))
    database.con.register("__f", frame)
    database.con.execute("CREATE TABLE t AS SELECT * FROM __f")
    database.con.unregister("__f")
    for q in QI:
        lines = [f"{q}{v};{q}g{v // 5};{q}*" for v in range(20)]
        f = tmp_path / f"{q}.csv"
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        import_hierarchy(database, "t", q, f)
    yield database
    database.close()


def _release(db: Database, out: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    r = ldiv_db.anonymize(
        db, "t", QI, "sa", algorithm="lplus", l=3, metric="dm", suppression="allrec", output=out, kl=False
    )
    assert r.verified
    rows = db.con.execute(
        f"SELECT a, b, c, sa, count(*) FROM main.{out} GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    return r.details, rows


def test_the_release_is_the_one_without_merging(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    merged, merged_rows = _release(db, "with_merging")
    assert merged["histogram_cells"] >= merge.MIN_CELLS
    assert merged["merge_counts"] >= merged["sub_searches"] >= 1
    assert merged["seconds_merging"] > 0
    monkeypatch.setattr(merge, "MIN_CELLS", 2**62)
    plain, plain_rows = _release(db, "without_merging")
    assert plain["sub_searches"] == plain["merge_counts"] == 0
    for key in ("cut", "cost_exact", "optimal", "cuts_visited", "pruned_share", "partitions", "deleted_rows"):
        assert merged[key] == plain[key], key
    assert merged_rows == plain_rows
