"""The suppression write from an algorithm's star flags (``Partitioning.group_stars``: TP+ and Hilbert):
the published table is the one the per-group grouping writes, byte for byte and in the same row order,
and flags that are wrong cannot publish a release finer than the verification sees."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
import ldiv_db.algorithms.hilbert as hilbert_algorithm
import ldiv_db.algorithms.tp as tp_algorithm
from ldiv_db.algorithms.hilbert import curve
from ldiv_db.db import Database
from ldiv_db.errors import LdivError
from tests.integration.frames import make_table

QI = ["age", "city", "day", "flag"]


@st.composite
def tables(draw: st.DrawFn) -> pd.DataFrame:
    """Small domains (so groups agree on some QIs and not others), NULLs in every QI, a kept column."""
    n = draw(st.integers(12, 80))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    null = lambda: rng.random(n) < draw(st.sampled_from([0.0, 0.1]))  # noqa: E731
    age = pd.array(rng.integers(20, 20 + draw(st.integers(1, 4)), n), dtype="Int64")
    age[null()] = pd.NA
    city = pd.Series(rng.choice(["Oslo", "Bergen", 'o\'Hare "x"', "Ålesund"], n), dtype=object)
    city[null()] = None
    day = pd.Series(pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 3, n), unit="D"))
    day[null()] = pd.NaT
    flag = pd.array(rng.random(n) < 0.5, dtype="boolean")
    flag[null()] = pd.NA
    sa = rng.choice([f"v{i}" for i in range(draw(st.integers(3, 6)))], n)
    frame = pd.DataFrame({"age": age, "city": city, "day": day.dt.date, "flag": flag, "sa": sa})
    frame["note"] = [f"n{i % 7}" for i in range(n)]
    return frame


def _release(db: Database, algorithm: str, l: int, out: str) -> list[tuple[Any, ...]]:
    ldiv_db.anonymize(
        db,
        "t",
        QI,
        "sa",
        algorithm=algorithm,
        l=l,
        output=out,
        seed=3,
        null_as_value=True,
        keep_columns=["note"],
    )
    return db.con.execute(f'SELECT * FROM "{out}"').fetchall()  # in the stored order


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=tables(), algorithm=st.sampled_from(["tp+", "hilbert"]), l=st.integers(2, 3))
def test_the_flags_write_what_the_grouping_writes(
    frame: pd.DataFrame, algorithm: str, l: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if frame["sa"].value_counts().max() * l > len(frame):
        l = 2
    if frame["sa"].value_counts().max() * l > len(frame):
        return  # not l-eligible: refused either way
    with Database.open(":memory:") as db:
        make_table(db, "t", frame)
        flagged = _release(db, algorithm, l, "o_flags")
        with monkeypatch.context() as m:  # the same run with the rows grouped for their labels
            for module in (tp_algorithm, hilbert_algorithm):
                m.setattr(module, "write_group_stars", lambda request, split: None)
            grouped = _release(db, algorithm, l, "o_grouped")
    assert flagged == grouped


def test_flags_that_claim_agreement_cannot_hide_a_finer_partition(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flags saying every group agrees (an algorithm's bug) publish each row's own values: the verification
    finds the groups' several label vectors on the written table and refuses the release."""
    rng = np.random.default_rng(5)
    n = 60
    frame = pd.DataFrame(
        {
            "age": rng.integers(20, 60, n),
            "city": rng.choice(["a", "b", "c", "d", "e"], n),
            "day": pd.Series(
                pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 30, n), unit="D")
            ).dt.date,
            "flag": rng.random(n) < 0.5,
            "sa": rng.choice(["x", "y", "z", "w"], n),
            "note": ["n"] * n,
        }
    )
    real = curve.write_group_stars

    def none_starred(request: Any, split: Any) -> Any:
        return real(request, None)  # the table, with no group in it

    with Database.open(":memory:") as db:
        make_table(db, "t", frame)
        monkeypatch.setattr(hilbert_algorithm, "write_group_stars", none_starred)
        with pytest.raises(LdivError, match=r"violates .*group_id \+ QI labels.*nothing was published"):
            ldiv_db.anonymize(db, "t", QI, "sa", algorithm="hilbert", l=2, output="o", seed=1)
        assert not db.con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'o'").fetchone()[0]


def test_a_float_qi_is_labelled_from_its_groups_rows() -> None:
    """0.0 and -0.0 are one value (one Hilbert coordinate) printed two ways: a float QI keeps the labels
    its group's rows give (one per group), not each row's own spelling."""
    n = 40
    frame = pd.DataFrame(
        {"x": [0.0 if i % 2 else -0.0 for i in range(n)], "sa": [f"v{i % 4}" for i in range(n)]}
    )
    with Database.open(":memory:") as db:
        make_table(db, "t", frame)
        r = ldiv_db.anonymize(db, "t", ["x"], "sa", algorithm="hilbert", l=2, output="o", seed=1)
        assert r.verified
        per_group = db.con.execute(
            'SELECT max(n) FROM (SELECT count(DISTINCT x) AS n FROM o GROUP BY "group_id")'
        )
        assert per_group.fetchone()[0] == 1
