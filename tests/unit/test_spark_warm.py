"""The warm-up statement of a local Spark session (ldiv_db/db/spark/warm.py, decision 0032 Round 5): what
it returns (against a brute force in Python), that it runs once per session and only for a local master,
and that its failure never reaches the command."""

from __future__ import annotations

import threading
from typing import Any

import duckdb

from ldiv_db.db.spark import warm
from ldiv_db.db.spark.session import is_local
from ldiv_db.sqlgen.render import render


def brute_force() -> list[tuple[int, str, int]]:
    """The statement's rows by its definition: ids 0..63, k = id mod 4 (16 ids each), s the id as text;
    per k its two least s (as text, lower-cased, which changes no digit) and the least s again, in (k, s)
    order."""
    rows = []
    for k in range(4):
        texts = sorted(str(i) for i in range(64) if i % 4 == k)
        rows += [(k, texts[0], 16), (k, texts[1], 16), (k, texts[0], 16)]
    return sorted(rows, key=lambda r: (r[0], r[1]))


def test_the_statement_returns_its_definition_on_duckdb() -> None:
    got = duckdb.sql(render("session/warm_up.sql").sql).fetchall()
    assert got == brute_force()
    assert len(got) == 12


class _Session:
    """A stand-in session: records the statements sent, optionally failing each."""

    def __init__(self, fail: bool = False) -> None:
        self.sent: list[str] = []
        self.fail = fail
        self.threads: list[str] = []

    def sql(self, text: str) -> Any:
        self.threads.append(threading.current_thread().name)
        self.sent.append(text)
        if self.fail:
            raise RuntimeError("the JVM is gone")
        return self

    def toArrow(self) -> None:  # pyspark's name
        return None


def test_runs_once_per_session_in_a_thread_of_its_own() -> None:
    session = _Session()
    first = warm.start(session)
    warm.finish(first)
    assert first is not None and not first.is_alive()
    assert warm.start(session) is None  # the second connection of the process: nothing more
    assert len(session.sent) == 1 and session.threads == ["ldiv-spark-warm-up"]
    assert "JOIN" in session.sent[0] and "ROW_NUMBER()" in session.sent[0]  # the Spark translation


def test_a_failure_stays_in_the_warm_up() -> None:
    session = _Session(fail=True)
    thread = warm.start(session)
    warm.finish(thread)  # no exception reaches the caller; the statements meet the failure themselves
    assert session.sent and thread is not None and not thread.is_alive()
    warm.finish(None)


def test_only_a_local_master_warms_up() -> None:
    assert is_local("spark://local[2]?warehouse=/tmp/w")
    assert is_local("spark://local") and is_local("spark://local[*]")
    assert not is_local("spark://node1:7077")
