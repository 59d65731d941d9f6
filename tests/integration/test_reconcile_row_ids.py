"""The reconciliation's count of the assignment's distinct row ids (``release/reconcile.sql``): as a bitmap
over the row ids' range where the engine counts so (DuckDB's ``bitstring_agg``, a range of at most
``Database.bitmap_count_range`` values, the range from ``release/published_count.sql``), else by
``count(DISTINCT rid)``. Both find a row assigned twice (and one row not at all), and a release's
pipeline passes the range it counted before the write."""

from __future__ import annotations

from typing import Any

import pytest

import ldiv_db
from ldiv_db.algorithms import Partitioning
from ldiv_db.core.catalog import resolve_table
from ldiv_db.core.inputs import Inputs
from ldiv_db.db import Database
from ldiv_db.errors import InternalError
from ldiv_db.pipeline.verify import aggregate, reconcile
from ldiv_db.sqlgen.render import TableRef, render

ROWS = 40


def _release(db: Database, twice: bool) -> tuple[Inputs, Partitioning, TableRef, tuple[int, int]]:
    """A source of ROWS rows, its assignment (four groups; with ``twice`` row 7 assigned twice and row 8
    not at all), the written table and its aggregate, and the row ids' range published_count finds."""
    db.raw_rows(f"CREATE TABLE src AS SELECT i % 9 AS a, 'v' || (i % 5) AS s FROM range({ROWS}) AS t(i)")
    asg = db.work_table("asg")
    db.raw_rows(
        f"CREATE OR REPLACE TEMP TABLE {asg.sql()} AS SELECT rowid AS rid, rowid % 4 AS gid, "
        "false AS deleted, false AS sa_suppressed FROM src"
    )
    if twice:
        db.raw_rows(f"UPDATE {asg.sql()} SET rid = 7 WHERE rid = 8")
    db.raw_rows(
        f"CREATE TABLE out AS SELECT '*' AS a, src.s, asg.gid AS group_id FROM {asg.sql()} AS asg "
        "JOIN src ON src.rowid = asg.rid"
    )
    source = resolve_table(db, "src")
    inputs = Inputs(source, (source.column("a"),), (source.column("s"),), None, ROWS)
    written = resolve_table(db, "out")
    agg = aggregate(
        db,
        Inputs(written, (written.column("a"),), (written.column("s"),), None, ROWS),
        written.ref,
        "group_id",
        None,
    )
    found = db.records(render("release/published_count.sql", assignment=asg))[0]
    assert (found["assigned"], found["published"]) == (ROWS, ROWS)
    return inputs, Partitioning(assignment=asg, recoding="suppress"), agg, (found["rid_lo"], found["rid_hi"])


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The reconciliation's statements as rendered, with their row id bounds."""
    import ldiv_db.pipeline.verify as verify_module

    real, seen = verify_module.render, []

    def spy(name: str, params: object = None, **ctx: Any) -> Any:
        query = real(name, params, **ctx)  # type: ignore[arg-type]
        if name == "release/reconcile.sql":
            seen.append((query.sql, ctx.get("rid_bits")))
        return query

    monkeypatch.setattr(verify_module, "render", spy)
    return seen


@pytest.mark.parametrize("bitmap", [1 << 27, 0, ROWS - 1], ids=["bitmap", "no bitmap", "range too wide"])
@pytest.mark.parametrize("twice", [False, True], ids=["once each", "a row twice"])
def test_the_distinct_row_ids_are_counted_alike_by_bitmap_or_not(
    db: Database, monkeypatch: pytest.MonkeyPatch, bitmap: int, twice: bool
) -> None:
    monkeypatch.setattr(type(db), "bitmap_count_range", bitmap)
    seen = _spy(monkeypatch)
    inputs, part, agg, rid_range = _release(db, twice)
    assert rid_range == (0, ROWS - 1)
    if twice:
        with pytest.raises(InternalError, match=f"{ROWS} assignments \\({ROWS - 1} rows\\) for {ROWS} rows"):
            reconcile(db, inputs, part, agg, rid_range)
    else:
        rec = reconcile(db, inputs, part, agg, rid_range)
        assert (rec["assigned"], rec["distinct_assigned"], rec["published"]) == (ROWS, ROWS, ROWS)
    ((sql, bits),) = seen
    assert ("bitstring_agg(rid, 0, 39)" in sql) == (bitmap >= ROWS) and ("count(DISTINCT rid)" in sql) == (
        bitmap < ROWS
    )
    assert bits == (rid_range if bitmap >= ROWS else None)


def test_a_release_counts_its_row_ids_in_the_range_found_before_the_write(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    db.raw_rows(f"CREATE TABLE src AS SELECT i % 9 AS a, 'v' || (i % 5) AS s FROM range({ROWS}) AS t(i)")
    db.raw_rows("DELETE FROM src WHERE a = 0")  # row ids with gaps: the range is the assigned ones'
    seen = _spy(monkeypatch)
    res = ldiv_db.anonymize(db, "src", ["a"], "s", algorithm="mondrian", l=2, output="out", kl=False)
    assert res.verified and res.rows_in == ROWS - 5
    lo, hi = db.raw_rows("SELECT min(rowid), max(rowid) FROM src")[0]
    ((sql, bits),) = seen
    assert bits == (lo, hi) and f"bitstring_agg(rid, {lo}, {hi})" in sql
