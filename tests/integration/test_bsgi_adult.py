"""BSGI and Mondrian on Adult (SPEC §2.6, BSGI §6): QIs age, education, marital-status, race, sex,
native-country, workclass; SA occupation. Slow: reads ../shared/datasets (never copied here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
SA = "occupation"
RESIDUALS = {2: 0, 3: 0, 4: 2, 5: 2, 6: 0, 7: 6}  # SPEC §2.6

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


@pytest.fixture(scope="module")
def adult() -> Iterator[Database]:
    db = Database.open(":memory:")
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for c in QI:
        import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    yield db
    db.close()


@pytest.fixture(scope="module")
def results(adult: Database) -> dict[tuple[str, int], Any]:
    return {}


def release(adult: Database, results: dict[tuple[str, int], Any], algorithm: str, l: int, **kw: Any) -> Any:
    key = (algorithm + "".join(f",{k}={v}" for k, v in sorted(kw.items())), l)
    if key not in results:
        results[key] = ldiv_db.anonymize(
            adult, "adult", QI, SA, algorithm=algorithm, l=l, output=f"{algorithm}_{l}", replace=True, **kw
        )
    return results[key]


def test_suggest_l_is_7(adult: Database) -> None:
    assert ldiv_db.suggest_l(adult, "adult", SA).best_for("unique-distinct") == 7


@pytest.mark.parametrize("l", [2, 3, 4, 5, 6, 7])
def test_bsgi_unique_distinct(adult: Database, results: dict[tuple[str, int], Any], l: int) -> None:
    r = release(adult, results, "bsgi", l)
    n = r.rows_in
    d = r.details
    assert r.verified and r.model == "unique-distinct"
    assert r.rows_published == n == 30162 and r.rows_deleted == 0
    assert d["residual_rows"] == RESIDUALS[l]
    assert d["classes"] == n // l == r.groups
    assert d["classes_with_repeats"] == 0 and d["min_distinct"] >= l
    assert d["classes_exactly_l"] + d["classes_incorporated"] == d["classes"]
    assert d["classes_l_plus_1"] == d["classes_incorporated"] == RESIDUALS[l]
    # average class size: n / ⌊n/l⌋, i.e. l + r/⌊n/l⌋ (7.0014 at l = 7; BSGI Table 5 prints 7.00)
    assert r.metrics["avg_class_size"] == pytest.approx(n / (n // l))
    assert round(r.metrics["avg_class_size"], 2) == l
    per_class = adult.con.execute(
        f'SELECT count(*), count(DISTINCT "{SA}") FROM "bsgi_{l}" GROUP BY group_id'
    ).fetchall()
    assert all(distinct >= l and size == distinct for size, distinct in per_class)
    source = adult.con.execute(f'SELECT "{SA}", count(*) FROM adult GROUP BY 1 ORDER BY 1').fetchall()
    published = adult.con.execute(f'SELECT "{SA}", count(*) FROM "bsgi_{l}" GROUP BY 1 ORDER BY 1').fetchall()
    assert source == published
    check = ldiv_db.check(adult, f"bsgi_{l}", None, SA, group_column="group_id", model="unique-distinct", l=l)
    assert check.satisfied


@pytest.mark.parametrize("l", [2, 3, 4, 5, 6, 7])
def test_mondrian_baseline(adult: Database, results: dict[tuple[str, int], Any], l: int) -> None:
    m = release(adult, results, "mondrian", l)
    b = release(adult, results, "bsgi", l)
    assert m.verified and m.rows_published == 30162
    check = ldiv_db.check(adult, f"mondrian_{l}", None, SA, group_column="group_id", model="distinct", l=l)
    assert check.satisfied
    # BSGI's classes are minimal (size l), so its DM and average class size are below Mondrian's (Table 5)
    assert b.metrics["avg_class_size"] < m.metrics["avg_class_size"]
    assert b.metrics["dm"] < m.metrics["dm"]


@pytest.mark.parametrize(
    "l",
    [
        2,  # the paper's greedy alone loses 32,091 against Mondrian's 4,169; refined from the split: 3,573
        3,  # 49,138 against 8,434; refined: 8,257
        pytest.param(
            7,
            marks=pytest.mark.xfail(
                strict=True,
                reason="no exact-size partition can: bench/bsgi_bound.py bounds its IL below by 37,085 "
                "at l = 7, above Mondrian's 27,116",
            ),
        ),
    ],
)
def test_bsgi_il_below_mondrian(adult: Database, results: dict[tuple[str, int], Any], l: int) -> None:
    assert (
        release(adult, results, "bsgi", l).metrics["il"]
        < release(adult, results, "mondrian", l).metrics["il"]
    )


def test_fast_mode_is_close_to_the_exact_greedy(adult: Database, results: dict[tuple[str, int], Any]) -> None:
    fast = release(adult, results, "bsgi", 7, refine="none")
    exact = release(adult, results, "bsgi", 7, exact=True, refine="none")
    assert exact.details["mode"] == "exact" and exact.details["classes"] == fast.details["classes"]
    assert exact.metrics["il"] <= fast.metrics["il"] <= 1.10 * exact.metrics["il"]
