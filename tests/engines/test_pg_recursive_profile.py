"""partition/recursive_profile.sql on PostgreSQL: the definition's bounds on random counts of either form
and on the edges DuckDB's test takes (tests/integration/profile_checks.py), and one class of 20,000 values
in seconds (linear: its list is unnested once, its tails summed by a running window)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from ldiv_db.db import Database
from tests.integration.profile_checks import assert_same, cases, one_class, profile
from tests.integration.test_recursive_profile import EDGES


@pytest.fixture(scope="module")
def db(pg_server) -> Iterator[Database]:  # type: ignore[no-untyped-def]
    database = Database.open(pg_server.url(pg_server.new_database("profile")))
    yield database
    database.close()


def test_the_bounds_are_the_definitions(db: Database) -> None:
    for case in [*cases(7, 30), *EDGES]:
        assert_same(profile(db, case), case)


def test_one_class_of_twenty_thousand_values_is_linear(db: Database) -> None:
    case = one_class(20_000)
    t0 = time.perf_counter()
    got = profile(db, case)
    assert time.perf_counter() - t0 < 30.0
    assert_same(got, case)
