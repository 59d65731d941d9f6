"""A verdict shown is a verdict that still holds, on PostgreSQL (ldiv_db/core/release_state.py): the cases of
tests/integration/test_verdict_state.py against a server database, where the digest is
sql/ownership/digest.postgres.sql (each row's hash_record_extended)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_verdict_state import (
    CHANGES,
    WORD,
    assert_not_verified,
    execute,
    listed,
    reported,
    world,
)


@pytest.fixture
def pg(pg_server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:  # type: ignore[no-untyped-def]
    return world(capsys, pg_server.url(pg_server.new_database("verdict")), tmp_path)


def test_an_untouched_release_says_verified_on_postgres(
    pg: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, lines = listed(capsys, pg)
    assert rows["main.rel"]["table_state"] == "intact" and " verified (" in lines["main.rel"]
    seen = reported(capsys, pg, "rel", tmp_path / "r.html")
    assert seen["json"]["table_state"] == "intact" and seen["json"]["verified"] is True
    assert "✔" in seen["headline"]


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_release_never_shows_its_verdict_on_postgres(
    pg: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    sql, state = CHANGES[change]
    execute(pg, sql)
    rows, lines = listed(capsys, pg)
    assert rows["main.rel"]["table_state"] == state and rows["main.rel"]["verified"] is None
    assert WORD[state] in lines["main.rel"] and " verified (" not in lines["main.rel"]
    assert rows["main.other"]["table_state"] == "intact"
    seen = reported(capsys, pg, "rel", tmp_path / "r.html")
    assert_not_verified(seen, state)
    if change == "update_every_sa_value":
        assert seen["figures"]["distinct_l"] == "1"
