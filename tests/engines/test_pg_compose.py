"""The composition check on PostgreSQL: the hand-derived case of tests/integration/test_compose.py, and
Mondrian + BSGI + TP releases of a 600-row census composed on PostgreSQL and on DuckDB from the same data
(the algorithms make the same partitions on both engines, test_pg_end_to_end.py): the same counts and
worst rows on both; nine releases of every kind that leave rows below l together, their pairs alike on
both."""

from __future__ import annotations

from pathlib import Path

import ldiv_db
from fixtures import census
from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.errors import LdivError
from ldiv_db.pipeline import compose as compose_module
from tests.integration.test_compose import (
    HIER,
    LATE,
    MANY_ROWS,
    THREE_BELOW,
    _copies,
    _write_hierarchy,
    make_ab,
)
from tests.integration.test_compose_pairs import MANY, MANY_LS

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


def _many(target: str, tmp: Path) -> tuple[Database, list[str]]:
    """test_compose.py's 67 releases (62 of one coarse release, then five others) on one engine."""
    db = Database.open(target)
    data = tmp / "many.csv"
    data.write_text(
        "cat;num;flat;s\n" + "".join(f"{c};{n};{f};{s}\n" for c, n, f, s in MANY_ROWS), encoding="utf-8"
    )
    ldiv_db.load(db, data, "t", sep=";")
    for col, rows in HIER.items():
        taxonomy.import_hierarchy(db, "t", col, _write_hierarchy(tmp / f"many_{col}.csv", rows))
    ldiv_db.anonymize(
        db, "t", ["cat", "num"], "s", algorithm="full-domain", levels="cat=1,num=1", l=2, output="coarse", kl=False
    )  # fmt: skip
    names = ["coarse"]
    for i, (algorithm, spec) in enumerate(LATE):
        options = dict(spec)
        qi = options.pop("qi", ["cat", "num", "flat"])
        ldiv_db.anonymize(db, "t", qi, "s", algorithm=algorithm, l=2, output=f"late{i}", kl=False, **options)
        names.append(f"late{i}")
    return db, names


def _pg_copies(pg_url: str, base: str, n: int) -> list[str]:
    """test_compose.py's ``_copies`` on PostgreSQL: ``n`` releases recorded as copies of ``base``."""
    import psycopg

    cols = (
        "run_id, source, algorithm, model, l, qi, sa, rows_in, rows_published, rows_suppressed, groups, "
        "metrics, details, verified, verification"
    )
    names = []
    with psycopg.connect(pg_url, autocommit=True) as con:
        rid, name = con.execute(
            "SELECT release_id, name FROM ldiv.release WHERE name LIKE %s AND superseded_by IS NULL",
            [f"%.{base}"],
        ).fetchone()
        schema = name.rsplit(".", 1)[0]
        for i in range(n):
            new = f"{base}_{i}"
            con.execute(f'CREATE TABLE "{schema}"."{new}" AS SELECT * FROM "{schema}"."{base}"')
            con.execute(
                f"INSERT INTO ldiv.release (release_id, name, {cols}) SELECT nextval('ldiv.release_seq'), %s, "
                f"{cols} FROM ldiv.release WHERE release_id = %s",
                [f"{schema}.{new}", rid],
            )
            con.execute(
                "INSERT INTO ldiv.release_row SELECT currval('ldiv.release_seq'), source_rowid, group_id, "
                "suppressed FROM ldiv.release_row WHERE release_id = %s",
                [rid],
            )
            names.append(new)
    return names


def test_more_than_62_releases_compose_alike_on_both_engines(pg_url: str, tmp_path: Path) -> None:
    """67 releases of one source (the releases holding a row were bits of one BIGINT: at most 62)."""
    duck, names = _many(str(tmp_path / "d.duckdb"), tmp_path)
    pg, _ = _many(pg_url, tmp_path)
    try:
        every = {"duckdb": [*names[:1], *_copies(duck, "coarse", 61), *names[1:]]}
        every["postgres"] = [*names[:1], *_pg_copies(pg_url, "coarse", 61), *names[1:]]
        got = {}
        for name, db in (("duckdb", duck), ("postgres", pg)):
            out = ldiv_db.compose(db, every[name], worst=len(MANY_ROWS)).as_json()
            got[name] = {k: out[k] for k in ("ok", "rows", "single", "empty", "worst")}
            got[name]["below"] = [r["below"] for r in out["releases"]]
        assert len(got["duckdb"]["below"]) == 67 and got["duckdb"]["ok"]
        assert got["duckdb"] == got["postgres"]
    finally:
        duck.close()
        pg.close()


def _below(target: str, tmp: Path) -> tuple[Database, list[str]]:
    """test_compose_pairs.py's releases of every kind, at l = 2 and 3, on one engine."""
    db = Database.open(target)
    data = tmp / "below.csv"
    data.write_text(
        "cat;num;flat;s\n" + "".join(f"{c};{n};{f};{s}\n" for c, n, f, s in THREE_BELOW[0]), encoding="utf-8"
    )
    ldiv_db.load(db, data, "t", sep=";")
    for col, rows in HIER.items():
        taxonomy.import_hierarchy(db, "t", col, _write_hierarchy(tmp / f"below_{col}.csv", rows))
    names = []
    for i, ((algorithm, spec), l) in enumerate(zip(MANY, MANY_LS, strict=True)):
        options = dict(spec)
        qi = options.pop("qi", ["cat", "num", "flat"])
        try:
            ldiv_db.anonymize(db, "t", qi, "s", algorithm=algorithm, l=l, output=f"r{i}", kl=False, **options)
        except LdivError:
            continue  # infeasible here, as in test_compose_pairs.py
        names.append(f"r{i}")
    return db, names


def test_pairs_below_l_compose_alike_on_both_engines(pg_url: str, tmp_path: Path) -> None:
    """Every pair of nine releases (counted together, compose/pair_counts.sql), and each release's pairs
    as a publish counts them, the same on PostgreSQL as on DuckDB (there against the brute force)."""
    duck, names = _below(str(tmp_path / "d.duckdb"), tmp_path)
    pg, _ = _below(pg_url, tmp_path)
    try:
        got = {}
        for name, db in (("duckdb", duck), ("postgres", pg)):
            res = ldiv_db.compose(db, names, worst=3)
            out = res.as_json()
            got[name] = {k: out[k] for k in ("ok", "rows", "single", "empty", "worst", "releases")}
            got[name]["pairs"] = [(p["below"]) for p in out["pairs"]]
            got[name]["with"] = [
                [n for *_, n in compose_module.compose(db, list(res.release_ids), pairs_with=i).pairs]
                for i in res.release_ids[::4]
            ]
        assert not got["duckdb"]["ok"] and any(got["duckdb"]["pairs"]) and not all(got["duckdb"]["pairs"])
        assert got["duckdb"] == got["postgres"]
    finally:
        duck.close()
        pg.close()
