"""One definition of class on PostgreSQL (issue 51, class 2): a release's class count, k and risk are the
same in ``anonymize``, ``releases``, ``check`` on the release and ``report``, and the same as DuckDB's for
the same release; ``--no-group-column`` writes no group column, verifies and checks on the labels, and
refuses BSGI, whose groups share labels (the merged label classes repeat a value)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from fixtures import census
from ldiv_db import api, taxonomy
from ldiv_db.core.catalog import resolve_table
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

N = 1500
QI = list(census.QI)


@pytest.fixture(scope="module")
def engines(pg_server, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("pg_classes")
    files = census.write(tmp, n=N)
    dbs = []
    for target in (str(tmp / "d.duckdb"), pg_server.url(pg_server.new_database("classes"))):
        db = Database.open(target)
        ldiv_db.load(db, files["data"], "census", sep=";")
        for col in QI:
            taxonomy.import_hierarchy(db, "census", col, files[col])
        dbs.append(db)
    yield dbs[0], dbs[1]
    for db in dbs:
        db.close()


def _figures(db: Database, out: str, **kw: Any) -> list[dict[str, Any]]:
    """The classes, k and risk as anonymize, releases, check and report show them."""
    res = ldiv_db.anonymize(
        db,
        "census",
        QI,
        census.SA,
        algorithm=kw.pop("algorithm"),
        output=out,
        l=3,
        replace=True,
        kl=False,
        **kw,
    ).to_dict()
    listed = next(r for r in api.releases(db).to_dict()["releases"] if r["release_id"] == res["release_id"])
    chk = ldiv_db.check(db, out, QI, census.SA).to_dict()
    rep = ldiv_db.report(db, out, kl=False).to_dict()["releases"][0]
    return [{"classes": d["classes"], "k": d["k"], "risk": d["risk"]} for d in (res, listed, chk, rep)]


@pytest.mark.parametrize("algorithm", ["tp+", "bsgi", "mondrian"])
def test_every_output_agrees_on_postgres(engines, algorithm: str) -> None:  # type: ignore[no-untyped-def]
    duck, pg = engines
    out = "cls_" + algorithm.replace("+", "plus")
    on_pg, on_duck = _figures(pg, out, algorithm=algorithm), _figures(duck, out, algorithm=algorithm)
    assert all(f == on_pg[0] for f in on_pg), on_pg
    assert on_pg[0]["classes"] == on_duck[0]["classes"] and on_pg[0]["k"] == on_duck[0]["k"]
    assert on_pg[0]["risk"] == pytest.approx(on_duck[0]["risk"], rel=1e-12)


def test_no_group_column_on_postgres(engines, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, pg = engines
    figures = _figures(pg, "cls_nogroup", algorithm="tp+", no_group_column=True)
    assert all(f == figures[0] for f in figures), figures
    assert "group_id" not in [c.name for c in resolve_table(pg, "cls_nogroup").columns]
    assert ldiv_db.check(pg, "cls_nogroup", QI, census.SA).keys == QI
    with pytest.raises(BadInput, match="label classes"):
        ldiv_db.anonymize(
            pg, "census", QI, census.SA, algorithm="bsgi", output="cls_bsgi_nogroup", l=3, kl=False,
            no_group_column=True,
        )  # fmt: skip
