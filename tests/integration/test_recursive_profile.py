"""partition/recursive_profile.sql on DuckDB: the same bounds as the definition on random counts of either
form (tests/integration/profile_checks.py), and linear in a class's values (one class of 50,000 distinct
values: a slice summed per l took minutes)."""

from __future__ import annotations

import time

import pytest

from ldiv_db.db import Database

from .profile_checks import Case, Group, assert_same, cases, one_class, profile


@pytest.fixture(scope="module")
def db():  # type: ignore[no-untyped-def]
    database = Database.open(":memory:")
    yield database
    database.close()


@pytest.mark.parametrize("seed", range(6))
def test_the_bounds_are_the_definitions(db: Database, seed: int) -> None:
    for case in cases(seed, 25):
        assert_same(profile(db, case), case)


EDGES = [
    Case((Group(0, 1, None, 5),), (5,)),  # the ones only
    Case((Group(0, 1, (3,), 4), Group(1, 1, None, 6)), (5,)),  # l into the ones, past the listed
    Case((Group(0, 1, tuple(range(80, 0, -2)), 9), Group(1, 1, (2,) * 40, 3)), (43,)),  # long, then ones
    Case((Group(0, 1, (4, 2), 0), Group(1, 1, (4, 2), 0), Group(2, 1, (2, 1), 0)), (2,)),  # ties
    Case(
        (Group(0, 1, (9,) * 40, 0), Group(1, 2, (5, 3, 1), 0), Group(2, 3, (7, 7), 1)),
        (40, 3, 2),  # several SAs, each its own distinct l
    ),
    Case((Group(0, 1, (5, 5), 0), Group(1, 2, (6, 1), 0)), (1, 2)),  # an SA without a profile
]


def test_the_edges(db: Database) -> None:
    for case in EDGES:
        assert_same(profile(db, case), case)


def test_one_class_of_fifty_thousand_values_is_linear(db: Database) -> None:
    case = one_class(50_000)
    t0 = time.perf_counter()
    got = profile(db, case)
    assert time.perf_counter() - t0 < 20.0  # was minutes: a slice of the class's list summed per l
    assert len(got[1]) == 49_999
    assert_same(got, case)
