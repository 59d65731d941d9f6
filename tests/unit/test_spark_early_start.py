"""The command line starts a ``spark://`` session in a thread while the command imports what it needs
(ldiv_db/db/spark/session.py ``start_early``): the rules that need no JVM — the command's own open waits
for that start or raises the error it met (never a second start), a start the command ended before is
not begun, one under way at its end has its driver JVM killed."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from ldiv_db.db.spark import session as spark_session
from ldiv_db.errors import BadInput


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"spark://local[2]?warehouse={tmp_path / 'wh'}"


@pytest.fixture
def failing_start(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The driver JVM's start fails (no Java, say): each attempt counted."""
    attempts: list[int] = []

    def start(builder: Any, handler: Any) -> Any:
        attempts.append(1)
        raise RuntimeError("Java gateway process exited before sending its port number")

    monkeypatch.setattr(spark_session, "_start", start)
    return attempts


def _early(url: str, cancelled: threading.Event | None = None) -> None:
    thread = threading.Thread(target=spark_session.start_early, args=(url, cancelled or threading.Event()))
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive()


def test_the_early_starts_failure_is_the_commands_once(url: str, failing_start: list[int]) -> None:
    _early(url)
    with pytest.raises(BadInput) as first:  # the command's open: the early start's error, not a retry
        spark_session.session_for(url)
    assert len(failing_start) <= 1  # one start in all (none without pyspark: its import is the error)
    assert "cannot start Spark" in first.value.message or "pyspark is not installed" in first.value.message
    with pytest.raises(BadInput) as again:  # taken once: a later open starts again
        spark_session.session_for(url)
    assert again.value is not first.value


def test_a_cancelled_early_start_does_not_begin(
    url: str, failing_start: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    begun: list[str] = []
    monkeypatch.setattr(spark_session, "session_for", lambda u: begun.append(u))
    cancelled = threading.Event()
    cancelled.set()
    _early(url, cancelled)
    assert begun == [] and url not in spark_session._EARLY


def test_a_url_the_open_refuses_is_left_to_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    begun: list[str] = []
    monkeypatch.setattr(spark_session, "session_for", lambda u: begun.append(u))
    _early("spark://local[2]")  # no warehouse: the command's open says so itself
    assert begun == [] and spark_session._EARLY_FAILED == {}


def test_a_start_under_way_at_the_commands_end_is_killed(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    killed: list[set[int]] = []
    monkeypatch.setattr(spark_session, "_kill_new_jvms", lambda before: killed.append(before))
    monkeypatch.setitem(spark_session._EARLY, url, {12345})
    spark_session.abandon_early()
    assert killed == [{12345}]


def test_the_command_line_starts_the_session_early_and_cancels_it_at_the_end(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ldiv_db.cli.main import main

    seen: list[tuple[str, threading.Event]] = []
    ran = threading.Event()

    def start_early(u: str, cancelled: threading.Event) -> None:
        seen.append((u, cancelled))
        ran.set()

    monkeypatch.setattr(spark_session, "start_early", start_early)
    abandoned: list[int] = []
    monkeypatch.setattr(spark_session, "abandon_early", lambda: abandoned.append(1))
    # the command fails on its own option, before it opens the database
    code = main(["check", url, "--table", "t", "--qi", "a", "--sa", "s", "--model", "distinct", "--l", "x"])
    assert code == 2 and "--l" in capsys.readouterr().err
    assert ran.wait(30) and seen[0][0] == url
    assert seen[0][1].is_set() and abandoned == [1]  # cancelled, and any start under way abandoned
