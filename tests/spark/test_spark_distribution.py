"""The distribution models on Spark local against DuckDB, on a paper fixture: ``check`` under each model
(t-closeness with the equal distance, δ-disclosure, β-likeness, and distinct with t-closeness) gives the
same verdicts and the same largest t, δ, β."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fixtures.papers import PAPER_TABLES
from ldiv_db import api

pytestmark = pytest.mark.spark

MODELS: list[dict[str, Any]] = [
    {"model": "t-closeness", "t": "0.3"},
    {"model": "delta-disclosure", "delta": "2", "delta_variant": "arx"},
    {"model": "beta-likeness", "beta": "1", "likeness": "enhanced"},
    {"model": "distinct,t-closeness", "l": 2, "t": "1/2"},
]


def test_distribution_checks_match_duckdb(tmp_path: Path, spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    table = PAPER_TABLES["bsgi_table1"]
    duck = str(tmp_path / "paper.duckdb")
    for db in (duck, spark_url):
        api.load(db, str(table.path), "dist_check")
    for opts in MODELS:
        got = {}
        for db in (duck, spark_url):
            r = api.check(db, "dist_check", list(table.qi), list(table.sa), **opts).to_dict()
            got[db] = {
                k: v
                for k, v in r.items()
                if k.startswith("largest") or k in ("satisfied", "violating_classes")
            }
        assert got[spark_url] == got[duck], opts
        assert any(k.startswith("largest") for k in got[duck])
