"""Issue 51's composition attack on Adult: Mondrian and BSGI at l = 4 (8 QIs, SA occupation), each
verified on its own, composed. The counts are re-derived by a NumPy brute force written here from the
published tables and the ARX hierarchy files. Slow: reads ../shared/datasets (never copied here)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass", "salary-class"]
SA = "occupation"
L = 4

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def _ancestors(column: str) -> dict[str, set[str]]:
    """Every leaf's labels, leaf to root, from the ARX file (';', no header)."""
    with (ADULT / f"adult_hierarchy_{column}.csv").open(encoding="utf-8") as f:
        return {row[0]: set(row) for row in csv.reader(f, delimiter=";") if row}


def _covers(label: str, value: str, column: str, ancestors: dict[str, set[str]]) -> bool:
    if label == "*":
        return True
    if column == "age":  # Mondrian and BSGI publish numeric QIs as intervals of the data
        lo, _, hi = label.partition("-")
        return float(lo) <= float(value) <= float(hi or lo)
    return label in ancestors[value]


def _brute_force(source: pd.DataFrame, releases: list[pd.DataFrame]) -> np.ndarray:
    """Values left to every source row: per release the union of the covering classes' SA values (as a
    bit mask), intersected across the releases."""
    values = sorted(source[SA].unique())
    bit = {v: 1 << i for i, v in enumerate(values)}
    points = source[QI].astype(str).drop_duplicates().reset_index(drop=True)
    left = np.full(len(points), (1 << len(values)) - 1, dtype=np.int64)
    anc = {c: _ancestors(c) for c in QI}
    for rel in releases:
        classes = rel.groupby(QI)[SA].agg(lambda s: sum(bit[v] for v in set(s))).reset_index()
        ok = np.ones((len(points), len(classes)), dtype=bool)
        for c in QI:
            vals, labs = points[c].unique(), classes[c].unique()
            m = np.array([[_covers(lab, v, c, anc[c]) for lab in labs] for v in vals])
            vi = {v: i for i, v in enumerate(vals)}
            li = {lab: i for i, lab in enumerate(labs)}
            ok &= m[points[c].map(vi).to_numpy()][:, classes[c].map(li).to_numpy()]
        masks = classes[SA].to_numpy(dtype=np.int64)
        left &= np.array([np.bitwise_or.reduce(masks[row]) for row in ok], dtype=np.int64)
    counts = np.array([bin(int(x)).count("1") for x in left])
    key = points.assign(_left=counts)
    return source[QI].astype(str).merge(key, on=QI, how="left")["_left"].to_numpy()


def test_mondrian_and_bsgi_compose_below_l_on_adult() -> None:
    db = Database.open(":memory:")
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for c in QI:
        import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    for algorithm in ("mondrian", "bsgi"):
        res = ldiv_db.anonymize(db, "adult", QI, SA, algorithm=algorithm, l=L, output=algorithm, kl=False)
        assert res.verified
    got = ldiv_db.compose(db, ["mondrian", "bsgi"], worst=3)
    print(
        f"\nAdult, Mondrian + BSGI at l = {L} (8 QIs): {got.rows} rows, below l {got.below}, "
        f"one value {got.single}, pair {got.pairs[0][2]}, {got.seconds:.2f} s"
    )
    source = db.con.execute("SELECT * FROM adult").df()
    releases = [db.con.execute(f"SELECT * FROM {name}").df() for name in ("mondrian", "bsgi")]
    left = _brute_force(source, releases)
    assert got.rows == len(source) == 30162
    assert got.below == (int((left < L).sum()),) * 2
    assert got.single == int((left == 1).sum()) and got.empty == 0 == int((left == 0).sum())
    assert got.pairs[0][2] == got.below[0]
    assert got.below[0] > 0 and got.single > 0 and not got.ok  # the attack, reproduced
    assert got.worst[0]["left"] == int(left.min()) == 1
    alone = ldiv_db.compose(db, ["bsgi"])
    assert alone.ok and alone.below == (0,)  # each release alone holds its l
    db.close()
