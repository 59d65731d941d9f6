"""Mondrian's eviction before a large source's write: DuckDB's bound lowered and the heap trimmed, without
the garbage collection (Algorithm.leaves_cycles), because its run leaves no reference cycle to collect."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from ldiv_db.algorithms.mondrian import Mondrian
from ldiv_db.db import Database
from tests.integration.frames import as_large_source, make_table


def _frame(rows: int, seed: int, nulls: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age": rng.integers(17, 90, rows),
            "zip": rng.choice([f"z{i:03d}" for i in range(40)], rows),
            "sex": rng.choice(["f", "m", None] if nulls else ["f", "m"], rows),
            "sa": rng.choice(list("abcdefgh"), rows),
        }
    )


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("form", ["distinct", "frequency"])
def test_mondrians_run_leaves_nothing_for_the_collector(
    monkeypatch: pytest.MonkeyPatch, seed: int, form: str
) -> None:
    """The premise of leaves_cycles = False: with the collector off through Mondrian's run, a collection
    right after it finds no unreachable object (everything its run built went by reference counting)."""
    found: list[int] = []
    run = Mondrian.run

    def counted(self: Mondrian, request: Any) -> Any:
        gc.collect()
        gc.disable()
        try:
            built = run(self, request)
            found.append(gc.collect())
        finally:
            gc.enable()
        return built

    monkeypatch.setattr(Mondrian, "run", counted)
    with Database.open(":memory:") as db:
        make_table(db, "t", _frame(3000, seed, nulls=seed == 2))
        out = ldiv_db.anonymize(
            db,
            "t",
            ["age", "zip", "sex"],
            "sa",
            algorithm="mondrian",
            l=3,
            output="o",
            seed=7,
            mondrian_form=form,
            null_as_value=seed == 2,
        )
    assert out.verified and found == [0]


def test_a_large_mondrian_run_trims_without_collecting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above LARGE_ROWS Mondrian's eviction keeps DuckDB's lowered bound but skips the collection; an
    algorithm that may leave cycles (Hilbert-l) still collects; the releases are a small run's."""
    seen: list[tuple[str, str]] = []

    def release(db: Database, algorithm: str, name: str) -> Any:
        return ldiv_db.anonymize(
            db, "t", ["age", "zip", "sex"], "sa", algorithm=algorithm, l=3, output=name, seed=7, replace=True
        )

    with Database.open(":memory:") as db:
        make_table(db, "t", _frame(1500, 3))
        small = {a: release(db, a, f"small_{a}") for a in ("mondrian", "hilbert")}
        as_large_source(monkeypatch, db, seen)
        large = {a: release(db, a, f"large_{a}") for a in ("mondrian", "hilbert")}
        shown = {a: db.raw_rows(f"SELECT * FROM large_{a} EXCEPT ALL SELECT * FROM small_{a}") for a in large}
    assert seen == [("trimmed", "64.0 MiB"), ("freed", "64.0 MiB")]
    for a in large:
        assert large[a].verified and shown[a] == []
        assert (large[a].classes, large[a].rows_published) == (small[a].classes, small[a].rows_published)


def test_mondrians_dead_work_tables_go_before_the_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mondrian's rows and classes tables, read by nothing after its assignment statement, are dropped
    before the eviction (its lowered bound then writes out less); with keep_work they stay. The release is
    the one a run that keeps them writes."""
    seen: list[list[str]] = []

    def temp_tables(db: Database) -> list[str]:
        return sorted(r[0] for r in db.raw_rows("SELECT table_name FROM duckdb_tables() WHERE temporary"))

    run = Mondrian.run

    def after_run(self: Mondrian, request: Any) -> Any:
        built = run(self, request)
        seen.append(temp_tables(request.db))
        return built

    monkeypatch.setattr(Mondrian, "run", after_run)
    with Database.open(":memory:") as db:
        make_table(db, "t", _frame(1500, 4))
        kwargs: dict[str, Any] = {"algorithm": "mondrian", "l": 3, "seed": 7}
        dropped = ldiv_db.anonymize(db, "t", ["age", "zip", "sex"], "sa", output="a", **kwargs)
        kept = ldiv_db.anonymize(db, "t", ["age", "zip", "sex"], "sa", output="b", keep_work=True, **kwargs)
        kept_tables = sorted(
            r[0]
            for r in db.raw_rows("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'ldiv_work'")
        )
        differ = db.raw_rows("SELECT * FROM a EXCEPT ALL SELECT * FROM b")
    assert "mondrian_rows" not in seen[0] and "mondrian_classes" not in seen[0]
    assert "mondrian_assignment" in seen[0]
    assert {"mondrian_rows", "mondrian_classes"} <= set(kept_tables)
    assert dropped.verified and kept.verified and differ == []
