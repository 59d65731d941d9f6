"""``ldiv risk`` on PostgreSQL gives DuckDB's figures for the same data: every figure, the per-QI
contributions, the journalist risk against a population table and the per-row table (``--rows-out``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fixtures import census
from ldiv_db.cli.main import main
from ldiv_db.core.catalog import resolve_table
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query, TableRef

QI = "age,sex,race,education"


def _risk(capsys: pytest.CaptureFixture[str], target: str) -> dict[str, Any]:
    args = ["risk", target, "--table", "sample", "--qi", QI, "--population-table", "census", "--json"]
    assert main([*args, "--rows-out", "sample_risk"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_risk_on_postgres_is_duckdbs(pg_server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    files = census.write(tmp_path, n=1500)
    results, per_row = [], []
    for target in (str(tmp_path / "d.duckdb"), pg_server.url(pg_server.new_database("risk"))):
        assert main(["load", target, str(files["data"]), "--table", "census", "--sep", ";"]) == 0
        capsys.readouterr()
        db = Database.open(target)
        try:
            src = resolve_table(db, "census").ref
            sample = TableRef("sample", src.schema, src.catalog)
            with db.transaction():
                db.run(
                    Query(
                        "sample",
                        f"CREATE TABLE {sample.sql()} AS SELECT * FROM {src.sql()} WHERE age % 3 = 0",
                    )
                )
        finally:
            db.close()
        results.append(_risk(capsys, target))
        db = Database.open(target, mode="read")
        try:
            per_row.append(
                sorted(
                    db.rows(
                        Query(
                            "rows",
                            "SELECT class_size, population_size, sample_unique, above_threshold FROM "
                            + resolve_table(db, "sample_risk").ref.sql(),
                        )
                    )
                )
            )
        finally:
            db.close()
    duck, pg = results
    assert [f["key"] for f in duck["figures"]] == [f["key"] for f in pg["figures"]]
    for a, b in zip(duck["figures"], pg["figures"], strict=True):
        assert a["value"] == pytest.approx(b["value"], rel=1e-12), a["key"]
    assert duck["classes"] == pg["classes"] and duck["qi_contribution"] == pg["qi_contribution"]
    assert per_row[0] == per_row[1] and len(per_row[0]) == duck["rows"]
