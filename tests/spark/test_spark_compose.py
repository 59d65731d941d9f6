"""The composition check on Spark: the hand-derived case of tests/integration/test_compose.py, three
releases (so the pairs are counted apart too), with the counts derived there."""

from __future__ import annotations

from pathlib import Path

import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.pipeline.compose import compose
from tests.integration.test_compose import make_ab

pytestmark = pytest.mark.spark


def test_hand_derived_case_on_spark(tmp_path: Path, spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    with Database.open(spark_url) as db:
        make_ab(db, tmp_path)
        res = ldiv_db.compose(db, ["by_b", "by_a", "none"], worst=2)
        assert (res.rows, res.below, res.single, res.empty) == (8, (8, 8, 8), 8, 0)
        # by_b and by_a alone leave every row one value; beside none, either leaves two
        assert [n for *_, n in res.pairs] == [8, 0, 0]
        assert [(w["left"], w["rows"]) for w in res.worst] == [(1, 2), (1, 2)]
        # a publish of by_a counts its pairs only: with by_b and with none
        by_a = res.release_ids[1]
        assert [n for *_, n in compose(db, res.release_ids, worst=0, pairs_with=by_a).pairs] == [8, 0]
