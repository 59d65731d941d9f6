"""Adult on PostgreSQL against DuckDB (slow): for every algorithm the release has the same groups (up to
renumbering), counts and metrics (to 1e-9), and is verified on PostgreSQL; ``check`` statistics are
identical."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db import taxonomy
from ldiv_db.db import Database

from .test_pg_end_to_end import _groups, _numbers

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["age", "sex", "race", "marital-status"]
QI6 = ["age", "sex", "race", "marital-status", "education", "native-country"]
SA = "occupation"
COLUMNS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def _categories() -> dict[str, int]:
    """Four sensitivity categories over the occupations, by alphabetical order (a test choice)."""
    if not (ADULT / "adult.csv").exists():
        return {}
    with (ADULT / "adult.csv").open(encoding="utf-8") as fh:
        values = sorted({row["occupation"] for row in csv.DictReader(fh, delimiter=";")})
    return {v: i % 4 + 1 for i, v in enumerate(values)}


RUNS: list[tuple[str, list[str], Any, dict[str, Any]]] = [
    (
        "full-domain",
        QI6,
        SA,
        {"l": 3, "model": "distinct", "levels": [2, 1, 0, 1, 2, 1], "suppression_limit": "0.05"},
    ),
    ("bsgi", QI, SA, {"l": 4}),
    ("mondrian", QI, SA, {"l": 4, "model": "distinct"}),
    ("tp", QI, SA, {"l": 4}),
    ("tp+", QI, SA, {"l": 4}),
    ("hilbert", QI, SA, {"l": 4}),
    ("lplus", QI6, SA, {"l": 4}),
    (
        "topdown",
        QI,
        SA,
        {"l": 3, "model": "distinct-alpha", "model_options": {"alpha": 1, "categories": _categories()}},
    ),
    ("decomposition", QI, ["workclass", "education"], {"l": [4, 2]}),
]


def _load(target: str) -> Database:
    db = Database.open(target)
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for col in COLUMNS:
        taxonomy.import_hierarchy(db, "adult", col, ADULT / f"adult_hierarchy_{col}.csv")
    return db


@pytest.fixture(scope="module")
def both(pg_server, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    duck = _load(str(tmp_path_factory.mktemp("adult") / "adult.duckdb"))
    pg = _load(pg_server.url(pg_server.new_database("adult")))
    yield duck, pg
    duck.close()
    pg.close()


def assert_same_release(
    duck: Database, other: Database, algorithm: str, qi: Any, sa: Any, kwargs: Any, table: str = "adult"
) -> None:
    """The release of ``algorithm`` over ``table`` on ``other`` equals DuckDB's: both verified, the same
    counts, metrics to 1e-9 and groups up to renumbering (shared by the PostgreSQL and Spark parity tests
    and the collation test)."""
    out = f"{table}_" + algorithm.replace("+", "plus").replace("-", "_")
    want, got = (
        ldiv_db.anonymize(
            db, table, qi, sa, algorithm=algorithm, output=out, replace=True, **kwargs
        ).to_dict()
        for db in (duck, other)
    )
    assert got["verified"] is True and want["verified"] is True
    for key in ("rows_in", "rows_published", "rows_deleted", "cells_suppressed", "classes"):
        assert got[key] == want[key], key
    wm, gm = _numbers(want["metrics"]), _numbers(got["metrics"])
    assert wm.keys() == gm.keys()
    for k in wm:
        assert gm[k] == pytest.approx(wm[k], rel=1e-9, abs=1e-9), k
    tables = [f"{out}_qid", f"{out}_sa"] if algorithm == "decomposition" else [out]
    assert _groups(other, tables) == _groups(duck, tables)


@pytest.mark.parametrize(("algorithm", "qi", "sa", "kwargs"), RUNS, ids=[r[0] for r in RUNS])
def test_adult_release_is_the_same_on_postgres(both, algorithm, qi, sa, kwargs) -> None:  # type: ignore[no-untyped-def]
    assert_same_release(*both, algorithm, qi, sa, kwargs)


def assert_same_check(duck: Database, other: Database) -> None:
    """``ldiv check``'s statistics on ``other`` equal DuckDB's (timings and the sample of worst groups aside)."""
    a, b = (
        ldiv_db.check(db, "adult", QI6, SA, model="recursive", l=3, c=3).to_dict() for db in (duck, other)
    )
    for d in (a, b):
        for k in ("seconds", "queries", "worst"):
            d.pop(k)
    assert a == b


def test_adult_check_is_identical(both) -> None:  # type: ignore[no-untyped-def]
    assert_same_check(*both)
