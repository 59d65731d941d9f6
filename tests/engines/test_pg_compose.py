"""The composition check on PostgreSQL: the hand-derived case of tests/integration/test_compose.py, and
Mondrian + BSGI + TP releases of a 600-row census composed on PostgreSQL and on DuckDB from the same data
(the algorithms make the same partitions on both engines, test_pg_end_to_end.py): the same counts and
worst rows on both."""

from __future__ import annotations

from pathlib import Path

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.db import Database
from tests.integration.test_compose import make_ab

N = 600
QI = ["age", "sex", "education"]


def test_hand_derived_case_on_postgres(pg_url: str, tmp_path: Path) -> None:
    db = Database.open(pg_url)
    try:
        make_ab(db, tmp_path)
        res = ldiv_db.compose(db, ["by_b", "by_a"], worst=2)
        assert (res.rows, res.below, res.single, res.empty) == (8, (8, 8), 8, 0)
        assert [(w["left"], w["rows"]) for w in res.worst] == [(1, 2), (1, 2)]
        assert ldiv_db.compose(db, ["by_b", "none"]).ok
    finally:
        db.close()


def _build(target: str, tmp: Path) -> Database:
    db = Database.open(target)
    files = census.write(tmp, n=N)
    ldiv_db.load(db, files["data"], "census", sep=";")
    for col in QI:
        if col in files:
            taxonomy.import_hierarchy(db, "census", col, files[col])
    for algorithm, options in (("mondrian", {}), ("bsgi", {}), ("tp", {})):
        ldiv_db.anonymize(
            db, "census", QI, census.SA, algorithm=algorithm, l=3, output=algorithm, kl=False, **options
        )
    return db


def test_census_releases_compose_alike_on_both_engines(pg_url: str, tmp_path: Path) -> None:
    duck = _build(str(tmp_path / "d.duckdb"), tmp_path)
    pg = _build(pg_url, tmp_path)
    try:
        got = {
            name: ldiv_db.compose(db, ["mondrian", "bsgi", "tp"], worst=3).as_json()
            for name, db in (("duckdb", duck), ("postgres", pg))
        }
        for out in got.values():
            out.pop("seconds")
            out.pop("source")
            assert out["rows"] == N and out["empty"] == 0
        # the same algorithms on the same data make the same partitions on both engines
        assert got["duckdb"] == got["postgres"]
    finally:
        duck.close()
        pg.close()
