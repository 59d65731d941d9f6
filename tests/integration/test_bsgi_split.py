"""BSGI ``--refine exchange`` with the feasible-split start (single SA, no individual column), through the
whole pipeline: the start taken is the lowest-IL candidate, never above the greedy's, the release keeps
Theorem 1's class count with a DM not above the paper's, and every class holds distinct SA values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import import_hierarchy
from tests.integration.frames import make_table
from tests.integration.test_bsgi import CITY
from tests.integration.test_bsgi_refine import _release, tables


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=tables())
def test_split_start_is_taken_by_least_il(tmp_path: Path, case: dict[str, Any]) -> None:
    case = {**case, "several": False, "individual": False}
    with Database.open(":memory:") as db:
        make_table(db, "r", case["frame"])
        f = tmp_path / "city.csv"
        f.write_text("\n".join(";".join(x) for x in CITY) + "\n", encoding="utf-8")
        import_hierarchy(db, "r", "city", f)
        try:
            plain = _release(db, case, "none")
        except BadInput:
            assume(False)
            return
        refined = _release(db, case, "exchange")
        d = refined.details["refine"]
        candidates = d["start_candidates"]
        assert d["start"] in candidates and d["start_il"] == candidates[d["start"]]
        assert d["start_il"] <= candidates["greedy"] == pytest.approx(float(plain.metrics["il"]), rel=1e-9)
        assert d["il_after"] <= d["start_il"]
        assert refined.groups == plain.groups and refined.metrics["dm"] <= plain.metrics["dm"]
        if plain.model == "unique-distinct":
            check = ldiv_db.check(
                db, "rel_exchange", None, "sa", group_column="group_id", model="unique-distinct", l=case["l"]
            )
            assert check.satisfied
