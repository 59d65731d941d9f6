"""The one release pipeline (issue 12): an algorithm returns what to publish — a partitioning, or a
release of several tables — and ldiv_db.pipeline.publish writes, reconciles, verifies and records it in
one transaction. A test algorithm that publishes two tables shows the contract; the counting tests show
that every release, Decomposition+'s first one and ``release append`` included, goes through it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db import api
from ldiv_db.algorithms import REGISTRY, Algorithm, AnonymizeRequest, register
from ldiv_db.algorithms.base import Header, Reconciled, Release, Verdict
from ldiv_db.db import Database
from ldiv_db.errors import InternalError, PrivacyViolation
from ldiv_db.sqlgen.render import Query, TableRef
from tests.integration.frames import make_table

publish_module = importlib.import_module("ldiv_db.pipeline.publish")
PAPER = PAPER_TABLES["decomposition_table1"]
QI = ["Gender", "Zip"]


class _Halves(Release):
    """OUT_even and OUT_odd: the source rows split by row id parity (a stand-in for a multi-table
    release). ``lose`` drops a row from OUT_odd; ``verified`` is the verdict its checks report."""

    lose = False
    verified = True
    problem = ""
    nothing = False  # reports that it publishes no row (the empty-release rule)

    def __init__(self, request: AnonymizeRequest) -> None:
        assert request.output is not None
        self.source = request.inputs.table.ref
        self.out = request.output
        self.tables = (
            TableRef(f"{self.out.name}_even", self.out.schema),
            TableRef(f"{self.out.name}_odd", self.out.schema),
        )
        self.rows_in = request.inputs.rows
        self.empty = (0 if self.nothing else self.rows_in, self.rows_in)
        self.header = Header(
            name=self.out.display(),
            source=request.inputs.table.name,
            algorithm="halves-test",
            model="distinct",
            model_params={"l": [2]},
            l=[2],
            qi=[c.name for c in request.inputs.qi],
            sa=[c.name for c in request.inputs.sa],
            output=", ".join(t.display() for t in self.tables),
        )

    def write(self, db: Database) -> None:
        even, odd = self.tables
        src = self.source.sql()
        db.run(Query("test/even", f"CREATE TABLE {even.sql()} AS SELECT * FROM {src} WHERE rowid % 2 = 0"))
        lost = " AND rowid > 1" if self.lose else ""
        db.run(
            Query("test/odd", f"CREATE TABLE {odd.sql()} AS SELECT * FROM {src} WHERE rowid % 2 = 1{lost}")
        )

    def reconcile(self, db: Database) -> Reconciled:
        n = [int(db.raw_rows(f"SELECT count(*) FROM {t.sql()}")[0][0]) for t in self.tables]
        counts = {"even": n[0], "odd": n[1]}
        return Reconciled(self.rows_in, sum(n), 0, counts, [self.problem] if self.problem else [])

    def verify(self, db: Database, rec: Reconciled) -> Verdict:
        return Verdict(
            self.verified,
            {"by_table": rec.counts},
            {"tables": 2},
            {"halves": True},
            2,
            violation="a test rule",
        )

    def link(self, db: Database, release_id: int) -> None:
        return None

    def group_tables(self) -> list[tuple[TableRef, list[str]]]:
        return []  # its tables carry no group ids

    def regrouped(self, tables: Mapping[TableRef, TableRef]) -> None:
        return None


class _HalvesAlgorithm(Algorithm):
    name = "halves-test"
    release_class: type[_Halves] = _Halves

    def output_tables(self, out: TableRef) -> tuple[TableRef, ...]:
        return (TableRef(f"{out.name}_even", out.schema), TableRef(f"{out.name}_odd", out.schema))

    def run(self, request: AnonymizeRequest) -> Release:
        return self.release_class(request)


@pytest.fixture
def halves() -> Iterator[type[_HalvesAlgorithm]]:
    register(_HalvesAlgorithm)
    try:
        yield _HalvesAlgorithm
    finally:
        REGISTRY.pop(_HalvesAlgorithm.name)
        _HalvesAlgorithm.release_class = _Halves


def _paper(db: Database) -> int:
    frame = read_table(PAPER).sort_values("row_id")
    make_table(db, "t", frame)
    return len(frame)


def _anon(db: Database, **kw: Any) -> ldiv_db.AnonymizeResult:
    return ldiv_db.anonymize(db, "t", QI, "Occupation", algorithm="halves-test", l=2, output="h", **kw)


def _tables(db: Database) -> list[str]:
    return sorted(
        r[0] for r in db.raw_rows("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")
    )


def test_a_release_of_two_tables_is_written_recorded_and_owned(db: Database, halves: Any) -> None:
    n = _paper(db)
    res = _anon(db)
    assert _tables(db) == ["h_even", "h_odd", "t"]
    even, odd = (int(db.raw_rows(f"SELECT count(*) FROM h_{x}")[0][0]) for x in ("even", "odd"))
    assert even + odd == n and even > 0 and odd > 0
    assert (res.rows_in, res.rows_published, res.groups, res.verified) == (n, n, 2, True)
    assert res.output == "main.h_even, main.h_odd" and res.details == {"halves": True}
    rows = db.raw_rows("SELECT name, algorithm, rows_in, rows_published, verified FROM ldiv.release")
    assert rows == [("main.h", "halves-test", n, n, True)]
    owned = db.raw_rows("SELECT table_name, release_id, rows FROM ldiv.release_table ORDER BY table_name")
    assert owned == [("h_even", res.release_id, even), ("h_odd", res.release_id, odd)]
    assert db.raw_rows("SELECT status FROM ldiv.run") == [("done",)]


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"verified": False}, PrivacyViolation, "violates a test rule; nothing was published"),
        ({"lose": True}, InternalError, r"does not reconcile.*published \d+ \+ withheld 0 != \d+ rows in"),
        ({"problem": "the odd table is odd"}, InternalError, "does not reconcile.*the odd table is odd"),
    ],
)
def test_a_release_that_fails_a_check_leaves_the_previous_one(
    db: Database, halves: Any, change: dict[str, Any], error: type[Exception], message: str
) -> None:
    _paper(db)
    first = _anon(db)
    before = {t: db.raw_rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("h_even", "h_odd")}
    halves.release_class = type("_Broken", (_Halves,), change)
    with pytest.raises(error, match=message):
        _anon(db, replace=True)
    assert {t: db.raw_rows(f"SELECT * FROM {t} ORDER BY ALL") for t in before} == before
    assert db.raw_rows("SELECT release_id, superseded_by FROM ldiv.release") == [(first.release_id, None)]
    assert db.raw_rows("SELECT status FROM ldiv.run ORDER BY run_id") == [("done",), ("failed",)]


def test_an_empty_release_of_several_tables_is_refused_by_the_one_rule(db: Database, halves: Any) -> None:
    n = _paper(db)
    halves.release_class = type("_Nothing", (_Halves,), {"nothing": True})
    with pytest.raises(
        ldiv_db.BadInput, match=f"the release would be empty: halves-test deleted all {n} rows"
    ):
        _anon(db)
    assert _tables(db) == ["t"] and db.raw_rows("SELECT count(*) FROM ldiv.release") == [(0,)]


def _stream_batches(db: Database) -> None:
    rng = np.random.default_rng(7)
    n = 240
    full = pd.DataFrame(
        {
            "id": np.arange(n),
            "zip": rng.integers(100, 106, n).astype(str),
            "job": rng.choice(list("abcdef"), n),
            "pay": rng.choice(list("123456789"), n),
        }
    )
    make_table(db, "b0", full.iloc[:160].reset_index(drop=True))
    make_table(db, "b1", full.iloc[160:].reset_index(drop=True))


def test_every_release_goes_through_the_one_writer(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-table release, a Decomposition+ first release and its append each record their release
    through ldiv_db.pipeline.publish, once."""
    recorded: list[tuple[str, str]] = []
    original = publish_module._record

    def spy(database: Database, release: Release, *args: Any) -> int:
        recorded.append((release.header.algorithm, type(release).__name__))
        return int(original(database, release, *args))

    monkeypatch.setattr(publish_module, "_record", spy)
    _paper(db)
    ldiv_db.anonymize(db, "t", QI, "Occupation", algorithm="mondrian", l=2, output="m")
    _stream_batches(db)
    first = ldiv_db.anonymize(
        db,
        "b0",
        ["zip"],
        ["job", "pay"],
        algorithm="decomposition",
        l=[3, 2],
        output="s",
        noise="random",
        seed=1,
    )
    nxt = api.release_append(db, "s", "b1")
    assert recorded == [
        ("mondrian", "OneTable"),
        ("decomposition", "StreamRelease"),
        ("decomposition", "StreamRelease"),
    ]
    assert first.verified and nxt.verified and nxt.release_id > first.release_id
    state = db.raw_rows("SELECT releases, first_release FROM ldiv.stream WHERE name = 'main.s'")
    assert state == [(2, first.release_id)]
