"""The templates' second hash: DuckDB reads each key as salted text (render's ``salted`` filter), while
PostgreSQL and Spark, whose hashes take a seed, get their seeded ``hash(keys, 'ldiv')`` for it."""

from __future__ import annotations

import pytest

from ldiv_db.db.postgres.dialect import POSTGRES
from ldiv_db.db.spark.dialect import SPARK
from ldiv_db.sqlgen.dialects import Target, translate
from ldiv_db.sqlgen.render import Ident, TableRef, render

SALTED = "SELECT hash('ldiv:' || CAST(a AS VARCHAR), 'ldiv:' || CAST(b AS VARCHAR)) >> 1 FROM t"


@pytest.mark.parametrize("target", [POSTGRES, SPARK], ids=["postgres", "spark"])
def test_a_seeded_engine_hashes_the_keys_themselves(target: Target) -> None:
    assert translate(SALTED, target) == translate("SELECT hash(a, b, 'ldiv') >> 1 FROM t", target)


@pytest.mark.parametrize("target", [POSTGRES, SPARK], ids=["postgres", "spark"])
def test_other_concatenations_stay_hashed_as_text(target: Target) -> None:
    other = SALTED.replace("'ldiv:' ||", "'x:' ||", 1)
    assert translate(other, target) != translate("SELECT hash(a, b, 'ldiv') >> 1 FROM t", target)


def test_the_histogram_reads_salted_keys_on_duckdb() -> None:
    """Not ``hash(keys, 'ldiv')``: on DuckDB that is a fixed function of ``hash(keys)``
    (tests/integration/test_second_hash.py builds a collision it misses)."""
    q = render("partition/histogram.sql", {"parts": 1, "part": 0}, target=TableRef("h"), source=TableRef("t"),
               keys=[Ident("a"), Ident("b")], sa=[Ident("s")], null_as_value=False,
               exact_ids=False, partitioned=False)  # fmt: skip
    assert "hash('ldiv:' || CAST(\"a\" AS VARCHAR), 'ldiv:' || CAST(\"b\" AS VARCHAR))" in q.sql
    assert "\"b\", 'ldiv')" not in q.sql
