"""A release's QIs must hold plain values. Compound and binary columns and numbers that are NaN or
infinite are refused up front with an error that names the column; before, TP's arithmetic crashed on
NaN (a ValueError), Mondrian published labels such as '0-NaN' until its verification refused them, and
on PostgreSQL TP's labels failed as an internal error for a column without min/max (boolean, uuid)."""

from __future__ import annotations

import re

import pytest

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

ALGORITHMS = ["tp", "mondrian", "bsgi"]


@pytest.fixture
def typed(db: Database) -> Database:
    db.con.execute(
        """CREATE TABLE main.t AS SELECT
            (i % 5)::INTEGER AS a,
            [i % 2, 1] AS arr,
            {'k': i % 3} AS st,
            CAST(CAST(i % 4 AS VARCHAR) AS BLOB) AS b,
            (i % 2 = 0) AS flag,
            CAST('0000000' || CAST(i % 3 AS VARCHAR) || '-0000-0000-0000-000000000000' AS UUID) AS u,
            CASE WHEN i % 7 = 0 THEN 'NaN'::DOUBLE WHEN i % 11 = 0 THEN 'inf'::DOUBLE ELSE (i % 4)::DOUBLE END AS f,
            (i % 4)::DOUBLE AS g,
            'v' || CAST(i % 6 AS VARCHAR) AS sa
        FROM range(1, 601) AS r(i)"""
    )
    return db


def _written(db: Database) -> bool:
    return bool(
        db.con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'o'").fetchone()[0]
    )  # type: ignore[index]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(("column", "shown"), [("arr", "BIGINT[]"), ("st", "STRUCT"), ("b", "BLOB")])
def test_a_compound_or_binary_qi_is_refused(typed: Database, algorithm: str, column: str, shown: str) -> None:
    with pytest.raises(BadInput, match=re.escape(f"QI column '{column}' is of type {shown}")) as err:
        ldiv_db.anonymize(typed, "t", [column, "a"], "sa", algorithm=algorithm, l=2, output="o")
    assert err.value.hint and f'CAST("{column}" AS VARCHAR)' in err.value.hint
    assert not _written(typed)
    assert ldiv_db.check(typed, "t", [column, "a"], "sa", model="distinct", l=2).groups > 0  # a read takes it


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_nan_and_infinity_in_a_numeric_qi_are_refused(typed: Database, algorithm: str) -> None:
    with pytest.raises(BadInput, match=r"'f' has 132 NaN or infinite value\(s\) \(of 600 rows\)"):
        ldiv_db.anonymize(typed, "t", ["f", "a"], "sa", algorithm=algorithm, l=2, output="o")
    assert not _written(typed)
    done = ldiv_db.anonymize(typed, "t", ["g", "a"], "sa", algorithm=algorithm, l=2, output="o")
    assert done.verified  # finite doubles pass


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("column", ["flag", "u"])
def test_boolean_and_uuid_qis_are_released(typed: Database, algorithm: str, column: str) -> None:
    done = ldiv_db.anonymize(
        typed, "t", [column, "a"], "sa", algorithm=algorithm, l=2, output="o", replace=True
    )
    assert done.verified and done.rows_published + done.rows_deleted == 600
