"""Decomposition+ on Adult (SPEC §4.7, issue 7): the group-forming residuals of Decomposition+
Table 7(a) with workclass as the primary SA, every release verified and reconciled, and the noise by
hierarchical distance no farther than random noise. Slow: reads ../shared/datasets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["age", "sex", "race", "marital-status", "native-country"]

# SPEC §4.7 = Decomposition+ Table 7(a): groups and per-bucket residual rows, workclass primary
GROUPS = {7: 14, 6: 957, 5: 1655, 4: 2625, 3: 3938, 2: 7876}
RESIDUALS = {
    7: {
        "Federal-gov": 929,
        "Self-emp-inc": 1060,
        "State-gov": 1265,
        "Local-gov": 2053,
        "Self-emp-not-inc": 2485,
        "Private": 22272,
    },
    6: {"Self-emp-inc": 117, "State-gov": 322, "Local-gov": 1110, "Self-emp-not-inc": 1542, "Private": 21329},
    5: {"Local-gov": 412, "Self-emp-not-inc": 844, "Private": 20631},
    4: {"Private": 19661, "Without-pay": 1},  # the extra row: Without-pay under first-appearance ties
    3: {"Private": 18348},
    2: {"Private": 14410},
}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


@pytest.fixture(scope="module")
def adult() -> Iterator[Database]:
    db = Database.open(":memory:")
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for c in ("occupation", "workclass", "education"):
        import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    yield db
    db.close()


@pytest.mark.parametrize("l", [7, 6, 5, 4, 3, 2])
def test_table_7a_residuals_with_workclass_primary(adult: Database, l: int) -> None:
    r = ldiv_db.anonymize(
        adult,
        "adult",
        QI,
        ["workclass", "education"],
        algorithm="decomposition",
        l=[l, 2],
        output="wc",
        replace=True,
    )
    d = r.details
    assert d["new_groups"] == GROUPS[l]
    assert d["kept_back_by_primary"] == RESIDUALS[l]
    assert d["rows_kept_back"] == sum(RESIDUALS[l].values())
    assert r.verified and r.rows_published + d["rows_waiting"] == r.rows_in == 30162
    assert r.rows_published == GROUPS[l] * l


def test_l_1_column_on_the_group_forming(adult: Database) -> None:
    """Table 7(a)'s l = 1 column (30,162 groups, no residual); l = 1 is no privacy, so anonymize refuses
    it and the group forming is checked directly."""
    import numpy as np

    from ldiv_db.algorithms.decomposition.forming import form_groups

    codes = adult.con.execute("SELECT workclass FROM adult ORDER BY rowid").df()["workclass"].factorize()[0]
    f = form_groups(np.asarray(codes, dtype=np.int64), [], [], 1)
    assert f.new_groups == 30162 and f.schedule.residual_rows == 0


def test_three_sas_verified_and_distance_noise_not_farther_than_random(adult: Database) -> None:
    sa = ["occupation", "workclass", "education"]
    runs = {}
    for mode in ("distance", "random"):
        runs[mode] = ldiv_db.anonymize(
            adult,
            "adult",
            QI,
            sa,
            algorithm="decomposition",
            l=[7, 4, 3],
            output=f"three_{mode}",
            replace=True,
            noise=mode,
            seed=11,
        )
    for r in runs.values():
        assert r.verified and r.verification["violating_groups"] == 0
        rec = r.verification["reconciliation"]
        assert rec["qid_rows"] == rec["sa_rows"] == rec["marginal_rows"] == r.rows_published
        assert rec["sa_mismatches"] == rec["marginal_mismatches"] == rec["size_mismatches"] == 0
        # independently, on the written SA-table
        sat = adult.con.execute(f'SELECT * FROM "{r.details["tables"][1].split(".")[1]}"').df()
        for col, l_i in zip(sa, [7, 4, 3], strict=True):
            assert (sat.groupby("group_id")[col].nunique() >= l_i).all()
    d, rnd = runs["distance"].details, runs["random"].details
    assert d["noise"] == rnd["noise"] > 1000  # the same groups need the same number of noise values
    assert d["noise_mean_distance"] <= rnd["noise_mean_distance"]
    logged = adult.con.execute(
        "SELECT count(*), avg(distance) FROM ldiv.noise WHERE release_id = ?", [runs["distance"].release_id]
    ).fetchone()
    assert logged is not None and logged[0] == d["noise"]
    assert logged[1] == pytest.approx(d["noise_mean_distance"], abs=1e-6)
