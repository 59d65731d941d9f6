"""BSGI refined in parts (:mod:`ldiv_db.algorithms.bsgi.refine.parts`): above ``PART_ROWS`` rows the table is cut
into parts that keep BSGI Theorem 1's class count, and each is grouped and refined alone. Here the
threshold is lowered so that small tables take that path: the parts plan keeps the schedule's classes for
any bucket sizes, and a release in parts is verified, has the whole table's class count, distinct SA values
in every class, and an IL not above its parts' unrefined greedy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldiv_db
from ldiv_db.algorithms.bsgi.refine import parts, starts
from ldiv_db.algorithms.shared.schedule import max_l_schedule
from ldiv_db.db import Database
from ldiv_db.util import memory
from tests.integration.frames import as_large_source, make_table


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 400), min_size=2, max_size=16),
    l=st.integers(2, 6),
    part_rows=st.integers(3, 600),
    skew=st.one_of(st.none(), st.integers(0, 2**32 - 1)),
)
def test_plan_keeps_the_class_count(sizes: list[int], l: int, part_rows: int, skew: int | None) -> None:
    """Whatever the slabs of the locality order hold (``natural``: random, any bucket anywhere), the
    plan's parts keep the schedule's class count."""
    schedule = max_l_schedule(sizes, l)
    natural = None
    if skew is not None:
        n_parts = parts.part_count(sum(sizes), schedule.classes, part_rows)
        natural = np.random.default_rng(skew).exponential(size=(max(n_parts, 1), len(sizes))) ** 3
    cut = parts.plan(schedule, part_rows, natural)
    wanted = min(-(-sum(sizes) // part_rows), schedule.classes)
    if wanted < 2:
        assert cut is None
        return
    assert cut is not None, "a plan must exist whenever two or more parts are asked for"
    assert cut.parts == wanted
    assert (cut.rows >= 0).all()
    assert cut.rows.sum(axis=0).tolist() == sizes
    assert sum(cut.classes) == schedule.classes
    assert [max_l_schedule(r.tolist(), l).classes for r in cut.rows] == cut.classes
    bounds = cut.bounds()  # every bucket's ranks covered once, part after part
    for b, group in bounds.groupby("b"):
        assert group["lo"].iloc[0] == 0 and group["hi"].iloc[-1] == sizes[int(str(b))]
        assert (group["lo"].to_numpy()[1:] == group["hi"].to_numpy()[:-1]).all()


def _table(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    sa = rng.choice(list("ABCDEFGH"), size=n, p=[0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05])
    return pd.DataFrame(
        {
            "age": rng.integers(17, 90, size=n),
            "zip": rng.integers(100, 140, size=n),
            "kind": rng.choice(list("xyzw"), size=n),
            "sa": sa,
        }
    )


def _release(db: Database, l: int, name: str, refine: str = "exchange") -> ldiv_db.AnonymizeResult:
    n, n1 = db.con.execute("SELECT sum(c), max(c) FROM (SELECT count(*) AS c FROM t GROUP BY sa)").fetchone()
    # where the l-Property fails (l·n1 > n) Unique Distinct is refused: distinct is asked for by name
    model = "distinct" if l * n1 > n else "unique-distinct"
    return ldiv_db.anonymize(
        db, "t", ["age", "zip", "kind"], "sa", algorithm="bsgi", l=l, output=name, replace=True, refine=refine,
        model=model,
    )  # fmt: skip


def _classes(db: Database, release_id: int) -> list[tuple[int, int]]:
    return db.con.execute(
        "SELECT count(*), count(DISTINCT t.sa) FROM ldiv.release_row rr JOIN t ON t.rowid = rr.source_rowid "
        "WHERE rr.release_id = ? GROUP BY rr.group_id",
        [release_id],
    ).fetchall()


@pytest.mark.parametrize(
    ("n", "l", "part_rows", "seed"),
    # l = 5 with a value on 30 % of the rows breaks the l-Property: repeats, in parts as in the whole
    [(3000, 3, 700, 1), (2500, 5, 900, 2), (1200, 2, 100, 3), (2000, 4, 400, 4)],
)
def test_release_in_parts(monkeypatch: Any, n: int, l: int, part_rows: int, seed: int) -> None:
    with Database.open(":memory:") as db:
        make_table(db, "t", _table(n, seed))
        whole = _release(db, l, "whole")
        monkeypatch.setattr(parts, "PART_ROWS", part_rows)
        cut = _release(db, l, "cut")
        info = cut.details
        assert "parts" not in whole.details
        assert len(info["parts"]) == -(-n // part_rows)
        assert sum(p["rows"] for p in info["parts"]) == n
        assert info["refine"]["start"] == "per part"
        assert info["refine"]["il_after"] <= info["refine"]["il_before"] + 1e-9
        assert cut.verified and whole.verified
        # the same class count as the whole table (Theorem 1's maximum), every class l distinct values,
        # and repeated values only where the whole table's release has them too
        assert info["classes"] == whole.details["classes"]
        assert info["unique_distinct"] == whole.details["unique_distinct"]
        classes = _classes(db, cut.release_id)
        assert len(classes) == whole.details["classes"]
        assert all(distinct >= l for _, distinct in classes)
        assert sum(rows for rows, _ in classes) == n
        if whole.details["unique_distinct"]:
            assert all(rows == distinct for rows, distinct in classes)
        # the paper's algorithm (--refine none) never runs in parts
        plain = _release(db, l, "plain", refine="none")
        assert "parts" not in plain.details


def test_a_parts_starts_beside_its_greedy_give_the_same_release(monkeypatch: Any) -> None:
    """A part builds its starts on a second thread while its greedy runs (``parts.BESIDE``, the default)
    or after it: the same classes, row for row, and the same refined IL; either way each part runs with
    its heaps trimmed (``trimming``, entered once a part)."""
    assert parts.BESIDE
    begun: list[int] = []
    trimmed: list[float] = []
    begin, trimming = starts.begin, parts.trimming

    def counted(*args: Any, **kwargs: Any) -> Any:
        begun.append(args[0].n)
        return begin(*args, **kwargs)

    def trims(above: int) -> Any:
        trimmed.append(above)
        return trimming(above, every=0.001)

    monkeypatch.setattr(starts, "begin", counted)
    monkeypatch.setattr(parts, "trimming", trims)
    monkeypatch.setattr(parts, "PART_ROWS", 700)
    released = {}
    with Database.open(":memory:") as db:
        make_table(db, "t", _table(3000, 5))
        for beside in (False, True):
            monkeypatch.setattr(parts, "BESIDE", beside)
            out = _release(db, 3, f"beside_{beside}")
            rows = db.con.execute(
                "SELECT source_rowid, group_id FROM ldiv.release_row WHERE release_id = ? ORDER BY 1",
                [out.release_id],
            ).fetchall()
            released[beside] = (rows, out.details["refine"]["il_after"], len(out.details["parts"]))
    assert len(begun) == released[True][2] == 5 and sum(begun) == 3000 and len(trimmed) == 10
    assert released[False] == released[True] and len(released[True][0]) == 3000


def test_a_large_runs_grouping_leaves_duckdb_little_memory(monkeypatch: Any) -> None:
    """Above SMALL_SOURCE_ROWS BSGI groups and refines (whole, and each part) with DuckDB's memory_limit
    lowered to IDLE_MEMORY_LIMIT (64 MiB: DuckDB writes its blocks out), and counts its classes under
    the run's bound (512 MiB) again; its freed memory is handed back under the low bound before the
    release is written; the release is the one of a run that does not lower it."""
    from ldiv_db.algorithms.bsgi import Bsgi

    seen: list[tuple[str, str]] = []

    def spy(step: str) -> Any:
        original = getattr(Bsgi, step)

        def call(self: Bsgi, request: Any, *args: Any) -> Any:
            seen.append((step, request.db.raw_rows("SELECT current_setting('memory_limit')")[0][0]))
            return original(self, request, *args)

        return call

    def release(db: Database, name: str) -> Any:
        return ldiv_db.anonymize(
            db, "t", ["age", "zip", "kind"], "sa", algorithm="bsgi", l=3, output=name, seed=7, replace=True
        )

    with Database.open(":memory:") as db:
        make_table(db, "t", _table(2000, 4))
        db.raw_rows("SET memory_limit = '2GiB'")
        small = release(db, "small")
        monkeypatch.setattr(Bsgi, "_group", spy("_group"))
        monkeypatch.setattr(Bsgi, "_write", spy("_write"))
        as_large_source(monkeypatch, db, seen)
        whole = release(db, "whole")
        monkeypatch.setattr(parts, "PART_ROWS", 700)
        cut = release(db, "cut")
        after = db.raw_rows("SELECT current_setting('memory_limit')")[0][0]
    # after the algorithm its memory is handed back with DuckDB's bound low: its cached blocks go too
    low, run, freed = ("_group", "64.0 MiB"), ("_write", "512.0 MiB"), ("freed", "64.0 MiB")
    assert seen == [low, run, freed, low, low, low, run, freed] and after == "2.0 GiB"
    assert len(cut.details["parts"]) == 3 and whole.verified and cut.verified
    assert whole.details["refine"]["il_after"] == small.details["refine"]["il_after"]
    assert whole.details["classes"] == small.details["classes"] == cut.details["classes"]


def test_a_full_collection_only_after_a_large_greedy_or_part(monkeypatch: Any) -> None:
    """After the greedy (beside its starts) and after each part BSGI collects garbage and trims the heaps
    (``release_freed``) only above ``LARGE_ROWS`` rows, as the command does after any algorithm: a full
    collection takes tens to hundreds of milliseconds in a process with a large heap (a notebook, an ETL
    worker) and frees a small run's few MiB of arrays no sooner than reference counting does."""
    import gc

    collected: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(1) or 0)

    def count(name: str, part_rows: int) -> tuple[int, int]:
        monkeypatch.setattr(parts, "PART_ROWS", part_rows)
        collected.clear()
        out = _release(db, 3, name)
        assert out.verified
        return len(collected), len(out.details.get("parts", []))

    with Database.open(":memory:") as db:
        make_table(db, "t", _table(1500, 6))
        assert count("small_whole", 10**6) == (0, 0)
        assert count("small_parts", 500) == (0, 3)
        # the same runs with every size counted large: one collection after the greedy, two per part
        monkeypatch.setattr(memory, "LARGE_ROWS", 0)
        assert count("large_whole", 10**6) == (1, 0)
        assert count("large_parts", 500) == (6, 3)
