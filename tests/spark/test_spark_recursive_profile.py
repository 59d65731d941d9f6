"""partition/recursive_profile.sql on Spark: the definition's bounds on random counts in the histogram's
form and on those of the edges DuckDB's test takes (tests/integration/profile_checks.py). Spark's counts are
always partition/group_counts.sql's, every count listed (a NULL list's ``size`` is -1 there, not NULL). A
class of 3,000 values among them: its list unnested once, its tails a running window (a frame ending at
the current row; one ending at the partition's end is summed again for every row on Spark)."""

from __future__ import annotations

import random

import pytest

from ldiv_db.db import Database
from tests.integration.profile_checks import assert_same, one_class, profile, random_case
from tests.integration.test_recursive_profile import EDGES

pytestmark = pytest.mark.spark


def test_the_bounds_are_the_definitions(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    listed = [c for c in EDGES if all(g.counts is not None and g.ones == 0 for g in c.groups)]
    every = [*(random_case(rng, listed_ones=True) for _ in range(6)), *listed, one_class(3_000)]
    with Database.open(spark_url) as db:
        for i, case in enumerate(every):
            assert_same(profile(db, case, f"profile_case_{i}"), case)
