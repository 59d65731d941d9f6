"""A verdict shown is a verdict that still holds, on Spark (ldiv_db/core/release_state.py): a release's table
fingerprint there is sql/ownership/digest.spark.sql (the sum of xxhash64 over each row's columns), taken
after the staged writer renamed the table into place. Spark's tables take no UPDATE or DELETE; a row
inserted or the table dropped must turn ``ldiv releases`` and ``ldiv report`` away from the verdict."""

from __future__ import annotations

import pytest

from fixtures.papers import PAPER_TABLES
from ldiv_db import api

pytestmark = pytest.mark.spark


def _state(url: str, name: str) -> dict[str, object]:
    (row,) = [
        r for r in api.releases(url).to_dict()["releases"] if r["name"] == name and not r["superseded_by"]
    ]
    return row


def test_releases_and_report_check_the_table_on_spark(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    table = PAPER_TABLES["bsgi_table1"]
    api.load(spark_url, str(table.path), "verdict_src")
    for out in ("verdict_a", "verdict_b"):
        res = api.anonymize(
            spark_url, "verdict_src", list(table.qi), list(table.sa), algorithm="tp", output=out, l=2
        )
        assert res.verified
    for out in ("verdict_a", "verdict_b"):
        row = _state(spark_url, f"main.{out}")
        assert row["table_state"] == "intact" and row["verified"] is True, row
    rep = api.report(spark_url, "verdict_a").to_dict()["releases"][0]
    assert rep["table_state"] == "intact" and rep["verified"] is True

    spark_session.sql("INSERT INTO main.verdict_a SELECT * FROM main.verdict_a LIMIT 1")
    spark_session.sql("DROP TABLE main.verdict_b")
    a, b = _state(spark_url, "main.verdict_a"), _state(spark_url, "main.verdict_b")
    assert (
        a["table_state"] == "changed"
        and a["verified"] is None
        and "rows when verified" in str(a["table_detail"])
    )
    assert b["table_state"] == "missing" and b["verified"] is None
    text = api.releases(spark_url).render_text()
    assert "CHANGED since verification" in text and "MISSING" in text
    rep = api.report(spark_url, ["verdict_a", "verdict_b"])
    got = {r["release"]: r for r in rep.to_dict()["releases"]}
    assert got["main.verdict_a"]["table_state"] == "changed" and got["main.verdict_a"]["verified"] is None
    assert got["main.verdict_b"]["table_state"] == "missing" and got["main.verdict_b"]["verified"] is None
    assert "✔" not in rep.render_text()
