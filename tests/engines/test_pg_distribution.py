"""The distribution models on PostgreSQL against DuckDB: ``check`` of the census table under each model
and distance gives the same verdicts and the same largest t, δ, β (exact fractions equal); a release
under distinct-2 and hierarchical t-closeness is found at the same levels, verified on PostgreSQL on
both partitions against the source's baseline, and ``check`` of it agrees with DuckDB's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.db import Database

N = 1500
QI = ["sex", "race", "marital_status", "workclass"]

CHECKS: list[dict[str, Any]] = [
    {"model": "t-closeness", "t": "0.2"},
    {"model": "t-closeness", "t": "0.2", "distance": "hierarchical"},
    {"model": "t-closeness", "t": "0.3", "distance": "ordered", "sa_order": None},
    {"model": "delta-disclosure", "delta": "1.5"},
    {"model": "delta-disclosure", "delta": "1.5", "delta_variant": "arx"},
    {"model": "beta-likeness", "beta": "1", "likeness": "enhanced"},
    {"model": "distinct,beta-likeness", "l": 3, "beta": "2"},
]


@pytest.fixture(scope="module")
def engines(pg_server, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("pg_distribution")
    files = census.write(tmp, n=N)
    dbs = []
    for target in (str(tmp / "d.duckdb"), pg_server.url(pg_server.new_database("distribution"))):
        db = Database.open(target)
        ldiv_db.load(db, files["data"], "census", sep=";")
        for col in [*QI, census.SA]:
            taxonomy.import_hierarchy(db, "census", col, files[col])
        dbs.append(db)
    yield dbs[0], dbs[1]
    for db in dbs:
        db.close()


def _figures(db: Database, opts: dict[str, Any]) -> dict[str, Any]:
    r = ldiv_db.check(db, "census", QI, census.SA, **opts).to_dict()
    keep = ("satisfied", "violating_classes", "classes")
    return {k: v for k, v in r.items() if k.startswith("largest") or k in keep}


@pytest.mark.parametrize("opts", CHECKS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_check_matches_duckdb(engines: tuple[Database, Database], opts: dict[str, Any]) -> None:
    duck, pg = engines
    if "sa_order" in opts:  # the occupations in reverse order of their text: an order of our choosing
        opts = {**opts, "sa_order": sorted(census.generate(N)[census.SA].unique(), reverse=True)}
    a, b = _figures(duck, opts), _figures(pg, opts)
    assert a == b
    assert any(k.startswith("largest") for k in a)


def test_release_verified_and_checked(engines: tuple[Database, Database]) -> None:
    duck, pg = engines
    out = []
    for db in (duck, pg):
        res = ldiv_db.anonymize(
            db, "census", QI, census.SA, algorithm="optimal", output="tc", replace=True, kl=False,
            model="distinct,t-closeness", l=2, suppression_limit="0.02",
            model_options={"t": "0.15", "distance": "hierarchical"},
        )  # fmt: skip
        assert res.verified
        parts = res.verification["partitions"]
        assert [(p["model"], p["holds"]) for p in parts] == [("distinct+t-closeness", True)] * 2
        checked = ldiv_db.check(
            db, "tc", QI, census.SA, model="t-closeness", t="0.15", distance="hierarchical"
        )
        assert checked.satisfied
        out.append((res.details["levels"], res.rows_deleted, res.groups, checked.largest["t"].exact))
    assert out[0] == out[1]
