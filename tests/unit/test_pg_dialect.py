"""The PostgreSQL dialect's rewrites that need no server: which null-safe equalities become hashable keys."""

from __future__ import annotations

from ldiv_db.db.postgres.dialect import POSTGRES
from ldiv_db.sqlgen.dialects import translate


def test_exists_conditions_become_hashable_keys_outside_or() -> None:
    """A top-level conjunct of an EXISTS subquery's WHERE is a key of the semi- or anti-join PostgreSQL plans
    for it; one inside an OR is not, and keeps its plain form."""
    (sql,) = translate(
        "SELECT a.v FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.v IS NOT DISTINCT FROM a.v "
        "AND (b.w IS NOT DISTINCT FROM a.w OR b.x = 1))",
        POSTGRES,
    )
    assert "COALESCE(CAST(b.v AS TEXT), '') = COALESCE(CAST(a.v AS TEXT), '')" in sql
    assert "(b.v IS NULL) = (a.v IS NULL)" in sql
    assert "b.w IS NOT DISTINCT FROM a.w" in sql
