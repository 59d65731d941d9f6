"""BSGI refined (``--refine exchange``) on Adult and CUP (issue 17): the targets the feasible-split start
reaches, and the exact-size lower bound of bench/bsgi_bound.py never above a refined release's IL.
Slow: reads ../shared/datasets (never copied here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ldiv_db
from bench import bsgi_bound
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

DATA = Path(__file__).parents[2].parent / "shared" / "datasets"
ADULT_QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
CUP_QI = ["AGE", "GENDER", "INCOME", "STATE", "NGIFTALL", "MINRAMNT"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (DATA / "adult" / "adult.csv").exists(), reason="shared/datasets is absent"),
]


def _open(name: str, qi: list[str]) -> Database:
    db = Database.open(":memory:")
    ldiv_db.load(db, DATA / name / f"{name}.csv", name, sep=";")
    for c in qi:
        import_hierarchy(db, name, c, DATA / name / f"{name}_hierarchy_{c}.csv")
    return db


@pytest.fixture(scope="module")
def adult() -> Iterator[Database]:
    db = _open("adult", ADULT_QI)
    yield db
    db.close()


def _refined(db: Database, table: str, qi: list[str], sa: str, l: int) -> Any:
    r = ldiv_db.anonymize(
        db, table, qi, sa, algorithm="bsgi", l=l, output=f"refined_{l}", replace=True, kl=False
    )
    assert r.verified and r.model == "unique-distinct"
    check = ldiv_db.check(db, f"refined_{l}", None, sa, group_column="group_id", model="unique-distinct", l=l)
    assert check.satisfied
    return r


def _mondrian_il(db: Database, table: str, qi: list[str], sa: str, l: int) -> float:
    r = ldiv_db.anonymize(
        db, table, qi, sa, algorithm="mondrian", l=l, output=f"m_{l}", replace=True, kl=False
    )
    return float(r.metrics["il"])


@pytest.mark.parametrize("l", [2, 3])
def test_adult_below_mondrian(adult: Database, l: int) -> None:
    """Issue 17: below Mondrian at l = 2 and 3 (3,573 against 4,169; 8,246 against 8,434)."""
    r = _refined(adult, "adult", ADULT_QI, "occupation", l)
    assert r.details["refine"]["start"] == "split"
    assert r.metrics["il"] < _mondrian_il(adult, "adult", ADULT_QI, "occupation", l)


@pytest.mark.parametrize(("l", "share"), [(4, 0.3), (7, 0.7)])
def test_adult_targets(adult: Database, l: int, share: float) -> None:
    """At least 70 % below the paper's greedy at l = 4 (issue 17: ≤ 19,100; 16,456) and 30 % below at
    l = 7 (≤ 62,400; 61,634, which only the sideways exchanges reach: 67,217 without them)."""
    plain = ldiv_db.anonymize(
        adult, "adult", ADULT_QI, "occupation", algorithm="bsgi", l=l, output=f"plain_{l}", replace=True,
        kl=False, refine="none",
    )  # fmt: skip
    r = _refined(adult, "adult", ADULT_QI, "occupation", l)
    assert r.metrics["il"] <= share * plain.metrics["il"]
    assert r.details["refine"]["sideways"] > 0


def test_the_bound_holds_at_l_7(adult: Database) -> None:
    r = _refined(adult, "adult", ADULT_QI, "occupation", 7)
    rows = pd.read_csv(DATA / "adult" / "adult.csv", sep=";", dtype=str)
    b = bsgi_bound.bound(rows, 7)
    assert b["classes"] == r.groups
    assert 30_000 < b["il_bound"] <= r.metrics["il"]


@pytest.mark.skipif(not (DATA / "cup" / "cup.csv").exists(), reason="shared/datasets/cup is absent")
@pytest.mark.parametrize("l", [3, 7])
def test_cup_below_mondrian(l: int) -> None:
    db = _open("cup", CUP_QI)
    try:
        r = _refined(db, "cup", CUP_QI, "RAMNTALL", l)
        assert r.metrics["il"] < _mondrian_il(db, "cup", CUP_QI, "RAMNTALL", l)
    finally:
        db.close()
