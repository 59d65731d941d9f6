"""An order-free algorithm on Spark (tests/integration/test_order_free.py's check): the census and the
same rows permuted, loaded through ``ldiv load`` (``ldiv_rowid`` in file order), one seed — the same
published rows with the same group ids, every source row in the group of its image. A Spark table keeps
no row order, so the published rows are compared as sorted lists."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ldiv_db.algorithms import REGISTRY
from ldiv_db.db import Database
from tests.integration.test_order_free import CASES, _build, _frames, _release, _same_groups_of_rows

pytestmark = [pytest.mark.spark, pytest.mark.slow]


@pytest.fixture(scope="module")
def spark(spark_session, spark_url, tmp_path_factory) -> Iterator[Database]:  # type: ignore[no-untyped-def]
    db = _build(spark_url, Path(tmp_path_factory.mktemp("order_free_spark")))
    yield db
    db.drop_work_tables()
    db.close()


@pytest.mark.parametrize("algorithm", sorted(a for a, cls in REGISTRY.items() if cls.order_free))
def test_permuted_source_same_release_on_spark(spark: Database, algorithm: str) -> None:
    options = CASES[algorithm][0]
    _, perm = _frames()
    a = _release(spark, "census", algorithm, "out_a", options, ordered=False)
    b = _release(spark, "shuffled", algorithm, "out_b", options, ordered=False)
    assert a["counts"][0] > 10
    assert sorted(a["rows"]) == sorted(b["rows"]), "the published rows or their group ids differ"
    assert _same_groups_of_rows(a, b, perm)
    assert a["counts"] == b["counts"]
    assert a["metrics"] == b["metrics"]
