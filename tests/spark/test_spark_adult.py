"""Adult on Spark against DuckDB (slow; the same runs as the PostgreSQL parity test, and optimal): for
every algorithm the release has the same groups (up to renumbering; Decomposition+: its QID- and
SA-tables), counts and metrics (to 1e-9), and is verified on Spark; ``check`` statistics are identical."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ldiv_db.db import Database
from ldiv_db.db.spark.engine import ALGORITHMS
from tests.engines.test_pg_adult import ADULT, QI6, RUNS, SA, _load, assert_same_check, assert_same_release

pytestmark = [
    pytest.mark.spark,
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]

# optimal is not in the PostgreSQL runs; on Spark it searches the same lattice over the histogram SQL builds
OPTIMAL = ("optimal", QI6, SA, {"l": 3, "model": "distinct", "suppression_limit": "0.05"})
SPARK_RUNS = [r for r in RUNS if r[0] in ALGORITHMS] + [OPTIMAL]


@pytest.fixture(scope="module")
def both(spark_session, spark_url, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    duck = _load(str(tmp_path_factory.mktemp("adult") / "adult.duckdb"))
    spark = _load(spark_url)
    yield duck, spark
    duck.close()
    spark.drop_work_tables()
    spark.close()


def test_every_algorithm_runs() -> None:
    assert {r[0] for r in RUNS} <= {r[0] for r in SPARK_RUNS} == set(ALGORITHMS)


@pytest.mark.parametrize(("algorithm", "qi", "sa", "kwargs"), SPARK_RUNS, ids=[r[0] for r in SPARK_RUNS])
def test_adult_release_is_the_same_on_spark(both, algorithm, qi, sa, kwargs) -> None:  # type: ignore[no-untyped-def]
    assert_same_release(*both, algorithm, qi, sa, kwargs)


def test_adult_check_is_identical(both) -> None:  # type: ignore[no-untyped-def]
    assert_same_check(*both)
