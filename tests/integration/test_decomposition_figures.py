"""Decomposition+'s verification figures (groups, smallest group, groups below l_i per SA) read from the
group statistics the shared evaluator computes on the written SA-table (``evaluate(on_stats=...)``,
``decomposition/diverse.sql`` with ``stats``): the same numbers as that template grouping the table
itself, and as a count in pandas, on SA-tables with violating groups, NULL values and several SAs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from ldiv_db.core.catalog import table_at
from ldiv_db.core.inputs import Inputs
from ldiv_db.db import Database
from ldiv_db.errors import InternalError
from ldiv_db.privacy import Distinct
from ldiv_db.sqlgen.render import Ident, TableRef, render
from ldiv_db.verify.check import evaluate
from tests.integration.frames import make_table

GROUP = "group id"
SA = ["ünï", "order"]


def _sa_table(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    groups = rng.integers(1, max(2, n // 4), n)
    values: dict[str, Any] = {GROUP: groups}
    for i, name in enumerate(SA):
        vals = rng.choice([f"v{j}" for j in range(3 + 2 * i)], n).astype(object)
        vals[rng.random(n) < 0.1] = None  # NULL is a value of its own (null_as_value)
        values[name] = vals
    return pd.DataFrame(values)


def _brute(frame: pd.DataFrame, ls: list[int]) -> dict[str, int | None]:
    by = frame.groupby(GROUP)
    distinct = [by[c].apply(lambda s: s.nunique(dropna=False)) for c in SA]
    below = [(d < l_i) for d, l_i in zip(distinct, ls, strict=True)]
    return {
        "groups": len(by),
        "violating": int((below[0] | below[1]).sum()),
        "min_group": int(by.size().min()),
        "v1": int(below[0].sum()),
        "v2": int(below[1].sum()),
    }


def _both(db: Database, ls: list[int]) -> tuple[dict[str, Any], dict[str, Any]]:
    target = TableRef("sa table")
    ctx: dict[str, Any] = {"target": target, "group_column": Ident(GROUP), "sa": [Ident(c) for c in SA]}
    table = table_at(db, target)
    rows = int(db.con.execute('SELECT count(*) FROM "sa table"').fetchall()[0][0])
    inputs = Inputs(table, (), tuple(table.column(c) for c in SA), table.column(GROUP), rows)
    found: list[dict[str, Any]] = []

    def figures(stats: TableRef) -> None:
        found.extend(db.records(render("decomposition/diverse.sql", {"ls": ls}, stats=stats, **ctx)))

    evaluate(
        db, inputs, Distinct(tuple(ls)), null_as_value=True, prefix="t_dec", profile=False, on_stats=figures
    )
    grouped = db.records(render("decomposition/diverse.sql", {"ls": ls}, **ctx))[0]
    return found[0], grouped


@pytest.mark.parametrize("seed", range(6))
def test_figures_from_the_statistics_are_the_tables(db: Database, seed: int) -> None:
    frame = _sa_table(seed, 40 + 70 * seed)
    make_table(db, "sa table", frame)
    for ls in ([2, 3], [3, 4], [1, 1]):
        from_stats, grouped = _both(db, ls)
        assert {k: (None if v is None else int(v)) for k, v in from_stats.items()} == _brute(frame, ls)
        assert from_stats == grouped
    db.drop_work_tables()


def test_on_stats_refuses_a_split_evaluation(db: Database) -> None:
    make_table(db, "sa table", _sa_table(9, 60))
    table = table_at(db, TableRef("sa table"))
    inputs = Inputs(table, (), tuple(table.column(c) for c in SA), table.column(GROUP), 60)
    with pytest.raises(InternalError, match="whole evaluation"):
        evaluate(db, inputs, Distinct((2, 2)), null_as_value=True, parts=2, on_stats=lambda stats: None)
