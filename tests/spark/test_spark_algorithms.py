"""Each algorithm that runs on Spark, end to end on the papers' example tables, against DuckDB: the same
data loaded into a DuckDB file and a Spark catalog through ``ldiv load`` (hierarchies imported), the same
run on both must give the same groups (up to renumbering: the multiset of groups, each the multiset of
its published rows), the same counts and the same metrics (to 1e-9), verified; and the Spark release went
through the staged writer (no staging or previous table is left beside it). Statements per run are
written to the test log (``-rA``). Spark costs 0.1-1 s per statement even on a few rows, so the runs are
``slow`` (``make test-slow``), apart from one in ``test_spark_commands.py``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import ldiv_db
from fixtures.papers import paper_tables
from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.db.spark.engine import ALGORITHMS
from ldiv_db.sqlgen.render import Query, TableRef

pytestmark = [pytest.mark.spark, pytest.mark.slow]

TABLES = {
    "tp_example4": ["Age", "Gender", "Education"],
    "lplus_fig1": ["Education", "Country"],
}
# (algorithm, table, options): each algorithm on a paper table its options suit
RUNS = [
    *[(a, "tp_example4", {"l": 2}) for a in ("tp", "tp+", "mondrian", "hilbert", "bsgi")],
    ("lplus", "lplus_fig1", {"l": 2}),
    ("topdown", "lplus_fig1", {"l": 2, "model": "distinct"}),
    ("optimal", "lplus_fig1", {"l": 2}),
    (
        "full-domain",
        "lplus_fig1",
        {"l": 2, "levels": {"Education": 1, "Country": 1}, "suppression_limit": "0.5"},
    ),
]


def _build(target: str) -> Database:
    db = Database.open(target)
    for name, t in paper_tables().items():
        if name in TABLES:
            ldiv_db.load(db, t.path, name, sep=";")
            for col, path in t.hierarchies.items():
                taxonomy.import_hierarchy(db, name, col, path)
    return db


@pytest.fixture(scope="module")
def both(spark_session, spark_url, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    duck = _build(str(tmp_path_factory.mktemp("algos") / "d.duckdb"))
    spark = _build(spark_url)
    yield duck, spark
    duck.close()
    spark.drop_work_tables()
    spark.close()


def _groups(db: Database, table: str) -> Counter[str]:
    by: dict[Any, list[str]] = {}
    for r in db.records(Query("read", f"SELECT * FROM {TableRef(table, 'main').sql()}")):
        by.setdefault(r.pop("group_id"), []).append(json.dumps(r, sort_keys=True, default=str))
    return Counter(json.dumps(sorted(rows)) for rows in by.values())


def _numbers(d: dict[str, Any]) -> dict[str, float]:
    return {k: float(v) for k, v in d.items() if isinstance(v, int | float) and not isinstance(v, bool)}


def test_every_algorithm_spark_runs_is_tested() -> None:
    # Decomposition+ (three tables, a stream): tests/spark/test_spark_decomposition.py
    assert {a for a, _, _ in RUNS} | {"decomposition"} == set(ALGORITHMS)


@pytest.mark.parametrize("run", RUNS, ids=[f"{r[1]}-{r[0]}" for r in RUNS])
def test_same_release_on_spark_and_duckdb(run, both, record_property) -> None:  # type: ignore[no-untyped-def]
    algorithm, table, options = run
    duck, spark = both
    out = f"{table}_{algorithm.replace('+', 'plus').replace('-', '_')}"
    results = []
    for db in (duck, spark):
        q0 = db.queries
        res = ldiv_db.anonymize(
            db, table, TABLES[table], "Disease", algorithm=algorithm, output=out, **options
        )
        results.append((res.to_dict(), db.queries - q0))
    (want, _), (got, statements) = results
    record_property("spark_statements", statements)
    print(f"{algorithm} on {table}: {statements} Spark statements")
    assert got["verified"] is True and want["verified"] is True
    for key in ("rows_in", "rows_published", "rows_deleted", "cells_suppressed", "classes", "verification"):
        assert got[key] == want[key], key
    wm, gm = _numbers(want["metrics"]), _numbers(got["metrics"])
    assert wm.keys() == gm.keys()
    for k in wm:
        assert gm[k] == pytest.approx(wm[k], rel=1e-9, abs=1e-9), k
    assert _groups(spark, out) == _groups(duck, out)
    assert [n for n in spark.table_names("main") if n.startswith(out)] == [out]  # type: ignore[attr-defined]
    rid = spark.scalar(
        Query("rid", "SELECT max(release_id) FROM ldiv.release WHERE name = $n", {"n": f"main.{out}"})
    )
    linked = spark.scalar(
        Query("n", "SELECT count(*) FROM ldiv.release_row WHERE release_id = $r", {"r": rid})
    )
    assert linked == got["rows_in"]


def test_a_second_release_replaces_the_first_through_staging(both) -> None:  # type: ignore[no-untyped-def]
    _, spark = both
    kw = {"algorithm": "tp", "output": "tp_again", "l": 2}
    first = ldiv_db.anonymize(spark, "tp_example4", TABLES["tp_example4"], "Disease", **kw)
    second = ldiv_db.anonymize(spark, "tp_example4", TABLES["tp_example4"], "Disease", replace=True, **kw)
    assert second.release_id > first.release_id and second.verified
    assert [n for n in spark.table_names("main") if n.startswith("tp_again")] == ["tp_again"]  # type: ignore[attr-defined]
    supersedes = spark.scalar(Query("s", "SELECT count(*) FROM ldiv.release WHERE name = 'main.tp_again'"))
    assert supersedes == 2


def test_bsgi_in_parts_is_the_same_on_spark(both, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """BSGI's refinement in parts (threshold lowered to 4 rows): the same parts and release as DuckDB's."""
    from ldiv_db.algorithms.bsgi.refine import parts

    monkeypatch.setattr(parts, "PART_ROWS", 4)
    duck, spark = both
    want, got = (
        ldiv_db.anonymize(db, "tp_example4", TABLES["tp_example4"], "Disease", algorithm="bsgi", l=2,
                          output="parts_bsgi", replace=True).to_dict()
        for db in (duck, spark)
    )  # fmt: skip
    assert got["verified"] is True and want["verified"] is True
    assert len(want["details"]["parts"]) >= 2 and got["details"]["parts"] == want["details"]["parts"]
    assert got["classes"] == want["classes"]
    assert _groups(spark, "parts_bsgi") == _groups(duck, "parts_bsgi")
