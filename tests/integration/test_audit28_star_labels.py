"""A suppression release's '*' is the whole domain, whatever hierarchy is stored for the column (round 28).

TP, TP+ and Hilbert publish each QI cell as its value or '*' (SPEC §0.5, TP Definition 1) and never read a
hierarchy. When the source column holds the value '*' and a hierarchy is stored for it (root 'ALL', '*' a
leaf), the metrics and the composition check read a suppressed '*' as that leaf: a fully suppressed
release measured NCP 0 on the column, and ``compose`` found every target of another value covered by no
class ("left no value"), refusing a release that is 2-diverse. Their labels must be read as published:
'*' the whole domain, any other label the value itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ldiv_db
from ldiv_db import taxonomy
from ldiv_db.db import Database

ROWS = [("*", 1, "p"), ("x", 1, "q"), ("y", 2, "r"), ("z", 2, "t"), ("x", 3, "p"), ("z", 3, "q")]


def _database(path: Path) -> Path:
    """Every QI vector is unique, so TP's phase one moves all rows to the residue: one group, all '*'."""
    db = Database.open(path)
    db.con.execute("CREATE TABLE src (b VARCHAR, a INTEGER, s VARCHAR)")
    db.con.executemany("INSERT INTO src VALUES (?, ?, ?)", ROWS)
    hierarchy = path.parent / "b.csv"
    hierarchy.write_text("*;G1;ALL\nx;G1;ALL\ny;G2;ALL\nz;G2;ALL\n", encoding="utf-8")
    taxonomy.import_hierarchy(db, "src", "b", hierarchy)
    db.close()
    return path


@pytest.mark.parametrize("algorithm", ["tp", "tp+", "hilbert"])
def test_suppressed_star_is_the_whole_domain(tmp_path: Path, algorithm: str) -> None:
    path = _database(tmp_path / "star.duckdb")
    res = ldiv_db.anonymize(
        path, "src", ["b", "a"], "s", algorithm=algorithm, l=2, output="rel", seed=7, quiet=True
    )
    db = Database.open(path, mode="read")
    try:
        published = db.con.execute("SELECT b, a FROM rel").fetchall()
    finally:
        db.close()
    stars = sum(v == "*" for row in published for v in row)
    assert stars == res.metrics["cells_suppressed"]
    # every '*' cell costs its whole attribute (NCP 1, LM 1), every other cell nothing: a value kept
    expected = stars / (2 * len(published))
    assert res.metrics["ncp"] == pytest.approx(expected)
    assert res.metrics["lm"] == pytest.approx(stars)
    measured = ldiv_db.metrics(path, "src", "rel", ["b", "a"], "s", l=2).to_dict()
    assert measured["ncp"] == pytest.approx(expected)
    composed = ldiv_db.compose(path, ["rel"])
    assert composed.empty == 0
    assert composed.ok, composed.render_text()
