"""``check`` on PostgreSQL splits a large table's groups among sessions that share one snapshot
(``PostgresDatabase.snapshot_sessions``): the same result as one session, the same committed data in every
part even while another session writes, and nothing left behind."""

from __future__ import annotations

import importlib
import random
import threading
import time
from typing import Any

import psycopg
import pytest

import ldiv_db
from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.db.postgres import engine as postgres
from ldiv_db.errors import BadInput

QI = ["age", "zip code"]
ROWS = 3000


def _table(url: str) -> None:
    rng = random.Random(5)
    with psycopg.connect(url, autocommit=True) as con:
        con.execute('CREATE TABLE public."pa tients" (age int, "zip code" text, disease text, job text)')
        with con.cursor().copy('COPY public."pa tients" FROM STDIN') as copy:
            for _ in range(ROWS):
                copy.write_row(
                    (
                        rng.randrange(20, 60),
                        rng.choice(["130", "14'8", "15x"]),
                        rng.choice(["flu", "HIV", "cancer", "it's"]),
                        rng.choice(["a", "b", "c"]),
                    )
                )


def _check(url: str, **model: Any) -> dict[str, Any]:
    out = ldiv_db.check(url, 'public."pa tients"', QI, ["disease", "job"], **model).to_dict()
    out.pop("seconds")
    out.pop("queries")
    return out


@pytest.fixture
def split_url(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    _table(pg_url)
    monkeypatch.setattr(postgres, "READ_SESSIONS_MIN_ROWS", 1000)
    return pg_url


@pytest.mark.parametrize(
    "model",
    [{}, {"model": "recursive", "l": 2, "c": 3}, {"model": "entropy", "l": 2}],
    ids=["stats", "rec", "ent"],
)
def test_three_sessions_give_the_result_of_one(
    split_url: str, monkeypatch: pytest.MonkeyPatch, model: Any
) -> None:
    opened: list[str] = []
    connect = postgres.PostgresDatabase.connect.__func__  # type: ignore[attr-defined]

    def counting(cls: type, url: str, **kw: Any) -> Any:
        opened.append(url)
        return connect(cls, url, **kw)

    monkeypatch.setattr(postgres.PostgresDatabase, "connect", classmethod(counting))
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "1")
    one = _check(split_url, **model)
    assert len(opened) == 1
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "3")
    three = _check(split_url, **model)
    assert len(opened) == 1 + 3  # the command's session and two more
    assert three == one
    assert one["rows"] == ROWS
    with psycopg.connect(split_url, autocommit=True) as con:
        left = _sessions_left(con)
        tables = con.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        ).fetchone()
    assert left == 0  # every session closed
    assert tables == (1,)  # the source alone: a check writes nothing


def _sessions_left(con: psycopg.Connection[Any], wait: float = 10.0) -> int:
    """ldiv_db's sessions still on the server. A closed session's backend leaves ``pg_stat_activity``
    when it has exited, a moment after the client hung up: poll until none is left or ``wait`` passes
    (a session that was never closed stays, and fails the caller's assertion)."""
    deadline = time.monotonic() + wait
    while True:
        row = con.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ldiv_db'"
        ).fetchone()
        left = int(row[0]) if row else 0
        if left == 0 or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def test_every_part_reads_the_snapshot_of_the_start(split_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows committed by another session after the check began are in no part, although the second part
    starts building only after that commit."""
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "2")
    committed = threading.Event()
    build = SqlEvaluator.build

    def racing(self: SqlEvaluator) -> SqlEvaluator:
        if self.part == (0, 2) and not committed.is_set():
            with psycopg.connect(split_url, autocommit=True) as writer:
                writer.execute(
                    "INSERT INTO public.\"pa tients\" SELECT age + 100, 'new', 'flu', 'a' FROM public.\"pa tients\""
                )
            committed.set()
        elif self.part == (1, 2):
            assert committed.wait(30)
        return build(self)

    monkeypatch.setattr(SqlEvaluator, "build", racing)
    result = _check(split_url)
    assert committed.is_set()
    assert result["rows"] == ROWS
    monkeypatch.setattr(SqlEvaluator, "build", build)
    assert _check(split_url)["rows"] == 2 * ROWS  # the next check sees them


def test_a_bad_session_count_is_named(split_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "many")
    with pytest.raises(BadInput, match="LDIV_PG_READ_SESSIONS"):
        _check(split_url)


def test_sessions_the_server_refuses_leave_the_work_to_the_others(
    split_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More sessions asked than the server's max_connections (40) allows: the sessions that opened
    do the work, and the result is the one session's."""
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "1")
    one = _check(split_url, model="recursive", l=2, c=3)
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "64")
    opened: list[int] = []
    connect = postgres.PostgresDatabase.connect.__func__  # type: ignore[attr-defined]

    def counting(cls: type, url: str, **kw: Any) -> Any:
        db = connect(cls, url, **kw)
        opened.append(1)
        return db

    monkeypatch.setattr(postgres.PostgresDatabase, "connect", classmethod(counting))
    assert _check(split_url, model="recursive", l=2, c=3) == one
    assert 2 < len(opened) < 40


def test_one_session_leaves_the_transaction_it_is_in(pg_url: str) -> None:
    """A release's verification evaluates inside the release's transaction: the sessions block (one
    session there) must neither end nor roll back that transaction."""
    from ldiv_db.db import Database
    from ldiv_db.sqlgen.render import Query

    with Database.open(pg_url) as db:
        with db.transaction():
            db.run(Query("t", "CREATE TABLE public.kept AS SELECT 1 AS a"))
            for split in (False, True):
                with db.snapshot_sessions(1_000_000, split=split) as sessions:
                    assert sessions == [db]
            assert db.scalar(Query("t", "SELECT count(*) FROM public.kept")) == 1
        assert db.scalar(Query("t", "SELECT count(*) FROM public.kept")) == 1  # committed


@pytest.mark.parametrize("kl", [False, True])
def test_a_large_release_reads_its_metrics_source_side_on_a_second_session(
    split_url: str, monkeypatch: pytest.MonkeyPatch, kl: bool
) -> None:
    """From READ_SESSIONS_MIN_ROWS source rows a release reads the metrics' domain (and KL's source
    points) on a second session while the algorithm runs: the same release and metrics as on the
    release's own session, and that session closed at the end."""
    opened: list[str] = []
    connect = postgres.PostgresDatabase.connect.__func__  # type: ignore[attr-defined]

    def counting(cls: type, url: str, **kw: Any) -> Any:
        opened.append(kw.get("mode", "write"))
        return connect(cls, url, **kw)

    monkeypatch.setattr(postgres.PostgresDatabase, "connect", classmethod(counting))
    compute = importlib.import_module("ldiv_db.utility.compute")
    adopted: list[bool] = []
    taken = compute.taken

    def adopting(*args: Any) -> Any:
        side = taken(*args)
        adopted.append(side is not None)
        return side

    monkeypatch.setattr(compute, "taken", adopting)
    found = []
    for least in (10**9, 1000):  # the release's session alone, then with the second reader
        monkeypatch.setattr(postgres, "READ_SESSIONS_MIN_ROWS", least)
        opened.clear()
        res = ldiv_db.anonymize(
            split_url, 'public."pa tients"', QI, "disease", algorithm="tp", l=2, output='public."out side"',
            replace=True, kl=kl,
        )  # fmt: skip
        assert opened == (["write"] if least > ROWS else ["write", "read"])
        assert adopted.pop() is (least <= ROWS)  # the second session's domain was the one used
        with psycopg.connect(split_url, autocommit=True) as con:
            rows = con.execute('SELECT * FROM public."out side" ORDER BY 1, 2, 3, 4').fetchall()
            assert _sessions_left(con) == 0
        found.append((res.metrics, res.groups, rows))
    assert found[0] == found[1]
    if kl:  # KL's source points came from the second session too
        assert found[0][0]["kl"] is not None
