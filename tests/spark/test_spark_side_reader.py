"""A small release on a local master reads the metrics' source side (the domain, KL's source points) on a
second connection of the session, in a thread of its own, while the algorithm runs
(``SparkDatabase.side_reader``; ldiv_db/utility/source_side.py): its statements are jobs of their own
group, and the release, its metrics and its verification are those made without it."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import ldiv_db
from fixtures.papers import paper_tables
from ldiv_db import taxonomy
from ldiv_db.db import Database
from ldiv_db.db.spark import engine, jobs

pytestmark = pytest.mark.spark


def test_the_source_side_is_read_beside_the_run_and_changes_no_figure(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    t = paper_tables()["tp_example4"]
    sent: list[tuple[str, str, str | None]] = []  # statement, thread, its job group
    real = engine.SparkDatabase._statement

    def spy(self: Any, name: str, sql: str, params: Any, *, probe: bool = True) -> Any:
        state = jobs._RUNNING.get(threading.get_ident())
        sent.append((name, threading.current_thread().name, state and state["group"]))
        return real(self, name, sql, params, probe=probe)

    with Database.open(spark_url) as db:
        ldiv_db.load(db, t.path, "side_tp4", sep=";", replace=True)
        for col, path in t.hierarchies.items():
            taxonomy.import_hierarchy(db, "side_tp4", col, path)
        monkeypatch.setattr(engine.SparkDatabase, "_statement", spy)
        results = {}
        for side in (True, False):
            if not side:
                monkeypatch.setattr(engine.SparkDatabase, "side_reader", lambda self, rows=None: None)
            sent.clear()
            results[side] = ldiv_db.anonymize(
                db, "side_tp4", ["Age", "Gender", "Education"], "Disease", algorithm="mondrian", l=2,
                output=f"side_out_{side}".lower(), replace=True, seed=7,
            )  # fmt: skip
            beside = [(n, g) for n, th, g in sent if th == "ldiv-source-side"]
            if side:
                assert {"metrics/domain.sql", "metrics/kl_inputs.sql"} <= {n for n, _ in beside}
                mine = {g for n, th, g in sent if th != "ldiv-source-side"}
                assert not mine & {g for _, g in beside}  # each thread's statements in groups of its own
            else:
                assert beside == []
        db.drop_work_tables()
    with_side, without = results[True], results[False]
    assert with_side.verified and without.verified
    assert with_side.metrics == without.metrics and with_side.metrics["kl"] is not None
    assert with_side.verification == without.verification
    numbers = ("rows_in", "rows_published", "rows_deleted", "classes")
    assert [getattr(with_side, k) for k in numbers] == [getattr(without, k) for k in numbers]
