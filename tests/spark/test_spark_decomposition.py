"""Decomposition+ on Spark against DuckDB: a release is three tables and a stream (kept-back rows and row
keys in private tables, the stream's row map and noise log in ``ldiv``), published through the staged
writer. The same data loaded on both engines through ``ldiv load`` gives the same release (QID-table
groups up to renumbering, each group's SA multisets, the marginals, the noise log, counts and metrics to
1e-9), verified on Spark; a release that fails leaves the stream exactly as it was; appends, a refused
re-append and a replaced stream behave as on DuckDB (slow)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from fixtures.papers import paper_tables
from ldiv_db import api, taxonomy
from ldiv_db.algorithms.base import retained_ref
from ldiv_db.algorithms.decomposition import release as dr
from ldiv_db.algorithms.decomposition.keys import keys_ref
from ldiv_db.db import Database
from ldiv_db.errors import BadInput, PrivacyViolation
from ldiv_db.sqlgen.render import Query, TableRef
from tests.integration.frames import fix_drawn_seed, identity_seeds

pytestmark = pytest.mark.spark

PAPER = paper_tables()["decomposition_table1"]
BATCH_QI, BATCH_SA = ["zip", "age"], ["job", "pay"]


def _files(tmp: Path) -> dict[str, Path]:
    """Three batches of a synthetic stream (40 rows each) and the pay hierarchy, as files to load."""
    rng = np.random.default_rng(7)
    n = 120
    full = pd.DataFrame(
        {
            "zip": rng.integers(100, 110, n).astype(str),
            "age": rng.integers(20, 60, n),
            "job": rng.choice(list("abcdef"), n, p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.1]),
            "pay": rng.choice([str(v) for v in range(1, 10)], n),
        }
    )
    files = {}
    for i in range(3):
        files[f"b{i}"] = tmp / f"b{i}.csv"
        full.iloc[i * 40 : (i + 1) * 40].to_csv(files[f"b{i}"], sep=";", index=False)
    files["pay"] = tmp / "pay.csv"
    files["pay"].write_text("".join(f"{v};g{(v - 1) // 3};*\n" for v in range(1, 10)), encoding="utf-8")
    return files


def _build(target: str, files: dict[str, Path]) -> Database:
    db = Database.open(target)
    ldiv_db.load(db, PAPER.path, "dec", sep=";")
    for col, path in PAPER.hierarchies.items():
        taxonomy.import_hierarchy(db, "dec", col, path)
    for i in range(3):
        ldiv_db.load(db, files[f"b{i}"], f"b{i}", sep=";")
    taxonomy.import_hierarchy(db, "b0", "pay", files["pay"])
    return db


@pytest.fixture(scope="module")
def both(spark_session, spark_url, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("decomposition")
    files = _files(tmp)
    duck = _build(str(tmp / "d.duckdb"), files)
    spark = _build(spark_url, files)
    yield duck, spark
    duck.close()
    spark.drop_work_tables()
    spark.close()


def _rows(db: Database, table: str) -> list[dict[str, Any]]:
    return db.records(Query("read", f"SELECT * FROM {TableRef(table, 'main').sql()}"))


def _content(db: Database, out: str) -> dict[str, Any]:
    """What a release publishes, free of group numbering: each group as (its QID rows, its SA multisets)."""
    qid, sa = _rows(db, f"{out}_qid"), _rows(db, f"{out}_sa")
    by: dict[Any, tuple[list[str], dict[str, list[str]]]] = {}
    for r in qid:
        by.setdefault(r.pop("group_id"), ([], {}))[0].append(json.dumps(r, sort_keys=True, default=str))
    for r in sa:
        sas = by.setdefault(r.pop("group_id"), ([], {}))[1]
        for col, v in r.items():
            sas.setdefault(col, []).append(str(v))
    groups = Counter(
        json.dumps([sorted(rows), {c: sorted(v) for c, v in sorted(sas.items())}])
        for rows, sas in by.values()
    )
    marginals = Counter(json.dumps(r, sort_keys=True, default=str) for r in _rows(db, f"{out}_marginals"))
    return {"groups": groups, "marginals": marginals}


def _noise(db: Database, release_id: int) -> Counter[tuple[Any, ...]]:
    rows = db.rows(
        Query(
            "noise",
            "SELECT sa, replaced, noise, distance FROM ldiv.noise WHERE release_id = $r",
            {"r": release_id},
        )
    )
    return Counter(tuple(r) for r in rows)


def _same(
    want: ldiv_db.AnonymizeResult, got: ldiv_db.AnonymizeResult, duck: Database, spark: Database
) -> None:
    w, g = want.to_dict(), got.to_dict()
    assert g["verified"] is True and w["verified"] is True
    for key in ("rows_in", "rows_published", "rows_deleted", "cells_suppressed", "classes"):
        assert g[key] == w[key], key
    for key, value in w["metrics"].items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            assert g["metrics"][key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
    out = want.output.split(",")[0].strip().removeprefix("main.").removesuffix("_qid")
    assert _content(spark, out) == _content(duck, out)
    assert _noise(spark, got.release_id) == _noise(duck, want.release_id)


def _leftovers(spark: Database) -> list[str]:
    """Staging and previous tables the staged writer left (none after a publish, whatever happened)."""
    names = [*spark.table_names("main"), *spark.table_names("ldiv")]  # type: ignore[attr-defined]
    return [n for n in names if "__ldiv_" in n]


def _state(db: Database, out: str) -> dict[str, Any]:
    """Everything a stream keeps, for before/after comparisons."""
    name = f"main.{out}"
    retained = retained_ref(db, name)
    keys = keys_ref(db, name)

    def count(sql: str) -> int:
        return int(db.scalar(Query("count", sql, {"n": name})))

    return {
        "content": _content(db, out),
        "retained": int(db.scalar(Query("n", f"SELECT count(*) FROM {retained.sql()}"))),
        "keys": sorted(r[0] for r in db.rows(Query("k", f"SELECT key_hash FROM {keys.sql()}"))),
        "stream_rows": count("SELECT count(*) FROM ldiv.stream_row WHERE name = $n"),
        "stream": db.records(
            Query("s", "SELECT releases, next_key FROM ldiv.stream WHERE name = $n", {"n": name})
        ),
        "releases": count("SELECT count(*) FROM ldiv.release WHERE name = $n"),
        "release_rows": int(db.scalar(Query("n", "SELECT count(*) FROM ldiv.release_row"))),
        "noise": int(db.scalar(Query("n", "SELECT count(*) FROM ldiv.noise"))),
    }


def test_the_paper_example_is_duckdbs_release(both, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    duck, spark = both
    # runs without --seed draw a seed whose tie key orders the paper's rows as their row ids do, the
    # order SPEC §4.6 forms the groups in
    fix_drawn_seed(monkeypatch, identity_seeds(duck, "dec", 1)[0])
    want, got = (
        ldiv_db.anonymize(db, "dec", list(PAPER.qi), list(PAPER.sa), algorithm="decomposition", l=[4, 4],
                          output="pdec")
        for db in (duck, spark)
    )  # fmt: skip
    _same(want, got, duck, spark)
    assert got.groups == 2 and got.details["noise"] == 1  # SPEC §4.6: one copy of 8 in G1 became 7
    assert _leftovers(spark) == []
    state = _state(spark, "pdec")
    assert state["stream_rows"] == 8 and len(state["keys"]) == 8 and state["retained"] == 0
    assert state["stream"] == [{"releases": 1, "next_key": 8}]
    linked = spark.scalar(
        Query("n", "SELECT count(*) FROM ldiv.release_row WHERE release_id = $r", {"r": got.release_id})
    )
    assert linked == 8


def test_a_failed_release_leaves_the_stream_as_it_was(both, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An append (with noise) whose written tables fail verification (forced) is refused: the three tables, the
    kept-back rows, the row keys, the row map, the noise log and the private row link are as before, and
    no staging table is left; the same append then publishes."""
    _, spark = both
    first = ldiv_db.anonymize(
        spark,
        "b0",
        BATCH_QI,
        BATCH_SA,
        algorithm="decomposition",
        l=[3, 3],
        output="fail",
        starvation_threshold=1,
    )
    assert first.verified
    before = _state(spark, "fail")
    verify = dr.StreamRelease.verify

    def broken(self, db, rec):  # type: ignore[no-untyped-def]
        verdict = verify(self, db, rec)
        verdict.verified = False
        return verdict

    monkeypatch.setattr(dr.StreamRelease, "verify", broken)
    with pytest.raises(PrivacyViolation, match="nothing was published"):
        api.release_append(spark, "fail", "b1")
    assert _state(spark, "fail") == before
    assert _leftovers(spark) == []
    monkeypatch.setattr(dr.StreamRelease, "verify", verify)
    again = api.release_append(spark, "fail", "b1")
    assert again.verified and again.rows_in == 80
    # the noise log holds this release's noise once: the failed attempt's was forgotten
    assert _state(spark, "fail")["noise"] == before["noise"] + again.details["noise"] > before["noise"]
    assert _state(spark, "fail")["stream_rows"] == 80


def test_a_release_name_the_catalog_cannot_hold_is_refused_before_the_run(both) -> None:  # type: ignore[no-untyped-def]
    _, spark = both
    runs = spark.scalar(Query("n", "SELECT count(*) FROM ldiv.run"))
    with pytest.raises(BadInput, match="letters, digits and _ only") as info:
        ldiv_db.anonymize(
            spark, "b0", BATCH_QI, BATCH_SA, algorithm="decomposition", l=[3, 2], output="my out"
        )
    assert info.value.hint and "my_out" in info.value.hint
    assert spark.scalar(Query("n", "SELECT count(*) FROM ldiv.run")) == runs  # not even a run recorded


@pytest.mark.slow
def test_a_stream_is_duckdbs_stream(both) -> None:  # type: ignore[no-untyped-def]
    """A first release and two appends give DuckDB's releases; re-appending a batch is refused with
    nothing written; ``--replace`` starts the stream again (its row map forgotten when it is recorded)."""
    duck, spark = both
    kw: dict[str, Any] = {
        "algorithm": "decomposition",
        "l": [3, 2],
        "output": "st",
        "starvation_threshold": 1,
    }
    want, got = (ldiv_db.anonymize(db, "b0", BATCH_QI, BATCH_SA, **kw) for db in (duck, spark))
    _same(want, got, duck, spark)
    for i in (1, 2):
        want, got = (api.release_append(db, "st", f"b{i}") for db in (duck, spark))
        _same(want, got, duck, spark)
        assert got.details["rows_waiting"] == want.details["rows_waiting"]
    assert _leftovers(spark) == []
    history = [api.release_history(db, "st").to_dict() for db in (duck, spark)]
    for h in history:
        for r in h["releases"]:
            r.pop("release_id"), r.pop("created_at")
    assert history[1] == history[0] and len(history[1]["releases"]) == 3
    before = _state(spark, "st")
    assert before["stream_rows"] == 120 and len(before["keys"]) == 120
    with pytest.raises(BadInput, match="already received"):
        api.release_append(spark, "st", "b1")
    assert _state(spark, "st") == before
    want, got = (ldiv_db.anonymize(db, "b0", BATCH_QI, BATCH_SA, replace=True, **kw) for db in (duck, spark))
    _same(want, got, duck, spark)
    after = _state(spark, "st")
    assert after["stream_rows"] == 40 and len(after["keys"]) == 40
    assert after["stream"] == [{"releases": 1, "next_key": 40}]
    assert _leftovers(spark) == []
