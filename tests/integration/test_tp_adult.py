"""TP, TP+ and Hilbert on Adult (SA occupation; QI sets of d = 3..7 attributes in the order age, sex, race,
marital-status, education, native-country, workclass; l = 2..7): every release verifies and passes
``check --model frequency``; TP+ never has more stars than TP; TP's invariants hold (SPEC §1.9)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ldiv_db
from ldiv_db.db import Database

DATA = Path(__file__).parents[2].parent / "shared" / "datasets"
ADULT = DATA / "adult" / "adult.csv"
QI_ORDER = ["age", "sex", "race", "marital-status", "education", "native-country", "workclass"]
SA = "occupation"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not ADULT.exists(), reason="shared/datasets/adult is absent"),
]


@pytest.fixture(scope="module")
def db() -> Iterator[Database]:
    database = Database.open(":memory:")
    ldiv_db.load(database, ADULT, "adult", sep=";")
    yield database
    database.close()


def test_adult_is_at_most_7_eligible(db: Database) -> None:
    with pytest.raises(ldiv_db.BadInput, match="holds 4038 of 30162 rows"):
        ldiv_db.anonymize(db, "adult", QI_ORDER[:3], SA, algorithm="tp", output="o", l=8, replace=True)


@pytest.mark.parametrize("d", range(3, 8))
def test_tp_tp_plus_hilbert(db: Database, d: int) -> None:
    qi = QI_ORDER[:d]
    for l in range(2, 8):
        stars = {}
        for algorithm in ("tp", "tp+", "hilbert"):
            out = f"adult_{algorithm.replace('+', 'p')}_{d}_{l}"
            r = ldiv_db.anonymize(db, "adult", qi, SA, algorithm=algorithm, output=out, l=l, replace=True)
            assert r.verified, (algorithm, d, l)
            check = ldiv_db.check(db, out, qi, SA, model="frequency", l=l)
            assert check.satisfied, (algorithm, d, l)
            assert r.rows_published == 30162 and r.rows_deleted == 0
            stars[algorithm] = r.metrics["stars"]
            if algorithm == "hilbert":
                assert r.details["hilbert_stars"] == r.metrics["stars"]
                continue
            details = r.details
            assert r.rows_with_suppressed_cells == details["residue_rows"], (algorithm, d, l)
            assert details["residue_rows"] >= details["residue_lower_bound"]
            if details["phase_ended"] == 1:
                assert details["residue_rows"] == details["residue_rows_phase_one"]
            if details["phase_ended"] == 2:
                assert details["residue_rows"] <= details["residue_lower_bound"] + l - 1  # SPEC §1.9
            if l == 2:
                assert details["phase_ended"] != 3  # Thm 5.16
            if algorithm == "tp":
                # one residue group with a star on every attribute R does not agree on (Definition 1)
                assert r.metrics["starred_rows"] == details["residue_rows"]
        assert stars["tp+"] <= stars["tp"], (d, l)
        db.con.execute(
            f'DROP TABLE "adult_tp_{d}_{l}"; DROP TABLE "adult_tpp_{d}_{l}"; DROP TABLE "adult_hilbert_{d}_{l}"'
        )
